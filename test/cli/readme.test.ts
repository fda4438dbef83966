/**
 * Issue 16, item 10: what the README tells a new user is true. On main it said both
 * slider-cranks are "slider limited" (only the offset one is), its first command wrote
 * four-bar.kinemate.json into the repository root, and it did not say how to run a script
 * of one's own outside the repository (a `.ts` there fails on top-level await).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, spawnIn, tempFolder } from './helpers.ts';

/** What a new user reads: the README and the pages in docs/ it links to (the README is short; the detail moved there). */
const README = [join(REPO, 'README.md'), ...readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(REPO, 'docs', name))]
  .map((file) => readFileSync(file, 'utf8')).join('\n');
let folder: ReturnType<typeof tempFolder>;
beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

describe('the README', () => {
  it('calls a slider limited only where its file limits it', () => {
    expect(readFileSync(join(REPO, 'examples/slider-crank.kinemate.json'), 'utf8')).not.toMatch(/"limits"/);
    expect(readFileSync(join(REPO, 'examples/offset-slider-crank.kinemate.json'), 'utf8')).toMatch(/"slide": \[2, 3\.9\]/);
    const row = README.split('\n').find((line) => line.startsWith('| `slider-crank.kinemate.json`'));
    expect(row).toBeDefined();
    expect(row).not.toMatch(/slider limited/); // it read as both
    expect(row).toMatch(/the offset one's slider is limited to \[2, 3\.9\]/);
  });

  it('writes no file into the repository in its commands (every kinemate and library-script command reads examples/ or writes to the temp folder)', () => {
    const commands = README.split('\n').filter((line) => /^npx (?:kinemate|tsx examples\/library-script\.ts)/.test(line.trim()));
    expect(commands.length).toBeGreaterThan(3);
    for (const line of commands) expect(line, line).not.toMatch(/library-script\.ts\s+\S+\.kinemate\.json|kinemate \w+\s+four-bar\.kinemate\.json/);
  });

  it('says how to run a script outside the repository, and that way works', async () => {
    expect(README).toMatch(/name it `\*\.mts`/);
    const script = join(folder.dir, 'my-script.mts');
    writeFileSync(script, `import { buildModel, loadAssemblyFile, solveModel } from ${JSON.stringify(join(REPO, 'src/index.ts'))};\n` +
      `const doc = await loadAssemblyFile(${JSON.stringify(join(REPO, 'examples/four-bar.kinemate.json'))});\n` +
      `console.log(solveModel(buildModel(doc)).status);\n`);
    const run = await spawnIn(process.execPath, [join(REPO, 'node_modules/tsx/dist/cli.mjs'), script], { cwd: folder.dir });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('solved');
  }, 30_000);
});
