/**
 * Where the batch pool's worker code is: in the package build, dist/batch-worker.js; run
 * from the sources, batch-worker.ts bundled by esbuild into node_modules/.cache, reused
 * while none of its inputs changed.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InternalError } from '../../../kernel/errors';

/** Defined (true) by the package build (scripts/build.mjs): the pool then runs in dist/. */
declare const KINEMATE_BUILT: boolean | undefined;

/**
 * The worker's entry: in the sources, batch-worker.ts bundled once per process (below), or
 * failing that a tsx bootstrap beside this file; in the installed package (no tsx there),
 * dist/batch-worker.js, found from wherever the bundler put this code (dist/ or one of its
 * chunk folders).
 */
export async function batchWorkerUrl(): Promise<URL> {
  if (typeof KINEMATE_BUILT === 'undefined' || !KINEMATE_BUILT) return (sourceBundle ??= bundleSourceWorker());
  for (const up of ['./', '../', '../../']) {
    const candidate = new URL(`${up}batch-worker.js`, import.meta.url);
    if (existsSync(candidate)) return candidate;
  }
  throw new InternalError('batch: dist/batch-worker.js is missing from the package build');
}

let sourceBundle: Promise<URL> | null = null;

interface BundleManifest { inputs: string[]; key: string; file: string }

/**
 * Run from the sources, each worker would register tsx and compile every module again
 * (seconds per worker on a busy machine, more than the batch itself). Instead the worker's
 * TypeScript is bundled by esbuild (tsx's own compiler, so present wherever the sources
 * run) into node_modules/.cache, where its package imports resolve. esbuild takes 0.25–0.7 s
 * on a busy machine, so the last build's input files are listed beside it with a hash of
 * their contents: while that hash holds, the bundle is reused without building. Without
 * esbuild, the tsx bootstrap.
 */
async function bundleSourceWorker(): Promise<URL> {
  const entry = fileURLToPath(new URL('./batch-worker.ts', import.meta.url));
  const dir = fileURLToPath(new URL('../../../node_modules/.cache/kinemate/', import.meta.url));
  // one manifest per source tree (a node_modules may be shared between checkouts)
  const manifestPath = `${dir}batch-worker-inputs-${createHash('sha256').update(entry).digest('hex').slice(0, 12)}.json`;
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const options = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external' } as const;
  const settings = JSON.stringify(options);
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BundleManifest;
    if (manifest.inputs.includes(entry) && existsSync(manifest.file) && inputsKey(manifest.inputs, settings) === manifest.key) return pathToFileURL(manifest.file);
  } catch {
    // no manifest yet, or an input is gone: build
  }
  try {
    // a computed specifier: the package build must not bundle esbuild (it never runs there)
    const compiler = 'esbuild';
    const { build } = (await import(compiler)) as typeof import('esbuild');
    const result = await build({ ...options, entryPoints: [entry], write: false, logLevel: 'silent', metafile: true, absWorkingDir: root });
    const code = result.outputFiles[0].text;
    const file = `${dir}batch-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    mkdirSync(dir, { recursive: true });
    // written whole under a private name, then renamed: a concurrent run never loads half a file
    const writeWhole = (path: string, text: string) => {
      const partial = `${path}.${process.pid}`;
      writeFileSync(partial, text);
      renameSync(partial, path);
    };
    if (!existsSync(file)) writeWhole(file, code);
    const inputs = Object.keys(result.metafile.inputs).map((p) => (p.startsWith('/') ? p : root + p));
    if (inputs.includes(entry)) {
      try { writeWhole(manifestPath, JSON.stringify({ inputs, key: inputsKey(inputs, settings), file } satisfies BundleManifest)); } catch { /* a cache only */ }
    }
    return pathToFileURL(file);
  } catch {
    return new URL('./batch-worker.mjs', import.meta.url);
  }
}

/** Hash of the build settings and the input files' names and contents (throws when one is missing); the tests' command build keys its cache the same way. */
export function inputsKey(inputs: readonly string[], settings: string): string {
  const hash = createHash('sha256').update(settings).update('\0');
  for (const path of inputs) hash.update(path).update('\0').update(readFileSync(path)).update('\0');
  return hash.digest('hex');
}
