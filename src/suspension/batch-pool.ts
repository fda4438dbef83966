/**
 * The batch run: variants handed out in small chunks to worker threads (one per core by
 * default), their CSV lines written strictly in variant order as they come back, so the
 * output is the same whatever the thread count (and equal to sweeping each variant alone).
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Geometry } from './files';
import { sweepFromShortcut } from './files';
import { doeHeader, doeVariants, variantRows, type DoeSpec } from './batch';

export interface BatchOptions {
  /** Worker threads; 0 runs in this thread. Default: one per core. */
  threads?: number;
  /** Variants per message to a worker. */
  chunk?: number;
  /** Receives the output in order: the header, then each variant's lines. */
  write: (text: string) => void | Promise<void>;
  onProgress?: (done: number, total: number) => void;
}

/** Run every variant of the DOE; resolves with the number of variants that had a failed step or error. */
export async function runBatch(geometry: Geometry, spec: DoeSpec, options: BatchOptions): Promise<{ variants: number; failed: number }> {
  const variants = doeVariants(spec);
  const total = variants.length;
  const threads = Math.min(options.threads ?? availableParallelism(), Math.ceil(total / 4));
  let failed = 0;
  const count = (lines: string[]) => { if (lines.some((l) => !/,solved,/.test(l))) failed++; };
  await options.write(`${doeHeader(spec)}\n`);
  if (threads <= 0) {
    const sweep = sweepFromShortcut('bump', spec.bump);
    for (let i = 0; i < total; i++) {
      const lines = variantRows(geometry, spec, i, variants[i], sweep);
      count(lines);
      await options.write(`${lines.join('\n')}\n`);
      options.onProgress?.(i + 1, total);
    }
    return { variants: total, failed };
  }
  const chunk = options.chunk ?? Math.max(1, Math.min(16, Math.ceil(total / (threads * 8))));
  const pending = new Map<number, string[][]>();
  let next = 0, written = 0;
  const flush = async () => {
    while (pending.has(written)) {
      const block = pending.get(written)!;
      pending.delete(written);
      for (const lines of block) count(lines);
      await options.write(`${block.map((l) => l.join('\n')).join('\n')}\n`);
      written += block.length;
      options.onProgress?.(written, total);
    }
  };
  let writing = Promise.resolve();
  const workerUrl = await batchWorkerUrl();
  // imported here, not at the top: every command loads this module, only batch starts workers
  const { Worker } = await import('node:worker_threads');
  await new Promise<void>((resolve, reject) => {
    let live = threads;
    for (let t = 0; t < threads; t++) {
      const worker = new Worker(workerUrl, { workerData: { geometry, spec } });
      const feed = () => {
        if (next >= total) { worker.postMessage(null); return; }
        const first = next;
        next = Math.min(total, next + chunk);
        worker.postMessage({ first, moves: variants.slice(first, next) });
      };
      worker.on('message', (msg: { ready?: boolean; first?: number; lines?: string[][] }) => {
        if (!msg.ready) {
          pending.set(msg.first!, msg.lines!);
          writing = writing.then(flush);
        }
        feed();
      });
      worker.on('error', reject);
      worker.on('exit', () => { if (--live === 0) writing.then(() => resolve(), reject); });
    }
  });
  return { variants: total, failed };
}

/** Defined (true) by the package build (scripts/build.mjs): the pool then runs in dist/. */
declare const KINEMATE_BUILT: boolean | undefined;

/**
 * The worker's entry: in the sources, batch-worker.ts bundled once per process (below), or
 * failing that a tsx bootstrap beside this file; in the installed package (no tsx there),
 * dist/batch-worker.js, found from wherever the bundler put this code (dist/ or one of its
 * chunk folders).
 */
async function batchWorkerUrl(): Promise<URL> {
  if (typeof KINEMATE_BUILT === 'undefined' || !KINEMATE_BUILT) return (sourceBundle ??= bundleSourceWorker());
  for (const up of ['./', '../', '../../']) {
    const candidate = new URL(`${up}batch-worker.js`, import.meta.url);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('batch: dist/batch-worker.js is missing from the package build');
}

let sourceBundle: Promise<URL> | null = null;

/**
 * Run from the sources, each worker would register tsx and compile every module again
 * (seconds per worker on a busy machine, more than the batch itself). Instead the worker's
 * TypeScript is bundled once per process by esbuild (tsx's own compiler, so present wherever
 * the sources run) into node_modules/.cache, where its package imports resolve, under the
 * hash of its text (a cache: the same sources reuse the file). Without esbuild, the tsx
 * bootstrap.
 */
async function bundleSourceWorker(): Promise<URL> {
  try {
    // a computed specifier: the package build must not bundle esbuild (it never runs there)
    const compiler = 'esbuild';
    const { build } = (await import(compiler)) as typeof import('esbuild');
    const result = await build({ entryPoints: [fileURLToPath(new URL('./batch-worker.ts', import.meta.url))], write: false, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });
    const code = result.outputFiles[0].text;
    const { createHash } = await import('node:crypto');
    const dir = fileURLToPath(new URL('../../node_modules/.cache/kinemate/', import.meta.url));
    const file = `${dir}batch-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      // written whole under a private name, then renamed: a concurrent run never loads half a file
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
    return pathToFileURL(file);
  } catch {
    return new URL('./batch-worker.mjs', import.meta.url);
  }
}
