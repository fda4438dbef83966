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
 *
 * One job per file: this one holds the state and wires the rest together, makes the
 * requests (pose, plots' sweep) and keeps the test hooks. Frames are presented by
 * frame-presenter.ts, drawn by render-loop.ts; drags are drag-gestures.ts; the sweep's
 * inputs sweep-controls.ts; the toolbar and keys toolbar.ts; open, save and export
 * file-io.ts; the worker's side is engine.ts (over the library's LiveViewEngine).
 */
import type { Subscription } from 'rxjs';
import type { Draft } from 'immer';
import { EditRefused, type History } from '../../src/index.ts';
import { defaultDocument, hardpointPosition, moveHardpoint, nameOf, type ViewerDocument } from './document';
import type { PoseResult, SweepRequest, SweepResult, ViewSettings, ViewState } from '../../src/index.ts';
import { SolverClient } from './solver-client';
import { recordSample, SAMPLE_CAP } from './samples';
import { HardpointTable, renderHud, renderReadouts } from './panels';
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
import { setShimThickness } from '../../src/index.ts';
import { LiveModel, type LiveLane } from '../../src/index.ts';
import { DragGestures } from './drag-gestures';
import { SweepControls } from './sweep-controls';
import { RenderLoop } from './render-loop';
import { wireFrames, type TaggedSweep } from './frame-presenter';
import { wireToolbar, updateToolbar } from './toolbar';
import { wireFiles, openFile } from './file-io';
import type { Vec3Tuple } from '../../src/index';
import { Quaternion, Vector3 } from 'three';
import { PartMeshes } from './part-meshes';
import { SurfacePicking } from './surface-picking';
import { ClearanceOverlay } from './clearance-overlay';
import { EnvelopeButton } from './envelope-button';
import { LiveClearance } from './clearance-live';
import { ClearancePlot } from './clearance-plot';
import { geometryBodies, type GeometryBodies } from './geometry-bodies';
import { CompliancePanel } from './compliance-panel';
import { VehicleMode } from './vehicle-mode';


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
  /** A compliant suspension: coefficients, exaggeration, rig loads and their draggable arrows, K&C curves (viewer/src/compliance-panel.ts). */
  readonly compliance: CompliancePanel;
  /** Parts drawn with their CAD geometry, and picking on it in assemble mode (viewer/src/part-meshes.ts, surface-picking.ts). */
  readonly partMeshes: PartMeshes;
  readonly surfacePicking: SurfacePicking;
  readonly clearanceOverlay: ClearanceOverlay;
  readonly liveClearance = new LiveClearance();
  /** The smallest clearance over the plots' sweep, computed in a worker and plotted (viewer/src/clearance-plot.ts). */
  readonly clearancePlot = new ClearancePlot(this);
  readonly envelope: EnvelopeButton;
  /** A whole car opened from a vehicle file (viewer/src/vehicle-mode.ts): drawn, dragged and read out apart from the live model. */
  readonly vehicle: VehicleMode;
  readonly poseClient = new SolverClient('pose');
  readonly sweepClient = new SolverClient('sweep');
  /** The plots' sweeps, scheduled beside the pose (the live model's lane: the newest per frame, one in flight). */
  readonly sweeps: LiveLane<TaggedSweep, SweepResult>;
  readonly subs: Subscription[] = [];
  /** Inputs not yet fully on screen, by the live model's request seq, with their time (for the frame latency). */
  readonly inputs = new Map<number, { time: number; needsSweep: boolean; poseDone: boolean }>();
  /** Latest request seq shown on screen, for the pose and for the plots. */
  shownPose = 0;
  shownSweep = 0;
  /** Sweep requests asked for and shown, by their own ids. */
  sweepId = 0;
  shownSweepId = 0;
  lastPose: PoseResult | null = null;
  lastSweep: SweepResult | null = null;
  baseline: SweepResult | null = null;
  /** The pinned design's metrics at design (the what-if deltas' reference). */
  baselineDesign: Record<string, number | null> | null = null;
  refusal: string | null = null;
  /** The reason of the live model's last refused edit (a drag move). */
  lastRefusal = '';
  workerError: string | null = null;
  /** The drag gestures on the 3D view (viewer/src/drag-gestures.ts). */
  readonly gestures: DragGestures;
  /** The plots' sweep controls (viewer/src/sweep-controls.ts). */
  readonly sweepControls = new SweepControls(this);
  /** Frames drawn when something changed, and the input latencies (viewer/src/render-loop.ts). */
  readonly renderLoop = new RenderLoop(this);
  /** The hardpoint table (suspension geometry): typed edits come back to onTableEdit. */
  readonly table = new HardpointTable($('hardpoints-panel'), $('hardpoints'), (input) => this.onTableEdit(input));
  readonly stats = { pose: [] as number[], full: [] as number[], solveMs: [] as number[], sweepMs: [] as number[], renderMs: [] as number[], applyMs: [] as number[], sweepArrival: [] as number[], poseArrival: [] as number[], sweepStart: [] as number[], sweepRoundTrip: [] as number[], dispatch: [] as number[] };
  ready = false;

  constructor() {
    this.live = new LiveModel<undefined, PoseResult, ViewSettings>(defaultDocument(), {
      remote: true,
      leading: true,
      settings: { view: { travel: [], rack: 0 }, loads: null },
      // the live model's request goes to the pose worker as it is (compiled once, here, by the edit's validation)
      solver: (request) => this.poseClient.pose(request),
      failureOf: (result) => ({ message: result.message ?? 'failed', failed: result.failed }),
    });
    this.subs.push(this.live.errors$.subscribe((e) => { if (e.kind === 'refused') this.lastRefusal = e.reason; }));
    this.sweeps = this.live.lane((t: TaggedSweep) => {
      recordSample(this.stats.sweepStart, performance.now() - t.time);
      const t0 = performance.now();
      return this.sweepClient.sweep(t.request).then((r) => { recordSample(this.stats.sweepRoundTrip, performance.now() - t0); return r; });
    });
    const view = $('view');
    this.scene = new SceneView(view, { onInvalidate: () => this.invalidate() });
    // the drag controls register their capture-phase pointerdown on the canvas; OrbitControls
    // (created in SceneView) listens in the bubble phase, so a handle grab never orbits
    this.drag = new HandleDragControls(this.scene.camera, this.scene.renderer.domElement, () => this.scene.handles);
    this.plots = new PlotPanel($('plots'));
    // a plot that picks a metric of the steering response needs it at every step: sweep again
    this.plots.onChoose = () => { if (this.lastPose?.suspension) this.requestSweep(); };
    this.assemblePanel = new AssemblePanel(this);
    this.vehicle = new VehicleMode(this);
    this.partMeshes = new PartMeshes(() => {
      const problem = this.partMeshes.problems.values().next().value;
      if (problem) this.showError(`Part geometry: ${problem}`);
      if (this.lastPose) this.showClearance(geometryBodies(this.history.current), this.lastPose);
      this.clearancePlot.request(this.sweepControls.kind(), this.sweepControls.range());
      this.invalidate();
    });
    this.clearanceOverlay = new ClearanceOverlay(this.scene);
    this.envelope = new EnvelopeButton(this, $('envelope'));
    this.scene.scene.add(this.partMeshes.group);
    this.surfacePicking = new SurfacePicking(this);
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
    this.compliance = new CompliancePanel(this);
    this.gestures = new DragGestures(this);
    wireFrames(this);
    wireToolbar(this);
    wireFiles(this);
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
  noteInput(time = performance.now(), needsSweep = false): void {
    const seq = this.live.requestSeq;
    // an input never shown (its worker failed, the page was hidden) must not be kept for ever
    if (this.inputs.size >= SAMPLE_CAP) this.inputs.delete(this.inputs.keys().next().value!);
    this.inputs.set(seq, { time, needsSweep, poseDone: false });
    if (needsSweep) this.requestSweep(time);
  }

  requestSweep(time = performance.now()): void {
    const doc = this.history.current;
    const range = this.sweepControls.range();
    this.sweepControls.goodRange = range;
    const request: SweepRequest = { docKey: this.docKey(doc), doc, compiled: this.live.compiledOf(doc), kind: this.sweepControls.kind(), range, steering: this.plots.needsSteering(), derivatives: this.plots.needsDerivatives(), loads: this.plots.needsLoads() ? this.loadsPanel.loadCase() : null };
    this.sweeps.request({ id: ++this.sweepId, seq: this.live.requestSeq, time, request });
    this.clearancePlot.request(request.kind ?? 'bump', range);
    this.plots.setComputing(true);
  }

  pendingEditTime: number | undefined;

  onDocument(doc: ViewerDocument): void {
    void doc;
    if (this.assemblePanel.assembling) this.assemblePanel.render();
    const time = this.pendingEditTime;
    this.pendingEditTime = undefined;
    // the live model asked for the pose of this document (its subscription comes first)
    this.noteInput(time, true);
    this.updateToolbar();
  }

  // ------------------------------------------------------------ frames, render loop, drags, toolbar, files

  /** Something in the 3D view changed: draw it at the next animation frame (viewer/src/render-loop.ts). */
  invalidate(): void {
    this.renderLoop.invalidate();
  }

  /** Undo, redo, save and the template menu as the document now is (viewer/src/toolbar.ts). */
  updateToolbar(): void {
    if (this.vehicle?.active) this.vehicle.updateToolbar();
    else updateToolbar(this);
  }

  /** Open a file's text; a malformed file shows the loader's message and keeps the model (viewer/src/file-io.ts). */
  openFile(name: string, text: string): Promise<boolean> {
    return openFile(this, name, text);
  }

  /** Where a suspension sits (a view setting of the live model): solved as a request. */
  setView(view: ViewState): void {
    this.live.setSettings({ ...this.live.settings, view });
    this.noteInput();
  }

  // ------------------------------------------------------------ read-outs, HUD, table

  renderReadouts(): void {
    renderReadouts($('readouts'), this.lastPose!, this.baseline ? this.baselineDesign : null);
  }

  renderHud(): void {
    renderHud(this.lastPose, this.refusal, this.workerError);
  }

  renderTable(): void {
    this.table.render(this.history.current, this.lastPose!);
  }

  /** A camber shim's setup thickness typed in the devices panel: one undo entry, or refused with why. */
  editShim(path: string[], thickness: number): string | null {
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

  onTableEdit(input: HTMLInputElement): void {
    const row = input.closest('tr')!;
    const name = row.dataset.hardpoint!;
    const doc = this.history.current;
    if (doc.kind !== 'suspension') return;
    const p = hardpointPosition(doc, name);
    const value = Number(input.value);
    if (!p || input.value.trim() === '' || !Number.isFinite(value)) { this.showError(`${name}: not a number: ${JSON.stringify(input.value)}`); this.renderTable(); return; }
    const next: Vec3Tuple = [p[0], p[1], p[2]];
    next[Number(input.dataset.axis)] = value;
    try {
      this.history.apply(moveHardpoint(name, next), `edit ${name}`);
      this.hideError();
    } catch (error) {
      if (error instanceof EditRefused) { this.showError(`Edit refused — ${error.reason}`); input.value = String(p[Number(input.dataset.axis)]); }
      else throw error;
    }
  }

  // ------------------------------------------------------------ the document

  undo(): void {
    if (this.vehicle.active) this.vehicle.undo();
    else if (this.live.undo()) this.updateToolbar();
  }

  redo(): void {
    if (this.vehicle.active) this.vehicle.redo();
    else if (this.live.redo()) this.updateToolbar();
  }

  /** Vehicle mode left: the live model's document drawn again, framed. */
  redrawModel(): void {
    this.scene.frameNext = this.docKey(this.history.current);
    if (this.lastPose) this.scene.update(this.lastPose);
    this.scene.updateSweep(this.lastSweep);
    // and solved again, so every panel and overlay follows the model shown
    this.live.resolve({ fresh: true });
    this.noteInput();
    this.updateToolbar();
  }

  /** A new document (a template, an opened file): one undo entry, the view and baseline reset. */
  replaceDocument(doc: ViewerDocument, label: string): void {
    this.vehicle.close();
    this.live.setSettings({ ...this.live.settings, view: { travel: [], rack: 0 } }, { solve: false });
    this.baseline = null;
    this.baselineDesign = null;
    this.plots.setBaseline(null);
    this.scene.setBaseline(null);
    $('pin-baseline').classList.remove('active');
    $('pin-baseline').textContent = 'Pin baseline';
    this.history.apply(() => doc as Draft<ViewerDocument>, label);
    this.envelope.clear();
    this.scene.frameNext = this.docKey(this.history.current);
    this.hideError();
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

  /** Measures and draws the closest pair of parts with geometry at this pose; a failure says why and draws none. */
  showClearance(bodies: GeometryBodies | null, result: PoseResult): void {
    try {
      this.clearanceOverlay.show(this.liveClearance.measure(bodies, this.partMeshes.meshes, result));
    } catch (error) {
      this.clearanceOverlay.show(null);
      this.workerError = `clearance: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** Every pair's clearance at the pose shown (tests). */
  clearances(): Record<string, { distance: number; touching: boolean }> {
    return Object.fromEntries(Object.entries(this.liveClearance.last).map(([k, c]) => [k, { distance: c.distance, touching: c.touching }]));
  }

  /** Screen position (CSS px) of a point given in a part's own frame, at the pose shown (tests: a click on a part's surface). */
  screenOfPartPoint(part: string, local: readonly number[]): { x: number; y: number } | null {
    const pose = this.lastPose?.poses[part];
    if (!pose) return null;
    const v = new Vector3(local[0], local[1], local[2]).applyQuaternion(new Quaternion(pose[4], pose[5], pose[6], pose[3]).normalize());
    return this.scene.toScreen([v.x + pose[0], v.y + pose[1], v.z + pose[2]]);
  }

  /** What a click at a page position would pick on a part's geometry (tests). */
  surfaceAt(x: number, y: number): { part: string; feature: string; kind: string } | null {
    const hit = this.surfacePicking.hitAt(x, y);
    return hit ? { part: hit.part, feature: hit.result.feature, kind: hit.result.entity.kind } : null;
  }

  /** Parts drawn with their geometry, and their triangle counts (tests). */
  geometryDrawn(): Record<string, number> {
    return Object.fromEntries([...this.partMeshes.meshes].map(([part, m]) => [part, m.indices.length / 3]));
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
      settled: this.shownPose >= this.live.requestSeq && this.shownSweepId >= this.sweepId && !this.renderLoop.dirty,
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
