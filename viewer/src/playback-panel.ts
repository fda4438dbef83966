/**
 * The Simulate panel: runs the current document's time simulation in its own worker
 * (simulation-client.ts), plays it back in the 3D view (play/pause, a time slider, a
 * speed menu), tints links by the force they carry, and plots the energy budget and the
 * tyre forces over time. Shown for documents with masses.
 *
 * While a run is shown, the view draws the frame at the slider's time over the last
 * solved pose (same structure, the parts moved). A drag takes the view back to the live
 * pose and pauses; an edit of the document runs it again once the gesture ends (in the
 * worker: the pose worker, and so the drag, never waits for it).
 */
import type { Vec3Tuple } from '../../src/index.ts';
import './playback.css';
import type { History } from '../../src/index.ts';
import type { HandleDragControls } from './drag';
import type { SceneView } from './scene';
import type { PoseResult } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import { nameOf } from './document';
import { PlaybackClock } from './playback-clock';
import { Playback, SLIDER_STEPS, posedResult } from '../../src/index.ts';
import { SimulationClient } from './simulation-client';
import { ENERGY_SERIES, RunPlots } from './run-plots';
import { RunTints, chainTint } from './run-tints';
import type { SimulationMessage, SimulationSettings } from '../../src/index.ts';

/** Settings that suit each example (the README's commands); others get the fallback. */
const DEFAULTS: Record<string, SimulationSettings> = {
  'pendulum.kinemate.json': { duration: 2.4, step: 0.001, every: 10 },
  'double-pendulum.kinemate.json': { duration: 5, step: 0.0005, every: 20 },
  'slider-crank-torque.kinemate.json': { duration: 1, step: 0.0005, every: 10 },
  'quarter-car-bump.kinemate.json': { duration: 2, step: 0.001, every: 10 },
  'dw-corner-bump.kinemate.json': { duration: 1, step: 0.001, every: 5 },
  'pinewood.kinemate.json': { duration: 3.4, step: 0.001, every: 10, rhoInf: 0.5 },
};
const FALLBACK: SimulationSettings = { duration: 2, step: 0.001, every: 10 };


/** Whether a document carries masses (a mass-less one cannot be simulated). */
export function hasMasses(doc: ViewerDocument): boolean {
  return doc.kind === 'assembly' && Object.values(doc.doc.parts).some((p) => (p as { mass?: unknown }).mass !== undefined);
}

/**
 * What stays the same across edits of one model and differs between models: an edited
 * document (masses, gravity, forces) runs again, another one does not. An assembly's
 * name and parts (an edited assembly is a new object, so its file name is not kept).
 */
function modelIdentity(doc: ViewerDocument): string {
  return doc.kind === 'assembly' ? JSON.stringify([doc.doc.name, Object.keys(doc.doc.parts).sort()]) : nameOf(doc);
}

const $ = <T extends HTMLElement>(root: HTMLElement, sel: string) => root.querySelector(sel) as T;

/** What the playback panel uses of the viewer. */
export interface PlaybackHost {
  readonly history: Pick<History<ViewerDocument>, 'current' | 'document$' | 'inGesture'>;
  readonly scene: Pick<SceneView, 'update' | 'frame' | 'tint'>;
  readonly drag: Pick<HandleDragControls, 'addEventListener'>;
  readonly lastPose: PoseResult | null;
  invalidate(): void;
}

export class PlaybackPanel {
  readonly model = new Playback();
  readonly client = new SimulationClient();
  readonly root: HTMLElement;
  /** The frame is drawn in the view (else the live pose). */
  showing = false;
  status: 'idle' | 'running' | 'completed' | 'failed' | 'error' = 'idle';
  message: string | null = null;
  /** The document of the run shown (an edit of it runs again). */
  private runDoc: ViewerDocument | null = null;
  private rerunPending = false;
  private dragging = false;
  private shown: PoseResult | null = null;
  /** Links and parts tinted by the forces of the run shown. */
  private readonly tints = new RunTints(this.model);
  private readonly plots: RunPlots;
  private readonly clock = new PlaybackClock(this.model, () => this.show(), () => this.render());

