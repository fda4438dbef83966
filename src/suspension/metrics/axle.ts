/**
 * Axle metrics (design/suspension.md, "Precise forms", Axle) and the axle road plane,
 * as dual-number functions so their derivatives come out exactly.
 */
import { Dual, DualVec3, dvSetComponent, tangentMode } from '../../../kernel/dual';
import type { CornerMetrics, RoadInput } from './corner';
import { contactCentre } from './corner';
import {
  add,
  atan2,
  comp,
  cos,
  cross,
  deg,
  dot,
  konst,
  midpoint,
  mul,
  neg,
  reject,
  scale,
  sin,
  sqrt,
  sub,
  unit,
  vconst,
  vsub,
} from './dualops';
import { intersectFrontViewLines, perpendicular, type FrontViewPoint } from './lines';

/** One wheel for the road plane: centre, unit spin axis (outboard), tyre radius. */
export interface AxleWheel {
  wheelCenter: DualVec3;
  spin: DualVec3;
  tireRadius: number;
}

export interface AxleRoadPlane extends RoadInput {
  /** θ of the normal (0, sin θ, cos θ), radians. */
  theta: Dual;
}

/**
 * The road plane tangent (from below) to both wheel discs, normal n(θ) = (0, sin θ, cos θ)
 * (roll only, no pitch).
 *
 * The lowest point of a disc along −n sits at height n·WC − R·√(1 − (n·a)²) (the disc's
 * support value: its radius vector toward −n is R·normalize(n − (n·a)a), whose length
 * along n is R|n − (n·a)a| = R√(1 − (n·a)²)). Both discs touch the plane when
 *   g(θ) = n·(WC_L − WC_R) − R_L√(1 − m_L²) + R_R√(1 − m_R²) = 0,  m = n·a,
 * solved by 1-D Newton from θ = 0 with the analytic slope
 *   g'(θ) = n'·(WC_L − WC_R) + R_L m_L m_L'/√(1 − m_L²) − R_R m_R m_R'/√(1 − m_R²),
 *   n' = (0, cos θ, −sin θ). (For vertical wheels, a = ±ŷ, this has the closed form
 *   tan θ = −(z_L − z_R)/(y_L − y_R): the normal is perpendicular to the centre line.)
 * Derivatives by the implicit function theorem: θ̇ = −ġ/g'(θ), ġ the dual part of g with
 * θ held, so they are exact, not iterated. The returned point is the midpoint of the two
 * contact centres (both on the plane). Null if Newton fails to converge (non-finite data).
 */
export function axleRoadPlane(left: AxleWheel, right: AxleWheel): AxleRoadPlane | null {
  const n = left.wheelCenter.n;
  const dw = vsub(left.wheelCenter, right.wheelCenter);
  const aL = left.spin, aR = right.spin, RL = left.tireRadius, RR = right.tireRadius;
  const dot2 = (v: ArrayLike<number>, s: number, c: number): number => v[1] * s + v[2] * c;
  const residual = (t: number): [number, number] => {
    const s = Math.sin(t), c = Math.cos(t);
    const mL = dot2(aL.v, s, c), mR = dot2(aR.v, s, c);
    const dmL = dot2(aL.v, c, -s), dmR = dot2(aR.v, c, -s);
    const qL = Math.sqrt(1 - mL * mL), qR = Math.sqrt(1 - mR * mR);
    const g = dot2(dw.v, s, c) - RL * qL + RR * qR;
    const dg = dot2(dw.v, c, -s) + (RL * mL * dmL) / qL - (RR * mR * dmR) / qR;
    return [g, dg];
  };
  let theta = 0, converged = false;
  for (let it = 0; it < 60; it++) {
    const [g, dg] = residual(theta);
    const step = g / dg;
    if (!Number.isFinite(step)) break;
    theta -= step;
    if (Math.abs(step) <= 1e-15 * (1 + Math.abs(theta))) { converged = true; break; }
  }
  if (!converged) {
    // Newton may stall one ulp away from the root; accept a tiny final residual.
    const [g, dg] = residual(theta);
    converged = Number.isFinite(theta) && Math.abs(g / dg) <= 1e-12;
  }
  if (!converged) return null;

  // Implicit differentiation: g with θ held fixed, dual part ġ; θ̇ = −ġ/g'.
  const n0 = vconst(n, 0, Math.sin(theta), Math.cos(theta));
  const support = (a: DualVec3, r: number): Dual => {
    const m = dot(n0, a);
    return scale(sqrt(sub(konst(n, 1), mul(m, m))), r);
  };
  const g = add(sub(dot(n0, dw), support(aL, RL)), support(aR, RR));
  const slope = residual(theta)[1];
  const thetaDual = new Dual(n, theta);
  for (let k = 0; k < n; k++) thetaDual.d[k] = -g.d[k] / slope;
  if (tangentMode()) thetaDual.t = thetaTangent(thetaDual, g, slope, dw, aL, RL, aR, RR);

  const normal = vconst(n, 0, 0, 0);
  dvSetComponent(normal, 1, sin(thetaDual));
  dvSetComponent(normal, 2, cos(thetaDual));
  const point = midpoint(
    contactCentre(left.wheelCenter, aL, RL, normal),
    contactCentre(right.wheelCenter, aR, RR, normal),
  );
  return { normal, point, theta: thetaDual };
}

