/**
 * The axle checks' comparison (axle.test.ts, bar-axles.test.ts): every entry of both sides'
 * gradients against central differences of the whole kinematic pipeline re-solved with each
 * hardpoint moved.
 */
import { expect } from 'vitest';
import { movedHardpoint } from '../moves';
import { sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';

export const METRICS = ['camber', 'toe_angle', 'caster', 'kpi', 'scrub_radius', 'half_track', 'fvic_z', 'svic_x'];

/** Metrics per side of the whole kinematic pipeline (a fresh model from the geometry, both wheels at `bump`). */
export function metricsOf(g: Geometry, bump: number): Record<string, Record<string, number | null>> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), { noSteering: true });
  return r.steps[0].metrics as unknown as Record<string, Record<string, number | null>>;
}

export function gradientsAt(g: Geometry, bump: number): SideMetrics {
  const model = new SensitivityModel(g);
  const step = sensitivitySweepBySide(model, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), METRICS).steps[0];
  expect(step.status).toBe('solved');
  return step.metrics!;
}

/** Every gradient entry of every side against central differences of the re-solved axle (`values`: its metrics per side at `bump`). */
export function checkAgainstDifferences(g: Geometry, bump: number, h = 1e-3, values = metricsOf): { worst: number; grads: SideMetrics; keys: string[] } {
  const grads = gradientsAt(g, bump);
  const sides = Object.keys(grads);
  expect(sides).toEqual(['left', 'right']);
  const keys = Object.keys(grads.left.camber!.gradient);
  const expected = g.corners.reduce((s, c) => s + 3 * Object.keys(c.hardpoints).length, 3 * Object.keys(g.center ?? {}).length);
  expect(keys).toHaveLength(expected);
  let worst = 0;
  for (const key of keys) {
    const mp = values(movedHardpoint(g, key, h), bump), mm = values(movedHardpoint(g, key, -h), bump);
    for (const side of sides) {
      for (const m of METRICS) {
        const exact = grads[side][m];
        if (exact === null || mp[side][m] === null) continue;
        const fd = ((mp[side][m] as number) - (mm[side][m] as number)) / (2 * h);
        const scale = Math.max(Math.abs(fd), 1e-3 * (1 + Math.abs(exact.value) / 100));
        const err = Math.abs(exact.gradient[key] - fd) / scale;
        worst = Math.max(worst, err);
        if (err > 2e-4) throw new Error(`${side}.${m} ${key}: exact ${exact.gradient[key]}, differences ${fd}`);
      }
    }
  }
  return { worst, grads, keys };
}
