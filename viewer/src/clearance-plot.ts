/**
 * The smallest clearance between the bodies over the plots' sweep, drawn as one more
 * metric of the plots (`clearance`, mm against wheel or rack travel): each sweep the plots
 * ask for is asked of a worker of its own too (clearance-sweep.worker.ts), which runs the
 * same sweep with every unjoined pair measured at each state; one job in flight, the
 * newest pending, so a drag's sweeps never queue. A suspension file with geometry on two
 * or more bodies only (the plots sweep suspensions). DOM-free.
 */
import type { PartMesh } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import type { ClearanceSweepJob, ClearanceSweepReply } from './clearance-sweep.worker';

export interface ClearancePlotHost {
  readonly history: { readonly current: ViewerDocument };
  readonly partMeshes: { readonly meshes: ReadonlyMap<string, PartMesh> };
  readonly plots: { setExtra(metric: string, data: { travel: number[]; values: (number | null)[] } | null): void };
  docKey(doc: ViewerDocument): number;
}

export const CLEARANCE_METRIC = 'clearance';

export class ClearancePlot {
  private worker: Worker | null = null;
  private busy = false;
  private pending: { job: ClearanceSweepJob; meshes: ReadonlyMap<string, PartMesh> } | null = null;
  private sentMeshes: ReadonlyMap<string, PartMesh> | null = null;
  private meshesId = 0;
  private job = 0;
  /** The curve drawn (tests): per sweep state its smallest clearance (mm) and the pair. */
  shown: { docKey: number; travel: number[]; min: (number | null)[]; pair: (string | null)[]; ms: number } | null = null;
  error: string | null = null;
  private readonly docKeyOf = new Map<number, number>();

  constructor(private readonly host: ClearancePlotHost) {}

  /** The sweep the plots asked for (kind, range), measured for clearance when the document has bodies to pair. */
  request(kind: 'bump' | 'steer', range: { start: number; stop: number; steps: number }): void {
    const doc = this.host.history.current;
    const meshes = this.host.partMeshes.meshes;
    if (doc.kind !== 'suspension' || meshes.size < 2) {
      this.pending = null;
      if (this.shown) { this.shown = null; this.host.plots.setExtra(CLEARANCE_METRIC, null); }
      return;
    }
    const job: ClearanceSweepJob = { id: ++this.job, meshesId: 0, geometry: doc.geometry, hold: doc.options.hold, kind, range };
    this.docKeyOf.set(job.id, this.host.docKey(doc));
    if (this.busy) { this.pending = { job, meshes }; return; }
    this.send(job, meshes);
  }

  private send(job: ClearanceSweepJob, meshes: ReadonlyMap<string, PartMesh>): void {
    if (!this.worker) {
      this.worker = new Worker(new URL('./clearance-sweep.worker.ts', import.meta.url), { type: 'module', name: 'clearance-sweep' });
      this.worker.onmessage = (event: MessageEvent<ClearanceSweepReply>) => this.reply(event.data);
      this.worker.onerror = (event) => { this.error = event.message; this.busy = false; this.worker?.terminate(); this.worker = null; this.sentMeshes = null; };
    }
    // the meshes go once per set (copied to the worker, which keeps their hierarchies)
    if (meshes !== this.sentMeshes) { this.sentMeshes = meshes; this.meshesId++; job.meshes = [...meshes]; }
    job.meshesId = this.meshesId;
    this.busy = true;
    this.worker.postMessage(job);
  }

  private reply(r: ClearanceSweepReply): void {
    this.busy = false;
    const docKey = this.docKeyOf.get(r.id) ?? -1;
    for (const id of this.docKeyOf.keys()) if (id <= r.id) this.docKeyOf.delete(id);
    if (r.kind === 'error') this.error = r.error;
    else {
      this.error = null;
      this.shown = { docKey, travel: r.travel, min: r.min, pair: r.pair, ms: r.ms };
      this.host.plots.setExtra(CLEARANCE_METRIC, { travel: r.travel, values: r.min });
    }
    const next = this.pending;
    this.pending = null;
    if (next) this.send(next.job, next.meshes);
  }

  /** Every asked job answered (tests). */
  get settled(): boolean {
    return !this.busy && this.pending === null;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
