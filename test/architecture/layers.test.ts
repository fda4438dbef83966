/**
 * Every import points down the layer order of docs/architecture.md (issue 26): kernel →
 * mates → assembly (and reactive) → model → mechanics → gradients → suspension → pictures →
 * live → cli and the public API,
 * and no file imports itself back through others. Type-only imports count: a cycle of types
 * is still a knot a reader must untie. The graph is read by imports.ts (TypeScript's own
 * import scanner; the same graph `npx madge --extensions ts kernel mates src` draws, at a
 * tenth of the cost), and the checks are first run on small sources and graphs made to break
 * them, so they cannot pass by reading nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph, importsOf } from './imports';

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

describe('import layers', () => {
  let graph: Record<string, string[]>;
  let cycles: string[][];
  beforeAll(() => {
    graph = importGraph(ROOT, ['kernel', 'mates', 'src']);
    cycles = importCycles(graph);
  });

  it('the reader finds every form of import, and none in a comment or a string', () => {
    const text = [
      "import a from './a';", "import type { B } from './b.ts';", "import * as c from './c';", "import d, * as e from './d';",
      "export * from './e';", "export * as f from './f';", "export type * as g from './g';", "export { h } from './h';",
      "export type { I } from './i';", "import './j';", "const k = await import('./k');", "type L = import('./l').L;",
      "import m = require('./m');", "import n from 'some-package';",
      "// import x from './comment';", "/* export * as y from './block'; */", "const s = \"import z from './string'\";",
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(['./a', './b.ts', './c', './d', './e', './f', './g', './h', './i', './j', './k', './l', './m']);
  });

  it('the checks find what they look for', () => {
    // a cycle of two, a cycle of three beside a file outside it, a file importing itself
    expect(importCycles({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts'] })).toEqual([['a.ts', 'b.ts']]);
    expect(importCycles({ 'x.ts': ['y.ts', 'w.ts'], 'y.ts': ['z.ts'], 'z.ts': ['x.ts'], 'w.ts': ['y.ts'], 'v.ts': ['x.ts'] })).toEqual([['w.ts', 'x.ts', 'y.ts', 'z.ts']]);
    expect(importCycles({ 'self.ts': ['self.ts'], 'leaf.ts': [] })).toEqual([['self.ts']]);
    expect(importCycles({ 'p.ts': ['q.ts', 'r.ts'], 'q.ts': ['r.ts'], 'r.ts': [] })).toEqual([]);
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
    // a namespace re-export: `export * as vec3 from './vec3'`
    expect(graph['kernel/index.ts']).toContain('kernel/vec3.ts');
    expect(Object.keys(graph).filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles.map((c) => c.join(', '))).toEqual([]);
  });

  it('has no import pointing up the layers', () => {
    expect(upwardImports(graph)).toEqual([]);
  });
});
