/**
 * Exact hardpoint gradients of the kinematic roll centre (docs/sensitivity.md): a second
 * derivative, since the roll centre is built from velocities in bump.
 *
 * At a solved state whose drivers are the hub-z rows (one per corner) and the rack hold, the
 * square system A = [Φ_q; drivers_q] (factored by SensitivityModel.factorState) gives the
 * bump motion q̇_b = A⁻¹ e_b (e_b: one on the corner's hub-z row; an axle's heave: on both).
 * Along a hardpoint coordinate p_k the state moves by q̇_k, and differentiating A q̇_b = e_b
 *   A q̇_b' = −(dA/ds) q̇_b,   d/ds along (q̇_k, e_k),
 * with dA/ds every block's Jacobian differentiated in tangent mode (kernel/dual.ts
 * withTangents, as the load gradients do), never by differences. The velocity of the
 * upright's material point at the contact centre C is v = R(ω_b × l + v_b), l = Rᵀ(C − o),
 * and its derivative follows from R' = R[ω_k]×, o' = R v_k and C' (C's own gradient):
 *   l' = RᵀC' − ω_k × l − v_k,   v' = R(ω_k × (ω_b × l + v_b) + ω_b' × l + ω_b × l' + v_b').
 * The front-view lines through each C normal to v then meet as the metric says.
 */
import { Dual, DualVec3, withTangents } from '../../../kernel/dual';
import { toMatrix } from '../../../kernel/quat';
import type { TangentSpace } from '../../../kernel/analysis';
import { kinematicRollCenter } from '../metrics';
import type { StateEvaluation } from '../build/model';
import type { DriverParameters, SensitivityContext, StateFactors } from './types';
import { forEachJacobianRate } from './jacobian';


/**
 * `<group>:<name>` → the kinematic roll centre's duals over the hardpoint coordinates: a
 * corner's `roll_center_kinematic_z` (its mirrored axle's), an axle's `axle:roll_center_kinematic_y|z`.
 * Empty when the state's drivers are not the hub-z rows and the rack (another sweep) or a
 * block has no second derivatives.
 */
export function kinematicRollCentres(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace, ev: StateEvaluation): Record<string, Dual | null> {
  const sm = model.sm;
  const nc = sm.corners.length;
  const rows = driverRowsOf(model, f, drivers);
  if (!rows) return {};
  const hubRows = rows.hub;
  const P = model.parameterCount;
  // the bump (a corner) or heave (an axle: both hubs at unit rate) motion
  const e = new Float64Array(f.M);
  for (const r of hubRows) e[r] = 1;
  const qb = solve(f, e);
  const qbDot: Float64Array[] = [];
  const y = new Float64Array(f.M);
  for (let k = 0; k < P; k++) {
    if (!jacobianRateTimesVector(model, f, rates.rates[k]!, k, qb, y)) return {};
    for (let r = 0; r < f.M; r++) y[r] = -y[r];
    qbDot.push(solve(f, y));
  }
  const velocities = sm.corners.map((c, ci) => contactVelocity(model, f, rates, qb, qbDot, c.upright, ev.corners[ci].points.wheel_contact_centre));
  const front = (p: DualVec3) => ({ y: component(p, 1), z: component(p, 2) });
  if (nc === 1) {
    const c = front(ev.corners[0].points.wheel_contact_centre), v = front(velocities[0]);
    if (v.z.v === 0) return { [`${model.sides[0]}:roll_center_kinematic_z`]: null };
    // the line through C normal to v, met with y = 0: z = C_z + C_y v_y / v_z
    const z = new Dual(P, c.z.v + (c.y.v * v.y.v) / v.z.v);
    for (let k = 0; k < P; k++) {
      z.d[k] = c.z.d[k] + (c.y.d[k] * v.y.v + c.y.v * v.y.d[k]) / v.z.v - (c.y.v * v.y.v * v.z.d[k]) / (v.z.v * v.z.v);
    }
    return { [`${model.sides[0]}:roll_center_kinematic_z`]: z };
  }
  const rc = kinematicRollCenter(front(ev.corners[0].points.wheel_contact_centre), front(velocities[0]), front(ev.corners[1].points.wheel_contact_centre), front(velocities[1]));
  return { 'axle:roll_center_kinematic_y': rc ? rc.y : null, 'axle:roll_center_kinematic_z': rc ? rc.z : null };
}

