/**
 * The viewer's presenter over the library's live solves: a live document and a view state
 * in, what the page draws out (the scene's structure, every part point in world
 * coordinates, read-outs, DOF, solver status) and the plots' sweep series. No DOM: it runs
 * in the solver workers (`solver.worker.ts`) and, for tests, in Node. Every solve is the
 * library's (src/live): the viewer imports nothing of the kernel (test/viewer/imports.test.ts).
 *
 * - Suspension (a geometry file, or any assembly with a `suspension` section): the
 *   library's `SuspensionLiveEngine` (src/live/suspension-engine.ts). The pose is the
 *   design state driven to a wheel travel (wheel-centre z of each corner) and a rack
 *   displacement, so the same document and view always give the same numbers (an undone
 *   edit shows bit for bit what it showed before). Drags of moving parts are its pulls,
 *   which change the view: the wheel or a linkage point follows the pointer in bump, the
 *   rack in steer.
 * - Any other assembly: the library's `LiveEngine` (warm state, the kernel's ranked pull,
 *   reach reports), which knows the document by its version (the request's key: a
 *   document that crossed the worker is a new object every time); a drag is its pull.
 * - A solve that fails keeps the last good pose and says what failed.
 */
import { quat, vec3 } from 'gl-matrix';
import type { AssemblyDoc, PoseDoc } from '../../src/assembly/types';
import type { SuspensionModel, MetricValues } from '../../src/suspension/model';
import { evaluateState } from '../../src/suspension/state';
import { holdCatalogue, type SteeringAxis } from '../../src/suspension/steering';
import { runSweep, sweepsToCsv } from '../../src/suspension/sweep';
import { sweepFromShortcut, validateGeometry } from '../../src/suspension/files';
import { compileDocument, drivenSuspension, LiveEngine, SuspensionLiveEngine, type LiveFrame, type SolveReport } from '../../src/live';
import type { PointExpr } from '../../src/suspension/targets';
import type { PointRole } from '../../src/suspension/roles';
import type { ViewerDocument, Vec3 } from './document';
import { modelState, type StateJSON } from '../../src/model/operations';
import { LoadsAtPose, loadsMetrics, LOAD_METRICS, type LoadCase, type StateLoads } from './loads';
import { SweepLoads } from '../../src/suspension/loads';
import { devicePlan, deviceShapes, DEVICE_METRICS, type DeviceShape } from './devices';

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
}

export type PullMode = 'bump' | 'steer' | 'free';

/** A pull in progress: move `local` (a point of `part`, its own frame) toward `target` (world). */
export interface PullInput {
  part: string;
  local: Vec3;
  target: Vec3;
  mode: PullMode;
  /** For a suspension axle: which corner's wheel moves (default: every corner). */
  corner?: number;
  /** Identifies the drag (a generic pull continues from its previous target). */
  dragId?: number;
  /** A unit world axis: only the distance along it counts (the wheel in bump: z; the rack: y). */
  axis?: Vec3;
}

export interface PoseRequest {
  docKey: number;
  doc: ViewerDocument;
  view: ViewState;
  pull?: PullInput | null;
  /** Generic assemblies: back to the document's own pose. */
  reset?: boolean;
  /**
   * Suspensions: solve the view from the design state, as a new document would be (after
   * a pull, so that the pose is a function of the document and the view alone, and an
   * undone edit shows bit for bit what it showed before).
   */
  fromDesign?: boolean;
  /** Generic assemblies: the drag with this id was cancelled; go back to the state at its start. */
  cancelDrag?: number;
  /** Suspensions: the loads panel's load case (viewer/src/loads.ts); the result then carries the loads at the pose. */
  loads?: LoadCase | null;
}

/** hardpoint: a chassis pickup (a geometry edit); pull, wheel, rack: moving points (pulls); anchor: a fixed part's point (picked, never dragged). */
export type HandleKind = 'hardpoint' | 'pull' | 'wheel' | 'rack' | 'anchor';

export interface HandleInfo {
  /** The point it stands on (`part.point`, a key of `points`). */
  ref: string;
  part: string;
  local: Vec3;
  kind: HandleKind;
  /** The hardpoint it edits (suspension geometry), as the assembly names it. */
  hardpoint?: string;
  label: string;
  corner?: number;
}

