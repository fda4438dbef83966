/**
 * The batch run: variants handed out in chunks to the sweeping threads — this one and
 * worker threads (one thread per core in all, by default) — their CSV lines written
 * strictly in variant order as they come back, so the output is the same whatever the
 * thread count (and equal to sweeping each variant alone: every variant is its own fresh
 * model and sweep, wherever it runs).
 */
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { Geometry } from '../files';
import { doeHeader, doeVariantSource, loadDoeWork, variantRows, variantSucceeded, type DoeSpec } from './batch';
import type { DoeVariantSource } from './doe-sampling';
import { VariantModels } from './variant-models';

export interface BatchOptions {
  /**
   * Sweeping threads: this one and threads − 1 workers. Default: one per core; 0 or 1:
   * this thread only.
   */
  threads?: number;
  /** Variants per message to a worker (default: shrinking from 16 as the work runs out). */
  chunk?: number;
  /** False: this thread only hands out and writes (every variant on a worker). Default true. */
  sweepHere?: boolean;
  /** Receives the output in order: the header, then each variant's lines. */
  write: (text: string) => void | Promise<void>;
  onProgress?: (done: number, total: number) => void;
}

/** Jobs a worker holds at once: the next is queued while it sweeps one, so it never waits for this thread. */
const IN_FLIGHT = 2;

/** Run every variant of the DOE; resolves with the number of variants that had a failed step or error. */
export async function runBatch(geometry: Geometry, spec: DoeSpec, options: BatchOptions): Promise<{ variants: number; failed: number }> {
  // generated as handed out: a DOE of millions never sits in memory
  const variants = doeVariantSource(spec);
  const total = variants.count;
  const sweepHere = options.sweepHere !== false;
  const threads = Math.min(options.threads ?? availableParallelism(), Math.ceil(total / 4));
  const workers = sweepHere ? threads - 1 : Math.max(1, threads);
  await loadDoeWork(geometry, spec);
  let failed = 0;
  const count = (lines: string[]) => { if (!variantSucceeded(lines)) failed++; };
  await options.write(`${doeHeader(spec)}\n`);
  const models = new VariantModels();
  if (threads <= 1 && sweepHere) {
    for (let i = 0; i < total; i++) {
      const lines = variantRows(geometry, spec, i, variants.at(i), models);
      count(lines);
      await options.write(`${lines.join('\n')}\n`);
      options.onProgress?.(i + 1, total);
    }
    return { variants: total, failed };
  }
  const lanes = workers + (sweepHere ? 1 : 0);
  // guided chunks: large while much is left (fewer messages), single variants at the end (no lane waits long on another)
  const chunkSize = () => options.chunk ?? Math.max(1, Math.min(16, Math.ceil((total - next) / (lanes * 4))));
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
  const deliver = (first: number, lines: string[][]) => {
    pending.set(first, lines);
    writing = writing.then(flush);
  };
  const pool = runWorkers(workers, geometry, spec, variants, () => {
    if (next >= total) return null;
    const first = next;
    next = Math.min(total, next + chunkSize());
    return first;
  }, () => next, deliver);
  pool.catch(() => {}); // awaited below, after this thread's share: not an unhandled rejection meanwhile
  // this thread sweeps one variant at a time, answering the workers in between
  if (sweepHere) {
    while (next < total) {
      const i = next++;
      deliver(i, [variantRows(geometry, spec, i, variants.at(i), models)]);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await pool;
  await writing;
  return { variants: total, failed };
}

/**
 * Workers kept between runs, unreferenced (they never hold the process open) and ended
 * after IDLE_MS unused: a second batch in one process reuses threads whose code is already
 * compiled and optimised — a fresh worker's JIT costs about as much CPU as a few hundred
 * variants. Each run sends its geometry and DOE first, so a worker's state is that run's.
 */
const IDLE_MS = 5000;
let WorkerThread: typeof Worker | null = null;
const idle: { worker: Worker; url: string; timer: ReturnType<typeof setTimeout> }[] = [];

function acquire(url: URL): { worker: Worker; started: boolean } {
  const i = idle.findIndex((w) => w.url === url.href);
  if (i >= 0) {
    const [{ worker, timer }] = idle.splice(i, 1);
    clearTimeout(timer);
    worker.ref();
    return { worker, started: true };
  }
  // no inherited Node options: a parent run through tsx's CLI (`--import tsx`) would load
  // tsx again in every worker (a quarter second of CPU each); the worker's code needs none
  const worker = new WorkerThread!(url, { execArgv: [] });
  // a pooled worker that dies while idle leaves the pool
  worker.on('exit', () => { const k = idle.findIndex((w) => w.worker === worker); if (k >= 0) { clearTimeout(idle[k].timer); idle.splice(k, 1); } });
  return { worker, started: false };
}

function release(worker: Worker, url: URL): void {
  worker.unref();
  const timer = setTimeout(() => {
    const k = idle.findIndex((w) => w.worker === worker);
    if (k >= 0) idle.splice(k, 1);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.push({ worker, url: url.href, timer });
}

/**
 * Take `count` workers (pooled ones first) once their code is found (meanwhile this thread
 * sweeps) and feed them: `take` hands out the first index of a chunk (ending at `end()`
 * after the call), null when none is left. Resolves when every worker has finished its
 * jobs; none starts when the work is gone by then.
 */
async function runWorkers(count: number, geometry: Geometry, spec: DoeSpec, variants: DoeVariantSource, take: () => number | null, end: () => number, deliver: (first: number, lines: string[][]) => void): Promise<void> {
  if (count <= 0) return;
  // imported here, not at the top: every command loads this module, only batch starts workers
  const { batchWorkerUrl } = await import('./batch-worker-url');
  WorkerThread ??= (await import('node:worker_threads')).Worker;
  const url = await batchWorkerUrl();
  if (end() >= variants.count) return;
  await new Promise<void>((resolve, reject) => {
    let live = count;
    for (let t = 0; t < count; t++) {
      const { worker, started } = acquire(url);
      let held = 0, done = false;
      const finish = (error?: Error) => {
        if (done) return;
        done = true;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (error) { void worker.terminate(); reject(error); return; }
        release(worker, url);
        if (--live === 0) resolve();
      };
      const feed = () => {
        while (held < IN_FLIGHT) {
          const first = take();
          if (first === null) break;
          held++;
          const last = end();
          worker.postMessage({ first, moves: Array.from({ length: last - first }, (_, k) => variants.at(first + k)) });
        }
        if (held === 0) finish();
      };
      const onMessage = (msg: { ready?: boolean; first?: number; lines?: string[][] }) => {
        if (!msg.ready) {
          held--;
          deliver(msg.first!, msg.lines!);
        }
        feed();
      };
      const onError = (error: Error) => finish(error);
      const onExit = () => finish(new Error('batch: a worker thread stopped'));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ setup: { geometry, spec } });
      // a new worker asks for work when it has loaded (its `ready`); a pooled one now
      if (started) feed();
    }
  });
}
