/**
 * No command writes over a file it reads — the files a document names included. Before
 * this, `vehicle sedan_mf.vehicle.yaml --static --out ../tyres/x.tir` replaced the car's
 * Magic Formula tyre file with its own JSON, and `envelope` / `clearance --out stl/tyre.stl`
 * replaced the mesh they had just read (only the vehicle, axle and geometry files were
 * checked). Each refuses in one line before any work, the file left byte for byte.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
/** Copies an example to the same relative path under the temporary folder (documents name their files relatively). */
const copy = (from: string): string => {
  const path = folder.file(from);
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(join(REPO, from), path);
  return path;
};

beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

/** Exit 1, one line naming the output as the `what` file it reads, nothing on stdout, the file untouched. */
async function refused(args: string[], input: string, what: string): Promise<void> {
  const before = readFileSync(input);
  const run = await runMain(args);
  expect(run.stderr).toMatch(new RegExp(`^kinemate: [a-z]+: --out ".+" is the ${what} file it reads: give another output file\\n$`));
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(readFileSync(input).equals(before)).toBe(true);
}

describe('a command does not write over a file its document names', () => {
  it('vehicle, sensitivity and simulate on a vehicle file: --out its .tir tyre file', async () => {
    const vehicle = copy('examples/vehicles/sedan_mf.vehicle.yaml');
    copy('examples/suspension/double_wishbone_axle_front.yaml');
    copy('examples/suspension/multi_link_axle_rear.yaml');
    const tir = copy('examples/tyres/pacejka_205_60R15.tir');
    await refused(['vehicle', vehicle, '--static', '--out', tir], tir, 'front tyre');
    await refused(['sensitivity', vehicle, '--metric', 'vehicle.pitch', '--out', tir], tir, 'front tyre');
    await refused(['simulate', vehicle, '--duration', '0.01', '--step', '0.001', '--out', tir], tir, 'front tyre');
  });

  it('envelope and clearance: --out a mesh the geometry section names', async () => {
    const geometry = copy('examples/cad/double_wishbone_stl.yaml');
    for (const n of ['upright', 'lower_wishbone', 'damper', 'upper_wishbone', 'tyre', 'wheelhouse_liner']) copy(`examples/cad/stl/${n}.stl`);
    const tyre = folder.file('examples/cad/stl/tyre.stl');
    await refused(['envelope', geometry, '--grid', 'bump=0:0:1,steer=0:0:1', '--out', tyre], tyre, '"tyre" geometry');
    await refused(['clearance', geometry, '--bump', '0:0:1', '--out', tyre], tyre, '"tyre" geometry');
  });
});
