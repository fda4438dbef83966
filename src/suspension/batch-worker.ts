/** The worker side of the batch pool: sweeps the variants it is sent, returns their CSV lines. */
import { parentPort, workerData } from 'node:worker_threads';
import { sweepFromShortcut, type Geometry } from './files';
import { variantRows, type DoeSpec } from './batch';

const { geometry, spec } = workerData as { geometry: Geometry; spec: DoeSpec };
const sweep = sweepFromShortcut('bump', spec.bump);
parentPort!.on('message', (job: { first: number; moves: number[][] } | null) => {
  if (job === null) { parentPort!.close(); return; }
  const lines = job.moves.map((m, i) => variantRows(geometry, spec, job.first + i, m, sweep));
  parentPort!.postMessage({ first: job.first, lines });
});
parentPort!.postMessage({ ready: true });
