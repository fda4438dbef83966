/**
 * The pose worker's adapter and the viewer's presenter: a request of the page's live model
 * in (document version, view settings, pull), what the page draws out (the scene's
 * structure, every part point in world coordinates, read-outs, DOF, solver status), and
 * the plots' sweep series. No DOM: it runs in the solver workers (`solver.worker.ts`) and,
 * for tests, in Node. The viewer imports nothing of the kernel (test/viewer/imports.test.ts).
 *
 * Every solve, and everything kept between solves, is the library's: `LiveViewEngine`
 * (src/live/view-engine.ts) knows the document by its version, drives a suspension to its
 * view or pulls it with the viewer's strategies (the wheel in bump, the rack in steer),
 * drags any other assembly on the live engine, keeps the last good pose, and analyses the
 * frame (every metric, the steering response) at the pose shown and at design. What stays
 * here is presentation: the scene's structure and ghost per version
 * (viewer/src/scene-structure.ts), the corners drawn, the flat read-outs, loads under the
 * panel's load case, devices, and the plots' series from the library's sweep.
 */
import { holdCatalogue, type SteeringAxis } from '../../suspension/metrics/steering.ts';
import type { SuspensionModel, MetricValues } from '../../suspension/build/model.ts';
import { runSweep, sweepsToCsv } from '../../suspension/sweep/sweep.ts';
import { sweepFromShortcut, validateGeometry } from '../../suspension/files/index.ts';
import { compileDocument, LiveEditError, type CompiledDocument } from '../document.ts';
import { drivenSuspension } from '../suspension-engine.ts';
import { flatMetrics } from '../suspension-analysis.ts';
import { holdOf, LiveViewEngine, type LiveViewFrame } from '../view-engine.ts';
import type { LiveModel, LiveRequest } from '../live-model.ts';
import type { AssemblyDoc } from '../../assembly/types.ts';
import { modelState, type StateJSON } from '../../model/operations.ts';
import { SweepLoads } from '../../suspension/loads/loads.ts';
import type { LiveDocument } from '../document.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import type { CornerGeometry, PlotSpec, ReadoutSpec, SceneStructure } from './frame-types.ts';
export type { CornerGeometry, HandleInfo, HandleKind, PlotSpec, ReadoutSpec, SceneStructure } from './frame-types.ts';
import { loadsMetrics, LOAD_METRICS, type LoadCase, type StateLoads } from './loads.ts';
import { compliantDrawing, type PoseCompliance, type RigLoads } from './compliance.ts';
import { devicePlan, deviceShapes, DEVICE_METRICS, type DeviceShape } from './devices.ts';
import { cornerGeometry, pointsFromPoses, posesOf, roleName, screwOf, structureOf, v3 } from './scene-structure.ts';

// ---------------------------------------------------------------- messages

/** Where the suspension sits: wheel travel per corner (mm from design) and rack (mm). */
export interface ViewState {
  travel: number[];
  rack: number;
}

/** What the page's live model carries on every pose request beside the document: not in the document, never undo entries. */
export interface ViewSettings {
  /** Where a suspension sits (wheel travel, rack); a pull moves it. */
  view: ViewState;
  /** The loads panel's load case while it is open (the result then carries the loads at the pose). */
  loads: LoadCase | null;
  /** A compliant suspension: the load arrows' loads at the contact patches, per side (added to `loads`). */
  rig?: RigLoads | null;
  /** A compliant suspension: the factor its drawn deflection (from the unloaded state) is scaled by; default 1. */
  exaggeration?: number;
}

export type PullMode = 'bump' | 'steer' | 'free';

/**
 * A pose request: the page's live model's own, as it crosses to the pose worker and as the
 * library's live engine reads it (the document, its version and its compile, the view
 * settings, a pull, a fresh start, a cancelled drag): one shape end to end.
 */
export type PoseRequest = Pick<LiveRequest<ViewSettings>, 'version' | 'document' | 'settings' | 'pull' | 'fresh' | 'cancelledDrag' | 'compiled'> & { readonly seq?: number };

/** The page's live model: the document under undo and gestures, its pose frames from the pose worker, the view settings. */
export type ViewerLiveModel = LiveModel<undefined, PoseResult, ViewSettings>;

