/**
 * Right turns: a symmetric car's right turn is its left turn mirrored (y → −y). The --ay
 * state at −a and the steady state on −R against those at +a and +R: every lateral figure
 * changes sign, the left and right corners swap, and the understeer gradient (dδ/d(ay), both
 * changing sign) is the same.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { solveVehicle, type SolvedState } from '../../../src/suspension/vehicle/analysis';
import { steadyStateSweep } from '../../../src/suspension/vehicle/steady-state';
import { readVehicle } from './vehicle-sources';

const spec = readVehicle();
const close = (a: number, b: number, what: string) => expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThan(1e-7 * Math.max(1, Math.abs(b)));

describe('right turns', () => {
  it('a lateral acceleration to the right mirrors one to the left', () => {
    const left = solveVehicle(buildVehicle(spec), { ax: 0, ay: 0.3 }) as SolvedState;
    const right = solveVehicle(buildVehicle(spec), { ax: 0, ay: -0.3 }) as SolvedState;
    expect([left.status, right.status]).toEqual(['solved', 'solved']);
    close(right.body.roll, -left.body.roll, 'roll');
    expect(left.body.roll).toBeGreaterThan(0.05);
    for (const axle of ['front', 'rear'] as const) {
      close(right.corners[`${axle}_left`].contact_load[2], left.corners[`${axle}_right`].contact_load[2], `${axle} Fz`);
      close(right.corners[`${axle}_left`].camber, left.corners[`${axle}_right`].camber, `${axle} camber`);
    }
  });

  it('steady cornering on a negative radius is the left turn mirrored', () => {
    const l = steadyStateSweep(buildVehicle(spec), 40, [40]), r = steadyStateSweep(buildVehicle(spec), -40, [40]);
    expect([l.status, r.status]).toEqual(['solved', 'solved']);
    type Step = SolvedState & { ay: number; steer: number; sideslip: number; tyres: Record<string, { load: number; slip_angle: number }> };
    const a = l.steps[0] as unknown as Step, b = r.steps[0] as unknown as Step;
    for (const k of ['ay', 'steer', 'sideslip'] as const) close(b[k], -a[k], k);
    close(b.body.roll, -a.body.roll, 'roll');
    close(b.tyres.front_left.load, a.tyres.front_right.load, 'front tyre load');
    close(b.tyres.rear_right.slip_angle, -a.tyres.rear_left.slip_angle, 'rear slip angle');
    close(r.summary!.understeer_gradient, l.summary!.understeer_gradient, 'understeer gradient');
    close(r.summary!.kinematic_steer, -l.summary!.kinematic_steer, 'kinematic steer');
  });
});
