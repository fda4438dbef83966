/**
 * doe_queue_overhead (issue 31): the queued batch with two local workers against the local
 * batch on two threads, same DOE (3000 Latin-hypercube variants of the DW corner, 17 bump
 * steps), after a warm-up of each: (queued time) / (local time). Needs Debian's
 * redis-server (started here on a free loopback port); without it the case is left out,
 * saying so.
 */
import { readFileSync } from 'node:fs';
import { parseGeometry } from '../src/suspension/files';
import { parseDoe } from '../src/suspension/design/batch';
import { runBatch } from '../src/suspension/design/batch-pool';
import { parseQueueAddress } from '../src/suspension/design/queue-connection';
import { runQueuedBatch } from '../src/suspension/design/queued-batch';
import { startQueueWorker } from '../src/suspension/design/queue-worker';
import { HAVE_REDIS, startRedis } from '../test/util/redis-server';
import type { Benchmark } from './cases';

const GEOMETRY = 'examples/suspension/double_wishbone.yaml';
const DOE = `vary:
  upper_wishbone_inboard_front.z: [-20, 20]
  upper_wishbone_inboard_rear.z: [-20, 20]
  trackrod_inboard.z: [-10, 10]
sampling: { type: latin_hypercube, samples: 3000, seed: 11 }
bump: "-40:40:17"
metrics: [camber, toe_angle, kpi]
`;

export const queueBenchmarks: Benchmark[] = HAVE_REDIS ? [{
  name: 'doe_queue_overhead',
  unit: 'queued batch time with 2 local workers / local batch time on 2 threads, 3000 variants × 17 bump steps (after one warm-up run of each; Redis on loopback)',
  goal: '1.15',
  async run() {
    const geometryText = readFileSync(GEOMETRY, 'utf8');
    const geometry = parseGeometry(geometryText, GEOMETRY);
    const spec = parseDoe(DOE, geometry, 'doe');
    const redis = await startRedis();
    const address = parseQueueAddress(redis.url);
    const workers = await Promise.all([startQueueWorker({ address, concurrency: 1 }), startQueueWorker({ address, concurrency: 1 })]);
    try {
      let round = 0;
      const local = async () => { const t0 = performance.now(); await runBatch(geometry, spec, { threads: 2, write: () => {} }); return performance.now() - t0; };
      const queued = async () => {
        const t0 = performance.now();
        // a new name each round: a finished run is removed, but a name per round keeps the rounds apart
        await runQueuedBatch({ address, name: `bench-${process.pid}-${round++}`, geometryPath: GEOMETRY, geometryText, doePath: 'doe', doeText: DOE, write: () => {} });
        return performance.now() - t0;
      };
      await local();
      await queued();
      const ratios: number[] = [];
      for (let i = 0; i < 3; i++) ratios.push((await queued()) / (await local()));
      return ratios.sort((a, b) => a - b)[1];
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await redis.stop();
    }
  },
}] : [];
