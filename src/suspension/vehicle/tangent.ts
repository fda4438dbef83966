/**
 * Exact derivatives of a solved state with respect to an acceleration (the gradients at
 * 0 g of vehicle.md), by the implicit function theorem on the equilibrium: with the
 * reduced force f(q, a) = Nᵀ Q(q, a) = 0 on the constraint manifold, K_r α = Nᵀ ∂Q/∂a
 * and dq/da = N α (src/mechanics/reduced.ts: K_r with the constraint-curvature terms).
 * ∂Q/∂a is exact: Q is affine in the loads at a fixed pose (inertia-load.ts, contact.ts),
 * so Q(unit loads) − Q(no loads) is its partial, no step involved. The outputs' own
 * derivatives are written out: the body's roll, pitch and heave, each tyre's vertical load.
 */
import { rotationMatrix } from '../../../kernel/dual';
import { admissibleMotions, constraintMultipliers } from '../../../kernel/multipliers';
import { JacobianRate, blockColumns } from '../../../kernel/jacobian-rate';
import type { CornerName, VehicleModel } from './assembly';
import { applyAcceleration, unitAcceleration, type Acceleration } from './loads';
import { VehicleSingularError } from './errors';
import { LU } from '../../../kernel/linalg';

export interface StateDerivative {
  /** deg/g, mm/g. */
  roll: number;
  pitch: number;
  heave: number;
  /** N/g: each tyre's vertical load. */
  load: Record<CornerName, number>;
  /** mm/g: each wheel's travel against the body. */
  travel: Record<CornerName, number>;
}

const DEG = 180 / Math.PI;

/** A load direction: sets, on top of the loads of the state, the loads of one unit of the parameter. */
export type LoadDirection = (m: VehicleModel) => void;

/** The three accelerations' directions: d/d(ay), and d/d(ax) on the braking and the traction side of 0. */
export function accelerationDirection(which: 'ay' | 'braking' | 'traction', at: Acceleration): LoadDirection {
  const u = unitAcceleration(which);
  return (m) => applyAcceleration(m, { ax: at.ax + u.ax, ay: at.ay + u.ay });
}

/** A vertical force pair of 1 N at each contact of one axle: up on the wheel, down on the body (the wheel rate's load). */
export function wheelPairDirection(axle: 'front' | 'rear'): LoadDirection {
  return (m) => m.wheels.forEach((w, i) => { if (w.axle === axle) m.contacts[i].loads[5] = 1; });
}

/** The derivative of the current solved state (solved under the loads of `at`) along a load direction. */
export function stateDerivative(m: VehicleModel, at: Acceleration, direction: LoadDirection): StateDerivative {
  const { delta, layout } = poseTangent(m, at, direction);
  return derivativeReport(m, tangentPoses(m, delta, layout));
}

/** Each part's pose at the solved state and its rate along a tangent `delta` (solver layout). */
export function tangentPoses(m: VehicleModel, delta: Float64Array, layout: Int32Array): (part: string) => PoseRate {
  const { dyn } = m, sys = dyn.system;
  const slot = (part: string) => layout[dyn.model.parts.get(part)!];
  const R = new Float64Array(9);
  const pose = (part: string) => {
    const v = sys.variables[dyn.model.parts.get(part)!];
    rotationMatrix(R, sys.state, v.offset + 3);
    const c0 = slot(part);
    return { R: R.slice(), p: Array.from(sys.state.subarray(v.offset, v.offset + 3)), w: c0 < 0 ? [0, 0, 0] : Array.from(delta.subarray(c0, c0 + 3)), v: c0 < 0 ? [0, 0, 0] : Array.from(delta.subarray(c0 + 3, c0 + 6)) };
  };
  return pose;
}

/** A part's pose at the state and its rate along the tangent: R, p, and the body-frame ω and v (dR = R[ω]ₓ, dp = R v). */
export type PoseRate = { R: Float64Array; p: number[]; w: number[]; v: number[] };

/** The rate of every coordinate of the solved state (under the loads of `at`) along a load direction, in the solver's layout. */
export function poseTangent(m: VehicleModel, at: Acceleration, direction: LoadDirection): { delta: Float64Array; layout: Int32Array } {
  const r = poseTangents(m, (x) => applyAcceleration(x, at), [direction]);
  return { delta: r.deltas[0], layout: r.layout };
}

/**
 * The rates of the solved state along several load directions at once (one reduced
 * stiffness): `base` sets the state's own loads, each direction adds its unit on top.
 */
export function poseTangents(m: VehicleModel, base: LoadDirection, directions: readonly LoadDirection[]): { deltas: Float64Array[]; layout: Int32Array } {
  const { dyn } = m;
  base(m);
  const red = exactReduced(m);
  const n = red.size, k = red.k;
  const Q0 = new Float64Array(n), Q1 = new Float64Array(n), v0 = new Float64Array(n);
  const deltas = directions.map((direction) => {
    base(m);
    direction(m);
    dyn.forces.assemble(v0, 0, Q1, null, null);
    base(m);
    dyn.forces.assemble(v0, 0, Q0, null, null); // leaves the contacts' reports at the state
    const g = new Float64Array(k);
    for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < n; j++) s += red.N[a * n + j] * (Q1[j] - Q0[j]); g[a] = s; }
    const alpha = gaussSolve(red.Kr, g, k);
    const delta = new Float64Array(n);
    for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) delta[j] += red.N[a * n + j] * alpha[a];
    return delta;
  });
  return { deltas, layout: red.layout };
}

