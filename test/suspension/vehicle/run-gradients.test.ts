/**
 * `simulate --gradient` on a vehicle file (docs/vehicle-dynamics.md): the exact gradients of a
 * run over a road against Richardson-extrapolated central differences of re-run simulations,
 * each from its own re-solved rest (the start moves with the numbers); the start's rate is
 * needed (a start held fixed misses it); direct and adjoint agree; moving-road runs refused.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation, simulateVehicle } from '../../../src/suspension/vehicle/simulate';
import { vehicleSimulationGradients } from '../../../src/suspension/vehicle/run-gradients';
import { parseParameter, parseResult, simulationGradients } from '../../../src/gradients/run';
import { VehicleInputError } from '../../../src/suspension/vehicle/errors';
import { readVehicle } from './vehicle-sources';

const FILE = 'examples/vehicles/sedan_bump.vehicle.yaml';
const TEXT = readFileSync(FILE, 'utf8');
const OPTIONS = { duration: 0.08, step: 0.001 };

/** The run of the bump file, its vehicle text and front axle file edited. */
function model(vehicle: (t: string) => string = (t) => t, front: (t: string) => string = (t) => t) {
  const text = vehicle(TEXT);
  const spec = readVehicle(text, (path, t) => (path.endsWith('double_wishbone_axle_front.yaml') ? front(t) : t));
  return prepareVehicleSimulation(spec, readVehicleRun(text, FILE, spec));
}

/** The body's height (its origin's world z, mm) at the run's end. */
function height(m: ReturnType<typeof model>): number {
  const r = simulateVehicle(m, { ...OPTIONS, every: 1000 });
  return (r.frames[r.frames.length - 1]!.state['body.pose'] as { position: number[] }).position[2]!;
}

/** Richardson-extrapolated central difference of f at x0 with step h. */
function richardson(f: (x: number) => number, x0: number, h: number): number {
  const d1 = (f(x0 + h) - f(x0 - h)) / (2 * h), d2 = (f(x0 + 2 * h) - f(x0 - 2 * h)) / (4 * h);
  return (4 * d1 - d2) / 3;
}

describe('simulate --gradient on a vehicle file', () => {
  it('the front springs\' rate and the front tyres\' stiffness: against differences of re-run cars, each from its own rest', () => {
    // the axle file's spring rate is both front springs' stiffness; the vehicle file's front tyre stiffness both front tyres'
    const spring = richardson((k) => height(model(undefined, (t) => t.replace('rate: 2000', `rate: ${k}`))), 2000, 20);
    const tyre = richardson((k) => height(model((t) => t.replace('front: { stiffness: 250', `front: { stiffness: ${k}`))), 250, 5);
    const names = ['front_left_spring.stiffness', 'front_right_spring.stiffness', 'front_left_tyre.stiffness', 'front_right_tyre.stiffness'];
    const result = parseResult('body.position.z');
    const direct = vehicleSimulationGradients(model(), names.map(parseParameter), [result], OPTIONS, 'direct').results[0]!;
    const d = direct.gradient;
    expect(Math.abs(d[0]! + d[1]! - spring)).toBeLessThan(1e-5 * Math.abs(spring));
    expect(Math.abs(d[2]! + d[3]! - tyre)).toBeLessThan(1e-5 * Math.abs(tyre));
    // the bump is under the front left wheel: the two sides differ
    expect(Math.abs(d[2]! - d[3]!)).toBeGreaterThan(0.1 * Math.abs(d[3]!));
    const adjoint = vehicleSimulationGradients(model(), names.map(parseParameter), [result], OPTIONS, 'adjoint').results[0]!;
    adjoint.gradient.forEach((g, j) => expect(Math.abs(g - d[j]!)).toBeLessThan(1e-9 * Math.max(1e-6, Math.abs(d[j]!))));
    // the start's rate is needed: the same run from a start held where it is misses the rest's sag
    const fixed = simulationGradients(model().dyn, names.map(parseParameter), [result], { ...OPTIONS, start: 'fixed' }, 'direct').results[0]!;
    expect(Math.abs(fixed.gradient[2]! + fixed.gradient[3]! - tyre)).toBeGreaterThan(0.1 * Math.abs(tyre));
  }, 240_000);

  it('refuses a run on the moving road (a step steer, a brake) naming the reason', () => {
    const text = `${TEXT.replace(/road:[\s\S]*$/, '')}brake: { torque_nm: 500, speed_kmh: 60 }\n`;
    const spec = readVehicle(text);
    const m = prepareVehicleSimulation(spec, readVehicleRun(text, FILE, spec));
    expect(() => vehicleSimulationGradients(m, [parseParameter('body.mass')], [parseResult('body.position.z')], OPTIONS)).toThrow(VehicleInputError);
    expect(() => vehicleSimulationGradients(m, [parseParameter('body.mass')], [parseResult('body.position.z')], OPTIONS)).toThrow(/brake/);
  }, 60_000);
});
