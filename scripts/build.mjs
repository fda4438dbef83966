#!/usr/bin/env node
/**
 * `npm run build`: the installable package in dist/.
 *
 * The sources import each other with `.ts` (and some with no) extensions, which Node
 * cannot load, so the JavaScript is bundled by esbuild rather than emitted file by file:
 * ESM for Node 20, one file per entry point plus shared chunks (one copy of every class,
 * so `instanceof` holds across entries), runtime dependencies left as imports.
 * Declarations come from tsc (tsconfig.build.json, declarations only), with their relative
 * imports rewritten to the `.js` paths a Node ESM consumer resolves.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildCommand, commonOptions } from './build-command.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * The public entry points (the library, its pictures) share chunks. The command is one
 * CommonJS file (dist/cli.cjs) with V8's code cache beside it, and batch's worker an ES module
 * of its own: scripts/build-command.mjs builds those.
 */
const LIBRARY = { index: 'src/index.ts', pictures: 'src/pictures/index.ts' };

// dist/viewer is the viewer's build (vite): leave it, replace everything else.
for (const name of existsSync(dist) ? readdirSync(dist) : []) if (name !== 'viewer') rmSync(join(dist, name), { recursive: true, force: true });

const common = commonOptions(root, manifest);
await build({ ...common, entryPoints: LIBRARY, outdir: 'dist', chunkNames: 'chunks/[name]-[hash]' });
await buildCommand({ root, dist, bin: join(root, 'bin') });

const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
rewriteDeclarationImports(join(dist, 'types'));

/** `from './x.ts'`, `from './x'` and `import('./dir')` in .d.ts files become `./x.js` / `./dir/index.js`. */
function rewriteDeclarationImports(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) { rewriteDeclarationImports(path); continue; }
    if (!name.endsWith('.d.ts')) continue;
    const text = readFileSync(path, 'utf8');
    const fixed = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g, (_, head, quote, spec) => `${head}${quote}${jsSpecifier(dirname(path), spec)}${quote}`);
    if (fixed !== text) writeFileSync(path, fixed);
  }
}

function jsSpecifier(from, spec) {
  const bare = spec.replace(/\.(ts|js)$/, '');
  if (existsSync(join(from, `${bare}.d.ts`))) return `${bare}.js`;
  if (existsSync(join(from, bare, 'index.d.ts'))) return `${bare}/index.js`;
  throw new Error(`build: cannot resolve ${spec} from ${relative(root, from)}`);
}
