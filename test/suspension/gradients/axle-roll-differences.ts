/**
 * The axle checks' comparison under any sweep (axle-roll.test.ts, bar-axles.test.ts): every entry
 * of every group's gradients against central differences of the pipeline re-solved with each
 * hardpoint moved.
 */
import { expect } from 'vitest';
import { gradientError, movedHardpoint } from '../moves';
import type { Geometry, SweepSpec } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';

/** Every group's metrics of the whole pipeline at the spec's one state (a fresh model). */
export function metricsOf(g: Geometry, spec: (g: Geometry) => SweepSpec): Record<string, Record<string, number | null>> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, spec(g), { noSteering: true });
  expect(r.steps[0].status).toBe('solved');
  return r.steps[0].metrics as unknown as Record<string, Record<string, number | null>>;
}

/** Every entry of every group's metrics against central differences of `values` (default: metricsOf); the worst relative error. */
export function check(g: Geometry, spec: (g: Geometry) => SweepSpec, metrics: string[], h = 1e-3, values = metricsOf): { worst: number; grads: SideMetrics } {
  const step = sensitivitySweepBySide(new SensitivityModel(g), spec(g), metrics).steps[0];
  expect(step.status).toBe('solved');
  const grads = step.metrics!;
  const base = values(g, spec);
  const keys = Object.keys(grads.left[metrics[0]]!.gradient);
  let worst = 0;
  for (const [group, ms] of Object.entries(grads)) for (const [m, e] of Object.entries(ms)) if (e) expect(e.value, `${group}.${m}`).toBeCloseTo(base[group][m]!, 8);
  for (const key of keys) {
    const mp = values(movedHardpoint(g, key, h), spec), mm = values(movedHardpoint(g, key, -h), spec);
    for (const [group, ms] of Object.entries(grads)) {
      for (const [m, exact] of Object.entries(ms)) {
        if (!exact) continue;
        const fd = ((mp[group][m] as number) - (mm[group][m] as number)) / (2 * h);
        const err = gradientError(exact.gradient[key], fd, exact.gradient, 1e-6);
        worst = Math.max(worst, err);
        if (err > 2e-4) throw new Error(`${group}.${m} ${key}: exact ${exact.gradient[key]}, differences ${fd}`);
      }
    }
  }
  return { worst, grads };
}
