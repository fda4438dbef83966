/**
 * The steering response (issue 5; seed 000, design/MATH.md "Tangents" and "Screw axis",
 * design/suspension.md "Steering response and holds").
 *
 * At a solved state, independent of the sweep that reached it:
 *
 *  1. targets = [rack, the hold's coordinates of every corner]; the tangent of the
 *     constraint null space with unit rack rate and every hold at zero rate
 *     (`tangentSpace`, no perturb-and-resolve);
 *  2. the rates of the upright's points along that tangent (its named points that are
 *     material points of the upright, plus the axle points);
 *  3. the screw axis fitted to them (`fitScrewAxis`: centroid reference, statuses), checked
 *     against the upright's own twist read from the tangent (`screwFromTwist` with ω the
 *     body's angular velocity in the world frame and the velocity of the material point at
 *     the world origin): their disagreement is the rigidity check;
 *  4. point, direction (turned up), pitch (mm/rad), angular rate (rad per mm of rack).
 *
 * Holds. A hold id names, per corner, one-row blocks kept at zero rate:
 *  - `layout_default`: the corner's `holds.default`;
 *  - an id of the corner's catalogue (`holds.<id>`, a coordinate or a length);
 *  - `contact_patch` (built in, every steered topology): the road-normal coordinate of
 *    the upright's material point that is at the contact centre now: the tyre stays on
 *    the road while the rack moves (the car steered standing on its wheels). The road
 *    is the corner's horizontal plane, or the axle's road plane at this state; the road
 *    itself does not move (chassis fixed);
 *  - `wheel_center_height` (built in): the wheel-centre z, what a steer sweep holds; it
 *    folds the jacking into the response (documented contrast, not a steering axis);
 *  - `none`: no hold (the response is then not unique unless the mechanism has one
 *    freedom);
 *  - several ids joined by `+` (`lower_wishbone_angle+upper_wishbone_angle`): all of them.
 *    Redundant but consistent holds are accepted: consistency is judged on the rack's own
 *    column (unit rack rate with every hold at zero rate exists), not on whether each hold
 *    could also be driven alone.
 *
 * Unavailable: `no_steering_actuator` (unsteered linkage), `unknown_hold` (a corner has no
 * such hold), `not_unique` (the holds do not fix the motion: rank(g_q N) < mobility),
 * `inconsistent` (no motion has unit rack rate with every hold still). A fit that fails
 * gets the screw status (`degenerate_geometry`, `excessive_fit_error`, ...); a fit that
 * disagrees with the twist gets `excessive_fit_error` with a diagnostic. Never throws on a
 * bad frame: the sweep goes on.
 *
 * The holds' blocks and catalogue are steering-holds.ts (re-exported here).
 */
import { DualVec3 } from '../../../kernel/dual';
import { tangentSpace, pointRate, type TangentSpace } from '../../../kernel/analysis';
import {
  createScrewFit, distanceToAxis, fitScrewAxis, orientAxisUp, screwFromTwist, type ScrewFit, type ScrewStatus,
} from '../../../kernel/screw';
import type { ResidualBlock } from '../../../kernel/system';
import { packedMap } from '../../../kernel/packed-map';
import type { Side } from '../files';
import { steeringAxisMetrics, type Line3, type SteeringAxisMetricName, type WheelFrame } from '.';
import { cornerHoldBlocks, currentWheelFrames, localOnUpright, vc } from './steering-holds';
import type { CornerRuntime, SuspensionModel } from '../build/model';
import type { PointExpr } from '../build/targets';
import type { Vec3Tuple } from '../../../kernel/vec3';

export { BUILT_IN_HOLDS, PointAlongBlock, contactPatchBlock, currentWheelFrames, holdCatalogue, holdParts, vc } from './steering-holds';

// ---------------------------------------------------------------------------------------
// Types.

export type SteeringStatus = ScrewStatus | 'not_unique' | 'inconsistent' | 'no_steering_actuator' | 'unknown_hold';


/** Rigidity check: the fitted screw against the upright's own twist from the tangent. */
export interface RigidityCheck {
  /** Largest |r_i − v − ω × d_i| of the fit, mm per mm of rack. */
  fit_max_residual: number;
  /** 1 − |d_fit · d_twist|. */
  direction_error: number;
  /** Distance from the fitted axis point to the twist's axis, mm. */
  point_distance: number;
  /** |pitch_fit − pitch_twist|, mm/rad. */
  pitch_error: number;
  /** |rate_fit − rate_twist| / rate_twist. */
  angular_rate_error: number;
}

