/** `kinemate sensitivity VEHICLE` and `kinemate fit VEHICLE` end to end: the real commands on the sedan. */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { kinemate, tempFolder } from './helpers';
import { isVehicleText } from '../../src/cli/vehicle-gradients';

const SEDAN = 'examples/vehicles/sedan.vehicle.yaml';

describe('kinemate sensitivity / fit on a vehicle file', () => {
  it('tells a vehicle file by its top-level vehicle key, YAML or JSON', () => {
    expect(isVehicleText(readFileSync(SEDAN, 'utf8'))).toBe(true);
    expect(isVehicleText(JSON.stringify({ vehicle: 1, front: 'a.yaml' }, null, 2))).toBe(true);
    // an axle file names its vehicle_config, and may nest a "vehicle" key: not a vehicle file
    expect(isVehicleText(readFileSync('examples/suspension/double_wishbone_axle_front.yaml', 'utf8'))).toBe(false);
    expect(isVehicleText(JSON.stringify({ parts: { vehicle: {} } }, null, 2))).toBe(false);
  });

  it('prints the asked figures at rest with their gradients over the asked numbers', async () => {
    const run = await kinemate(['sensitivity', SEDAN, '--metric', 'vehicle.rear_left.ride_height', '--metric', 'vehicle.front_axle_load',
      '--parameter', 'rear.spring.rate', '--parameter', 'front.lower_wishbone_outboard.z']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.scope).toBe('vehicle');
    expect(Object.keys(r.metrics)).toEqual(['vehicle.rear_left.ride_height', 'vehicle.front_axle_load']);
    expect(Object.keys(r.metrics['vehicle.front_axle_load'].gradient)).toEqual(['rear.spring.rate', 'front.lower_wishbone_outboard.z']);
    // a stiffer rear spring lifts the rear
    expect(r.metrics['vehicle.rear_left.ride_height'].gradient['rear.spring.rate']).toBeGreaterThan(0);
  });

  it('gives the understeer gradient as a metric: --steady-state\'s value on 40 m, its unit, its gradient over the asked numbers', async () => {
    const run = await kinemate(['sensitivity', SEDAN, '--metric', 'vehicle.understeer_gradient', '--parameter', 'rear.spring.rate']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.units.understeer_gradient).toBe('deg/g');
    expect(Object.keys(r.metrics)).toEqual(['vehicle.understeer_gradient']);
    // (the gradient itself is checked against differences in test/suspension/vehicle/understeer-rates.test.ts)
    expect(Number.isFinite(r.metrics['vehicle.understeer_gradient'].gradient['rear.spring.rate'])).toBe(true);
    const steady = await kinemate(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '10:20:2']);
    expect(steady.code, steady.stderr).toBe(0);
    expect(r.metrics['vehicle.understeer_gradient'].value).toBe(JSON.parse(steady.stdout).summary.understeer_gradient);
  });

  it('takes another radius as @R<m>: --steady-state --radius 100\'s understeer gradient; a radius of 0 refused', async () => {
    const run = await kinemate(['sensitivity', SEDAN, '--metric', 'vehicle.understeer_gradient@R100', '--metric', 'vehicle.steer@60@R100', '--parameter', 'rear.spring.rate']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(Object.keys(r.metrics)).toEqual(['vehicle.understeer_gradient@R100', 'vehicle.steer@60@R100']);
    expect(r.units.understeer_gradient).toBe('deg/g');
    const steady = await kinemate(['vehicle', SEDAN, '--steady-state', '--radius', '100', '--speed', '60:60:1']);
    expect(steady.code, steady.stderr).toBe(0);
    const out = JSON.parse(steady.stdout);
    expect(r.metrics['vehicle.understeer_gradient@R100'].value).toBe(out.summary.understeer_gradient);
    // the step is solved from the sweep's start there, from rest here: the same state to the solver's tolerance
    expect(r.metrics['vehicle.steer@60@R100'].value).toBeCloseTo(out.steps[0].steer, 8);
    const bad = await kinemate(['sensitivity', SEDAN, '--metric', 'vehicle.understeer_gradient@R0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/vehicle\.understeer_gradient@R0.*above 0/);
  });

  it('fits the rear ride height with the rear spring rate and writes a vehicle that has it', async () => {
    const tmp = tempFolder();
    try {
      const targets = tmp.file('targets.yaml');
      writeFileSync(targets, 'move:\n  rear.spring.rate: [-40, 100]\ntargets:\n  - { metric: vehicle.rear_left.ride_height, value: 294 }\n');
      const out = tmp.file('fitted.json');
      const run = await kinemate(['fit', SEDAN, '--targets', targets, '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      expect(r.fitted_axle_files).toEqual({ rear: tmp.file('fitted.rear.json') });
      const rate = JSON.parse(readFileSync(tmp.file('fitted.rear.json'), 'utf8')).axle_config.spring.rate;
      expect(rate).toBeCloseTo(100 + r.moves['rear.spring.rate'].delta, 12);
      // the written vehicle, solved again by kinemate vehicle, stands at the wanted height
      const check = await kinemate(['vehicle', out, '--static']);
      expect(check.code).toBe(0);
      expect(JSON.parse(check.stdout).corners.rear_left.ride_height).toBeCloseTo(294, 6);
    } finally { tmp.remove(); }
  });

  it('fits the heave frequency with the rear spring rate: the written vehicle\'s modes have it (examples/sensitivity/fit_vehicle_heave_frequency.yaml)', async () => {
    const tmp = tempFolder();
    try {
      const out = tmp.file('fitted.json');
      const run = await kinemate(['fit', SEDAN, '--targets', 'examples/sensitivity/fit_vehicle_heave_frequency.yaml', '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      // softer rear springs: a lower heave frequency (the sedan's is 3.51 Hz)
      expect(r.moves['rear.spring.rate'].delta).toBeLessThan(0);
      // the written vehicle's own modes, found again by kinemate modes
      const modes = await kinemate(['modes', out]);
      expect(modes.code, modes.stderr).toBe(0);
      expect(JSON.parse(modes.stdout).summary.heave_frequency).toBeCloseTo(3.4, 8);
    } finally { tmp.remove(); }
  });
  it('fits the rear wheel hop with the rear spring rate: the written vehicle\'s modes have it (examples/sensitivity/fit_vehicle_wheel_hop.yaml)', async () => {
    const tmp = tempFolder();
    try {
      const out = tmp.file('fitted.json');
      const run = await kinemate(['fit', SEDAN, '--targets', 'examples/sensitivity/fit_vehicle_wheel_hop.yaml', '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      // stiffer rear springs: a higher hop (the sedan's is 16.75 Hz)
      expect(r.moves['rear.spring.rate'].delta).toBeGreaterThan(0);
      const modes = await kinemate(['modes', out]);
      expect(modes.code, modes.stderr).toBe(0);
      // the hop kinemate modes names (by its energy), not the tramp 0.02 Hz below it at the start
      expect(JSON.parse(modes.stdout).summary.wheel_hop_frequency.rear).toBeCloseTo(17.5, 8);
    } finally { tmp.remove(); }
  });
});
