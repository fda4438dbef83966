/**
 * `kinemate sensitivity VEHICLE` and `kinemate fit VEHICLE` end to end: the real commands on the
 * sedan, run by the command's `main` in the test process (the same code; a spawned start costs
 * its JIT's warm-up again, 2-3x the work of these runs), but one refusal, run as a real process.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { kinemate, runMain, tempFolder } from './helpers';
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
    const run = await runMain(['sensitivity', SEDAN, '--metric', 'vehicle.rear_left.ride_height', '--metric', 'vehicle.front_axle_load',
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
    const run = await runMain(['sensitivity', SEDAN, '--metric', 'vehicle.understeer_gradient', '--parameter', 'rear.spring.rate']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.units.understeer_gradient).toBe('deg/g');
    expect(Object.keys(r.metrics)).toEqual(['vehicle.understeer_gradient']);
    // (the gradient itself is checked against differences in test/suspension/vehicle/understeer-rates.test.ts)
    expect(Number.isFinite(r.metrics['vehicle.understeer_gradient'].gradient['rear.spring.rate'])).toBe(true);
    const steady = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '10:20:2']);
    expect(steady.code, steady.stderr).toBe(0);
    expect(r.metrics['vehicle.understeer_gradient'].value).toBe(JSON.parse(steady.stdout).summary.understeer_gradient);
  });

  it('takes another radius as @R<m>: --steady-state --radius 100\'s understeer gradient; a radius of 0 refused', async () => {
    const run = await runMain(['sensitivity', SEDAN, '--metric', 'vehicle.understeer_gradient@R100', '--metric', 'vehicle.steer@60@R100', '--parameter', 'rear.spring.rate']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(Object.keys(r.metrics)).toEqual(['vehicle.understeer_gradient@R100', 'vehicle.steer@60@R100']);
    expect(r.units.understeer_gradient).toBe('deg/g');
    const steady = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '100', '--speed', '60:60:1']);
    expect(steady.code, steady.stderr).toBe(0);
    const out = JSON.parse(steady.stdout);
    expect(r.metrics['vehicle.understeer_gradient@R100'].value).toBe(out.summary.understeer_gradient);
    // the step is solved from the sweep's start there, from rest here: the same state to the solver's tolerance
    expect(r.metrics['vehicle.steer@60@R100'].value).toBeCloseTo(out.steps[0].steer, 8);
    const bad = await runMain(['sensitivity', SEDAN, '--metric', 'vehicle.understeer_gradient@R0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/vehicle\.understeer_gradient@R0.*above 0/);
  });

  it('takes the figures through the rack as @rack: --steady-state --steer rack\'s values; a bad one refused', async () => {
    const run = await runMain(['sensitivity', SEDAN, '--metric', 'vehicle.understeer_gradient@rack', '--metric', 'vehicle.steer@40@rack', '--parameter', 'front.trackrod_outboard.x']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(Object.keys(r.metrics)).toEqual(['vehicle.understeer_gradient@rack', 'vehicle.steer@40@rack']);
    expect(r.units.understeer_gradient).toBe('deg/g');
    // (the gradients are checked against differences in test/suspension/vehicle/rack-rates.test.ts)
    expect(Number.isFinite(r.metrics['vehicle.understeer_gradient@rack'].gradient['front.trackrod_outboard.x'])).toBe(true);
    const steady = await runMain(['vehicle', SEDAN, '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'rack']);
    expect(steady.code, steady.stderr).toBe(0);
    const out = JSON.parse(steady.stdout);
    expect(r.metrics['vehicle.understeer_gradient@rack'].value).toBe(out.summary.understeer_gradient);
    expect(r.metrics['vehicle.steer@40@rack'].value).toBeCloseTo(out.steps[0].steer, 8);
    // and not the wheels' steer (3.614 deg there)
    expect(Math.abs(r.metrics['vehicle.steer@40@rack'].value - 3.614)).toBeGreaterThan(1e-3);
    const bad = await kinemate(['sensitivity', SEDAN, '--metric', 'vehicle.roll_gradient@rack']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/no vehicle metric "vehicle\.roll_gradient@rack"/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('fits the rear ride height with the rear spring rate and writes a vehicle that has it', async () => {
    const tmp = tempFolder();
    try {
      const targets = tmp.file('targets.yaml');
      writeFileSync(targets, 'move:\n  rear.spring.rate: [-40, 100]\ntargets:\n  - { metric: vehicle.rear_left.ride_height, value: 294 }\n');
      const out = tmp.file('fitted.json');
      const run = await runMain(['fit', SEDAN, '--targets', targets, '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      expect(r.fitted_axle_files).toEqual({ rear: tmp.file('fitted.rear.json') });
      const rate = JSON.parse(readFileSync(tmp.file('fitted.rear.json'), 'utf8')).axle_config.spring.rate;
      expect(rate).toBeCloseTo(100 + r.moves['rear.spring.rate'].delta, 12);
      // the written vehicle, solved again by kinemate vehicle, stands at the wanted height
      const check = await runMain(['vehicle', out, '--static']);
      expect(check.code).toBe(0);
      expect(JSON.parse(check.stdout).corners.rear_left.ride_height).toBeCloseTo(294, 6);
    } finally { tmp.remove(); }
  });

  it('takes the body\'s inertia and the wheels\' mass as numbers: the pitch frequency\'s gradient against the modes of the sedan with its pitch inertia moved, zeros at rest', async () => {
    const run = await runMain(['sensitivity', SEDAN, '--metric', 'vehicle.pitch_frequency', '--metric', 'vehicle.front_axle_load',
      '--parameter', 'body.inertia.yy', '--parameter', 'front.dynamics.masses.wheel.mass']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    const tmp = tempFolder();
    try {
      // the sedan with its pitch inertia (700e6 kg·mm²) moved by ±h, its axle files reached from the temporary folder
      const h = 5e6, text = readFileSync(SEDAN, 'utf8').replaceAll('../suspension/', `${relative(tmp.dir, resolve('examples/suspension'))}/`);
      const pitch = async (d: number) => {
        const file = tmp.file(`sedan${d}.vehicle.yaml`);
        writeFileSync(file, text.replace('inertia: [150e6, 700e6, 800e6]', `inertia: [150e6, ${700e6 + d}, 800e6]`));
        const modes = await runMain(['modes', file]);
        expect(modes.code, modes.stderr).toBe(0);
        return JSON.parse(modes.stdout).summary.pitch_frequency as number;
      };
      expect(r.metrics['vehicle.pitch_frequency'].value).toBe(await pitch(0));
      const fd = ((await pitch(h)) - (await pitch(-h))) / (2 * h);
      expect(fd).toBeLessThan(0);
      expect(Math.abs(r.metrics['vehicle.pitch_frequency'].gradient['body.inertia.yy'] - fd)).toBeLessThan(1e-4 * Math.abs(fd));
    } finally { tmp.remove(); }
    // heavier front wheels: a lower pitch frequency; at rest the body's inertia moves nothing, a front wheel's kilogram loads the front axle by nearly 2g
    expect(r.metrics['vehicle.pitch_frequency'].gradient['front.dynamics.masses.wheel.mass']).toBeLessThan(0);
    expect(r.metrics['vehicle.front_axle_load'].gradient['body.inertia.yy']).toBe(0);
    expect(r.metrics['vehicle.front_axle_load'].gradient['front.dynamics.masses.wheel.mass']).toBeCloseTo(2 * 9.80665, 1);
  });

  it('fits the heave frequency with the rear spring rate: the written vehicle\'s modes have it (examples/sensitivity/fit_vehicle_heave_frequency.yaml)', async () => {
    const tmp = tempFolder();
    try {
      const out = tmp.file('fitted.json');
      const run = await runMain(['fit', SEDAN, '--targets', 'examples/sensitivity/fit_vehicle_heave_frequency.yaml', '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      // softer rear springs: a lower heave frequency (the sedan's is 3.51 Hz)
      expect(r.moves['rear.spring.rate'].delta).toBeLessThan(0);
      // the written vehicle's own modes, found again by kinemate modes
      const modes = await runMain(['modes', out]);
      expect(modes.code, modes.stderr).toBe(0);
      expect(JSON.parse(modes.stdout).summary.heave_frequency).toBeCloseTo(3.4, 8);
    } finally { tmp.remove(); }
  });
  it('fits the rear wheel hop with the rear spring rate: the written vehicle\'s modes have it (examples/sensitivity/fit_vehicle_wheel_hop.yaml)', async () => {
    const tmp = tempFolder();
    try {
      const out = tmp.file('fitted.json');
      const run = await runMain(['fit', SEDAN, '--targets', 'examples/sensitivity/fit_vehicle_wheel_hop.yaml', '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      // stiffer rear springs: a higher hop (the sedan's is 16.75 Hz)
      expect(r.moves['rear.spring.rate'].delta).toBeGreaterThan(0);
      const modes = await runMain(['modes', out]);
      expect(modes.code, modes.stderr).toBe(0);
      // the hop kinemate modes names (by its energy), not the tramp 0.02 Hz below it at the start
      expect(JSON.parse(modes.stdout).summary.wheel_hop_frequency.rear).toBeCloseTo(17.5, 8);
    } finally { tmp.remove(); }
  });
});
