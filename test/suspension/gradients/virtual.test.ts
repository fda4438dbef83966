/**
 * Gradients of a corner's *_virtual metrics (the steering-axis metrics on the steering
 * response's screw axis): second derivatives by tangent-mode AD, checked against central
 * differences of `kinemate sweep`'s own *_virtual values, re-solved with each point moved.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivitySweep } from '../../../src/suspension/gradients/model';
import { VIRTUAL_METRICS } from '../../../src/suspension/gradients/virtual';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { gradientError, movedHardpoint } from '../moves';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
type Kind = 'bump' | 'steer';

/** kinemate sweep's values (the steering response under the sweep's default hold). */
function spec(g: Geometry, kind: Kind, at: number, hold?: string) {
  const s = sweepFromShortcut(kind, `${at}:${at}:1`, g);
  if (hold) s.analysis = { virtual_steering: { suspension_hold: hold } };
  return s;
}

function metricsOf(g: Geometry, kind: Kind, at: number, hold?: string): Record<string, number | null> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, spec(g, kind, at, hold), {});
  expect(r.steps[0].status).toBe('solved');
  return r.steps[0].metrics as Record<string, number | null>;
}

function check(g: Geometry, kind: Kind, at: number, hold?: string, h = 1e-3): number {
  const model = new SensitivityModel(g);
  const sens = sensitivitySweep(model, spec(g, kind, at, hold), [...VIRTUAL_METRICS]).steps[0].metrics!;
  const values = metricsOf(g, kind, at, hold);
  for (const m of VIRTUAL_METRICS) {
    expect(sens[m], m).not.toBeNull();
    expect(sens[m]!.value, m).toBeCloseTo(values[m]!, 7);
  }
  let worst = 0;
  for (const key of model.keys) {
    const mp = metricsOf(movedHardpoint(g, key, h), kind, at, hold), mm = metricsOf(movedHardpoint(g, key, -h), kind, at, hold);
    for (const m of VIRTUAL_METRICS) {
      const fd = ((mp[m] as number) - (mm[m] as number)) / (2 * h);
      const exact = sens[m]!.gradient[key];
      const err = gradientError(exact, fd, sens[m]!.gradient, 1e-9);
      worst = Math.max(worst, err);
      if (err > 2e-4) throw new Error(`${m} ${key}: exact ${exact}, differences ${fd}`);
    }
  }
  return worst;
}

describe('gradients of the *_virtual metrics (the steering-response axis)', () => {
  it('double wishbone at +20 mm of bump (hold: the lower wishbone angle), every entry against central differences', () => {
    expect(check(load('double_wishbone'), 'bump', 20)).toBeLessThan(2e-4);
  });
  it('double wishbone steered +8 mm of rack', () => {
    expect(check(load('double_wishbone'), 'steer', 8)).toBeLessThan(2e-4);
  });
  it('MacPherson at −15 mm (hold: the strut length)', () => {
    expect(check(load('macpherson'), 'bump', -15)).toBeLessThan(2e-4);
  });
  it('other holds: the wheel-centre height and the upper wishbone angle (double wishbone), the lower arm angle (MacPherson), the damper length (multi-link)', () => {
    expect(check(load('double_wishbone'), 'bump', 20, 'wheel_center_height')).toBeLessThan(2e-4);
    expect(check(load('double_wishbone'), 'bump', -10, 'upper_wishbone_angle')).toBeLessThan(2e-4);
    expect(check(load('macpherson'), 'steer', 6, 'lower_arm_angle')).toBeLessThan(2e-4);
    expect(check(load('multi_link'), 'bump', 10)).toBeLessThan(2e-4);
  });
  it('the contact-patch hold (the material point at the contact centre moves with the points): double wishbone at +10 mm, MacPherson at +6 mm of rack', () => {
    expect(check(load('double_wishbone'), 'bump', 10, 'contact_patch')).toBeLessThan(2e-4);
    expect(check(load('macpherson'), 'steer', 6, 'contact_patch')).toBeLessThan(2e-4);
  });
  it('null for an unsteered corner, as kinemate sweep prints them (several rows, axles: sensitivity-virtual-axle.test.ts)', () => {
    const t = load('trailing_arm');
    expect(metricsOf(t, 'bump', 10).kpi_virtual).toBeNull();
    expect(sensitivitySweep(new SensitivityModel(t), spec(t, 'bump', 10), ['kpi_virtual']).steps[0].metrics).toEqual({ kpi_virtual: null });
  });
  it('kinemate sensitivity prints them only when asked for; on an unsteered axle null, as kinemate sweep', async () => {
    const io = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone.yaml', '--at', 'bump=10', '--metric', 'kpi_virtual'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, { value: number }> }[] }> };
    expect(Object.keys(out.sweeps['bump=10'].steps[0].metrics)).toEqual(['kpi_virtual']);
    const all = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone.yaml', '--at', 'bump=10'], all)).toBe(0);
    expect(all.written.stdout).not.toContain('_virtual');
    const axle = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/solid_axle_panhard.yaml', '--metric', 'kpi_virtual'], axle)).toBe(0);
    expect(axle.written.stdout).toContain('"kpi_virtual": null');
  });
});
