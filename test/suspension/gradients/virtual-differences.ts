/**
 * An axle's or corner's *_virtual metrics against central differences of `kinemate sweep`'s own
 * values, re-solved with each point moved: virtual-axle.test.ts's checks, and the steered axle's
 * at +8 mm rack and the U-bar axle's at −10 mm in devices.test.ts, whose device metrics are
 * checked at the same states by the same steps (the full sweep's values, kept: each moved axle
 * solved once for both).
 */
import { expect } from 'vitest';
import { sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { SensitivityModel, sensitivitySweep, sensitivitySweepBySide, type MetricGradient } from '../../../src/suspension/gradients/model';
import { VIRTUAL_METRICS } from '../../../src/suspension/gradients/virtual';
import { gradientError, movedHardpoint, sweptMetrics } from '../moves';

export type Kind = 'bump' | 'steer' | 'roll';

function spec(g: Geometry, kind: Kind, at: number, hold?: string) {
  const s = sweepFromShortcut(kind, `${at}:${at}:1`, g);
  if (hold) s.analysis = { virtual_steering: { suspension_hold: hold } };
  return s;
}

/** kinemate sweep's *_virtual values per side ('' for a corner file). */
export function sweepValues(g: Geometry, kind: Kind, at: number, hold?: string): Record<string, Record<string, number | null>> {
  const m = sweptMetrics(g, spec(g, kind, at, hold)) as Record<string, unknown>;
  return g.scope === 'axle' ? (m as Record<string, Record<string, number | null>>) : { '': m as Record<string, number | null> };
}

/** The exact gradients per side ('' for a corner file). */
export function exactGradients(g: Geometry, kind: Kind, at: number, hold?: string): Record<string, Record<string, MetricGradient | null>> {
  const model = new SensitivityModel(g);
  if (g.scope !== 'axle') return { '': sensitivitySweep(model, spec(g, kind, at, hold), [...VIRTUAL_METRICS]).steps[0].metrics! };
  const step = sensitivitySweepBySide(model, spec(g, kind, at, hold), [...VIRTUAL_METRICS]).steps[0];
  expect(Object.keys(step.metrics!)).toEqual(['left', 'right']);
  return step.metrics!;
}

/** Every entry of every side against central differences; the worst relative error. */
export function checkVirtual(g: Geometry, kind: Kind, at: number, hold?: string, h = 1e-3): number {
  const sens = exactGradients(g, kind, at, hold);
  const values = sweepValues(g, kind, at, hold);
  const sides = Object.keys(sens);
  for (const side of sides) for (const m of VIRTUAL_METRICS) {
    expect(sens[side][m], `${side} ${m}`).not.toBeNull();
    expect(sens[side][m]!.value, `${side} ${m}`).toBeCloseTo(values[side][m]!, 7);
  }
  const keys = Object.keys(sens[sides[0]][VIRTUAL_METRICS[0]]!.gradient);
  let worst = 0;
  for (const key of keys) {
    const mp = sweepValues(movedHardpoint(g, key, h), kind, at, hold), mm = sweepValues(movedHardpoint(g, key, -h), kind, at, hold);
    for (const side of sides) for (const m of VIRTUAL_METRICS) {
      const fd = ((mp[side][m] as number) - (mm[side][m] as number)) / (2 * h);
      const exact = sens[side][m]!.gradient[key];
      const err = gradientError(exact, fd, sens[side][m]!.gradient, 1e-9);
      worst = Math.max(worst, err);
      if (err > 2e-4) throw new Error(`${side} ${m} ${key}: exact ${exact}, differences ${fd}`);
    }
  }
  return worst;
}

