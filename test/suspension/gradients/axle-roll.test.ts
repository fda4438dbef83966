/**
 * Axle sensitivities under a T-bar anti-roll bar (its crossbar midpoint held on the centre
 * plane: a point–plane mate whose point is the mean of two hardpoints) and along a roll
 * sweep (its drivers' targets move with the design wheel centres), against central
 * differences of the re-solved axle.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradientError, movedHardpoint } from '../moves';
import { parseGeometry, sweepFromShortcut, sweepValues, type Geometry, type SweepSpec } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { SensitivityModel, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';
import { sweepDrivers } from '../../../src/suspension/sweep/sweep';
import { pointRate } from '../../../kernel/analysis';
import { toMatrix } from '../../../kernel/quat';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

/** Every group's metrics of the whole pipeline at the spec's one state (a fresh model). */
function metricsOf(g: Geometry, spec: (g: Geometry) => SweepSpec): Record<string, Record<string, number | null>> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, spec(g), { noSteering: true });
  expect(r.steps[0].status).toBe('solved');
  return r.steps[0].metrics as unknown as Record<string, Record<string, number | null>>;
}

/** World positions at +10 mm bump (a fresh model). */
function metricsOfPositions(g: Geometry): Record<string, [number, number, number]> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, sweepFromShortcut('bump', '10:10:1', g), { noSteering: true });
  return r.steps[0].positions as Record<string, [number, number, number]>;
}

/** Every entry of every group's metrics against central differences; the worst relative error. */
function check(g: Geometry, spec: (g: Geometry) => SweepSpec, metrics: string[], h = 1e-3): { worst: number; grads: SideMetrics } {
  const step = sensitivitySweepBySide(new SensitivityModel(g), spec(g), metrics).steps[0];
  expect(step.status).toBe('solved');
  const grads = step.metrics!;
  const values = metricsOf(g, spec);
  const keys = Object.keys(grads.left[metrics[0]]!.gradient);
  let worst = 0;
  for (const [group, ms] of Object.entries(grads)) for (const [m, e] of Object.entries(ms)) if (e) expect(e.value, `${group}.${m}`).toBeCloseTo(values[group][m]!, 8);
  for (const key of keys) {
    const mp = metricsOf(movedHardpoint(g, key, h), spec), mm = metricsOf(movedHardpoint(g, key, -h), spec);
    for (const [group, ms] of Object.entries(grads)) {
      for (const [m, exact] of Object.entries(ms)) {
        if (!exact) continue;
        const fd = ((mp[group][m] as number) - (mm[group][m] as number)) / (2 * h);
        const err = gradientError(exact.gradient[key], fd, exact.gradient, 1e-6);
        worst = Math.max(worst, err);
        if (err > 2e-4) throw new Error(`${group}.${m} ${key}: exact ${exact.gradient[key]}, differences ${fd}`);
      }
    }
  }
  return { worst, grads };
}

