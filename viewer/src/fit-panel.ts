/**
 * The Fit panel (issue 14): inverse design on the design shown. A targets file (YAML, as
 * `kinemate fit --targets`, docs/sensitivity.md; the double wishbone's example to start)
 * runs through the library's `fit()` in a worker (`fit.worker.ts`) with its progress
 * shown; the result (moves, residual per target, what is on a bound) is then accepted as
 * one undo entry (every hardpoint at once) or discarded. Cancel ends the worker. On an axle
 * the fit keeps the left/right symmetry (a move names the left point and moves its mirror
 * too) and the panel starts from the axle's example.
 */
import { BufferGeometry, Group, LineBasicMaterial, LineSegments, Mesh, MeshBasicMaterial, SphereGeometry, Float32BufferAttribute } from 'three';
import type { History } from '../../src/index.ts';
import type { PoseResult } from '../../src/index.ts';
import type { SceneView } from './scene';
import type { FitProgress } from '../../src/index.ts';
import { EditRefused } from '../../src/index.ts';
import { acceptFitRecipe, runFit, type FitOutcome } from '../../src/index.ts';
import type { FitJob, FitWorkerReply } from './fit.worker';
import { hardpointPosition, type ViewerDocument } from './document';
import exampleTargets from '../../examples/sensitivity/fit_camber_gain.yaml?raw';
import exampleAxleTargets from '../../examples/sensitivity/fit_axle_camber_gain.yaml?raw';
import './analysis.css';

const fmt = (x: number, digits = 3) => (Math.abs(x) >= 1e4 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(2) : x.toFixed(digits)).replace('-', '−');

/** What the fit panel uses of the viewer. */
export interface FitHost {
  readonly history: Pick<History<ViewerDocument>, 'current' | 'document$' | 'apply'>;
  readonly scene: Pick<SceneView, 'scene'>;
  readonly lastPose: PoseResult | null;
  invalidate(): void;
}

export class FitPanel {
  private readonly el: Record<'targets' | 'run' | 'cancel' | 'load' | 'file' | 'progress' | 'status' | 'result' | 'accept' | 'discard', HTMLElement>;
  private worker: Worker | null = null;
  private nextId = 1;
  /** The fit in progress: its id and the document it started from. */
  private running: { id: number; doc: ViewerDocument } | null = null;
  /** The finished fit waiting to be accepted or discarded, and the document it fitted. */
  private pending: { outcome: FitOutcome; doc: ViewerDocument } | null = null;
  private fileName = 'fit_camber_gain.yaml';
  /** Every progress report of the last run (for the tests). */
  readonly progress: FitProgress[] = [];
  private error: string | null = null;
  /** The fitted pickups drawn in the 3D view while a result waits: a line from each pickup to where the fit puts it. */
  private readonly preview = new Group();

  constructor(private readonly app: FitHost) {
    this.preview.name = 'fit-preview';
    app.scene.scene.add(this.preview);
    const panel = document.createElement('details');
    panel.id = 'fit-panel';
    panel.innerHTML = `<summary>Fit (inverse design)</summary>
      <div class="note">Targets (YAML, as <code>kinemate fit --targets</code>): which pickups may move (mm from the design shown) and what the metrics should be.</div>
      <textarea id="fit-targets" spellcheck="false"></textarea>
      <div class="row"><button id="fit-load" title="Load a targets file (YAML or JSON)">Load targets…</button><input id="fit-file" type="file" accept=".yaml,.yml,.json" hidden />
      <button id="fit-run" title="Run the fit in a worker">Run fit</button><button id="fit-cancel" hidden>Cancel</button></div>
      <progress id="fit-progress" max="1" value="0" hidden></progress>
      <div id="fit-status" class="note"></div>
      <div id="fit-result"></div>
      <div class="row"><button id="fit-accept" disabled title="Move every fitted pickup (one undo entry)">Accept</button><button id="fit-discard" disabled title="Keep the design as it is">Discard</button></div>`;
    document.getElementById('side')!.insertBefore(panel, document.getElementById('hardpoints-panel'));
    const get = (id: string) => panel.querySelector<HTMLElement>(`#fit-${id}`)!;
    this.el = { targets: get('targets'), run: get('run'), cancel: get('cancel'), load: get('load'), file: get('file'), progress: get('progress'), status: get('status'), result: get('result'), accept: get('accept'), discard: get('discard') };
    (this.el.targets as HTMLTextAreaElement).value = exampleTargets;
    // a result answers the design it fitted: shown only while that design is the one shown (an undo may bring it back)
    app.history.document$.subscribe((doc) => {
      // an untouched example follows the kind of design shown: a corner's or an axle's
      const text = (this.el.targets as HTMLTextAreaElement).value;
      if (text === exampleTargets || text === exampleAxleTargets) {
        const axle = doc.kind === 'suspension' && (doc.geometry as { scope?: unknown }).scope === 'axle';
        this.setTargets(axle ? exampleAxleTargets : exampleTargets, axle ? 'fit_axle_camber_gain.yaml' : 'fit_camber_gain.yaml');
      }
      const p = this.pending;
      if (!p) return;
      this.drawPreview(doc === p.doc ? p.outcome : null);
      if (doc !== p.doc) this.setStatus('failed', 'The design changed since this fit ran: run it again, or undo back to it to accept it.');
      else this.showResult(p.outcome);
    });
    this.el.run.addEventListener('click', () => this.run());
    this.el.cancel.addEventListener('click', () => this.cancel());
    this.el.accept.addEventListener('click', () => this.accept());
    this.el.discard.addEventListener('click', () => this.discard());
    this.el.load.addEventListener('click', () => (this.el.file as HTMLInputElement).click());
    this.el.file.addEventListener('change', async () => {
      const input = this.el.file as HTMLInputElement;
      const file = input.files?.[0];
      if (file) this.setTargets(await file.text(), file.name);
      input.value = '';
    });
  }

