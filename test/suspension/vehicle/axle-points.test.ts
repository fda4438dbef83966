/**
 * The axle points as numbers of the vehicle (src/suspension/vehicle/axle-points.ts): they move
 * the wheel on its bearing, its mass, the contact patch and the level the car is started on.
 * Every figure's exact gradient against central differences of vehicles read again from their
 * files with the point moved and solved again (Richardson-extrapolated where the tolerance
 * leaves no room for the step's h² error: vehicle-sources.ts centralDifferences).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { vehicleStaticSensitivity } from '../../../src/suspension/vehicle/static-gradients';
import { GRADIENT_METRICS, vehicleGradientSensitivity } from '../../../src/suspension/vehicle/gradient-figures';
import { FREQUENCY_METRICS, frequencySensitivity } from '../../../src/suspension/vehicle/frequency-rates';
import { STEADY_METRICS, UNDERSTEER_RADIUS, understeerSensitivity } from '../../../src/suspension/vehicle/understeer-rates';
import { rackSensitivity } from '../../../src/suspension/vehicle/rack-rates';
import { movedVehicleSpec, vehicleParameterNames } from '../../../src/suspension/vehicle/parameters';
import { STATIC_METRICS, staticMetricValues } from '../../../src/suspension/vehicle/metric-rates';
import type { VehicleSpec } from '../../../src/suspension/vehicle/file';
import { centralDifferences, extrapolatedDifferences, readVehicle, SEDAN_MF } from './vehicle-sources';

const sedan = readVehicle();
const solid = readVehicle(readFileSync('examples/vehicles/solid_axle.vehicle.yaml', 'utf8'));
const CARS: Record<string, VehicleSpec> = { sedan, 'solid axle': solid };

function staticAt(spec: VehicleSpec, name: string) {
  return (d: number): number[] => {
    const s = solveVehicle(buildVehicle(movedVehicleSpec(spec, name, d)), { ax: 0, ay: 0 });
    if (s.status !== 'solved') throw new Error(s.message);
    const v = staticMetricValues(s);
    return STATIC_METRICS.map((k) => v[k]);
  };
}

/** |exact − differences| within 1e-6 of the metric's size (its value's change per mm, or 1). */
function expectClose(exact: number[], fd: number[], what: string): void {
  exact.forEach((e, i) => expect(Math.abs(e - fd[i]), `${what} ${STATIC_METRICS[i]}: ${e} vs ${fd[i]}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd[i]))));
}

describe('axle points: the vehicle at rest', () => {
  const cases: [string, string][] = [
    ['sedan', 'front.left.axle_outboard.z'], // one side: the level turns, the car rolls
    ['sedan', 'front.axle_outboard.y'], // both sides, the right's mirrored: the track widens
    ['sedan', 'rear.right.axle_inboard.x'], // the spin axis turns: toe
    ['solid axle', 'rear.axle_inboard.z'], // a beam's wheels: their bearing axes on the beam
  ];
  it.each(cases)('%s %s: every figure against differences of re-solved cars', (car, name) => {
    const spec = CARS[car];
    const r = vehicleStaticSensitivity(buildVehicle(spec), [name]);
    if (r.status !== 'solved') throw new Error(r.message);
    const exact = STATIC_METRICS.map((k) => r.metrics[k].gradient[name]);
    expectClose(exact, centralDifferences(staticAt(spec, name), 0.05), name);
    // an axle point leaves the weight carried
    const sum = ['front_left', 'front_right', 'rear_left', 'rear_right'].reduce((t, c) => t + r.metrics[`vehicle.${c}.contact_load`].gradient[name], 0);
    expect(Math.abs(sum)).toBeLessThan(1e-8);
  });

  it('the default listing names both points of every wheel, per side and as a mirrored pair', () => {
    const names = vehicleParameterNames(sedan);
    for (const axle of ['front', 'rear']) for (const p of ['axle_inboard', 'axle_outboard']) for (const a of 'xyz') {
      for (const n of [`${axle}.${p}.${a}`, `${axle}.left.${p}.${a}`, `${axle}.right.${p}.${a}`]) expect(names).toContain(n);
    }
  });
});

/** Differences (central, or Richardson's) of a figure set's values over re-read, re-solved cars, and each figure's exact gradient within tol of their size. */
function expectFigures(spec: VehicleSpec, name: string, names: readonly string[], run: (s: VehicleSpec, params: string[]) => Record<string, { value: number; gradient: Record<string, number> }>, tol: number, differences = centralDifferences): void {
  const exact = run(spec, [name]);
  const fd = differences((d) => { const r = run(movedVehicleSpec(spec, name, d), []); return names.map((k) => r[k].value); }, 0.05);
  names.forEach((k, i) => {
    const e = exact[k].gradient[name];
    expect(Math.abs(e - fd[i]), `${name} → ${k}: ${e} vs ${fd[i]}`).toBeLessThan(tol * Math.max(...names.map((_, j) => Math.abs(fd[j])), 1e-9));
  });
}

describe('axle points: the gradient figures and the ride frequencies', () => {
  const figures = (s: VehicleSpec, params: string[]) => { const r = vehicleGradientSensitivity(buildVehicle(s), params); if (r.status !== 'solved') throw new Error(r.message); return r.metrics; };
  const frequencies = (s: VehicleSpec, params: string[]) => { const r = frequencySensitivity(buildVehicle(s), params); if (r.status !== 'solved') throw new Error(r.message); return r.metrics; };
  // measured: 1e-10..2e-9 of each figure (the pitch gradient of a mirrored inboard move ~1e-7 of the largest)
  it.each([['sedan', 'front.left.axle_outboard.z'], ['sedan', 'rear.axle_outboard.z'], ['solid axle', 'rear.left.axle_outboard.z']])('%s %s: roll and pitch gradients, load transfer', (car, name) => {
    expectFigures(CARS[car], name, GRADIENT_METRICS, figures, 1e-6);
  });
  // measured: 1e-9..2e-7 of the largest rate
  it.each([['sedan', 'front.left.axle_outboard.z'], ['sedan', 'rear.axle_inboard.x']])('%s %s: every ride frequency (the wheel\'s inertia turning with its axis)', (car, name) => {
    // the front wheel's own turn: its frequencies curved enough that central differences at 0.1 mm miss by more than 1e-6
    expectFigures(CARS[car], name, FREQUENCY_METRICS, frequencies, 1e-6, name === 'front.left.axle_outboard.z' ? extrapolatedDifferences : centralDifferences);
  });
});

describe('axle points: the steady-state figures on the 40 m radius', () => {
  const steady = (metrics: readonly string[]) => (s: VehicleSpec, params: string[]) => { const r = understeerSensitivity(buildVehicle(s), params, UNDERSTEER_RADIUS, metrics); if (r.status !== 'solved') throw new Error(r.message); return r.metrics; };
  // measured on linear tyres: 1e-10..6e-7 of each figure
  it.each([['front.left.axle_outboard.z'], ['rear.axle_inboard.x']])('sedan %s: understeer and sideslip gradients, kinematic steer', (name) => {
    expectFigures(sedan, name, STEADY_METRICS, steady(STEADY_METRICS), 1e-6);
  });
  // measured 8e-11 of each figure; without the datum's yaw stiffness moving with the design contacts
  // (assembly.ts datumYawStiffness, the aligning moments' yaw on it) the sideslip gradient is 2.5e-5 of itself off
  it('the Magic Formula sedan along a rear toe move: understeer and sideslip gradients, kinematic steer', () => {
    const mf = readVehicle(SEDAN_MF());
    expectFigures(mf, 'rear.left.axle_outboard.x', STEADY_METRICS, steady(STEADY_METRICS), 1e-6);
  });
});

describe('axle points: the steady-state figures through the rack', () => {
  const names = ['vehicle.understeer_gradient@rack', 'vehicle.kinematic_steer@rack', 'vehicle.sideslip_gradient@rack'];
  const rack = (s: VehicleSpec, params: string[]) => { const r = rackSensitivity(() => buildVehicle(s), params, names); if (r.status !== 'solved') throw new Error(r.message); return r.metrics; };
  // measured 1e-10..8e-10 of each figure; without the front wheel's own turn in the linkage's ratio 7e-4 apart
  it('sedan front.left.axle_outboard.x: the linkage\'s ratio turns with the wheel', () => {
    expectFigures(sedan, 'front.left.axle_outboard.x', names, rack, 1e-6);
  });
});
