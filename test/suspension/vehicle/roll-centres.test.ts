/**
 * The roll centres of `--ay` at the vehicle's solved pose (roll-centres.ts) against the axle
 * files' own `roll_center_kinematic` metric (the same definition on a level chassis) swept
 * to the vehicle's wheel travel at rest, measured from the road: the axle's height above
 * its contact centres less the tyre's deflection (the contact patch sits that far into the
 * road). The vehicle's body is pitched (0.8°) and its contacts are the rims' lowest points,
 * hence the millimetre; a symmetric car's centres lie on its centre line at rest, and move
 * as it rolls.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { accelerationSweep, type SolvedState } from '../../../src/suspension/vehicle/analysis';
import { runSweep, suspensionAssembly, sweepFromShortcut, SuspensionModel } from '../../../src/index';
import { readVehicle } from './vehicle-sources';

const spec = readVehicle();

describe('roll centres at the rolled pose', () => {
  const run = accelerationSweep(buildVehicle(spec), 'ay', [0, 0.5]);

  it('at rest: on the centre line, at the axle metric\'s height above the road', () => {
    const rest = run.steps[0] as SolvedState & typeof run.steps[0];
    for (const axle of ['front', 'rear'] as const) {
      const rc = rest.roll_centres![axle]!;
      expect(Math.abs(rc.y)).toBeLessThan(1e-6);
      const travel = rest.corners[`${axle}_left`].wheel_travel;
      const geometry = spec[axle].geometry;
      const sweep = runSweep(new SuspensionModel(suspensionAssembly(geometry)), sweepFromShortcut('bump', `${travel}:${travel}:1`));
      const step = sweep.steps[0];
      const axleMetrics = (step.metrics as unknown as { axle: Record<string, number> }).axle;
      const contactZ = (step.positions as Record<string, number[]>).left_wheel_contact_centre[2];
      const deflection = rest.corners[`${axle}_left`].contact_load[2] / spec[axle].tyre.stiffness;
      const expected = axleMetrics.roll_center_kinematic_z - contactZ - deflection;
      expect(Math.abs(rc.height - expected), `${axle}: ${rc.height} vs ${expected}`).toBeLessThan(1);
    }
  });

  it('rolled: the centres leave the centre line', () => {
    const s = run.steps[1] as SolvedState & typeof run.steps[1];
    expect(s.status).toBe('solved');
    for (const axle of ['front', 'rear'] as const) expect(Math.abs(s.roll_centres![axle]!.y)).toBeGreaterThan(1);
  });
});
