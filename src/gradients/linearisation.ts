/**
 * Stage 3 of a gradient run: the exact linear system of a step (and of the start) at a
 * state — J, H = ∂(Jᵀλ)/∂q by tangent-mode AD of the constraint blocks, K and C from the force
 * blocks, ∂g/∂v, the retraction's maps and the matrix factored (see run.ts's head; on
 * R³ × SO(3) product-step.ts's terms). The scratch here is shared by the later stages.
 *
 * The work is split into named stages over one set of buffers ({@link Work}): the rows and
 * their curvature, the mass terms, the retraction's maps, the step matrix's assembly; the
 * `linearisation` a run holds binds them to its setup.
 */
import { rotationMatrix } from '../../kernel/dual';
import { JacobianRate } from '../../kernel/jacobian-rate';
import { LU } from '../../kernel/linalg';
import { gyroscopic } from '../../kernel/mass';
import { exp as poseExp, rightJacobian } from '../../kernel/pose';
import { DynamicSensitivityError } from './errors';
import type { RunSetup } from './setup';

export type Linearisation = ReturnType<typeof linearisation>;

/** The buffers of a run's linear systems, allocated once. */
function workOf(s: RunSetup, curved: boolean) {
  const { n, m, N } = s;
  return {
    J: new Float64Array(m * n), H: new Float64Array(n * n), K: new Float64Array(n * n), C: new Float64Array(n * n),
    Q: new Float64Array(n), Gv: new Float64Array(n * n), g6: new Float64Array(6), G36: new Float64Array(36),
    Jr: new Float64Array(n * n), Ad: new Float64Array(n * n), A: new Float64Array(N * N), rhs: new Float64Array(N),
    lu: new LU(N),
    res: new Float64Array(64), jac: new Float64Array(4096), rp: new Float64Array(n), rc: new Float64Array(m), pose: new Float64Array(7),
    dir: new Float64Array(n), rate: new JacobianRate(),
    /** With a vector w: Wq = ∂(J w)/∂q (m × n), the start's acceleration rows' curvature. */
    Wq: curved ? new Float64Array(m * n) : null,
  };
}
type Work = ReturnType<typeof workOf>;

/** J (all rows) at the current state; with λ, also H = ∂(Jᵀλ)/∂q column by column (tangent mode); with w, also Wq. */
function rowsAndCurvature(s: RunSetup, x: Work, lambda: Float64Array | null, w: Float64Array | null = null): void {
  const { system, rowBlocks, n } = s;
  const { rowOn } = s.rows;
  const { J, H, Wq, res, jac, dir, rate } = x;
  J.fill(0);
  for (const rb of rowBlocks) {
    const ld = rb.cols.length;
    system.evaluateBlock(rb.index, res, jac);
    for (let r = 0; r < rb.rows; r++) if (rowOn[rb.row0 + r]) for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) J[(rb.row0 + r) * n + rb.cols[k]] += jac[r * ld + k];
  }
  if (!lambda) return;
  H.fill(0);
  if (w) Wq!.fill(0);
  for (const rb of rowBlocks) {
    if (!rb.duals) continue; // a driver's rows are linear in its coordinate
    let any = false;
    for (let r = 0; r < rb.rows; r++) if (lambda[rb.row0 + r] !== 0) any = true;
    if (!any && !w) continue;
    const ld = rb.cols.length;
    for (let kc = 0; kc < ld; kc++) {
      const c = rb.cols[kc];
      if (c < 0) continue;
      dir.fill(0); dir[c] = 1;
      const rows = rate.of(system, rb.index, rb.cols, dir, res, jac);
      for (let r = 0; r < rb.rows; r++) {
        const lam = lambda[rb.row0 + r], tt = rows[r].t;
        if (!tt || !rowOn[rb.row0 + r]) continue;
        if (lam !== 0) for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) H[rb.cols[k] * n + c] += lam * tt.d[k];
        if (w) { let sum = 0; for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) sum += tt.d[k] * w[rb.cols[k]]; Wq![(rb.row0 + r) * n + c] += sum; }
      }
    }
  }
}

/** S += scale · M, the bodies' mass blocks, into a matrix of leading dimension ld. */
function addMass(s: RunSetup, S: Float64Array, ld: number, scale: number): void {
  for (const b of s.it.bodies) {
    const c0 = s.it.layout[b.variable];
    if (c0 < 0) continue;
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) S[(c0 + i) * ld + c0 + j] += scale * b.M[i * 6 + j];
  }
}