/** One upright's steering axis (suspension.md "Output of kinemate sweep"). */
export interface SteeringAxis {
  side: Side;
  status: SteeringStatus;
  /** A point of the axis (the one closest to the centroid of the fitted points), mm. */
  point: Vec3Tuple | null;
  /** Unit direction, turned to point up (+z, then +x, then +y). */
  direction: Vec3Tuple | null;
  /** Translation along the axis per radian of turn, mm/rad. */
  pitch: number | null;
  /** |ω|, rad per mm of rack. */
  angular_rate: number | null;
  /** The hold this corner used (the layout default resolved to its id). */
  hold: string;
  warning?: string;
  diagnostic?: string;
  rigidity?: RigidityCheck;
}

export interface SteeringResponse {
  /** The hold id asked for (as in the sweep file: `layout_default`, an id, `a+b`). */
  hold: string;
  /** One per upright, left first. */
  axes: SteeringAxis[];
}

/** An axis of a sweep for a viewer: the axes of every step trace a ruled surface. */
export interface SteeringAxisRecord {
  step: number;
  /** The sweep's driver values at that step (e.g. { wheel_center_z: 263.4, rack: 10 }). */
  drivers: Record<string, number>;
  side: Side;
  hold: string;
  status: SteeringStatus;
  point: Vec3Tuple | null;
  direction: Vec3Tuple | null;
  pitch: number | null;
  angular_rate: number | null;
}

/** The tangent behind a steering response (for tests, plots and derived quantities). */
export interface SteeringTangent {
  status: 'unique' | Exclude<SteeringStatus, ScrewStatus | 'unique'>;
  tangent: TangentSpace | null;
  /** q̇ per mm of rack, every hold still; null unless status is unique. */
  rates: Float64Array | null;
  /** Resolved hold id per corner. */
  holds: string[];
  warnings: (string | undefined)[];
  diagnostic?: string;
}

// ---------------------------------------------------------------------------------------
// Small helpers.

/** A copy as a plain [x, y, z]. */
export const tuple = (a: ArrayLike<number>): Vec3Tuple => [a[0], a[1], a[2]];

/** World rotation matrix of a pose (row-major) from its (not necessarily unit) quaternion, into `R`. */
function rotation(R: Float64Array, state: Float64Array, off: number): Float64Array {
  const w = state[off + 3], x = state[off + 4], y = state[off + 5], z = state[off + 6];
  const k = 2 / (w * w + x * x + y * y + z * z);
  R[0] = 1 - k * (y * y + z * z); R[1] = k * (x * y - w * z); R[2] = k * (x * z + w * y);
  R[3] = k * (x * y + w * z); R[4] = 1 - k * (x * x + z * z); R[5] = k * (y * z - w * x);
  R[6] = k * (x * z - w * y); R[7] = k * (y * z + w * x); R[8] = 1 - k * (x * x + y * y);
  return R;
}

// ---------------------------------------------------------------------------------------
// The tangent.

/**
 * Unit rack rate with every corner's hold at zero rate, at the current state. Consistency
 * is judged on the rack column only, so redundant-but-consistent holds are accepted.
 */
export function steeringTangent(sm: SuspensionModel, holdId = 'layout_default'): SteeringTangent {
  let framesCache: WheelFrame[] | null = null;
  // (the frames' thunk made in place: a named closure per state costs a name under tsx)
  const resolved = packedMap(sm.corners, (_, i) => cornerHoldBlocks(sm, i, holdId, () => (framesCache ??= currentWheelFrames(sm))));
  const holds = packedMap(resolved, (r) => r.id);
  const warnings = packedMap(resolved, (r) => ('warning' in r ? r.warning : undefined));
  if (!sm.rackHold) return { status: 'no_steering_actuator', tangent: null, rates: null, holds, warnings, diagnostic: 'this linkage has no steering coordinate' };
  const bad = resolved.find((r): r is { id: string; error: string } => 'error' in r);
  if (bad) return { status: 'unknown_hold', tangent: null, rates: null, holds, warnings, diagnostic: bad.error };
  const targets: ResidualBlock[] = [sm.rackHold];
  for (const r of resolved) if ('blocks' in r) targets.push(...r.blocks);
  const tangent = tangentSpace(sm.model.system, targets);
  if (tangent.status === 'not_unique') {
    return {
      status: 'not_unique', tangent, rates: null, holds, warnings,
      diagnostic: `the rack and the holds control ${tangent.targetRank} of the mechanism's ${tangent.mobility} freedoms: the holds do not fix the motion`,
    };
  }
  const q = tangent.rates[0];
  if (!q) {
    return {
      status: 'inconsistent', tangent, rates: null, holds, warnings,
      diagnostic: 'no motion moves the rack with every hold still: the holds conflict with steering',
    };
  }
  // Per mm of rack (the rack row's unit is the slide's scale; normalise on the slide itself).
  const col = tangent.layout[sm.steering];
  const rack = col >= 0 ? q[col] : 1;
  let rates = q;
  if (rack !== 1 && rack !== 0) {
    // (a loop, not a typed array's map: no call per entry)
    rates = new Float64Array(q.length);
    for (let i = 0; i < q.length; i++) rates[i] = q[i] / rack;
  }
  return { status: 'unique', tangent, rates, holds, warnings };
}

