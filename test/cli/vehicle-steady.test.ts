/**
 * `kinemate vehicle --steady-state` end to end: the command's `main` in the test process on the sedan
 * (the same code, without a process start and its JIT's warm-up each), and its bad input, a radius
 * of 0 refused by the real command.
 */
import { describe, expect, it } from 'vitest';
import { kinemate, runMain } from './helpers';

const SEDAN = 'examples/vehicles/sedan.vehicle.yaml';

describe('kinemate vehicle --steady-state', () => {
  it('prints steer, sideslip, tyres and the understeer gradient for a speed sweep on a radius', async () => {
    const run = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '20:60:3']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.analysis).toBe('steady_state');
    expect(r.units).toMatchObject({ radius: 'm', speed: 'km/h', angle: 'deg', gradient: 'deg/g' });
    expect(r.steps).toHaveLength(3);
    const L = 2.5, R = 40;
    for (const s of r.steps) {
      expect(s.status).toBe('solved');
      // ay = V²/R in g; a left turn: positive steer near L/R, the outer (right) tyres loaded
      expect(s.ay).toBeCloseTo((s.speed / 3.6) ** 2 / R / 9.80665, 12);
      expect(Math.abs(s.steer - (L / R) * 180 / Math.PI)).toBeLessThan(0.5);
      expect(s.tyres.front_right.load).toBeGreaterThan(s.tyres.front_left.load);
      expect(s.body.roll).toBeGreaterThan(0);
      // the tyres' lateral forces carry the vehicle's mass times ay (to within the sideslip's cosine)
      const fy = Object.values(s.tyres as Record<string, { lateral_force: number }>).reduce((t, x) => t + x.lateral_force, 0);
      expect(fy / (s.vehicle.mass * s.ay * 9.80665)).toBeGreaterThan(0.99);
      expect(fy / (s.vehicle.mass * s.ay * 9.80665)).toBeLessThanOrEqual(1 + 1e-9);
    }
    expect(typeof r.summary.understeer_gradient).toBe('number');
  });

  it('steers through the rack with --steer rack: the rack, each front wheel\'s steer and the drive at the driven tyres', async () => {
    const run = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'rack']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.steer_input).toBe('rack');
    const s = r.steps[0];
    expect(s.status).toBe('solved');
    // steer is the rack times the linkage's ratio at rest; the two wheels steer differently (the linkage's Ackermann)
    expect(s.steer).toBeCloseTo(s.rack * r.summary.rack_steer_gain, 9);
    expect(Math.abs(s.wheel_steer.front_left - s.wheel_steer.front_right)).toBeGreaterThan(0.05);
    expect(Math.abs(s.steer - (2.5 / 40) * 180 / Math.PI)).toBeLessThan(0.5);
    // the sedan drives its rear wheels: their longitudinal forces are the drive force
    expect(s.drive_force).toBeCloseTo(s.tyres.rear_left.longitudinal_force + s.tyres.rear_right.longitudinal_force, 9);
    expect(s.slip_ratio).toBeGreaterThan(0);
    const csv = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'rack', '--format', 'csv']);
    expect(csv.stdout.split('\n')[0]).toContain('wheel_steer.front_left');
    const bad = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'wheel']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(/--steer must be rack or wheels/);
  });

  it('takes an open differential with --differential open: equal drive forces, a slip ratio per driven wheel', async () => {
    const run = await runMain(['vehicle', 'examples/vehicles/sedan_mf.vehicle.yaml', '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'rack', '--differential', 'open']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout), s = r.steps[0];
    expect(r.differential).toBe('open');
    expect(s.slip_ratio).toBeUndefined();
    expect(s.slip_ratios.rear_left).toBeGreaterThan(s.slip_ratios.rear_right);
    expect(s.tyres.rear_left.longitudinal_force).toBeCloseTo(s.tyres.rear_right.longitudinal_force, 4);
    for (const [args, why] of [[['--differential', 'half', '--steer', 'rack'], /--differential must be open or locked, got "half"/], [['--differential', 'open'], /--differential goes with --steady-state --steer rack/]] as const) {
      const bad = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '40:40:1', ...args]);
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim()).toMatch(why);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('puts the tyres\' aligning moments on the uprights with --aligning-moments', async () => {
    const run = await runMain(['vehicle', 'examples/vehicles/sedan_mf.vehicle.yaml', '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'rack', '--aligning-moments']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout), s = r.steps[0];
    expect(r.aligning_moments).toBe(true);
    expect(Math.abs(s.tyres.front_left.aligning_moment)).toBeGreaterThan(1000);
    const bad = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '40:40:1', '--aligning-moments']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('kinemate: vehicle: --aligning-moments goes with --steady-state --steer rack');
  });

  it('refuses a non-positive radius in one line, exit 1', async () => {
    const bad = await kinemate(['vehicle', SEDAN, '--steady-state', '--radius', '0', '--speed', '20:60:3']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(/--radius: expected the path's radius in m/);
  });
});
