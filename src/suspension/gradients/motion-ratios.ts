/**
 * Gradients of `sweep --loads`' motion ratios (`rates.motion_ratios.<element>.<side>`,
 * SweepLoads.rates): d(element length)/d(hub z of a side), the other hubs and the rack held,
 * offered as `motion_ratio.<element>.<side>` (docs/sensitivity.md "Motion ratios").
 * Second order: each side's hub motion q̇_j = A⁻¹e_j changes along a hardpoint coordinate by
 * q̇_j' = −A⁻¹(dA/ds)q̇_j; derivative-sensitivity.ts coordinateTangents seeds every point
 * with both, so the length's dual (d: along the hubs, t: along p_k) carries the entry.
 * Only at a state the hubs (and rack) drive, as the deriv_* metrics; null otherwise.
 */
import { DualVec3, dvLength, dvSub, Dual } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import type { PointToPointForce } from '../../../mates/forces';
import { coordinateTangents } from './derivatives';
import { driverRowsOf, solve } from './roll-centre';
import type { DriverParameters, MetricGradient, SensitivityContext, StateFactors } from './types';

export const MOTION_RATIO = 'motion_ratio.';

/** `motion_ratio.<element>.<side>` for each two-point element and corner side. */
export function motionRatioNames(ids: readonly string[], sides: readonly string[]): string[] {
  return ids.flatMap((id) => sides.map((s) => `${MOTION_RATIO}${id}.${s}`));
}

/** The asked motion ratios and their gradients at the state; null each where the hubs do not drive it. */
export function motionRatioGradients(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace,
  elements: readonly { id: string; block: PointToPointForce }[], names: readonly string[]): Record<string, MetricGradient | null> {
  const sides = model.sides, nc = sides.length, P = model.parameterCount;
  const asked = elements.flatMap((e) => sides.map((s, j) => ({ name: `${MOTION_RATIO}${e.id}.${s}`, e, j }))).filter((a) => names.includes(a.name));
  const out: Record<string, MetricGradient | null> = {};
  if (!asked.length) return out;
  const rows = driverRowsOf(model, f, drivers);
  if (!rows) { for (const a of asked) out[a.name] = null; return out; }
  // each side's hub raised 1 mm, the other hubs and the rack held (the sweep's derivative tangent)
  const dirs = rows.hub.map((r) => { const e = new Float64Array(f.M); e[r] = 1; return solve(f, e); });
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: dirs, layout: f.layout, size: f.n };
  const sm = model.sm;
  const values = new Float64Array(asked.length), grads = asked.map(() => new Float64Array(P));
  const lengthOf = (b: PointToPointForce) => {
    const pa = sm.pointDual([{ variable: b.vars[0], local: b.a as Float64Array, weight: 1 }], space, dirs, nc);
    const pb = sm.pointDual([{ variable: b.vars[1], local: b.b as Float64Array, weight: 1 }], space, dirs, nc);
    return dvLength(new Dual(nc), dvSub(new DualVec3(nc), pb, pa));
  };
  const done = coordinateTangents(model, f, dirs, rates, (k, run) => {
    const lengths = new Map<string, Dual>();
    run(() => { for (const e of elements) if (asked.some((a) => a.e === e)) lengths.set(e.id, lengthOf(e.block)); });
    asked.forEach((a, i) => {
      const l = lengths.get(a.e.id)!;
      values[i] = l.d[a.j];
      grads[i][k] = l.t ? l.t.d[a.j] : 0;
    });
  });
  asked.forEach((a, i) => {
    out[a.name] = done ? { value: values[i], gradient: Object.fromEntries(model.keys.map((key, k) => [key, grads[i][k]])) } : null;
  });
  return out;
}
