/**
 * Two hardpoints at one place (the torsion-bar trailing arm: the bar's axis starts at the
 * arm's front pivot): each point of the model is mapped to the hardpoint the template built
 * it from (by identity), so each of the two gets its own gradient entry. Every entry of a
 * few metrics against central differences of `kinemate sweep`'s values with that one
 * hardpoint moved (the two then apart), the geometry rebuilt and re-solved.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradientError, movedHardpoint } from '../moves';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivitySweepBySide, type MetricGradient } from '../../../src/suspension/gradients/model';

const g = parseGeometry(readFileSync('examples/suspension/trailing_arm_torsion_bar.yaml', 'utf8'));

function valuesAt(geo: Geometry, mm: number): Record<string, number | null> {
  const r = runSweep(new SuspensionModel(suspensionAssembly(geo)), sweepFromShortcut('bump', `${mm}:${mm}:1`, geo));
  expect(r.steps[0].status).toBe('solved');
  return r.steps[0].metrics as unknown as Record<string, number | null>;
}

function gradientsAt(mm: number, metrics: string[]): Record<string, MetricGradient | null> {
  const step = sensitivitySweepBySide(new SensitivityModel(g), sweepFromShortcut('bump', `${mm}:${mm}:1`, g), metrics).steps[0];
  expect(step.status).toBe('solved');
  return step.metrics!.left;
}

/** Worst error over every entry of the metrics; throws above tol. */
function worst(mm: number, metrics: string[], h: number, tol: number): { worst: number; grads: Record<string, MetricGradient | null> } {
  const grads = gradientsAt(mm, metrics);
  const base = valuesAt(g, mm);
  let w = 0;
  const keys = Object.keys(grads[metrics[0]]!.gradient);
  for (const key of keys) {
    const vp = valuesAt(movedHardpoint(g, key, h), mm), vm = valuesAt(movedHardpoint(g, key, -h), mm);
    for (const m of metrics) {
      const exact = grads[m];
      expect(exact, m).not.toBeNull();
      expect(exact!.value, m).toBeCloseTo(base[m] as number, 9);
      const fd = ((vp[m] as number) - (vm[m] as number)) / (2 * h);
      const err = gradientError(exact!.gradient[key], fd, exact!.gradient, 0);
      if (err > tol) throw new Error(`${m} ${key}: exact ${exact!.gradient[key]}, differences ${fd}`);
      w = Math.max(w, err);
    }
  }
  return { worst: w, grads };
}

describe('coincident hardpoints: mapped by identity, one entry each', () => {
  it('the file has two hardpoints at one place', () => {
    const hp = g.corners[0].hardpoints;
    expect(hp.trailing_arm_pivot_a).toEqual(hp.torsion_bar_axis_a);
  });

  it('first-order metrics at +20 mm: every entry matches central differences (1e-6 at ±1e-2 mm); the two points differ', () => {
    const metrics = ['camber', 'toe_angle', 'half_track', 'svic_x', 'svic_z', 'svsa_length', 'damper_length', 'torsion_bar_twist'];
    const { worst: w, grads } = worst(20, metrics, 1e-2, 1e-6);
    expect(w).toBeLessThan(1e-6);
    // the bar's axis start moves the twist; the arm's pivot moves the wheel: not the same entries
    const tw = grads.torsion_bar_twist!.gradient;
    expect(Math.abs(tw['torsion_bar_axis_a.z'])).toBeGreaterThan(1e-4);
    expect(tw['torsion_bar_axis_a.z']).not.toBeCloseTo(tw['trailing_arm_pivot_a.z'], 6);
    expect(grads.camber!.gradient['torsion_bar_axis_a.x']).toBe(0);
    expect(Math.abs(grads.camber!.gradient['trailing_arm_pivot_a.x'])).toBeGreaterThan(1e-4);
  });

  it('second-order metrics at −15 mm: the hub rates of camber and of the bar twist match central differences (2e-4 at ±1e-3 mm)', () => {
    expect(worst(-15, ['deriv_camber_wrt_hub_z', 'deriv_torsion_bar_twist_wrt_hub_z', 'deriv_half_track_wrt_hub_z'], 1e-3, 2e-4).worst).toBeLessThan(2e-4);
  });
});
