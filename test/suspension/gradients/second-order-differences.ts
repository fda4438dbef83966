/**
 * The second-order checks' comparison (second-order-drivers.test.ts, bar-axles.test.ts): every
 * entry of `kinemate sensitivity`'s gradients against central differences of a sweep's values
 * re-solved with each point moved.
 */
import { expect } from 'vitest';
import { gradientError, movedHardpoint } from '../moves';
import type { Geometry, SweepSpec } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivitySweep, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';

export type Values = Record<string, Record<string, number | null>>;

/** `kinemate sweep`'s metrics at the spec's one state (a fresh model), grouped as the gradients are (a corner: by its side). */
export function sweepOf(g: Geometry, spec: SweepSpec): Values {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, spec, { noSteering: true });
  expect(r.steps[0].status).toBe('solved');
  const m = r.steps[0].metrics as unknown as Values | Record<string, number | null>;
  return g.scope === 'axle' ? (m as Values) : { [g.corners[0].side]: m as Record<string, number | null> };
}

/**
 * Every entry of the named metrics against central differences of `values` (default: the
 * sweep of the geometry itself); each must be defined (not null) in both. The worst error.
 */
export function check(g: Geometry, spec: SweepSpec, metrics: string[], values: (x: Geometry) => Values = (x) => sweepOf(x, spec), h = 1e-3): { worst: number; grads: SideMetrics; entries: number } {
  // a corner through sensitivitySweep (which also offers the *_virtual), grouped by its side
  const model = new SensitivityModel(g);
  const step = g.scope === 'axle' ? sensitivitySweepBySide(model, spec, metrics).steps[0] : sensitivitySweep(model, spec, metrics).steps[0];
  expect(step.status).toBe('solved');
  const grads: SideMetrics = g.scope === 'axle' ? step.metrics as SideMetrics : { [g.corners[0].side]: step.metrics as SideMetrics[string] };
  const base = values(g);
  let keys: string[] = [];
  for (const [group, ms] of Object.entries(grads)) for (const [m, e] of Object.entries(ms)) {
    // a metric the geometry does not define (a damper rate without a damper): null in both
    if (!(m in base[group])) { expect(e, `${group}.${m}`).toBeNull(); continue; }
    expect(e, `${group}.${m}`).not.toBeNull();
    expect(base[group][m], `${group}.${m} in the sweep`).not.toBeNull();
    expect(e!.value, `${group}.${m}`).toBeCloseTo(base[group][m]!, 8);
    keys = Object.keys(e!.gradient);
  }
  let worst = 0, entries = 0;
  for (const key of keys) {
    const vp = values(movedHardpoint(g, key, h)), vm = values(movedHardpoint(g, key, -h));
    for (const [group, ms] of Object.entries(grads)) for (const [m, exact] of Object.entries(ms)) {
      if (!exact) continue; // (checked above: not a metric of this geometry)
      const fd = ((vp[group][m] as number) - (vm[group][m] as number)) / (2 * h);
      const err = gradientError(exact.gradient[key], fd, exact.gradient, 1e-6);
      worst = Math.max(worst, err);
      entries++;
      if (err > 2e-4) throw new Error(`${group}.${m} ${key}: exact ${exact.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, grads, entries };
}