describe('axle sensitivities: a T-bar and a roll sweep', () => {
  it('T-bar axle at +10 mm: every entry of both sides and the axle matches central differences; the T-bar\'s droplink ends are parameters', () => {
    const g = load('double_wishbone_axle_t_bar');
    const { worst, grads } = check(g, (x) => sweepFromShortcut('bump', '10:10:1', x), ['camber', 'toe_angle', 'damper_length', 'rocker_angle', 'roll_center_kinematic_z']);
    expect(worst).toBeLessThan(2e-4);
    // the bar's points are parameters (with both wheels driven it floats: nothing here feels them)
    expect(Object.keys(grads.left.camber!.gradient)).toEqual(expect.arrayContaining(['center.arb_t_bar_pivot.z', 'left.droplink_t_bar.z', 'right.droplink_t_bar.y']));
    expect(Math.abs(grads.left.damper_length!.gradient['left.rocker_axis_a.z'])).toBeGreaterThan(1e-3);
  });

  it("T-bar: the bar's own motion per hardpoint (the plane mate's midpoint moving with both droplink ends) matches central differences of its re-solved tip", () => {
    const g = load('double_wishbone_axle_t_bar');
    const model = new SensitivityModel(g);
    const sm = model.sm;
    const spec = sweepFromShortcut('bump', '10:10:1', g);
    const drivers = sweepDrivers(sm, spec);
    sm.resetToDesign();
    drivers.forEach((d) => { d.block.target = d.targetOf(sweepValues(d.source, 1)[0]); }); // hub +10, rack held
    expect(sm.solveWith(drivers.map((d) => d.block)).converged).toBe(true);
    const f = model.factorState(drivers.map((d) => ({ block: d.block, params: model.driverParameters(d.block, d.source) })));
    const rates = model.stateRates(f);
    const sys = sm.model.system;
    const bar = sm.model.parts.get('t_bar')!;
    const local = sm.model.doc.parts.t_bar.points!.left_droplink_t_bar;
    const R = toMatrix(new Float64Array(9), sys.state, sys.variables[bar].offset + 3);
    const tip = (x: Geometry) => metricsOfPositions(x).left_droplink_t_bar;
    const h = 1e-3;
    let worst = 0, largest = 0;
    model.keys.forEach((key, k) => {
      // the tip's velocity: the bar's motion, plus its own move when the key is the tip's hardpoint
      const v = pointRate(new Float64Array(3), sys, rates, rates.rates[k]!, bar, local);
      const own = key.startsWith('left.droplink_t_bar.') ? { x: 0, y: 1, z: 2 }[key.slice(-1) as 'x'] : -1;
      if (own >= 0) for (let i = 0; i < 3; i++) v[i] += R[i * 3 + own];
      const p = tip(movedHardpoint(g, key, h)), m = tip(movedHardpoint(g, key, -h));
      for (let i = 0; i < 3; i++) {
        const fd = (p[i] - m[i]) / (2 * h);
        largest = Math.max(largest, Math.abs(fd));
        worst = Math.max(worst, Math.abs(v[i] - fd));
      }
    });
    expect(largest).toBeGreaterThan(0.1); // the bar does move with the points
    expect(worst).toBeLessThan(2e-4 * largest);
  });

  it('a roll sweep (2°, rack held) on the steered double wishbone axle: every entry matches central differences, the axle\'s roll and roll centres too', () => {
    const g = load('double_wishbone_axle_steering');
    const spec = (x: Geometry) => sweepFromShortcut('roll', '2:2:1', x);
    const { worst, grads } = check(g, spec, ['camber', 'toe_angle', 'half_track', 'wheel_travel', 'roll', 'heave', 'roll_center_z', 'roll_center_kinematic_z', 'roll_center_kinematic_y']);
    expect(worst).toBeLessThan(2e-4);
    // each wheel's travel is ±h·tan 2°, h half the design wheel centres' span: it moves with them
    expect(grads.left.wheel_travel!.gradient['left.axle_outboard.y']).toBeCloseTo(Math.tan((2 * Math.PI) / 180) / 2, 9);
  });

  it('kinemate sensitivity --roll on the T-bar axle (refused before): every step solved, every group printed', async () => {
    const io = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone_axle_t_bar.yaml', '--roll', '-2:2:3', '--metric', 'camber', '--metric', 'roll'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: SideMetrics }[] }> };
    const steps = out.sweeps.roll.steps;
    expect(steps).toHaveLength(3);
    expect(Object.keys(steps[0].metrics)).toEqual(['left', 'right', 'axle']);
    // the sweep drives the wheel centres to ±h·tanθ: the measured roll is about θ
    expect(steps.map((s) => s.metrics.axle.roll!.value)).toEqual([expect.closeTo(-2, 1), expect.closeTo(0, 6), expect.closeTo(2, 1)]);
  });
});