export interface SceneStructure {
  parts: { name: string; fixed: boolean; refs: string[] }[];
  rods: { id: string; a: string; b: string }[];
  /** Joints between two entities: drawn as a pin at `at`; a sliding one also as the bar from `at` to `to`. */
  joints: { id: string; type: string; at: string; to: string }[];
  handles: HandleInfo[];
  /** Suspension hardpoint names (for the table), in file order. */
  hardpoints: string[];
}

export interface CornerGeometry {
  side: string;
  wheelCenter: Vec3;
  /** Unit spin axis, inboard → outboard. */
  spin: Vec3;
  tireRadius: number;
  sectionWidth: number;
  contact: Vec3 | null;
  steeringAxis: [Vec3, Vec3] | null;
  damper: [Vec3, Vec3] | null;
  svic: Vec3 | null;
  fvic: Vec3 | null;
  /** The steering response's screw axis (the virtual steering axis), when it is valid. */
  screwAxis: { point: Vec3; direction: Vec3; pitch: number | null } | null;
}

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
  points: Record<string, Vec3>;
  /** Each part's pose: position then quaternion (w, x, y, z). */
  poses: Record<string, number[]>;
  design: Record<string, Vec3>;
  /** Every metric at design (wheel travel 0, rack centred): what the what-if deltas compare ({} without suspension roles). */
  designMetrics: Record<string, number | null>;
  corners: CornerGeometry[];
  designCorners: CornerGeometry[];
  rollCenter: Vec3 | null;
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
  ms: { build: number; solve: number; evaluate: number; total: number };
}

export type SweepKind = 'bump' | 'steer';

export interface SweepRequest {
  docKey: number;
  doc: ViewerDocument;
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
  axes: ([Vec3, Vec3] | null)[];
  csv: string;
  /** With `poses`: the part poses at each step (a failed step keeps the last good pose) and the assembly they pose. */
  states?: StateJSON[];
  assembly?: AssemblyDoc;
  ms: number;
}

export interface PlotSpec {
  metric: string;
  label: string;
  unit: string;
}

