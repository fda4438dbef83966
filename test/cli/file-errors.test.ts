/**
 * Issue 16, items 4 and 8: binary input is refused in one line with no byte of it echoed;
 * file errors read the same in every command and name the file; a YAML geometry given to
 * solve says that sweep reads it. On main a binary file given to sweep gave a 135 KB line
 * of parser messages with a raw 0x7f in it, sweep said "cannot read (ENOENT)" where solve
 * said "no such file or directory", and YAML syntax errors did not name the file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGeometry } from '../../src/suspension/files/index.ts';
import { REPO, runMain, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
let binary: string;
const GEOMETRY = join(REPO, 'examples/suspension/double_wishbone.yaml');

beforeAll(() => {
  folder = tempFolder();
  // bytes of every value, a 0x7f among them, repeated: what a compiled program looks like
  const bytes = new Uint8Array(40_000).map((_, i) => (i * 37 + (i >> 8)) & 0xff);
  binary = folder.file('program.yaml');
  writeFileSync(binary, bytes);
});
afterAll(() => folder.remove());

function oneLine(run: { code: number | null; stdout: string; stderr: string }): string {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n')).toBe(true);
  const line = run.stderr.slice(0, -1);
  expect(line).not.toContain('\n');
  // eslint-disable-next-line no-control-regex
  expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  return line;
}

describe('binary input', () => {
  it('sweep, solve and --sweep refuse a binary file in one short line', async () => {
    expect(oneLine(await runMain(['sweep', binary]))).toBe(`kinemate: geometry file "${binary}": not a text YAML or JSON file (it holds binary data)`);
    expect(oneLine(await runMain(['solve', binary]))).toBe(`kinemate: model file "${binary}": not a text JSON file (it holds binary data)`);
    expect(oneLine(await runMain(['sweep', GEOMETRY, '--sweep', binary]))).toBe(`kinemate: sweep file "${binary}": not a text YAML or JSON file (it holds binary data)`);
  });

  it('the library refuses binary text too, in one problem', () => {
    const text = new TextDecoder().decode(new Uint8Array(2000).map((_, i) => (i * 37) & 0xff));
    expect(() => parseGeometry(text, 'x.yaml')).toThrow(/^\(root\): not a text YAML or JSON file \(it holds binary data\)$/);
  });

  it('a text file with hundreds of syntax errors gives one capped line', async () => {
    const file = folder.file('broken.yaml');
    writeFileSync(file, 'a: [\n'.repeat(2000) + '\x7f: }\n');
    const line = oneLine(await runMain(['sweep', file]));
    expect(line.length).toBeLessThan(1100);
    expect(line.startsWith(`kinemate: "${file}": line `)).toBe(true);
  });
});

describe('one wording for file errors, the file always named', () => {
  it('a missing file and a directory read the same in solve and sweep', async () => {
    const missing = folder.file('missing.yaml');
    expect(oneLine(await runMain(['solve', missing]))).toBe(`kinemate: cannot read model file "${missing}": no such file or directory`);
    expect(oneLine(await runMain(['sweep', missing]))).toBe(`kinemate: cannot read geometry file "${missing}": no such file or directory`);
    expect(oneLine(await runMain(['sweep', GEOMETRY, '--sweep', missing]))).toBe(`kinemate: cannot read sweep file "${missing}": no such file or directory`);
    expect(oneLine(await runMain(['sweep', folder.dir]))).toBe(`kinemate: cannot read geometry file "${folder.dir}": it is a directory`);
  });

  it('a YAML syntax error names the file', async () => {
    const file = folder.file('bad.yaml');
    writeFileSync(file, 'a: 1\n  b: [\n');
    expect(oneLine(await runMain(['sweep', file]))).toMatch(new RegExp(`^kinemate: "${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}": line 1, column \\d+: `));
  });

  it('solve on a YAML geometry says that sweep reads geometry files', async () => {
    expect(oneLine(await runMain(['solve', GEOMETRY]))).toMatch(/^kinemate: model file ".*double_wishbone\.yaml": not an assembly \(\*\.kinemate\.json\): it reads as YAML; a suspension geometry file is read by kinemate sweep/);
  });
});
