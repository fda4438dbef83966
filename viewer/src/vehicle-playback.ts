/**
 * Vehicle mode's Simulate section (docs/vehicle.md, "Viewer"): runs the shown vehicle over
 * its file's `road:` or through its `steer:` step (a one-wheel bump by default) in its own
 * worker (vehicle-run.worker.ts) with a progress bar, then plays the run back in the 3D view
 * — play/pause, a time slider to scrub — moving the body, the wheels and the tyre-load
 * arrows, each link tinted by its axial force and each part by its largest joint force at
 * the time shown (run-tints.ts, as the corner models' playback) — and plots its energy budget and the four tyres' vertical loads against time.
 * The vehicle simulation is slow (~10 ms a step), so the default run is short.
 * A drag of a pickup takes the view back to the car at rest; an edit makes the run stale
 * (Simulate runs the edited car).
 */
import { PlaybackClock } from './playback-clock';
import { RunPlots } from './run-plots';
import { RunTints, chainTint } from './run-tints';
import { Playback, SLIDER_STEPS, VEHICLE_RUN_DEFAULTS, posedResult } from '../../src/index.ts';
import type { PoseResult, SimulationSettings, VehicleDocument, VehiclePlaybackFrame, VehicleRunMessage } from '../../src/index.ts';
import type { SceneView } from './scene';
import type { VehicleOverlay } from './vehicle-overlay';

/** What the playback uses of vehicle mode. */
export interface VehiclePlaybackHost {
  readonly scene: Pick<SceneView, 'update' | 'tint'>;
  readonly overlay: Pick<VehicleOverlay, 'updateRun'>;
  /** The vehicle shown, and its frame at rest (the structure a run's poses move). */
  readonly doc: VehicleDocument | null;
  readonly restPose: PoseResult | null;
  /** Back to the car at rest (the playback stopped showing). */
  showRest(): void;
}

const q = <T extends HTMLElement>(root: HTMLElement, sel: string) => root.querySelector(sel) as T;

export class VehiclePlayback {
  readonly model = new Playback();
  readonly root: HTMLElement;
  status: 'idle' | 'running' | 'completed' | 'failed' | 'error' = 'idle';
  message = '';
  /** The run's frame is drawn (else the car at rest). */
  showing = false;
  /** The body's pose drawn last [x, y, z, w, qx, qy, qz] (the browser tests read it). */
  shownBody: number[] | null = null;
  private worker: Worker | null = null;
  private runId = 0;
  private restMean = 1;
  private readonly clock = new PlaybackClock(this.model, () => this.show(), () => this.render());
  /** The run's energy budget and tyre loads against time. */
  readonly plots: RunPlots;
  /** Links and parts tinted by the run's forces while a frame is shown. */
  readonly tints = new RunTints(this.model);