  constructor(private readonly app: PlaybackHost) {
    const root = document.createElement('section');
    root.id = 'sim-panel';
    root.hidden = true;
    root.innerHTML = `
      <h3>Simulate</h3>
      <div class="row"><label>Duration <input id="sim-duration" type="number" min="0" step="0.1" /> s</label>
        <label>step <input id="sim-step" type="number" min="0" step="0.0001" /> s</label>
        <button id="sim-run" title="Simulate the current document from its state (in a worker: drags go on)">Run</button></div>
      <div class="row"><button id="sim-play" title="Play or pause the run">Play</button>
        <span id="sim-clock">–</span>
        <label>speed <select id="sim-speed" title="Playback speed">${[0.1, 0.25, 0.5, 1, 2, 4].map((s) => `<option value="${s}"${s === 1 ? ' selected' : ''}>${s}×</option>`).join('')}</select></label></div>
      <input id="sim-time" type="range" min="0" max="${SLIDER_STEPS}" step="any" value="0" title="Time: drag to scrub" />
      <div id="sim-status"></div>
      <div id="sim-legend"></div>
      <div class="sim-plot" id="sim-energy"></div>
      <div class="sim-plot" id="sim-tyre" hidden></div>`;
    const side = document.getElementById('side')!;
    side.insertBefore(root, document.getElementById('hardpoints-panel'));
    this.root = root;
    this.plots = new RunPlots(this.model, $(root, '#sim-energy'), $(root, '#sim-tyre'), () => this.width());
    $(root, '#sim-run').addEventListener('click', () => this.run());
    $(root, '#sim-play').addEventListener('click', () => (this.model.playing ? this.pause() : this.play()));
    const slider = $<HTMLInputElement>(root, '#sim-time');
    slider.addEventListener('input', () => { this.model.pause(); this.model.seek(this.model.timeOfSlider(Number(slider.value))); this.showing = true; this.show(); });
    $<HTMLSelectElement>(root, '#sim-speed').addEventListener('change', (e) => { this.model.speed = Number((e.target as HTMLSelectElement).value); (e.target as HTMLSelectElement).blur(); });
    app.drag.addEventListener('dragging-changed', (e) => {
      this.dragging = e.value;
      if (e.value) this.leave();
      else if (this.rerunPending) this.rerun();
    });
    app.scene.tint = chainTint((kind, id) => (this.shown ? this.tints.tint(kind, id) : null), app.scene.tint);
    app.history.document$.subscribe((doc) => this.onDocument(doc));
    new ResizeObserver(() => this.resize()).observe(root);
  }

  private width(): number {
    return Math.max(200, (this.root?.clientWidth ?? 300) - 4);
  }

  private resize(): void {
    if (this.root.hidden) return;
    this.plots.resize();
  }

  // ------------------------------------------------------------ runs

  private settingsOf(doc: ViewerDocument): SimulationSettings {
    return DEFAULTS[nameOf(doc)] ?? FALLBACK;
  }

  private onDocument(doc: ViewerDocument): void {
    const show = hasMasses(doc);
    this.root.hidden = !show;
    if (this.runDoc && modelIdentity(this.runDoc) === modelIdentity(doc) && show) {
      // an edit of the document shown: run it again (once the gesture is over)
      if (doc !== this.runDoc) { this.rerunPending = true; if (!this.dragging && !this.app.history.inGesture) this.rerun(); }
      return;
    }
    // another document: its own settings, nothing played
    this.client.stop();
    this.leave();
    this.runDoc = null;
    this.rerunPending = false;
    this.model.reset(0);
    this.model.time = 0;
    this.status = 'idle';
    this.message = null;
    const s = this.settingsOf(doc);
    $<HTMLInputElement>(this.root, '#sim-duration').value = String(s.duration);
    $<HTMLInputElement>(this.root, '#sim-step').value = String(s.step);
    this.plots.dirty = true;
    this.render();
  }

  /** Runs the current document from t = 0 and plays it as it comes. */
  run(): void {
    const doc = this.app.history.current;
    const duration = Number($<HTMLInputElement>(this.root, '#sim-duration').value);
    const step = Number($<HTMLInputElement>(this.root, '#sim-step').value);
    if (!(duration > 0) || !(step > 0) || duration / step > 2_000_000) {
      this.status = 'error';
      this.message = 'the duration and the step must be positive numbers, at most 2 000 000 steps';
      this.render();
      return;
    }
    this.model.time = 0;
    this.start(doc, duration, step);
    this.frameOnDone = true;
    this.play();
  }

  /** Frame the camera on the whole motion when this run is done (a Run, not a re-run after an edit). */
  private frameOnDone = false;

  /** Points the camera at everywhere the run went (a pendulum swings out of its design's box). */
  private frameMotion(): void {
    const base = this.app.lastPose, n = this.model.frames.length;
    if (!base || n === 0) return;
    const design: Record<string, Vec3Tuple> = { ...base.design };
    for (let k = 0; k <= 24; k++) {
      const t = this.model.frames[Math.round((k / 24) * (n - 1))].t;
      for (const [ref, p] of Object.entries(posedResult(base, this.model.posesAt(t)).points)) design[`${ref}@${k}`] = p;
    }
    this.app.scene.frame({ ...base, design });
    this.app.invalidate();
  }

  private rerun(): void {
    this.rerunPending = false;
    this.frameOnDone = false;
    const doc = this.app.history.current;
    if (doc === this.runDoc) return;
    this.start(doc, this.model.duration, this.stepOfRun);
  }

  private stepOfRun = FALLBACK.step;

