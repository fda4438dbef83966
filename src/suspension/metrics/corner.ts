/**
 * Per-corner suspension metrics (design/suspension.md, "Metrics" and "Precise forms") as
 * pure functions of world positions written with the kernel's forward-mode dual numbers.
 *
 * The caller seeds every point with its rates along n tangent directions (n may be 0);
 * each metric then carries its exact derivative along the same directions. Angles come
 * out in degrees (value and derivatives), lengths in mm.
 *
 * Conventions (σ = +1 left, −1 right; a = unit(axle_outboard − axle_inboard), pointing
 * outboard on both sides):
 * - camber = atan2(−a_z, σ a_y): negative when the wheel top leans inward.
 * - toe_angle = atan2(a_x, σ a_y): positive = toe-in on both sides.
 * - steer_angle = atan2(−σ a_x, σ a_y): the heading of the wheel (the direction of
 *   X_T = σ·(a × ẑ) = σ(a_y, −a_x, 0)), measured right-handed about +z from +x, so a left
 *   turn is positive on both wheels. Left wheel: steer_angle = −toe_angle. Right wheel:
 *   X_T = (−a_y, a_x, 0) whose angle is atan2(a_x, −a_y) = +toe_angle, i.e. a toed-in
 *   right wheel points left (positive steer). It is the absolute heading, not a change
 *   since design.
 * - steering axis metrics: see `steeringAxisMetrics`.
 * - null means undefined: no physical steering axis, an axis parallel to the road, an
 *   instant centre at infinity, or a metric that does not apply to this corner (see
 *   each field).
 */
import { Dual, DualVec3 } from '../../../kernel/dual';
import type { AxlePosition, Side, VehicleConfig, Wheel } from '../files';
import {
  abs,
  atan,
  atan2,
  comp,
  cross,
  deg,
  div,
  dot,
  konst,
  midpoint,
  mul,
  neg,
  reject,
  scale,
  sqrt,
  sub,
  unit,
  vaddScaled,
  vconst,
  vlength,
  vscaleK,
  vsub,
  add,
} from './dualops';
import { crossCoordinatePlane, crossPlane, type Line3 } from './lines';
import { ArgumentError } from '../../../kernel/errors';

export interface WheelInput {
  /** ET, mm: positive moves the wheel centre inboard along the spin axis. */
  offset: number;
  /** Unloaded tyre radius, mm. */
  tireRadius: number;
  /** Tyre section width, mm (wheel_inboard / wheel_outboard lie ∓ half of it along a). */
  sectionWidth: number;
}

/** A road plane: unit normal (pointing up) and any point on it. */
export interface RoadInput {
  normal: DualVec3;
  point: DualVec3;
}

export interface VehicleInput {
  cgPosition?: ArrayLike<number>;
  wheelbase?: number;
  /** Front share of the braking, 0…1. Enables anti_dive (front) / anti_lift (rear). */
  frontBrakeBias?: number;
  /** Enables anti_squat on that axle. */
  drivenAxle?: AxlePosition;
}

export interface CornerDesign {
  /** Wheel-centre z at design (wheel_travel is measured from it). */
  wheelCenterZ: number;
  /**
   * Design position of `pushrod_inboard`; with `rocker_axis_a`/`_b` and `pushrod_inboard`
   * among the points it enables rocker_angle.
   */
  rockerReference?: ArrayLike<number>;
}

export interface CornerInput {
  side: Side;
  /**
   * World positions (mm) of the named points; must hold axle_inboard and axle_outboard. Only
   * the names of CORNER_INPUT_POINTS are read.
   */
  points: Record<string, DualVec3>;
  /** Physical steering axis, lower → upper point; null when there is none. */
  steeringAxis: [DualVec3, DualVec3] | null;
  wheel: WheelInput;
  /** null → the horizontal plane through the contact centre. */
  road: RoadInput | null;
  design: CornerDesign;
  vehicle: VehicleInput;
  axlePosition: AxlePosition;
  /** Instant axis of the upright relative to the chassis (see lines.ts helpers); null if none. */
  instantAxis: Line3 | null;
  /** Steering-response screw axis; when given, the `*_virtual` metrics are computed on it. */
  virtualAxis?: Line3 | null;
}

export const STEERING_AXIS_METRIC_NAMES = [
  'caster', 'kpi', 'steering_axis_offset_ground', 'scrub_radius', 'mechanical_trail',
] as const;
export type SteeringAxisMetricName = (typeof STEERING_AXIS_METRIC_NAMES)[number];
export type SteeringAxisMetrics = Record<SteeringAxisMetricName, Dual | null>;