/**
 * θ's tangent (its value's and its derivatives' rates along the outer direction, tangent
 * mode): θ₁ above is one Newton step from the root θ₀ held constant, exact to first order;
 * one more, θ₂ = θ₁ − g(θ₁)/g'(θ₀) with θ₁'s own tangent g's tangent carried, is exact in
 * the mixed second-order terms too (θ₁'s error has only those, and g is linear in them), so
 * θ₂'s tangent is the tangent. θ's value and first derivatives stay θ₁'s.
 */
function thetaTangent(theta1: Dual, g0: Dual, slope: number, dw: DualVec3, aL: DualVec3, RL: number, aR: DualVec3, RR: number): Dual {
  const n = theta1.n;
  // θ₁'s tangent from the first step: −ġ₀'s tangent/slope
  theta1.t = scale(g0.t ?? konst(n, 0), -1 / slope);
  const nrm = vconst(n, 0, 0, 0);
  dvSetComponent(nrm, 1, sin(theta1));
  dvSetComponent(nrm, 2, cos(theta1));
  const support = (a: DualVec3, r: number): Dual => {
    const m = dot(nrm, a);
    return scale(sqrt(sub(konst(n, 1), mul(m, m))), r);
  };
  const g1 = add(sub(dot(nrm, dw), support(aL, RL)), support(aR, RR));
  const t1 = theta1.t;
  theta1.t = null;
  return sub(t1, scale(g1.t ?? konst(n, 0), 1 / slope));
}

/** X_road (chassis +x in the road plane) and Y_road = n × X_road. */
function roadAxes(road: RoadInput): { forward: DualVec3; lateral: DualVec3 } {
  const forward = unit(reject(vconst(road.normal.n, 1, 0, 0), road.normal));
  return { forward, lateral: cross(road.normal, forward) };
}

/**
 * Roll centre by the classic construction: in front view, the line from each contact
 * centre to its FVIC; their intersection. Null when an FVIC is at infinity (null), an
 * FVIC coincides with its contact centre, or the two lines are parallel. (Parallel
 * equal-length horizontal wishbones thus give null, not "on the ground": the
 * construction's lines are then collinear and do not fix a point.)
 */
export function rollCenterFromFvic(
  contactLeft: FrontViewPoint, fvicLeft: FrontViewPoint | null,
  contactRight: FrontViewPoint, fvicRight: FrontViewPoint | null,
): FrontViewPoint | null {
  if (!fvicLeft || !fvicRight) return null;
  const dir = (c: FrontViewPoint, f: FrontViewPoint): FrontViewPoint => ({ y: sub(f.y, c.y), z: sub(f.z, c.z) });
  return intersectFrontViewLines(contactLeft, dir(contactLeft, fvicLeft), contactRight, dir(contactRight, fvicRight));
}

/**
 * Kinematic roll centre: in front view, through each contact centre the line
 * perpendicular to the velocity (y, z) of the upright's material point at the contact
 * centre under heave; their intersection. When the two lines are parallel and lie on one
 * another (parallel, equal, horizontal wishbones: both contact points move straight up,
 * both lines run along the ground) the roll centre is on that common line, and by the
 * axle's symmetry midway between the contacts: the midpoint is returned. Null when the
 * lines are parallel and apart, or a velocity is zero.
 */
export function kinematicRollCenter(
  contactLeft: FrontViewPoint, velocityLeft: FrontViewPoint,
  contactRight: FrontViewPoint, velocityRight: FrontViewPoint,
): FrontViewPoint | null {
  const dl = perpendicular(velocityLeft), dr = perpendicular(velocityRight);
  const hit = intersectFrontViewLines(contactLeft, dl, contactRight, dr);
  if (hit) return hit;
  const len = Math.hypot(dl.y.v, dl.z.v);
  if (!(len > 0) || !(Math.hypot(dr.y.v, dr.z.v) > 0)) return null;
  // distance of the right contact from the left line
  const gy = contactRight.y.v - contactLeft.y.v, gz = contactRight.z.v - contactLeft.z.v;
  const off = Math.abs(gy * dl.z.v - gz * dl.y.v) / len;
  const span = Math.hypot(gy, gz);
  if (off > 1e-9 * Math.max(1, span)) return null;
  return { y: scale(add(contactLeft.y, contactRight.y), 0.5), z: scale(add(contactLeft.z, contactRight.z), 0.5) };
}