// ---------------------------------------------------------------------------------------
// Fitting one upright.

/** The point expressions fitted for a corner: its named points on the upright, plus the axle points. */
export function uprightPoints(c: CornerRuntime): { names: string[]; exprs: PointExpr[] } {
  const found = cachedUprightPoints(c);
  return { names: [...found.names], exprs: [...found.exprs] };
}

/** uprightPoints, found once per corner (a corner's points never change after construction). */
function cachedUprightPoints(c: CornerRuntime): { readonly names: readonly string[]; readonly exprs: readonly PointExpr[] } {
  let found = uprightPointsOf.get(c);
  if (!found) uprightPointsOf.set(c, (found = findUprightPoints(c)));
  return found;
}
const uprightPointsOf = new WeakMap<CornerRuntime, { names: string[]; exprs: PointExpr[] }>();

function findUprightPoints(c: CornerRuntime): { names: string[]; exprs: PointExpr[] } {
  const names: string[] = [], exprs: PointExpr[] = [];
  const seen = new Set<string>();
  for (const [name, e] of c.points) {
    if (e.length !== 1 || e[0].variable !== c.upright) continue;
    const key = Array.from(e[0].local).join(',');
    if (seen.has(key)) continue;
    seen.add(key); names.push(name); exprs.push(e);
  }
  for (const [k, e] of [['axle_inboard', c.axle[0]], ['axle_outboard', c.axle[1]]] as const) {
    const key = Array.from(e[0].local).join(',');
    if (!seen.has(key)) { seen.add(key); names.push(k); exprs.push(e); }
  }
  return { names, exprs };
}

/** Velocity of a material point of a corner's upright (given in world coordinates now). */
export function uprightPointRate(sm: SuspensionModel, cornerIndex: number, tangent: TangentSpace, rates: Float64Array, world: ArrayLike<number>): Float64Array {
  const c = sm.corners[cornerIndex];
  return pointRate(new Float64Array(3), sm.model.system, tangent, rates, c.upright, localOnUpright(sm, c, world));
}

/** The upright's twist in the world frame: ω and the velocity of the material point at the origin. */
export function uprightTwist(sm: SuspensionModel, cornerIndex: number, tangent: TangentSpace, rates: Float64Array): { omega: Float64Array; vAtOrigin: Float64Array } {
  const sys = sm.model.system;
  const c = sm.corners[cornerIndex];
  const v = sys.variables[c.upright];
  const c0 = tangent.layout[c.upright];
  const omega = new Float64Array(3), vAtOrigin = new Float64Array(3);
  if (c0 < 0) return { omega, vAtOrigin };
  const R = rotation(twistR, sys.state, v.offset);
  const t = [sys.state[v.offset], sys.state[v.offset + 1], sys.state[v.offset + 2]];
  for (let i = 0; i < 3; i++) {
    omega[i] = R[3 * i] * rates[c0] + R[3 * i + 1] * rates[c0 + 1] + R[3 * i + 2] * rates[c0 + 2];
    vAtOrigin[i] = R[3 * i] * rates[c0 + 3] + R[3 * i + 1] * rates[c0 + 4] + R[3 * i + 2] * rates[c0 + 5];
  }
  // v(0) = R v − ω_w × t
  vAtOrigin[0] -= omega[1] * t[2] - omega[2] * t[1];
  vAtOrigin[1] -= omega[2] * t[0] - omega[0] * t[2];
  vAtOrigin[2] -= omega[0] * t[1] - omega[1] * t[0];
  return { omega, vAtOrigin };
}

// Scratch of uprightScrew and uprightTwist (single-threaded; the fit copies what it keeps).
const twistR = new Float64Array(9), screwTmp = new Float64Array(3), screwRate = new Float64Array(3);
let screwPositions = new Float64Array(0), screwRates = new Float64Array(0);

