/**
 * Which commands read a file as a vehicle file. `modes` and `simulate` told one by its name
 * alone (`*.vehicle.yaml`), while `vehicle`, `sensitivity`, `fit` and the viewer read any
 * file whose top level has `vehicle:`; a vehicle file named otherwise was "not an assembly"
 * to `modes` and "a corner file" with unknown sections to `simulate`. `statics` and
 * `equilibrium` once said a vehicle file was no assembly and pointed to `kinemate sweep`,
 * then refused it and pointed to `kinemate vehicle --static`; they now settle the car at
 * rest (test/cli/vehicle-statics.test.ts).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
const copy = (from: string, to = from): string => {
  const path = folder.file(to);
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(join(REPO, from), path);
  return path;
};

beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

describe('a vehicle file is told by its top-level vehicle: key, whatever its name', () => {
  it('simulate runs a vehicle file not named *.vehicle.yaml as the car over its road', async () => {
    copy('examples/suspension/double_wishbone_axle_front.yaml');
    copy('examples/suspension/multi_link_axle_rear.yaml');
    const car = copy('examples/vehicles/sedan_bump.vehicle.yaml', 'examples/vehicles/bump-car.yaml');
    const run = await runMain(['simulate', car, '--duration', '0.002', '--step', '0.001']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { delay: number; frames: { vehicle?: { corners: Record<string, unknown> } }[] };
    expect(typeof result.delay).toBe('number');
    expect(Object.keys(result.frames.at(-1)!.vehicle!.corners).sort()).toEqual(['front_left', 'front_right', 'rear_left', 'rear_right']);
  });

  it('statics and equilibrium read a vehicle file not named *.vehicle.yaml as the car at rest', async () => {
    copy('examples/suspension/double_wishbone_axle_front.yaml');
    copy('examples/suspension/multi_link_axle_rear.yaml');
    const car = copy('examples/vehicles/sedan.vehicle.yaml', 'examples/vehicles/car.yaml');
    for (const command of ['statics', 'equilibrium']) {
      const run = await runMain([command, car]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as { status: string; forces: Record<string, { force: number }> };
      expect(result.status).toBe('solved');
      expect(result.forces.front_left_tyre.force).toBeGreaterThan(0);
    }
  });
});
