/**
 * An axle's link forces and rack force against central differences of the re-solved pipeline:
 * loads-axle.test.ts's checks, and the rated T-bar's in loads-joints.test.ts (which re-solves
 * the same moved axles for its joints).
 */
import { expect } from 'vitest';
import { sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import type { LoadCase, StateLoads } from '../../../src/suspension/loads/loads';
import { SensitivityModel, sensitivitySweepBySide } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';
import { gradientError, loadsOf, movedHardpoint } from '../moves';

/** A grouped metric's value in the sweep's loads: `left` + `link_force.trackrod` is link `left_trackrod`. */
export function linkValue(l: StateLoads, group: string, metric: string): number {
  if (metric === 'rack_force') return l.rack_force!;
  const id = metric.slice('link_force.'.length);
  return l.links[group === 'axle' ? id : `${group}_${id}`];
}

/** Every entry against central differences of the re-solved pipeline (every hardpoint of the axle moved ±h). */
export function checkLinkGradients(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, h = 1e-3) {
  const model = new SensitivityModel(g);
  const extra = new AxleLoadGradients(new LoadSensitivity(model, lc));
  const step = sensitivitySweepBySide(model, sweepFromShortcut(kind, `${at}:${at}:1`, g), extra.names, 'adjoint', extra).steps[0];
  expect(step.status).toBe('solved');
  const got = step.metrics!;
  const base = loadsOf(g, kind, at, lc);
  const entries = Object.entries(got).flatMap(([group, ms]) => Object.entries(ms).map(([m, v]) => ({ group, m, v: v! })));
  for (const { group, m, v } of entries) expect(Math.abs(v.value - linkValue(base, group, m))).toBeLessThan(1e-9 * Math.max(1, Math.abs(v.value)));
  let worst = 0, compared = 0;
  for (const key of model.keys) {
    const lp = loadsOf(movedHardpoint(g, key, h), kind, at, lc), lm = loadsOf(movedHardpoint(g, key, -h), kind, at, lc);
    for (const { group, m, v } of entries) {
      const fd = (linkValue(lp, group, m) - linkValue(lm, group, m)) / (2 * h);
      const err = gradientError(v.gradient[key], fd, v.gradient, 0);
      worst = Math.max(worst, err);
      compared++;
      if (err > 1e-6) throw new Error(`${group} ${m} ${key}: exact ${v.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, compared, got, keys: model.keys.length };
}