/** Both screws of an upright's motion along a tangent direction: fitted to its points, and from its twist. */
export function uprightScrew(sm: SuspensionModel, cornerIndex: number, tangent: TangentSpace, rates: Float64Array): { fit: ScrewFit; twist: ScrewFit; rigidity: RigidityCheck | null; vAtOrigin: Float64Array } {
  const c = sm.corners[cornerIndex];
  const { exprs } = cachedUprightPoints(c);
  if (screwPositions.length < 3 * exprs.length) { screwPositions = new Float64Array(3 * exprs.length); screwRates = new Float64Array(3 * exprs.length); }
  const positions = screwPositions, pr = screwRates;
  const tmp = screwTmp, rate = screwRate;
  for (let i = 0; i < exprs.length; i++) {
    const e = exprs[i];
    positions.set(sm.pointValue(e, tmp), 3 * i);
    rate.fill(0);
    for (const term of e) {
      pointRate(tmp, sm.model.system, tangent, rates, term.variable, term.local);
      for (let k = 0; k < 3; k++) rate[k] += term.weight * tmp[k];
    }
    pr.set(rate, 3 * i);
  }
  const fit = fitScrewAxis(positions, pr, exprs.length, createScrewFit());
  const { omega, vAtOrigin } = uprightTwist(sm, cornerIndex, tangent, rates);
  const twist = screwFromTwist(omega, vAtOrigin, createScrewFit(), fit.status === 'valid' ? fit.centroid : undefined);
  let rigidity: RigidityCheck | null = null;
  if (fit.status === 'valid' && twist.status === 'valid') {
    const d = Math.abs(fit.direction[0] * twist.direction[0] + fit.direction[1] * twist.direction[1] + fit.direction[2] * twist.direction[2]);
    rigidity = {
      fit_max_residual: fit.maxResidual,
      direction_error: Math.abs(1 - d),
      point_distance: distanceToAxis(fit.point, twist.point, twist.direction),
      pitch_error: Math.abs(fit.pitch - twist.pitch),
      angular_rate_error: Math.abs(fit.angularRate - twist.angularRate) / twist.angularRate,
    };
  }
  return { fit, twist, rigidity, vAtOrigin };
}

/** Tolerances of the fit-against-twist check (they agree to ~1e-12 on a healthy model). */
export const RIGIDITY_TOLERANCES = Object.freeze({ direction: 1e-9, relativeLength: 1e-8, angularRate: 1e-8 });

function rigidityProblem(r: RigidityCheck, fit: ScrewFit): string | null {
  const L = Math.max(1, fit.rmsRadius);
  const bad: string[] = [];
  if (!(r.direction_error <= RIGIDITY_TOLERANCES.direction)) bad.push(`direction differs by ${r.direction_error.toExponential(2)}`);
  if (!(r.point_distance <= RIGIDITY_TOLERANCES.relativeLength * L)) bad.push(`axes ${r.point_distance.toExponential(2)} mm apart`);
  if (!(r.pitch_error <= RIGIDITY_TOLERANCES.relativeLength * L)) bad.push(`pitch differs by ${r.pitch_error.toExponential(2)} mm/rad`);
  if (!(r.angular_rate_error <= RIGIDITY_TOLERANCES.angularRate)) bad.push(`angular rate differs by ${r.angular_rate_error.toExponential(2)} (relative)`);
  return bad.length ? `the axis fitted to the upright's points disagrees with its twist: ${bad.join(', ')}` : null;
}

const SCREW_DIAGNOSTICS: Partial<Record<ScrewStatus, string>> = {
  insufficient_points: 'fewer than three points of the upright to fit',
  degenerate_geometry: "the upright's fitted points are collinear",
  rank_deficient: 'the rigid fit is rank deficient',
  non_finite: 'a point or rate is not finite',
  excessive_fit_error: "the upright's point rates are not a rigid motion",
  near_pure_translation: 'the upright translates without turning: no finite axis',
};

// ---------------------------------------------------------------------------------------
// The response.