/**
 * Rows of the corners' hub-z drivers in A and of the rack's (−1 unsteered), when the drivers
 * are exactly those (a bump, steer or roll sweep): A is then the hub/rack tangent's system.
 */
export function driverRowsOf(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[]): { hub: number[]; rack: number } | null {
  const nc = model.sm.corners.length;
  const steered = model.sm.steering >= 0;
  const rows: number[] = new Array(nc).fill(-1);
  let rack = -1, r0 = 0;
  for (const { block } of f.rows) {
    const at = r0;
    r0 += block.rows;
    if (block.kind !== 'driver') continue;
    const d = drivers.find((x) => x.block === block);
    if (!d || d.basis === undefined) return null;
    if (d.basis < nc) rows[d.basis] = at;
    else rack = at;
  }
  return rows.every((r) => r >= 0) && (rack >= 0) === steered ? { hub: rows, rack } : null;
}

/** x = A⁻¹ b (b unscaled, by row), unscaled state rates. */
export function solve(f: StateFactors, rhs: Float64Array): Float64Array {
  return f.solver.solve(new Float64Array(f.n), rhs);
}

/** out = (dA/ds) x along (q̇, e_k), by row; false when a block has no second derivatives. */
export function jacobianRateTimesVector(model: SensitivityContext, f: StateFactors, qd: Float64Array, k: number, x: Float64Array, out: Float64Array): boolean {
  out.fill(0);
  const missing = forEachJacobianRate(model, f, qd, k, (rowsAt, rows, colGlobal) => {
    for (let r = 0; r < rows.length; r++) {
      const t = rows[r].t;
      if (!t) continue;
      let s = 0;
      for (let c = 0; c < colGlobal.length; c++) if (colGlobal[c] >= 0) s += t.d[c] * x[colGlobal[c]];
      out[rowsAt + r] = s;
    }
  });
  return missing === null;
}

/** The velocity of the upright's material point at C in the motion q̇_b, as a dual over the hardpoint coordinates. */
function contactVelocity(model: SensitivityContext, f: StateFactors, rates: TangentSpace, qb: Float64Array, qbDot: Float64Array[], upright: number, C: DualVec3): DualVec3 {
  const sys = model.sm.model.system;
  const P = model.parameterCount;
  const off = sys.variables[upright].offset;
  const c0 = f.layout[upright];
  const R = toMatrix(new Float64Array(9), sys.state, off + 3);
  const o = [sys.state[off], sys.state[off + 1], sys.state[off + 2]];
  const Rt = (w: number[]) => [0, 1, 2].map((i) => R[i] * w[0] + R[3 + i] * w[1] + R[6 + i] * w[2]);
  const Rv = (w: number[]) => [0, 1, 2].map((i) => R[3 * i] * w[0] + R[3 * i + 1] * w[1] + R[3 * i + 2] * w[2]);
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const add = (...vs: number[][]) => [0, 1, 2].map((i) => vs.reduce((s, v) => s + v[i], 0));
  const slice = (q: Float64Array, a: number) => (c0 >= 0 ? [q[c0 + a], q[c0 + a + 1], q[c0 + a + 2]] : [0, 0, 0]);
  const l = Rt([C.v[0] - o[0], C.v[1] - o[1], C.v[2] - o[2]]);
  const wb = slice(qb, 0), vb = slice(qb, 3);
  const body = add(cross(wb, l), vb);
  const out = new DualVec3(P);
  out.v.set(Rv(body));
  for (let k = 0; k < P; k++) {
    const qk = rates.rates[k]!;
    const wk = slice(qk, 0), vk = slice(qk, 3);
    const wbd = slice(qbDot[k], 0), vbd = slice(qbDot[k], 3);
    const ld = add(Rt([C.d[k], C.d[P + k], C.d[2 * P + k]]), cross(wk, l).map((x) => -x), vk.map((x) => -x));
    const dv = Rv(add(cross(wk, body), cross(wbd, l), cross(wb, ld), vbd));
    for (let i = 0; i < 3; i++) out.d[i * P + k] = dv[i];
  }
  return out;
}

function component(p: DualVec3, i: number): Dual {
  const out = new Dual(p.n, p.v[i]);
  for (let k = 0; k < p.n; k++) out.d[k] = p.d[i * p.n + k];
  return out;
}
