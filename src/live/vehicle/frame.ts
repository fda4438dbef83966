/**
 * One frame of the whole vehicle for a page (docs/vehicle.md, "Viewer"): the vehicle read
 * from its document, solved at rest, and what the viewer draws and reads out — every part
 * where it stands (as a `PoseResult` the 3D view draws like any assembly's), the chassis
 * pickups of both axles as handles, the contact loads and their rate per g of lateral
 * acceleration (the load transfer), and the figures of the vehicle's analyses: static
 * corner loads and ride heights, the roll gradient and the lateral load transfer per axle
 * (exact, at 0 g), the pitch gradient and, with tyres, the understeer gradient.
 */
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import { SuspensionFileError } from '../../suspension/files/errors.ts';
import { suspensionAssembly } from '../../suspension/build/template.ts';
import type { SuspensionRoles } from '../../suspension/build/roles.ts';
import { modelState } from '../../model/operations.ts';
import {
  accelerationDirection, buildVehicle, CORNERS, longitudinalSummary, solveVehicle, stateDerivative, steadySummary, steadyTyres,
  type AxleName, type CornerName, type SolvedState, type StateDerivative, type VehicleModel, type VehicleSpec,
} from '../../suspension/vehicle/index.ts';
import type { HandleInfo, CornerGeometry } from '../view/frame-types.ts';
import type { PoseResult } from '../view/presenter.ts';
import { pointsFromPoses, posesOf, structureOf } from '../view/scene-structure.ts';
import { vehicleSpecOf, type VehicleDocument, type VehicleHardpoint } from './document.ts';

/** The radius (m) the understeer gradient is taken on (a skid pad's). */
export const UNDERSTEER_RADIUS = 40;

export interface VehicleCornerFigures {
  /** N, the road's vertical force on the tyre. */
  load: number;
  /** N per g of lateral acceleration (left turn +), exact at 0 g. */
  load_per_g: number;
  /** mm. */
  ride_height: number;
  wheel_travel: number;
  /** deg. */
  camber: number;
  toe: number;
  /** World, mm: where the tyre meets the road. */
  contact_point: Vec3Tuple;
}

export interface VehicleFigures {
  /** kg, every mass. */
  mass: number;
  corners: Record<CornerName, VehicleCornerFigures>;
  body: { heave: number; pitch: number; roll: number };
  /** deg/g (+ right side down in a left turn), N/g per axle, and the front's share. */
  roll_gradient: number;
  lateral_load_transfer: Record<AxleName, number>;
  front_load_transfer_share: number;
  /** deg/g, braking's when the brake bias is given (vehicle --ax's summary); null without brake bias or driven axle. */
  pitch_gradient: number | null;
  /** deg/g on UNDERSTEER_RADIUS; null without tyre cornering stiffness, a string when it failed. */
  understeer_gradient: number | null;
  understeer_note: string | null;
  /** True when the pitch and understeer gradients were left out (a quick frame: a drag moving). */
  quick: boolean;
}

export interface VehicleLiveFrame {
  /** What the 3D view draws; null when the vehicle could not be read or solved. */
  pose: PoseResult | null;
  /** The hardpoint each handle (by its point ref) edits. */
  handles: Record<string, VehicleHardpoint>;
  figures: VehicleFigures | null;
  /** Why there is no pose or figures: the reader's message, or the solve's status. */
  error: string | null;
  /** What the vehicle replaced in the axle files (the reader's notes). */
  notes: string[];
  ms: number;
  /** The solved state at rest (the system's state vector): the next frame of the same vehicle starts from it. */
  restState: Float64Array | null;
}

export interface VehicleLiveFrameOptions {
  /** Leave out the pitch and understeer gradients (while a drag moves). */
  quick?: boolean;
  /**
   * Start the solve from this state (the last frame's `restState` of the same vehicle):
   * a pickup moved a little moves the equilibrium a little, and Newton from there takes a
   * few iterations instead of the dozen from the levelled design. A state of another
   * length is ignored; a warm solve that fails is done again from the design.
   */
  start?: Float64Array | null;
}

