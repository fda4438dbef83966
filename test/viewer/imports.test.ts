/**
 * The viewer is a client of the library's public API (issue 11): nothing under viewer/ (the
 * page, its workers, the browser harness) imports the kernel or the mates directly, and the
 * page's modules reach src/ only through its public entries (issue 26): src/index.ts, and
 * src/pictures/index.ts (the package's `kinemate/pictures`, loaded on first use). A file that
 * does otherwise fails here, named with the import; the scan itself is checked on a sample
 * so it cannot pass by reading nothing.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VIEWER = join(ROOT, 'viewer');
const VIEWER_SRC = join(ROOT, 'viewer/src');

/** Every module specifier of a TypeScript source: static imports and re-exports, dynamic imports, workers' `new URL(…)`. */
export function specifiers(source: string): string[] {
  const out: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /new\s+URL\(\s*['"]([^'"]+)['"]/g];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) out.push(m[1]);
  return out;
}

/** Whether a specifier of a file in `dir` reaches into kernel/ or mates/ of the repository. */
function reachesInternals(dir: string, specifier: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = relative(ROOT, join(dir, specifier)).split('\\').join('/');
  return /^(kernel|mates)(\/|$)/.test(target);
}

/** The public entries of the library a page may import (the package's `.` and `./pictures`). */
const PUBLIC_ENTRIES = new Set(['src/index.ts', 'src/pictures/index.ts']);

/** Whether a specifier of a file in `dir` reaches into src/ other than through a public entry. */
function bypassesIndex(dir: string, specifier: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = relative(ROOT, join(dir, specifier)).split('\\').join('/');
  if (!/^src(\/|$)/.test(target)) return false;
  const file = /\.ts$/.test(target) ? target : target === 'src' || target.endsWith('/index') ? `${target.replace(/\/index$/, '')}/index.ts` : `${target}.ts`;
  return !PUBLIC_ENTRIES.has(file);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|tsx|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('viewer imports', () => {
  it('the scan finds kernel/ and mates/ imports in every form, and only those', () => {
    const sample = [
      "import * as P from '../../kernel/pose';",
      "import type { X } from '../../mates/catalogue.ts';",
      "export { y } from '../../kernel/solver';",
      "const m = await import('../../mates/index');",
      "import '../../kernel/side-effect';",
      "import { LiveEngine } from '../../src/live';",
      "import { quat } from 'gl-matrix';",
    ].join('\n');
    const found = specifiers(sample).filter((s) => reachesInternals(VIEWER_SRC, s));
    expect(found).toEqual(['../../kernel/pose', '../../mates/catalogue.ts', '../../kernel/solver', '../../kernel/side-effect', '../../mates/index']);
  });

  it('nothing under viewer/ imports kernel/ or mates/: only the public API of src/', () => {
    const files = sources(VIEWER);
    expect(files.length).toBeGreaterThan(5);
    // the page's modules and workers, and the browser harness, are all read
    for (const f of ['viewer/src/app.ts', 'viewer/src/solver-client.ts', 'viewer/src/solver.worker.ts', 'viewer/harness/browser.ts']) expect(files).toContain(join(ROOT, f));
    const offending: string[] = [];
    for (const file of files) {
      for (const s of specifiers(readFileSync(file, 'utf8'))) {
        if (reachesInternals(join(file, '..'), s)) offending.push(`${relative(ROOT, file)}: ${s}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('the scan tells the public entries from every deep import', () => {
    const sample = [
      "import { LiveModel } from '../../src/index.ts';",
      "import type { Chart } from '../../src/pictures/index';",
      "const p = () => import('../../src/pictures/index');",
      "import { History } from '../../src';",
      "import { EditRefused } from '../../src/reactive';",
      "import type { AssemblyDoc } from '../../src/assembly/types';",
      "import { compileDocument } from '../../src/live/index.ts';",
      "import { quat } from 'gl-matrix';",
      "import raw from '../../examples/pendulum.kinemate.json?raw';",
    ].join('\n');
    const found = specifiers(sample).filter((s) => bypassesIndex(VIEWER_SRC, s));
    expect(found).toEqual(['../../src/reactive', '../../src/assembly/types', '../../src/live/index.ts']);
  });

  it("viewer/src reaches src/ only through src/index.ts (and the pictures entry)", () => {
    const files = sources(VIEWER_SRC);
    expect(files).toContain(join(ROOT, 'viewer/src/app.ts'));
    const offending: string[] = [];
    for (const file of files) {
      for (const s of specifiers(readFileSync(file, 'utf8'))) {
        if (bypassesIndex(join(file, '..'), s)) offending.push(`${relative(ROOT, file)}: ${s}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
