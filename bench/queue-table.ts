/**
 * The measured table of docs/queue.md: variants per second of the local batch (1 and 2
 * threads) and of the queued batch with 1 and 2 local workers (one chunk at a time each),
 * and the queue's overhead per chunk: (queued, 1 worker − local, 1 worker thread) / chunks.
 * `npx tsx bench/queue-table.ts [VARIANTS]` (needs Debian's redis-server).
 */
import { readFileSync } from 'node:fs';
import { parseGeometry } from '../src/suspension/files';
import { parseDoe } from '../src/suspension/design/batch';
import { runBatch } from '../src/suspension/design/batch-pool';
import { parseQueueAddress } from '../src/suspension/design/queue-connection';
import { runQueuedBatch } from '../src/suspension/design/queued-batch';
import { startQueueWorker } from '../src/suspension/design/queue-worker';
import { startRedis } from '../test/util/redis-server';

const samples = Number(process.argv[2] ?? 2000);
const GEOMETRY = 'examples/suspension/double_wishbone.yaml';
const DOE = `vary:\n  upper_wishbone_inboard_front.z: [-20, 20]\n  trackrod_inboard.z: [-10, 10]\nsampling: { type: latin_hypercube, samples: ${samples}, seed: 3 }\nbump: "-40:40:17"\n`;
const geometryText = readFileSync(GEOMETRY, 'utf8');
const geometry = parseGeometry(geometryText, GEOMETRY);
const spec = parseDoe(DOE, geometry, 'doe');
const redis = await startRedis();
const address = parseQueueAddress(redis.url);
let round = 0;
const time = async (job: () => Promise<unknown>) => { await job(); const t0 = performance.now(); await job(); return (performance.now() - t0) / 1000; };
const local = (threads: number) => time(() => runBatch(geometry, spec, { threads, sweepHere: threads > 1, write: () => {} }));
let chunks = 0;
const queued = async (count: number) => {
  const workers = await Promise.all(Array.from({ length: count }, () => startQueueWorker({ address, concurrency: 1 })));
  try {
    return await time(async () => {
      const name = `table-${round++}`;
      await runQueuedBatch({ address, name, geometryPath: GEOMETRY, geometryText, doePath: 'doe', doeText: DOE, write: () => {}, onProgress: () => { chunks++; } });
    });
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
};
const rows: [string, number][] = [];
const l1 = await local(1); rows.push(['local batch, 1 worker thread', l1]);
const l2 = await local(2); rows.push(['local batch, --threads 2', l2]);
chunks = 0;
const q1 = await queued(1); rows.push(['queued, 1 local worker', q1]);
const perRun = chunks / 2;
const q2 = await queued(2); rows.push(['queued, 2 local workers', q2]);
await redis.stop();
console.log(`| run (${samples} variants × 17 steps) | seconds | variants/s |\n|---|---|---|`);
for (const [what, s] of rows) console.log(`| ${what} | ${s.toFixed(2)} | ${(samples / s).toFixed(0)} |`);
console.log(`\nchunks per run: ${perRun}; overhead per chunk (queued 1 worker − local 1 thread): ${(((q1 - l1) / perRun) * 1000).toFixed(1)} ms`);
process.exit(0);
