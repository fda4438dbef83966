/**
 * A brake or drive torque in a vehicle run (docs/vehicle-dynamics.md, `brake:` / `drive:`):
 * straight-line braking's deceleration against the torque's closed form in the linear-tyre,
 * small-slip limit, the pitch at the steady deceleration against `vehicle --ax` at the same
 * g, the energy budget closing with the brakes' work as their own lines, and the reader.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { buildVehicle, CORNERS } from '../../../src/suspension/vehicle/assembly';
import { accelerationSweep } from '../../../src/suspension/vehicle/analysis';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation, simulateVehicle } from '../../../src/suspension/vehicle/simulate';
import { SuspensionFileError } from '../../../src/suspension/files/errors';
import { readVehicleFile } from '../../../src/suspension/vehicle/file';
import { readVehicle, SEDAN } from './vehicle-sources';

const g = 9.80665;
const sedan = readFileSync(SEDAN, 'utf8');
const spec = readVehicle();
// a car without static toe (its tyres would fight and drag: the sedan's 0.45° front toe-in costs
// 0.25 % of the deceleration): the sedan's rear multi-link (a fixed toe link, no toe) on both axles
const toeFree = sedan.replace('front: ../suspension/double_wishbone_axle_front.yaml', 'front: ../suspension/./multi_link_axle_rear.yaml');
const toeFreeSpec = readVehicleFile(toeFree, SEDAN, (ref) => {
  const path = normalize(join(dirname(SEDAN), ref)), text = readFileSync(path, 'utf8');
  return { path, text: ref.includes('/./') ? text.replace('axle_position: rear', 'axle_position: front') : text };
});
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Least-squares parabola x = c0 + c1 t + c2 t²: its second derivative 2 c2. */
function curvature(ts: number[], xs: number[]): number {
  const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], b = [0, 0, 0];
  ts.forEach((t, k) => { const r = [1, t, t * t]; for (let i = 0; i < 3; i++) { b[i] += r[i] * xs[k]; for (let j = 0; j < 3; j++) A[i][j] += r[i] * r[j]; } });
  const det = (M: number[][]) => M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) + M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  return (2 * det(A.map((row, i) => row.map((x, j) => (j === 2 ? b[i] : x))))) / det(A);
}

describe('a brake torque in a straight line', () => {
  // 1200 N·m over 0.21 s (about one pitch period: little ringing left), from 80 km/h
  const T = 1200;
  const text = `${toeFree}brake:\n  torque_nm: ${T}\n  start: 0\n  ramp: 0.21\n  speed_kmh: 80\n`;
  let result: ReturnType<typeof simulateVehicle>;
  let model: ReturnType<typeof prepareVehicleSimulation>;
  beforeAll(() => {
    model = prepareVehicleSimulation(toeFreeSpec, readVehicleRun(text, SEDAN, toeFreeSpec));
    result = simulateVehicle(model, { duration: 0.8, step: 0.002, every: 5 });
  }, 120_000);

  it('decelerates as T / (M r) with the wheels\' spin inertia, in the small-slip limit', () => {
    expect(result.status).toBe('completed');
    const window = result.frames.filter((f) => f.t >= 0.3 - 1e-9);
    const a = -curvature(window.map((f) => f.t), window.map((f) => f.vehicle.vehicle.cg[0] / 1000)); // m/s², deceleration +
    const M = window[0]!.vehicle.vehicle.mass;
    // each wheel: its share of T over its loaded radius (the contact's height below the centre), less its spin inertia's I a / r²
    const bias = toeFreeSpec.front_brake_bias!, shares = model.vehicle.wheels.map((w) => (w.axle === 'front' ? bias : 1 - bias) / 2);
    const radius = model.vehicle.wheels.map((w, i) => mean(window.map((f) => {
      const c = f.vehicle.corners[w.corner];
      return (w.radius - c.contact_load[2] / w.tyre.stiffness) / 1000;
    })));
    const spin = model.vehicle.wheels.map((w) => {
      const I = model.doc.parts[w.wheel]!.mass!.inertia, n = Math.hypot(...w.axis), s = w.axis.map((x) => x / n);
      return s.reduce((t, si, i) => t + si * s.reduce((u, sj, j) => u + I[i][j] * sj, 0), 0) * 1e-6; // kg·m²
    });
    const force = shares.reduce((t, sh, i) => t + (sh * T) / radius[i], 0);
    const closed = force / (M + spin.reduce((t, I, i) => t + I / radius[i] ** 2, 0));
    expect(Math.abs(a - closed)).toBeLessThan(5e-4 * closed); // measured 6e-5
    // the spin inertia is in it: T / (M r) alone is further off
    expect(Math.abs(force / M - closed)).toBeGreaterThan(5e-3 * closed);
  });

  it('pitches as vehicle --ax does at the same deceleration', () => {
    const window = result.frames.filter((f) => f.t >= 0.3 - 1e-9);
    const a = -curvature(window.map((f) => f.t), window.map((f) => f.vehicle.vehicle.cg[0] / 1000)) / g;
    const pitch = mean(window.map((f) => f.vehicle.body.pitch)) - result.frames[0]!.vehicle.body.pitch;
    const sweep = accelerationSweep(buildVehicle(toeFreeSpec), 'ax', [0, -a]);
    const [s0, s1] = sweep.steps;
    if (s0!.status !== 'solved' || s1!.status !== 'solved') throw new Error('--ax did not solve');
    const quasi = s1!.body.pitch - s0!.body.pitch;
    // measured 1.2 % apart: the run's upright takes the brake torque, --ax's the tyre force times its radius (the wheels' spin inertia between)
    expect(Math.abs(pitch - quasi)).toBeLessThan(0.03 * Math.abs(quasi));
    expect(Math.abs(quasi)).toBeGreaterThan(0.1);
  });

  it('closes the energy budget, the brakes\' work their own lines', () => {
    const first = result.frames[0]!, last = result.frames[result.frames.length - 1]!;
    const brakes = CORNERS.map((c) => result.energy_by_element[`${c}_brake`]!);
    // a brake takes energy out: its line (stored + dissipated − work done) is positive, the front's 0.6 / 0.4 of the rear's
    for (const b of brakes) expect(b).toBeGreaterThan(0);
    expect(result.numerical_dissipation).toBeCloseTo(last.energy.total - first.energy.total, 9);
    expect(Math.abs(result.numerical_dissipation)).toBeLessThan(1e-3 * brakes.reduce((s, b) => s + b, 0));
  });
});

