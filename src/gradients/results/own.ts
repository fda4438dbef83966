/**
 * Results of a simulation's gradient that carry their own derivatives (src/gradients/run.ts
 * takes them through one interface; docs/sensitivity.md): a scalar r(q, v; p) of the state with
 * its covector on the tangent (q perturbed on the right, as the integrator's) and its explicit
 * dependence on each parameter with the state held. An element's tension
 * (sensitivity-tension.ts), an element's force (sensitivity-force-results.ts) and a geometry
 * file's suspension quantities (sensitivity-suspension-results.ts) are such results.
 */
import type { DynamicsModel } from '../../mechanics/build';
import { GradientRefusal } from '../refusal';
import type { DynamicParameter, DynamicResult } from '../run';
import { TensionResult } from './tension';
import { ForceResult } from './forces';

export interface OwnResult {
  /** Whether r reads parameter j directly (with the state held). */
  reads(j: number): boolean;
  /** r at the current system state with velocities v and time t; with w ≠ 0 adds w·∂r/∂(q, v) into (cq, cv) (tangent size). */
  evaluate(state: Float64Array, v: Float64Array, cq: Float64Array | null, cv: Float64Array | null, w: number, t: number): number;
  /** ∂r/∂p_j with the state held, at the last `evaluate`. */
  explicit(j: number): number;
}

/** Builds an own result for a run (its tangent layout and parameters); throws a message (string) when the name does not fit the model. */
export type OwnResultFactory = (dyn: DynamicsModel, layout: Int32Array, parameters: readonly DynamicParameter[]) => OwnResult;

/** The own result a DynamicResult of quantity 'tension', 'force' or 'own' names. */
export function ownResult(dyn: DynamicsModel, layout: Int32Array, result: DynamicResult, parameters: readonly DynamicParameter[]): OwnResult {
  if (result.quantity === 'tension') return new TensionResult(dyn, layout, result.part, parameters);
  if (result.quantity === 'force') return new ForceResult(dyn, result.part, result.component, parameters);
  if (!result.own) throw new GradientRefusal(`result "${result.part}": no quantity to evaluate`);
  return result.own(dyn, layout, parameters);
}
