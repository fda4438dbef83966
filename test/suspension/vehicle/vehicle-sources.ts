/** Vehicle files for the tests: the sedan example, read with its axle files edited on the way in. */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { readVehicleFile, type VehicleSpec } from '../../../src/suspension/vehicle/file';
import { solveVehicle } from '../../../src/suspension/vehicle/analysis';
import type { VehicleModel } from '../../../src/suspension/vehicle/assembly';

export const SEDAN = 'examples/vehicles/sedan.vehicle.yaml';

/** Read a vehicle file (text or the sedan's), its axle files passed through `edit` (path → text). */
export function readVehicle(text = readFileSync(SEDAN, 'utf8'), edit: (path: string, text: string) => string = (_p, t) => t): VehicleSpec {
  return readVehicleFile(text, SEDAN, (ref) => {
    const path = normalize(join(dirname(SEDAN), ref));
    return { path, text: edit(path, readFileSync(path, 'utf8')) };
  });
}

/** The sedan's text with one line replaced (a bad-input case). */
export function sedanWith(from: string | RegExp, to: string): string {
  const text = readFileSync(SEDAN, 'utf8');
  const out = text.replace(from, to);
  if (out === text) throw new Error(`sedanWith: ${String(from)} not found`);
  return out;
}

/** km/h at which a radius R (m) gives ay (g). */
export const speedFor = (ay: number, R: number): number => Math.sqrt(ay * 9.80665 * R) * 3.6;

/**
 * The bicycle model's car: symmetric, without static toe or roll steer — the rear five-rod
 * multi-link (multi_link_axle.yaml, moved to the sedan's wheelbase) on both axles, its springs
 * stiff, the sedan's linear tyres (1200 and 1300 N/deg).
 */
export function bicycleCar(): VehicleSpec {
  const text = sedanWith('front: ../suspension/double_wishbone_axle_front.yaml', 'front: ../suspension/multi_link_axle.yaml');
  return readVehicle(text, (path, t) => (path.endsWith('multi_link_axle.yaml')
    ? t.replace('cg_position: { x: 1080, y: 0, z: 520 }', 'cg_position: { x: 1250, y: 0, z: 450 }').replace('wheelbase: 2700.0', 'wheelbase: 2500.0')
      .replace('actuation: { type: direct, mount: lower_rear_link }', 'actuation: { type: direct, mount: upright }')
      .replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 10000 }')
    : t.replace('spring: { type: coilover, rate: 100 }', 'spring: { type: coilover, rate: 10000 }')));
}

/** The sedan with the Magic Formula sample tyre on both axles. */
export const SEDAN_MF = (): string => sedanWith(/tyres:[\s\S]*$/, 'tyres:\n  front: { tir: ../tyres/pacejka_205_60R15.tir }\n  rear: { tir: ../tyres/pacejka_205_60R15.tir }\n');

/**
 * The bicycle model's axle loads at rest (N) and understeer gradient K = Wf/Cf − Wr/Cr (deg/g:
 * the sedan's linear tyres, 1200 and 1300 N/deg each) of a built car.
 */
export function bicycleLoads(m: VehicleModel): { Wf: number; Wr: number; K: number } {
  const rest = solveVehicle(m, { ax: 0, ay: 0 });
  if (rest.status !== 'solved') throw new Error(rest.message);
  const Wf = rest.corners.front_left.contact_load[2] + rest.corners.front_right.contact_load[2];
  const Wr = rest.corners.rear_left.contact_load[2] + rest.corners.rear_right.contact_load[2];
  return { Wf, Wr, K: Wf / (2 * 1200) - Wr / (2 * 1300) };
}

/**
 * Richardson's extrapolation of central differences, (4 D(h) − D(2h)) / 3, for each entry of
 * the figures `at(d)` gives at a number moved by d: the step's h² error gone.
 */
export function extrapolatedDifferences(at: (d: number) => number[], h: number): number[] {
  const [p1, m1, p2, m2] = [h, -h, 2 * h, -2 * h].map(at);
  return p1.map((_, i) => (4 * (p1[i] - m1[i]) / (2 * h) - (p2[i] - m2[i]) / (4 * h)) / 3);
}

/**
 * The sedan's front axle file with its lower wishbones on rubber (double_wishbone_compliant.yaml's
 * bushings) and a compliant track rod (its mass then left out: a spring has no link to lump it on).
 */
export function compliantSedanFront(axleText: string): string {
  return axleText.replace('links: { pushrod: 0.6, trackrod: 0.7 }', 'links: { pushrod: 0.6 }') + `compliance:
  bushings:
    lower_wishbone_inboard_front: { radial: 8000, axial: 1600, conical: 2000 }
    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }
  links:
    trackrod: 30000
`;
}

/**
 * Central differences, D(h) = (f(h) − f(−h)) / 2h: two re-solved cars rather than Richardson's
 * four, for a check whose tolerance leaves room for the step's h² error. Used only where the
 * same check was seen to pass with the step doubled (4 × that error) and with it halved (twice
 * the re-solve's noise): the margin on both sides of the step.
 */
export function centralDifferences(at: (d: number) => number[], h: number): number[] {
  const [p, m] = [h, -h].map(at);
  return p.map((_, i) => (p[i] - m[i]) / (2 * h));
}
