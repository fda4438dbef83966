/**
 * A point on a rod's centreline, (1 − f)·A + f·B, f the authored point's projection on the
 * rod (the multi-link's damper end on its lower rear link; src/suspension/gradients/rod-fraction.ts):
 * every metric's gradient, under a damper-length target (the sweep's element_length) and
 * under bump with the damper-length steering hold, against central differences of
 * `kinemate sweep`'s values re-solved with each point moved (the template re-deriving f);
 * and the link forces' gradients under that target (the row's Jacobian rate).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradientError, movedHardpoint } from '../moves';
import { parseGeometry, parseSweep, sweepFromShortcut, type Geometry, type SweepSpec } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivityMetricsOf, sensitivitySweep, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';
import { virtualMetricsOf } from '../../../src/suspension/gradients/virtual';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { parseLoadCase, SweepLoads, type StateLoads } from '../../../src/suspension/loads/loads';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
type Values = Record<string, Record<string, number | null>>;

/** `kinemate sweep`'s metrics at the spec's one state (a fresh model, the steering response evaluated), grouped by side. */
function sweepOf(g: Geometry, spec: SweepSpec): Values {
  const r = runSweep(new SuspensionModel(suspensionAssembly(g)), spec);
  expect(r.steps[0].status).toBe('solved');
  const m = r.steps[0].metrics as unknown as Values & Record<string, number | null>;
  return g.scope === 'axle' ? m : { [g.corners[0].side]: m as unknown as Record<string, number | null> };
}

/**
 * Every metric the geometry offers (the *_virtual included): defined where the sweep's value
 * is (null where it is null), the same value, and every entry against central differences
 * (±h mm). Returns the worst error and the gradients.
 */
