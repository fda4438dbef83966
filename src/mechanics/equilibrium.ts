/**
 * Static equilibrium: the pose where the free generalized forces vanish, held coordinates
 * kept. Newton on the constraint manifold: solve K_r α = f (reduced stiffness and force,
 * src/mechanics/reduced.ts), step δ = N α within a trust radius, return to the manifold
 * with the kinematic solve, accept the step only if the unbalanced force fell (else halve
 * it). Where K_r is not positive definite (a mechanism upside down, a buckling spring) the
 * step is regularised toward steepest descent. If that fails at full load, the applied
 * loads (gravity, forces, torques) are stepped up from a quarter. A failure keeps the last
 * good pose and reports the residual force.
 */
import { choleskySolve } from '../../kernel/linalg';
import { solve, type SolveOptions } from '../../kernel/solver/solve';
import { solveModel, type SolveResult } from '../model/operations';
import type { DynamicsModel } from './build';
import { reduce, type Reduced } from './reduced';
import { BALANCE_TOLERANCE, reactionsHere, type StaticsResult } from './statics';

export interface EquilibriumOptions {
  set?: Record<string, number>;
  /** Newton iterations per load step (default 60). */
  maxIterations?: number;
  /** Largest step per iteration, relative to the model's length scale (default 0.05). */
  trustRadius?: number;
  solver?: SolveOptions;
  /**
   * A floor under the load scale the balance tolerance is relative to (N): a state whose
   * loads are all zero (a compliant suspension settling under its own elements) is then
   * balanced to BALANCE_TOLERANCE × this, not to round-off.
   */
  forceScale?: number;
  /**
   * The reduction at the current state (default reduce()): a caller with a better or
   * cheaper stiffness (the constraints' exact curvature, one kept from an earlier state)
   * passes its own. Only the force f decides convergence; the stiffness only steers.
   */
  reduce?: (loadScale: number) => Reduced;
  /**
   * false: a solved result skips the model-level reports (reactions, element forces, the
   * state as JSON, the freedom count), which cost more than a warm Newton; its fields are
   * then empty (dof −1). A failure keeps them all. Default true.
   */
  report?: boolean;
}

export type EquilibriumResult = Omit<SolveResult, 'status'> & {
  status: 'solved' | 'failed';
  reactions: StaticsResult['reactions'];
  drivers: StaticsResult['drivers'];
  forces: StaticsResult['forces'];
  indeterminate: string[];
  /** The generalized force left unbalanced (empty when solved). */
  residualForce: StaticsResult['unbalanced'];
  /** Newton iterations of the force balance, over all load steps. */
  newtonIterations: number;
  /** The load fractions that were solved in turn ([1] when no stepping was needed). */
  loadSteps: number[];
};

/**
 * Size of the reduced force in force units: the basis columns are orthonormal in scaled
 * steps (a turn counted as ω·L), so each Nᵀ Q component is a force (a moment per L).
 */
function forceSize(f: Float64Array): number {
  let m = 0;
  for (let a = 0; a < f.length; a++) m = Math.max(m, Math.abs(f[a]));
  return m;
}

/** Scale of the loads in force units: every Q entry, turns per length scale. */
function loadSize(dyn: DynamicsModel, Q: Float64Array, layout: Int32Array): number {
  let m = 0;
  const L = dyn.system.lengthScale;
  for (const v of dyn.system.variables) {
    const c0 = layout[v.id];
    if (c0 < 0) continue;
    if (v.kind === 'pose') for (let i = 0; i < 6; i++) m = Math.max(m, Math.abs(Q[c0 + i]) / (i < 3 ? L : 1));
    else m = Math.max(m, Math.abs(Q[c0]) / v.scale);
  }
  return m;
}

/** One variable's step (a pose's 6 or a scalar's 1). */
const stepScratch = new Float64Array(6);

/**
 * The Newton iteration's arrays, kept (an array of more than a few numbers costs a
 * microsecond to make): read only within the iteration that fills them.
 */
const scratch = {
  A: new Float64Array(0), x: new Float64Array(0), delta: new Float64Array(0),
  matrix(size: number): Float64Array { if (this.A.length < size) this.A = new Float64Array(size); return this.A; },
  rhs(size: number): Float64Array { if (this.x.length < size) this.x = new Float64Array(size); return this.x; },
  /** Zeroed. */
  step(size: number): Float64Array { if (this.delta.length < size) this.delta = new Float64Array(size); this.delta.fill(0, 0, size); return this.delta; },
  /** The state before a trial step (system.snapshot's numbers, kept in place: restore reads it whole). */
  saved: new Float64Array(0),
  save(system: DynamicsModel['system']): Float64Array {
    const len = system.snapshotLength;
    if (this.saved.length !== len) this.saved = new Float64Array(len);
    this.saved.set(system.state.subarray(0, len));
    return this.saved;
  },
};

