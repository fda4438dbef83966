/**
 * The viewer application: a client of the library's live model (`LiveModel`: the
 * document under undo, gestures, the view settings, one request in flight and one
 * latest pending per frame) whose solver is the pose worker, a presenter of its frames,
 * the sweep worker behind the plots, the 3D view, the plots, the HUD, the hardpoint
 * table and the file menu, wired together.
 *
 * Data flow: an edit or a drag → the live model's request (document version, view
 * settings, pull) → at most one per animation frame, the newest → the pose worker (one
 * in flight) → the frame is drawn at once. A failed solve is drawn as the last good pose
 * with what failed named.
 */
import type { Subscription } from 'rxjs';
import { Quaternion, Vector3 } from 'three';
import type { Draft } from 'immer';
import { EditRefused, type History, type SolveOutcome } from '../../src/reactive';
import {
  TEMPLATES, defaultDocument, hardpointPosition, moveHardpoint, nameOf, readDocument, geometryText, assemblyText, baseName,
  OpenError, readSweepFile, type SweepFileRange, type ViewerDocument, type Vec3,
} from './document';
import { PLOTTABLE, type PoseResult, type PullMode, type SweepKind, type SweepRequest, type SweepResult, type ViewSettings, type ViewState } from './engine';
import { plotsChart, plotsPictures, sweepGlb } from './pictures';
import { SolverClient, poseRequest } from './solver-client';
import { recordSample, SAMPLE_CAP } from './samples';
import { HardpointTable, renderHud, renderReadouts, round6 } from './panels';
import { AssemblePanel } from './assemble-panel';
import { PlaybackPanel } from './playback-panel';
import { SensitivityArrows } from './sensitivity-arrows';
import { FitPanel } from './fit-panel';
import { SceneView } from './scene';
import { HandleDragControls } from './drag';
import { PlotPanel } from './plots';
import { LoadsPanel } from './loads-panel';
import { ForceOverlay } from './force-overlay';
import { DeviceOverlay } from './device-overlay';
import { DevicesPanel } from './devices-panel';
import { setShimThickness } from './devices';
import {
  MATE_LABELS, PART_LIBRARY, addLibraryPart, applyRolesRecipe, coordinateNames, directedEntities, guessRoles, importParts, mateRecipe, mateTypesFor, newAssembly,
  pointRefs, removeMateRecipe, removePartRecipe, removeRolesRecipe, retypeMateRecipe, type EntityMateType, type PartPoses, type RolesForm,
} from './assemble';
import { AssemblyError, entityKind, parseAssembly, type AssemblyDoc, type EntityKind } from '../../src/assembly';
import { RolesError } from '../../src/suspension/roles';
import { ModelError } from '../../src/model/build';
import { LiveModel, liveEdits, type LiveLane, type LiveRequest } from '../../src/live';

/** A sweep request with the newest pose request it follows (`seq`) and its own id. */
interface TaggedSweep { id: number; seq: number; time: number; request: SweepRequest }

