/**
 * A vehicle file naming an axle or .tir file that is not there: one line naming the
 * vehicle file, the key, the reference as written and where it was looked for, in words
 * (it ended in Node's "ENOENT: no such file or directory, open '…'"). The same in every
 * command that reads a vehicle file (they had three copies of the opener).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => {
  folder = tempFolder();
  for (const f of ['examples/suspension/double_wishbone_axle_front.yaml', 'examples/suspension/multi_link_axle_rear.yaml']) {
    mkdirSync(dirname(folder.file(f)), { recursive: true });
    copyFileSync(join(REPO, f), folder.file(f));
  }
  mkdirSync(folder.file('examples/vehicles'), { recursive: true });
});
afterAll(() => folder.remove());

describe('a vehicle file naming a file that is not there', () => {
  it.each([
    ['vehicle', '--static'], ['modes'], ['sensitivity'],
  ])('%s: the axle file, said in words with where it was looked for', async (command, ...rest) => {
    const car = folder.file('examples/vehicles/car.vehicle.yaml');
    writeFileSync(car, readFileSync(join(REPO, 'examples/vehicles/sedan.vehicle.yaml'), 'utf8').replace('rear: ../suspension/multi_link_axle_rear.yaml', 'rear: ../suspension/nowhere.yaml'));
    const run = await runMain([command, car, ...rest]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`kinemate: "${car}": rear: cannot read "../suspension/nowhere.yaml": no such file or directory (${folder.file('examples/suspension/nowhere.yaml')})\n`);
  });

  it('a .tir file likewise, under its key', async () => {
    const car = folder.file('examples/vehicles/mf.vehicle.yaml');
    writeFileSync(car, readFileSync(join(REPO, 'examples/vehicles/sedan_mf.vehicle.yaml'), 'utf8').replaceAll('pacejka_205_60R15.tir', 'gone.tir'));
    const run = await runMain(['vehicle', car, '--static']);
    expect(run.code).toBe(1);
    const where = `cannot read "../tyres/gone.tir": no such file or directory (${folder.file('examples/tyres/gone.tir')})`;
    expect(run.stderr).toBe(`kinemate: "${car}": tyres.front.tir: ${where}; tyres.rear.tir: ${where}\n`);
  });
});