export interface PoseResult {
  docKey: number;
  /** True when the asked pose was reached; false: the pose shown is the last good one. */
  ok: boolean;
  /** True when the constraints hold at the pose solved (solved, or limited): the live model's last good frame. */
  good: boolean;
  /** limited: the pose is good but stopped short of a pull (beyond reach). */
  status: 'solved' | 'failed' | 'limited';
  message: string | null;
  /** Mates whose rows did not hold (failure), drivers excluded. */
  failed: string[];
  /** What was asked and could not be reached (failure), in words. */
  asked: string | null;
  iterations: number;
  maxResidual: number;
  dof: number;
  redundant: string[];
  view: ViewState;
  lengthScale: number;
  structure: SceneStructure;
  points: Record<string, Vec3Tuple>;
  /** Each part's pose: position then quaternion (w, x, y, z). */
  poses: Record<string, number[]>;
  design: Record<string, Vec3Tuple>;
  /** Every metric at design (wheel travel 0, rack centred): what the what-if deltas compare ({} without suspension roles). */
  designMetrics: Record<string, number | null>;
  corners: CornerGeometry[];
  designCorners: CornerGeometry[];
  rollCenter: Vec3Tuple | null;
  /** Flat metrics of the (left) corner, axle metrics as `axle.*`; empty for a generic assembly. */
  metrics: Record<string, number | null>;
  suspension: boolean;
  editable: boolean;
  /** The steering holds the analysis may use (first: the layout default), and the one in use. */
  holds: { ids: string[]; current: string };
  /** With a load case: the library's loads at this pose (link forces, reactions, rates); their flat `loads.*` metrics are in `metrics`. */
  loads?: StateLoads | null;
  /** The suspension devices drawn beside the parts (viewer/src/devices.ts): anti-roll bars, heave link, torsion bars, camber shims. */
  devices: DeviceShape[];
  /** A compliant suspension: the settle, the coefficients, the bushings' deflections; `poses`, `points` and `corners` are then drawn exaggerated. */
  compliance?: PoseCompliance | null;
  ms: { build: number; solve: number; evaluate: number; total: number };
}

export type SweepKind = 'bump' | 'steer';

export interface SweepRequest {
  docKey: number;
  doc: LiveDocument;
  /** The document as the page's live model compiled it (its edit's validation): the worker does not compile it again. */
  compiled?: CompiledDocument;
  /** bump: wheel travel (mm, every corner, rack held); steer: rack travel (mm, wheel centres held). */
  kind?: SweepKind;
  range: { start: number; stop: number; steps: number };
  /**
   * The full sweep for export: the steering response at every step and the CSV. The
   * plots' sweep (false) leaves the per-step steering response out where the linkage
   * has a physical steering axis (the plotted curves and the drawn axis surface do not
   * need it), which halves its cost while dragging.
   */
  full?: boolean;
  /** The steering response at every step (a plotted `*_virtual` metric needs it). */
  steering?: boolean;
  /** Derivatives at every step (a plotted `deriv_*` metric needs them); else values only where that is enough. */
  derivatives?: boolean;
  /** Every moving part's pose at each step and the compiled assembly (the viewer's glTF export). */
  poses?: boolean;
  /** A load case: the `loads.*` metrics at every step (a plotted loads metric needs them). */
  loads?: LoadCase | null;
}

export interface SweepResult {
  docKey: number;
  kind: SweepKind;
  /** The swept value at each step: wheel travel (bump) or rack travel (steer), mm. */
  travel: number[];
  /** Per metric, per step (null where the step failed or the metric is undefined). */
  series: Record<string, (number | null)[]>;
  failedSteps: number;
  /** The physical steering axis at each step (null where failed or none). */
  axes: ([Vec3Tuple, Vec3Tuple] | null)[];
  csv: string;
  /** With `poses`: the part poses at each step (a failed step keeps the last good pose) and the assembly they pose. */
  states?: StateJSON[];
  assembly?: AssemblyDoc;
  ms: number;
}

