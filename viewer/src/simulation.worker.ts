/**
 * The simulation worker: one run at a time, its frames posted in batches as they are
 * made. A third worker beside the pose and sweep ones, so a run never holds up a drag;
 * a newer run ends this one by terminating the worker (simulation-client.ts).
 */
import { runSimulation, type SimulationSettings } from '../../src/index.ts';
import type { ViewerDocument } from './document';

self.onmessage = (event: MessageEvent<{ doc: ViewerDocument; settings: SimulationSettings }>) => {
  const { doc, settings } = event.data;
  runSimulation(doc, settings, (message) => self.postMessage(message));
};