/** Reads, builds and solves the vehicle of a document; never throws for a bad document (the frame says why). */
export function vehicleLiveFrame(doc: VehicleDocument, docKey: number, options: VehicleLiveFrameOptions = {}): VehicleLiveFrame {
  const t0 = performance.now();
  let spec: VehicleSpec;
  try {
    spec = vehicleSpecOf(doc);
  } catch (error) {
    if (error instanceof SuspensionFileError || error instanceof Error) return { pose: null, handles: {}, figures: null, error: error.message, notes: [], ms: performance.now() - t0, restState: null };
    throw error;
  }
  const m = buildVehicle(spec);
  const rest = { ax: 0, ay: 0 };
  const sys = m.dyn.system;
  let s;
  if (options.start && options.start.length === sys.state.length) {
    const design = sys.snapshot();
    sys.state.set(options.start);
    s = solveVehicle(m, rest);
    if (s.status !== 'solved') { sys.restore(design); s = solveVehicle(m, rest); }
  } else s = solveVehicle(m, rest);
  if (s.status !== 'solved') return { pose: null, handles: {}, figures: null, error: `${s.status}: ${s.message}`, notes: spec.notes, ms: performance.now() - t0, restState: null };
  const restState = sys.state.slice();
  const d = stateDerivative(m, rest, accelerationDirection('ay', rest));
  return { ...solvedFrame(m, s, d, docKey, options.quick === true), notes: spec.notes, ms: performance.now() - t0, restState };
}

/**
 * The frame of a vehicle solved at rest (`s`, the model standing there) with the state's
 * derivative along the lateral acceleration `d` (the live figures); the pitch and understeer
 * gradients too unless `quick` (they re-solve: the model's state is left elsewhere).
 */
export function solvedFrame(m: VehicleModel, s: SolvedState, d: StateDerivative, docKey: number, quick: boolean): Omit<VehicleLiveFrame, 'notes' | 'ms' | 'restState'> {
  const handles = vehicleHandles(m);
  const pose = poseResult(m, docKey, Object.values(handles.info));
  const axleTransfer = (axle: AxleName) => (d.load[`${axle}_right`] - d.load[`${axle}_left`]) / 2;
  const front = axleTransfer('front'), rear = axleTransfer('rear');
  const corners = {} as Record<CornerName, VehicleCornerFigures>;
  for (const c of CORNERS) {
    const x = s.corners[c];
    corners[c] = { load: x.contact_load[2], load_per_g: d.load[c], ride_height: x.ride_height, wheel_travel: x.wheel_travel, camber: x.camber, toe: x.toe, contact_point: x.contact_point };
  }
  const figures: VehicleFigures = {
    mass: s.vehicle.mass, corners, body: s.body,
    roll_gradient: d.roll, lateral_load_transfer: { front, rear }, front_load_transfer_share: front / (front + rear),
    pitch_gradient: null, understeer_gradient: null, understeer_note: null, quick,
  };
  if (!quick) slowFigures(m, figures);
  return { pose, handles: handles.edits, figures, error: null };
}

/** The pitch gradient and, with tyres, the understeer gradient (each a few re-solves). */
function slowFigures(m: VehicleModel, figures: VehicleFigures): void {
  if (m.spec.front_brake_bias !== undefined || m.spec.driven_axle !== undefined) figures.pitch_gradient = longitudinalSummary(m).pitch_gradient;
  const tyred = m.wheels.every((w) => w.tyre.tir !== undefined || w.tyre.cornering_stiffness !== undefined);
  if (!tyred) { figures.understeer_note = 'needs the tyres\' cornering stiffness or a .tir file'; return; }
  const u = steadySummary(m, steadyTyres(m), UNDERSTEER_RADIUS * 1000);
  if ('status' in u) figures.understeer_note = u.message;
  else figures.understeer_gradient = u.understeer_gradient;
}

/**
 * Each axle's roles, by the system they were read for: a kept model (kept.ts) renewed in
 * place has the same parts and mates, so the same roles, frame after frame.
 */
const rolesOf = new WeakMap<object, Record<AxleName, SuspensionRoles>>();

/** Every chassis pickup of both axles (on the body) as a hardpoint handle, and what each edits. */
function vehicleHandles(m: VehicleModel): { info: Record<string, HandleInfo>; edits: Record<string, VehicleHardpoint> } {
  const info: Record<string, HandleInfo> = {};
  const edits: Record<string, VehicleHardpoint> = {};
  const bodyPoints = (m.doc.parts.body.points ?? {}) as Record<string, readonly number[]>;
  let axleRoles = rolesOf.get(m.dyn.system);
  if (!axleRoles) {
    const of = (axle: AxleName) => suspensionAssembly(m.spec[axle].geometry).suspension as SuspensionRoles;
    axleRoles = { front: of('front'), rear: of('rear') };
    rolesOf.set(m.dyn.system, axleRoles);
  }
  for (const axle of ['front', 'rear'] as const) {
    const roles = axleRoles[axle];
    const add = (role: string, name: string, corner?: number) => {
      if (!role.startsWith(`${roles.chassis}.`)) return;
      const point = `${axle}_${role.slice(roles.chassis.length + 1)}`;
      const local = bodyPoints[point];
      const ref = `body.${point}`;
      if (!local || info[ref]) return;
      info[ref] = { ref, part: 'body', local: [local[0], local[1], local[2]], kind: 'hardpoint', hardpoint: `${axle}:${name}`, label: `${axle} ${name}`, ...(corner !== undefined ? { corner } : {}) };
      edits[ref] = { axle, name };
    };
    roles.corners.forEach((c, ci) => {
      for (const [name, role] of Object.entries(c.points)) if (typeof role === 'string') add(role, `${c.side}_${name}`, (axle === 'rear' ? 2 : 0) + ci);
    });
    for (const [name, role] of Object.entries(roles.devices?.points ?? {})) if (typeof role === 'string') add(role, name);
  }
  return { info, edits };
}