function check(g: Geometry, spec: SweepSpec, h = 1e-3): { worst: number; entries: number; grads: SideMetrics } {
  const model = new SensitivityModel(g);
  const offered = sensitivityMetricsOf(g);
  const names = [...offered.side, ...offered.axle, ...virtualMetricsOf(model)];
  const step = sensitivitySweepBySide(model, spec, names).steps[0];
  expect(step.status).toBe('solved');
  const grads = step.metrics!;
  const base = sweepOf(g, spec);
  const live: [string, string][] = [];
  for (const [group, ms] of Object.entries(grads)) for (const [m, e] of Object.entries(ms)) {
    const v = base[group]?.[m];
    // a corner's mirrored-axle roll centres are not sweep metrics of the file (the axle's are checked below)
    if (v === undefined) continue;
    if (v === null) { expect(e, `${group}.${m}`).toBeNull(); continue; }
    expect(e, `${group}.${m} (the sweep's is ${v})`).not.toBeNull();
    expect(Math.abs(e!.value - v), `${group}.${m}: ${e!.value} against ${v}`).toBeLessThan(1e-7 * Math.max(1, Math.abs(v)));
    live.push([group, m]);
  }
  let worst = 0, entries = 0;
  for (const key of model.keys) {
    const vp = sweepOf(movedHardpoint(g, key, h), spec), vm = sweepOf(movedHardpoint(g, key, -h), spec);
    for (const [group, m] of live) {
      const exact = grads[group][m]!;
      const fd = ((vp[group][m] as number) - (vm[group][m] as number)) / (2 * h);
      const err = gradientError(exact.gradient[key], fd, exact.gradient, 1e-6);
      worst = Math.max(worst, err);
      entries++;
      if (err > 2e-4) throw new Error(`${group}.${m} ${key}: exact ${exact.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, entries, grads };
}

/** The damper(s) `mm` longer, the rack at `rack` mm (off centre: an axle's Ackermann is defined). */
const damperTarget = (g: Geometry, mm: number, rack: number) => parseSweep(JSON.stringify({ version: 1, steps: 1, targets: [
  { type: 'element_length', element: 'damper', mode: 'relative', start: mm, stop: mm },
  { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', start: rack, stop: rack },
] }), g);

describe('a damper end on a rod\'s centreline (the multi-link\'s)', () => {
  const ml = load('multi_link');

  it('multi-link corner with its damper 6 mm shorter, rack +4 mm: every metric\'s every entry matches central differences', () => {
    const { worst, entries, grads } = check(ml, damperTarget(ml, -6, 4));
    expect(worst).toBeLessThan(2e-4);
    expect(entries).toBeGreaterThan(1000);
    const damper = grads.left.damper_length!;
    expect(damper.value).toBeCloseTo(Math.hypot(...[0, 1, 2].map((i) => ml.corners[0].hardpoints.strut_top[i] - ml.corners[0].hardpoints.strut_bottom[i])) - 6, 9);
    // the driven length is the design length − 6: its gradient is d|top − bottom|/dp at design,
    // the bottom at f of the rod, f the projection of strut_bottom (so strut_bottom moves it along the rod only)
    const hp = ml.corners[0].hardpoints;
    const i = hp.lower_rear_link_inboard, o = hp.lower_rear_link_outboard, s = hp.strut_bottom, t = hp.strut_top;
    const d = [0, 1, 2].map((c) => o[c] - i[c]), l2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2;
    const u = [0, 1, 2].map((c) => t[c] - s[c]), lu = Math.hypot(...u);
    const along = (u[0] * d[0] + u[1] * d[1] + u[2] * d[2]) / lu;
    for (let c = 0; c < 3; c++) {
      expect(damper.gradient[`strut_top.${'xyz'[c]}`]).toBeCloseTo(u[c] / lu, 10);
      expect(damper.gradient[`strut_bottom.${'xyz'[c]}`]).toBeCloseTo((-along * d[c]) / l2, 10);
    }
    // the rod point's share is not small: under this target strut_bottom moves the wheel (its largest entries)
    const big = (m: string) => Math.abs(grads.left[m]!.gradient['strut_bottom.y']) / Math.max(...Object.values(grads.left[m]!.gradient).map(Math.abs));
    expect(big('wheel_travel')).toBeGreaterThan(0.5);
    expect(big('deriv_damper_length_wrt_hub_z')).toBeGreaterThan(0.5);
  });

  it('multi-link corner at +10 mm of bump: damper_length (refused before), its rate and the damper-length hold\'s metrics match central differences', () => {
    const { worst, grads } = check(ml, sweepFromShortcut('bump', '10:10:1', ml));
    expect(worst).toBeLessThan(2e-4);
    expect(grads.left.damper_length).not.toBeNull();
    expect(grads.left.deriv_damper_length_wrt_hub_z).not.toBeNull();
  });

  it('multi-link axle with both dampers 5 mm longer, rack +6 mm: every metric of both sides and the axle matches central differences', () => {
    const axle = load('multi_link_axle');
    const { worst, grads } = check(axle, damperTarget(axle, 5, 6));
    expect(worst).toBeLessThan(2e-4);
    expect(grads.right.damper_length).not.toBeNull();
  });

  it('adjoint equals direct (one solve per coordinate) under the damper target, to 1e-10', () => {
    const model = new SensitivityModel(ml);
    const spec = damperTarget(ml, -6, 4);
    const [a, d] = (['adjoint', 'direct'] as const).map((mode) => sensitivitySweepBySide(model, spec, ['camber', 'toe_angle', 'damper_length', 'half_track', 'svic_x'], mode).steps[0].metrics!.left);
    for (const [m, e] of Object.entries(a)) {
      const scale = Math.max(1, ...Object.values(d[m]!.gradient).map(Math.abs));
      for (const [key, v] of Object.entries(e!.gradient)) expect(Math.abs(v - d[m]!.gradient[key]) / scale, `${m} ${key}`).toBeLessThan(1e-10);
    }
  });

  it('link and rack force gradients under the damper target (the row\'s Jacobian rate with its moving weights): every entry against central differences to 1e-6', () => {
    const lc = parseLoadCase('left: { corner_mass: 300, cornering_g: 1.0, braking_g: 0.3 }', ['left']);
    const spec = damperTarget(ml, -6, 4);
    const loadsOf = (g: Geometry): StateLoads => {
      const sm = new SuspensionModel(suspensionAssembly(g));
      const loads = new SweepLoads(sm, lc);
      let out: StateLoads | null = null;
      runSweep(sm, spec, { onSolvedState: () => { out = loads.evaluate(); } });
      if (!out) throw new Error('not solved');
      return out;
    };
    const valueOf = (l: StateLoads, m: string) => (m === 'rack_force' ? l.rack_force! : l.links[m.slice('link_force.'.length)]);
    const model = new SensitivityModel(ml);
    const ls = new LoadSensitivity(model, lc);
    const got = sensitivitySweep(model, spec, ls.names, 'adjoint', ls).steps[0].metrics!;
    const base = loadsOf(ml);
    for (const m of ls.names) expect(Math.abs(got[m]!.value - valueOf(base, m))).toBeLessThan(1e-9 * Math.max(1, Math.abs(valueOf(base, m))));
    let worst = 0;
    const h = 1e-3;
    for (const key of model.keys) {
      const lp = loadsOf(movedHardpoint(ml, key, h)), lm = loadsOf(movedHardpoint(ml, key, -h));
      for (const m of ls.names) {
        const fd = (valueOf(lp, m) - valueOf(lm, m)) / (2 * h);
        const err = gradientError(got[m]!.gradient[key], fd, got[m]!.gradient, 0);
        worst = Math.max(worst, err);
        if (err > 1e-6) throw new Error(`${m} ${key}: exact ${got[m]!.gradient[key]}, differences ${fd}`);
      }
    }
    expect(ls.names.length).toBe(6);
    expect(worst).toBeLessThan(1e-6);
  });
});