/** A metric shown as a read-out row too: a plot spec with its decimals. */
export interface ReadoutSpec extends PlotSpec {
  digits: number;
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

// ---------------------------------------------------------------- helpers

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const v3 = (a: ArrayLike<number>): Vec3 => [a[0], a[1], a[2]];

/** The entities each mate names (`part.entity`), per assembly: a mated axis or circle is part of its part's drawing. */
const matedCache = new WeakMap<AssemblyDoc, Set<string>>();
function matedRefs(doc: AssemblyDoc): Set<string> {
  let out = matedCache.get(doc);
  if (!out) {
    out = new Set<string>();
    for (const m of Object.values(doc.mates)) {
      const mm = m as { a?: unknown; b?: unknown };
      if (typeof mm.a === 'string') out.add(mm.a);
      if (typeof mm.b === 'string') out.add(mm.b);
    }
    matedCache.set(doc, out);
  }
  return out;
}

/**
 * The points a part is drawn through (`skeleton`) and grabbed by (`handle`). Points and
 * frames always; axes, planes and circles only when the part has nothing else, except that
 * a mated axis or circle is drawn through too (a trailing arm reaches its hinge: without it
 * the arm's pivots float). An axis authored as a segment (a direction that is not a unit
 * vector: from one pivot to the other) is drawn to its far end as well (`name#end`, no handle).
 */
function entityOrigins(doc: AssemblyDoc, part: string): { name: string; local: Vec3; skeleton: boolean; handle: boolean }[] {
  const p = doc.parts[part];
  const mated = matedRefs(doc);
  const out: { name: string; local: Vec3; skeleton: boolean; handle: boolean }[] = [];
  for (const [n, q] of Object.entries(p.points ?? {})) out.push({ name: n, local: v3(q), skeleton: true, handle: true });
  for (const [n, f] of Object.entries(p.frames ?? {})) out.push({ name: n, local: v3(f.origin), skeleton: true, handle: true });
  const bare = out.length === 0;
  // a mated entity whose origin is already drawn (a hinge through a point) adds nothing
  const drawnAt = (q: Vec3) => out.some((e) => e.skeleton && Math.hypot(e.local[0] - q[0], e.local[1] - q[1], e.local[2] - q[2]) <= 1e-9 * (1 + Math.hypot(q[0], q[1], q[2])));
  const joinedAt = (n: string, q: Vec3) => bare || (mated.has(`${part}.${n}`) && !drawnAt(q));
  for (const [n, a] of Object.entries(p.axes ?? {})) {
    const origin = v3(a.origin);
    const matedAxis = mated.has(`${part}.${n}`);
    out.push({ name: n, local: origin, skeleton: joinedAt(n, origin), handle: true });
    const d = a.direction, len = Math.hypot(d[0], d[1], d[2]);
    if (matedAxis && len > 0 && Math.abs(len - 1) > 1e-6) {
      const end: Vec3 = [origin[0] + d[0], origin[1] + d[1], origin[2] + d[2]];
      if (!drawnAt(end)) out.push({ name: `${n}#end`, local: end, skeleton: true, handle: false });
    }
  }
  for (const [n, a] of Object.entries(p.planes ?? {})) out.push({ name: n, local: v3(a.origin), skeleton: bare, handle: true });
  for (const [n, c] of Object.entries(p.circles ?? {})) { const centre = v3(c.center); out.push({ name: n, local: centre, skeleton: joinedAt(n, centre), handle: true }); }
  // a part with mass is drawn to its mass centre too (a pendulum's bob is its mass, not a named point)
  if (p.mass && !drawnAt(v3(p.mass.centre))) out.push({ name: '#mass', local: v3(p.mass.centre), skeleton: true, handle: false });
  // a part drawn through a circle's centre alone (a wheel): spokes to its rim, so that it is seen, and seen turning
  if (out.filter((e) => e.skeleton).length === 1) {
    for (const [n, c] of Object.entries(p.circles ?? {})) {
      const [u, w] = perpendiculars(c.normal);
      for (const [k, [cu, cw]] of [[1, 0], [0, 1], [-1, 0], [0, -1]].entries()) {
        out.push({ name: `${n}#rim${k}`, local: [0, 1, 2].map((i) => c.center[i] + c.radius * (cu * u[i] + cw * w[i])) as Vec3, skeleton: true, handle: false });
      }
    }
  }
  return out;
}

/** Two unit vectors perpendicular to `n` and to each other. */
function perpendiculars(n: readonly number[]): [Vec3, Vec3] {
  const l = Math.hypot(n[0], n[1], n[2]) || 1;
  const z: Vec3 = [n[0] / l, n[1] / l, n[2] / l];
  const seed: Vec3 = Math.abs(z[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = seed[0] * z[0] + seed[1] * z[1] + seed[2] * z[2];
  const u0: Vec3 = [seed[0] - d * z[0], seed[1] - d * z[1], seed[2] - d * z[2]];
  const lu = Math.hypot(u0[0], u0[1], u0[2]);
  const u: Vec3 = [u0[0] / lu, u0[1] / lu, u0[2] / lu];
  return [u, [z[1] * u[2] - z[2] * u[1], z[2] * u[0] - z[0] * u[2], z[0] * u[1] - z[1] * u[0]]];
}

/** Owner names as a user reads them. */
function userOwner(owner: string): string {
  return owner.replace(/^(hold:|limit:|target:|driver:)/, '');
}

// ---------------------------------------------------------------- the loaded model

/** A suspension document's model: the library's live suspension solve, and what the scene draws of it. */
class LoadedModel {
  /** The library's suspension solve (view drivers, pulls: src/live/suspension-engine.ts). */
  readonly live: SuspensionLiveEngine;
  readonly sm: SuspensionModel;
  readonly structure: SceneStructure;
  readonly design: Record<string, Vec3>;
  /** The wheels and axes (the ghost) and every metric at design: see {@link designGiven}. */
  private designCache: { corners: CornerGeometry[]; metrics: Record<string, number | null> } | null = null;
  readonly buildMs: number;
  /** Loads at the pose under the panel's load case (viewer/src/loads.ts). */
  readonly loads: LoadsAtPose;
  /** How the devices are drawn at any state (viewer/src/devices.ts). */
  readonly devices: ReturnType<typeof devicePlan>;
  constructor(readonly key: number, readonly doc: ViewerDocument, readonly assembly: AssemblyDoc, t0: number) {
    // the view's drivers (wheel travel, rack) take over from the document's holds
    this.live = new SuspensionLiveEngine(assembly);
    this.sm = this.live.sm;
    this.structure = structureOf(assembly, this.sm, doc.kind === 'suspension');
    this.design = pointsFromPoses(assembly, posesOf(this.live.poses()));
    this.loads = new LoadsAtPose(this.sm);
    this.devices = devicePlan(this.sm, doc.kind === 'suspension' ? validateGeometry(doc.geometry) : null, this.live.poses());
    this.buildMs = now() - t0;
  }

  get view(): ViewState {
    const v = this.live.view;
    return { travel: [...v.travel], rack: v.rack };
  }

  /**
   * The corners (the ghost) and every metric (what the what-if deltas compare) at design.
   * A result at design already has them (`atDesign`): an edit dragged at design, the
   * common case, then evaluates once, not twice. Otherwise the design state is evaluated
   * once per document and the current state put back.
   */
  designGiven(atDesign: { corners: CornerGeometry[]; metrics: Record<string, number | null> } | null): { corners: CornerGeometry[]; metrics: Record<string, number | null> } {
    if (this.designCache) return this.designCache;
    if (atDesign) return (this.designCache = atDesign);
    return (this.designCache = this.live.atDesign(() => {
      const ev = evaluateState(this.sm, holdOf(this.doc));
      return { corners: cornerGeometry(this.sm, ev, ev.steering.axes), metrics: flatMetrics(this.sm, ev.metrics) };
    }));
  }
}

const freedDocs = new WeakMap<object, ViewerDocument>();

/**
 * The document as the viewer drags it: its held coordinates (drivers) free, so that a
 * pull moves the mechanism (a held crank angle would lock a four-bar). Kept per document
 * object (the live engine knows the document by its version, the request's docKey).
 */
function freed(doc: ViewerDocument): ViewerDocument {
  if (doc.kind !== 'assembly' || doc.doc.held.length === 0) return doc;
  let out = freedDocs.get(doc);
  if (!out) {
    out = { kind: 'assembly', doc: { ...doc.doc, held: [] } };
    freedDocs.set(doc, out);
  }
  return out;
}

/** Poses as the library gives them (position, then rotation w, x, y, z) in the document's form. */
function posesOf(poses: Readonly<Record<string, readonly number[]>>): Record<string, PoseDoc> {
  const out: Record<string, PoseDoc> = {};
  for (const [name, p] of Object.entries(poses)) out[name] = { position: [p[0], p[1], p[2]], rotation: [p[3], p[4], p[5], p[6]] };
  return out;
}

function pointsFromPoses(doc: AssemblyDoc, poses: Readonly<Record<string, PoseDoc>>): Record<string, Vec3> {
  const out: Record<string, Vec3> = {};
  // plain arrays: gl-matrix computes in doubles there (its create() gives Float32Array)
  const q: quat = [0, 0, 0, 1], w: vec3 = [0, 0, 0];
  for (const part of Object.keys(doc.parts)) {
    const pj = poses[part] ?? doc.parts[part].pose;
    // the file's rotation is (w, x, y, z); gl-matrix's quaternion is (x, y, z, w)
    const r = pj.rotation;
    quat.set(q, r[1], r[2], r[3], r[0]);
    quat.normalize(q, q);
    for (const e of entityOrigins(doc, part)) {
      vec3.transformQuat(w, e.local, q);
      out[`${part}.${e.name}`] = [w[0] + pj.position[0], w[1] + pj.position[1], w[2] + pj.position[2]];
    }
  }
  return out;
}

function structureOf(doc: AssemblyDoc, sm: SuspensionModel | null, geometryEditable: boolean): SceneStructure {
  const parts: SceneStructure['parts'] = [];
  for (const [name, p] of Object.entries(doc.parts)) {
    parts.push({ name, fixed: p.fixed ?? false, refs: entityOrigins(doc, name).filter((e) => e.skeleton).map((e) => `${name}.${e.name}`) });
  }
  const rods: SceneStructure['rods'] = [];
  const joints: SceneStructure['joints'] = [];
  for (const [id, m] of Object.entries(doc.mates)) {
    const mm = m as { type: string; a?: unknown; b?: unknown };
    if (typeof mm.a !== 'string' || typeof mm.b !== 'string') continue; // couplings name coordinates
    if (mm.type === 'distance') rods.push({ id, a: mm.a, b: mm.b });
    else joints.push({ id, type: mm.type, at: mm.a, to: mm.b });
  }
  const handles: HandleInfo[] = [];
  const hardpoints: string[] = [];
  const localOf = (ref: string): Vec3 | null => {
    const dot = ref.indexOf('.');
    const part = doc.parts[ref.slice(0, dot)];
    const e = part ? entityOrigins(doc, ref.slice(0, dot)).find((x) => x.name === ref.slice(dot + 1)) : undefined;
    return e ? e.local : null;
  };
  if (sm) {
    const axle = sm.roles.scope === 'axle';
    sm.corners.forEach((c, ci) => {
      const seen = new Set<string>();
      for (const [name, role] of Object.entries(c.roles.points)) {
        if (typeof role !== 'string' || seen.has(role)) continue;
        seen.add(role);
        const part = role.slice(0, role.indexOf('.'));
        const local = localOf(role);
        if (!local) continue;
        const hp = axle ? `${c.roles.side}_${name}` : name;
        hardpoints.push(hp);
        const kind: HandleKind = part === sm.roles.chassis ? 'hardpoint' : part === 'rack' ? 'rack' : 'pull';
        handles.push({ ref: role, part, local, kind, label: hp, corner: ci, ...(geometryEditable ? { hardpoint: hp } : {}) });
      }
      handles.push({ ref: `${c.roles.upright}#wheel`, part: c.roles.upright, local: v3(c.wheelCenterLocal), kind: 'wheel', label: `${axle ? `${c.roles.side} ` : ''}wheel`, corner: ci });
    });
    // axle-level points (`hardpoints.center`: an anti-roll bar's axis or pivot), authored once
    for (const [name, role] of Object.entries(sm.roles.devices?.points ?? {})) {
      if (typeof role !== 'string') continue;
      const part = role.slice(0, role.indexOf('.'));
      const local = localOf(role);
      if (!local || part !== sm.roles.chassis) continue;
      hardpoints.push(name);
      handles.push({ ref: role, part, local, kind: 'hardpoint', label: name, ...(geometryEditable ? { hardpoint: name } : {}) });
    }
  } else {
    for (const [name, p] of Object.entries(doc.parts)) {
      for (const e of entityOrigins(doc, name)) if (e.handle) handles.push({ ref: `${name}.${e.name}`, part: name, local: e.local, kind: p.fixed ? 'anchor' : 'pull', label: `${name}.${e.name}` });
    }
  }
  return { parts, rods, joints, handles, hardpoints };
}

function roleName(sm: SuspensionModel, ci: number, role: PointRole): string | null {
  if (typeof role !== 'string') return null;
  for (const [name, r] of Object.entries(sm.corners[ci].roles.points)) if (r === role) return name;
  return null;
}

function cornerGeometry(sm: SuspensionModel, ev: ReturnType<SuspensionModel['evaluate']>, steering: readonly SteeringAxis[] = []): CornerGeometry[] {
  const axle = sm.roles.scope === 'axle';
  return sm.corners.map((c, i) => {
    const pre = axle ? `${c.roles.side}_` : '';
    const pos = ev.positions;
    const at = (expr: PointExpr) => v3(sm.pointValue(expr));
    const ai = at(c.axle[0]), ao = at(c.axle[1]);
    const d = [ao[0] - ai[0], ao[1] - ai[1], ao[2] - ai[2]];
    const l = Math.hypot(d[0], d[1], d[2]) || 1;
    const wc = pos[`${pre}wheel_center`] ?? v3(sm.pointValue([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }]));
    const metrics = (axle ? (ev.metrics as Record<string, MetricValues>)[c.roles.side] : ev.metrics) as MetricValues;
    const sa = c.roles.steering_axis;
    const num = (k: string) => (typeof metrics[k] === 'number' ? (metrics[k] as number) : null);
    const svx = num('svic_x'), svz = num('svic_z'), fvy = num('fvic_y'), fvz = num('fvic_z');
    return {
      side: c.roles.side,
      wheelCenter: v3(wc),
      spin: [d[0] / l, d[1] / l, d[2] / l],
      tireRadius: c.tireRadius,
      sectionWidth: c.roles.wheel.tire.section_width,
      contact: pos[`${pre}wheel_contact_centre`] ? v3(pos[`${pre}wheel_contact_centre`]) : null,
      steeringAxis: sa ? [at(sm.resolveRole(sa[0])), at(sm.resolveRole(sa[1]))] : null,
      damper: c.roles.damper ? [at(sm.resolveRole(c.roles.damper[0])), at(sm.resolveRole(c.roles.damper[1]))] : null,
      svic: svx !== null && svz !== null ? [svx, wc[1], svz] : null,
      fvic: fvy !== null && fvz !== null ? [wc[0], fvy, fvz] : null,
      screwAxis: screwOf(steering.find((a) => a.side === c.roles.side)),
    };
  });
}

function screwOf(axis: SteeringAxis | undefined): CornerGeometry['screwAxis'] {
  if (!axis || axis.status !== 'valid' || !axis.point || !axis.direction) return null;
  return { point: v3(axis.point), direction: v3(axis.direction), pitch: axis.pitch };
}

function flatMetrics(sm: SuspensionModel, metrics: ReturnType<SuspensionModel['evaluate']>['metrics']): Record<string, number | null> {
  if (sm.roles.scope !== 'axle') return { ...(metrics as MetricValues) };
  const m = metrics as { axle: MetricValues; left: MetricValues; right: MetricValues };
  const out: Record<string, number | null> = { ...m.left };
  for (const [k, v] of Object.entries(m.right)) out[`right.${k}`] = v;
  for (const [k, v] of Object.entries(m.axle)) out[`axle.${k}`] = v;
  return out;
}

// ---------------------------------------------------------------- the engine

export class Engine {
  private loaded: LoadedModel | null = null;

  /** The model for a document, rebuilt when the document changed (new key). */
  private load(docKey: number, doc: ViewerDocument): LoadedModel {
    if (this.loaded && this.loaded.key === docKey) return this.loaded;
    const t0 = now();
    this.loaded = new LoadedModel(docKey, doc, compileDocument(doc).assembly, t0);
    return this.loaded;
  }

  private generic: {
    key: number; engine: LiveEngine; seq: number; design: Record<string, Vec3> | null; lastGood: LiveFrame | null; lastGoodKey?: number; structure: SceneStructure | null;
  } | null = null;

  pose(req: PoseRequest): PoseResult {
    if (req.doc.kind === 'assembly' && req.doc.doc.suspension === undefined) return this.poseGeneric(req);
    const t0 = now();
    const fresh = !this.loaded || this.loaded.key !== req.docKey;
    const lm = this.load(req.docKey, req.doc);
    const buildMs = fresh ? lm.buildMs : 0;
    const t1 = now();
    let report: SolveReport | null = null;
    let asked: string | null = null;
    let note: string | null = null;
    let limitedBy: SolveReport | null = null;
    if (req.pull) {
      // the pull starts from the view the request carries (the last good pose)
      const pull = req.pull;
      const r = lm.live.pull({ part: pull.part, local: pull.local, target: pull.target, mode: pull.mode, ...(pull.corner !== undefined ? { corner: pull.corner } : {}), ...(pull.axis ? { axis: pull.axis } : {}) }, req.view);
      report = r.report;
      if (r.note) note = r.note;
      if (r.limitedBy) {
        limitedBy = r.limitedBy;
        const view = lm.view;
        const what = pull.mode === 'steer' ? `the rack stops at ${signed(view.rack)} mm` : `the wheel stops at ${view.travel.map((t) => `${signed(t)} mm`).join(' / ')} of travel`;
        asked = `beyond reach: ${what}, ${r.remaining.toFixed(0)} mm short of the pointer; a step further does not close`;
      }
    } else if (fresh || req.fromDesign || !sameView(lm.view, req.view)) {
      report = lm.live.driveTo(req.view, fresh || req.fromDesign === true);
      if (!report.converged) asked = describeView(lm, req.view);
    }
    return this.result(lm, report, asked, note, t0, buildMs, now() - t1, limitedBy, req.loads ?? null);
  }

  /** A mechanism without suspension roles, on the live engine. */
  private poseGeneric(req: PoseRequest): PoseResult {
    const t0 = now();
    // one live engine across edits (it carries the solved state from one document to the
    // next by part name); a new one only to go back to the document's own pose
    if (!this.generic || req.reset) {
      this.generic = { key: req.docKey, engine: new LiveEngine(), seq: 0, design: null, lastGood: null, structure: null };
    }
    const g = this.generic;
    if (g.key !== req.docKey) {
      g.key = req.docKey;
      g.design = null;
      g.structure = null;
      // the last good poses stay across documents: an edit that cannot be solved shows
      // the linkage where it last was, not the solver's failed attempt
    }
    const pull = req.pull ? { dragId: req.pull.dragId ?? 0, part: req.pull.part, point: req.pull.local, target: req.pull.target } : null;
    // the document's version is the request's key: across the worker every request's document
    // is a new object; a cancelled drag is named by its id (the engine kept its start)
    const frame = g.engine.solve({ seq: ++g.seq, document: freed(req.doc), version: req.docKey, pull, diagnose: pull === null, ...(req.cancelDrag !== undefined ? { cancelledDrag: req.cancelDrag } : {}) });
    const t1 = now();
    const assembly = frame.assembly;
    g.structure ??= structureOf(assembly, null, false);
    const lastGood = g.lastGood;
    const shown = frame.good ? frame : lastGood ?? frame;
    if (frame.good) { g.lastGood = frame; g.lastGoodKey = req.docKey; }
    const points = pointsFromPoses(assembly, shown.poses);
    // the ghost: where the document itself puts the parts
    g.design ??= pointsFromPoses(assembly, {});
    // the DOF and redundancy of this document's last good state (or of the attempt)
    const result = (frame.good ? frame : lastGood && g.lastGoodKey === req.docKey ? lastGood : frame).result;
    const L = g.engine.model?.system.lengthScale ?? 1;
    let message: string | null = null;
    if (!frame.good) message = `the mechanism cannot follow — solver: ${frame.result.message ?? 'constraints do not hold'}`;
    else if (frame.reach && frame.reach.status === 'limited' && frame.reach.remaining > 1e-3 * L) message = `the point follows its path: ${frame.reach.remaining.toPrecision(3)} from the pointer`;
    const failed = frame.good ? [] : [...new Set([...(frame.result.failed ?? []), ...frame.result.conflicting])];
    return {
      docKey: req.docKey,
      ok: frame.good,
      good: frame.good,
      status: frame.good ? 'solved' : 'failed',
      message,
      failed,
      asked: null,
      iterations: frame.result.iterations,
      maxResidual: frame.result.maxResidual,
      dof: result.dof,
      redundant: result.redundant,
      view: { travel: [], rack: 0 },
      lengthScale: L,
      structure: g.structure,
      points,
      poses: Object.fromEntries(Object.keys(assembly.parts).map((k) => { const p = shown.poses[k] ?? assembly.parts[k].pose; return [k, [...p.position, ...p.rotation]]; })),
      design: g.design,
      corners: [],
      designCorners: [],
      designMetrics: {},
      rollCenter: null,
      metrics: {},
      devices: [],
      suspension: false,
      editable: false,
      holds: { ids: [], current: 'layout_default' },
      ms: { build: frame.rebuilt ? frame.solveMs : 0, solve: frame.solveMs, evaluate: now() - t1, total: now() - t0 },
    };
  }

  private result(lm: LoadedModel, report: SolveReport | null, asked: string | null, note: string | null, t0: number, buildMs: number, solveMs: number, limitedBy: SolveReport | null = null, loadCase: LoadCase | null = null): PoseResult {
    if (report && !report.converged) lm.live.restoreLastGood();
    const t2 = now();
    const f = lm.live.freedom();
    let rollCenter: Vec3 | null = null;
    // every metric with its derivatives, the steering response under the document's
    // hold (the virtual axis and the *_virtual metrics) and, for a multi-link, instant
    // centres from the screw
    const ev = evaluateState(lm.sm, holdOf(lm.doc));
    const metrics = flatMetrics(lm.sm, ev.metrics);
    const corners = cornerGeometry(lm.sm, ev, ev.steering.axes);
    // the loads at the pose shown (the last good one after a failure)
    const loads = loadCase ? lm.loads.evaluate(loadCase) : null;
    if (loads) Object.assign(metrics, loadsMetrics(loads, lm.sm.corners[0].roles.side));
    const y = metrics['axle.roll_center_y'], z = metrics['axle.roll_center_z'];
    if (typeof y === 'number' && typeof z === 'number' && corners.length) rollCenter = [(corners[0].wheelCenter[0] + (corners[1]?.wheelCenter[0] ?? corners[0].wheelCenter[0])) / 2, y, z];
    const failedOwners = report && !report.converged ? report.failed : limitedBy ? limitedBy.failed : [];
    const failed = failedOwners.filter((o) => !o.startsWith('drag:') && !lm.live.isDriverRow(o)).map(userOwner);
    const solved = !report || report.converged;
    const view = lm.view;
    const atDesign = solved && !limitedBy && view.rack === 0 && view.travel.every((t) => t === 0);
    const design = lm.designGiven(atDesign ? { corners, metrics } : null);
    const ok = solved && !limitedBy;
    let message: string | null = null;
    if (!solved) message = [asked, report?.message ? `solver: ${report.message}` : null].filter(Boolean).join(' — ');
    else if (limitedBy) message = asked;
    else if (note) message = note;
    const poses = lm.live.poses();
    const t3 = now();
    return {
      docKey: lm.key,
      ok,
      good: solved,
      status: !solved ? 'failed' : limitedBy ? 'limited' : 'solved',
      message,
      failed,
      asked,
      iterations: report?.iterations ?? 0,
      maxResidual: report?.maxResidual ?? 0,
      dof: f.dof,
      redundant: f.redundant.map(userOwner),
      view,
      lengthScale: lm.live.model.system.lengthScale,
      structure: lm.structure,
      points: pointsFromPoses(lm.assembly, posesOf(poses)),
      poses,
      design: lm.design,
      corners,
      designCorners: design.corners,
      designMetrics: design.metrics,
      rollCenter,
      metrics,
      suspension: true,
      editable: lm.doc.kind === 'suspension',
      holds: lm.sm.rackHold ? { ids: ['layout_default', ...holdCatalogue(lm.sm, 0).ids], current: holdOf(lm.doc) } : { ids: [], current: holdOf(lm.doc) },
      loads,
      devices: deviceShapes(lm.sm, lm.devices),
      ms: { build: buildMs, solve: solveMs, evaluate: t3 - t2, total: t3 - t0 },
    };
  }

  /** A bump sweep of the document's design (its own model: never disturbs the pose). */
  sweep(req: SweepRequest): SweepResult {
    const t0 = now();
    const assembly = compileDocument(req.doc).assembly;
    const travel: number[] = [];
    const { start, stop, steps } = req.range;
    for (let i = 0; i < steps; i++) travel.push(steps === 1 ? start : start + ((stop - start) * i) / (steps - 1));
    const kind: SweepKind = req.kind ?? 'bump';
    if (assembly.suspension === undefined) return { docKey: req.docKey, kind, travel: [], series: {}, failedSteps: 0, axes: [], csv: '', ms: now() - t0 };
    // the sweep's drivers take over from the document's holds (a suspension document holds
    // the rack, as a bump sweep does; a steer sweep moves it)
    const sm = drivenSuspension(assembly);
    const geometry = req.doc.kind === 'suspension' ? validateGeometry(req.doc.geometry) : undefined;
    // a steer sweep of a linkage without a rack has nothing to move: an error, said as such
    if (kind === 'steer' && !sm.rackHold) throw new Error('a steer sweep needs a rack: this linkage is not steered');
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
    const axes: ([Vec3, Vec3] | null)[] = [];
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

/** The steering hold of a document (a suspension's option; the layout's default otherwise). */
function holdOf(doc: ViewerDocument): string {
  return doc.kind === 'suspension' ? doc.options.hold : 'layout_default';
}

function signed(x: number): string {
  return `${x > 0 ? '+' : ''}${x.toFixed(1)}`;
}

function sameView(a: ViewState, b: ViewState): boolean {
  return a.rack === b.rack && a.travel.length === b.travel.length && a.travel.every((t, i) => t === b.travel[i]);
}

function describeView(lm: LoadedModel, view: ViewState): string {
  const parts: string[] = [];
  const axle = lm.sm!.roles.scope === 'axle';
  view.travel.forEach((t, i) => { if (t !== 0) parts.push(`wheel travel ${t > 0 ? '+' : ''}${t.toFixed(1)} mm${axle ? ` (${lm.sm!.corners[i].roles.side})` : ''}`); });
  if (view.rack !== 0) parts.push(`rack ${view.rack > 0 ? '+' : ''}${view.rack.toFixed(1)} mm`);
  return `the linkage cannot reach ${parts.join(', ') || 'this pose'}`;
}