export function equilibrium(dyn: DynamicsModel, options: EquilibriumOptions = {}): EquilibriumResult {
  const { system } = dyn;
  const brief = options.report === false && !options.set;
  const reduceAt = options.reduce ?? ((loadScale: number) => reduce(dyn, { loadScale }));
  const solved = brief && solve(system, options.solver).converged ? null : solveModel(dyn.model, { set: options.set, solver: options.solver });
  const finish = (status: 'solved' | 'failed', iterations: number, loadSteps: number[], message?: string): EquilibriumResult => {
    if (brief && status === 'solved') {
      return {
        status, converged: true, iterations: 0, maxResidual: 0, dof: -1, redundant: [], conflicting: [], atLimit: [], state: {},
        reactions: {}, drivers: {}, forces: {}, indeterminate: [], residualForce: {}, newtonIterations: iterations, loadSteps,
      };
    }
    const report = reactionsHere(dyn);
    const kin = solveModel(dyn.model, { solver: options.solver });
    const result: EquilibriumResult = {
      ...kin, status, reactions: report.reactions, drivers: report.drivers, forces: report.forces,
      indeterminate: report.indeterminate, residualForce: report.unbalanced, newtonIterations: iterations, loadSteps,
    };
    if (message) result.message = message;
    return result;
  };
  if (solved && solved.status !== 'solved') return finish('failed', 0, [], solved.message ?? 'the starting pose cannot be solved');
  const maxIterations = options.maxIterations ?? 60;
  const trust = (options.trustRadius ?? 0.05) * system.lengthScale;
  let total = 0;
  const attempt = (loadScale: number): boolean => {
    // the state an accepted step reached was already reduced to judge it: that reduction starts the next iteration
    let reached: Reduced | null = null;
    for (let it = 0; it < maxIterations; it++) {
      const red = reached ?? reduceAt(loadScale);
      reached = null;
      const { k, N, size: n } = red;
      const scale = Math.max(loadSize(dyn, red.Q, red.layout), options.forceScale ?? 0);
      const tol = BALANCE_TOLERANCE * scale + 1e-12;
      const current = forceSize(red.f);
      if (k === 0 || current <= tol) return true;
      total++;
      // regularise until K_r + μ I is positive definite: Newton near a stable equilibrium, descent elsewhere
      // read once: a caller's reduction may form K_r when first asked (CompliantTangent.reduce)
      const Kr = red.Kr;
      let diag = 0;
      for (let a = 0; a < k; a++) diag = Math.max(diag, Math.abs(Kr[a * k + a]));
      let mu = 0;
      let alpha: Float64Array | null = null;
      for (let tries = 0; tries < 30; tries++) {
        const A = scratch.matrix(k * k);
        for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) A[a * k + b] = 0.5 * (Kr[a * k + b] + Kr[b * k + a]) + (a === b ? mu : 0);
        const x = scratch.rhs(k);
        x.set(red.f.subarray(0, k));
        if (choleskySolve(A, x, k)) { alpha = x; break; }
        mu = mu === 0 ? Math.max(diag, scale / system.lengthScale, 1e-12) * 1e-3 : mu * 10;
      }
      if (!alpha) return false;
      // the step δ = N α, limited to the trust radius in scaled length
      const delta = scratch.step(n);
      for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) delta[j] += N[a * n + j] * alpha[a];
      let len = 0;
      for (const v of system.variables) {
        const c0 = red.layout[v.id];
        if (c0 < 0) continue;
        if (v.kind === 'pose') for (let i = 0; i < 6; i++) len = Math.max(len, Math.abs(delta[c0 + i]) * (i < 3 ? system.lengthScale : 1));
        else len = Math.max(len, Math.abs(delta[c0]) * v.scale);
      }
      let h = len > trust ? trust / len : 1;
      const saved = scratch.save(system);
      let accepted = false;
      for (let halving = 0; halving < 12; halving++) {
        for (const v of system.variables) {
          const c0 = red.layout[v.id];
          if (c0 < 0) continue;
          // the variable's share of h·δ, into scratch (no array per variable and halving)
          for (let i = 0; i < v.dim; i++) stepScratch[i] = delta[c0 + i] * h;
          system.retractVariable(v, stepScratch, 0);
        }
        const back = solve(system, options.solver);
        if (back.converged) {
          const next = reduceAt(loadScale);
          if (forceSize(next.f) < current) { accepted = true; reached = next; break; }
        }
        system.restore(saved);
        h /= 2;
      }
      if (!accepted) { system.restore(saved); return false; }
    }
    return false;
  };
  const start = system.snapshot();
  if (attempt(1)) return finish('solved', total, [1]);
  // load stepping from the starting pose
  system.restore(start);
  solve(system, options.solver);
  const steps = [0.25, 0.5, 0.75, 1];
  const done: number[] = [];
  for (const s of steps) {
    const good = system.snapshot();
    if (!attempt(s)) {
      system.restore(good);
      return finish('failed', total, done, `no equilibrium found at ${Math.round(s * 100)}% of the loads; the last good pose is kept and residualForce says what is unbalanced`);
    }
    done.push(s);
  }
  return finish('solved', total, done);
}
