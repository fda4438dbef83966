/**
 * The instant axis of a corner under wheel travel (design/MATH.md "Screw axis"): the screw
 * of the upright's motion along its own hub z (`instantScrew`), the line conjugate to the
 * steering axis in that screw's null system (`instantAxisFromScrew`, what the side and front
 * view instant centres are read off), the velocity poles, and the link-pair construction of
 * a multi-link for comparison. The steering response itself is steering.ts.
 */
import * as P from '../../../kernel/pose';
import { type TangentSpace } from '../../../kernel/analysis';
import { orientAxisUp, type ScrewStatus } from '../../../kernel/screw';
import { planesIntersection, steeringAxisMetrics, type Line3, type SteeringAxisMetricName, type WheelFrame } from '.';
import type { SuspensionModel } from '../build/model';
import type { Vec3Tuple } from '../../../kernel/vec3';
import { currentWheelFrames, steeringResponse, tuple, uprightScrew, vc } from './steering';

// ---------------------------------------------------------------------------------------
// Instant axis from the bump response.

export interface InstantScrew {
  status: ScrewStatus | 'not_unique' | 'inconsistent';
  /** Axis point closest to the centroid of the upright's points; direction unit, turned up. */
  point: Vec3Tuple | null;
  direction: Vec3Tuple | null;
  /** mm/rad. */
  pitch: number | null;
  /** rad per mm of wheel-centre travel. */
  angular_rate: number | null;
  /** World angular velocity and velocity of the material point at the origin, per mm of hub z. */
  omega: Vec3Tuple | null;
  vAtOrigin: Vec3Tuple | null;
}

/**
 * The instantaneous screw of a corner's upright under wheel-centre travel: its own hub z
 * at unit rate, every other hub and the rack still (`sm.derivativeTangent()`, whose
 * column `cornerIndex` is exactly this motion; pass it when already computed).
 */
export function instantScrew(sm: SuspensionModel, cornerIndex: number, tangent: TangentSpace = sm.derivativeTangent()): InstantScrew {
  const none: InstantScrew = { status: 'not_unique', point: null, direction: null, pitch: null, angular_rate: null, omega: null, vAtOrigin: null };
  if (tangent.status === 'not_unique') return none;
  const rates = tangent.rates[cornerIndex];
  if (!rates) return { ...none, status: 'inconsistent' };
  const { fit, twist, vAtOrigin } = uprightScrew(sm, cornerIndex, tangent, rates);
  const out: InstantScrew = { ...none, status: fit.status, omega: tuple(twist.omega), vAtOrigin: tuple(vAtOrigin) };
  if (fit.status !== 'valid') return out;
  out.point = tuple(fit.point);
  out.direction = tuple(orientAxisUp(fit.direction, [0, 0, 0]));
  out.pitch = fit.pitch;
  out.angular_rate = fit.angularRate;
  return out;
}

export interface InstantAxisOptions {
  /**
   * 'conjugate' (default): the line conjugate to the corner's steering axis in the
   * wheel-travel screw's null system (see below); 'isa': the screw axis itself.
   */
  construction?: 'conjugate' | 'isa';
  /**
   * The steering axis to conjugate (two distinct points of it). Default: the physical
   * axis when the roles name one, else the steering-response axis under `hold`.
   */
  steeringAxis?: [ArrayLike<number>, ArrayLike<number>];
  /** Hold of the steering response used for the default steering axis (default layout_default). */
  hold?: string;
}

/**
 * The instant axis of a corner's upright relative to the chassis from the screw of its
 * response to wheel-centre travel (own hub z at unit rate, other hubs and the rack still),
 * for linkages without a classic construction (roles `instant_axis: { type: 'screw' }`,
 * e.g. the multi-link). `cornerMetrics` cuts it with y = WC_y (svic) and x = WC_x (fvic).
 *
 * Construction. Let the wheel-travel twist give every point p the velocity v(p). The
 * null plane of p is the plane through p normal to v(p). The classic constructions are
 * null planes met pairwise:
 *  - double wishbone: a ball joint turns about its wishbone's hinge, so its velocity is
 *    normal to the wishbone plane: the two wishbone planes are the null planes of the two
 *    ball joints, and the classic instant axis is where they meet;
 *  - MacPherson: the null plane of the lower ball joint is the lower-arm plane; the
 *    upright's point at the strut top slides along the strut, so its null plane is the
 *    plane through the strut top normal to the strut;
 * i.e. both meet the null planes of two points of the steering axis. The null planes of
 * all the points of a line ℓ pass through one line, the conjugate of ℓ in the screw's
 * null system, so the result does not depend on which two points are taken, and a turn
 * about ℓ (bump steer) added to the twist, which moves no point of ℓ, leaves it unchanged.
 * This function takes ℓ = the steering axis (physical where the roles name one, else the
 * steering-response axis under the layout-default hold) and returns its conjugate: the
 * classic construction exactly on a double wishbone or a MacPherson, and the same
 * construction on a multi-link. Null where the two null planes are parallel (instant
 * centres at infinity, as for parallel wishbones), or when the tangent or axis is not
 * available. An unsteered linkage without a physical steering axis gets the ISA itself.
 *
 * Limits. With pitch h = 0 the motion is a pure instantaneous rotation, every null plane
 * contains the screw axis (ISA), and the conjugate line, the ISA and the side/front-view
 * velocity poles all agree. With h ≠ 0 there is no line the upright purely turns about:
 *  - the ISA is then the line whose points move along it only (velocity h·ω), not a pole;
 *    its crossing of y = WC_y is not the side-view velocity pole, which lies at crossing +
 *    (h/ω_y)(ω_z, 0, −ω_x) (`velocityPoles`): the pitch amplified by ω_x/ω_y, which is
 *    large for the nearly longitudinal ω of wheel travel. Bump steer (a turn about the
 *    steering axis) tilts the ISA towards the steering axis and dominates its position: on
 *    the parallel-wishbone example the wheel-travel ISA runs along the kingpin with a pitch
 *    of −3249 mm/rad, while the classic construction is at infinity. Option 'isa' returns
 *    it for inspection;
 *  - the conjugate line depends on the steering axis chosen (on a multi-link, on the
 *    hold of the steering response), and a steering response with pitch ≠ 0 is not
 *    exactly removed;
 *  - swing arms and anti-geometry read from either inherit these choices.
 * The line is a constant (dual width n, zero derivatives): its rate along the tangent is a
 * second-order quantity not computed here.
 */
