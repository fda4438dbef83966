/**
 * The K&C curves in the compliance panel: the rig event chosen (lateral, braking,
 * traction, aligning) run at the pose's wheel travel on the document shown, toe and
 * camber at the deflected pose against the load, drawn by the same chart code as
 * `kinemate plot --kc` (src/pictures/kc-chart.ts, loaded on first use). The run is
 * `kinemate kc`'s, in a worker of its own (a rig event is a few hundred ms: the pose and
 * the plots' sweep never wait for it); one run in flight, the newest pending. DOM only.
 */
import type { KcCurvesRequest, KcCurvesResult, PoseResult } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import { nameOf } from './document';
import { SolverClient } from './solver-client';

const loadPictures = () => import('../../src/pictures/index');

type Event = KcCurvesRequest['event'];
const EVENTS: [Event, string][] = [['lateral', 'Lateral (Fy)'], ['braking', 'Braking (Fx)'], ['traction', 'Traction (Fx at the wheel centre)'], ['aligning', 'Aligning torque (Mz)']];

export interface KcPlotsHost {
  readonly history: { readonly current: ViewerDocument };
  readonly live: { compiledOf(doc: ViewerDocument): KcCurvesRequest['compiled'] };
  docKey(doc: ViewerDocument): number;
}

export class KcPlots {
  private readonly client = new SolverClient('kc');
  private readonly chart: HTMLElement;
  private readonly select: HTMLSelectElement;
  private busy = false;
  private pending: KcCurvesRequest | null = null;
  private asked = '';
  private lastPose: PoseResult | null = null;
  /** The curves drawn (tests). */
  shown: { key: string; result: KcCurvesResult; metrics: string[] } | null = null;
  error: string | null = null;

  constructor(private readonly root: HTMLElement, private readonly host: KcPlotsHost) {
    root.innerHTML = `<div class="row">K&amp;C curves <select id="kc-event">${EVENTS.map(([e, l]) => `<option value="${e}">${l}</option>`).join('')}</select> <span id="kc-plot-status" class="note"></span></div><div id="kc-chart"></div>`;
    this.select = root.querySelector('#kc-event')!;
    this.chart = root.querySelector('#kc-chart')!;
    this.select.addEventListener('change', () => { if (this.lastPose) this.update(this.lastPose); });
  }

  /** Asks for the curves of the pose's document and travel when they changed. */
  update(r: PoseResult): void {
    this.lastPose = r;
    if (!r.compliance) return;
    const doc = this.host.history.current;
    const docKey = this.host.docKey(doc);
    if (docKey !== r.docKey) return; // a newer document is on its way: its pose will ask
    const bump = r.view.travel[0] ?? 0;
    const event = this.select.value as Event;
    const key = JSON.stringify([docKey, bump, event]);
    if (key === this.asked) return;
    this.asked = key;
    this.request({ docKey, doc, compiled: this.host.live.compiledOf(doc), event, bump });
  }

  private request(req: KcCurvesRequest): void {
    if (this.busy) { this.pending = req; return; }
    this.busy = true;
    this.status('computing…');
    this.client.kc(req).then((result) => this.draw(req, result), (error: unknown) => {
      this.error = error instanceof Error ? error.message : String(error);
      this.status(this.error);
    }).finally(() => {
      this.busy = false;
      const next = this.pending;
      this.pending = null;
      if (next) this.request(next);
    });
  }

  private async draw(req: KcCurvesRequest, result: KcCurvesResult): Promise<void> {
    const rows = result.series.rows;
    const metrics = ['toe_angle', 'camber'].flatMap((m) => (rows.some((r) => m in r) ? [m] : [`left.${m}`, `right.${m}`])).filter((m) => rows.some((r) => typeof r[m] === 'number'));
    const { chartSvg, kcChart } = await loadPictures();
    const svg = await chartSvg(kcChart(result.series, metrics, nameOf(this.host.history.current)), { width: 300, height: 60 + 150 * metrics.length });
    this.chart.innerHTML = svg;
    this.shown = { key: JSON.stringify([req.docKey, req.bump, req.event]), result, metrics };
    this.error = null;
    this.status(result.failedSteps ? `${result.failedSteps} load(s) found no equilibrium` : `${result.ms.toFixed(0)} ms`);
  }

  private status(text: string): void {
    this.root.querySelector('#kc-plot-status')!.textContent = text;
  }

  /** Settled: every asked run drawn (tests). */
  get settled(): boolean {
    return !this.busy && this.pending === null;
  }

  dispose(): void {
    this.client.dispose();
  }
}