export const CORNER_METRIC_NAMES = [
  'camber', 'toe_angle', 'steer_angle',
  ...STEERING_AXIS_METRIC_NAMES,
  'caster_virtual', 'kpi_virtual', 'steering_axis_offset_ground_virtual', 'scrub_radius_virtual',
  'mechanical_trail_virtual',
  'svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle',
  'anti_dive', 'anti_lift', 'anti_squat',
  'wheel_travel', 'half_track', 'damper_length', 'rocker_angle',
] as const;
export type CornerMetricName = (typeof CORNER_METRIC_NAMES)[number];

export const DERIVED_POINT_NAMES = [
  'wheel_center', 'axle_midpoint', 'wheel_inboard', 'wheel_outboard', 'wheel_contact_centre',
] as const;
export type DerivedPointName = (typeof DERIVED_POINT_NAMES)[number];

/** The wheel's frame at the current state, shared by all metrics of the corner. */
export interface WheelFrame {
  side: Side;
  /** σ: +1 left, −1 right. */
  sigma: 1 | -1;
  /** a: unit spin axis, pointing outboard (axle_inboard → axle_outboard). */
  spin: DualVec3;
  wheelCenter: DualVec3;
  /** C = WC − R·normalize(n − (n·a)a). */
  contact: DualVec3;
  /** Road normal n (unit, up). */
  normal: DualVec3;
  /** A point of the road plane (C itself for the default corner road). */
  roadPoint: DualVec3;
  /** X_T = σ·(a_p × n): the steered heading in the road plane (unit). */
  heading: DualVec3;
  /** Y_T = n × X_T. */
  lateral: DualVec3;
  /** X_road: chassis +x projected on the road plane, normalised. */
  roadForward: DualVec3;
  /** Y_road = n × X_road. */
  roadLateral: DualVec3;
}

export interface CornerMetrics {
  side: Side;
  metrics: Record<CornerMetricName, Dual | null>;
  points: Record<DerivedPointName, DualVec3>;
  frame: WheelFrame;
}

/** The spin axis and the wheel centre from the axle points and the wheel offset (ET). */
export function wheelAxis(axleInboard: DualVec3, axleOutboard: DualVec3, offset: number): { spin: DualVec3; wheelCenter: DualVec3 } {
  const spin = unit(vsub(axleOutboard, axleInboard));
  return { spin, wheelCenter: vaddScaled(axleOutboard, spin, konst(spin.n, -offset)) };
}

/** Lowest point of the wheel disc (centre WC, unit spin a, radius R) along −n. */
export function contactCentre(wheelCenter: DualVec3, spin: DualVec3, radius: number, normal: DualVec3): DualVec3 {
  const down = unit(reject(normal, spin));
  return vaddScaled(wheelCenter, down, konst(spin.n, -radius));
}

/** Build the wheel frame (spin axis, centre, contact centre, tyre and road axes). */
export function wheelFrame(side: Side, axleInboard: DualVec3, axleOutboard: DualVec3, wheel: WheelInput, road: RoadInput | null, n: number): WheelFrame {
  const sigma = side === 'left' ? 1 : -1;
  const { spin, wheelCenter } = wheelAxis(axleInboard, axleOutboard, wheel.offset);
  const normal = road ? road.normal : vconst(n, 0, 0, 1);
  const contact = contactCentre(wheelCenter, spin, wheel.tireRadius, normal);
  const roadPoint = road ? road.point : contact;
  const spinInRoad = unit(reject(spin, normal));
  const heading = vscaleK(cross(spinInRoad, normal), sigma);
  const lateral = cross(normal, heading);
  const roadForward = unit(reject(vconst(n, 1, 0, 0), normal));
  const roadLateral = cross(normal, roadForward);
  return { side, sigma, spin, wheelCenter, contact, normal, roadPoint, heading, lateral, roadForward, roadLateral };
}

const nullSteering = (): SteeringAxisMetrics => ({
  caster: null, kpi: null, steering_axis_offset_ground: null, scrub_radius: null, mechanical_trail: null,
});

/**
 * The five steering-axis metrics of any axis (physical kingpin or the steering screw
 * axis). The direction is first turned to point up (+z) when its z is negative.
 * s = direction:
 * - caster = atan2(−s_x, s_z) (top rearward positive); kpi = atan2(−σ s_y, s_z) (top
 *   inward positive), degrees.
 * - ground point G = the axis met with the road plane; d = G − C;
 *   steering_axis_offset_ground = −σ (d·Y_T) (positive when G is inboard of C);
 *   mechanical_trail = d·X_T (positive when G is ahead of C); scrub_radius = |d|.
 *   These three are null when the axis is parallel to the road plane.
 * All five are null for a zero direction.
 */
