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

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * The public entry points (the library, its pictures) share chunks. The command is one
 * CommonJS file (dist/cli.cjs) with V8's code cache beside it (see bin/load-command.js and
 * `codeCache` below); batch's worker is an ES module of its own.
 */
const LIBRARY = { index: 'src/index.ts', pictures: 'src/pictures/index.ts' };
const WORKER = { 'batch-worker': 'src/suspension/design/batch-worker.ts' };

// dist/viewer is the viewer's build (vite): leave it, replace everything else.
for (const name of existsSync(dist) ? readdirSync(dist) : []) if (name !== 'viewer') rmSync(join(dist, name), { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})],
  define: { KINEMATE_VERSION: JSON.stringify(manifest.version), KINEMATE_BUILT: 'true' },
  sourcemap: false,
  logLevel: 'warning',
};
await build({ ...common, entryPoints: LIBRARY, outdir: 'dist', chunkNames: 'chunks/[name]-[hash]' });
// The command bundles `yaml` (every command reads YAML): its package is ~70 CommonJS files whose
// resolution and loading cost a start more than the bundled copy does.
await build({ ...common, entryPoints: WORKER, outdir: 'dist', chunkNames: 'chunks/cli/[name]-[hash]', external: common.external.filter((name) => name !== 'yaml'),
  // yaml's CommonJS asks for `process` with require(): give the ESM chunks a real one
  banner: { js: "import { createRequire as __kinemateRequire } from 'node:module'; const require = __kinemateRequire(import.meta.url);" } });
await buildCommand();
await codeCache();

const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
rewriteDeclarationImports(join(dist, 'types'));

/**
 * dist/cli.cjs: the command as one CommonJS file, compiled by bin/load-command.js with a code
 * cache (Node 20 caches no ES module code). Whitespace is left out: less text for V8 to scan
 * at every start, the names kept (KINEMATE_DEBUG's stack traces). Its `import()`s become
 * `__kinemateImport()`, given by the loader: code compiled by vm.Script has no `import()`.
 */
async function buildCommand() {
  const file = join(dist, 'cli.cjs');
  await build({
    ...common, splitting: false, format: 'cjs', minifyWhitespace: true, entryPoints: ['src/cli/main.ts'], outfile: file,
    external: common.external.filter((name) => name !== 'yaml'),
    define: { ...common.define, 'import.meta.url': '__kinemateUrl' },
    banner: { js: 'var __kinemateUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(/(?<![\w$.])import\(/g, '__kinemateImport(');
  if (/(?<![\w$.])import\s*\(/.test(rewritten) || /\bimport\.meta\b/.test(rewritten)) throw new Error('build: dist/cli.cjs still holds import() or import.meta');
  // bin/load-command.js reads it as latin1 (no UTF-8 decoding): esbuild's default charset is ASCII
  if (/[^\x00-\x7f]/.test(rewritten)) throw new Error('build: dist/cli.cjs holds non-ASCII characters');
  writeFileSync(file, rewritten);
}

/**
 * dist/cli.code-cache: V8's code cache of dist/cli.cjs after a short sweep and a solve of the
 * examples (what V8 compiled for them: the kernel, the suspension analysis, the output), so
 * that a command's start skips compiling them. Made by this Node; another Node rejects it.
 */
async function codeCache() {
  const { loadCommand, CODE_CACHE_FILE } = await import('../bin/load-command.js');
  const { main, codeCache: cacheOf } = loadCommand({ useCache: false });
  const quiet = { out: async () => {}, err: async () => {}, stderrIsTTY: false, readStdin: async () => '' };
  const runs = [
    ['sweep', 'examples/suspension/double_wishbone.yaml', '--bump', '-50:50:5'],
    ['solve', 'examples/four-bar.kinemate.json'],
  ];
  for (const argv of runs) {
    if (!existsSync(join(root, argv[1]))) continue;
    const code = await main(argv.map((arg, i) => (i === 1 ? join(root, arg) : arg)), quiet);
    if (code !== 0) throw new Error(`build: \`kinemate ${argv.join(' ')}\` exited ${code} while making the code cache`);
  }
  writeFileSync(CODE_CACHE_FILE, cacheOf());
}

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
