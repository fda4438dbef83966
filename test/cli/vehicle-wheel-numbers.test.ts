/**
 * The axle points and the wheels' moments (spin_inertia, transverse_inertia) as numbers of a
 * vehicle's `sensitivity` and `fit`, end to end on the sedan: the default listing, fits whose
 * written files give the fitted figures when read and solved again, and bad input refused.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { kinemate, runMain, tempFolder } from './helpers';

const SEDAN = 'examples/vehicles/sedan.vehicle.yaml';

describe('kinemate sensitivity / fit on a vehicle: the axle points and the wheels\' moments', () => {
  it('takes the axle points (per side and mirrored pairs) and the wheels\' moments as numbers', async () => {
    const run = await runMain(['sensitivity', SEDAN, '--metric', 'vehicle.front_left.contact_load', '--metric', 'vehicle.roll_frequency', '--parameter', 'front.axle_outboard.y',
      '--parameter', 'rear.left.axle_inboard.x', '--parameter', 'front.dynamics.masses.wheel.spin_inertia', '--format', 'csv']);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout.trim().split('\n').slice(1).map((l) => l.split(','));
    const of = (metric: string, p: string) => Number(rows.find((r) => r[0] === metric && r[2] === p)![3]);
    // a wider front track moves load; the wheels' spin moment moves no load at rest, but the roll frequency
    expect(Math.abs(of('vehicle.front_left.contact_load', 'front.axle_outboard.y'))).toBeGreaterThan(1e-3);
    expect(of('vehicle.front_left.contact_load', 'front.dynamics.masses.wheel.spin_inertia')).toBe(0);
    expect(of('vehicle.roll_frequency', 'front.dynamics.masses.wheel.spin_inertia')).toBeLessThan(0);
  });

  it('fits the roll frequency by the front wheels\' transverse moment: the written axle file holds it, and modes on the written vehicle give the figure', async () => {
    const tmp = tempFolder();
    try {
      const targets = tmp.file('targets.yaml'), out = tmp.file('fitted.json');
      // weighted: the moment's gradient is 4e-8 Hz per kg·mm², below the fit's absolute stop on the descent (1e-14) within 2e-7 Hz of 7.42
      writeFileSync(targets, 'move:\n  front.dynamics.masses.wheel.transverse_inertia: [-100000, 100000]\ntargets:\n  - { metric: vehicle.roll_frequency, max: 7.42, weight: 1000 }\n');
      const run = await runMain(['fit', SEDAN, '--targets', targets, '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      // a heavier wheel about its diameter: a lower roll frequency (the sedan's is 7.4224 Hz)
      const delta = r.moves['front.dynamics.masses.wheel.transverse_inertia'].delta;
      expect(delta).toBeGreaterThan(0);
      const axle = JSON.parse(readFileSync(r.fitted_axle_files.front, 'utf8'));
      // the cylinder's moment (14 kg, 313.6 mm, 270 mm wide) plus the move, the wheel's mass kept
      const cylinder = (14 * (3 * 313.6 ** 2 + 270 ** 2)) / 12;
      expect(axle.dynamics.masses.wheel.mass).toBe(14);
      expect(axle.dynamics.masses.wheel.transverse_inertia).toBeCloseTo(cylinder + delta, 6);
      const modes = await runMain(['modes', out]);
      expect(modes.code, modes.stderr).toBe(0);
      expect(JSON.parse(modes.stdout).summary.roll_frequency).toBeCloseTo(r.targets[0].value, 9);
      expect(r.targets[0].value).toBeCloseTo(7.42, 9);
    } finally { tmp.remove(); }
  });

  it('fits the body\'s heave by the rear axle points\' height: the written vehicle stands at it', async () => {
    const tmp = tempFolder();
    try {
      const targets = tmp.file('targets.yaml'), out = tmp.file('fitted.json');
      const rest = await runMain(['vehicle', SEDAN, '--static']);
      const h0 = JSON.parse(rest.stdout).body.heave as number;
      writeFileSync(targets, `move:\n  rear.axle_outboard.z: [-20, 20]\ntargets:\n  - { metric: vehicle.heave, value: ${h0 - 5} }\n`);
      const run = await runMain(['fit', SEDAN, '--targets', targets, '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      // both rear wheels' outer bearing points raised (the right's written too): the car sits lower
      expect(r.moves['rear.axle_outboard.z'].delta).toBeGreaterThan(5);
      const again = await runMain(['vehicle', out, '--static']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).body.heave).toBeCloseTo(h0 - 5, 6);
    } finally { tmp.remove(); }
  });

  it('refuses a wheel moment that is not positive, given beside a 3 × 3 inertia, or that no body has: one line naming the file and field', async () => {
    const tmp = tempFolder();
    try {
      const axle = readFileSync('examples/suspension/double_wishbone_axle_front.yaml', 'utf8');
      const vehicle = readFileSync(SEDAN, 'utf8').replace('../suspension/double_wishbone_axle_front.yaml', 'front.yaml').replace('../suspension/multi_link_axle_rear.yaml', `${process.cwd()}/examples/suspension/multi_link_axle_rear.yaml`);
      writeFileSync(tmp.file('car.vehicle.yaml'), vehicle);
      const cases: [string, RegExp][] = [
        ['wheel: { mass: 14, spin_inertia: -5 }', /dynamics\.masses\.wheel\.spin_inertia/],
        ['wheel: { mass: 14, inertia: [1e5, 2e5, 1e5], transverse_inertia: 2e5 }', /dynamics\.masses\.wheel\.transverse_inertia.*not both/],
        ['wheel: { mass: 14, spin_inertia: 9e5, transverse_inertia: 2e5 }', /dynamics\.masses\.wheel\.spin_inertia.*no body/],
      ];
      for (const [i, [wheel, message]] of cases.entries()) {
        expect(axle).toContain('wheel: 14');
        writeFileSync(tmp.file('front.yaml'), axle.replace('wheel: 14', wheel));
        // the real command once (its exit code and its one line), `main` in this process for the rest
        const run = await (i === 0 ? kinemate : runMain)(['modes', tmp.file('car.vehicle.yaml')]);
        expect(run.code, run.stdout).toBe(1);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(/front\.yaml/);
        expect(run.stderr).toMatch(message);
      }
    } finally { tmp.remove(); }
  });
});