/** What a plot can show: the metrics the sweep keeps from every step. */
export const PLOTTABLE: readonly PlotSpec[] = [
  { metric: 'camber', label: 'Camber', unit: '°' },
  { metric: 'toe_angle', label: 'Toe', unit: '°' },
  { metric: 'caster', label: 'Caster', unit: '°' },
  { metric: 'kpi', label: 'KPI', unit: '°' },
  { metric: 'caster_virtual', label: 'Caster (virtual axis)', unit: '°' },
  { metric: 'kpi_virtual', label: 'KPI (virtual axis)', unit: '°' },
  { metric: 'scrub_radius', label: 'Scrub radius', unit: 'mm' },
  { metric: 'mechanical_trail', label: 'Mech. trail', unit: 'mm' },
  { metric: 'half_track', label: 'Half track', unit: 'mm' },
  { metric: 'deriv_camber_wrt_hub_z', label: 'Camber gain', unit: '°/mm' },
  { metric: 'deriv_toe_angle_wrt_hub_z', label: 'Bump steer', unit: '°/mm' },
  { metric: 'svic_z', label: 'Side-view IC z', unit: 'mm' },
  { metric: 'fvic_z', label: 'Front-view IC z', unit: 'mm' },
  { metric: 'anti_dive', label: 'Anti-dive', unit: '%' },
  { metric: 'damper_length', label: 'Damper length', unit: 'mm' },
  ...DEVICE_METRICS.map(({ metric, label, unit }) => ({ metric, label, unit })),
  ...LOAD_METRICS.map(({ metric, label, unit }) => ({ metric, label, unit })),
];

/** Metrics kept from every sweep step: the plottable ones and the wheel travel. */
export const SWEPT_METRICS: readonly string[] = [...PLOTTABLE.map((p) => p.metric), 'wheel_travel'];

// ---------------------------------------------------------------- the engine

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** What the scene draws of one document version, built once per version. */
interface Presentation {
  readonly version: number;
  readonly suspension: SuspensionModel | null;
  readonly structure: SceneStructure;
  /** Every part point where the document itself puts it (the ghost). */
  readonly design: Record<string, Vec3Tuple>;
  /** How the devices are drawn at any state (viewer/src/devices.ts). */
  readonly devices: ReturnType<typeof devicePlan> | null;
  /** The wheels and axes (the ghost) and every metric at design: see {@link LiveViewPresenter.designOf}. */
  designed: { corners: CornerGeometry[]; metrics: Record<string, number | null> } | null;
}

/**
 * The pose worker's adapter: a request of the page's live model in, the library's live
 * engine ({@link LiveViewEngine}: versions, drives, pulls, last good state, analysis)
 * solves it, and the frame is presented as the page draws it.
 */
export class LiveViewPresenter {
  private readonly live = new LiveViewEngine();
  private shown: Presentation | null = null;
  /** The sweeps' model, renewed in place for the next document of the same topology (a drag's next move). */
  private swept: SuspensionModel | null = null;

  pose(req: PoseRequest): PoseResult {
    const t0 = now();
    const frame = this.live.solve(req);
    const t1 = now();
    const p = this.presentation(req, frame);
    const points = pointsFromPoses(this.live.assembly!, posesOf(frame.poses));
    const common = {
      docKey: req.version,
      ok: frame.ok,
      good: frame.good,
      status: frame.status,
      message: frame.message,
      failed: frame.failed,
      asked: frame.asked,
      iterations: frame.iterations,
      maxResidual: frame.maxResidual,
      dof: frame.dof,
      redundant: frame.redundant,
      view: { travel: [...frame.view.travel], rack: frame.view.rack },
      lengthScale: frame.lengthScale,
      structure: p.structure,
      points,
      poses: frame.poses,
      design: p.design,
    };
    const sm = p.suspension;
    const suspension = this.live.suspension;
    if (!sm || !frame.analysis) {
      return {
        ...common, corners: [], designCorners: [], designMetrics: {}, rollCenter: null, metrics: {}, devices: [], suspension: false, editable: false,
        holds: { ids: [], current: 'layout_default' },
        ms: { build: frame.ms.build, solve: frame.ms.solve, evaluate: now() - t1, total: now() - t0 },
      };
    }
    const t2 = now();
    // every metric with its derivatives and the steering response (the virtual axis and the
    // *_virtual metrics) are the library's analysis of the frame
    const analysis = frame.analysis;
    const metrics = flatMetrics(analysis);
    const corners = cornerGeometry(sm, analysis, analysis.steering.axes);
    // the library's loads at the pose shown (the last good one after a failure), under the panel's case
    const loads = frame.loads;
    if (loads) Object.assign(metrics, loadsMetrics(loads, sm.corners[0].roles.side));
    let rollCenter: Vec3Tuple | null = null;
    const y = metrics['axle.roll_center_y'], z = metrics['axle.roll_center_z'];
    if (typeof y === 'number' && typeof z === 'number' && corners.length) rollCenter = [(corners[0].wheelCenter[0] + (corners[1]?.wheelCenter[0] ?? corners[0].wheelCenter[0])) / 2, y, z];
    const design = this.designOf(p, frame, frame.atDesign ? { corners, metrics } : null);
    // a compliant suspension: the pose drawn with its deflection exaggerated, and the coefficients
    const compliant = frame.compliance && suspension?.compliance ? compliantDrawing(sm, suspension.compliance, frame.compliance, analysis, loads, req.settings.exaggeration ?? 1, () => suspension.engine.poses()) : null;
    if (compliant && compliant.compliance.exaggeration !== 1) {
      common.poses = compliant.poses;
      common.points = pointsFromPoses(this.live.assembly!, posesOf(compliant.poses));
    }
    const t3 = now();
    return {
      ...common,
      corners: compliant ? compliant.corners : corners,
      compliance: compliant?.compliance ?? null,
      designCorners: design.corners,
      designMetrics: design.metrics,
      rollCenter,
      metrics,
      suspension: true,
      editable: req.document.kind === 'suspension',
      holds: sm.rackHold ? { ids: ['layout_default', ...holdCatalogue(sm, 0).ids], current: holdOf(req.document) } : { ids: [], current: holdOf(req.document) },
      loads,
      devices: deviceShapes(sm, p.devices!),
      ms: { build: frame.ms.build, solve: frame.ms.solve, evaluate: t3 - t2 + frame.ms.analysis, total: t3 - t0 },
    };
  }