/** out = M x, x read at x[(c)·stride + xOff]. */
function massTimes(s: RunSetup, out: Float64Array, x: Float64Array, xOff: number, stride: number): void {
  out.fill(0);
  for (const b of s.it.bodies) {
    const c0 = s.it.layout[b.variable];
    if (c0 < 0) continue;
    for (let i = 0; i < 6; i++) { let t = 0; for (let j = 0; j < 6; j++) t += b.M[i * 6 + j] * x[(c0 + j) * stride + xOff]; out[c0 + i] = t; }
  }
}

/** Gv = ∂g/∂v, the gyroscopic terms' Jacobian at v. */
function gyroJacobian(s: RunSetup, x: Work, v: Float64Array): void {
  const { n } = s;
  const { Gv, g6, G36 } = x;
  Gv.fill(0);
  for (const b of s.it.bodies) {
    const c0 = s.it.layout[b.variable];
    if (c0 < 0) continue;
    gyroscopic(g6, b.M, v, c0, G36);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) Gv[(c0 + i) * n + c0 + j] = G36[i * 6 + j];
  }
}

/** The start's matrix [M Jᵀ; J 0] at the current state, factored. */
function factorStart(s: RunSetup, x: Work): void {
  const { n, m, N } = s;
  const { J, A, lu } = x;
  rowsAndCurvature(s, x, null);
  A.fill(0);
  addMass(s, A, N, 1);
  for (let r = 0; r < m; r++) for (let c = 0; c < n; c++) { A[(n + r) * N + c] = J[r * n + c]; A[c * N + n + r] = J[r * n + c]; }
  s.rows.dropInactive(A, N);
  if (!lu.factor(A, N, 1e-13)) throw new DynamicSensitivityError('gradients: the start system is singular');
}

/** The retraction's block-diagonal maps of the Lie step y: J_r(y) and Ad(exp(−y)) (on R³ × SO(3), the product step's). */
function retractionMaps(s: RunSetup, x: Work, y: Float64Array): void {
  const { it, system, n, pm } = s;
  const { Jr, Ad, G36, pose } = x;
  Jr.fill(0); Ad.fill(0);
  for (const vr of system.variables) {
    const c0 = it.layout[vr.id];
    if (c0 < 0) continue;
    if (vr.kind !== 'pose') { Jr[c0 * n + c0] = 1; Ad[c0 * n + c0] = 1; continue; }
    if (pm) continue; // the product retraction's maps, below
    rightJacobian(G36, y.subarray(c0, c0 + 6));
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) Jr[(c0 + i) * n + c0 + j] = G36[i * 6 + j];
    // exp(y) = (R, t): ω' = Rᵀω, v' = Rᵀ(v + ω × t)
    poseExp(pose, y, c0);
    const R = rotationMatrix(new Float64Array(9), pose, 3), tr = pose;
    const X = [0, -tr[2], tr[1], tr[2], 0, -tr[0], -tr[1], tr[0], 0]; // [t]ₓ: ω × t = −[t]ₓ ω
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      const rt = R[j * 3 + i];
      Ad[(c0 + i) * n + c0 + j] = rt;
      Ad[(c0 + 3 + i) * n + c0 + 3 + j] = rt;
      let t = 0;
      for (let k = 0; k < 3; k++) t -= R[k * 3 + i] * X[k * 3 + j];
      Ad[(c0 + 3 + i) * n + c0 + j] = t;
    }
  }
  if (pm) pm.stepMaps(system.state, y, Ad, Jr);
}

/**
 * The step matrix from H − K, ∂g/∂v − C, J and J_r (dynamic rows divided by β', like the
 * integrator's), factored in `lu`.
 */
