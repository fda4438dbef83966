/**
 * The vehicle file's `steering: { rack_stiffness }` end to end (the real command): the turn
 * through the rack prints the rack's give and the steering's force on it, a fit moves the
 * stiffness and writes it back, and a stiffness that is not one is refused in one line naming
 * the file and the field, exit 1. The refusal runs as its own process (the built command); the
 * other commands run through the CLI's main in this process, as the other CLI files do.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kinemate, REPO, runMain, tempFolder } from './helpers';

const FILE = 'examples/vehicles/sedan_steering.vehicle.yaml';

describe('kinemate vehicle with a steering stiffness', () => {
  const tmp = tempFolder();
  afterAll(() => tmp.remove());

  it('steers through the spring with --steer rack: the rack behind the held travel, its force k times the give', async () => {
    const run = await runMain(['vehicle', FILE, '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'rack']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout), s = r.steps[0];
    expect(s.status).toBe('solved');
    // the tyres push the front wheels back toward straight: the rack gives against the turn (to the right, −)
    expect(s.rack_deflection).toBeLessThan(-0.5);
    expect(s.rack_force).toBeCloseTo(-150 * s.rack_deflection, 9);
    expect(s.steer).toBeCloseTo(s.rack * r.summary.rack_steer_gain, 9);
    // compliance understeer: well above the rigid rack's 0.112 deg/g
    expect(r.summary.understeer_gradient).toBeGreaterThan(1);
  });

  it('fits the understeer gradient through the rack by the steering\'s stiffness and writes a vehicle file that has it (examples/sensitivity/fit_vehicle_steering_stiffness.yaml)', async () => {
    const out = tmp.file('fitted.vehicle.json');
    const fit = await runMain(['fit', FILE, '--targets', 'examples/sensitivity/fit_vehicle_steering_stiffness.yaml', '--out', out]);
    expect(fit.code, fit.stderr).toBe(0);
    const r = JSON.parse(fit.stdout);
    expect(r.status).toBe('converged');
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written.steering.rack_stiffness).toBeCloseTo(150 + r.moves['steering.rack_stiffness'].delta, 9);
    // the written car, solved again, has the target
    const again = await runMain(['vehicle', out, '--steady-state', '--radius', '40', '--speed', '40:40:1', '--steer', 'rack']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).summary.understeer_gradient).toBeCloseTo(0.6, 6);
  }, 120_000);

  it('refuses a stiffness that is not positive, naming the file and steering.rack_stiffness, exit 1', async () => {
    const text = readFileSync(join(REPO, FILE), 'utf8').replace('rack_stiffness: 150', 'rack_stiffness: -3')
      .replaceAll('../suspension/', `${join(REPO, 'examples/suspension')}/`);
    const path = tmp.file('bad.vehicle.yaml');
    writeFileSync(path, text);
    const bad = await kinemate(['vehicle', path, '--static']);
    expect(bad.code).toBe(1);
    const lines = bad.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('bad.vehicle.yaml');
    expect(lines[0]).toMatch(/steering\.rack_stiffness: must be a positive stiffness \(N\/mm at the rack\) \(got -3\)/);
  });
});
