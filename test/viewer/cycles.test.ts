/**
 * No import cycle in the viewer (issue 26): a panel depends on the small interface it uses
 * (its `*Host`), not on the app that owns it. madge finds the cycles, type imports included,
 * among viewer/src's own files (the library behind src/index.ts has its own check); the
 * check is first run on a pair of files that import each other's types, so it cannot pass
 * by finding nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// madge ships no types: test/architecture/madge.d.ts declares the part used
import madge from 'madge';

const VIEWER_SRC = fileURLToPath(new URL('../../viewer/src', import.meta.url));

/** The import cycles among the TypeScript files of `dir` (its own files only), each as a list of paths relative to it. */
async function cyclesIn(dir: string): Promise<string[][]> {
  const result = await madge(dir, {
    fileExtensions: ['ts'],
    // stay inside the folder: what it imports from elsewhere is another layer's
    dependencyFilter: (path: string) => path.startsWith(dir),
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  return result.circular() as string[][];
}

describe('viewer import cycles', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'kinemate-cycles-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('a cycle made of type imports alone is found', async () => {
    writeFileSync(join(fixture, 'app.ts'), "import type { PanelHost } from './panel';\nexport class App { host?: PanelHost }\n");
    writeFileSync(join(fixture, 'panel.ts'), "import type { App } from './app';\nexport interface PanelHost { app: App }\n");
    writeFileSync(join(fixture, 'leaf.ts'), "import type { App } from './app';\nexport const leaf = (a: App) => a;\n");
    expect(await cyclesIn(fixture)).toEqual([['app.ts', 'panel.ts']]);
  });

  it('viewer/src has none', async () => {
    expect(await cyclesIn(VIEWER_SRC)).toEqual([]);
  });
});