export function steeringAxisMetrics(axisPoint: DualVec3, axisDirection: DualVec3, frame: WheelFrame): SteeringAxisMetrics {
  const sv = axisDirection.v;
  if (!(Math.hypot(sv[0], sv[1], sv[2]) > 0)) return nullSteering();
  const s = sv[2] < 0 ? vscaleK(axisDirection, -1) : axisDirection;
  const { caster, kpi } = axisAngles(s, frame.sigma);
  const ground = crossPlane({ point: axisPoint, direction: s }, { point: frame.roadPoint, normal: frame.normal });
  if (!ground) return { ...nullSteering(), caster, kpi };
  const d = vsub(ground, frame.contact);
  return {
    caster,
    kpi,
    steering_axis_offset_ground: scale(dot(d, frame.lateral), -frame.sigma),
    scrub_radius: vlength(d),
    mechanical_trail: dot(d, frame.heading),
  };
}

/** Caster and KPI (degrees) of an axis direction s already turned to point up (s_z ≥ 0). */
export function axisAngles(s: DualVec3, sigma: 1 | -1): { caster: Dual; kpi: Dual } {
  const sx = comp(s, 0), sy = comp(s, 1), sz = comp(s, 2);
  return { caster: deg(atan2(neg(sx), sz)), kpi: deg(atan2(scale(sy, -sigma), sz)) };
}

/** Camber, toe and steer angle (degrees) of the unit spin axis a (see the module comment). */
export function wheelAngles(a: DualVec3, sigma: 1 | -1): { camber: Dual; toe: Dual; steer: Dual } {
  const ax = comp(a, 0), ay = comp(a, 1), az = comp(a, 2);
  const sAy = scale(ay, sigma);
  return { camber: deg(atan2(neg(az), sAy)), toe: deg(atan2(ax, sAy)), steer: deg(atan2(scale(ax, -sigma), sAy)) };
}

/** Anti percentage 100·k·(L/h)·tanθ with tanθ = rise/run; null when run is exactly zero. */
function antiPercent(k: number, wheelbase: number, h: Dual, rise: Dual, run: Dual): Dual | null {
  if (run.v === 0) return null;
  return scale(div(div(rise, run), h), 100 * k * wheelbase);
}

/**
 * Signed turn (radians) of point p about the axis a → b from its reference position p0:
 * the angle from r0 to r, the parts of p0 − a and p − a normal to the axis, right-handed
 * about unit(b − a): atan2(u·(r0 × r), r0·r).
 */
export function turnAboutAxis(a: DualVec3, b: DualVec3, p: DualVec3, p0: DualVec3): Dual {
  const u = unit(vsub(b, a));
  const r = reject(vsub(p, a), u), r0 = reject(vsub(p0, a), u);
  return atan2(dot(u, cross(r0, r)), dot(r0, r));
}

/** The names of `CornerInput.points` that cornerMetrics reads (a caller seeds these alone). */
export const CORNER_INPUT_POINTS: ReadonlySet<string> = new Set(['axle_inboard', 'axle_outboard', 'strut_top', 'strut_bottom', 'pushrod_inboard', 'rocker_axis_a', 'rocker_axis_b']);

