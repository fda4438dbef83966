/**
 * The soft objective of a solve: drag pulls, the grabbed body's turn resistance, damping.
 */
import type { System } from '../system';
import { rotationMatrix } from '../dual';
import type { Group } from './groups';
import type { Pull, SolveOptions } from './options';

// ---------------------------------------------------------------------------------------
// The objective: pulls, turn resistance, damping

const pullPoint = new Float64Array(3);
const pullR = new Float64Array(9);
const pullF = new Float64Array(3);
const pullA = new Float64Array(18);

/**
 * One pull at the current state: its weighted residual f (3, into pullF) and, with
 * `jacobian`, A = ∂f/∂u (3×6 row-major, scaled columns, into pullA):
 * ∂P/∂ω_j / L = R(e_j × p)/L, ∂P/∂v_j = R e_j; all times w. Returns ½|f|².
 */
export function pullTerms(system: System, p: Pull, jacobian: boolean): number {
  const variable = system.variables[p.variable];
  const w = p.weight ?? 1;
  const off = variable.offset, L = system.lengthScale;
  rotationMatrix(pullR, system.state, off + 3);
  const R = pullR, lp = p.point;
  for (let i = 0; i < 3; i++) pullPoint[i] = R[3 * i] * lp[0] + R[3 * i + 1] * lp[1] + R[3 * i + 2] * lp[2] + system.state[off + i];
  const f0 = w * (pullPoint[0] - p.target[0]), f1 = w * (pullPoint[1] - p.target[1]), f2 = w * (pullPoint[2] - p.target[2]);
  pullF[0] = f0; pullF[1] = f1; pullF[2] = f2;
  if (jacobian) {
    const A = pullA;
    for (let i = 0; i < 3; i++) {
      const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2];
      A[i * 6] = w * (-r1 * lp[2] + r2 * lp[1]) / L;
      A[i * 6 + 1] = w * (r0 * lp[2] - r2 * lp[0]) / L;
      A[i * 6 + 2] = w * (-r0 * lp[1] + r1 * lp[0]) / L;
      A[i * 6 + 3] = w * r0; A[i * 6 + 4] = w * r1; A[i * 6 + 5] = w * r2;
    }
  }
  return 0.5 * (f0 * f0 + f1 * f1 + f2 * f2);
}

/** The pulls' value ½Σ|pull residuals|² at the current state. */
export function pullValue(system: System, pulls: readonly Pull[]): number {
  let value = 0;
  for (const p of pulls) value += pullTerms(system, p, false);
  return value;
}

/** Add the pull's Gauss–Newton terms AᵀA and Aᵀf (after pullTerms) at (col, col) of H (leading dimension ld) and grad. */
export function addPullTerms(H: Float64Array, ld: number, hOff: number, grad: Float64Array, gOff: number): void {
  const A = pullA, f = pullF;
  for (let a = 0; a < 6; a++) {
    grad[gOff + a] += A[a] * f[0] + A[6 + a] * f[1] + A[12 + a] * f[2];
    for (let b = 0; b < 6; b++) H[hOff + a * ld + b] += A[a] * A[b] + A[6 + a] * A[6 + b] + A[12 + a] * A[12 + b];
  }
}

/**
 * The soft objective of one step u (scaled columns): ½Σ|pull residuals|² + ½Σ w_k² u_k²,
 * with w the turn resistance on a grabbed body's turn and the damping on every other
 * free column. Damping acts on the step, not on the distance from the start, so it ranks
 * the motions (the linkage moves the least it must) without biasing where a pull ends:
 * at convergence u = 0 and only the pulls remain. Fills the dense Gauss–Newton Hessian
 * and gradient at u = 0; returns the pulls' value at the current state.
 */
export function objective(system: System, g: Group, pulls: readonly Pull[], options: SolveOptions, colOfVar: Int32Array, H: Float64Array, grad: Float64Array): number {
  const n = g.n;
  const damping = options.damping ?? 1e-4, turn = options.turnResistance ?? 1e-2;
  H.fill(0, 0, n * n); grad.fill(0, 0, n);
  for (let i = 0; i < g.vars.length; i++) {
    const v = g.vars[i], c0 = g.cols[i], dim = system.variables[v].dim;
    const isGrabbed = pulls.some((p) => p.variable === v);
    for (let k = 0; k < dim; k++) {
      const w = isGrabbed ? (k < 3 ? turn : 0) : damping;
      H[(c0 + k) * n + c0 + k] += w * w;
    }
  }
  let value = 0;
  for (const p of pulls) {
    const col = colOfVar[p.variable];
    value += pullTerms(system, p, col >= 0);
    if (col >= 0) addPullTerms(H, n, col * n + col, grad, col);
  }
  return value;
}
