/**
 * A solved state's metrics as duals along a tangent: the model's evaluation with each point's
 * own move per hardpoint coordinate added (SuspensionModel.explicitPointRate), plus what that
 * evaluation lacks: the rocker angles' moving design reference and the devices' metrics.
 */
import { toMatrix } from '../../../kernel/quat';
import { packedMap } from '../../../kernel/packed-map';
import type { TangentSpace } from '../../../kernel/analysis';
import { Dual, DualVec3 as DualVec3Class, dScale, type DualVec3 } from '../../../kernel/dual';
import { turnAboutAxis } from '../metrics';
import type { StateEvaluation } from '../build/model';
import { addShareRate } from './rod-fraction';
import { deviceMetricDuals } from './devices';
import type { SensitivityContext } from './types';

/** A state's evaluation with the rocker angles and device metrics as duals. */
export type DualEvaluation = StateEvaluation & { rockerAngles: (Dual | null)[]; devices: Map<string, Dual> };

/**
 * Evaluate the state along `rates`, each point's local move added at columns base + 3j + c.
 * `lookup`: hardpoint index per point-term local array, kept between calls.
 */
export function evaluateAlong(ctx: SensitivityContext, lookup: WeakMap<ArrayLike<number>, number>, rates: TangentSpace, base: number, seen?: Uint8Array, dualsOnly = false): DualEvaluation {
  const sm = ctx.sm;
  const R = rotation;
  const sys = sm.model.system;
  sm.explicitPointRate = (out: DualVec3, term, n) => {
    // every point dual passes here, term by term: the parts the evaluation reads
    if (seen) seen[term.variable] = 1;
    // a point on a rod's centreline: its fraction moves with the points
    addShareRate(ctx, out, term, n, base);
    let j = lookup.get(term.local);
    if (j === undefined) lookup.set(term.local, (j = ctx.hardpointAt(term.local)));
    toMatrix(R, sys.state, sys.variables[term.variable].offset + 3);
    if (j < 0) {
      // the wheel centre (an axle's road plane): not a hardpoint, it moves with the axle points
      const ci = sm.corners.findIndex((c) => c.upright === term.variable && c.wheelCenterLocal.every((x, i) => x === term.local[i]));
      if (ci < 0) return;
      const P = ctx.parameterCount, wr = ctx.wheelCenterRatesByCorner[ci];
      for (let k = 0; k < P; k++) for (let i = 0; i < 3; i++) {
        let s = 0;
        for (let c = 0; c < 3; c++) s += R[i * 3 + c] * wr[c * P + k];
        out.d[i * n + base + k] += term.weight * s;
      }
      return;
    }
    for (let i = 0; i < 3; i++) for (let c = 0; c < 3; c++) out.d[i * n + base + 3 * j + c] += term.weight * R[i * 3 + c];
  };
  try {
    const ev = sm.evaluate({ rates, dualsOnly });
    return { ...ev, rockerAngles: rockerAngles(ctx, rates, base), devices: deviceMetricDuals(ctx, rates, base, ev.corners) };
  } finally {
    sm.explicitPointRate = null;
  }
}

/** A part's rotation matrix, for one point term at a time (an off-heap array: made once). */
const rotation = new Float64Array(9);

/**
 * Each corner's rocker_angle as a dual (null without a rocker): its design reference, the
 * rocker point at design, moves with the points too (at design every part is at the
 * identity, so by the point's own move alone).
 */
function rockerAngles(ctx: SensitivityContext, rates: TangentSpace, base: number): (Dual | null)[] {
  const sm = ctx.sm;
  const n = rates.rates.length;
  const lr = new Float64Array(3);
  return packedMap(sm.corners, (c) => {
    const r = c.roles.rocker;
    const ref = c.design.rockerReference;
    if (!r || !ref) return null;
    const dual = (role: Parameters<typeof sm.resolveRole>[0]) => sm.pointDual(sm.resolveRole(role), rates, rates.rates, n);
    const p0 = new DualVec3Class(n);
    p0.v.set(ref);
    for (const t of sm.resolveRole(r.point)) {
      for (let k = 0; k < ctx.parameterCount; k++) {
        ctx.localRate(lr, t.variable, t.local, k);
        for (let i = 0; i < 3; i++) p0.d[i * n + base + k] += t.weight * lr[i];
      }
    }
    const turn = turnAboutAxis(dual(r.axis[0]), dual(r.axis[1]), dual(r.point), p0);
    const out = new Dual(n);
    dScale(out, turn, (c.sigma * 180) / Math.PI);
    return out;
  });
}