  /** Put a targets file's text in the panel. */
  setTargets(text: string, fileName = 'targets.yaml'): void {
    (this.el.targets as HTMLTextAreaElement).value = text;
    this.fileName = fileName;
  }

  /** Run the fit on the design shown (a running one is cancelled first). */
  run(): void {
    this.cancel();
    this.clearResult();
    this.progress.length = 0;
    this.error = null;
    const doc = this.app.history.current;
    const id = this.nextId++;
    this.running = { id, doc };
    this.setStatus('running', 'Fitting…');
    this.el.progress.hidden = false;
    (this.el.progress as HTMLProgressElement).value = 0;
    this.el.run.hidden = true;
    this.el.cancel.hidden = false;
    const job: FitJob = { id, doc, targets: (this.el.targets as HTMLTextAreaElement).value, fileName: this.fileName };
    try {
      this.worker ??= this.makeWorker();
    } catch {
      this.worker = null;
    }
    if (this.worker) { this.worker.postMessage(job); return; }
    // no Worker: on this thread (the page waits)
    setTimeout(() => {
      try {
        const outcome = runFit(job.doc, job.targets, job.fileName, (progress) => this.onReply({ id, kind: 'progress', progress }));
        this.onReply({ id, kind: 'done', outcome });
      } catch (error) {
        this.onReply({ id, kind: 'error', error: error instanceof Error ? error.message : String(error) });
      }
    });
  }

  private makeWorker(): Worker {
    const worker = new Worker(new URL('./fit.worker.ts', import.meta.url), { type: 'module', name: 'fit' });
    worker.onmessage = (event: MessageEvent<FitWorkerReply>) => this.onReply(event.data);
    worker.onerror = (event) => { if (this.running) this.onReply({ id: this.running.id, kind: 'error', error: `fit worker: ${event.message}` }); };
    return worker;
  }

  /** Stop a running fit (its worker ends; a new one starts with the next run). */
  cancel(): void {
    if (!this.running) return;
    this.running = null;
    this.worker?.terminate();
    this.worker = null;
    this.el.run.hidden = false;
    this.el.cancel.hidden = true;
    this.el.progress.hidden = true;
    this.setStatus('', 'Cancelled.');
  }

  private onReply(reply: FitWorkerReply): void {
    const run = this.running;
    if (!run || reply.id !== run.id) return; // a cancelled run's late message
    if (reply.kind === 'progress') {
      const p = reply.progress;
      this.progress.push(p);
      (this.el.progress as HTMLProgressElement).value = p.iteration / p.maxIterations;
      this.setStatus('running', `Iteration ${p.iteration} (at most ${p.maxIterations}) · cost ${fmt(p.cost)} (from ${fmt(p.start)})`);
      return;
    }
    this.running = null;
    this.el.run.hidden = false;
    this.el.cancel.hidden = true;
    this.el.progress.hidden = true;
    if (reply.kind === 'error') {
      this.error = reply.error;
      this.setStatus('failed', `Fit refused — ${reply.error}`);
      return;
    }
    this.pending = { outcome: reply.outcome, doc: run.doc };
    this.showResult(reply.outcome);
    if (this.app.history.current !== run.doc) { this.drawPreview(null); this.setStatus('failed', 'The design changed while this fit ran: run it again, or undo back to it to accept it.'); }
  }

