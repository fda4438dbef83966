/**
 * Issue 27 item 12: the files the README's example commands write into a clone
 * (`--out fitted.json`, `--out doe.csv`, kinemate fit's default GEOMETRY.fitted.json) were
 * not ignored by git, so trying the README left untracked files behind. Every output a
 * documented command writes inside the repository is ignored, unless it is a file the
 * repository keeps (the README's picture).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.ts';

/** Every `npx kinemate …` line of the README and docs/*.md (a line continued with \ joined). */
function documentedCommands(): string[] {
  const files = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  return files.flatMap((file) => readFileSync(join(REPO, file), 'utf8').replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.trim()).filter((line) => line.startsWith('npx kinemate '));
}

/** The files a command line writes: --out / --gltf, or fit's default beside its geometry. */
function outputsOf(line: string): string[] {
  const words = line.split('#')[0].trim().split(/\s+/);
  const named = words.flatMap((w, i) => (w === '--out' || w === '--gltf' ? [words[i + 1]] : []));
  if (words[2] === 'fit' && named.length === 0) named.push(`${words[3].replace(/\.(ya?ml|json)$/i, '')}.fitted.json`);
  // inside the repository, and not a placeholder (FILE, OUT.glb)
  return named.filter((path) => !path.startsWith('/') && !/^(FILE|OUT)\b/.test(path));
}

const git = (args: string[]) => spawnSync('git', args, { cwd: REPO, encoding: 'utf8' });
const inGit = git(['rev-parse', '--is-inside-work-tree']).stdout.trim() === 'true';

describe.skipIf(!inGit)('what the documented commands write is ignored by git', () => {
  it('fitted*.json, doe.csv, the CSVs and fit\'s default output', () => {
    const outputs = [...new Set(documentedCommands().flatMap(outputsOf))];
    expect(outputs).toEqual(expect.arrayContaining(['fitted.json', 'fitted_rc.json', 'fitted_axle.json', 'doe.csv']));
    const tracked = new Set(git(['ls-files', ...outputs]).stdout.split('\n').filter(Boolean));
    const loose = outputs.filter((path) => !tracked.has(path) && git(['check-ignore', '-q', path]).status !== 0);
    expect(loose).toEqual([]);
    // fit's default name, wherever the geometry is
    expect(git(['check-ignore', '-q', 'examples/suspension/double_wishbone.fitted.json']).status).toBe(0);
  });
});