export function instantAxisFromScrew(sm: SuspensionModel, cornerIndex: number, n = 0, tangent?: TangentSpace, options: InstantAxisOptions = {}): Line3 | null {
  const s = instantScrew(sm, cornerIndex, tangent);
  if (options.construction === 'isa') {
    if (s.status !== 'valid' || !s.point || !s.direction) return null;
    return { point: vc(n, s.point), direction: vc(n, s.direction) };
  }
  if (!s.omega || !s.vAtOrigin || (s.status !== 'valid' && s.status !== 'near_pure_translation')) return null;
  const axis = options.steeringAxis ?? defaultSteeringLine(sm, cornerIndex, options.hold ?? 'layout_default');
  if (!axis) {
    // Unsteered and no physical steering axis: nothing turns about a steering axis, so the
    // screw axis itself stands (exact for a planar motion such as a trailing arm's).
    if (!sm.rackHold && s.status === 'valid' && s.point && s.direction) return { point: vc(n, s.point), direction: vc(n, s.direction) };
    return null;
  }
  return conjugateLine(s.omega, s.vAtOrigin, axis[0], axis[1], n);
}

/** Two points of a corner's steering axis: physical, else the steering response's (±150 mm about its point). */
function defaultSteeringLine(sm: SuspensionModel, cornerIndex: number, hold: string): [ArrayLike<number>, ArrayLike<number>] | null {
  const c = sm.corners[cornerIndex];
  const sa = c.roles.steering_axis;
  if (sa) return [sm.pointValue(sm.resolveRole(sa[0])), sm.pointValue(sm.resolveRole(sa[1]))];
  const a = steeringResponse(sm, hold).axes[cornerIndex];
  if (a.status !== 'valid' || !a.point || !a.direction) return null;
  const L = 150;
  const p = a.point, d = a.direction;
  return [[p[0] - L * d[0], p[1] - L * d[1], p[2] - L * d[2]], [p[0] + L * d[0], p[1] + L * d[1], p[2] + L * d[2]]];
}

/**
 * The line conjugate to the line a–b in the null system of the twist (ω, u): the meet of
 * the planes through a and b normal to their velocities u + ω × a and u + ω × b. Null
 * when those planes are parallel (or a velocity vanishes).
 */
export function conjugateLine(omega: ArrayLike<number>, vAtOrigin: ArrayLike<number>, a: ArrayLike<number>, b: ArrayLike<number>, n = 0): Line3 | null {
  const vel = (p: ArrayLike<number>): Vec3Tuple => [
    vAtOrigin[0] + omega[1] * p[2] - omega[2] * p[1],
    vAtOrigin[1] + omega[2] * p[0] - omega[0] * p[2],
    vAtOrigin[2] + omega[0] * p[1] - omega[1] * p[0],
  ];
  const va = vel(a), vb = vel(b);
  if (!(Math.hypot(...va) > 0) || !(Math.hypot(...vb) > 0)) return null;
  return planesIntersection({ point: vc(n, a), normal: vc(n, va) }, { point: vc(n, b), normal: vc(n, vb) });
}

/**
 * Velocity poles of the wheel-travel screw: the point of the plane y = y0 whose velocity
 * has no x or z component (side view), and the point of x = x0 whose velocity has no y
 * or z component (front view). Equal to the ISA crossings when the pitch is zero; null
 * when the relevant component of ω vanishes (pole at infinity).
 */
