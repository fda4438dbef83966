/**
 * No import cycle in the viewer (issue 26): a panel depends on the small interface it uses
 * (its `*Host`), not on the app that owns it. The cycles, type imports included, among
 * viewer/src's own files (the library behind src/index.ts has its own check), from the import
 * graph test/architecture/imports.ts reads; the check is first run on a pair of files that
 * import each other's types, so it cannot pass by finding nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from '../architecture/imports';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('viewer import cycles', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'kinemate-cycles-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('a cycle made of type imports alone is found', () => {
    writeFileSync(join(fixture, 'app.ts'), "import type { PanelHost } from './panel';\nexport class App { host?: PanelHost }\n");
    writeFileSync(join(fixture, 'panel.ts'), "import type { App } from './app';\nexport interface PanelHost { app: App }\n");
    writeFileSync(join(fixture, 'leaf.ts'), "import type { App } from './app';\nexport const leaf = (a: App) => a;\n");
    expect(importCycles(importGraph(fixture, ['.']))).toEqual([['app.ts', 'panel.ts']]);
  });

  it('viewer/src has none, and the graph reads it (its workers, type imports included)', () => {
    // its own files only: what it imports from elsewhere is another layer's
    const graph = importGraph(REPO, ['viewer/src'], { within: 'viewer/src' });
    expect(Object.keys(graph).length).toBeGreaterThan(50);
    expect(graph['viewer/src/vehicle-design.ts']).toContain('viewer/src/vehicle-design.worker.ts');
    expect(Object.values(graph).flat().every((f) => f.startsWith('viewer/src/'))).toBe(true);
    expect(importCycles(graph)).toEqual([]);
  });
});
