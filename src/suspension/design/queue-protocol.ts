/**
 * What a coordinator and its workers agree on: the BullMQ queue's name, a chunk job's data
 * and id, and the run record kept in Redis beside the jobs (the geometry and DOE as text,
 * so every worker parses exactly what the coordinator read).
 */
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { QueueError } from './queue-connection.ts';

/** One queue for every run; a run's jobs are told apart by their ids. */
export const QUEUE_NAME = 'kinemate-batch';

/** Start of the failure reason a worker of another build gives (the coordinator stops on it). */
export const BUILD_MISMATCH = 'build mismatch';

export interface ChunkJob {
  run: string;
  chunk: number;
  /** Index of the chunk's first variant in the DOE. */
  first: number;
  /** Each variant's moves (mm), in order. */
  moves: number[][];
  /** The coordinator's build (build-id.ts). */
  build: string;
}

export interface RunRecord {
  geometryPath: string;
  geometryText: string;
  doePath: string;
  doeText: string;
  build: string;
  chunk: number;
  variants: number;
}

/** `--name`: letters, digits, `.`, `_` and `-` (it becomes part of Redis keys and job ids). */
export function checkRunName(name: string): string {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) throw new QueueError('--name', `expected 1 to 100 letters, digits, ".", "_" or "-", got "${name}"`);
  return name;
}

/**
 * A chunk's job id: the run's name, a token of what the run sweeps (its geometry, DOE,
 * build and chunk size) and the chunk's number. A run started again as it was finds its
 * chunks by id; one under the same name with other content never meets stale jobs.
 */
export const chunkJobId = (run: string, token: string, chunk: number): string => `${run}--${token}--${chunk}`;

/** The token of chunkJobId. */
export function runToken(record: RunRecord): string {
  return createHash('sha256').update(JSON.stringify([record.geometryText, record.doeText, record.build, record.chunk])).digest('hex').slice(0, 12);
}
const recordKey = (run: string): string => `kinemate:batch-run:${run}`;

export async function readRunRecord(redis: Redis, run: string): Promise<RunRecord | null> {
  const text = await redis.get(recordKey(run));
  return text === null ? null : (JSON.parse(text) as RunRecord);
}

/** Store the record unless the run exists; returns the record in force (the stored one if it existed). */
export async function claimRunRecord(redis: Redis, run: string, record: RunRecord): Promise<RunRecord> {
  const stored = await redis.set(recordKey(run), JSON.stringify(record), 'NX');
  if (stored === 'OK') return record;
  return (await readRunRecord(redis, run)) ?? record;
}

export async function deleteRunRecord(redis: Redis, run: string): Promise<void> {
  await redis.del(recordKey(run));
}

/** A job's data as the worker received it, checked: a malformed chunk is reported, never skipped. */
export function checkChunkJob(data: unknown): ChunkJob {
  const d = data as Partial<ChunkJob> | null;
  const bad = (what: string): never => { throw new QueueError('chunk', `malformed chunk job: ${what}`); };
  if (typeof d !== 'object' || d === null) return bad('not an object');
  if (typeof d.run !== 'string') bad('no run name');
  if (!Number.isInteger(d.chunk) || (d.chunk as number) < 0) bad('chunk is not a whole number ≥ 0');
  if (!Number.isInteger(d.first) || (d.first as number) < 0) bad('first is not a whole number ≥ 0');
  if (!Array.isArray(d.moves) || !d.moves.every((m) => Array.isArray(m) && m.every((x) => typeof x === 'number' && Number.isFinite(x)))) bad('moves is not a list of number lists');
  if (typeof d.build !== 'string') bad('no build');
  return d as ChunkJob;
}