/** The solved vehicle as the 3D view's frame: the parts where they stand, the wheels as corners, the pickups as handles. */
function poseResult(m: VehicleModel, docKey: number, handles: HandleInfo[]): PoseResult {
  const state = modelState(m.dyn.model);
  const poses: Record<string, number[]> = {};
  for (const [key, value] of Object.entries(state)) {
    if (!key.endsWith('.pose') || typeof value === 'number') continue;
    const p = value;
    poses[key.slice(0, -5)] = [...p.position, ...p.rotation];
  }
  const points = pointsFromPoses(m.doc, posesOf(poses));
  const design = pointsFromPoses(m.doc, {});
  const base = structureOf(m.doc, null, false);
  // the body is drawn as the body it is (viewer/src/vehicle-overlay.ts), not as a star of tubes to its pickups
  const parts = base.parts.map((p) => (p.name === 'body' ? { ...p, fixed: true } : p));
  const structure = { ...base, parts, handles, hardpoints: handles.map((h) => h.hardpoint!) };
  const corners: CornerGeometry[] = m.wheels.map((w, i) => {
    const p = poses[w.upright];
    const centre = rotatePose(p, w.centre), axis = rotatePose(p, w.axis, false);
    const n = Math.hypot(axis[0], axis[1], axis[2]);
    const c = m.contacts[i].last.contact;
    return corner(m, w.axle, centre, [axis[0] / n, axis[1] / n, axis[2] / n], w.radius, [c[0], c[1], c[2]]);
  });
  const designCorners = m.wheels.map((w) => corner(m, w.axle, w.designCentre, unit(w.axis), w.radius, [w.designContact[0], w.designContact[1], m.road]));
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const q of Object.values(points)) { lo = lo.map((x, k) => Math.min(x, q[k])); hi = hi.map((x, k) => Math.max(x, q[k])); }
  return {
    docKey, ok: true, good: true, status: 'solved', message: null, failed: [], asked: null, iterations: 0, maxResidual: 0, dof: 0, redundant: [],
    view: { travel: [], rack: 0 }, lengthScale: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2,
    structure, points, poses, design, designMetrics: {}, corners, designCorners, rollCenter: null, metrics: {},
    suspension: false, editable: false, holds: { ids: [], current: '' }, devices: [], ms: { build: 0, solve: 0, evaluate: 0, total: 0 },
  };
}

function corner(m: VehicleModel, axle: AxleName, centre: Vec3Tuple, spin: Vec3Tuple, radius: number, contact: Vec3Tuple): CornerGeometry {
  return { side: '', wheelCenter: centre, spin, tireRadius: radius, sectionWidth: m.spec[axle].geometry.wheel.tire.section_width, contact, steeringAxis: null, damper: null, svic: null, fvic: null, screwAxis: null };
}

const unit = (v: readonly number[]): Vec3Tuple => { const n = Math.hypot(v[0], v[1], v[2]); return [v[0] / n, v[1] / n, v[2] / n]; };

/** A part-frame point (or direction) in world axes, by a pose [x, y, z, w, qx, qy, qz]. */
export function rotatePose(pose: readonly number[], x: readonly number[], translate = true): Vec3Tuple {
  const [w, qx, qy, qz] = [pose[3], pose[4], pose[5], pose[6]];
  // v + 2w (q × v) + 2 q × (q × v)
  const cx = qy * x[2] - qz * x[1], cy = qz * x[0] - qx * x[2], cz = qx * x[1] - qy * x[0];
  const r = [x[0] + 2 * (w * cx + qy * cz - qz * cy), x[1] + 2 * (w * cy + qz * cx - qx * cz), x[2] + 2 * (w * cz + qx * cy - qy * cx)];
  return translate ? [r[0] + pose[0], r[1] + pose[1], r[2] + pose[2]] : [r[0], r[1], r[2]];
}
