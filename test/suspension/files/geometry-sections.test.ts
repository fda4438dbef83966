/**
 * Issue 27 item 5: a geometry file's unknown top-level keys (`complaince:`, `foo:`, a
 * misspelt section) were accepted in silence. Each is refused with its path and, for a
 * near miss, the nearest known name, as hardpoint typos are; a section of the other
 * scope's layout says where it goes. Every example still loads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import type { SuspensionFileError } from '../../../src/suspension/files/errors.ts';
import { REPO, runMain, tempFolder } from '../../cli/helpers.ts';

const CORNER = readFileSync(join(REPO, 'examples/suspension/double_wishbone.yaml'), 'utf8');
const AXLE = readFileSync(join(REPO, 'examples/suspension/double_wishbone_axle.yaml'), 'utf8');

function problemsOf(text: string): string[] {
  try {
    parseGeometry(text, 'g.yaml');
  } catch (error) {
    return (error as SuspensionFileError).problems.map((p) => `${p.path}: ${p.message}`);
  }
  return [];
}

describe('unknown top-level keys of a geometry file', () => {
  it('compliance, foo and a misspelt section are each refused, with the path; a near miss names the nearest section', () => {
    const problems = problemsOf(`${CORNER}\ncompliance: { bushngs: {} }\nfoo: 1\nconfg: { wheelbase: 2500 }\n`);
    expect(problems).toHaveLength(3);
    // compliance is read since issue 28: a bad field inside it is refused by its own path
    expect(problems[0]).toMatch(/^foo: unknown section of a corner file/);
    expect(problems[1]).toBe('confg: unknown section (did you mean config?): refused rather than ignored');
    expect(problems[2]).toBe('compliance.bushngs: unknown field (did you mean bushings?) (expected bushings, links): refused rather than ignored');
    expect(problemsOf(`${AXLE}\naxle_confg: {}\n`)).toEqual(['axle_confg: unknown section (did you mean axle_config?): refused rather than ignored']);
  });

  it('a section of the other layout says where it goes', () => {
    expect(problemsOf(`${AXLE}\nspring: { type: none }\nside: left\n`)).toEqual([
      'spring: an axle file gives spring under axle_config',
      'side: an axle file has both sides: hardpoints.left (and right)',
    ]);
    expect(problemsOf(`${CORNER}\nvehicle_config: { wheelbase: 2500 }\n`)).toEqual([
      'vehicle_config: a corner file gives the vehicle\'s settings under config (vehicle_config is an axle file\'s, scope: axle)',
    ]);
  });

  it('the command says it in one line naming the file', async () => {
    const folder = tempFolder();
    try {
      const file = folder.file('dw.yaml');
      (await import('node:fs')).writeFileSync(file, `${CORNER}\ncomplaince: {}\n`);
      const run = await runMain(['sweep', file]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^kinemate: "${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}": complaince: unknown section \\(did you mean compliance\\?\\)`));
    } finally {
      folder.remove();
    }
  });

  it('the reference format\'s name and version labels are kept; every example geometry still loads', () => {
    expect(problemsOf(`name: "composed T-bar axle"\nversion: "0.0.1"\n${AXLE}`)).toEqual([]);
    expect(problemsOf(`name: [1]\n${CORNER}`)).toEqual(['name: expected a name (text), got a list']);
    const folder = join(REPO, 'examples/suspension');
    const geometries = readdirSync(folder).filter((f) => f.endsWith('.yaml') && /^hardpoints:/m.test(readFileSync(join(folder, f), 'utf8')));
    expect(geometries.length).toBeGreaterThan(15);
    for (const name of geometries) expect([name, problemsOf(readFileSync(join(folder, name), 'utf8'))]).toEqual([name, []]);
  });
});
