/**
 * A length driver's parameter map (a sweep's `element_length` target: a corner's damper,
 * the axle's heave link): the row |B − A| − target moves with the hardpoints at its two ends.
 * Each end is a part point, so its own move is a translation of its part's slot in the
 * block (as SensitivityModel.entityTwist does for a mate's point). A relative target is the
 * design length (+ travel): at design every part sits at the identity, so the design length
 * is that of the local points and moves by d|B − A|/dp, taken out of the row.
 *
 * An end on a rod's centreline, (1 − f)·A + f·B, has two terms, often on a part that holds
 * the other end too (the chassis), and its weights move with f (rod-fraction.ts): no part
 * twist carries that, so the row's whole explicit rate u·(dB/dp − dA/dp) (u the unit
 * direction now, each end's move its terms' local moves turned into the world plus their
 * weights' moves times their world points) is taken as the row's constant at each state
 * (BlockParameters.refresh); its Jacobian's rate, for the load gradients, comes from
 * rod-length-rate.ts.
 */
import type { ResidualBlock } from '../../../kernel/system';
import type { BlockParameters, SensitivityContext } from './types';
import { SensitivityError } from './types';
import { LengthBlock, type PointExpr } from '../build/targets';
import { toMatrix } from '../../../kernel/quat';
import { rodShare } from '../build/point-terms';
import { shareRates, termWorld } from './rod-fraction';
import { rodLengthRowRate } from './rod-length';

export function lengthDriverParameters(model: SensitivityContext, blk: ResidualBlock, relative: boolean): BlockParameters {
  if (!(blk instanceof LengthBlock)) throw new SensitivityError(`sensitivity: driver ${blk.owner} is not a length`);
  const P = model.parameterCount;
  const sys = model.sm.model.system;
  const localDim = blk.vars.reduce((s, v) => s + sys.variables[v].dim, 0);
  const twist = new Float64Array(localDim * P);
  const ends = [blk.exprA, blk.exprB];
  if (ends.some((e) => e.some((t) => rodShare.has(t)))) return rodLengthParameters(model, blk, relative, localDim);
  // one term per part: a part's slot can carry one point's move
  for (const e of ends) if (e.length !== 1) throw new SensitivityError(`sensitivity: driver ${blk.owner}: an end of several points that is not on a rod is not mapped`);
  if (ends[0][0].variable === ends[1][0].variable) throw new SensitivityError(`sensitivity: driver ${blk.owner}: both ends on one part`);
  const lr = new Float64Array(3);
  const rateOf = (e: PointExpr, k: number): number[] => {
    const t = e[0];
    model.localRate(lr, t.variable, t.local, k);
    return [t.weight * lr[0], t.weight * lr[1], t.weight * lr[2]];
  };
  for (const e of ends) {
    const slot = blk.vars.indexOf(e[0].variable);
    for (let k = 0; k < P; k++) {
      const r = rateOf(e, k);
      for (let i = 0; i < 3; i++) twist[(slot * 6 + 3 + i) * P + k] = r[i];
    }
  }
  if (!relative) return { twist, constant: null };
  const a = ends[0][0], b = ends[1][0];
  const d = [0, 1, 2].map((i) => b.weight * b.local[i] - a.weight * a.local[i]);
  const l = Math.hypot(d[0], d[1], d[2]);
  const constant = new Float64Array(P);
  for (let k = 0; k < P; k++) {
    const ra = rateOf(ends[0], k), rb = rateOf(ends[1], k);
    let s = 0;
    for (let i = 0; i < 3; i++) s += (d[i] / l) * (rb[i] - ra[i]);
    constant[k] = -s;
  }
  return { twist, constant };
}

/** The row's explicit rate per parameter at the current state (`world`) or at design (every part at the identity). */
function endRates(model: SensitivityContext, blk: LengthBlock, world: boolean): { u: number[]; rate: Float64Array } {
  const P = model.parameterCount;
  const sys = model.sm.model.system;
  const R = new Float64Array(9), lr = new Float64Array(3), x = new Float64Array(3);
  const pos = (e: PointExpr) => {
    const p = [0, 0, 0];
    for (const t of e) {
      if (world) termWorld(model, t, x); else x.set(t.local);
      for (let i = 0; i < 3; i++) p[i] += t.weight * x[i];
    }
    return p;
  };
  const a = pos(blk.exprA), b = pos(blk.exprB);
  const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const l = Math.hypot(d[0], d[1], d[2]);
  const u = d.map((c) => c / l);
  const rate = new Float64Array(P);
  for (const [e, sign] of [[blk.exprA, -1], [blk.exprB, 1]] as const) {
    for (const t of e) {
      // u·(moved point), the point's move in the world: R·(local move)·w + dw·X
      if (world) { toMatrix(R, sys.state, sys.variables[t.variable].offset + 3); termWorld(model, t, x); } else { R.set([1, 0, 0, 0, 1, 0, 0, 0, 1]); x.set(t.local); }
      const ru = [0, 1, 2].map((c) => R[c] * u[0] + R[3 + c] * u[1] + R[6 + c] * u[2]); // Rᵀu
      const share = shareRates(model, t);
      const ux = u[0] * x[0] + u[1] * x[1] + u[2] * x[2];
      for (let k = 0; k < P; k++) {
        model.localRate(lr, t.variable, t.local, k);
        let s = t.weight * (ru[0] * lr[0] + ru[1] * lr[1] + ru[2] * lr[2]);
        if (share) s += share.rate * share.df[k] * ux;
        rate[k] += sign * s;
      }
    }
  }
  return { u, rate };
}

function rodLengthParameters(model: SensitivityContext, blk: LengthBlock, relative: boolean, localDim: number): BlockParameters {
  const P = model.parameterCount;
  // a relative target moves with the design length (fixed for the sweep: taken once)
  const design = relative ? endRates(model, blk, false).rate : null;
  const params: BlockParameters = {
    twist: new Float64Array(localDim * P),
    constant: new Float64Array(P),
    rowRate: (layout, qd, k) => rodLengthRowRate(model, blk, layout, qd, k),
    refresh: () => {
      const { rate } = endRates(model, blk, true);
      for (let k = 0; k < P; k++) params.constant![k] = rate[k] - (design ? design[k] : 0);
      params.columns = undefined;
    },
  };
  return params;
}
