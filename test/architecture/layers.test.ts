/**
 * Every import points down the layer order of docs/architecture.md (issue 26): kernel →
 * mates → assembly (and reactive) → model → mechanics → gradients → suspension → pictures →
 * live → cli and the public API,
 * and no file imports itself back through others. Type-only imports count: a cycle of types
 * is still a knot a reader must untie. The graph is madge's (the same as
 * `npx madge --circular --extensions ts kernel mates src`), and the checks are first run on
 * small graphs made to break them, so they cannot pass by reading nothing.
 */
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Lowest first; a file may import its own layer and those below it. */
const LAYERS: readonly (readonly string[])[] = [
  ['kernel'],
  ['mates'],
  ['src/assembly', 'src/reactive'],
  ['src/model'],
  ['src/mechanics'],
  ['src/gradients'],
  ['src/suspension'],
  ['src/pictures'],
  ['src/live'],
  // the public API (src/index.ts) and the command it serves share the top: the command
  // reads the API, the API re-exports the command's file reading
  ['src/cli', 'src/index.ts'],
  // the demo, which reads an example
  ['src/main.ts', 'examples'],
];

/** The layer of a repository path, or -1 when it is in none. */
export function layerOf(path: string): number {
  return LAYERS.findIndex((roots) => roots.some((r) => path === r || path.startsWith(`${r}/`)));
}

/** Imports that point up the order, as `from → to`. */
export function upwardImports(graph: Record<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, deps] of Object.entries(graph)) {
    for (const to of deps) if (layerOf(to) > layerOf(from)) found.push(`${from} → ${to}`);
  }
  return found;
}

/** Madge's graph of kernel, mates and src, type imports included. */
async function importGraph(dirs: readonly string[]) {
  return madge(dirs.map((d) => `${ROOT}${d}`), {
    baseDir: ROOT,
    fileExtensions: ['ts'],
    tsConfig: `${ROOT}tsconfig.json`,
    detectiveOptions: { ts: { skipTypeImports: false, skipAsyncImports: false }, es6: { skipTypeImports: false } },
  });
}

describe('import layers', () => {
  let graph: Record<string, string[]>;
  let cycles: string[][];
  beforeAll(async () => {
    const result = await importGraph(['kernel', 'mates', 'src']);
    graph = result.obj();
    cycles = result.circular();
  }, 120_000);

  it('the checks find what they look for', () => {
    expect(layerOf('kernel/solver/solve.ts')).toBe(0);
    expect(layerOf('src/suspension/gradients/model.ts')).toBeGreaterThan(layerOf('src/gradients/run.ts'));
    expect(layerOf('src/mechanicsX/a.ts')).toBe(-1);
    expect(upwardImports({ 'src/mechanics/a.ts': ['src/suspension/b.ts', 'kernel/c.ts'], 'src/cli/d.ts': ['src/live/e.ts'] }))
      .toEqual(['src/mechanics/a.ts → src/suspension/b.ts']);
  });

  it('reads the whole tree, type imports included, and places every file in a layer', () => {
    expect(Object.keys(graph).length).toBeGreaterThan(150);
    // a type-only import: `import type { System } from '../../kernel/system'`
    expect(graph['src/mechanics/build.ts']).toContain('kernel/system.ts');
    expect(Object.keys(graph).filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles.map((c) => c.join(' → '))).toEqual([]);
  });

  it('has no import pointing up the layers', () => {
    expect(upwardImports(graph)).toEqual([]);
  });
});
