import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { parseLoadCase, SweepLoads, type LoadCase, type StateLoads } from '../../../src/suspension/loads/loads';
import { SensitivityModel, bumpStates, sensitivitySweep } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const cornering = parseLoadCase('left: { corner_mass: 300, cornering_g: 1.0, braking_g: 0.3 }', ['left']);
const mixed = parseLoadCase('left: { force: [-1500, 2500, 4000], moment: [20000, -5000, 80000] }', ['left']);

/** The whole pipeline: a fresh model from the geometry, solved at `bump`, its loads evaluated (SweepLoads, constraintMultipliers). */
function loadsOf(g: Geometry, bump: number, lc: LoadCase): StateLoads {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const loads = new SweepLoads(sm, lc);
  let out: StateLoads | null = null;
  runSweep(sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), { onSolvedState: () => { out = loads.evaluate(); } });
  if (!out) throw new Error('not solved');
  return out;
}
const valueOf = (l: StateLoads, metric: string) => (metric === 'rack_force' ? l.rack_force! : l.links[metric.slice('link_force.'.length)]);

/** Every link force gradient against central differences of the re-solved pipeline (h = 1e-3 mm). */
function check(g: Geometry, bump: number, lc: LoadCase, h = 1e-3) {
  const model = new SensitivityModel(g);
  const ls = new LoadSensitivity(model, lc);
  const step = sensitivitySweep(model, bumpStates([bump]), ls.names, 'adjoint', ls).steps[0];
  expect(step.status).toBe('solved');
  const got = step.metrics!;
  const base = loadsOf(g, bump, lc);
  let worst = 0, compared = 0;
  for (const m of ls.names) expect(Math.abs(got[m]!.value - valueOf(base, m))).toBeLessThan(1e-9 * Math.max(1, Math.abs(valueOf(base, m))));
  for (const key of model.keys) {
    const [hp, ax] = key.split('.');
    const c = { x: 0, y: 1, z: 2 }[ax as 'x' | 'y' | 'z'];
    const gp = structuredClone(g); gp.corners[0].hardpoints[hp][c] += h;
    const gm = structuredClone(g); gm.corners[0].hardpoints[hp][c] -= h;
    const lp = loadsOf(gp, bump, lc), lm = loadsOf(gm, bump, lc);
    for (const m of ls.names) {
      const fd = (valueOf(lp, m) - valueOf(lm, m)) / (2 * h);
      const exact = got[m]!.gradient[key];
      // relative to the entry, floored at 1e-3 of the metric's largest entry (differences of ~1e3 N carry ~1e-9 N of solver noise)
      const largest = Math.max(...Object.values(got[m]!.gradient).map(Math.abs));
      const err = Math.abs(exact - fd) / Math.max(Math.abs(fd), 1e-3 * largest);
      worst = Math.max(worst, err);
      compared++;
      if (err > 1e-6) throw new Error(`${m} ${key}: exact ${exact}, differences ${fd}`);
    }
  }
  return { worst, compared, got };
}

describe('load gradients: d(link force)/d(hardpoint) at a load case', () => {
  it('double wishbone (track rod and rack): every entry matches central differences of the re-solved loads to 1e-6', () => {
    const { worst, compared, got } = check(load('double_wishbone'), 20, cornering);
    expect(compared).toBe(2 * 30);
    expect(worst).toBeLessThan(1e-6);
    expect(Math.abs(got['link_force.trackrod']!.gradient['lower_wishbone_outboard.x'])).toBeGreaterThan(1);
  });
  it('MacPherson (strut on a line, a general contact force and moment): every entry matches central differences', () => {
    expect(check(load('macpherson'), -15, mixed).worst).toBeLessThan(1e-6);
  });
  it('multi-link (five two-force rods): every entry matches central differences', () => {
    const g = load('multi_link');
    const { got, worst } = check(g, 10, cornering);
    expect(Object.keys(got).filter((m) => m.startsWith('link_force.')).length).toBeGreaterThanOrEqual(5);
    expect(worst).toBeLessThan(1e-6);
  });
  it('MacPherson with a rated coilover: the spring force and, without a free length in the file, its regenerated free length', () => {
    const g = load('macpherson');
    g.spring = { ...g.spring, rate: 30, preload: 500 };
    const { worst, got } = check(g, 20, cornering);
    expect(worst).toBeLessThan(1e-6);
    expect(Math.abs(got['link_force.trackrod']!.gradient['strut_top.z'])).toBeGreaterThan(1e-3);
    const fixedFree = structuredClone(g);
    fixedFree.spring = { ...g.spring, free_length: 420 };
    expect(check(fixedFree, 20, cornering).worst).toBeLessThan(1e-6);
  });
  it('pushrod corner with a rated coilover on the rocker: pushrod and track rod, every entry matches central differences', () => {
    const g = load('double_wishbone_pushrod');
    g.spring = { ...g.spring, rate: 50 };
    const { worst, got } = check(g, 15, mixed, 1e-2); // its pushrod's gradients are small (≤ 2.3 N/mm): a longer difference keeps the solver's noise (1e-8 N/mm at h = 1e-3) out
    expect(Object.keys(got)).toContain('link_force.pushrod');
    expect(worst).toBeLessThan(1e-6);
  });
  it('pushrod corner with a preloaded torsion bar on the rocker shaft (a spring on the hinge angle): every entry matches central differences', () => {
    const g = load('double_wishbone_pushrod');
    g.spring = { ...g.spring, type: 'torsion_bar', rate: 4e5, preload: 2e5 };
    delete g.spring.free_length;
    const { worst, got } = check(g, 15, mixed, 1e-2);
    expect(worst).toBeLessThan(1e-6);
    expect(Math.abs(got['link_force.pushrod']!.value)).toBeGreaterThan(100);
  });
});
