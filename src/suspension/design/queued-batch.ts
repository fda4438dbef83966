/**
 * `kinemate batch --queue`: the coordinator. It stores the run (geometry and DOE as read)
 * in Redis, enqueues the variants in chunks of about a second of work as BullMQ jobs with
 * ids `<run>--<chunk>` (so adding a chunk twice adds it once: a coordinator started again
 * with the same name finds the chunks already done and re-adds only what is missing),
 * and writes the CSV strictly in variant order as the chunks finish — the same bytes as the
 * local `kinemate batch`. Only a window of chunks ahead of the writing is in Redis at once.
 */
import { Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { parseGeometry, type Geometry } from '../files';
import { doeHeader, doeVariantSource, errorRows, loadDoeWork, variantSucceeded, parseDoe, variantRows, type DoeSpec } from './batch.ts';
import { VariantModels } from './variant-models.ts';
import type { DoeVariantSource } from './doe-sampling.ts';
import { checkReachable, connectionOptions, QueueError, type QueueAddress } from './queue-connection.ts';
import { BUILD_MISMATCH, chunkJobId, claimRunRecord, deleteRunRecord, QUEUE_NAME, runToken, type ChunkJob, type RunRecord } from './queue-protocol.ts';
import { buildId } from './build-id.ts';
import { createHash } from 'node:crypto';

export interface QueuedBatchOptions {
  address: QueueAddress;
  /** The run's name; default: a hash of the geometry and DOE texts (the same study resumes). */
  name?: string;
  geometryPath: string;
  geometryText: string;
  doePath: string;
  doeText: string;
  /** Variants per chunk; default: about a second of work, timed on this machine. */
  chunk?: number;
  write: (text: string) => void | Promise<void>;
  onProgress?: (done: number, total: number) => void;
}

/** Chunks enqueued ahead of the one being written. */
const WINDOW = 256;
/** Tries of a chunk that throws (a worker killed mid-chunk is retried by BullMQ's stalled check). */
const ATTEMPTS = 3;
const CHUNK_SECONDS = 1;
const MIN_CHUNKS = 32;

export async function runQueuedBatch(options: QueuedBatchOptions): Promise<{ variants: number; failed: number; name: string }> {
  const { address } = options;
  const geometry = parseGeometry(options.geometryText, options.geometryPath);
  const spec = parseDoe(options.doeText, geometry, options.doePath, options.geometryPath);
  await loadDoeWork(geometry, spec); // a simulation's code, its columns checked before anything is queued
  await checkReachable(address);
  const name = options.name ?? `doe-${createHash('sha256').update(options.geometryText).update('\0').update(options.doeText).digest('hex').slice(0, 16)}`;
  const variants = doeVariantSource(spec);
  const build = await buildId();
  const connection = connectionOptions(address);
  const redis = new Redis(connection);
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  try {
    const record = await claimRunRecord(redis, name, {
      geometryPath: options.geometryPath, geometryText: options.geometryText, doePath: options.doePath, doeText: options.doeText,
      build, chunk: options.chunk ?? chunkForASecond(geometry, spec, variants), variants: variants.count,
    });
    checkSameRun(record, options, build, name);
    await events.waitUntilReady();
    const id = (c: number) => chunkJobId(name, runToken(record), c);
    const chunks = Math.ceil(variants.count / record.chunk);
    const jobOf = (c: number): ChunkJob => {
      const first = c * record.chunk;
      const last = Math.min(variants.count, first + record.chunk);
      return { run: name, chunk: c, first, moves: Array.from({ length: last - first }, (_, k) => variants.at(first + k)), build };
    };
    let enqueued = 0;
    let failed = 0;
    await options.write(`${doeHeader(spec)}\n`);
    for (let c = 0; c < chunks; c++) {
      if (enqueued < Math.min(chunks, c + WINDOW)) {
        const until = Math.min(chunks, c + 2 * WINDOW);
        await queue.addBulk(Array.from({ length: until - enqueued }, (_, k) => {
          const job = jobOf(enqueued + k);
          return { name: 'chunk', data: job, opts: { jobId: id(job.chunk), attempts: ATTEMPTS, backoff: { type: 'fixed', delay: 100 }, removeOnComplete: false, removeOnFail: false } };
        }));
        enqueued = until;
      }
      let rows: string[];
      try {
        rows = await chunkResult(queue, events, id(c), spec, jobOf(c));
      } catch (error) {
        await removeUnfinished(queue, id, enqueued); // a later run under this name starts them afresh
        throw error;
      }
      for (const variant of rows) if (!variantSucceeded(variant.split('\n'))) failed++;
      await options.write(`${rows.join('\n')}\n`);
      options.onProgress?.(Math.min(variants.count, (c + 1) * record.chunk), variants.count);
    }
    await removeRun(queue, redis, name, id, chunks);
    return { variants: variants.count, failed, name };
  } finally {
    await Promise.allSettled([events.close(), queue.close()]);
    redis.disconnect();
  }
}

/** A chunk's rows when it has finished: its result, or every variant as an error row when every attempt failed. */
async function chunkResult(queue: Queue, events: QueueEvents, id: string, spec: DoeSpec, job: ChunkJob): Promise<string[]> {
  let queued = await Job.fromId(queue, id);
  if (!queued) {
    // removed since (by hand, or a mismatch stop of an earlier coordinator): add it again
    queued = await queue.add('chunk', job, { jobId: id, attempts: ATTEMPTS, backoff: { type: 'fixed', delay: 100 }, removeOnComplete: false, removeOnFail: false });
  }
  // refused by a worker of another build under an earlier coordinator: try it again now
  if ((await queued.isFailed()) && queued.failedReason?.startsWith(BUILD_MISMATCH)) await queued.retry('failed');
  try {
    return (await queued.waitUntilFinished(events)) as string[];
  } catch (error) {
    const reason = (error as Error).message;
    if (reason.startsWith(BUILD_MISMATCH)) {
      throw new QueueError('', `a worker refused the run's chunks: ${reason}`);
    }
    return job.moves.map((moves, k) => errorRows(spec, job.first + k, moves, `chunk failed on every attempt: ${reason}`).join('\n'));
  }
}

/** A run found under this name must be this geometry, DOE and build, else its rows would not be this run's. */
function checkSameRun(record: RunRecord, options: QueuedBatchOptions, build: string, name: string): void {
  if (record.geometryText !== options.geometryText || record.doeText !== options.doeText) {
    throw new QueueError('--name', `the run "${name}" on this queue was started with another geometry or DOE; choose another --name`);
  }
  if (record.build !== build) throw new QueueError('--name', `the run "${name}" on this queue was started by another build (${record.build}, this is ${build}); choose another --name`);
  if (options.chunk !== undefined && options.chunk !== record.chunk) throw new QueueError('--chunk', `the run "${name}" was started with chunks of ${record.chunk}; give the same or none`);
}

/** Variants in about CHUNK_SECONDS of one thread's work (two variants timed here after one to warm up), fewer for a small DOE. */
function chunkForASecond(geometry: Geometry, spec: DoeSpec, variants: DoeVariantSource): number {
  const models = new VariantModels();
  const n = Math.min(3, variants.count);
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    variantRows(geometry, spec, i, variants.at(i), models);
    if (i > 0 || n === 1) best = Math.min(best, performance.now() - start);
  }
  const aSecond = Math.round((CHUNK_SECONDS * 1000) / Math.max(best, 1e-3));
  // a small DOE in at least MIN_CHUNKS chunks, so that several workers share it evenly
  return Math.max(1, Math.min(10_000, aSecond, Math.ceil(variants.count / MIN_CHUNKS)));
}

/** The run done and written: its jobs and record leave Redis. */
async function removeRun(queue: Queue, redis: Redis, name: string, id: (c: number) => string, chunks: number): Promise<void> {
  for (let c = 0; c < chunks; c += 500) {
    await Promise.all(Array.from({ length: Math.min(500, chunks - c) }, (_, k) => queue.remove(id(c + k)).catch(() => 0)));
  }
  await deleteRunRecord(redis, name);
}

/** Every job of the run not completed is removed (waiting, delayed or failed; an active one is left to finish). */
async function removeUnfinished(queue: Queue, id: (c: number) => string, chunks: number): Promise<void> {
  for (let c = 0; c < chunks; c++) {
    const job = await Job.fromId(queue, id(c));
    if (job && !(await job.isCompleted()) && !(await job.isActive())) await job.remove().catch(() => {});
  }
}
