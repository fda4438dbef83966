/**
 * The presenter of the live model's frames: each pose frame of the worker (or its error)
 * drawn at once (scene, playback, sensitivity arrows, forces, loads, devices, plots' marker,
 * read-outs, HUD, table, hold menu, which controls a linkage offers), and each sweep of the
 * plots' lane (plots, the steering axes' surface).
 */
import type { History, SolveOutcome } from '../../src/index.ts';
import { geometryBodies, type GeometryBodies } from './geometry-bodies';
import type { LiveLane, LiveRequest } from '../../src/index.ts';
import type { PoseResult, SweepRequest, SweepResult, ViewSettings, ViewerLiveModel } from '../../src/index.ts';
import { nameOf, type ViewerDocument } from './document';
import { recordSample } from './samples';
import type { RenderLoop, PendingInput } from './render-loop';
import type { SceneView } from './scene';
import type { PlotPanel } from './plots';
import type { SweepControls } from './sweep-controls';
import type { DragGestures } from './drag-gestures';
import type { Subscription } from 'rxjs';

/** A sweep request with the newest pose request it follows (`seq`) and its own id. */
export interface TaggedSweep { id: number; seq: number; time: number; request: SweepRequest }

/** Something drawn from every pose frame. */
interface PoseView { update(result: PoseResult): void }

