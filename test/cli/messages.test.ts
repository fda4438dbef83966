/**
 * Issue 27 item 12, the messages: on main an empty JSON file's error named no file
 * (`$: invalid JSON at line 1, column 1`), binary data on standard input got a parse error
 * quoting it where a binary file gets one plain line, YAML `.nan` in a dynamics section
 * said "got null", and `drive --steps 1e9` did not name the maximum.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

/** Exit 1, nothing on stdout, exactly this one line on stderr. */
async function saysOneLine(args: string[], line: string, options: { stdin?: string } = {}): Promise<void> {
  const run = await runMain(args, options);
  expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 1, stdout: '', stderr: `kinemate: ${line}\n` });
}

describe('messages name the file and the problem', () => {
  it('an empty (or blank) file is named, in every command that reads one', async () => {
    const json = folder.file('empty.kinemate.json');
    writeFileSync(json, '');
    await saysOneLine(['solve', json], `model file "${json}": empty (no JSON in it)`);
    const yaml = folder.file('blank.yaml');
    writeFileSync(yaml, '\n  \n');
    await saysOneLine(['sweep', yaml], `geometry file "${yaml}": empty (no YAML or JSON in it)`);
    await saysOneLine(['sweep', join(REPO, 'examples/suspension/double_wishbone.yaml'), '--sweep', yaml], `sweep file "${yaml}": empty (no YAML or JSON in it)`);
    await saysOneLine(['dof', '-'], 'model file "-" (standard input): empty (no JSON in it)', { stdin: '' });
  });

  it('binary data on standard input reads as a binary file does', async () => {
    const binary = String.fromCharCode(...Array.from({ length: 4000 }, (_, i) => (i * 37 + (i >> 8)) & 0xff));
    await saysOneLine(['solve', '-'], 'model file "-" (standard input): not a text JSON file (it holds binary data)', { stdin: binary });
    // as the file itself would (its bytes decoded the way standard input is)
    const file = folder.file('program.json');
    writeFileSync(file, Buffer.from(binary, 'latin1'));
    await saysOneLine(['solve', file], `model file "${file}": not a text JSON file (it holds binary data)`);
  });

  it('YAML .nan and .inf say not finite, not "got null"', async () => {
    const source = readFileSync(join(REPO, 'examples/suspension/double_wishbone_dynamics.yaml'), 'utf8');
    const geometry = folder.file('nan-dynamics.yaml');
    writeFileSync(geometry, source.replace('tyre: { stiffness: 250 }', 'tyre: { stiffness: .nan }').replace('height: 40', 'height: -.inf'));
    await saysOneLine(['simulate', geometry, '--duration', '0.01', '--step', '0.001'],
      `"${geometry}": dynamics.tyre.stiffness: not a finite number (got NaN); dynamics.road.bump.height: not a finite number (got -Infinity)`);
    const targets = folder.file('nan-targets.yaml');
    writeFileSync(targets, 'move: { trackrod_inboard: { z: [-5, 5] } }\ntargets:\n  - { metric: camber, gain: [0, 25], value: .nan }\n');
    await saysOneLine(['fit', join(REPO, 'examples/suspension/double_wishbone.yaml'), '--targets', targets, '--out', folder.file('f.json')],
      `${targets}: targets[0].value: not a finite number (got NaN)`);
  });

  it('a count too large names the maximum however it is written', async () => {
    const model = join(REPO, 'examples/four-bar.kinemate.json');
    const drive = (steps: string) => ['drive', model, '--coordinate', 'jA.angle', '--from', '0', '--to', '1', '--steps', steps];
    await saysOneLine(drive('1e9'), '--steps: at most 100000 steps (100001 states), got 1e9; drive a shorter range, or fewer steps');
    await saysOneLine(drive('1000000000'), '--steps: at most 100000 steps (100001 states), got 1000000000; drive a shorter range, or fewer steps');
    await saysOneLine(drive('1e3'), '--steps: expected a whole number ≥ 1, got "1e3"');
    await saysOneLine(['plot', join(REPO, 'examples/suspension/double_wishbone.yaml'), '--metric', 'camber', '--out', folder.file('p.svg'), '--width', '2e4'], '--width: at most 10000 px, got 2e4');
  });
});
