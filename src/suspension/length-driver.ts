/**
 * A length driver's parameter map (a sweep's `element_length` target: a corner's damper,
 * the axle's heave link): the row |B − A| − target moves with the hardpoints at its two ends.
 * Each end is a part point, so its own move is a translation of its part's slot in the
 * block (as SensitivityModel.entityTwist does for a mate's point). A relative target is the
 * design length (+ travel): at design every part sits at the identity, so the design length
 * is that of the local points and moves by d|B − A|/dp, taken out of the row.
 */
import type { ResidualBlock } from '../../kernel/system';
import type { BlockParameters, SensitivityModel } from './sensitivity';
import { SensitivityError } from './sensitivity';
import { LengthBlock, type PointExpr } from './targets';

export function lengthDriverParameters(model: SensitivityModel, blk: ResidualBlock, relative: boolean): BlockParameters {
  if (!(blk instanceof LengthBlock)) throw new SensitivityError(`sensitivity: driver ${blk.owner} is not a length`);
  const P = model.parameterCount;
  const sys = model.sm.model.system;
  const localDim = blk.vars.reduce((s, v) => s + sys.variables[v].dim, 0);
  const twist = new Float64Array(localDim * P);
  const ends = [blk.exprA, blk.exprB];
  // one term per part: a part's slot can carry one point's move
  for (const e of ends) if (e.length !== 1) throw new SensitivityError(`sensitivity: driver ${blk.owner}: an end on a rod's centreline (a fraction between two points) is not mapped yet`);
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
