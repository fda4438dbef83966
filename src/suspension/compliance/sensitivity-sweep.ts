/**
 * `kinemate sensitivity` on a compliant file (docs/compliance.md, "Gradients and fit"):
 * each step of the sweep settled (under the load case, if any) and its metrics' and the
 * `kc.*` coefficients' gradients over the stiffnesses (sensitivity.ts). Where the settled
 * state is at rest — no wheel load, no compliant element carrying force — it is the rigid
 * kinematics for every hardpoint nearby, so the state metrics' gradients over the hardpoints
 * are those of the rigid file (the same geometry without `compliance:`, gradients/model.ts),
 * checked to be the same state by the values. Elsewhere the hardpoints are not parameters yet.
 */
import type { Geometry, SweepSpec } from '../files';
import { runSweep } from '../sweep/sweep';
import { contactLoad, type LoadCase } from '../loads/loads';
import { SensitivityModel, sensitivitySweepBySide } from '../gradients/model';
import { SensitivityError, type MetricGradient, type SensitivityStep, type SideMetrics } from '../gradients/types';
import { COMPLIANT_STATE_METRICS, CompliantSensitivity, KC_METRICS } from './sensitivity';

/** Every metric a compliant file offers gradients of: the state metrics and the K&C coefficients, per side. */
export const COMPLIANT_SENSITIVITY_METRICS: readonly string[] = [...COMPLIANT_STATE_METRICS, ...KC_METRICS];

/** A settled state and a rigid one are the same where their values agree to this (the solvers' tolerance). */
const SAME_STATE = 1e-6;

/**
 * The gradients along a sweep of a compliant geometry: a corner's metrics flat
 * (`metrics.camber`), an axle's by side (`metrics.left.camber`), as kinemate sensitivity prints.
 */
export function compliantSensitivitySweep(geometry: Geometry, spec: SweepSpec, metrics: readonly string[] = [], loads: LoadCase | null = null):
{ steps: SensitivityStep<Record<string, MetricGradient | null> | SideMetrics>[] } {
  for (const m of metrics) {
    if (!COMPLIANT_SENSITIVITY_METRICS.includes(m)) throw new SensitivityError(`sensitivity: --metric: no gradient for "${m}" on a compliant file (metrics: ${COMPLIANT_SENSITIVITY_METRICS.join(', ')})`);
  }
  const chosen = metrics.length ? metrics : COMPLIANT_SENSITIVITY_METRICS;
  const cs = new CompliantSensitivity(geometry);
  if (loads) cs.state.setLoadCase(loads, contactLoad);
  // the rigid file's hardpoint gradients, for the states at rest
  const kinematic = chosen.filter((m) => (COMPLIANT_STATE_METRICS as readonly string[]).includes(m));
  const rigid = !loads && kinematic.length ? sensitivitySweepBySide(new SensitivityModel({ ...geometry, compliance: undefined }), spec, kinematic).steps : [];
  const found = new Map<number, { metrics: SideMetrics; atRest: boolean }>();
  const run = runSweep(cs.sm, spec, {
    valuesOnly: true,
    settle: () => cs.state.settle(),
    onSolvedState: (step) => { found.set(step.index, { metrics: cs.metricsBySide(chosen), atRest: cs.atRest() }); },
  });
  const axle = cs.sides.length > 1;
  const steps = run.steps.map((step) => {
    const got = found.get(step.index);
    const out: SensitivityStep<Record<string, MetricGradient | null> | SideMetrics> = { index: step.index, status: step.status, drivers: step.drivers, metrics: null };
    if (step.message) out.message = step.message;
    if (!got) return out;
    const bySide = got.metrics;
    const kin = got.atRest ? rigid[step.index] : undefined;
    if (kin?.status === 'solved' && kin.metrics) {
      for (const side of cs.sides) {
        for (const m of kinematic) {
          const c = bySide[side][m], r = kin.metrics[side]?.[m];
          if (c && r && Math.abs(c.value - r.value) <= SAME_STATE * Math.max(1, Math.abs(r.value))) c.gradient = { ...r.gradient, ...c.gradient };
        }
      }
    }
    out.metrics = axle ? bySide : bySide[cs.sides[0]];
    return out;
  });
  return { steps };
}
