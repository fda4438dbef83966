/**
 * A geometry section keyed by a name that is no body of the suspension (`tire:` for
 * `tyre:`) is refused naming the document, as the section's other errors are
 * (`"corner.yaml": geometry.tyre[0].units: …`); it named `geometry.tire` alone.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

describe('clearance on a geometry section with a misspelled body', () => {
  it('names the file, the key and the bodies there are', async () => {
    mkdirSync(folder.file('stl'), { recursive: true });
    for (const n of ['upright', 'lower_wishbone', 'damper', 'upper_wishbone', 'tyre', 'wheelhouse_liner']) copyFileSync(join(REPO, `examples/cad/stl/${n}.stl`), folder.file(`stl/${n}.stl`));
    const text = readFileSync(join(REPO, 'examples/cad/double_wishbone_stl.yaml'), 'utf8');
    const corner = folder.file('corner.yaml');
    writeFileSync(corner, text.replace('  tyre: [{ file: stl/tyre.stl }]', '  tire: [{ file: stl/tyre.stl }]'));
    const run = await runMain(['clearance', corner, '--bump', '0:0:1']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^kinemate: "${corner.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": geometry\\.tire: no body "tire" in this suspension; bodies: .*\\btyre\\b.*\\n$`));
  });
});