/** What the presenter uses of the viewer: the streams it draws, what it draws on, what it records. */
export interface FramesHost {
  readonly live: Pick<ViewerLiveModel, 'frames$' | 'settings' | 'setSettings'>;
  readonly sweeps: Pick<LiveLane<TaggedSweep, SweepResult>, 'outcomes$'>;
  readonly history: Pick<History<ViewerDocument>, 'current'>;
  readonly subs: Subscription[];
  readonly stats: { readonly sweepMs: number[]; readonly sweepArrival: number[]; readonly poseArrival: number[]; readonly applyMs: number[]; readonly solveMs: number[] };
  readonly inputs: ReadonlyMap<number, PendingInput>;
  readonly scene: Pick<SceneView, 'update' | 'updateSweep'>;
  readonly plots: Pick<PlotPanel, 'setSweep' | 'setMarker' | 'offer' | 'setComputing'>;
  /** The newest sweep asked for, by its own id. */
  readonly sweepId: number;
  readonly renderLoop: Pick<RenderLoop, 'renderNow' | 'recordShown' | 'dirty'>;
  readonly sweepControls: Pick<SweepControls, 'markerOf' | 'kind' | 'setKind'>;
  readonly gestures: Pick<DragGestures, 'gesture'>;
  readonly playback: { onPose(): void };
  readonly sensitivity: PoseView;
  readonly forces: { update(result: PoseResult, draw: boolean): void };
  readonly loadsPanel: { render(result: PoseResult): void; readonly drawForces: boolean };
  readonly devices: PoseView;
  readonly devicesPanel: { render(doc: ViewerDocument, result: PoseResult): void };
  readonly compliance: { update(result: PoseResult): void };
  readonly partMeshes: { update(bodies: GeometryBodies | null, result: PoseResult): void };
  /** The closest pair of bodies at this pose, drawn (viewer/src/clearance-live.ts, clearance-overlay.ts). */
  showClearance(bodies: GeometryBodies | null, result: PoseResult): void;
  readonly baseline: SweepResult | null;
  /** While a whole vehicle is shown (viewer/src/vehicle-mode.ts), the live model's frames are kept, not drawn. */
  readonly vehicle?: { readonly active: boolean };
  lastPose: PoseResult | null;
  lastSweep: SweepResult | null;
  shownPose: number;
  shownSweep: number;
  shownSweepId: number;
  workerError: string | null;
  docKey(doc: ViewerDocument): number;
  invalidate(): void;
  renderReadouts(): void;
  renderHud(): void;
  renderTable(): void;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export function wireFrames(app: FramesHost): void {
  app.subs.push(
    // the live model's frames: the first input of a quiet frame went to the worker at
    // once (a drag's moves come as pointerrawupdate, between frames), the newest of the
    // rest once a frame
    app.live.frames$.subscribe((o) => onPoseOutcome(app, o.latest)),
    app.sweeps.outcomes$.subscribe((o) => {
      if (o.kind === 'error') { app.shownSweep = o.input.seq; app.shownSweepId = o.input.id; app.plots.setComputing(app.shownSweepId < app.sweepId); app.workerError = String(o.error instanceof Error ? o.error.message : o.error); app.renderHud(); return; }
      if (o.output.docKey !== app.docKey(app.history.current)) { app.shownSweep = Math.max(app.shownSweep, o.input.seq); app.shownSweepId = o.input.id; app.plots.setComputing(app.shownSweepId < app.sweepId); return; }
      app.lastSweep = o.output;
      recordSample(app.stats.sweepMs, o.output.ms);
      recordSample(app.stats.sweepArrival, performance.now() - o.input.time);
      app.plots.setSweep(o.output);
      if (!app.vehicle?.active) app.scene.updateSweep(o.output);
      if (app.baseline && app.lastPose) app.renderReadouts();
      app.shownSweep = o.input.seq;
      app.shownSweepId = o.input.id;
      app.plots.setComputing(app.shownSweepId < app.sweepId);
      // the plots are drawn (their canvases, at once); the 3D view only changes by the
      // steering axes' surface. During a gesture that waits for the next pose's draw
      // (one frame of GPU work, not two; a software rasteriser shares the CPU with the
      // solver), or at most 50 ms
      app.renderLoop.recordShown(performance.now());
      if (app.gestures.gesture) {
        app.renderLoop.dirty = true;
        setTimeout(() => { if (app.renderLoop.dirty) app.invalidate(); }, 50);
      } else app.renderLoop.renderNow();
    }),
  );
}

/** A frame of the live model: the worker's pose result (or its error), drawn at once. */
function onPoseOutcome(app: FramesHost, latest: SolveOutcome<LiveRequest<ViewSettings>, PoseResult>): void {
  const seq = latest.input.seq;
  if (latest.kind === 'error') {
    app.shownPose = seq;
    app.workerError = String(latest.error instanceof Error ? latest.error.message : latest.error);
    app.renderHud();
    return;
  }
  app.workerError = null;
  const result = latest.output;
  // a late result of an old document is not drawn over a newer one
  if (result.docKey !== app.docKey(app.history.current)) { app.shownPose = Math.max(app.shownPose, seq); return; }
  if (app.vehicle?.active) { app.lastPose = result; app.shownPose = seq; return; }
  const input = app.inputs.get(seq);
  if (input) recordSample(app.stats.poseArrival, performance.now() - input.time);
  try {
    const t = performance.now();
    applyPose(app, result);
    recordSample(app.stats.applyMs, performance.now() - t);
  } catch (error) {
    // a drawing bug must not end the stream: say it and keep going
    app.workerError = `viewer: ${error instanceof Error ? error.message : String(error)}`;
    app.renderHud();
  }
  app.shownPose = seq;
  // draw at once: the result is already a frame late (it waited for its frame to be
  // requested); a second wait for the next animation frame would only add latency
  app.renderLoop.renderNow();
}

function applyPose(app: FramesHost, result: PoseResult): void {
  app.lastPose = result;
  // where the pose is (a pull moves the wheel): the next request starts there
  app.live.setSettings({ ...app.live.settings, view: result.view }, { solve: false });
  recordSample(app.stats.solveMs, result.ms.total);
  app.scene.update(result);
  const bodies = geometryBodies(app.history.current);
  app.partMeshes.update(bodies, result);
  app.showClearance(bodies, result);
  app.playback.onPose();
  app.sensitivity.update(result);
  app.forces.update(result, app.loadsPanel.drawForces);
  app.loadsPanel.render(result);
  app.devices.update(result);
  app.devicesPanel.render(app.history.current, result);
  app.compliance.update(result);
  app.plots.setMarker(app.sweepControls.markerOf(result));
  // a steer sweep needs a rack: offered only where there is one
  const steerOption = document.querySelector<HTMLOptionElement>('#sweep-kind option[value="steer"]')!;
  steerOption.disabled = result.holds.ids.length === 0;
  if (steerOption.disabled && app.sweepControls.kind() === 'steer') app.sweepControls.setKind('bump');
  app.renderReadouts();
  app.renderHud();
  app.renderTable();
  renderHolds(app.history.current, result);
  // suspension controls only where there is a suspension (issue 16: a four-bar has no bump)
  showIf($('sweep-control'), result.suspension);
  showIf($('hint-suspension'), result.suspension);
  showIf($('hint-assembly'), !result.suspension);
  showIf($('plots'), result.suspension);
  showIf($('plots-note'), !result.suspension);
  // a plot offers only the metrics this linkage has (a trailing arm has no steering axis: no caster)
  if (result.suspension) app.plots.offer(result.docKey, result.designMetrics);
  $('model-name').textContent = nameOf(app.history.current);
}

/** The steering hold menu: the holds this linkage offers, the one in use; editable only on a suspension document. */
export function renderHolds(doc: ViewerDocument, result: PoseResult): void {
  const select = $<HTMLSelectElement>('hold');
  const key = result.holds.ids.join(',');
  if (select.dataset.key !== key) {
    select.dataset.key = key;
    select.innerHTML = result.holds.ids.map((id) => `<option value="${id}">${id === 'layout_default' ? 'layout default' : id.replace(/_/g, ' ')}</option>`).join('');
  }
  select.disabled = result.holds.ids.length === 0 || doc.kind !== 'suspension';
  // no steering, nothing to hold: the menu is not shown empty
  showIf($('hold-control'), result.suspension && result.holds.ids.length > 0);
  if (select.value !== result.holds.current) select.value = result.holds.current;
}

/** Shows or hides an element, writing the DOM only when that changes (it runs at every pose of a drag). */
function showIf(element: HTMLElement, visible: boolean): void {
  if (element.hidden === visible) element.hidden = !visible;
}
