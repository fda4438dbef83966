/**
 * The live model's suspension analysis: every metric with its exact derivatives, the
 * steering response under the chosen hold and the `*_virtual` metrics, on the solved
 * state of each frame (plugs into LiveModel's `analyze` hook). The SuspensionModel over a
 * live Model is built once per model (the live model rebuilds its Model only on
 * structural edits) and reads the solved state in place.
 */
import type { Model } from '../model/build.ts';
import type { SolveResult } from '../model/operations.ts';
import { SuspensionModel } from '../suspension/model.ts';
import { evaluateState, type FullState } from '../suspension/state.ts';

export interface LiveSuspensionAnalysis {
  dof: number;
  scope: 'corner' | 'axle';
  positions: FullState['positions'];
  metrics: FullState['metrics'];
  steering: FullState['steering'];
}

/** An `analyze` hook for suspension documents (null for an assembly without suspension roles). */
export function suspensionAnalysis(hold = 'layout_default'): (model: Model, solved: SolveResult) => LiveSuspensionAnalysis | null {
  const cache = new WeakMap<Model, SuspensionModel>();
  return (model, solved) => {
    if (model.doc.suspension === undefined) return null;
    let sm = cache.get(model);
    if (!sm) {
      sm = new SuspensionModel(model.doc, model);
      cache.set(model, sm);
    }
    const full = evaluateState(sm, hold);
    return { dof: solved.dof, scope: sm.roles.scope, positions: full.positions, metrics: full.metrics, steering: full.steering };
  };
}
