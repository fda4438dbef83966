/**
 * The worker side of the batch pool: told a run's geometry and DOE (`setup`, once per run;
 * a pooled worker serves many runs), it sweeps the variants it is sent and returns their
 * CSV lines.
 */
import { parentPort } from 'node:worker_threads';
import type { Geometry } from './files';
import { variantRows, type DoeSpec } from './batch';
import { VariantModels } from './variant-models';

type Message = { setup: { geometry: Geometry; spec: DoeSpec } } | { first: number; moves: number[][] } | null;

let run: { geometry: Geometry; spec: DoeSpec; models: VariantModels } | null = null;
parentPort!.on('message', (msg: Message) => {
  if (msg === null) { parentPort!.close(); return; }
  if ('setup' in msg) {
    const { geometry, spec } = msg.setup;
    run = { geometry, spec, models: new VariantModels() };
    return;
  }
  const { geometry, spec, models } = run!;
  const lines = msg.moves.map((m, i) => variantRows(geometry, spec, msg.first + i, m, models));
  parentPort!.postMessage({ first: msg.first, lines });
});
parentPort!.postMessage({ ready: true });
