/**
 * Envelope: the volume the tyre sweeps over a bump × steer grid (wheel travel ±50 mm ×
 * rack ±30 mm, 7 × 7 states), computed by the library (`suspensionEnvelope`, as `kinemate
 * envelope` does) on the suspension shown and drawn translucent; a second click removes it.
 * It runs in a worker (envelope.worker.ts), so the view keeps drawing; the notice line
 * counts the grid's states as they solve. A click while it runs cancels it.
 */
import type { History, PartMesh } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import type { EnvelopeJob, EnvelopeReply } from './envelope.worker';

export interface EnvelopeHost {
  readonly history: Pick<History<ViewerDocument>, 'current'>;
  readonly partMeshes: { readonly meshes: ReadonlyMap<string, PartMesh> };
  readonly clearanceOverlay: { showEnvelope(mesh: PartMesh | null): void };
  showError(text: string): void;
  showNotice(text: string): void;
  invalidate(): void;
}

const steps = (a: number, b: number, n: number) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
const GRID = 'bump −50…50 mm × rack −30…30 mm (7 × 7 states';

export class EnvelopeButton {
  /** Triangles of the envelope drawn (0: none), for tests. */
  triangles = 0;
  /** Grid states solved so far while one is computed (tests; null when none runs). */
  progress: { done: number; total: number } | null = null;
  private worker: Worker | null = null;
  private job = 0;

  constructor(private readonly app: EnvelopeHost, private readonly button: HTMLElement) {
    button.addEventListener('click', () => this.toggle());
  }

  toggle(): void {
    if (this.worker) { this.cancel(); this.app.showNotice('Envelope cancelled.'); return; }
    if (this.triangles > 0) { this.clear(); return; }
    const doc = this.app.history.current;
    const tyre = this.app.partMeshes.meshes.get('tyre');
    if (doc.kind !== 'suspension' || !tyre) { this.app.showError('Envelope: open a suspension file whose geometry section has a tyre, with its files.'); return; }
    const id = ++this.job;
    const worker = new Worker(new URL('./envelope.worker.ts', import.meta.url), { type: 'module', name: 'envelope' });
    this.worker = worker;
    this.progress = { done: 0, total: 49 };
    this.button.classList.add('computing');
    this.app.showNotice(`Envelope of the tyre over ${GRID}): computing…`);
    worker.onmessage = (event: MessageEvent<EnvelopeReply>) => { if (event.data.id === id) this.reply(event.data); };
    worker.onerror = (event) => { this.cancel(); this.app.showError(`Envelope failed: ${event.message}`); };
    const job: EnvelopeJob = { id, geometry: doc.geometry, tyre: { positions: tyre.positions, indices: tyre.indices }, bump: steps(-50, 50, 7), steer: steps(-30, 30, 7), voxel: 10 };
    worker.postMessage(job);
  }

  private reply(r: EnvelopeReply): void {
    if (r.kind === 'progress') {
      this.progress = { done: r.done, total: r.total };
      this.app.showNotice(`Envelope of the tyre over ${GRID}): ${r.done} of ${r.total} states solved…`);
      return;
    }
    this.cancel();
    if (r.kind === 'error') { this.app.showError(`Envelope failed: ${r.error}`); return; }
    this.app.clearanceOverlay.showEnvelope({ positions: r.positions, indices: r.indices });
    this.triangles = r.indices.length / 3;
    this.app.showNotice(`Envelope of the tyre over ${GRID}${r.failed ? `, ${r.failed} failed` : ''}): ${this.triangles} triangles, ${r.voxel} mm voxels.`);
    this.app.invalidate();
  }

  /** Stops a computation under way (the worker is ended). */
  private cancel(): void {
    this.worker?.terminate();
    this.worker = null;
    this.progress = null;
    this.button.classList.remove('computing');
  }

  /** Removes the envelope (a new document, or a second click). */
  clear(): void {
    this.cancel();
    this.app.clearanceOverlay.showEnvelope(null);
    this.triangles = 0;
    this.app.invalidate();
  }
}
