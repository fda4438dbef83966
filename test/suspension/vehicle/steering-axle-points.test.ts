/**
 * The steering's stiffness and the axle points together: on the sedan with a spring at the
 * rack, an axle point's move turns the wheel in its upright (the linkage's ratio) while the
 * spring's held load rides with the lateral unit. The `@rack` metrics' exact gradients along
 * the axle points against Richardson differences of re-read, re-solved cars, as
 * steering-stiffness.test.ts checks them along the other numbers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { rackSteadySweep } from '../../../src/suspension/vehicle/steady-rack';
import { rackSensitivity } from '../../../src/suspension/vehicle/rack-rates';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { extrapolatedDifferences, readVehicle, SEDAN } from './vehicle-sources';

const R = 60, KMH = 50;
const spec = readVehicle(readFileSync(SEDAN, 'utf8').replace(/^tyres:/m, 'steering:\n  rack_stiffness: 150\ntyres:'));
const METRICS = [`vehicle.understeer_gradient@R${R}@rack`, `vehicle.sideslip_gradient@R${R}@rack`, `vehicle.kinematic_steer@R${R}@rack`, `vehicle.steer@${KMH}@R${R}@rack`, `vehicle.yaw_rate_gain@${KMH}@R${R}@rack`];

function figures(name: string, d: number): number[] {
  const x = rackSteadySweep(buildVehicle(movedVehicleSpec(spec, name, d)), R, [KMH]), st = x.steps[0];
  if (st.status !== 'solved') throw new Error(st.message);
  return [x.summary!.understeer_gradient, x.summary!.sideslip_gradient, x.summary!.kinematic_steer, st.steer!, st.yaw_rate_gain!];
}

describe('the steering spring with the axle points as numbers', () => {
  it('gives the @rack metrics\' exact gradients along a front and a rear axle point', () => {
    // the front point toes its wheel ~0.5° a mm: the yaw-rate gain (1/steer) is curved enough that h = 2 leaves 3e-3 of (h⁴) in the differences, 0.25 leaves ~6e-7
    const steps: Record<string, number> = { 'front.left.axle_outboard.x': 0.25, 'rear.axle_inboard.x': 2 };
    const r = rackSensitivity(() => buildVehicle(spec), Object.keys(steps), METRICS);
    if (r.status !== 'solved') throw new Error(r.message);
    const f0 = figures('rear.spring.rate', 0);
    METRICS.forEach((metric, i) => expect(r.metrics[metric].value, metric).toBeCloseTo(f0[i], 8));
    for (const [name, h] of Object.entries(steps)) {
      const fds = extrapolatedDifferences((d) => figures(name, d), h);
      // floored at 1e-8/h as rack-rates.test.ts (the re-solved rack settles to 1e-10 rad a pass)
      METRICS.forEach((metric, i) => expect(Math.abs(r.metrics[metric].gradient[name] - fds[i]), `${name} ${metric}: ${r.metrics[metric].gradient[name]} vs ${fds[i]}`).toBeLessThan(1e-6 * Math.abs(fds[i]) + 1e-8 / h));
    }
  }, 120_000);
});
