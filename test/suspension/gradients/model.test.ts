import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivityAt, sensitivitySweep } from '../../../src/suspension/gradients/model';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

/** Every metric of the whole pipeline (a fresh model from the geometry, solved at `bump`). */
function metricsOf(g: Geometry, bump: number): Record<string, number | null> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), { noSteering: true });
  return r.steps[0].metrics as Record<string, number | null>;
}

/** Central differences of re-solved metrics with one hardpoint coordinate moved ±h. */
function checkAgainstDifferences(g: Geometry, bump: number, h = 1e-3, minMetrics = 9) {
  const sens = sensitivityAt(g, bump);
  // the sweep's own metrics (a corner's mirrored-axle roll centres: test/suspension/gradients/roll-centre.test.ts)
  const swept = metricsOf(g, bump);
  // (a screw instant axis needs the full evaluation, which noSteering leaves out: test/suspension/gradients/instant-axis.test.ts)
  const names = Object.keys(sens).filter((m) => sens[m] !== null && m in swept && swept[m] !== null);
  expect(names.length).toBeGreaterThanOrEqual(minMetrics);
  const keys = Object.keys(sens[names[0]]!.gradient);
  expect(keys.length).toBe(3 * Object.keys(g.corners[0].hardpoints).length);
  let worst = 0;
  for (const key of keys) {
    const [hp, ax] = key.split('.');
    const c = { x: 0, y: 1, z: 2 }[ax as 'x' | 'y' | 'z'];
    const gp = structuredClone(g); gp.corners[0].hardpoints[hp][c] += h;
    const gm = structuredClone(g); gm.corners[0].hardpoints[hp][c] -= h;
    const mp = metricsOf(gp, bump), mm = metricsOf(gm, bump);
    for (const m of names) {
      const fd = ((mp[m] as number) - (mm[m] as number)) / (2 * h);
      const exact = sens[m]!.gradient[key];
      // relative to the metric's own scale: the differences carry the solver's tolerance / h
      const scale = Math.max(Math.abs(fd), 1e-3 * (1 + Math.abs(sens[m]!.value) / 100));
      const err = Math.abs(exact - fd) / scale;
      worst = Math.max(worst, err);
      if (err > 2e-4) throw new Error(`${m} ${key}: exact ${exact}, differences ${fd}`);
    }
  }
  return { worst, sens };
}

describe('hardpoint sensitivities (implicit function theorem)', () => {
  it('double wishbone: every gradient entry matches central differences of the re-solved pipeline', () => {
    const { worst, sens } = checkAgainstDifferences(load('double_wishbone'), 20);
    expect(worst).toBeLessThan(2e-4);
    // real, non-zero sensitivities: camber moves with the axle's inboard z at any travel
    expect(Math.abs(sens.camber!.gradient['axle_inboard.z'])).toBeGreaterThan(1e-2);
  });
  it('MacPherson: every gradient entry matches central differences', () => {
    expect(checkAgainstDifferences(load('macpherson'), -15).worst).toBeLessThan(2e-4);
  });
  it('pushrod corner: every gradient entry matches central differences (rocker points included)', () => {
    const { sens } = checkAgainstDifferences(load('double_wishbone_pushrod'), 10);
    expect(sens.damper_length).not.toBeNull();
    expect(Math.abs(sens.damper_length!.gradient['rocker_axis_a.z']) + Math.abs(sens.damper_length!.gradient['pushrod_inboard.y'])).toBeGreaterThan(1e-4);
  });
  it('trailing arm, multi-link, offset strut clamp, camber shim: every gradient entry matches central differences', () => {
    for (const name of ['trailing_arm', 'macpherson_offset_clamp', 'double_wishbone_camber_shim']) expect(checkAgainstDifferences(load(name), 10).worst, name).toBeLessThan(2e-4);
    // multi-link: the damper's end on a rod's centreline, its fraction moving with the points (sensitivity-length-rod.test.ts)
    const { sens, worst } = checkAgainstDifferences(load('multi_link'), 10, 1e-3, 5);
    expect(worst).toBeLessThan(2e-4);
    expect(sens.camber).not.toBeNull();
    expect(Math.abs(sens.damper_length!.gradient['strut_bottom.y'])).toBeGreaterThan(1e-2);
  });
  it('the adjoint (one transposed solve per metric) equals the direct route (one solve per coordinate) to 1e-10', () => {
    for (const name of ['double_wishbone', 'macpherson', 'double_wishbone_pushrod']) {
      const model = new SensitivityModel(load(name));
      const adjoint = sensitivityAt(model, 15, [], 'adjoint'), direct = sensitivityAt(model, 15, [], 'direct');
      for (const [m, a] of Object.entries(adjoint)) {
        if (!a) { expect(direct[m]).toBeNull(); continue; }
        const scale = Math.max(1, ...Object.values(direct[m]!.gradient).map(Math.abs));
        for (const [key, d] of Object.entries(a.gradient)) expect(Math.abs(d - direct[m]!.gradient[key]) / scale, `${name} ${m} ${key}`).toBeLessThan(1e-10);
      }
    }
  });
  it('wheel travel at a bump state does not move with any hardpoint (the driver holds it)', () => {
    const s = sensitivityAt(load('double_wishbone'), 25, ['wheel_travel']);
    expect(s.wheel_travel!.value).toBeCloseTo(25, 9);
    for (const d of Object.values(s.wheel_travel!.gradient)) expect(Math.abs(d)).toBeLessThan(1e-9);
  });
  it('a sweep gives a value and gradient per step; unknown metrics are refused', () => {
    const model = new SensitivityModel(load('double_wishbone'));
    const run = sensitivitySweep(model, sweepFromShortcut('bump', '-20:20:3'), ['camber', 'toe_angle']);
    expect(run.steps).toHaveLength(3);
    expect(Object.keys(run.steps[2].metrics!)).toEqual(['camber', 'toe_angle']);
    expect(() => sensitivitySweep(model, sweepFromShortcut('bump', '0:0:1'), ['nope'])).toThrow(/no gradient for "nope"/);
    // an axle is taken (test/suspension/gradients/axle.test.ts), a T-bar too (sensitivity-axle-roll.test.ts);
    // two hardpoints at one place are told apart by identity (test/suspension/gradients/coincident.test.ts)
    expect(new SensitivityModel(load('trailing_arm_torsion_bar')).keys).toContain('torsion_bar_axis_a.z');
  });
});
