/**
 * An open differential on `--steady-state --steer rack` (steady-rack.ts): the driven pair's
 * drive torques equal (radius × longitudinal force), each wheel its own slip ratio. Closed
 * forms: on linear tyres (Fx = Cκ κ, whatever the load) equal torques are equal slips, so the
 * open car is the locked one; on the Magic Formula the unloaded inner wheel slips more for
 * the same force, and the x balance still closes at the tyres. Locked is the default.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { rackSteadySweep } from '../../../src/suspension/vehicle/steady-rack';
import { readVehicle, SEDAN_MF, sedanWith } from './vehicle-sources';

const g = 9.80665;

describe('an open differential through the rack', () => {
  it('on linear tyres is the locked car: equal torques are equal slips', () => {
    const locked = rackSteadySweep(buildVehicle(readVehicle()), 40, [30, 60]);
    const open = rackSteadySweep(buildVehicle(readVehicle()), 40, [30, 60], undefined, 'open');
    expect(open.status).toBe('solved');
    expect(open.differential).toBe('open');
    expect(open.summary!.understeer_gradient).toBeCloseTo(locked.summary!.understeer_gradient, 9);
    open.steps.forEach((s, i) => {
      const l = locked.steps[i];
      if (s.status !== 'solved' || l.status !== 'solved') throw new Error('not solved');
      expect(s.slip_ratio).toBeUndefined();
      expect(s.slip_ratios!.rear_left).toBeCloseTo(l.slip_ratio!, 12);
      expect(s.slip_ratios!.rear_right).toBeCloseTo(l.slip_ratio!, 12);
      expect(s.rack!).toBeCloseTo(l.rack!, 9);
      expect(s.drive_force!).toBeCloseTo(l.drive_force!, 6);
    });
  });

  it('on the Magic Formula: equal drive forces, the lighter inner wheel slipping more; the x balance closes', () => {
    const open = rackSteadySweep(buildVehicle(readVehicle(SEDAN_MF())), 40, [40, 60], undefined, 'open');
    const locked = rackSteadySweep(buildVehicle(readVehicle(SEDAN_MF())), 40, [40, 60]);
    open.steps.forEach((s, i) => {
      const l = locked.steps[i];
      if (s.status !== 'solved' || l.status !== 'solved') throw new Error('not solved');
      const t = s.tyres!, k = s.slip_ratios!;
      // the torque row (equal radii here): equal longitudinal forces, to the balances' tolerance
      expect(Math.abs(t.rear_left.longitudinal_force! - t.rear_right.longitudinal_force!)).toBeLessThan(1e-5);
      expect(t.rear_left.load).toBeLessThan(t.rear_right.load);
      expect(k.rear_left).toBeGreaterThan(k.rear_right * 1.05);
      // locked: one slip, the loaded outer wheel pushing harder
      expect(l.tyres!.rear_right.longitudinal_force!).toBeGreaterThan(l.tyres!.rear_left.longitudinal_force! + 1);
      const fx = Object.values(s.corners).reduce((sum, c) => sum + c.contact_load[0]!, 0);
      const fy = Object.values(s.corners).reduce((sum, c) => sum + c.contact_load[1]!, 0);
      expect(Math.hypot(fx, fy)).toBeCloseTo(s.vehicle.mass * s.ay * g, 6);
    });
  });

  it('its exact understeer gradient (the torque row and the second κ in the system) against one-sided differences of re-solved steps', () => {
    const R = 40, h = 0.004, kmh = (ay: number) => Math.sqrt(ay * g * R) * 3.6;
    const r = rackSteadySweep(buildVehicle(readVehicle(SEDAN_MF())), R, [kmh(h), kmh(2 * h)], undefined, 'open');
    const [s1, s2] = r.steps.map((s) => { if (s.status !== 'solved') throw new Error(s.message); return s.steer!; });
    const s0 = r.summary!.kinematic_steer, fd = (-3 * s0 + 4 * s1 - s2) / (2 * h);
    expect(Math.abs(r.summary!.understeer_gradient - fd)).toBeLessThan(2e-3 * Math.abs(fd));
  });

  it('locked is the default; an open differential needs a driven axle', () => {
    const a = rackSteadySweep(buildVehicle(readVehicle()), 40, [40]);
    const b = rackSteadySweep(buildVehicle(readVehicle()), 40, [40], undefined, 'locked');
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    const undriven = readVehicle(sedanWith('  driven_axle: rear\n', ''));
    expect(() => rackSteadySweep(buildVehicle(undriven), 40, [40], undefined, 'open')).toThrow(/vehicle_config\.driven_axle/);
  });
});