  /** The scene's structure, ghost, loads and devices of the frame's document version (built when the version is new). */
  private presentation(req: PoseRequest, frame: LiveViewFrame): Presentation {
    const doc = req.document;
    const suspension = this.live.suspension;
    const sm = frame.suspension && suspension ? suspension.sm : null;
    if (this.shown && this.shown.version === frame.version && this.shown.suspension === sm) return this.shown;
    const assembly = this.live.assembly!;
    if (!sm || !suspension) {
      this.shown = { version: frame.version, suspension: null, structure: structureOf(assembly, null, false), design: pointsFromPoses(assembly, {}), devices: null, designed: null };
      return this.shown;
    }
    const designPoses = this.live.atDesign(() => suspension.engine.poses());
    this.shown = {
      version: frame.version,
      suspension: sm,
      structure: structureOf(assembly, sm, doc.kind === 'suspension'),
      design: pointsFromPoses(assembly, posesOf(designPoses)),
      devices: devicePlan(sm, doc.kind === 'suspension' ? req.compiled?.geometry ?? validateGeometry(doc.geometry) : null, designPoses),
      designed: null,
    };
    return this.shown;
  }

  /**
   * The corners (the ghost) and every metric (what the what-if deltas compare) at design.
   * A frame at design already has them: an edit dragged at design, the common case, then
   * evaluates once, not twice. Otherwise the library's analysis at design is drawn at the
   * design state, once per version.
   */
  private designOf(p: Presentation, frame: LiveViewFrame, atDesign: { corners: CornerGeometry[]; metrics: Record<string, number | null> } | null): { corners: CornerGeometry[]; metrics: Record<string, number | null> } {
    if (p.designed) return p.designed;
    if (atDesign) return (p.designed = atDesign);
    const design = frame.design!;
    return (p.designed = this.live.atDesign(() => ({ corners: cornerGeometry(p.suspension!, design, design.steering.axes), metrics: flatMetrics(design) })));
  }