export function derivativeReport(m: VehicleModel, pose: (part: string) => PoseRate): StateDerivative {
  // the body: dR = R [ω]ₓ, dp = R v
  const b = pose('body');
  const dR = (r: number, c: number) => {
    // (R [ω]ₓ)_rc = Σ_k R_rk W_kc, W = [ω]ₓ
    const W = [[0, -b.w[2], b.w[1]], [b.w[2], 0, -b.w[0]], [-b.w[1], b.w[0], 0]];
    return b.R[3 * r] * W[0][c] + b.R[3 * r + 1] * W[1][c] + b.R[3 * r + 2] * W[2][c];
  };
  const r32 = b.R[7], r33 = b.R[8], r31 = b.R[6];
  const roll = ((r33 * dR(2, 1) - r32 * dR(2, 2)) / (r32 * r32 + r33 * r33)) * DEG;
  const pitch = (-dR(2, 0) / Math.sqrt(1 - r31 * r31)) * DEG;
  const c = m.cgDesign, wc = cross(b.w, c);
  const heave = b.R[6] * (wc[0] + b.v[0]) + b.R[7] * (wc[1] + b.v[1]) + b.R[8] * (wc[2] + b.v[2]);
  const load = {} as Record<CornerName, number>, travel = {} as Record<CornerName, number>;
  m.wheels.forEach((w, i) => {
    const p = pose(w.upright);
    const len = Math.hypot(w.axis[0], w.axis[1], w.axis[2]);
    const al = [w.axis[0] / len, w.axis[1] / len, w.axis[2] / len];
    // z rows of R (ω × x + v) for the centre, and R (ω × a) for the axis
    const zc = cross(p.w, w.centre), za = cross(p.w, al);
    const dcz = p.R[6] * (zc[0] + p.v[0]) + p.R[7] * (zc[1] + p.v[1]) + p.R[8] * (zc[2] + p.v[2]);
    const az = p.R[6] * al[0] + p.R[7] * al[1] + p.R[8] * al[2];
    const daz = p.R[6] * za[0] + p.R[7] * za[1] + p.R[8] * za[2];
    // contact height: c_z − r √(1 − a_z²); N = k (road − contact height)
    load[w.corner] = -w.tyre.stiffness * (dcz + (w.radius * az * daz) / Math.sqrt(1 - az * az));
    travel[w.corner] = relativeRise(b, p, w.centre);
  });
  return { roll, pitch, heave, load, travel };
}

/**
 * The reduced stiffness with the constraints' curvature in full: K_r = −Nᵀ (K − H) N with
 * H = ∂(Φ_qᵀ λ)/∂q at the state's multipliers, by tangent-mode AD of each constraint
 * block (kernel/dual.ts withTangents), as the simulation gradients do (src/gradients/run.ts).
 * reduce() takes a hinge's moment as fixed in the world, which is exact on a fixed chassis
 * but not on the vehicle's free body; this is exact on both.
 */
export function exactReduced(m: VehicleModel, frozen: Float64Array | null = null): { N: Float64Array; k: number; size: number; layout: Int32Array; Kr: Float64Array; f: Float64Array; H: Float64Array; KH: Float64Array } {
  const { dyn } = m, sys = dyn.system;
  const n = dyn.forces.size;
  const Q = new Float64Array(n), K = new Float64Array(n * n);
  dyn.forces.assemble(new Float64Array(n), 0, Q, K, null);
  const { basis: N, count: k, layout } = admissibleMotions(sys);
  const H = frozen ?? constraintCurvature(m, Q, layout);
  for (let i = 0; i < n * n; i++) K[i] -= H[i];
  const KN = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let b = 0; b < k; b++) { let s = 0; for (let j = 0; j < n; j++) s += K[i * n + j] * N[b * n + j]; KN[i * k + b] = s; }
  const Kr = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) { let s = 0; for (let i = 0; i < n; i++) s += N[a * n + i] * KN[i * k + b]; Kr[a * k + b] = -s; }
  const f = new Float64Array(k);
  for (let a = 0; a < k; a++) { let t = 0; for (let j = 0; j < n; j++) t += N[a * n + j] * Q[j]; f[a] = t; }
  return { N, k, size: n, layout, Kr, f, H, KH: K };
}

