/**
 * Steady-state cornering (vehicle.md `--steady-state`): the bicycle model's closed form in
 * its exact limit (linear tyres, a symmetric car whose roll is held stiff, so no roll steer,
 * on a large radius), and the exact understeer gradient against differences of re-solved
 * steps on the sedan as it is (roll steer, load transfer) and on Magic Formula tyres.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { steadyStateSweep } from '../../../src/suspension/vehicle/steady-state';
import { rackSteadySweep } from '../../../src/suspension/vehicle/steady-rack';
import { bicycleCar, bicycleLoads, readVehicle, SEDAN_MF, speedFor } from './vehicle-sources';

const g = 9.80665;

describe('steady-state cornering', () => {
  it('meets the bicycle model: steer = L/R + K ay, K = Wf/Cf − Wr/Cr, sideslip → b/R', () => {
    const spec = bicycleCar();
    const m = buildVehicle(spec);
    const { Wr, K } = bicycleLoads(m);
    const R = 300, L = spec.wheelbase / 1000;
    const r = steadyStateSweep(m, R, [speedFor(0.05, R), speedFor(0.3, R)]);
    expect(r.status).toBe('solved');
    expect(r.summary!.understeer_gradient).toBeCloseTo(K, 3);
    expect(r.summary!.kinematic_steer).toBeCloseTo((L / R) * 180 / Math.PI, 3);
    for (const s of r.steps) {
      expect(s.steer!).toBeCloseTo((L / R) * 180 / Math.PI + K * s.ay, 3);
      // yaw rate over steer: V/R/δ
      expect(s.yaw_rate_gain!).toBeCloseTo((s.speed / 3.6 / R) / (s.steer! * Math.PI / 180), 6);
    }
    // sideslip at the body's centre of mass: b/R − (Wr/Cr) ay, b its distance ahead of the rear axle
    const b = (spec.wheelbase - spec.cg_position[0]) / 1000;
    expect(r.summary!.sideslip_gradient).toBeCloseTo(-Wr / (2 * 1300), 3);
    for (const s of r.steps) expect(s.sideslip!).toBeCloseTo((b / R) * 180 / Math.PI - (Wr / (2 * 1300)) * s.ay, 3);
  });

  it.each([
    ['linear tyres, roll steer and load transfer', 'wheels', undefined],
    ['Magic Formula tyres', 'wheels', SEDAN_MF()],
    ['linear tyres, roll steer and load transfer', 'rack', undefined],
    ['Magic Formula tyres', 'rack', SEDAN_MF()],
  ] as const)('has the exact understeer gradient of re-solved steps (%s, steered at the %s)', (_name, steer, text) => {
    const m = buildVehicle(readVehicle(text));
    const R = 40, h = 0.004;
    const sweep = steer === 'rack' ? rackSteadySweep : steadyStateSweep;
    const r = sweep(m, R, [speedFor(h, R), speedFor(2 * h, R)]);
    expect(r.status).toBe('solved');
    const d0 = r.summary!.kinematic_steer, [d1, d2] = r.steps.map((s) => s.steer!);
    // second-order one-sided difference at 0 g (ay ≥ 0 on a left turn)
    const fd = (-3 * d0 + 4 * d1 - d2) / (2 * h);
    expect(Math.abs(r.summary!.understeer_gradient - fd)).toBeLessThan(2e-3 * Math.max(1, Math.abs(fd)));
    expect(Math.abs(r.summary!.understeer_gradient)).toBeGreaterThan(0.01);
  });

  it('finds the steady state near the Magic Formula tyres\' peak (0.96 g), where the passes contract slowly', () => {
    // docs/vehicle.md's sedan_mf run: 70 km/h on 40 m after 60 km/h; with 12 passes it was "beyond their grip"
    const m = buildVehicle(readVehicle(SEDAN_MF()));
    const R = 40, r = steadyStateSweep(m, R, [60, 70]);
    expect(r.steps.map((s) => s.status)).toEqual(['solved', 'solved']);
    const s = r.steps[1]!, V = 70 / 3.6;
    if (s.status !== 'solved') throw new Error(s.message);
    expect(s.ay).toBeCloseTo((V * V) / R / g, 12);
    // the road carries the weight, and the tyres' lateral forces the centripetal force m·ay (the
    // drag's share of it turned by the sideslip aside: 0.05 % at 60 km/h)
    const loads = Object.values(s.corners).map((c) => c.contact_load);
    const mass = s.vehicle.mass, total = (i: number) => loads.reduce((sum, l) => sum + l[i]!, 0);
    expect(total(2)).toBeCloseTo(mass * g, 6);
    expect(Math.abs(total(1) - mass * s.ay * g)).toBeLessThan(5e-3 * mass * s.ay * g);
    expect(s.yaw_rate_gain!).toBeCloseTo(V / R / (s.steer! * Math.PI / 180), 9);
    // near the peak the tyres slip several degrees, more than at 60 km/h
    const slip = (k: number) => Math.max(...Object.values(r.steps[k]!.tyres!).map((t) => Math.abs(t.slip_angle)));
    expect(slip(1)).toBeGreaterThan(slip(0));
  });
});
