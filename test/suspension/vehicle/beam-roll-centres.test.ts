/**
 * A beam axle's roll centre in `--ay` (roll-centres.ts beamRollCentre: where the beam's roll axis
 * against the body, from its admissible twists, meets its vertical plane through the wheel
 * centres) against the linkages' closed forms at the solved pose, built from the parts' points
 * alone: with three parallel links (the two lower trailing links and the central upper one, a
 * parallelogram in side view) the roll axis is parallel to them, so a Panhard rod's centre is
 * where the plane of the rod and that direction passes above the wheels' midpoint, and a Watt's
 * linkage's is its pivot carried along that direction into the wheels' plane.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rotationMatrix } from '../../../kernel/dual';
import { buildVehicle, type VehicleModel } from '../../../src/suspension/vehicle/assembly';
import { accelerationSweep, type SolvedState, type SweepStep } from '../../../src/suspension/vehicle/analysis';
import { readVehicle } from './vehicle-sources';

/** The solid-axle car with another rear axle file (sprung by 60 N/mm coil-overs), its hardpoints edited by `edit`. */
function car(file: string, edit: (text: string) => string = (t) => t): VehicleModel {
  const text = readFileSync('examples/vehicles/solid_axle.vehicle.yaml', 'utf8').replace('rear: ../suspension/solid_axle_four_link_rates.yaml', `rear: ../suspension/${file}`);
  return buildVehicle(readVehicle(text, (p, t) => (p.endsWith(file) ? edit(t.replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 60 }')) : t)));
}

/** A part's point in world axes at the model's current (solved) state. */
function point(m: VehicleModel, part: string, name: string): number[] {
  const sys = m.dyn.system, v = sys.variables[m.dyn.model.parts.get(part)!];
  const R = rotationMatrix(new Float64Array(9), sys.state, v.offset + 3), x = m.doc.parts[part].points![name];
  return [0, 1, 2].map((i) => R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2] + sys.state[v.offset + i]);
}

const sub = (a: number[], b: number[]) => a.map((x, i) => x - b[i]);
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** The rear wheels' midpoint, the plane's normal (wheel line × the body's up), the links' direction and the body's up, at the state. */
function frame(m: VehicleModel) {
  const l = point(m, 'rear_axle', 'left_wheel_centre'), r = point(m, 'rear_axle', 'right_wheel_centre');
  const sys = m.dyn.system, R = rotationMatrix(new Float64Array(9), sys.state, sys.variables[m.dyn.model.parts.get('body')!].offset + 3);
  const up = [R[2], R[5], R[8]];
  const d = sub(point(m, 'rear_axle', 'left_lower_link_axle'), point(m, 'body', 'rear_left_lower_link_chassis'));
  return { M: l.map((x, i) => (x + r[i]) / 2), n: cross(sub(r, l), up), d, up };
}

/** The state's rear roll centre after solving at `ay` g. */
function rearCentre(m: VehicleModel, ay: number) {
  const s = accelerationSweep(m, 'ay', [ay]).steps[0] as SolvedState & SweepStep;
  expect(s.status).toBe('solved');
  return s.roll_centres!.rear!;
}

describe('a beam axle\'s roll centre', () => {
  it('Panhard rod: on the plane of the rod and the links\' direction, above the wheels\' midpoint', () => {
    // level at design; at rest the beam has risen against the body, so it leans a little
    for (const edit of [(t: string) => t.replace('panhard_chassis: { x: -100, y: -550, z: 330 }', 'panhard_chassis: { x: -100, y: -550, z: 300 }'), (t: string) => t]) {
      const m = car('solid_axle_panhard.yaml', edit);
      const rc = rearCentre(m, 0);
      const { M, n, d, up } = frame(m);
      const a = point(m, 'rear_axle', 'panhard_axle'), c = point(m, 'body', 'rear_panhard_chassis');
      const nu = cross(sub(c, a), d);
      // X = M + s·(n × up) + h·up: in the wheels' plane (n·X = n·M), on the rod's plane (ν·(X − a) = 0), no bounce ((d × (M − X))·up = 0)
      const side = cross(n, up);
      const A = [[dot(nu, side), dot(nu, up)], [dot(cross(d, side), up), dot(cross(d, up), up)]];
      const b = [dot(nu, sub(a, M)), 0];
      const det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
      const s = (b[0] * A[1][1] - A[0][1] * b[1]) / det, h = (A[0][0] * b[1] - b[0] * A[1][0]) / det;
      const X = M.map((x, i) => x + s * side[i] + h * up[i]);
    expect(Math.abs(rc.y - X[1]), `y ${rc.y} vs ${X[1]}`).toBeLessThan(1e-3);
      expect(Math.abs(rc.height - (X[2] - m.road)), `height ${rc.height} vs ${X[2] - m.road}`).toBeLessThan(1e-3);
    }
  });

  it('Watt\'s linkage: at its pivot (carried along the links into the wheels\' plane)', () => {
    const m = car('solid_axle_watts.yaml');
    const rc = rearCentre(m, 0);
    const { M, n, d } = frame(m);
    const P = point(m, 'rear_axle', 'watts_pivot');
    const X = P.map((x, i) => x + (dot(n, sub(M, P)) / dot(n, d)) * d[i]);
    expect(Math.abs(rc.y - X[1]), `y ${rc.y} vs ${X[1]}`).toBeLessThan(1e-3);
    expect(Math.abs(rc.height - (X[2] - m.road)), `height ${rc.height} vs ${X[2] - m.road}`).toBeLessThan(1e-3);
  });

  it('rolled: the solid-axle car\'s four-link centre stays near its place at rest, the front\'s moves as before', () => {
    const m = buildVehicle(readVehicle(readFileSync('examples/vehicles/solid_axle.vehicle.yaml', 'utf8')));
    const rest = rearCentre(m, 0), rolled = rearCentre(m, 0.5);
    expect(Math.abs(rest.y)).toBeLessThan(1e-6);
    expect(Math.abs(rolled.height - rest.height)).toBeLessThan(5);
    expect(Math.abs(rolled.y - rest.y)).toBeGreaterThan(1e-3);
  });
});