/** Every per-corner metric and derived point (see the module comment for conventions). */
export function cornerMetrics(input: CornerInput, n: number): CornerMetrics {
  const P = input.points;
  const axleIn = P.axle_inboard, axleOut = P.axle_outboard;
  if (!axleIn || !axleOut) throw new ArgumentError('points', 'must include axle_inboard and axle_outboard', 'cornerMetrics: points must include axle_inboard and axle_outboard');
  const frame = wheelFrame(input.side, axleIn, axleOut, input.wheel, input.road, n);
  const { sigma, spin: a, wheelCenter: wc, contact: c, normal, roadForward } = frame;

  const { camber, toe, steer } = wheelAngles(a, sigma);

  const physical = input.steeringAxis
    ? steeringAxisMetrics(input.steeringAxis[0], vsub(input.steeringAxis[1], input.steeringAxis[0]), frame)
    : nullSteering();
  const virtual = input.virtualAxis
    ? steeringAxisMetrics(input.virtualAxis.point, input.virtualAxis.direction, frame)
    : nullSteering();

  // Instant centres: the instant axis crossing y = WC_y (side view) and x = WC_x (front view).
  const axis = input.instantAxis;
  const svic = axis ? crossCoordinatePlane(axis, 1, comp(wc, 1)) : null;
  const fvic = axis ? crossCoordinatePlane(axis, 0, comp(wc, 0)) : null;

  let svsaLength: Dual | null = null, svsaAngle: Dual | null = null, fvsaLength: Dual | null = null;
  if (svic) {
    const rel = vsub(svic, c);
    svsaLength = dot(roadForward, rel);
    const run = comp(rel, 0);
    if (run.v !== 0) svsaAngle = deg(atan(div(comp(rel, 2), run)));
  }
  if (fvic) {
    const rel = vsub(fvic, c);
    const lat = dot(frame.roadLateral, rel), up = dot(normal, rel);
    const length = sqrt(add(mul(lat, lat), mul(up, up)));
    // Inboard: toward the centreline, i.e. −σ along Y_road.
    fvsaLength = -sigma * lat.v >= 0 ? length : neg(length);
  }

  // Anti features.
  const v = input.vehicle;
  let antiDive: Dual | null = null, antiLift: Dual | null = null, antiSquat: Dual | null = null;
  if (svic && v.cgPosition && v.wheelbase !== undefined) {
    const cg = vconst(n, v.cgPosition[0], v.cgPosition[1], v.cgPosition[2]);
    const h = dot(normal, vsub(cg, frame.roadPoint));
    if (h.v > 0) {
      const L = v.wheelbase;
      const front = input.axlePosition === 'front';
      const riseC = dot(normal, vsub(svic, c));
      if (v.frontBrakeBias !== undefined) {
        if (front) antiDive = antiPercent(v.frontBrakeBias, L, h, riseC, dot(roadForward, vsub(c, svic)));
        else antiLift = antiPercent(1 - v.frontBrakeBias, L, h, riseC, dot(roadForward, vsub(svic, c)));
      }
      if (v.drivenAxle === input.axlePosition) {
        const riseW = dot(normal, vsub(svic, wc));
        const run = front ? dot(roadForward, vsub(wc, svic)) : dot(roadForward, vsub(svic, wc));
        antiSquat = antiPercent(1, L, h, riseW, run);
      }
    }
  }

  const damper = P.strut_top && P.strut_bottom ? vlength(vsub(P.strut_top, P.strut_bottom)) : null;
  let rocker: Dual | null = null;
  const ref = input.design.rockerReference;
  if (ref && P.pushrod_inboard && P.rocker_axis_a && P.rocker_axis_b) {
    const p0 = vconst(n, ref[0], ref[1], ref[2]);
    rocker = deg(scale(turnAboutAxis(P.rocker_axis_a, P.rocker_axis_b, P.pushrod_inboard, p0), sigma));
  }

  const metrics: Record<CornerMetricName, Dual | null> = {
    camber,
    toe_angle: toe,
    steer_angle: steer,
    ...physical,
    caster_virtual: virtual.caster,
    kpi_virtual: virtual.kpi,
    steering_axis_offset_ground_virtual: virtual.steering_axis_offset_ground,
    scrub_radius_virtual: virtual.scrub_radius,
    mechanical_trail_virtual: virtual.mechanical_trail,
    svic_x: svic ? comp(svic, 0) : null,
    svic_z: svic ? comp(svic, 2) : null,
    fvic_y: fvic ? comp(fvic, 1) : null,
    fvic_z: fvic ? comp(fvic, 2) : null,
    svsa_length: svsaLength,
    fvsa_length: fvsaLength,
    svsa_angle: svsaAngle,
    anti_dive: antiDive,
    anti_lift: antiLift,
    anti_squat: antiSquat,
    wheel_travel: sub(comp(wc, 2), konst(n, input.design.wheelCenterZ)),
    half_track: abs(comp(c, 1)),
    damper_length: damper,
    rocker_angle: rocker,
  };
  const halfWidth = konst(n, input.wheel.sectionWidth / 2);
  const points: Record<DerivedPointName, DualVec3> = {
    wheel_center: wc,
    axle_midpoint: midpoint(axleIn, axleOut),
    wheel_inboard: vaddScaled(wc, a, neg(halfWidth)),
    wheel_outboard: vaddScaled(wc, a, halfWidth),
    wheel_contact_centre: c,
  };
  return { side: input.side, metrics, points, frame };
}

/** WheelInput from a parsed geometry file's wheel. */
export function wheelInputFrom(wheel: Wheel): WheelInput {
  return { offset: wheel.offset, tireRadius: wheel.tire_radius, sectionWidth: wheel.tire.section_width };
}

/** VehicleInput from a parsed geometry file's vehicle config. */
export function vehicleInputFrom(config: VehicleConfig): VehicleInput {
  const out: VehicleInput = {};
  if (config.cg_position) out.cgPosition = config.cg_position;
  if (config.wheelbase !== undefined) out.wheelbase = config.wheelbase;
  if (config.front_brake_bias !== undefined) out.frontBrakeBias = config.front_brake_bias;
  if (config.driven_axle !== undefined) out.drivenAxle = config.driven_axle;
  return out;
}
