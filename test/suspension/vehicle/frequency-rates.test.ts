/**
 * The ride frequencies' exact gradients (frequency-rates.ts: dω² = φᵀ(K̇_r − ω² Ṁ_r)φ with the
 * rest state's own move, the basis' turn and the mass pieces) against Richardson-extrapolated
 * central differences of the modes of re-solved vehicles.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { FREQUENCY_METRICS, frequencySensitivity } from '../../../src/suspension/vehicle/frequency-rates';
import { vehicleModes } from '../../../src/suspension/vehicle/modes';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { readVehicle } from './vehicle-sources';

const spec = readVehicle();

function frequencies(name: string, d: number): Record<string, number> {
  const r = vehicleModes(buildVehicle(movedVehicleSpec(spec, name, d)));
  if (r.status !== 'solved') throw new Error(r.message);
  return { 'vehicle.heave_frequency': r.summary.heave_frequency!, 'vehicle.pitch_frequency': r.summary.pitch_frequency!, 'vehicle.roll_frequency': r.summary.roll_frequency! };
}

/** (4 D(h) − D(2h)) / 3 of central differences: the step's h² error gone. */
function extrapolated(name: string, h: number): Record<string, number> {
  const [p1, m1, p2, m2] = [h, -h, 2 * h, -2 * h].map((d) => frequencies(name, d));
  return Object.fromEntries(Object.keys(p1).map((k) => [k, (4 * (p1[k] - m1[k]) / (2 * h) - (p2[k] - m2[k]) / (4 * h)) / 3]));
}

describe('the ride frequencies as metrics', () => {
  // a spring rate, a bar rate, the body's mass (its centre and inertia moving too), its cg height, a chassis
  // pickup (a link's length row, half its mass on the body), an inboard pivot (its hinge axis turning), an
  // upright pickup (masses placed from points)
  const steps: Record<string, number> = {
    'rear.spring.rate': 0.5, 'front.anti_roll.rate': 500, 'body.mass': 2.5, 'vehicle_config.cg_position.z': 2, 'vehicle_config.cg_position.x': 2,
    'rear.lower_front_link_inboard.z': 1, 'front.upper_wishbone_inboard_front.z': 1, 'front.upper_wishbone_outboard.z': 1,
  };
  const names = Object.keys(steps);
  const r = frequencySensitivity(buildVehicle(spec), names);

  it('values are the modes\' summary', () => {
    if (r.status !== 'solved') throw new Error(r.message);
    const f = frequencies('body.mass', 0);
    for (const metric of FREQUENCY_METRICS) expect(r.metrics[metric].value).toBe(f[metric]);
  });

  for (const name of names) {
    it(`${name}: every frequency against extrapolated central differences`, () => {
      if (r.status !== 'solved') throw new Error(r.message);
      const fd = extrapolated(name, steps[name]);
      for (const metric of FREQUENCY_METRICS) {
        const exact = r.metrics[metric].gradient[name];
        expect(Math.abs(exact - fd[metric]), `${metric}: ${exact} vs ${fd[metric]}`).toBeLessThan(1e-6 * Math.abs(fd[metric]) + 1e-12);
      }
    });
  }
});