describe('a drive torque', () => {
  it('drives the car forward on the driven axle alone, its work done on the car', () => {
    const text = `${sedan}drive:\n  torque_nm: 400\n  ramp: 0.02\n  speed_kmh: 40\n`;
    const model = prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec));
    const result = simulateVehicle(model, { duration: 0.06, step: 0.002, every: 10 });
    expect(result.status).toBe('completed');
    const last = result.frames[result.frames.length - 1]!;
    // only the rear (driven) wheels carry a drive; it does work on the car (its line: − work done)
    expect(Object.keys(result.energy_by_element).filter((k) => k.endsWith('_drive')).sort()).toEqual(['rear_left_drive', 'rear_right_drive']);
    expect(result.energy_by_element.rear_left_drive!).toBeLessThan(0);
    const fx = CORNERS.reduce((s, c) => s + last.vehicle.corners[c].contact_load[0], 0);
    expect(fx).toBeGreaterThan(0.5 * 400 / 0.31);
    expect((last.velocities['body.pose'] as { linear: number[] }).linear[0]!).toBeGreaterThan(0);
  }, 60_000);
});

describe('the run\'s brake and drive fields', () => {
  it('reads them and refuses bad ones naming the field', () => {
    const run = readVehicleRun(`${sedan}brake: { torque_nm: 800, speed_kmh: 60 }\ndrive: { torque_nm: 100, start: 0.1, speed_kmh: 60 }\n`, SEDAN, spec);
    expect(run.torques).toEqual([{ kind: 'brake', torque_nm: 800, start: 0, ramp: 0.05, speed_kmh: 60 }, { kind: 'drive', torque_nm: 100, start: 0.1, ramp: 0.05, speed_kmh: 60 }]);
    const bad = (extra: string) => { try { readVehicleRun(`${sedan}${extra}`, SEDAN, spec); return ''; } catch (e) { expect(e).toBeInstanceOf(SuspensionFileError); return (e as Error).message; } };
    expect(bad('brake: { torque_nm: -5, speed_kmh: 60 }\n')).toMatch(/brake\.torque_nm/);
    expect(bad('drive: { torque: 5, speed_kmh: 60 }\n')).toMatch(/drive\.torque\b/);
    expect(bad('brake: { torque_nm: 5, speed_kmh: 60 }\ndrive: { torque_nm: 5, speed_kmh: 50 }\n')).toMatch(/drive\.speed_kmh/);
  });
});
