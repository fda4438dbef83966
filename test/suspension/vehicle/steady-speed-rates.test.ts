/**
 * `vehicle.steer@V` and `vehicle.yaw_rate_gain@V` (steady-speed-rates.ts): a steady-state
 * step's steer and yaw-rate gain at 50 km/h on the 40 m radius (0.49 g), their gradients
 * against Richardson-extrapolated central differences of the steady state of re-solved cars.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { steadyLinearisation, steadyStateSweep, steadyTyres } from '../../../src/suspension/vehicle/steady-state';
import { steadySpeedSensitivity } from '../../../src/suspension/vehicle/steady-speed-rates';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { extrapolatedDifferences, readVehicle } from './vehicle-sources';

const spec = readVehicle();
const KMH = 50, R = 40, V = KMH / 3.6, AY = (V * V) / R / 9.80665;

/** [steer deg, yaw-rate gain 1/s] of the re-solved car. */
function at(name: string, d: number): number[] {
  const m = buildVehicle(movedVehicleSpec(spec, name, d));
  const l = steadyLinearisation(m, steadyTyres(m), R * 1000, AY);
  if (l.status === 'failed') throw new Error(l.message);
  return [l.x0.delta * 180 / Math.PI, V / R / l.x0.delta];
}

describe('the steer and yaw-rate gain at a speed', () => {
  const steps: Record<string, number> = { 'rear.spring.rate': 0.5, 'vehicle_config.cg_position.z': 2, 'front.upper_wishbone_outboard.z': 1, 'rear.dynamics.masses.wheel.mass': 0.5, 'front.left.axle_outboard.z': 1, 'rear.axle_inboard.x': 1, 'front.axle_outboard.x': 0.25 };
  const names = Object.keys(steps), metrics = [`vehicle.steer@${KMH}`, `vehicle.yaw_rate_gain@${KMH}`];
  const r = steadySpeedSensitivity(buildVehicle(spec), names, metrics, R);

  it('has the values of the steady-state step', () => {
    if (r.status !== 'solved') throw new Error(r.message);
    const step = steadyStateSweep(buildVehicle(spec), R, [KMH]).steps[0];
    expect(r.metrics[metrics[0]].value).toBeCloseTo(step.steer!, 8);
    expect(r.metrics[metrics[1]].value).toBeCloseTo(step.yaw_rate_gain!, 8);
  });

  for (const name of names) {
    it(`${name}: against extrapolated central differences of re-solved cars`, () => {
      if (r.status !== 'solved') throw new Error(r.message);
      const h = steps[name];
      const fds = extrapolatedDifferences((d) => at(name, d), h);
      metrics.forEach((metric, i) => {
        const fd = fds[i], exact = r.metrics[metric].gradient[name];
        expect(Math.abs(exact - fd), `${metric}: ${exact} vs ${fd}`).toBeLessThan(1e-6 * Math.abs(fd));
      });
    });
  }
});
