/**
 * Gradients of a corner's deriv_* metrics (camber gain, bump steer, the damper's raw motion
 * ratio, the rack's rates): second derivatives by tangent-mode AD, checked against central
 * differences of `kinemate sweep`'s own deriv_* values re-solved with each point moved.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { sensitivityAt, SensitivityModel, sensitivitySweep } from '../../../src/suspension/gradients/model';
import { DERIVATIVE_METRICS } from '../../../src/suspension/gradients/derivatives';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { gradientError, movedHardpoint } from '../moves';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

function metricsOf(g: Geometry, spec: string, at: number): Record<string, number | null> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, sweepFromShortcut(spec as 'bump', `${at}:${at}:1`, g), { noSteering: true });
  expect(r.steps[0].status).toBe('solved');
  return r.steps[0].metrics as Record<string, number | null>;
}

function check(g: Geometry, kind: 'bump' | 'steer', at: number, h = 1e-3): { worst: number; checked: string[] } {
  const model = new SensitivityModel(g);
  const step = sensitivitySweep(model, sweepFromShortcut(kind, `${at}:${at}:1`, g), DERIVATIVE_METRICS).steps[0];
  const sens = step.metrics!;
  const values = metricsOf(g, kind, at);
  const names = DERIVATIVE_METRICS.filter((m) => sens[m] !== null);
  for (const m of names) expect(sens[m]!.value, m).toBeCloseTo(values[m]!, 9);
  let worst = 0;
  for (const key of model.keys) {
    const mp = metricsOf(movedHardpoint(g, key, h), kind, at), mm = metricsOf(movedHardpoint(g, key, -h), kind, at);
    for (const m of names) {
      const fd = ((mp[m] as number) - (mm[m] as number)) / (2 * h);
      const exact = sens[m]!.gradient[key];
      const err = gradientError(exact, fd, sens[m]!.gradient, 1e-9);
      worst = Math.max(worst, err);
      if (err > 2e-4) throw new Error(`${m} ${key}: exact ${exact}, differences ${fd}`);
    }
  }
  return { worst, checked: names };
}

describe('gradients of the deriv_* metrics (second derivatives)', () => {
  it('double wishbone at +20 mm: camber gain, bump steer and the rack rates, every entry against central differences', () => {
    const { worst, checked } = check(load('double_wishbone'), 'bump', 20);
    expect(checked).toEqual(expect.arrayContaining(['deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z', 'deriv_toe_angle_wrt_rack_displacement', 'deriv_wheel_center_x_wrt_hub_z']));
    expect(worst).toBeLessThan(2e-4);
  });
  it('MacPherson at −15 mm (its damper: the raw motion ratio) and in a steer sweep at +8 mm of rack', () => {
    const { checked } = check(load('macpherson'), 'bump', -15);
    expect(checked).toContain('deriv_damper_length_wrt_hub_z');
    expect(check(load('double_wishbone'), 'steer', 8).worst).toBeLessThan(2e-4);
  });
  it('the adjoint and direct calls give the same deriv_* gradients; kinemate sensitivity prints them', async () => {
    const g = load('double_wishbone');
    const a = sensitivityAt(g, 10, ['deriv_camber_wrt_hub_z'], 'adjoint').deriv_camber_wrt_hub_z!;
    const d = sensitivityAt(g, 10, ['deriv_camber_wrt_hub_z'], 'direct').deriv_camber_wrt_hub_z!;
    expect(a.gradient).toEqual(d.gradient);
    const io = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone.yaml', '--at', 'bump=10', '--metric', 'deriv_camber_wrt_hub_z'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, { value: number; gradient: Record<string, number> }> }[] }> };
    expect(out.sweeps['bump=10'].steps[0].metrics.deriv_camber_wrt_hub_z.gradient['upper_wishbone_outboard.z']).toBeCloseTo(a.gradient['upper_wishbone_outboard.z'], 12);
  });

  it('pushrod corner at +15 mm: the rocker\'s rate (deriv_rocker_angle_wrt_hub_z) and the damper\'s, every entry against central differences', () => {
    const { worst, checked } = check(load('double_wishbone_pushrod'), 'bump', 15);
    expect(checked).toEqual(expect.arrayContaining(['deriv_rocker_angle_wrt_hub_z', 'deriv_damper_length_wrt_hub_z']));
    expect(worst).toBeLessThan(2e-4);
  });

  it('rocker_angle (a first-order metric whose design reference moves with the rocker point): every entry against central differences', () => {
    const g = load('double_wishbone_pushrod');
    const model = new SensitivityModel(g);
    const sens = sensitivitySweep(model, sweepFromShortcut('bump', '15:15:1', g), ['rocker_angle']).steps[0].metrics!.rocker_angle!;
    expect(sens.value).toBeCloseTo(metricsOf(g, 'bump', 15).rocker_angle!, 9);
    const largest = Math.max(...Object.values(sens.gradient).map(Math.abs));
    expect(Math.abs(sens.gradient['pushrod_inboard.z'])).toBeGreaterThan(1e-3); // the reference's own move counts
    for (const key of model.keys) {
      const [hp, ax] = key.split('.');
      const c = { x: 0, y: 1, z: 2 }[ax as 'x'];
      const gp = structuredClone(g); gp.corners[0].hardpoints[hp][c] += 1e-3;
      const gm = structuredClone(g); gm.corners[0].hardpoints[hp][c] -= 1e-3;
      const fd = ((metricsOf(gp, 'bump', 15).rocker_angle as number) - (metricsOf(gm, 'bump', 15).rocker_angle as number)) / 2e-3;
      expect(Math.abs(sens.gradient[key] - fd) / Math.max(Math.abs(fd), 1e-3 * largest), key).toBeLessThan(2e-4);
    }
  });
});
