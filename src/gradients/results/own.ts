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
import type { DynamicParameter, DynamicResult, OwnResult } from '../types';
export type { OwnResult, OwnResultFactory } from '../types';
import { TensionResult } from './tension';
import { ForceResult } from './forces';

/** The own result a DynamicResult of quantity 'tension', 'force' or 'own' names. */
export function ownResult(dyn: DynamicsModel, layout: Int32Array, result: DynamicResult, parameters: readonly DynamicParameter[]): OwnResult {
  if (result.quantity === 'tension') return new TensionResult(dyn, layout, result.part, parameters);
  if (result.quantity === 'force') return new ForceResult(dyn, result.part, result.component, parameters);
  if (!result.own) throw new GradientRefusal(`result "${result.part}": no quantity to evaluate`);
  return result.own(dyn, layout, parameters);
}
