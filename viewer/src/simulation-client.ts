/**
 * Starts simulation runs in a worker (simulation.worker.ts), one at a time: a new run
 * while one is computing terminates that worker (a run is one long synchronous loop that
 * cannot hear a message) and starts a fresh one; an idle worker is reused. Without
 * Worker support the run happens on the main thread.
 */
import { runSimulation, type SimulationMessage, type SimulationSettings } from '../../src/index.ts';
import type { ViewerDocument } from './document';

export class SimulationClient {
  private worker: Worker | null = null;
  private busy = false;
  /** Which run the messages belong to (a terminated run's late messages are dropped). */
  private run = 0;

  /** Runs `doc`; `onMessage` gets this run's messages only. Returns the run's number. */
  start(doc: ViewerDocument, settings: SimulationSettings, onMessage: (message: SimulationMessage) => void): number {
    const run = ++this.run;
    if (typeof Worker === 'undefined') {
      setTimeout(() => runSimulation(doc, settings, (m) => { if (this.run === run) onMessage(m); }), 0);
      return run;
    }
    if (this.worker && this.busy) this.stop();
    if (!this.worker) {
      this.worker = new Worker(new URL('./simulation.worker.ts', import.meta.url), { type: 'module', name: 'simulation' });
    }
    const worker = this.worker;
    this.busy = true;
    worker.onmessage = (event: MessageEvent<SimulationMessage>) => {
      if (this.run !== run) return;
      if (event.data.kind === 'done' || event.data.kind === 'error') this.busy = false;
      onMessage(event.data);
    };
    worker.onerror = (event) => {
      if (this.run !== run) return;
      this.busy = false;
      onMessage({ kind: 'error', message: `simulation worker: ${event.message}` });
    };
    worker.postMessage({ doc, settings });
    return run;
  }

  /** Ends the run in progress (its frames so far stay with the caller). */
  stop(): void {
    this.run++;
    if (this.busy) { this.worker?.terminate(); this.worker = null; this.busy = false; }
  }

  get running(): boolean {
    return this.busy;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