export function velocityPoles(screw: InstantScrew, y0: number, x0: number): { side: Vec3Tuple | null; front: Vec3Tuple | null } {
  if (!screw.omega || !screw.vAtOrigin) return { side: null, front: null };
  const [wx, wy, wz] = screw.omega, [ux, uy, uz] = screw.vAtOrigin;
  const wn = Math.hypot(wx, wy, wz);
  // side: v(p) = u + ω × p, p = (x, y0, z): v_x = ux + wy z − wz y0 = 0, v_z = uz + wx y0 − wy x = 0
  const side: Vec3Tuple | null = Math.abs(wy) > 1e-10 * wn ? [(uz + wx * y0) / wy, y0, (wz * y0 - ux) / wy] : null;
  // front: p = (x0, y, z): v_y = uy + wz x0 − wx z = 0, v_z = uz + wx y − wy x0 = 0
  const front: Vec3Tuple | null = Math.abs(wx) > 1e-10 * wn ? [x0, (wy * x0 - uz) / wx, (uy + wz * x0) / wx] : null;
  return { side, front };
}

// ---------------------------------------------------------------------------------------
// The link-pair construction (multi-link), for comparison.

export interface LinkPairAxis {
  /** Virtual ball joints: midpoints of the closest-approach segments of each link pair. */
  lower: Vec3Tuple;
  upper: Vec3Tuple;
  /** Closest-approach distances of the pairs (0 when the link lines meet), mm. */
  lowerGap: number;
  upperGap: number;
  /** lower → upper, unit, turned up. */
  direction: Vec3Tuple;
}

function closestApproach(a0: Float64Array, a1: Float64Array, b0: Float64Array, b1: Float64Array): { mid: Vec3Tuple; gap: number } | null {
  const u = [a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]];
  const v = [b1[0] - b0[0], b1[1] - b0[1], b1[2] - b0[2]];
  const w = [a0[0] - b0[0], a0[1] - b0[1], a0[2] - b0[2]];
  const a = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], b = u[0] * v[0] + u[1] * v[1] + u[2] * v[2], c = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const d = u[0] * w[0] + u[1] * w[1] + u[2] * w[2], e = v[0] * w[0] + v[1] * w[1] + v[2] * w[2];
  const den = a * c - b * b;
  if (!(den > 1e-12 * a * c)) return null;
  const s = (b * e - c * d) / den, t = (a * e - b * d) / den;
  const p = [a0[0] + s * u[0], a0[1] + s * u[1], a0[2] + s * u[2]];
  const q = [b0[0] + t * v[0], b0[1] + t * v[1], b0[2] + t * v[2]];
  return { mid: [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2], gap: Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) };
}

/**
 * The classic multi-link construction: extend the two upper links to their (nearest)
 * meeting point, likewise the two lower links, and join the two virtual ball joints.
 * When a pair's lines do not meet, the midpoint of their closest-approach segment stands
 * in (the gap is reported). Needs the `{upper,lower}_{front,rear}_link_{inboard,outboard}`
 * points; null otherwise or for parallel links.
 */
export function linkPairAxis(sm: SuspensionModel, cornerIndex: number): LinkPairAxis | null {
  const c = sm.corners[cornerIndex];
  const pt = (name: string): Float64Array | null => {
    const role = c.roles.points[name];
    return role === undefined ? null : sm.pointValue(sm.resolveRole(role));
  };
  const pair = (level: 'upper' | 'lower') => {
    const f0 = pt(`${level}_front_link_inboard`), f1 = pt(`${level}_front_link_outboard`);
    const r0 = pt(`${level}_rear_link_inboard`), r1 = pt(`${level}_rear_link_outboard`);
    return f0 && f1 && r0 && r1 ? closestApproach(f0, f1, r0, r1) : null;
  };
  const lo = pair('lower'), up = pair('upper');
  if (!lo || !up) return null;
  const d = [up.mid[0] - lo.mid[0], up.mid[1] - lo.mid[1], up.mid[2] - lo.mid[2]];
  const l = Math.hypot(d[0], d[1], d[2]);
  if (!(l > 0)) return null;
  return {
    lower: lo.mid, upper: up.mid, lowerGap: lo.gap, upperGap: up.gap,
    direction: orientAxisUp([d[0] / l, d[1] / l, d[2] / l], [0, 0, 0]) as Vec3Tuple,
  };
}

/** The five steering-axis metrics (values) of any line on a corner's wheel frame. */
export function lineSteeringMetrics(sm: SuspensionModel, cornerIndex: number, point: ArrayLike<number>, direction: ArrayLike<number>, frame: WheelFrame = currentWheelFrames(sm)[cornerIndex]): Record<SteeringAxisMetricName, number | null> {
  const n = frame.normal.n;
  const m = steeringAxisMetrics(vc(n, point), vc(n, direction), frame);
  const out = {} as Record<SteeringAxisMetricName, number | null>;
  for (const [k, v] of Object.entries(m)) out[k as SteeringAxisMetricName] = v ? v.v : null;
  return out;
}