  constructor(private readonly host: VehiclePlaybackHost, parent: HTMLElement) {
    const root = document.createElement('div');
    root.id = 'vehicle-sim';
    root.innerHTML = `<h4>Simulate</h4>
      <div class="row"><label>Duration <input id="vehicle-sim-duration" type="number" min="0.01" step="0.1" value="${VEHICLE_RUN_DEFAULTS.duration}" /> s</label>
        <label>step <input id="vehicle-sim-step" type="number" min="0.0001" step="0.0005" value="${VEHICLE_RUN_DEFAULTS.step}" /> s</label>
        <button id="vehicle-sim-run" title="Run the vehicle over the file's road or steer step (else a 25 mm bump under the front left wheel), in a worker">Simulate</button></div>
      <progress id="vehicle-sim-progress" max="1" value="0" hidden></progress>
      <div class="row"><button id="vehicle-sim-play" disabled>Play</button> <span id="vehicle-sim-clock">–</span></div>
      <input id="vehicle-sim-time" type="range" min="0" max="${SLIDER_STEPS}" step="any" value="0" disabled title="Time: drag to scrub" />
      <div id="vehicle-sim-status" class="note"></div>
      <div id="vehicle-sim-legend" class="note"></div>
      <div class="sim-plot" id="vehicle-sim-energy"></div>
      <div class="sim-plot" id="vehicle-sim-tyre" hidden></div>`;
    parent.appendChild(root);
    this.root = root;
    this.plots = new RunPlots(this.model, q(root, '#vehicle-sim-energy'), q(root, '#vehicle-sim-tyre'), () => Math.max(200, root.clientWidth - 4));
    new ResizeObserver(() => this.plots.resize()).observe(root);
    host.scene.tint = chainTint((kind, id) => this.tintOf(kind, id), host.scene.tint);
    q(root, '#vehicle-sim-run').addEventListener('click', () => this.run());
    q(root, '#vehicle-sim-play').addEventListener('click', () => (this.model.playing ? this.pause() : this.play()));
    const slider = q<HTMLInputElement>(root, '#vehicle-sim-time');
    slider.addEventListener('input', () => { this.model.pause(); this.model.seek(this.model.timeOfSlider(Number(slider.value))); this.showing = true; this.show(); });
  }

  /** Runs the vehicle shown with the settings in the fields; a run in progress is ended. */
  run(): void {
    const doc = this.host.doc;
    if (!doc) return;
    this.stop();
    const duration = Number(q<HTMLInputElement>(this.root, '#vehicle-sim-duration').value) || VEHICLE_RUN_DEFAULTS.duration;
    const step = Number(q<HTMLInputElement>(this.root, '#vehicle-sim-step').value) || VEHICLE_RUN_DEFAULTS.step;
    // a frame about every 20 ms of simulated time: smooth enough to play, few enough to post
    const settings: SimulationSettings = { duration, step, every: Math.max(1, Math.round(0.02 / step)) };
    this.model.reset(duration);
    this.model.time = 0;
    this.tints.reset();
    this.plots.dirty = true;
    this.status = 'running';
    this.message = 'starting…';
    const id = ++this.runId;
    this.worker = new Worker(new URL('./vehicle-run.worker.ts', import.meta.url), { type: 'module', name: 'vehicle-run' });
    this.worker.onmessage = (event: MessageEvent<VehicleRunMessage>) => { if (id === this.runId) this.onMessage(event.data); };
    this.worker.onerror = (event) => { if (id === this.runId) this.onMessage({ kind: 'error', message: `vehicle-run worker: ${event.message}` }); };
    this.worker.postMessage({ doc, settings });
    this.render();
  }

  /** Ends a run in progress (its frames so far stay) and goes back to the car at rest. */
  stop(): void {
    this.runId++;
    this.worker?.terminate();
    this.worker = null;
    if (this.status === 'running') { this.status = 'idle'; this.model.complete = true; }
    this.leave();
  }

  /** Another vehicle (or none): nothing to play. */
  reset(): void {
    this.stop();
    this.model.reset(0);
    this.model.time = 0;
    this.tints.reset();
    this.plots.dirty = true;
    this.status = 'idle';
    this.message = '';
    this.render();
  }

  /** Back to the car at rest (a drag began, the vehicle was edited). */
  leave(): void {
    this.model.pause();
    if (!this.showing) return;
    this.showing = false;
    this.shownBody = null;
    this.host.showRest();
    this.render();
  }

  play(): void {
    if (this.model.frames.length === 0) return;
    this.model.play();
    this.showing = true;
    this.clock.start();
    this.show();
  }

  pause(): void {
    this.model.pause();
    this.render();
  }

