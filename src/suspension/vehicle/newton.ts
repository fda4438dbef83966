/**
 * The vehicle's equilibrium: first the saddle-system Newton of kkt-newton.ts (pose step and
 * multipliers in one sparse solve); where it does not converge, this file's reduced Newton
 * from the same start.
 *
 * The reduced Newton is plain Newton on the constraint manifold: K_r α = f with the
 * reduced force and the exact reduced stiffness (tangent.ts exactReduced: not symmetrised,
 * the loads of an acceleration are not conservative; the constraints' full curvature, so
 * Newton converges quadratically even on stiff tyres), the step N α back onto the manifold by the kinematic
 * solve, halved while the force grows. The generic equilibrium() bounds every step by a
 * trust radius and asks for a fall of the largest force component at each one; a free
 * body on soft springs sinking from its design pose needs the full Newton step instead.
 * Tolerance: the largest reduced force below 1e-10 of the weight.
 */
import { admissibleMotions } from '../../../kernel/multipliers';
import { solve } from '../../../kernel/solver/solve';
import type { VehicleModel } from './assembly';
import { G } from './inertia-load';
import { exactReduced, gaussSolve } from './tangent';
import { kktNewton } from './kkt-newton';

export interface NewtonResult {
  converged: boolean;
  iterations: number;
  /** N: the largest reduced force left (the saddle Newton's: ‖D (Q − Jᵀλ)‖₂, which bounds it). */
  residual: number;
  message?: string;
}

const TOLERANCE = 1e-10;

/** Largest |Nᵀ Q| at the current state (no stiffness assembled). */
function forceSize(m: VehicleModel, Q: Float64Array, v0: Float64Array): number {
  m.dyn.forces.assemble(v0, 0, Q, null, null);
  const { basis: N, count: k, size: n } = admissibleMotions(m.dyn.system);
  let r = 0;
  for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < n; j++) s += N[a * n + j] * Q[j]; r = Math.max(r, Math.abs(s)); }
  return r;
}

/**
 * The curvature H of the model's last solve: a sweep's next state, or a drag's next frame on
 * the same model, starts from it (computing H is ~400 tangent-mode block evaluations, most
 * of a solve's time; the force stays exact, only the rate of convergence may pay).
 */
const lastCurvature = new WeakMap<VehicleModel, Float64Array>();

/**
 * Newton with the curvature kept: the last solve's for a few iterations, else this start's
 * from its first iteration; where that fails, again from the same start with it renewed at
 * every iteration.
 */
export function newtonEquilibrium(m: VehicleModel): NewtonResult {
  const start = m.dyn.system.snapshot();
  const fast = kktNewton(m, TOLERANCE * (m.totalMass * G) / 1000);
  if (fast.converged) return fast;
  m.dyn.system.restore(start);
  const last = lastCurvature.get(m);
  if (last) {
    const reused = newton(m, 8, true, last);
    if (reused.converged) return reused;
    m.dyn.system.restore(start);
  }
  const quick = newton(m, 40, true);
  if (quick.converged) return quick;
  m.dyn.system.restore(start);
  return newton(m, 100, false);
}

function newton(m: VehicleModel, maxIterations: number, freeze: boolean, initial: Float64Array | null = null): NewtonResult {
  const sys = m.dyn.system;
  if (!solve(sys).converged) return { converged: false, iterations: 0, residual: Infinity, message: 'the suspension cannot be assembled at the starting pose' };
  const tol = TOLERANCE * (m.totalMass * G) / 1000;
  const n = m.dyn.forces.size;
  const Q = new Float64Array(n), v0 = new Float64Array(n);
  let residual = Infinity;
  // the constraints' curvature from the first iteration on (it changes little from step to
  // step and costs most of an iteration): the force is exact, only the rate of convergence pays
  let H: Float64Array | null = initial && initial.length === n * n ? initial : null;
  for (let it = 0; it < maxIterations; it++) {
    const red = exactReduced(m, H);
    if (freeze) { H = red.H; lastCurvature.set(m, H); }
    const k = red.k;
    residual = 0;
    for (let a = 0; a < k; a++) residual = Math.max(residual, Math.abs(red.f[a]));
    if (residual <= tol) return { converged: true, iterations: it, residual };
    let alpha: Float64Array;
    try { alpha = gaussSolve(red.Kr, red.f, k); } catch { return { converged: false, iterations: it, residual, message: 'the reduced stiffness is singular: a motion nothing holds' }; }
    const saved = sys.snapshot();
    let h = 1, accepted = false;
    for (let halving = 0; halving < 10 && !accepted; halving++, h /= 2) {
      const first = halving === 0;
      for (const v of sys.variables) {
        const c0 = red.layout[v.id];
        if (c0 < 0) continue;
        const step = new Float64Array(v.dim);
        for (let a = 0; a < k; a++) { const s = alpha[a] * h; for (let j = 0; j < v.dim; j++) step[j] += red.N[a * n + c0 + j] * s; }
        sys.retractVariable(v, step, 0);
      }
      if (solve(sys).converged && forceSize(m, Q, v0) < Math.max(residual, tol) * (first ? 1e3 : 1)) accepted = true;
      else sys.restore(saved);
    }
    if (!accepted) return { converged: false, iterations: it, residual, message: `Newton stalled with ${residual.toPrecision(3)} N unbalanced` };
  }
  return { converged: false, iterations: maxIterations, residual, message: `not balanced after ${maxIterations} Newton iterations (${residual.toPrecision(3)} N left)` };
}
