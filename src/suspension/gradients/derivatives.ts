/**
 * Exact hardpoint gradients of a corner's `deriv_*` metrics (camber gain, bump steer, the
 * motion ratio's raw d(damper length)/d(hub z), the rack's toe and camber rates): second
 * derivatives, by forward AD in tangent mode (kernel/dual.ts withTangents), never by
 * differences (docs/sensitivity.md).
 *
 * At a state driven by the hub-z row and the rack hold, the hub and rack motions are
 * q̇_j = A⁻¹e_j; along a hardpoint coordinate p_k they change by q̇_j' = −A⁻¹(dA/ds)q̇_j
 * (src/suspension/gradients/roll-centre.ts). The metrics are evaluated once per coordinate
 * with every point a dual along (hub, rack) whose tangent (.t) is its derivative along p_k:
 * a point at l on a part moves at p' = R(ω_k × l + v_k + l') and its rate along j,
 * R(ω_j × l + v_j), at R(ω_k × (ω_j × l + v_j) + ω_j' × l + ω_j × l' + v_j'), with l' its own
 * move as a hardpoint. The metric formulas carry the tangents through, so each deriv_*'s
 * tangent is its gradient entry.
 */
import { Dual, type DualVec3 } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import { DERIVATIVES_WRT_HUB_Z, DERIVATIVES_WRT_RACK } from '../build/model';
import { driverRowsOf, jacobianRateTimesVector, solve } from './roll-centre';
import type { DriverParameters, SensitivityContext, StateFactors } from './types';
import { pointTangentHook, withPointTangents } from './point-tangents';

/**
 * The `deriv_*` metrics with gradients (a corner file). The rocker angle's rate does not
 * depend on its design reference (the turn's rate is (u × r)·ṙ/|r|²), so its evaluation's
 * fixed reference is exact here.
 */
export const DERIVATIVE_METRICS: readonly string[] = [
  ...DERIVATIVES_WRT_HUB_Z.map((m) => `deriv_${m}_wrt_hub_z`),
  ...DERIVATIVES_WRT_RACK.map((m) => `deriv_${m}_wrt_rack_displacement`),
];

/**
 * An axle's: the same (half track's contact centre sits on the axle's road plane, whose
 * angle carries its tangent: metrics/axle.ts thetaTangent).
 */
export const AXLE_DERIVATIVE_METRICS: readonly string[] = DERIVATIVE_METRICS;

/**
 * `<side>:deriv_…` → value and gradient (a dual over the hardpoint coordinates), for a
 * corner or an axle at a state driven by its hubs and rack (d/d hub z of a side: that
 * side's hub alone moving); empty otherwise (another sweep's drivers, a block without
 * second derivatives).
 */
export function derivativeGradients(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace, names: readonly string[]): Record<string, Dual> {
  const sm = model.sm;
  const nc = sm.corners.length;
  const rows = driverRowsOf(model, f, drivers);
  if (!rows) return {};
  const P = model.parameterCount;
  const dirs: Float64Array[] = [];
  for (const r of [...rows.hub, rows.rack]) {
    if (r < 0) continue;
    const e = new Float64Array(f.M);
    e[r] = 1;
    dirs.push(solve(f, e));
  }
  const nd = dirs.length;
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: dirs, layout: f.layout, size: f.n };
  const out: Record<string, Dual> = {};
  const wanted = (nc === 1 ? DERIVATIVE_METRICS : AXLE_DERIVATIVE_METRICS).filter((m) => names.length === 0 || names.includes(m));
  for (const side of model.sides) for (const m of wanted) out[`${side}:${m}`] = new Dual(P);
  const done = coordinateTangents(model, f, dirs, rates, (k, run) => {
    const corners = run(() => sm.evaluate({ rates: space }).corners);
    corners.forEach((cm, ci) => { const side = model.sides[ci]; for (const m of wanted) {
      const hub = m.endsWith('_wrt_hub_z');
      const base = m.slice('deriv_'.length, m.lastIndexOf(hub ? '_wrt_hub_z' : '_wrt_rack_displacement'));
      // directions: each side's hub, then the rack
      const j = hub ? ci : nc;
      if (j >= nd) { delete out[`${side}:${m}`]; continue; }
      const dual = base === 'wheel_center_x' ? componentX(cm.points.wheel_center) : (cm.metrics as Record<string, Dual | null>)[base];
      const o = out[`${side}:${m}`];
      if (!o) continue;
      if (!dual) { delete out[`${side}:${m}`]; continue; }
      o.v = dual.d[j];
      o.d[k] = dual.t ? dual.t.d[j] : 0;
    } });
  });
  return done ? out : {};
}

/**
 * For each hardpoint coordinate k, visit(k, run): run(fn) evaluates fn in tangent mode
 * with every point's tangent its derivative along p_k — of its value and of its rates along
 * `dirs` (each q̇_j = A⁻¹e_j, changing by q̇_j' = −A⁻¹(dA/ds)q̇_j). False when a block has
 * no second derivatives (nothing visited for that k or after). dirDots[j]: dq̇_j/ds.
 */
export function coordinateTangents(model: SensitivityContext, f: StateFactors, dirs: readonly Float64Array[], rates: TangentSpace, visit: (k: number, run: <T>(fn: () => T) => T, dirDots: readonly Float64Array[]) => void): boolean {
  const y = new Float64Array(f.M);
  for (let k = 0; k < model.parameterCount; k++) {
    const qk = rates.rates[k]!;
    const dirDots: Float64Array[] = [];
    for (const q of dirs) {
      if (!jacobianRateTimesVector(model, f, qk, k, q, y)) return false;
      for (let r = 0; r < f.M; r++) y[r] = -y[r];
      dirDots.push(solve(f, y));
    }
    const hook = pointTangentHook(model, f.layout, qk, k, dirs, dirDots);
    visit(k, (fn) => withPointTangents(model.sm, hook, fn), dirDots);
  }
  return true;
}

/** The x component of a point as a dual, its tangent kept. */
function componentX(p: DualVec3): Dual {
  const out = new Dual(p.n, p.v[0]);
  for (let j = 0; j < p.n; j++) out.d[j] = p.d[j];
  if (p.t) { out.t = new Dual(p.n, p.t.v[0]); for (let j = 0; j < p.n; j++) out.t.d[j] = p.t.d[j]; }
  return out;
}
