/**
 * The live model's suspension analysis: every metric with its exact derivatives, the
 * steering response under the chosen hold and the `*_virtual` metrics, on the solved
 * state of each frame (plugs into LiveModel's `analyze` hook, and is what
 * {@link LiveViewEngine} frames carry). The SuspensionModel over a live Model is built
 * once per model (the live model rebuilds its Model only on structural edits) and reads
 * the solved state in place.
 */
import type { Model } from '../model/build.ts';
import type { SolveResult } from '../model/operations.ts';
import { SuspensionModel, type MetricValues } from '../suspension/build/model.ts';
import { evaluateState, type FullState } from '../suspension/metrics/state.ts';

export interface LiveSuspensionAnalysis {
  dof: number;
  scope: 'corner' | 'axle';
  positions: FullState['positions'];
  metrics: FullState['metrics'];
  steering: FullState['steering'];
}

/** The analysis of a suspension model at its current (solved) state. */
export function analyseSuspension(sm: SuspensionModel, hold: string, dof: number): LiveSuspensionAnalysis {
  const full = evaluateState(sm, hold);
  return { dof, scope: sm.roles.scope, positions: full.positions, metrics: full.metrics, steering: full.steering };
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
    return analyseSuspension(sm, hold, solved.dof);
  };
}

/**
 * An analysis's metrics as one flat record: a corner's as they are; an axle's left
 * corner as they are, the right one as `right.*`, the axle's own as `axle.*`.
 */
export function flatMetrics(analysis: Pick<LiveSuspensionAnalysis, 'scope' | 'metrics'>): Record<string, number | null> {
  if (analysis.scope !== 'axle') return { ...(analysis.metrics as MetricValues) };
  const m = analysis.metrics as { axle: MetricValues; left: MetricValues; right: MetricValues };
  const out: Record<string, number | null> = { ...m.left };
  for (const [k, v] of Object.entries(m.right)) out[`right.${k}`] = v;
  for (const [k, v] of Object.entries(m.axle)) out[`axle.${k}`] = v;
  return out;
}
