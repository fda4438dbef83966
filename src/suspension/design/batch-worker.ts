/**
 * The worker side of the batch pool: told a run's geometry and DOE (`setup`, once per run;
 * a pooled worker serves many runs), it sweeps the variants it is sent and returns their
 * CSV lines.
 */
import { parentPort } from 'node:worker_threads';
import type { Geometry } from '../files';
import { loadDoeWork, variantRows, type DoeSpec } from './batch';
import { VariantModels } from './variant-models';

type Message = { setup: { geometry: Geometry; spec: DoeSpec } } | { first: number; moves: number[][] } | null;

type Run = { geometry: Geometry; spec: DoeSpec; models: VariantModels; loaded: Promise<void> };
let run: Run | null = null;
parentPort!.on('message', (msg: Message) => {
  if (msg === null) { parentPort!.close(); return; }
  if ('setup' in msg) {
    const { geometry, spec } = msg.setup;
    // a simulating DOE's code is loaded once per run (the pool's thread has checked its columns)
    run = { geometry, spec, models: new VariantModels(), loaded: loadDoeWork(geometry, spec, false) };
    return;
  }
  const r = run!;
  if (r.spec.simulate) void r.loaded.then(() => answer(r, msg));
  else answer(r, msg);
});

function answer({ geometry, spec, models }: Run, msg: { first: number; moves: number[][] }): void {
  const lines = msg.moves.map((m, i) => variantRows(geometry, spec, msg.first + i, m, models));
  parentPort!.postMessage({ first: msg.first, lines });
}
parentPort!.postMessage({ ready: true });