  private showResult(o: FitOutcome): void {
    const words = { converged: 'Converged', at_bounds: 'Best inside the boxes (some pickups on a bound)', stalled: 'Stalled', max_iterations: 'Stopped at the iteration cap' }[o.status];
    this.setStatus(o.status, `${words}: ${o.iterations} iterations, cost ${fmt(o.cost.start)} → ${fmt(o.cost.end)}.${o.at_bound.length ? ` On a bound: ${o.at_bound.join(', ')}.` : ''} Accept moves every pickup below (one undo entry).`);
    const row = (cells: string[], nums: boolean[]) => `<tr>${cells.map((c, i) => `<td${nums[i] ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`;
    const moves = Object.entries(o.moves).map(([k, m]) => row([k, fmt(m.from, 2), fmt(m.to, 2), `${m.delta > 0 ? '+' : ''}${fmt(m.delta, 2)}`], [false, true, true, true])).join('');
    const targets = o.targets.map((t) => row([t.target.replace(/^targets\[\d+\] /, ''), fmt(t.value, 4), t.wanted, fmt(t.residual, 4)], [false, true, false, true])).join('');
    this.el.result.innerHTML = `<table><tr><td>move (mm)</td><td class="num">from</td><td class="num">to</td><td class="num">Δ</td></tr>${moves}</table>
      <table><tr><td>target</td><td class="num">value</td><td>wanted</td><td class="num">residual</td></tr>${targets}</table>`;
    (this.el.accept as HTMLButtonElement).disabled = false;
    (this.el.discard as HTMLButtonElement).disabled = false;
    this.drawPreview(o);
  }

  /** Chassis pickups only: a moving part's point is not where its design coordinate says once the wheel has moved. */
  private drawPreview(o: FitOutcome | null): void {
    for (const child of [...this.preview.children]) { this.preview.remove(child); (child as Mesh).geometry.dispose(); }
    const pose = this.app.lastPose;
    const doc = this.pending?.doc;
    if (o && pose && doc) {
      const line: number[] = [];
      const ends: [number, number, number][] = [];
      for (const [name, to] of Object.entries(o.positions)) {
        // a chassis pickup is where the fitted document puts it, whatever pose is shown
        const chassis = pose.structure.handles.some((x) => x.kind === 'hardpoint' && x.hardpoint === name);
        const from = chassis ? hardpointPosition(doc, name) : null;
        if (!from) continue;
        line.push(...from, ...to);
        ends.push(to);
      }
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new Float32BufferAttribute(line, 3));
      this.preview.add(new LineSegments(geometry, PREVIEW_LINE));
      const pts = Object.values(pose.points);
      const span = (i: number) => Math.max(...pts.map((p) => p[i])) - Math.min(...pts.map((p) => p[i]));
      const radius = 0.012 * (Math.hypot(span(0), span(1), span(2)) || 1);
      for (const p of ends) {
        const ball = new Mesh(new SphereGeometry(radius, 12, 8), PREVIEW_BALL);
        ball.position.set(p[0], p[1], p[2]);
        this.preview.add(ball);
      }
    }
    this.app.invalidate();
  }

  /** Accept the fit: one undo entry moving every fitted pickup. Refused when the design changed since it ran. */
  accept(): boolean {
    const p = this.pending;
    if (!p) return false;
    if (this.app.history.current !== p.doc) {
      this.setStatus('failed', 'The design changed since this fit ran: run it again (or discard it).');
      return false;
    }
    // cleared first: the edit's new document must not read as "the design changed"
    this.clearResult();
    try {
      this.app.history.apply(acceptFitRecipe(p.outcome), `fit: ${Object.keys(p.outcome.positions).length} pickups`);
    } catch (error) {
      if (!(error instanceof EditRefused)) throw error;
      this.pending = p;
      this.showResult(p.outcome);
      this.setStatus('failed', `Accept refused — ${error.reason}`);
      return false;
    }
    this.setStatus('', 'Accepted: one undo entry (Ctrl+Z takes every move back).');
    return true;
  }

  discard(): void {
    if (!this.pending) return;
    this.clearResult();
    this.setStatus('', 'Discarded: the design is as it was.');
  }

  private clearResult(): void {
    if (this.pending) this.drawPreview(null);
    this.pending = null;
    this.el.result.innerHTML = '';
    (this.el.accept as HTMLButtonElement).disabled = true;
    (this.el.discard as HTMLButtonElement).disabled = true;
  }

  private setStatus(status: string, text: string): void {
    this.el.status.dataset.status = status;
    this.el.status.textContent = text;
  }

  /** What the tests read. */
  snapshot() {
    return {
      running: this.running !== null,
      progress: this.progress.map((p) => ({ iteration: p.iteration, cost: p.cost })),
      outcome: this.pending?.outcome ?? null,
      canAccept: !(this.el.accept as HTMLButtonElement).disabled,
      status: this.el.status.textContent,
      error: this.error,
      /** Fitted chassis pickups drawn in the view. */
      previewed: this.preview.children.length > 0 ? this.preview.children.length - 1 : 0,
    };
  }
}

const PREVIEW_LINE = new LineBasicMaterial({ color: 0x3ddc84 });
const PREVIEW_BALL = new MeshBasicMaterial({ color: 0x3ddc84, transparent: true, opacity: 0.8 });

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