  private onMessage(m: VehicleRunMessage): void {
    if (m.kind === 'start') {
      this.model.header = m.header;
      this.message = `running ${m.source}…`;
    } else if (m.kind === 'frames') {
      const first = this.model.frames.length === 0;
      this.model.append(m.frames);
      this.tints.scaleFrom(m.frames);
      this.plots.dirty = true;
      if (first) {
        const f0 = m.frames[0] as VehiclePlaybackFrame;
        this.restMean = f0.tyres.reduce((s, x) => s + x, 0) / f0.tyres.length;
      }
    } else {
      this.worker?.terminate();
      this.worker = null;
      this.model.complete = true;
      if (m.kind === 'done') {
        this.status = m.status;
        const kept = `${this.model.frames.length} frames to t = ${this.model.end.toFixed(3)} s`;
        this.message = m.status === 'completed' ? `${m.steps} steps in ${(m.ms / 1000).toFixed(1)} s; ${kept}` : `the run failed: ${m.message ?? 'a step did not converge'} — ${kept} kept`;
      } else {
        this.status = 'error';
        this.message = `cannot simulate: ${m.message}`;
      }
    }
    this.render();
  }

  /** Draws the run at the time shown: the rest frame's parts moved, the wheels and the loads of that instant. */
  private show(): void {
    const base = this.host.restPose;
    if (!this.showing || !base || this.model.frames.length === 0) { this.render(); return; }
    this.model.seek(this.model.time);
    const poses = this.model.posesAt();
    const posed = posedResult(base, poses);
    const at = (i: number, k: number) => this.model.valueAt((f) => (f as VehiclePlaybackFrame).wheels[i][k]);
    const wheels = base.corners.map((_, i) => Array.from({ length: 9 }, (__, k) => at(i, k)));
    const corners = base.corners.map((c, i) => ({ ...c, wheelCenter: [wheels[i][0], wheels[i][1], wheels[i][2]] as [number, number, number], spin: [wheels[i][3], wheels[i][4], wheels[i][5]] as [number, number, number], contact: [wheels[i][6], wheels[i][7], wheels[i][8]] as [number, number, number] }));
    const shown = { ...posed, corners };
    this.host.scene.update(shown);
    const loads = base.corners.map((_, i) => this.model.valueAt((f) => f.tyres[i]));
    this.host.overlay.updateRun(shown, wheels.map((w) => w.slice(6)), loads, this.restMean);
    this.shownBody = poses.body ?? null;
    this.render();
  }

  /** The colour the view draws a rod or part in: the run's force at the time shown, or null (its own colour) at rest. */
  tintOf(kind: 'rod' | 'part', id: string): number | null {
    return this.showing ? this.tints.tint(kind, id) : null;
  }

  /** The controls and read-outs for the state of the run. */
  render(): void {
    const m = this.model, n = m.frames.length;
    const progress = q<HTMLProgressElement>(this.root, '#vehicle-sim-progress');
    progress.hidden = this.status !== 'running';
    progress.value = m.duration > 0 ? m.end / m.duration : 0;
    const play = q<HTMLButtonElement>(this.root, '#vehicle-sim-play');
    play.disabled = n === 0;
    play.textContent = m.playing ? 'Pause' : 'Play';
    const slider = q<HTMLInputElement>(this.root, '#vehicle-sim-time');
    slider.disabled = n === 0;
    slider.value = String(m.sliderValue());
    const f = n && this.showing ? (m.frames[m.locate().index] as VehiclePlaybackFrame) : null;
    q(this.root, '#vehicle-sim-clock').textContent = n ? `t = ${m.time.toFixed(3)} s${f ? `; heave ${f.body[0].toFixed(1)} mm, pitch ${f.body[1].toFixed(2)}°, roll ${f.body[2].toFixed(2)}°` : ''}` : '–';
    const status = q(this.root, '#vehicle-sim-status');
    status.textContent = this.status === 'running' ? `${this.message} t = ${m.end.toFixed(3)} of ${m.duration} s` : this.message;
    status.classList.toggle('failed', this.status === 'failed' || this.status === 'error');
    q(this.root, '#vehicle-sim-legend').textContent = this.showing ? this.tints.legend().join('; ') : '';
    this.plots.render();
  }
}
