/**
 * Issue 27 item 7: no command writes over a file it reads. On main
 * `sweep dw.yaml --format csv --out dw.yaml` replaced the geometry with its own CSV. Every
 * command with an output file and input files refuses, in one line, before any work: the
 * same path, a symbolic link to the input and a hard link to it alike; the input is left
 * byte for byte as it was.
 */
import { copyFileSync, linkSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
const copy = (from: string, name: string): string => {
  const path = folder.file(name);
  copyFileSync(join(REPO, from), path);
  return path;
};
const link = (target: string, name: string): string => {
  const path = folder.file(name);
  symlinkSync(target, path);
  return path;
};

beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

/** Runs the command and checks the refusal: exit 1, one line naming the output and what it reads, nothing on stdout, the input untouched. */
async function refused(args: string[], input: string, what: string): Promise<string> {
  const before = readFileSync(input);
  const run = await runMain(args);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(new RegExp(`^kinemate: [a-z]+: --[a-z]+ ".+" is the ${what} file it reads.*: give another output file\\n$`));
  expect(readFileSync(input).equals(before)).toBe(true);
  return run.stderr;
}

describe('a command does not write over a file it reads', () => {
  it('sweep: --out the geometry (the issue\'s command), a symlink and a hard link to it, or its sweep file', async () => {
    const geometry = copy('examples/suspension/double_wishbone.yaml', 'dw.yaml');
    const line = await refused(['sweep', geometry, '--format', 'csv', '--out', geometry], geometry, 'geometry');
    expect(line).toBe(`kinemate: sweep: --out "${geometry}" is the geometry file it reads: give another output file\n`);
    const viaLink = link(geometry, 'dw-link.yaml');
    expect(await refused(['sweep', geometry, '--out', viaLink], geometry, 'geometry')).toContain(`("${geometry}")`);
    const hard = folder.file('dw-hard.yaml');
    linkSync(geometry, hard);
    await refused(['sweep', geometry, '--out', hard], geometry, 'geometry');
    const sweep = copy('examples/suspension/bump.yaml', 'bump.yaml');
    await refused(['sweep', geometry, '--sweep', sweep, '--out', sweep], sweep, 'sweep');
    // a different file is written as before
    const out = folder.file('out.csv');
    const run = await runMain(['sweep', geometry, '--bump', '-10:10:3', '--format', 'csv', '--out', out]);
    expect(run.code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(/^sweep,index,status,/);
  });

  it('sensitivity: --out the geometry or its targets file', async () => {
    const geometry = copy('examples/suspension/double_wishbone.yaml', 'sens.yaml');
    await refused(['sensitivity', geometry, '--metric', 'camber', '--out', geometry], geometry, 'geometry');
    const targets = copy('examples/sensitivity/fit_camber_gain.yaml', 'sens-targets.yaml');
    await refused(['sensitivity', geometry, '--targets', targets, '--out', targets], targets, 'targets');
  });

  it('fit: --out the geometry or the targets, and the default FITTED when it is the geometry itself', async () => {
    const geometry = copy('examples/suspension/double_wishbone.yaml', 'fit.yaml');
    const targets = copy('examples/sensitivity/fit_camber_gain.yaml', 'fit-targets.yaml');
    await refused(['fit', geometry, '--targets', targets, '--out', geometry], geometry, 'geometry');
    await refused(['fit', geometry, '--targets', targets, '--out', link(targets, 'fit-link.json')], targets, 'targets');
    // the default FITTED (GEOMETRY less its extension, plus .fitted.json) a link to the geometry
    const fitted = copy('examples/suspension/double_wishbone.yaml', 'g.fitted.json');
    const defaultOut = link(fitted, 'g.fitted.fitted.json');
    await refused(['fit', fitted, '--targets', targets], fitted, 'geometry');
    expect(readFileSync(defaultOut, 'utf8')).toBe(readFileSync(join(REPO, 'examples/suspension/double_wishbone.yaml'), 'utf8'));
  });

  it('batch: --out the geometry or the DOE file', async () => {
    const geometry = copy('examples/suspension/double_wishbone.yaml', 'batch.yaml');
    const doe = copy('examples/sensitivity/doe_upper_arm.yaml', 'doe.yaml');
    await refused(['batch', geometry, '--doe', doe, '--out', geometry], geometry, 'geometry');
    await refused(['batch', geometry, '--doe', doe, '--out', doe], doe, 'DOE');
    await refused(['batch', geometry, '--doe', doe, '--queue', 'redis://127.0.0.1:1', '--out', geometry], geometry, 'geometry');
  });

  it('simulate: --out the model', async () => {
    const model = copy('examples/pendulum.kinemate.json', 'pendulum.kinemate.json');
    await refused(['simulate', model, '--duration', '0.01', '--step', '0.001', '--out', model], model, 'model');
    await refused(['simulate', model, '--duration', '0.01', '--step', '0.001', '--gradient', 'bob.mass', '--result', 'bob.position.z', '--out', link(model, 'sim-link.json')], model, 'model');
  });

  it('plot, report and export: an output name that links to an input', async () => {
    const geometry = copy('examples/suspension/double_wishbone.yaml', 'pic.yaml');
    const baseline = copy('examples/suspension/double_wishbone.yaml', 'pic-base.yaml');
    await refused(['plot', geometry, '--metric', 'camber', '--out', link(geometry, 'camber.svg')], geometry, 'geometry');
    await refused(['plot', geometry, '--metric', 'camber', '--baseline', baseline, '--out', link(baseline, 'base.png')], baseline, 'baseline');
    await refused(['report', geometry, '--out', link(geometry, 'report.html')], geometry, 'geometry');
    const sweep = copy('examples/suspension/bump.yaml', 'pic-bump.yaml');
    await refused(['export', geometry, '--sweep', sweep, '--gltf', link(sweep, 'bump.glb')], sweep, 'sweep');
    await refused(['export', geometry, '--gltf', link(geometry, 'dw.glb')], geometry, 'input');
  });
});