  /** A bump sweep of the document's design (its own model: never disturbs the pose). */
  sweep(req: SweepRequest): SweepResult {
    const t0 = now();
    const compiled = req.compiled ?? compileDocument(req.doc);
    const assembly = compiled.assembly;
    const travel: number[] = [];
    const { start, stop, steps } = req.range;
    for (let i = 0; i < steps; i++) travel.push(steps === 1 ? start : start + ((stop - start) * i) / (steps - 1));
    const kind: SweepKind = req.kind ?? 'bump';
    if (assembly.suspension === undefined) return { docKey: req.docKey, kind, travel: [], series: {}, failedSteps: 0, axes: [], csv: '', ms: now() - t0 };
    // the sweep's drivers take over from the document's holds (a suspension document holds
    // the rack, as a bump sweep does; a steer sweep moves it)
    const reuse = this.swept;
    this.swept = null; // a model half renewed is never used again
    const sm = (this.swept = drivenSuspension(assembly, reuse));
    const geometry = compiled.geometry ?? undefined;
    // a steer sweep of a linkage without a rack has nothing to move: an error, said as such
    if (kind === 'steer' && !sm.rackHold) throw new LiveEditError('', 'a steer sweep needs a rack: this linkage is not steered');
    const spec = sweepFromShortcut(kind, `${start}:${stop}:${steps}`, geometry);
    const physicalAxes = sm.corners.every((c) => c.roles.steering_axis !== null);
    // the plots' sweep of a linkage with a physical steering axis: values only unless a
    // plotted metric needs the steering response or the derivatives (the export: all)
    const lean = physicalAxes && req.full !== true && req.steering !== true;
    const states: StateJSON[] = [];
    // a plotted loads metric: the library's loads at every solved step, as `kinemate sweep --loads` has them
    const sweepLoads = req.loads ? new SweepLoads(sm, req.loads) : null;
    const loadsOf = new Map<object, Record<string, number | null>>();
    const onSolvedState = sweepLoads ? (step: object) => { loadsOf.set(step, loadsMetrics(sweepLoads.evaluate(), sm.corners[0].roles.side)); } : undefined;
    // the glTF export needs the poses only: values only, as `kinemate export` sweeps
    const run = req.poses
      ? runSweep(sm, spec, { hold: holdOf(req.doc), noSteering: true, valuesOnly: true, onProgress: () => { states.push(modelState(sm.model)); } })
      : runSweep(sm, spec, { hold: holdOf(req.doc), noSteering: lean, valuesOnly: lean && req.derivatives !== true, ...(onSolvedState ? { onSolvedState } : {}) });
    const axle = sm.roles.scope === 'axle';
    const series: Record<string, (number | null)[]> = {};
    const axes: ([Vec3Tuple, Vec3Tuple] | null)[] = [];
    const c0 = sm.corners[0];
    const sa = c0.roles.steering_axis;
    const saNames = sa ? [roleName(sm, 0, sa[0]), roleName(sm, 0, sa[1])] : null;
    const pre = axle ? `${c0.roles.side}_` : '';
    const num = (m: MetricValues | null, key: string) => (m && typeof m[key] === 'number' ? (m[key] as number) : null);
    for (const s of run.steps) {
      const m = s.metrics ? (axle ? (s.metrics as Record<string, MetricValues>).left : (s.metrics as MetricValues)) : null;
      const ma = axle && s.metrics ? (s.metrics as Record<string, MetricValues>).axle : null;
      const ml = loadsOf.get(s) ?? null;
      for (const key of SWEPT_METRICS) (series[key] ??= []).push(key.startsWith('axle.') ? num(ma, key.slice(5)) : key.startsWith('loads.') ? ml?.[key] ?? null : num(m, key));
      const p = s.positions;
      if (p && saNames && saNames[0] && saNames[1] && p[pre + saNames[0]] && p[pre + saNames[1]]) {
        axes.push([v3(p[pre + saNames[0]]), v3(p[pre + saNames[1]])]);
      } else {
        // no physical steering axis (multi-link): the virtual one, the steering response's screw
        const response = s.steering_response as { axes?: SteeringAxis[] } | undefined;
        const screw = screwOf(response?.axes?.find((a) => a.side === c0.roles.side));
        const h = c0.tireRadius;
        axes.push(screw ? [
          [screw.point[0] - screw.direction[0] * h * 0.6, screw.point[1] - screw.direction[1] * h * 0.6, screw.point[2] - screw.direction[2] * h * 0.6],
          [screw.point[0] + screw.direction[0] * h * 0.6, screw.point[1] + screw.direction[1] * h * 0.6, screw.point[2] + screw.direction[2] * h * 0.6],
        ] : null);
      }
    }
    // a linkage without a physical steering axis plots the virtual caster
    if (series.caster.every((x) => x === null)) series.caster = series.caster_virtual;
    return { docKey: req.docKey, kind, travel, series, failedSteps: run.steps.filter((s) => s.status === 'failed').length, axes, csv: req.full ? sweepsToCsv({ [kind]: run }) : '', ...(req.poses ? { states, assembly } : {}), ms: now() - t0 };
  }
}