/** H = ∂(Φ_qᵀ λ)/∂q (n × n, row-major) at the multipliers that balance Q, by tangent-mode AD of each loaded constraint block. */
function constraintCurvature(m: VehicleModel, Q: Float64Array, layout: Int32Array): Float64Array {
  const sys = m.dyn.system, n = Q.length;
  const H = new Float64Array(n * n);
  const mult = constraintMultipliers(sys, Q);
  // λ per block and row
  const lam = new Map<number, Float64Array>();
  for (let i = 0; i < mult.lambda.length; i++) {
    const b = mult.rowBlock[i];
    if (!lam.has(b)) lam.set(b, new Float64Array(sys.block(b).rows));
    lam.get(b)![mult.rowInBlock[i]] = mult.lambda[i];
  }
  const dir = new Float64Array(n), rate = new JacobianRate();
  for (const [b, lb] of lam) {
    const blk = sys.block(b);
    if (!blk.duals || lb.every((x) => x === 0)) continue; // rows linear in their coordinates, or unloaded
    const cols = blockColumns(sys, b, layout);
    const ld = cols.length, res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * ld);
    for (const c of cols) {
      if (c < 0) continue;
      dir.fill(0); dir[c] = 1;
      const rows = rate.of(sys, b, cols, dir, res, jac);
      for (let r = 0; r < blk.rows; r++) {
        const t = rows[r].t;
        if (!t || lb[r] === 0) continue;
        for (let j = 0; j < ld; j++) if (cols[j] >= 0) H[cols[j] * n + c] += lb[r] * t.d[j];
      }
    }
  }
  return H;
}

type Pose = PoseRate;

/** d/da of a wheel point's height in body axes: e_zᵀ d(Rbᵀ (x − pb)) = e_zᵀ (Rbᵀ dx − v_b − ω_b × Rbᵀ (x − pb)). */
export function relativeRise(b: Pose, p: Pose, local: readonly number[]): number {
  const x = [0, 1, 2].map((i) => p.R[3 * i] * local[0] + p.R[3 * i + 1] * local[1] + p.R[3 * i + 2] * local[2] + p.p[i]);
  const t = cross(p.w, local);
  const dx = [0, 1, 2].map((i) => p.R[3 * i] * (t[0] + p.v[0]) + p.R[3 * i + 1] * (t[1] + p.v[1]) + p.R[3 * i + 2] * (t[2] + p.v[2]));
  const r = [x[0] - b.p[0], x[1] - b.p[1], x[2] - b.p[2]];
  const rb = [0, 1, 2].map((k) => b.R[k] * r[0] + b.R[3 + k] * r[1] + b.R[6 + k] * r[2]);
  const dxb = [0, 1, 2].map((k) => b.R[k] * dx[0] + b.R[3 + k] * dx[1] + b.R[6 + k] * dx[2] - b.v[k]);
  return dxb[2] - cross(b.w, rb)[2];
}

export function cross(a: readonly number[], b: readonly number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Solve A x = b (n × n row-major, left as it is) by the kernel's LU; a zero pivot column is a motion nothing holds. */
export function gaussSolve(A: Float64Array, b: Float64Array, n: number): Float64Array {
  const lu = new LU(n);
  if (!lu.factor(A, n, 0)) throw new VehicleSingularError('', 'the vehicle\'s reduced stiffness is singular: a motion nothing holds');
  const x = b.slice();
  lu.solve(x);
  return x;
}

/**
 * The state's rate from a least move: q ← q + N α with K_r α = Nᵀ[(K − H) q − r] (N the k × n
 * basis of admissible motions, r a generalised force's rate or none). `q` is the move the rows
 * alone ask for (Φ_q q = −Φ_θ), then the rate; the sums in the order the static gradients take.
 */
export function addAdmissibleMove(red: { N: Float64Array; k: number; size: number; Kr: Float64Array; KH: Float64Array }, q: Float64Array, r: Float64Array | null = null): Float64Array {
  const { N, k, size: n, KH } = red;
  const g = new Float64Array(k);
  for (let a = 0; a < k; a++) {
    let t = 0;
    for (let i = 0; i < n; i++) {
      if (N[a * n + i] === 0) continue;
      let s = r ? -r[i] : 0;
      for (let j = 0; j < n; j++) s += KH[i * n + j] * q[j];
      t += N[a * n + i] * s;
    }
    g[a] = t;
  }
  const alpha = gaussSolve(red.Kr, g, k);
  for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) q[j] += N[a * n + j] * alpha[a];
  return q;
}

/**
 * x ↦ Nᵀ K_r⁻¹ N x: the pose's response to a generalised force x through the reduced stiffness
 * (N the k × n basis of admissible motions, row by row). K_r is factored once for every x.
 */
export function reducedResponse(N: Float64Array, Kr: Float64Array, k: number, n: number): (x: Float64Array) => Float64Array {
  const lu = new LU(k);
  if (!lu.factor(Kr, k, 0)) throw new VehicleSingularError('', 'the vehicle\'s reduced stiffness is singular: a motion nothing holds');
  return (x) => {
    const alpha = new Float64Array(k);
    for (let a = 0; a < k; a++) { let t = 0; for (let j = 0; j < n; j++) t += N[a * n + j] * x[j]; alpha[a] = t; }
    lu.solve(alpha);
    const out = new Float64Array(n);
    for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) out[j] += N[a * n + j] * alpha[a];
    return out;
  };
}