function factorStepMatrix(s: RunSetup, x: Work, v: Float64Array, vdot: Float64Array, betaP: number, gammaP: number, t: number): void {
  const { system, n, m, N, pm } = s;
  const { A, H, Gv, Jr, J, lu } = x;
  A.fill(0);
  if (pm) {
    pm.at(system.state, v, vdot);
    pm.effective(H, Gv);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * N + j] = pm.Meta[i * n + j];
  } else addMass(s, A, N, 1);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let sum = 0;
    for (let k = 0; k < n; k++) { const w = H[i * n + k]; if (w !== 0) sum += w * Jr[k * n + j]; }
    A[i * N + j] += (gammaP * Gv[i * n + j] + sum) / betaP;
  }
  for (let r = 0; r < m; r++) for (let c = 0; c < n; c++) {
    let sum = 0;
    for (let k = 0; k < n; k++) sum += J[r * n + k] * Jr[k * n + c];
    A[(n + r) * N + c] = sum;
    A[c * N + n + r] = J[r * n + c];
  }
  s.rows.dropInactive(A, N);
  if (!lu.factor(A, N, 1e-15)) throw new DynamicSensitivityError(`gradients: the step matrix at t = ${t} s is singular`);
}

/** `curved`: the parameters reach the rows or the start positions (Wq, the start's curvature, is kept). */
export function linearisation(s: RunSetup, curved: boolean) {
  const { it, system, forces, n, pm } = s;
  const x = workOf(s, curved);
  const { H, K, C, Q, Gv } = x;
  const { alphaM: am, gamma, beta, c1, alphaF: af } = it.coefficients();
  /**
   * The exact step matrix at the step's end (current system state, v, λ, time t), its Lie
   * step y: J_r(y), Ad(exp(−y)), J, H, K, C, ∂g/∂v, and A factored in `lu`.
   */
  const linearise = (h: number, y: Float64Array, v: Float64Array, vdot: Float64Array, lambda: Float64Array, t: number) => {
    const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta);
    retractionMaps(s, x, y);
    // the Jacobians at the new state
    rowsAndCurvature(s, x, lambda);
    forces.assemble(v, t, Q, K, C);
    gyroJacobian(s, x, v);
    // H − K and ∂g/∂v − C, kept for the right-hand sides (on R³ × SO(3) with the velocity map's terms: product-step.ts)
    for (let i = 0; i < n * n; i++) { H[i] -= K[i]; Gv[i] -= C[i]; }
    factorStepMatrix(s, x, v, vdot, betaP, gammaP, t);
  };
  /** The Lie step y = h v_n + h² c1 a_n + h² β a_{n+1} of the step just taken (the corrections included). */
  const lieStep = (y: Float64Array, h: number) => {
    if (pm) { pm.lieStep(y, h, system.state, it.v, it.vdot, it.coefficients()); return; }
    const start = it.stepStart();
    for (let i = 0; i < n; i++) y[i] = h * (start.v[i] + h * c1 * start.a[i] + h * beta * it.a[i]);
  };
  /**
   * The start's curvature terms when hardpoints move it (at rest: v = 0): J, H − K at λ₀ and
   * Wq = ∂(J v̇₀)/∂q, then the acceleration matrix factored.
   */
  const startCurvature = (v: Float64Array, vdot: Float64Array, lambda: Float64Array, t: number, moving = false) => {
    rowsAndCurvature(s, x, lambda, vdot);
    forces.assemble(v, t, Q, K, C);
    for (let i = 0; i < n * n; i++) H[i] -= K[i];
    // a moving start's v₀' enters the acceleration rows through ∂g/∂v − C
    if (moving) { gyroJacobian(s, x, v); for (let i = 0; i < n * n; i++) Gv[i] -= C[i]; }
    factorStart(s, x);
  };
  return {
    J: x.J, H, K, C, Q, Gv, Jr: x.Jr, Ad: x.Ad, A: x.A, rhs: x.rhs, lu: x.lu, rp: x.rp, rc: x.rc, Wq: x.Wq,
    HK: H, GC: Gv, // after linearise: H − K and ∂g/∂v − C
    coefficients: { am, af, gamma, beta, c1 },
    rowsAndCurvature: (lambda: Float64Array | null, w: Float64Array | null = null) => rowsAndCurvature(s, x, lambda, w),
    addMass: (S: Float64Array, ld: number, scale: number) => addMass(s, S, ld, scale),
    massTimes: (out: Float64Array, v: Float64Array, xOff: number, stride: number) => massTimes(s, out, v, xOff, stride),
    gyroJacobian: (v: Float64Array) => gyroJacobian(s, x, v),
    factorStart: () => factorStart(s, x),
    linearise, lieStep, startCurvature,
  };
}
