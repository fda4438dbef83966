/**
 * Exact gradients of simulation results with respect to model parameters: the forward
 * (tangent-linear) sensitivity of the discrete generalized-α / backward-Euler step of
 * kernel/integrator/integrator.ts, not of the continuous equations, and never by differences.
 *
 * Each accepted step solves R(D, λ; x_n, p) = 0 for the Newton correction D of the step
 * (v̇, v, a and the Lie step y = hΔq are affine in D) and the multipliers:
 *   M v̇ + g(v) − Q(q, v, t) + Φ_qᵀλ = 0,   Φ(q, t) = 0,   q = q_n ∘ exp(y).
 * Differentiating the converged step (q perturbed on the right, q ∘ exp(δ)):
 *   δ_{n+1} = Ad(exp(−y)) δ_n + J_r(y) dy,
 *   [β'M + γ'(∂g/∂v − C) + (H − K) J_r,  Φ_qᵀ] [dD]     [−(M v̇' + (∂g/∂v − C) v̂' + (H − K) δ̂ + R_p)]
 *   [Φ_q J_r,                              0 ] [dλ]  =  [−Φ_q δ̂                                  ]
 * with H = ∂(Φ_qᵀλ)/∂q by tangent-mode AD of the constraint blocks (kernel/dual.ts
 * withTangents), K, C from the force blocks' AD, J_r the SE(3) right Jacobian (kernel/pose.ts)
 * and R_p = ∂R/∂p in closed form (a linear law's coefficient, a body's mass, inertia, centre).
 * This matrix is the exact Jacobian of the step; the integrator's own iteration matrix drops
 * H and takes J_r = 1 (a quasi-Newton matrix), so it is factored anew here, once per step.
 *
 * The start is differentiated too: [M Φ_qᵀ; Φ_q 0][v̇₀'; λ₀'] = [−R_p; 0] (positions and the
 * start velocities do not depend on these parameters).
 *
 * The discrete adjoint (`simulationGradientAdjoint`) runs the same recursion backward: each
 * step's end is stored, its matrix rebuilt and refactored in the sweep, and one transposed
 * solve per step serves every parameter (docs/sensitivity.md).
 *
 * `simulate` steps poses on R³ × SO(3) (kernel/integrator/product-group.ts), and so does this by
 * default: the same system with its velocity map and retraction (product-step.ts), so that the
 * gradient is the exact derivative of what `simulate` prints, its clock t_k = k·h included.
 *
 * The run in stages, each its own file with a small typed state passed on: setup.ts (build,
 * names checked, the run started), parameter-rows.ts (each parameter's rows), trackers.ts and
 * result-reading.ts (the results), linearisation.ts (a step's exact linear system),
 * start-tangents.ts (how the start moves), forward.ts (the steps), adjoint.ts (the sweep back);
 * this file puts them in order and assembles the results.
 */
import { ArgumentError } from '../../kernel/errors';
import type { AssemblyDoc } from '../assembly/types';
import type { Model } from '../model/build';
import type { DynamicsModel } from '../mechanics/build';
import { adjointSweep } from './adjoint';
import { allocateColumns } from './columns';
import { DynamicSensitivityError } from './errors';
import { forwardPass } from './forward';
import { linearisation } from './linearisation';
import type { DynamicGradient, GradientOptions } from './options';
import { parameterRows } from './parameter-rows';
import { resultReader } from './result-reading';
import { setupRun } from './setup';
import { directStart, startTangents } from './start-tangents';
import { makeTrackers } from './trackers';
import type { DynamicParameter, DynamicResult } from './types';
export type { CombinedParameter, DynamicParameter, DynamicResult, ParameterTerm } from './types';
export type { DynamicGradient, GradientOptions } from './options';
export { DynamicSensitivityError } from './errors';
export { parseParameter, parseResult } from './names';

/**
 * d(result)/d(parameters) of a run of the assembly from its file state, exact for the
 * discrete integrator (see the file's head), by the forward (direct) sensitivity: one
 * column per parameter carried through every step. Throws DynamicSensitivityError on an
 * unknown name, on redundant constraint rows, and on a model whose constraint blocks have
 * no second derivatives.
 */
