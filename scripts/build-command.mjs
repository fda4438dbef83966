#!/usr/bin/env node
/**
 * The `kinemate` command as the package installs it: dist/cli.cjs (one CommonJS file), its V8
 * code cache, and batch's worker (dist/batch-worker.js). `npm run build` (scripts/build.mjs)
 * calls `buildCommand` for dist/; the tests' setup (test/setup/built-command.ts) runs this file
 * as `node scripts/build-command.mjs OUT_DIR` to get the same command in OUT_DIR (bin/ copied
 * beside dist/), in a process of its own so that the code cache is made by a plain `node`,
 * as the spawned commands are (V8 rejects a cache made under other flags).
 *
 * With OUT_DIR it also writes OUT_DIR/inputs.json: every source file the bundles read, so a
 * caller can tell whether the build still matches the sources.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const WORKER = { 'batch-worker': 'src/suspension/design/batch-worker.ts' };

/**
 * Packages the command loads as ES modules (src/cli/geometry-libraries.ts) and must never
 * require: three's CommonJS build prints a deprecation warning when required. Their dynamic
 * imports stay imports; the static imports of the code that uses them read the namespaces
 * those imports loaded (`__kinemateLoaded`, given by bin/load-command.js).
 */
const ESM_ONLY = /^(three|three-mesh-bvh)$/;
const esmOnlyDependencies = {
  name: 'esm-only-dependencies',
  setup(build) {
    build.onResolve({ filter: ESM_ONLY }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : { path: args.path, namespace: 'esm-only' }));
    build.onLoad({ filter: /.*/, namespace: 'esm-only' }, (args) => ({ contents: `module.exports = __kinemateLoaded(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** esbuild's settings shared by every bundle of the package: ESM for Node 20, dependencies left as imports. */
export function commonOptions(root, manifest) {
  return {
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
}

/**
 * Builds the worker, the command and its code cache into `dist`; `bin` is the folder whose
 * load-command.js loads `dist` (its ../dist). Returns the source files the bundles read.
 */
export async function buildCommand({ root, dist, bin }) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const common = commonOptions(root, manifest);
  // The command bundles `yaml` (every command reads YAML): its package is ~70 CommonJS files whose
  // resolution and loading cost a start more than the bundled copy does.
  const external = common.external.filter((name) => name !== 'yaml');
  const worker = await build({ ...common, metafile: true, entryPoints: WORKER, outdir: dist, chunkNames: 'chunks/cli/[name]-[hash]', external,
    // yaml's CommonJS asks for `process` with require(): give the ESM chunks a real one
    banner: { js: "import { createRequire as __kinemateRequire } from 'node:module'; const require = __kinemateRequire(import.meta.url);" } });
  const command = await commandBundle(common, external, join(dist, 'cli.cjs'));
  await codeCache(root, bin);
  const files = [...Object.keys(worker.metafile.inputs), ...Object.keys(command.metafile.inputs)].filter((path) => !/^[\w-]+:/.test(path)); // not esm-only:three
  return [...new Set(files)].map((path) => resolve(root, path));
}

/**
 * dist/cli.cjs: the command as one CommonJS file, compiled by bin/load-command.js with a code
 * cache (Node 20 caches no ES module code). Whitespace is left out: less text for V8 to scan
 * at every start, the names kept (KINEMATE_DEBUG's stack traces). Its `import()`s become
 * `__kinemateImport()`, given by the loader: code compiled by vm.Script has no `import()`.
 */
async function commandBundle(common, external, file) {
  const result = await build({
    ...common, splitting: false, format: 'cjs', minifyWhitespace: true, metafile: true, entryPoints: ['src/cli/main.ts'], outfile: file, external, plugins: [esmOnlyDependencies],
    define: { ...common.define, 'import.meta.url': '__kinemateUrl' },
    banner: { js: 'var __kinemateUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(/(?<![\w$.])import\(/g, '__kinemateImport(');
  if (/(?<![\w$.])import\s*\(/.test(rewritten) || /\bimport\.meta\b/.test(rewritten)) throw new Error('build: dist/cli.cjs still holds import() or import.meta');
  // bin/load-command.js reads it as latin1 (no UTF-8 decoding): esbuild's default charset is ASCII
  if (/[^\x00-\x7f]/.test(rewritten)) throw new Error('build: dist/cli.cjs holds non-ASCII characters');
  if (/\brequire\("three(-mesh-bvh)?"\)/.test(rewritten)) throw new Error('build: dist/cli.cjs requires three (see esmOnlyDependencies)');
  writeFileSync(file, rewritten);
  return result;
}

/**
 * dist/cli.code-cache: V8's code cache of dist/cli.cjs after a short sweep and a solve of the
 * examples (what V8 compiled for them: the kernel, the suspension analysis, the output), so
 * that a command's start skips compiling them. Made by this Node; another Node rejects it.
 */
async function codeCache(root, bin) {
  const { loadCommand, CODE_CACHE_FILE } = createRequire(import.meta.url)(join(bin, 'load-command.js'));
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

/** `node scripts/build-command.mjs OUT_DIR`: OUT_DIR/bin (copied), OUT_DIR/dist, OUT_DIR/inputs.json. */
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: node scripts/build-command.mjs OUT_DIR\n');
    process.exit(2);
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  const bin = join(out, 'bin');
  mkdirSync(bin, { recursive: true });
  const copied = ['kinemate.js', 'load-command.js', 'package.json'].map((name) => join(root, 'bin', name));
  for (const file of copied) copyFileSync(file, join(bin, file.slice(join(root, 'bin').length + 1)));
  const inputs = await buildCommand({ root, dist: join(out, 'dist'), bin });
  writeFileSync(join(out, 'inputs.json'), JSON.stringify([...inputs, ...copied, fileURLToPath(import.meta.url), join(root, 'package.json')]));
}
