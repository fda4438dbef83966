/**
 * The import graph of the product's sources, for the layer and cycle checks (issue 26). Each
 * file's imports are read by the TypeScript compiler's own scanner (`ts.preProcessFile`: every
 * `import`, `import type`, `export … from`, `import()` and `import('…')` type, none in a comment
 * or a string), which tokenises without building a syntax tree: the whole tree in ~0.3 s of CPU
 * where madge's parse took ~5 s. Relative specifiers are resolved as the bundler resolution of
 * tsconfig.json does for this tree (the path, `.ts` added, `.js` read as `.ts`, a folder's
 * `index.ts`); package imports and assets (CSS, YAML, JSON) are left out, as madge
 * leaves them out.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './sizes';

/** Repository-relative path ('/') → the repository-relative files it imports, sorted. */
export type ImportGraph = Record<string, string[]>;

/** The file a relative specifier of `from` names, repository-relative, or null when none is there. */
function resolve(root: string, from: string, specifier: string): string | null {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), `${base}/index.ts`];
  for (const c of candidates) {
    if (!c.endsWith('.ts') || c.endsWith('.d.ts')) continue;
    const abs = join(root, c);
    if (existsSync(abs) && statSync(abs).isFile()) return c;
  }
  return null;
}

/**
 * `export * as name from '…'`, the one form the scanner passes over (TypeScript 5.9), read off
 * the text without its comments (a match in a string would only add an edge: stricter).
 */
const NAMESPACE_REEXPORT = /\bexport\s+(?:type\s+)?\*\s+as\s+[\w$]+\s+from\s+(['"])([^'"]+)\1/g;

/** A specifier of a file that is not TypeScript: an extension other than .ts or .js, a query after it. */
const ASSET = /\.(?!(?:ts|js)$)[A-Za-z]+(?:\?[\w=&]*)?$/;

/** The relative imports a source text makes, as written. */
export function importsOf(text: string): string[] {
  const found = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(NAMESPACE_REEXPORT)) found.push(m[2]);
  return found.filter((s) => s.startsWith('.'));
}

/**
 * The graph of every .ts file under `dirs` and of every file they reach (followed out of the
 * folders), each with the files it imports. `within`: keep only imports of files under that
 * folder (and follow nothing out of it).
 */
export function importGraph(root: string, dirs: readonly string[], options: { within?: string } = {}): ImportGraph {
  const graph: ImportGraph = {};
  const todo = sourceFiles(root, dirs);
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (file in graph) continue;
    const deps = new Set<string>();
    for (const spec of importsOf(readFileSync(join(root, file), 'utf8'))) {
      const to = resolve(root, file, spec);
      // a stylesheet, a YAML file as text, JSON: not source, as madge (its extensions 'ts') leaves them
      if (to === null && ASSET.test(spec)) continue;
      if (to === null) throw new Error(`${file}: import '${spec}' names no .ts file (${join(dirname(file), spec)})`);
      if (options.within !== undefined && !to.startsWith(`${options.within}/`)) continue;
      deps.add(to);
      if (!(to in graph)) todo.push(to);
    }
    graph[file] = [...deps].sort();
  }
  return graph;
}

/**
 * The import cycles: each group of files that reach one another through their imports (a
 * strongly connected component of two or more, or a file importing itself), its files sorted;
 * the groups sorted by their first file. Tarjan's algorithm, iterative.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>();
  const stack: string[] = [], out: string[][] = [];
  let next = 0;
  for (const start of Object.keys(graph).sort()) {
    if (index.has(start)) continue;
    const frames: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next); low.set(start, next++); stack.push(start); onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const deps = graph[frame.node] ?? [];
      if (frame.i < deps.length) {
        const to = deps[frame.i++];
        if (!index.has(to)) {
          index.set(to, next); low.set(to, next++); stack.push(to); onStack.add(to);
          frames.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do { member = stack.pop()!; onStack.delete(member); group.push(member); } while (member !== frame.node);
      if (group.length > 1 || (graph[frame.node] ?? []).includes(frame.node)) out.push(group.sort());
    }
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
