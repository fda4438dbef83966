/**
 * The roll-centre checks' comparison (roll-centre.test.ts, bar-axles.test.ts): every entry of
 * the named metrics against central differences of the re-solved pipeline, and an axle's
 * axle-level gradients.
 */
import { expect } from 'vitest';
import { gradientError, movedHardpoint } from '../moves';
import { sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { SensitivityModel, sensitivitySweepBySide, type MetricGradient, type SideMetrics } from '../../../src/suspension/gradients/model';

/**
 * Worst relative error of every entry of each metric against central differences of the
 * re-solved pipeline (`values`: the metrics of a moved geometry; one solve per move serves all).
 */
export function worstAgainstDifferences(exact: Record<string, MetricGradient | null>, values: (g: Geometry) => Record<string, number | null>, g: Geometry, h = 1e-3): number {
  const names = Object.keys(exact).filter((m) => exact[m] !== null);
  const keys = Object.keys(exact[names[0]]!.gradient);
  let worst = 0;
  for (const key of keys) {
    const vp = values(movedHardpoint(g, key, h)), vm = values(movedHardpoint(g, key, -h));
    for (const m of names) {
      if (vp[m] === null || vm[m] === null) throw new Error(`${m} ${key}: the pipeline gives null`);
      const fd = ((vp[m] as number) - (vm[m] as number)) / (2 * h);
      const d = exact[m]!.gradient[key];
      const err = gradientError(d, fd, exact[m]!.gradient, 1e-6);
      worst = Math.max(worst, err);
      if (err > 2e-4) throw new Error(`${m} ${key}: exact ${d}, differences ${fd}`);
    }
  }
  return worst;
}

/** The axle-level metrics checked. */
export const AXLE_METRICS = ['heave', 'roll', 'roll_center_y', 'roll_center_z', 'roll_center_kinematic_y', 'roll_center_kinematic_z', 'track', 'track_change', 'ride_height_change'];

/** Their gradients at a bump travel (the axle's group alone). */
export function axleGrads(g: Geometry, bump: number): Record<string, MetricGradient | null> {
  const step = sensitivitySweepBySide(new SensitivityModel(g), sweepFromShortcut('bump', `${bump}:${bump}:1`, g), AXLE_METRICS).steps[0];
  expect(step.status).toBe('solved');
  expect(Object.keys(step.metrics!)).toEqual(['axle']);
  return (step.metrics as SideMetrics).axle;
}