type SweepRange = { start: number; stop: number; steps: number };
/** The plots' sweep to start with: wheel travel ±50 mm, rack travel ±30 mm, 21 states. */
const SWEEP_DEFAULTS: Readonly<Record<SweepKind, SweepRange>> = { bump: { start: -50, stop: 50, steps: 21 }, steer: { start: -30, stop: 30, steps: 21 } };

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export class ViewerApp {
  /** The document, its undo history, gestures and the pose requests (src/live/live-model.ts); the pose worker solves. */
  readonly live: LiveModel<undefined, PoseResult, ViewSettings>;
  readonly scene: SceneView;
  readonly plots: PlotPanel;
  readonly drag: HandleDragControls;
  /** Assemble mode: parts, mates by picks, roles (viewer/src/assemble-panel.ts). */
  readonly assemblePanel: AssemblePanel;
  /** Simulate: a time simulation run in its own worker and played back (viewer/src/playback-panel.ts). */
  readonly playback: PlaybackPanel;
  /** Sensitivity arrows on the chassis pickups (viewer/src/sensitivity-arrows.ts). */
  readonly sensitivity: SensitivityArrows;
  /** Inverse design in a worker, accepted as one undo entry (viewer/src/fit-panel.ts). */
  readonly fitPanel: FitPanel;
  /** The load case and the loads' read-outs (viewer/src/loads-panel.ts); the link forces drawn (force-overlay.ts). */
  readonly loadsPanel: LoadsPanel;
  readonly forces: ForceOverlay;
  /** The suspension devices drawn (device-overlay.ts) and the shim thickness with the device metrics (devices-panel.ts). */
  readonly devices: DeviceOverlay;
  readonly devicesPanel: DevicesPanel;
  readonly poseClient = new SolverClient('pose');
  readonly sweepClient = new SolverClient('sweep');
  /** The plots' sweeps, scheduled beside the pose (the live model's lane: the newest per frame, one in flight). */
  private readonly sweeps: LiveLane<TaggedSweep, SweepResult>;
  private readonly subs: Subscription[] = [];
  /** Inputs not yet fully on screen, by the live model's request seq, with their time (for the frame latency). */
  private readonly inputs = new Map<number, { time: number; needsSweep: boolean; poseDone: boolean }>();
  /** Latest request seq shown on screen, for the pose and for the plots. */
  private shownPose = 0;
  private shownSweep = 0;
  /** Sweep requests asked for and shown, by their own ids. */
  private sweepId = 0;
  private shownSweepId = 0;
  private frameRequested = false;
  private drawnThisFrame = false;
  private dirty = true;
  lastPose: PoseResult | null = null;
  lastSweep: SweepResult | null = null;
  private baseline: SweepResult | null = null;
  /** The pinned design's metrics at design (the what-if deltas' reference). */
  private baselineDesign: Record<string, number | null> | null = null;
  private refusal: string | null = null;
  /** The reason of the live model's last refused edit (a drag move). */
  private lastRefusal = '';
  private workerError: string | null = null;
  /** The drag in progress as the viewer sees it (the live model holds the gesture). */
  private gesture: { kind: 'edit'; name: string; startWorld: Vector3; startHp: Vec3; inverse: Quaternion } | { kind: 'pull' } | null = null;
  private altAtPointerDown = false;
  /** The hardpoint table (suspension geometry): typed edits come back to onTableEdit. */
  private readonly table = new HardpointTable($('hardpoints-panel'), $('hardpoints'), (input) => this.onTableEdit(input));
  readonly stats = { pose: [] as number[], full: [] as number[], solveMs: [] as number[], sweepMs: [] as number[], renderMs: [] as number[], applyMs: [] as number[], sweepArrival: [] as number[], poseArrival: [] as number[], sweepStart: [] as number[], sweepRoundTrip: [] as number[], dispatch: [] as number[] };
  ready = false;

  constructor() {
    this.live = new LiveModel<undefined, PoseResult, ViewSettings>(defaultDocument(), {
      remote: true,
      leading: true,
      settings: { view: { travel: [], rack: 0 }, loads: null },
      solver: (request) => this.poseClient.pose(poseRequest(request)),
      failureOf: (result) => ({ message: result.message ?? 'failed', failed: result.failed }),
    });
    this.subs.push(this.live.errors$.subscribe((e) => { if (e.kind === 'refused') this.lastRefusal = e.reason; }));
    this.sweeps = this.live.lane((t: TaggedSweep) => {
      recordSample(this.stats.sweepStart, performance.now() - t.time);
      const t0 = performance.now();
      return this.sweepClient.sweep(t.request).then((r) => { recordSample(this.stats.sweepRoundTrip, performance.now() - t0); return r; });
    });
    // remember modifier keys of the pointerdown before the drag controls see it
    window.addEventListener('pointerdown', (e) => { this.altAtPointerDown = e.altKey; }, { capture: true });
    const view = $('view');
    this.scene = new SceneView(view, { onInvalidate: () => this.invalidate() });
    // the drag controls register their capture-phase pointerdown on the canvas; OrbitControls
    // (created in SceneView) listens in the bubble phase, so a handle grab never orbits
    this.drag = new HandleDragControls(this.scene.camera, this.scene.renderer.domElement, () => this.scene.handles);
    this.plots = new PlotPanel($('plots'));
    // a plot that picks a metric of the steering response needs it at every step: sweep again
    this.plots.onChoose = () => { if (this.lastPose?.suspension) this.requestSweep(); };
    this.assemblePanel = new AssemblePanel(this);
    this.playback = new PlaybackPanel(this);
    this.sensitivity = new SensitivityArrows(this);
    this.fitPanel = new FitPanel(this);
    this.forces = new ForceOverlay(this.scene);
    this.devices = new DeviceOverlay(this.scene);
    this.devicesPanel = new DevicesPanel($('devices-panel'), (path, thickness) => this.editShim(path, thickness));
    this.loadsPanel = new LoadsPanel($('loads-panel'), () => {
      this.live.setSettings({ ...this.live.settings, loads: this.loadsPanel.activeLoadCase() });
      this.noteInput();
      if (this.plots.needsLoads()) this.requestSweep();
    });
    this.wireDrag();
    this.wirePipelines();
    this.wireUi();
    this.subs.push(this.history.document$.subscribe((doc) => this.onDocument(doc)));
  }

  // ------------------------------------------------------------ versions and requests

  /** The undo history of the document (the live model's). */
  get history(): History<ViewerDocument> {
    return this.live.history;
  }

  /** Where the suspension sits (the live model's view settings). */
  get view(): ViewState {
    return this.live.settings.view;
  }

  /** A document's version (the live model's): what the worker's results carry back. */
  docKey(doc: ViewerDocument): number {
    return this.live.versionOf(doc);
  }

  /** The live model's newest request, with the time of the input behind it (for the frame latency). */
  private noteInput(time = performance.now(), needsSweep = false): void {
    const seq = this.live.requestSeq;
    // an input never shown (its worker failed, the page was hidden) must not be kept for ever
    if (this.inputs.size >= SAMPLE_CAP) this.inputs.delete(this.inputs.keys().next().value!);
    this.inputs.set(seq, { time, needsSweep, poseDone: false });
    if (needsSweep) this.requestSweep(time);
  }

  private requestSweep(time = performance.now()): void {
    const doc = this.history.current;
    const range = this.sweepRange();
    this.goodRange = range;
    const request: SweepRequest = { docKey: this.docKey(doc), doc, kind: this.sweepKind(), range, steering: this.plots.needsSteering(), derivatives: this.plots.needsDerivatives(), loads: this.plots.needsLoads() ? this.loadsPanel.loadCase() : null };
    this.sweeps.request({ id: ++this.sweepId, seq: this.live.requestSeq, time, request });
  }

  private sweepKind(): SweepKind {
    return ($('sweep-kind') as HTMLSelectElement).value === 'steer' ? 'steer' : 'bump';
  }

  /** The range each kind of sweep had when the other was picked (bump and steer keep their own). */
  private readonly ranges: Record<SweepKind, SweepRange> = { bump: { ...SWEEP_DEFAULTS.bump }, steer: { ...SWEEP_DEFAULTS.steer } };

  /** The kind whose range the inputs hold. */
  private rangeKind: SweepKind = 'bump';

  private setSweepKind(kind: SweepKind, range?: SweepRange): void {
    if (this.rangeKind !== kind) this.ranges[this.rangeKind] = this.sweepRange();
    this.rangeKind = kind;
    ($('sweep-kind') as HTMLSelectElement).value = kind;
    const r = range ?? this.ranges[kind];
    ($('sweep-from') as HTMLInputElement).value = String(r.start);
    ($('sweep-to') as HTMLInputElement).value = String(r.stop);
    ($('sweep-steps') as HTMLInputElement).value = String(r.steps);
    if (this.lastPose) this.plots.setMarker(this.markerOf(this.lastPose));
    this.requestSweep();
  }

  /** The last range the inputs held that was a range (what a bad entry goes back to). */
  private goodRange: SweepRange | null = null;

  /** A sweep input changed: a bad entry is named and put back, a good one sweeps. */
  private onSweepInput(): void {
    const read = (id: string) => { const input = $(id) as HTMLInputElement; return input.value.trim() === '' ? NaN : Number(input.value); };
    const from = read('sweep-from'), to = read('sweep-to'), steps = read('sweep-steps');
    const problem = !Number.isFinite(from) ? 'the sweep\'s start is not a number'
      : !Number.isFinite(to) ? 'the sweep\'s end is not a number'
      : from === to ? `the sweep starts and ends at ${from} mm: it needs a range`
      : !Number.isInteger(steps) || steps < 2 || steps > 201 ? 'the sweep\'s steps must be a whole number from 2 to 201'
      : null;
    if (problem) {
      const back = this.goodRange ?? SWEEP_DEFAULTS[this.sweepKind()];
      this.showError(`Sweep refused — ${problem}; it stays ${back.start} to ${back.stop} mm in ${back.steps} steps.`);
      ($('sweep-from') as HTMLInputElement).value = String(back.start);
      ($('sweep-to') as HTMLInputElement).value = String(back.stop);
      ($('sweep-steps') as HTMLInputElement).value = String(back.steps);
      return;
    }
    this.hideError();
    this.requestSweep();
  }

  /** Where the current pose is on the plots' x axis. */
  private markerOf(result: PoseResult): number | null {
    if (!result.suspension) return null;
    return this.sweepKind() === 'steer' ? result.view.rack : result.view.travel[0] ?? 0;
  }

  private sweepRange(): SweepRange {
    // an empty or zero-length range falls back to this kind's defaults
    const fallback = SWEEP_DEFAULTS[this.sweepKind()];
    const num = (id: string, d: number) => { const input = $(id) as HTMLInputElement; const v = Number(input.value); return input.value.trim() !== '' && Number.isFinite(v) ? v : d; };
    const start = num('sweep-from', fallback.start), stop = num('sweep-to', fallback.stop);
    const steps = Math.max(2, Math.min(201, Math.round(num('sweep-steps', fallback.steps))));
    return start === stop ? { start: fallback.start, stop: fallback.stop, steps } : { start, stop, steps };
  }

  private pendingEditTime: number | undefined;

  private onDocument(doc: ViewerDocument): void {
    void doc;
    if (this.assemblePanel.assembling) this.assemblePanel.render();
    const time = this.pendingEditTime;
    this.pendingEditTime = undefined;
    // the live model asked for the pose of this document (its subscription comes first)
    this.noteInput(time, true);
    this.updateToolbar();
  }

  // ------------------------------------------------------------ pipelines

  private wirePipelines(): void {
    this.subs.push(
      // the live model's frames: the first input of a quiet frame went to the worker at
      // once (a drag's moves come as pointerrawupdate, between frames), the newest of the
      // rest once a frame
      this.live.frames$.subscribe((o) => this.onPoseOutcome(o.latest)),
      this.sweeps.outcomes$.subscribe((o) => {
        if (o.kind === 'error') { this.shownSweep = o.input.seq; this.shownSweepId = o.input.id; this.workerError = String(o.error instanceof Error ? o.error.message : o.error); this.renderHud(); return; }
        if (o.output.docKey !== this.docKey(this.history.current)) { this.shownSweep = Math.max(this.shownSweep, o.input.seq); this.shownSweepId = o.input.id; return; }
        this.lastSweep = o.output;
        recordSample(this.stats.sweepMs, o.output.ms);
        recordSample(this.stats.sweepArrival, performance.now() - o.input.time);
        this.plots.setSweep(o.output);
        this.scene.updateSweep(o.output);
        if (this.baseline && this.lastPose) this.renderReadouts();
        this.shownSweep = o.input.seq;
        this.shownSweepId = o.input.id;
        // the plots are drawn (their canvases, at once); the 3D view only changes by the
        // steering axes' surface. During a gesture that waits for the next pose's draw
        // (one frame of GPU work, not two; a software rasteriser shares the CPU with the
        // solver), or at most 50 ms
        this.recordShown(performance.now());
        if (this.gesture) {
          this.dirty = true;
          setTimeout(() => { if (this.dirty) this.invalidate(); }, 50);
        } else this.renderNow();
      }),
    );
  }

  /** A frame of the live model: the worker's pose result (or its error), drawn at once. */
  private onPoseOutcome(latest: SolveOutcome<LiveRequest<ViewSettings>, PoseResult>): void {
    const seq = latest.input.seq;
    if (latest.kind === 'error') {
      this.shownPose = seq;
      this.workerError = String(latest.error instanceof Error ? latest.error.message : latest.error);
      this.renderHud();
      return;
    }
    this.workerError = null;
    const result = latest.output;
    // a late result of an old document is not drawn over a newer one
    if (result.docKey !== this.docKey(this.history.current)) { this.shownPose = Math.max(this.shownPose, seq); return; }
    const input = this.inputs.get(seq);
    if (input) recordSample(this.stats.poseArrival, performance.now() - input.time);
    try {
      const t = performance.now();
      this.applyPose(result);
      recordSample(this.stats.applyMs, performance.now() - t);
    } catch (error) {
      // a drawing bug must not end the stream: say it and keep going
      this.workerError = `viewer: ${error instanceof Error ? error.message : String(error)}`;
      this.renderHud();
    }
    this.shownPose = seq;
    // draw at once: the result is already a frame late (it waited for its frame to be
    // requested); a second wait for the next animation frame would only add latency
    this.renderNow();
  }

  private applyPose(result: PoseResult): void {
    this.lastPose = result;
    // where the pose is (a pull moves the wheel): the next request starts there
    this.live.setSettings({ ...this.live.settings, view: result.view }, { solve: false });
    recordSample(this.stats.solveMs, result.ms.total);
    this.scene.update(result);
    this.playback.onPose();
    this.sensitivity.update(result);
    this.forces.update(result, this.loadsPanel.drawForces);
    this.loadsPanel.render(result);
    this.devices.update(result);
    this.devicesPanel.render(this.history.current, result);
    this.plots.setMarker(this.markerOf(result));
    // a steer sweep needs a rack: offered only where there is one
    const steerOption = document.querySelector<HTMLOptionElement>('#sweep-kind option[value="steer"]')!;
    steerOption.disabled = result.holds.ids.length === 0;
    if (steerOption.disabled && this.sweepKind() === 'steer') this.setSweepKind('bump');
    this.renderReadouts();
    this.renderHud();
    this.renderTable();
    this.renderHolds(result);
    // suspension controls only where there is a suspension (issue 16: a four-bar has no bump)
    showIf($('sweep-control'), result.suspension);
    showIf($('hint-suspension'), result.suspension);
    showIf($('hint-assembly'), !result.suspension);
    showIf($('plots'), result.suspension);
    showIf($('plots-note'), !result.suspension);
    // a plot offers only the metrics this linkage has (a trailing arm has no steering axis: no caster)
    if (result.suspension) this.plots.offer(result.docKey, result.designMetrics);
    $('model-name').textContent = nameOf(this.history.current);
  }

  // ------------------------------------------------------------ render loop

  invalidate(): void {
    this.dirty = true;
    this.requestFrame();
  }

  private requestFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.drawnThisFrame = false;
      this.frame();
    });
  }

  /**
   * Draw a result at once (it is already a frame late: it waited for its frame to be
   * requested), but at most once between two animation frames: the screen shows one
   * frame per refresh, and a second draw before it (the sweep right after the pose)
   * would only double the GPU's work; the next frame draws it instead.
   */
  private renderNow(): void {
    this.dirty = true;
    if (!this.drawnThisFrame) {
      this.frame();
      this.drawnThisFrame = true;
    }
    this.requestFrame();
  }

  private frame(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const start = performance.now();
    this.scene.render();
    const now = performance.now();
    recordSample(this.stats.renderMs, now - start);
    this.recordShown(now);
    if (!this.ready && this.lastPose && (this.lastSweep || !this.lastPose.suspension)) {
      this.ready = true;
      document.body.dataset.ready = 'true';
    }
  }

  /**
   * Latency of every input now drawn, or superseded by a newer one that is: pose = the
   * linkage and read-outs, full = also the plots (for edits, which change them).
   */
  private recordShown(now: number): void {
    for (const [seq, input] of this.inputs) {
      if (seq > this.shownPose) continue;
      if (!input.poseDone) { input.poseDone = true; recordSample(this.stats.pose, now - input.time); }
      if (!input.needsSweep || this.shownSweep >= seq) { recordSample(this.stats.full, now - input.time); this.inputs.delete(seq); }
    }
  }

  // ------------------------------------------------------------ drags

  private wireDrag(): void {
    const d = this.drag;
    // lighter frames while something moves (a click that picks in assemble mode moves nothing)
    d.addEventListener('dragging-changed', (e) => { this.scene.controls.enabled = !e.value; this.scene.setInteractive(e.value && !this.assemblePanel.assembling); });
    d.addEventListener('hoveron', (e) => this.scene.setHovered(e.object));
    d.addEventListener('hoveroff', () => this.scene.setHovered(null));
    d.addEventListener('dragstart', (e) => {
      const h = this.scene.handleInfo.get(e.object);
      if (!h || !this.lastPose) return;
      if (this.assemblePanel.assembling) { this.assemblePanel.pick(h.ref); return; } // assemble mode: clicks pick points
      if (h.kind === 'anchor') return; // a fixed part's point: nothing to drag
      this.plots.freeze(true);
      const doc = this.history.current;
      const edit = doc.kind === 'suspension' && h.hardpoint !== undefined && (h.kind === 'hardpoint' || this.altAtPointerDown);
      if (edit && doc.kind === 'suspension') {
        const start = hardpointPosition(doc, h.hardpoint!);
        if (!start || !this.live.beginDrag({ kind: 'hardpoint', name: h.hardpoint! }, `move ${h.hardpoint}`)) return;
        const pose = this.lastPose.poses[h.part];
        const q = pose ? new Quaternion(pose[4], pose[5], pose[6], pose[3]).invert() : new Quaternion();
        this.gesture = { kind: 'edit', name: h.hardpoint!, startWorld: e.point.clone(), startHp: start, inverse: q };
        this.refusal = null;
      } else {
        // the suspension pull's strategy: the rack in steer, the wheel in bump; a mechanism pulls freely
        const mode: PullMode = h.kind === 'rack' ? 'steer' : this.lastPose.suspension ? 'bump' : 'free';
        const axis = e.object.userData.dragAxis as Vector3 | null | undefined;
        const corner = h.corner !== undefined && this.lastPose.corners.length > 1 ? { corner: h.corner } : {};
        if (!this.live.beginDrag({ kind: 'pull', part: h.part, point: h.local, mode, ...(axis ? { axis: [axis.x, axis.y, axis.z] } : {}), ...corner })) return;
        this.gesture = { kind: 'pull' };
      }
    });
    d.addEventListener('drag', (e) => {
      const g = this.gesture;
      if (!g) return;
      recordSample(this.stats.dispatch, performance.now() - e.time);
      if (g.kind === 'edit') {
        const delta = e.point.clone().sub(g.startWorld).applyQuaternion(g.inverse);
        const p: Vec3 = [round6(g.startHp[0] + delta.x), round6(g.startHp[1] + delta.y), round6(g.startHp[2] + delta.z)];
        // the edit's time: the live model's request for it is noted when the document changes
        this.pendingEditTime = e.time;
        if (this.live.dragTo(p)) this.refusal = null;
        else { this.pendingEditTime = undefined; this.refusal = `${g.name}: ${this.lastRefusal}`; this.renderHud(); }
      } else {
        this.live.dragTo([e.point.x, e.point.y, e.point.z]);
        this.noteInput(e.time);
      }
    });
    d.addEventListener('dragend', () => {
      const g = this.gesture;
      this.gesture = null;
      if (g) this.live.endDrag();
      // a pull ends where it let go, solved again from the design: the pose is then a
      // function of the document and the view alone (exact undo)
      if (g?.kind === 'pull' && this.lastPose?.suspension) { this.live.resolve({ fresh: true }); this.noteInput(); }
      this.plots.freeze(false);
      this.refusal = null;
      this.updateToolbar();
    });
    d.addEventListener('dragcancel', () => {
      const g = this.gesture;
      this.gesture = null;
      // an edit rolls back; a pull returns to the view (and state) at its start
      if (g) this.live.cancelDrag();
      if (g?.kind === 'pull') this.noteInput();
      this.plots.freeze(false);
      this.refusal = null;
      this.updateToolbar();
    });
  }

  setView(view: ViewState): void {
    this.live.setSettings({ ...this.live.settings, view });
    this.noteInput();
  }

  // ------------------------------------------------------------ read-outs, HUD, table

  private renderReadouts(): void {
    renderReadouts($('readouts'), this.lastPose!, this.baseline ? this.baselineDesign : null);
  }

  private renderHud(): void {
    renderHud(this.lastPose, this.refusal, this.workerError);
  }

  private renderTable(): void {
    this.table.render(this.history.current, this.lastPose!);
  }

  /** A camber shim's setup thickness typed in the devices panel: one undo entry, or refused with why. */
  private editShim(path: string[], thickness: number): string | null {
    try {
      this.history.apply(setShimThickness(path, thickness), `camber shim ${thickness} mm`);
      this.hideError();
      return null;
    } catch (error) {
      if (!(error instanceof EditRefused)) throw error;
      this.showError(`Camber shim refused — ${error.reason}`);
      return error.reason;
    }
  }

  private onTableEdit(input: HTMLInputElement): void {
    const row = input.closest('tr')!;
    const name = row.dataset.hardpoint!;
    const doc = this.history.current;
    if (doc.kind !== 'suspension') return;
    const p = hardpointPosition(doc, name);
    const value = Number(input.value);
    if (!p || input.value.trim() === '' || !Number.isFinite(value)) { this.showError(`${name}: not a number: ${JSON.stringify(input.value)}`); this.renderTable(); return; }
    const next: Vec3 = [p[0], p[1], p[2]];
    next[Number(input.dataset.axis)] = value;
    try {
      this.history.apply(moveHardpoint(name, next), `edit ${name}`);
      this.hideError();
    } catch (error) {
      if (error instanceof EditRefused) { this.showError(`Edit refused — ${error.reason}`); input.value = String(p[Number(input.dataset.axis)]); }
      else throw error;
    }
  }

  // ------------------------------------------------------------ toolbar, files, keys

  private wireUi(): void {
    const select = $<HTMLSelectElement>('template');
    for (const t of TEMPLATES) { const o = document.createElement('option'); o.value = t.id; o.textContent = t.label; select.appendChild(o); }
    const custom = document.createElement('option');
    // shown (and pickable) only while an opened file is the model: before that it would do nothing
    custom.value = ''; custom.textContent = '(opened file)'; custom.hidden = true; custom.disabled = true;
    custom.id = 'template-opened';
    select.appendChild(custom);
    select.addEventListener('change', () => {
      const t = TEMPLATES.find((x) => x.id === select.value);
      if (t) this.replaceDocument(t.make(), `template ${t.label}`);
      select.blur();
    });
    $('open').addEventListener('click', () => $<HTMLInputElement>('file').click());
    $<HTMLInputElement>('file').addEventListener('change', async (e) => {
      const input = e.target as HTMLInputElement;
      const file = input.files?.[0];
      if (file) await this.openFile(file.name, await file.text());
      input.value = '';
    });
    const view = $('view');
    window.addEventListener('dragover', (e) => { e.preventDefault(); view.classList.add('dragover'); });
    window.addEventListener('dragleave', () => view.classList.remove('dragover'));
    window.addEventListener('drop', async (e) => {
      e.preventDefault();
      view.classList.remove('dragover');
      const file = e.dataTransfer?.files?.[0];
      if (file) await this.openFile(file.name, await file.text());
    });
    $('save-geometry').addEventListener('click', () => {
      const doc = this.history.current;
      const text = geometryText(doc);
      if (text !== null) { download(`${baseName(nameOf(doc))}.yaml`, text, 'application/yaml'); this.history.markSaved(); }
    });
    $('save-assembly').addEventListener('click', () => {
      const doc = this.history.current;
      download(`${baseName(nameOf(doc))}.kinemate.json`, assemblyText(doc), 'application/json');
    });
    $('export-csv').addEventListener('click', () => void this.exportCsv());
    $('save-plots').addEventListener('click', () => void this.savePlots());
    $('export-gltf').addEventListener('click', () => void this.exportGltf());
    $('undo').addEventListener('click', () => this.undo());
    $('redo').addEventListener('click', () => this.redo());
    $('reset-pose').addEventListener('click', () => {
      if (this.lastPose?.suspension) this.setView({ travel: this.view.travel.map(() => 0), rack: 0 });
      else { this.live.resolve({ fresh: true }); this.noteInput(); }
    });
    $('pin-baseline').addEventListener('click', () => this.toggleBaseline());
    for (const id of ['sweep-from', 'sweep-to', 'sweep-steps']) $(id).addEventListener('change', () => this.onSweepInput());
    $('sweep-kind').addEventListener('change', (e) => { this.setSweepKind(this.sweepKind()); (e.target as HTMLSelectElement).blur(); });
    $<HTMLSelectElement>('hold').addEventListener('change', (e) => {
      const hold = (e.target as HTMLSelectElement).value;
      try {
        this.history.apply(liveEdits.setSuspensionHold(hold), `hold ${hold}`);
        this.hideError();
      } catch (error) {
        if (error instanceof EditRefused) this.showError(`Hold refused — ${error.reason}`);
        else throw error;
        if (this.lastPose) this.renderHolds(this.lastPose);
      }
      (e.target as HTMLSelectElement).blur();
    });
    $('error-close').addEventListener('click', () => this.hideError());
    window.addEventListener('keydown', (e) => {
      const target = e.target as HTMLElement | null;
      // text fields keep their own undo; everywhere else the document's
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && (e.key === 'z' || e.key === 'Z')) { e.preventDefault(); if (e.shiftKey) this.redo(); else this.undo(); }
      else if (mod && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); this.redo(); }
    });
    this.updateToolbar();
  }

  /** The bump sweep as CSV: the full sweep (steering response at every step) of the design now shown. */
  private async exportCsv(): Promise<void> {
    const doc = this.history.current;
    try {
      const sweep = await this.sweepClient.sweep({ docKey: this.docKey(doc), doc, kind: this.sweepKind(), range: this.sweepRange(), full: true });
      if (sweep.csv) download(`${baseName(nameOf(doc))}-${sweep.kind}.csv`, sweep.csv, 'text/csv');
      else this.showError('Export CSV: this model has no suspension roles, so there is no bump sweep to export.');
    } catch (error) {
      this.showError(`Export CSV failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The plots shown, as SVG and PNG (the charts of `kinemate plot`). */
  private async savePlots(): Promise<void> {
    const sweep = this.lastSweep;
    if (!sweep || sweep.travel.length === 0) { this.showError('Save plots: this model has no suspension roles, so there are no plots to save.'); return; }
    try {
      const doc = this.history.current;
      const plots = this.plots.chosen.map((metric) => PLOTTABLE.find((p) => p.metric === metric) ?? { metric, label: metric, unit: '' });
      const chart = plotsChart({ source: nameOf(doc), sweep, baseline: this.baseline, plots, design: this.lastPose?.designMetrics ?? null });
      const { svg, png } = await plotsPictures(chart);
      const name = `${baseName(nameOf(doc))}-${sweep.kind}-plots`;
      download(`${name}.svg`, svg, 'image/svg+xml');
      download(`${name}.png`, png, 'image/png');
    } catch (error) {
      this.showError(`Save plots failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The current sweep as an animated glTF (the file of `kinemate export --gltf`). */
  private async exportGltf(): Promise<void> {
    const doc = this.history.current;
    try {
      const range = this.sweepRange();
      const sweep = await this.sweepClient.sweep({ docKey: this.docKey(doc), doc, kind: this.sweepKind(), range, poses: true });
      if (!sweep.states || !sweep.assembly || sweep.states.length === 0) { this.showError('Export glTF: this model has no suspension roles, so there is no sweep to export.'); return; }
      const glb = await sweepGlb(sweep.assembly, sweep.states, { source: nameOf(doc), sweep: sweep.kind, travel: sweep.travel, failedSteps: sweep.failedSteps });
      download(`${baseName(nameOf(doc))}-${sweep.kind}.glb`, new Blob([glb.slice()], { type: 'model/gltf-binary' }), 'model/gltf-binary');
    } catch (error) {
      this.showError(`Export glTF failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  undo(): void {
    if (this.live.undo()) this.updateToolbar();
  }

  redo(): void {
    if (this.live.redo()) this.updateToolbar();
  }

  private updateToolbar(): void {
    $<HTMLButtonElement>('undo').disabled = !this.history.canUndo;
    $<HTMLButtonElement>('redo').disabled = !this.history.canRedo;
    const doc = this.history.current;
    $<HTMLButtonElement>('save-geometry').disabled = doc.kind !== 'suspension';
    const select = $<HTMLSelectElement>('template');
    const match = TEMPLATES.find((t) => t.name === nameOf(doc));
    const opened = $<HTMLOptionElement>('template-opened');
    opened.hidden = opened.disabled = match !== undefined;
    select.value = match ? match.id : '';
  }

  /** A new document (a template, an opened file): one undo entry, the view and baseline reset. */
  replaceDocument(doc: ViewerDocument, label: string): void {
    this.live.setSettings({ ...this.live.settings, view: { travel: [], rack: 0 } }, { solve: false });
    this.baseline = null;
    this.baselineDesign = null;
    this.plots.setBaseline(null);
    this.scene.setBaseline(null);
    $('pin-baseline').classList.remove('active');
    $('pin-baseline').textContent = 'Pin baseline';
    this.history.apply(() => doc as Draft<ViewerDocument>, label);
    this.scene.frameNext = this.docKey(this.history.current);
    this.hideError();
  }

  /** Open a file's text; a malformed file shows the loader's message and keeps the model. */
  async openFile(name: string, text: string): Promise<boolean> {
    try {
      // a bump sweep file sets the plots' range (and the hold); the model stays
      const range = readSweepFile(name, text, this.history.current);
      if (range) { this.applySweepRange(name, range); return true; }
      const doc = readDocument(name, text);
      this.replaceDocument(doc, `open ${name}`);
      return true;
    } catch (error) {
      if (error instanceof OpenError) { this.showError(`Could not open ${error.fileName} — the model is unchanged.\n${error.detail}`); return false; }
      if (error instanceof EditRefused) { this.showError(`Could not open ${name} — the model is unchanged.\n${error.reason}`); return false; }
      throw error;
    }
  }

  private applySweepRange(name: string, range: SweepFileRange): void {
    let note = `${range.kind === 'steer' ? 'Steer' : 'Bump'} sweep from ${name}: ${range.start} to ${range.stop} mm in ${range.steps} steps.`;
    const doc = this.history.current;
    if (doc.kind === 'suspension' && range.hold !== doc.options.hold) {
      try {
        this.history.apply(liveEdits.setSuspensionHold(range.hold), `hold ${range.hold}`);
        note += ` Steering hold: ${range.hold}.`;
      } catch (error) {
        if (!(error instanceof EditRefused)) throw error;
        note += ` Its steering hold ${range.hold} was refused: ${error.reason}`;
      }
    }
    this.showNotice(note);
    this.setSweepKind(range.kind, range);
  }

  private toggleBaseline(): void {
    const button = $('pin-baseline');
    if (this.baseline) {
      this.baseline = null;
      this.baselineDesign = null;
      button.classList.remove('active');
      button.textContent = 'Pin baseline';
    } else if (this.lastSweep && this.lastPose) {
      this.baseline = this.lastSweep;
      this.baselineDesign = this.lastPose.designMetrics;
      button.classList.add('active');
      button.textContent = 'Unpin baseline';
    }
    this.plots.setBaseline(this.baseline);
    this.scene.setBaseline(this.baseline ? this.lastPose : null);
    if (this.lastPose) this.renderReadouts();
  }

  private renderHolds(result: PoseResult): void {
    const select = $<HTMLSelectElement>('hold');
    const key = result.holds.ids.join(',');
    if (select.dataset.key !== key) {
      select.dataset.key = key;
      select.innerHTML = result.holds.ids.map((id) => `<option value="${id}">${id === 'layout_default' ? 'layout default' : id.replace(/_/g, ' ')}</option>`).join('');
    }
    select.disabled = result.holds.ids.length === 0 || this.history.current.kind !== 'suspension';
    // no steering, nothing to hold: the menu is not shown empty
    showIf($('hold-control'), result.suspension && result.holds.ids.length > 0);
    if (select.value !== result.holds.current) select.value = result.holds.current;
  }

  // ------------------------------------------------------------ assemble mode (viewer/src/assemble-panel.ts)

  setAssembling(on: boolean): void {
    this.assemblePanel.setAssembling(on);
  }

  /** Import part…: the moving parts of a `*.kinemate.json` (see AssemblePanel.importPartFile). */
  importPartFile(name: string, text: string): Promise<boolean> {
    return this.assemblePanel.importPartFile(name, text);
  }

  showError(text: string): void {
    $('error-text').textContent = text;
    $('error').classList.remove('notice');
    $('error').hidden = false;
  }

  /** The same banner, not as an error: what an action did. */
  showNotice(text: string): void {
    $('error-text').textContent = text;
    $('error').classList.add('notice');
    $('error').hidden = false;
  }

  hideError(): void {
    $('error').hidden = true;
  }

  // ------------------------------------------------------------ for tests and the benchmark

  /** Screen position (CSS px) of a handle by its point ref, hardpoint name or label. */
  screenOf(name: string): { x: number; y: number } | null {
    const r = this.lastPose;
    if (!r) return null;
    const h = r.structure.handles.find((x) => x.ref === name || x.hardpoint === name || x.label === name);
    if (h?.kind === 'wheel') {
      const c = r.corners[h.corner ?? 0];
      // a point on the tyre's tread, just above the centre as seen by the camera
      return this.scene.toScreen([c.wheelCenter[0], c.wheelCenter[1] + c.spin[1] * c.sectionWidth * 0.2, c.wheelCenter[2] + c.tireRadius * 0.8]);
    }
    const p = h ? r.points[h.ref] : r.points[name];
    return p ? this.scene.toScreen(p) : null;
  }

  /** Forget the timings so far (the benchmark measures one drag at a time). */
  resetStats(): void {
    for (const list of Object.values(this.stats)) list.length = 0;
    for (const c of [this.poseClient, this.sweepClient]) for (const list of Object.values(c.trips)) list.length = 0;
  }

  snapshot() {
    const r = this.lastPose;
    const readouts: Record<string, string> = {};
    document.querySelectorAll<HTMLElement>('#readouts [data-metric]').forEach((el) => { readouts[el.dataset.metric!] = el.textContent ?? ''; });
    return {
      ready: this.ready,
      /** Every request made so far has been answered and drawn. */
      settled: this.shownPose >= this.live.requestSeq && this.shownSweepId >= this.sweepId && !this.dirty,
      name: nameOf(this.history.current),
      kind: this.history.current.kind,
      docKey: this.docKey(this.history.current),
      status: r?.status ?? null,
      ok: r?.ok ?? null,
      dof: r?.dof ?? null,
      failed: r?.failed ?? [],
      message: r?.message ?? null,
      view: this.view,
      metrics: r?.metrics ?? {},
      readouts,
      deltas: Object.fromEntries(Array.from(document.querySelectorAll<HTMLElement>('#readouts [data-delta]'), (el) => [el.dataset.delta!, el.textContent ?? ''])),
      baseline: this.baseline !== null,
      points: r?.points ?? {},
      plot: this.plots.data(),
      sweepDocKey: this.lastSweep?.docKey ?? null,
      poseDocKey: r?.docKey ?? null,
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
      error: $('error').hidden || $('error').classList.contains('notice') ? null : $('error-text').textContent,
      notice: !$('error').hidden && $('error').classList.contains('notice') ? $('error-text').textContent : null,
      hud: { status: $('hud-status').textContent, message: $('hud-message').textContent, failed: Array.from(document.querySelectorAll('#hud-failed li'), (li) => li.textContent ?? '') },
    };
  }
}


function download(name: string, content: string | Blob, type: string): void {
  const url = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Shows or hides an element, writing the DOM only when that changes (it runs at every pose of a drag). */
function showIf(element: HTMLElement, visible: boolean): void {
  if (element.hidden === visible) element.hidden = !visible;
}