  private start(doc: ViewerDocument, duration: number, step: number): void {
    const base = this.settingsOf(doc);
    // a frame every 5 ms of simulated time (or every step), at most 20 000 a run: enough to interpolate between
    const every = Math.max(1, Math.round(Math.max(0.005, duration / 20_000) / step));
    const settings: SimulationSettings = { duration, step, every, ...(base.rhoInf !== undefined ? { rhoInf: base.rhoInf } : {}) };
    this.runDoc = doc;
    this.stepOfRun = step;
    this.model.reset(duration);
    this.tints.reset();
    this.status = 'running';
    this.message = null;
    this.showing = true;
    this.plots.dirty = true;
    this.client.start(doc, settings, (m) => this.onMessage(m));
    this.render();
  }

  private onMessage(m: SimulationMessage): void {
    if (m.kind === 'start') {
      this.model.header = m.header;
    } else if (m.kind === 'frames') {
      this.model.append(m.frames);
      this.tints.scaleFrom(m.frames);
      this.plots.dirty = true;
      if (this.showing) this.show();
    } else if (m.kind === 'done') {
      this.model.complete = true;
      if (this.frameOnDone) { this.frameOnDone = false; this.frameMotion(); }
      this.status = m.status;
      const lifts = m.events.filter((e) => e.type === 'lift_off').length;
      this.message = m.status === 'failed'
        ? `the run failed: ${m.message ?? 'a step did not converge'} — the ${this.model.frames.length} frames up to t = ${this.model.end.toFixed(3)} s are kept`
        : `${m.steps} steps, ${this.model.frames.length} frames${lifts ? `, ${lifts} lift-off${lifts > 1 ? 's' : ''}` : ''}; energy drift ${this.drift().toExponential(2)} J`;
      this.plots.dirty = true;
    } else {
      this.model.complete = true;
      this.status = 'error';
      this.message = `cannot simulate: ${m.message}${this.model.frames.length ? ` — the frames up to t = ${this.model.end.toFixed(3)} s are kept` : ''}`;
    }
    this.render();
  }

  private drift(): number {
    const f = this.model.frames;
    return f.length ? f[f.length - 1].energy.total - f[0].energy.total : 0;
  }

  // ------------------------------------------------------------ playing

  play(): void {
    this.model.play();
    this.showing = true;
    this.clock.start();
    this.show();
  }

  pause(): void {
    this.model.pause();
    this.render();
  }

  /** Back to the live pose (a drag began, another document). */
  private leave(): void {
    this.model.pause();
    if (!this.showing) return;
    this.showing = false;
    this.shown = null;
    if (this.app.lastPose) this.app.scene.update(this.app.lastPose);
    this.render();
  }

  /** A new solved pose arrived (the app drew it): the frame goes back over it. */
  onPose(): void {
    if (this.showing) this.show();
  }

  /** Draw the frame at the time shown. */
  show(): void {
    const base = this.app.lastPose;
    if (!this.showing || !base || this.model.frames.length === 0) { this.render(); return; }
    this.model.seek(this.model.time);
    this.shown = posedResult(base, this.model.posesAt());
    this.app.scene.update(this.shown);
    this.render();
  }

  // ------------------------------------------------------------ drawing the panel

  private render(): void {
    const m = this.model;
    const slider = $<HTMLInputElement>(this.root, '#sim-time');
    slider.disabled = m.frames.length === 0;
    slider.value = String(m.sliderValue());
    $(this.root, '#sim-play').textContent = m.playing ? 'Pause' : 'Play';
    ($(this.root, '#sim-play') as HTMLButtonElement).disabled = m.frames.length === 0;
    $(this.root, '#sim-clock').textContent = m.frames.length ? `${m.time.toFixed(3)} s` : '–';
    const status = $(this.root, '#sim-status');
    status.dataset.status = this.status;
    status.textContent = this.status === 'running' ? `running… ${m.end.toFixed(2)} of ${m.duration} s` : this.message ?? (this.status === 'idle' ? 'Run simulates this document from its state.' : '');
    $(this.root, '#sim-legend').textContent = this.shown ? this.tints.legend().join('; ') : '';
    this.plots.render();
  }

  /** For tests: the run and what is drawn. */
  state() {
    const m = this.model;
    return {
      visible: !this.root.hidden,
      status: this.status,
      message: this.message,
      frames: m.frames.length,
      duration: m.duration,
      end: m.end,
      time: m.time,
      playing: m.playing,
      speed: m.speed,
      showing: this.showing,
      header: m.header,
      points: this.shown?.points ?? null,
      /** The energy budget at the time shown (J). */
      energy: m.frames.length ? Object.fromEntries(ENERGY_SERIES.map((e) => [e.key, m.valueAt((f) => f.energy[e.key])])) : null,
      energyPoints: this.plots.points().energy,
      tyrePoints: this.plots.points().tyre,
    };
  }
}
