/**
 * `kinemate sensitivity` and `kinemate fit` on a vehicle whose front axle file has bushings
 * (docs/vehicle.md "Numbers": `front.compliance.bushings.P.radial`, and a bushed pickup whose
 * bushing's frames turn with it): the real commands, in
 * process. The fit moves a bushing's radial rate, writes it into the fitted front axle file at
 * its place under `compliance:`, and the written vehicle, read again, has the roll gradient wanted.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runMain, tempFolder } from './helpers.ts';

const RADIAL = 'front.compliance.bushings.lower_wishbone_inboard_rear.radial';
/** The front axle's bushings, appended to its file. */
const BUSHINGS = 'compliance:\n  bushings:\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1600 }\n    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }\n';

/** `kinemate sensitivity FILE --metric vehicle.roll_gradient ARGS…`: the roll gradient's value and gradient. */
async function roll(file: string, ...args: string[]): Promise<{ value: number; gradient: Record<string, number> }> {
  const run = await runMain(['sensitivity', file, '--metric', 'vehicle.roll_gradient', ...args]);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return JSON.parse(run.stdout).metrics['vehicle.roll_gradient'];
}

describe('kinemate sensitivity / fit on a vehicle with bushings', () => {
  it('takes a bushing\'s rate as a number and fits the roll gradient by it, writing it into the axle file', async () => {
    const tmp = tempFolder();
    try {
      const front = readFileSync(join(REPO, 'examples/suspension/double_wishbone_axle_front.yaml'), 'utf8') + BUSHINGS;
      writeFileSync(tmp.file('double_wishbone_axle_front.yaml'), front);
      writeFileSync(tmp.file('multi_link_axle_rear.yaml'), readFileSync(join(REPO, 'examples/suspension/multi_link_axle_rear.yaml'), 'utf8'));
      const vehicle = tmp.file('sedan.vehicle.yaml');
      writeFileSync(vehicle, readFileSync(join(REPO, 'examples/vehicles/sedan.vehicle.yaml'), 'utf8').replaceAll('../suspension/', ''));
      const r0 = await roll(vehicle, '--parameter', RADIAL);
      // a stiffer rear bushing radially: the front roll stiffness changes, the gradient is not zero
      expect(Math.abs(r0.gradient[RADIAL])).toBeGreaterThan(1e-8);
      const wanted = Number((r0.value - 0.0003).toFixed(6));
      const targets = tmp.file('targets.yaml');
      writeFileSync(targets, `move:\n  ${RADIAL}: [-2000, 2000]\ntargets:\n  - { metric: vehicle.roll_gradient, value: ${wanted} }\n`);
      const out = tmp.file('fitted.json');
      const run = await runMain(['fit', vehicle, '--targets', targets, '--out', out]);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const r = JSON.parse(run.stdout);
      expect(r.status).toBe('converged');
      expect(r.fitted_axle_files).toEqual({ front: tmp.file('fitted.front.json') });
      const written = JSON.parse(readFileSync(tmp.file('fitted.front.json'), 'utf8')).compliance.bushings;
      expect(written.lower_wishbone_inboard_rear.radial).toBeCloseTo(4000 + r.moves[RADIAL].delta, 9);
      expect(written.lower_wishbone_inboard_front).toEqual({ radial: 8000, axial: 1600 });
      // the written vehicle, read and solved again, has the roll gradient wanted
      expect((await roll(out, '--parameter', RADIAL)).value).toBeCloseTo(wanted, 7);
    } finally { tmp.remove(); }
  }, 120_000);

  it('takes a bushed pickup as a number: its gradient against Richardson differences of the command on moved files; fits by it', async () => {
    const tmp = tempFolder();
    const PICKUP = 'front.lower_wishbone_inboard_front.z';
    try {
      const front = (dz: number) => readFileSync(join(REPO, 'examples/suspension/double_wishbone_axle_front.yaml'), 'utf8')
        .replace('lower_wishbone_inboard_front: { x: 250, y: 400, z: 200 }', `lower_wishbone_inboard_front: { x: 250, y: 400, z: ${200 + dz} }`)
        + BUSHINGS;
      writeFileSync(tmp.file('multi_link_axle_rear.yaml'), readFileSync(join(REPO, 'examples/suspension/multi_link_axle_rear.yaml'), 'utf8'));
      const sedan = readFileSync(join(REPO, 'examples/vehicles/sedan.vehicle.yaml'), 'utf8').replaceAll('../suspension/', '');
      const car = (dz: number) => {
        const name = `front_${String(dz).replace(/[-.]/g, '_')}.yaml`;
        writeFileSync(tmp.file(name), front(dz));
        writeFileSync(tmp.file(`sedan_${name}`), sedan.replace('front: double_wishbone_axle_front.yaml', `front: ${name}`));
        return tmp.file(`sedan_${name}`);
      };
      const vehicle = car(0);
      const r0 = await roll(vehicle, '--parameter', PICKUP);
      const h = 0.05, at = async (d: number) => (await roll(car(d), '--parameter', 'body.mass')).value;
      const [p1, m1, p2, m2] = [await at(h), await at(-h), await at(2 * h), await at(-2 * h)];
      const fd = (4 * (p1 - m1) / (2 * h) - (p2 - m2) / (4 * h)) / 3;
      expect(Math.abs(r0.gradient[PICKUP] - fd), `${r0.gradient[PICKUP]} vs ${fd}`).toBeLessThan(1e-6 * Math.abs(fd));
      const wanted = Number((r0.value - 0.0005).toFixed(6));
      const targets = tmp.file('targets.yaml');
      writeFileSync(targets, `move:\n  ${PICKUP}: [-10, 10]\ntargets:\n  - { metric: vehicle.roll_gradient, value: ${wanted} }\n`);
      const out = tmp.file('fitted.json');
      const run = await runMain(['fit', vehicle, '--targets', targets, '--out', out]);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(JSON.parse(run.stdout).status).toBe('converged');
      expect((await roll(out, '--parameter', 'body.mass')).value).toBeCloseTo(wanted, 7);
    } finally { tmp.remove(); }
  }, 240_000);
});