/** The steering response of every upright at the current (solved) state. */
export function steeringResponse(sm: SuspensionModel, holdId = 'layout_default'): SteeringResponse {
  const t = steeringTangent(sm, holdId);
  const axes = packedMap(sm.corners, (c, i): SteeringAxis => {
    const axis: SteeringAxis = {
      side: c.roles.side, status: 'valid', point: null, direction: null, pitch: null, angular_rate: null, hold: t.holds[i],
    };
    if (t.warnings[i]) axis.warning = t.warnings[i];
    if (t.status !== 'unique' || !t.tangent || !t.rates) {
      axis.status = t.status === 'unique' ? 'non_finite' : t.status;
      if (t.diagnostic) axis.diagnostic = t.diagnostic;
      return axis;
    }
    const { fit, rigidity } = uprightScrew(sm, i, t.tangent, t.rates);
    if (fit.status !== 'valid') {
      axis.status = fit.status;
      axis.diagnostic = SCREW_DIAGNOSTICS[fit.status] ?? fit.status;
      if (fit.status === 'excessive_fit_error') axis.diagnostic += ` (largest residual ${fit.maxResidual.toExponential(2)} mm/mm)`;
      return axis;
    }
    axis.point = tuple(fit.point);
    axis.direction = tuple(orientAxisUp(fit.direction, [0, 0, 0]));
    axis.pitch = fit.pitch;
    axis.angular_rate = fit.angularRate;
    if (rigidity) {
      axis.rigidity = rigidity;
      const problem = rigidityProblem(rigidity, fit);
      if (problem) { axis.status = 'excessive_fit_error'; axis.diagnostic = problem; }
    }
    return axis;
  });
  return { hold: holdId, axes };
}

/** The axis of a response as a metrics line (null unless valid), constant duals of width n. */
export function responseLine(axis: SteeringAxis, n = 0): Line3 | null {
  if (axis.status !== 'valid' || !axis.point || !axis.direction) return null;
  return { point: vc(n, axis.point), direction: vc(n, axis.direction) };
}

export type VirtualMetricName = `${SteeringAxisMetricName}_virtual`;

/**
 * The five `*_virtual` metrics of a corner on its steering-response axis (values; null
 * when the axis is unavailable or, for the ground metrics, parallel to the road). The same
 * formulas as the physical ones (`steeringAxisMetrics` on the wheel frame).
 */
export function virtualSteeringMetrics(sm: SuspensionModel, response: SteeringResponse, cornerIndex: number, frame: WheelFrame = currentWheelFrames(sm)[cornerIndex]): Record<VirtualMetricName, number | null> {
  const out: Record<VirtualMetricName, number | null> = {
    caster_virtual: null, kpi_virtual: null, steering_axis_offset_ground_virtual: null, scrub_radius_virtual: null, mechanical_trail_virtual: null,
  };
  const line = responseLine(response.axes[cornerIndex], frame.normal.n);
  if (!line) return out;
  const m = steeringAxisMetrics(line.point, line.direction, frame);
  for (const [k, v] of Object.entries(m)) out[`${k}_virtual` as VirtualMetricName] = v ? v.v : null;
  return out;
}

/** The physical steering-axis metrics of a corner (lower → upper point), values; null without a physical axis. */
export function physicalSteeringMetrics(sm: SuspensionModel, cornerIndex: number, frame: WheelFrame = currentWheelFrames(sm)[cornerIndex]): Record<SteeringAxisMetricName, number | null> | null {
  const c = sm.corners[cornerIndex];
  const sa = c.roles.steering_axis;
  if (!sa) return null;
  const n = frame.normal.n;
  const a = vc(n, sm.pointValue(sm.resolveRole(sa[0]))), b = vc(n, sm.pointValue(sm.resolveRole(sa[1])));
  const d = new DualVec3(n);
  for (let k = 0; k < 3; k++) d.v[k] = b.v[k] - a.v[k];
  const m = steeringAxisMetrics(a, d, frame);
  const out = {} as Record<SteeringAxisMetricName, number | null>;
  for (const [k, v] of Object.entries(m)) out[k as SteeringAxisMetricName] = v ? v.v : null;
  return out;
}

/** The records of one sweep step, one per upright, for a viewer. */
export function steeringAxisRecords(response: SteeringResponse, step: number, drivers: Record<string, number>): SteeringAxisRecord[] {
  return response.axes.map((a) => ({
    step, drivers: { ...drivers }, side: a.side, hold: a.hold, status: a.status,
    point: a.point, direction: a.direction, pitch: a.pitch, angular_rate: a.angular_rate,
  }));
}

/**
 * A drawable segment of a record's axis between two heights (e.g. the contact patch and
 * 600 mm); null when the axis is unavailable or horizontal.
 */
export function axisSegment(record: Pick<SteeringAxisRecord, 'point' | 'direction'>, zFrom: number, zTo: number): [Vec3Tuple, Vec3Tuple] | null {
  const p = record.point, d = record.direction;
  if (!p || !d || !(Math.abs(d[2]) > 1e-12)) return null;
  const at = (z: number): Vec3Tuple => { const t = (z - p[2]) / d[2]; return [p[0] + t * d[0], p[1] + t * d[1], z]; };
  return [at(zFrom), at(zTo)];
}