export interface AxleDesign {
  /** Design |C_L,y − C_R,y|, mm. */
  track: number;
  /** Design signed distance from the chassis origin to the road plane, −n·Q, mm. */
  rideHeight: number;
}

export interface KinematicSide {
  /** Front-view velocity (y, z) of the upright's material point at the contact centre. */
  velocity: FrontViewPoint;
  /** Contact centre (y, z); defaults to the corner's wheel_contact_centre. */
  contact?: FrontViewPoint;
}

export interface AxleState {
  /** The axle road plane of this state (axleRoadPlane). */
  road: RoadInput;
  /** Left trackrod_inboard y minus its design value; null for an unsteered axle. */
  rackDisplacement: Dual | null;
  /** Heave velocities for the kinematic roll centre; null/absent → those metrics null. */
  kinematic?: { left: KinematicSide; right: KinematicSide } | null;
}

export const AXLE_METRIC_NAMES = [
  'heave', 'roll', 'roll_center_y', 'roll_center_z', 'roll_center_kinematic_y', 'roll_center_kinematic_z',
  'track', 'track_change', 'ride_height_change', 'rack_displacement',
] as const;
export type AxleMetricName = (typeof AXLE_METRIC_NAMES)[number];
export type AxleMetrics = Record<AxleMetricName, Dual | null>;

const frontView = (p: DualVec3): FrontViewPoint => ({ y: comp(p, 1), z: comp(p, 2) });

/** The design references of an axle from its design-state corners and road plane. */
export function axleDesignReference(left: CornerMetrics, right: CornerMetrics, road: RoadInput): AxleDesign {
  const cl = left.points.wheel_contact_centre.v, cr = right.points.wheel_contact_centre.v;
  const nv = road.normal.v, q = road.point.v;
  return { track: Math.abs(cl[1] - cr[1]), rideHeight: -(nv[0] * q[0] + nv[1] * q[1] + nv[2] * q[2]) };
}

/**
 * Axle metrics from the two corners (computed on the axle road plane):
 * - heave = mean of the corners' wheel_travel;
 * - roll = atan2(Δz, √(Δx² + Δy²)), Δ = WC_L − WC_R, degrees (left up positive);
 * - roll_center_y/z: rollCenterFromFvic on the corners' contact centres and FVICs;
 * - roll_center_kinematic_y/z: kinematicRollCenter on state.kinematic;
 * - track = design.track (constant); track_change = Y_road·(C_L − C_R) − track;
 * - ride_height_change = −n·Q − design.rideHeight; rack_displacement = state's.
 */
export function axleMetrics(left: CornerMetrics, right: CornerMetrics, design: AxleDesign, n: number, state: AxleState): AxleMetrics {
  const travelL = left.metrics.wheel_travel, travelR = right.metrics.wheel_travel;
  const heave = travelL && travelR ? scale(add(travelL, travelR), 0.5) : null;

  const dwc = vsub(left.points.wheel_center, right.points.wheel_center);
  const dx = comp(dwc, 0), dy = comp(dwc, 1), dz = comp(dwc, 2);
  const roll = deg(atan2(dz, sqrt(add(mul(dx, dx), mul(dy, dy)))));

  const cL = left.points.wheel_contact_centre, cR = right.points.wheel_contact_centre;
  const fvic = (m: CornerMetrics): FrontViewPoint | null =>
    m.metrics.fvic_y && m.metrics.fvic_z ? { y: m.metrics.fvic_y, z: m.metrics.fvic_z } : null;
  const rc = rollCenterFromFvic(frontView(cL), fvic(left), frontView(cR), fvic(right));

  let rk: FrontViewPoint | null = null;
  if (state.kinematic) {
    const { left: kl, right: kr } = state.kinematic;
    rk = kinematicRollCenter(kl.contact ?? frontView(cL), kl.velocity, kr.contact ?? frontView(cR), kr.velocity);
  }

  const track = konst(n, design.track);
  const { lateral } = roadAxes(state.road);
  const trackChange = sub(dot(lateral, vsub(cL, cR)), track);
  const rideHeight = neg(dot(state.road.normal, state.road.point));
  const rideHeightChange = sub(rideHeight, konst(n, design.rideHeight));

  return {
    heave,
    roll,
    roll_center_y: rc ? rc.y : null,
    roll_center_z: rc ? rc.z : null,
    roll_center_kinematic_y: rk ? rk.y : null,
    roll_center_kinematic_z: rk ? rk.z : null,
    track,
    track_change: trackChange,
    ride_height_change: rideHeightChange,
    rack_displacement: state.rackDisplacement,
  };
}
