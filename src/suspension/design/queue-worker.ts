/**
 * `kinemate worker`: takes chunks from the queue and sweeps them with the local batch's
 * code (chunk-sweep.ts), `concurrency` at a time, each on a pooled worker thread. A chunk
 * from another build is refused (its rows could differ); a malformed one fails with its
 * reason. A worker killed mid-chunk loses its lock: BullMQ's stalled check hands the chunk
 * to another worker, at most MAX_STALLED times.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { availableParallelism } from 'node:os';
import { parseGeometry, type Geometry } from '../files';
import { parseDoe, type DoeSpec } from './batch.ts';
import { checkReachable, connectionOptions, type QueueAddress } from './queue-connection.ts';
import { BUILD_MISMATCH, checkChunkJob, QUEUE_NAME, readRunRecord } from './queue-protocol.ts';
import { sweepChunk } from './chunk-sweep.ts';
import { buildId } from './build-id.ts';

export interface QueueWorkerOptions {
  address: QueueAddress;
  /** Chunks swept at once (default: one per core). */
  concurrency?: number;
  /** How long a chunk's lock lasts unrenewed (ms; default 30 000): a killed worker's chunk is taken again after about this. */
  lockMs?: number;
  /** A line of news: a chunk done or failed. */
  log?: (line: string) => void;
}

export interface QueueWorker {
  /** Stop taking chunks, finish those held, disconnect. */
  close(): Promise<void>;
}

const MAX_STALLED = 2;

export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  await checkReachable(options.address);
  const build = await buildId();
  const connection = connectionOptions(options.address);
  const redis = new Redis(connection);
  const runs = new Map<string, Promise<{ geometry: Geometry; spec: DoeSpec }>>();
  const runOf = (name: string) => {
    let run = runs.get(name);
    if (!run) {
      run = (async () => {
        const record = await readRunRecord(redis, name);
        if (!record) throw new UnrecoverableError(`run "${name}" has no record on the queue (removed while its chunks were queued)`);
        const geometry = parseGeometry(record.geometryText, record.geometryPath);
        return { geometry, spec: parseDoe(record.doeText, geometry, record.doePath, record.geometryPath) };
      })();
      runs.set(name, run);
      run.catch(() => runs.delete(name));
      if (runs.size > 8) runs.delete(runs.keys().next().value!); // a long-lived worker serves many runs
    }
    return run;
  };
  const lockMs = options.lockMs ?? 30_000;
  const worker = new Worker(QUEUE_NAME, async (job: Job) => {
    let data;
    try {
      data = checkChunkJob(job.data);
    } catch (error) {
      throw new UnrecoverableError((error as Error).message);
    }
    if (data.build !== build) throw new UnrecoverableError(`${BUILD_MISMATCH}: this worker runs build ${build}, the run "${data.run}" was started by ${data.build}; run the same code and Node version on every machine`);
    const { geometry, spec } = await runOf(data.run);
    return sweepChunk(geometry, spec, data.first, data.moves);
  }, { connection, concurrency: options.concurrency ?? availableParallelism(), lockDuration: lockMs, stalledInterval: Math.max(500, lockMs / 2), maxStalledCount: MAX_STALLED });
  worker.on('active', (job) => options.log?.(`chunk ${job.id} started`));
  worker.on('completed', (job) => options.log?.(`chunk ${job.id} done`));
  worker.on('failed', (job, error) => options.log?.(`chunk ${job?.id ?? '?'} failed: ${error.message}`));
  worker.on('error', (error) => options.log?.(`queue error: ${error.message}`));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      redis.disconnect();
    },
  };
}