export function simulationGradient(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions): DynamicGradient {
  return single(source, parameters, result, options, 'direct');
}

/**
 * The same gradient by the discrete adjoint: the run stores each step's end state, then one
 * backward sweep re-linearises every step (the same exact step matrix, refactored) and solves
 * its transpose once, whatever the number of parameters (the direct route solves once per
 * parameter and step). Equal to `simulationGradient` up to round-off.
 */
export function simulationGradientAdjoint(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions): DynamicGradient {
  return single(source, parameters, result, options, 'adjoint');
}

/**
 * Gradients of several results from one run: the direct route carries the columns once and
 * reads every result off them; the adjoint stores the run once and sweeps back once, each
 * step's exact matrix factored once and solved transposed once per result. `method` defaults
 * to the adjoint when there are more parameters than results, else the direct route.
 */
export function simulationGradients(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], results: readonly DynamicResult[], options: GradientOptions,
  method?: 'adjoint' | 'direct'): DynamicGradients {
  const how = method ?? (parameters.length > results.length ? 'adjoint' : 'direct');
  const run = gradientRun(source, parameters, results, options, how);
  return { method: how, steps: run.steps, results: run.results };
}

export interface DynamicGradients {
  method: 'adjoint' | 'direct';
  steps: number;
  /** Per result, in the order asked. */
  results: DynamicGradient[];
}

/** A step's end as the adjoint sweep needs it: size, time, positions, v, v̇, λ and the Lie step y. */
function single(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions, mode: 'direct' | 'adjoint'): DynamicGradient {
  const run = gradientRun(source, parameters, [result], options, mode);
  return { ...run.results[0], steps: run.steps };
}

/** The stages in order, then each result's value, time and gradient. */
function gradientRun(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], results: readonly DynamicResult[], options: GradientOptions, mode: 'direct' | 'adjoint'): { steps: number; results: DynamicGradient[] } {
  const { duration, step } = options;
  if (!(duration > 0) || !(step > 0)) throw new ArgumentError('duration and step', 'expected positive numbers of seconds');
  if (!results.length) throw new DynamicSensitivityError('gradients: no result asked for');
  const s = setupRun(source, parameters, options, mode);
  const pr = parameterRows(s);
  const { trackers, lamAll } = makeTrackers(s, results);
  const lin = linearisation(s, pr.curved);
  const st = startTangents(s, pr, lin);
  const cols = allocateColumns(s.n, s.P, s.pm);
  if (mode === 'direct') directStart(s, pr, lin, st, trackers, lamAll, cols);
  const reader = resultReader(s, trackers, lamAll, cols);
  const { done, stored } = forwardPass(s, pr, lin, trackers, lamAll, cols, reader);
  const { it } = s;
  const out: DynamicGradient[] = trackers.map((tr) => {
    const result = tr.result;
    if (result.at === 'crossing' && Number.isNaN(tr.crossT)) throw new DynamicSensitivityError(`result: ${result.part}${result.point ? `.${result.point}` : ''} does not reach ${result.level} in ${duration} s`);
    let value: number, t: number;
    if (result.at === 'crossing') { value = tr.crossT; t = tr.crossT; } else if (result.at === 'final') {
      value = reader.valueAndGradient(tr, mode === 'direct' ? tr.grad : null); t = it.t;
    } else { value = tr.sign * tr.best; t = tr.bestT; }
    return { value, t, gradient: [], steps: done, ...(result.at === 'crossing' ? { perLevel: -(tr.crossPrev + tr.crossCur) } : {}) };
  });
  if (mode === 'adjoint') {
    // each result's weight on each stored step's state
    const weights = trackers.map((tr) => {
      const w = new Map<number, number>();
      if (tr.result.at === 'final') w.set(stored.length - 1, 1);
      else if (tr.result.at === 'crossing') { w.set(tr.crossStep - 1, tr.crossPrev); w.set(tr.crossStep, tr.crossCur); } else w.set(tr.bestStep, tr.sign * tr.sign);
      return w;
    });
    adjointSweep(s, pr, lin, st, trackers, reader, stored, weights);
  }
  trackers.forEach((tr, r) => { out[r].gradient = [...tr.grad]; });
  return { steps: done, results: out };
}
