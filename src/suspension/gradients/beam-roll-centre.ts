/**
 * Hardpoint gradients of a beam axle's `roll_center_linkage_y/z` (devices.ts
 * beamRollCenter): under the roll direction (left hub up, right hub down, each at unit rate)
 * the beam turns about an axis, and the roll centre is the point of the plane x = mean
 * wheel-centre x whose lateral and vertical velocities vanish. The velocities are rates, so
 * the gradient is a second derivative: each coordinate's tangent pass
 * (derivative-sensitivity.ts coordinateTangents) gives every beam point's position and
 * velocity with their derivatives along p_k, and the construction is redone on those as
 * one-direction duals. The beam is rigid, so its twist follows from three of its points
 * (the sweep fits all of them: the same twist, to rounding): with a = x₃ − x₁, b = x_m − x₁
 * and their velocity differences Δa = ω × a, Δb = ω × b, Δa × Δb = ω (ω·(a × b)) and
 * Δa·b = ω·(a × b), so ω = (Δa × Δb)/(Δa·b).
 */
import { Dual, DualVec3 } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import { add, comp, cross, div, dot, mul, sub, vscale, vsub } from '../metrics/dualops';
import { coordinateTangents } from './derivatives';
import { driverRowsOf, solve } from './roll-centre';
import type { DriverParameters, SensitivityContext, StateFactors } from './types';

/** `axle:roll_center_linkage_y|z` → value and gradient; empty when not a beam, not driven by the hubs, or the beam does not roll about x. */
export function beamRollCentreGradients(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace): Record<string, Dual> {
  const sm = model.sm;
  if (sm.corners.length !== 2 || sm.corners[0].upright !== sm.corners[1].upright) return {};
  const rows = driverRowsOf(model, f, drivers);
  if (!rows) return {};
  const dirs = rows.hub.map((r) => { const e = new Float64Array(f.M); e[r] = 1; return solve(f, e); });
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: dirs, layout: f.layout, size: f.n };
  // the beam's points as devices.ts takes them: both spin axes' ends first, then every corner point on the beam
  const beam = sm.corners[0].upright;
  const exprs = [sm.corners[0].axle[0], sm.corners[0].axle[1], sm.corners[1].axle[0], sm.corners[1].axle[1], ...sm.corners.flatMap((c) => [...c.points.values()].filter((e) => e.every((t) => t.variable === beam)))];
  const P = model.parameterCount;
  const y = new Dual(P), z = new Dual(P);
  let defined = true;
  const ok = coordinateTangents(model, f, dirs, rates, (k, run) => {
    if (!defined) return;
    const pts = run(() => exprs.map((e) => sm.pointDual(e, space, space.rates, 2)));
    // position and roll velocity of each point, with their derivatives along p_k
    const X = pts.map((p) => vec(p.v, [0, 1, 2].map((i) => p.t!.v[i])));
    const U = pts.map((p) => vec([0, 1, 2].map((i) => p.d[2 * i] - p.d[2 * i + 1]), [0, 1, 2].map((i) => p.t!.d[2 * i] - p.t!.d[2 * i + 1])));
    const rc = rollCentre(X, U);
    if (!rc) { defined = false; return; }
    y.v = rc[0].v; y.d[k] = rc[0].d[0];
    z.v = rc[1].v; z.d[k] = rc[1].d[0];
  });
  return ok && defined ? { 'axle:roll_center_linkage_y': y, 'axle:roll_center_linkage_z': z } : {};
}

/** The roll centre (y, z) from the beam points' positions X and roll velocities U; null when ω_x = 0. */
function rollCentre(X: DualVec3[], U: DualVec3[]): [Dual, Dual] | null {
  // x₁: the left spin axis's outer end, x₃: the right's (indices 1 and 3 above)
  const x1 = X[1], u1 = U[1];
  const da = vsub(U[3], u1);
  let m = -1, best = 0;
  X.forEach((x, j) => {
    const b = [0, 1, 2].map((i) => x.v[i] - x1.v[i]);
    const s = Math.abs(da.v[0] * b[0] + da.v[1] * b[1] + da.v[2] * b[2]);
    if (s > best) { best = s; m = j; }
  });
  if (m < 0) return null;
  const b = vsub(X[m], x1), db = vsub(U[m], u1);
  const w = vscale(cross(da, db), div(new Dual(1, 1), dot(da, b)));
  const wx = comp(w, 0);
  if (!(Math.abs(wx.v) > 1e-12)) return null;
  const x0 = mul(add(comp(x1, 0), comp(X[3], 0)), new Dual(1, 0.5));
  const dx = sub(x0, comp(x1, 0));
  return [
    add(comp(x1, 1), div(sub(mul(comp(w, 1), dx), comp(u1, 2)), wx)),
    add(comp(x1, 2), div(add(comp(u1, 1), mul(comp(w, 2), dx)), wx)),
  ];
}

function vec(v: ArrayLike<number>, d: ArrayLike<number>): DualVec3 {
  const out = new DualVec3(1);
  for (let i = 0; i < 3; i++) { out.v[i] = v[i]; out.d[i] = d[i]; }
  return out;
}
