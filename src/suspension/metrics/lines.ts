/**
 * Lines, planes and their intersections, as dual-number functions of the points that
 * define them, so instant centres and roll centres carry exact derivatives.
 *
 * "Parallel" is decided on the value part with one relative tolerance, PARALLEL_TOLERANCE
 * (the sine of the angle between the two directions): below it the intersection is at
 * infinity (or the planes coincide) and the helpers return null. Kinematic states from a
 * solver carry ~1e-15 relative noise, so a nominally parallel pair stays below it, while
 * any real convergence (an instant centre closer than ~1e10 lever arms) stays above it.
 */
import { Dual, DualVec3 } from '../../../kernel/dual';
import {
  cross,
  div,
  dot,
  mul,
  neg,
  scale,
  sub,
  vaddScaled,
  vscale,
  vsub,
  add,
  comp,
} from './dualops';

export const PARALLEL_TOLERANCE = 1e-10;

/** A line (or the instant axis of a body): a point on it and a direction (any length). */
export interface Line3 {
  point: DualVec3;
  direction: DualVec3;
}

/** A plane through `point` with normal `normal` (any length). */
export interface Plane {
  point: DualVec3;
  normal: DualVec3;
}

/** A point of the front view (chassis y, z). */
export interface FrontViewPoint {
  y: Dual;
  z: Dual;
}

const norm = (v: DualVec3): number => Math.hypot(v.v[0], v.v[1], v.v[2]);

/** The plane through three points: normal (b − a) × (c − a); null if they are collinear. */
export function planeThrough(a: DualVec3, b: DualVec3, c: DualVec3): Plane | null {
  const ab = vsub(b, a), ac = vsub(c, a);
  const normal = cross(ab, ac);
  if (!(norm(normal) > PARALLEL_TOLERANCE * norm(ab) * norm(ac))) return null;
  return { point: a, normal };
}

/**
 * The line where two planes meet: direction u = n₁ × n₂ and the point of the line closest
 * to the origin, (h₁ (n₂ × u) + h₂ (u × n₁)) / |u|² with h_i = n_i·p_i (check: n₁·point =
 * h₁ u·(n₁ × n₂)/|u|² = h₁, and likewise for plane 2). Null when the planes are parallel.
 */
export function planesIntersection(p1: Plane, p2: Plane): Line3 | null {
  const u = cross(p1.normal, p2.normal);
  if (!(norm(u) > PARALLEL_TOLERANCE * norm(p1.normal) * norm(p2.normal))) return null;
  const h1 = dot(p1.normal, p1.point), h2 = dot(p2.normal, p2.point);
  const uu = dot(u, u);
  const a = cross(p2.normal, u), b = cross(u, p1.normal);
  const sum = vaddScaled(vscale(a, h1), b, h2);
  return { point: vscale(sum, div(new Dual(uu.n, 1), uu)), direction: u };
}

/**
 * Double wishbone instant axis of the upright relative to the chassis: the line where the
 * lower wishbone plane (lowerFront, lowerRear, lowerOut) meets the upper one. Null when
 * the planes are parallel (instant centres at infinity) or a wishbone is degenerate.
 */
export function wishbonePlanesAxis(
  lowerFront: DualVec3, lowerRear: DualVec3, lowerOut: DualVec3,
  upperFront: DualVec3, upperRear: DualVec3, upperOut: DualVec3,
): Line3 | null {
  const lower = planeThrough(lowerFront, lowerRear, lowerOut);
  const upper = planeThrough(upperFront, upperRear, upperOut);
  return lower && upper ? planesIntersection(lower, upper) : null;
}

/**
 * MacPherson instant axis: the lower-arm plane met with the plane through `strutTop`
 * normal to the strut (strutTop − strutBottom).
 */
export function macphersonAxis(
  lowerFront: DualVec3, lowerRear: DualVec3, lowerOut: DualVec3,
  strutTop: DualVec3, strutBottom: DualVec3,
): Line3 | null {
  const lower = planeThrough(lowerFront, lowerRear, lowerOut);
  if (!lower) return null;
  const strut = vsub(strutTop, strutBottom);
  if (!(norm(strut) > 0)) return null;
  return planesIntersection(lower, { point: strutTop, normal: strut });
}

/** Trailing arm instant axis: the pivot axis a → b (null if a = b). */
export function trailingArmAxis(pivotA: DualVec3, pivotB: DualVec3): Line3 | null {
  const direction = vsub(pivotB, pivotA);
  return norm(direction) > 0 ? { point: pivotA, direction } : null;
}

/**
 * Where a line crosses the coordinate plane x_axis = value (axis 0, 1, 2 for x, y, z):
 * point + t·direction with t = (value − point_axis)/direction_axis. Null when the line is
 * parallel to the plane.
 */
export function crossCoordinatePlane(line: Line3, axis: 0 | 1 | 2, value: Dual): DualVec3 | null {
  const du = comp(line.direction, axis);
  if (!(Math.abs(du.v) > PARALLEL_TOLERANCE * norm(line.direction))) return null;
  const t = div(sub(value, comp(line.point, axis)), du);
  return vaddScaled(line.point, line.direction, t);
}

/** Where a line crosses a plane; null when parallel to it. */
export function crossPlane(line: Line3, plane: Plane): DualVec3 | null {
  const ns = dot(plane.normal, line.direction);
  if (!(Math.abs(ns.v) > PARALLEL_TOLERANCE * norm(plane.normal) * norm(line.direction))) return null;
  const t = div(dot(plane.normal, vsub(plane.point, line.point)), ns);
  return vaddScaled(line.point, line.direction, t);
}

/**
 * Intersection of two front-view lines p₁ + t d₁ and p₂ + s d₂ (2-D, components y, z):
 * t = ((p₂ − p₁) × d₂) / (d₁ × d₂) with a × b = a_y b_z − a_z b_y. Null when parallel
 * (or a direction is zero).
 */
export function intersectFrontViewLines(
  p1: FrontViewPoint, d1: FrontViewPoint, p2: FrontViewPoint, d2: FrontViewPoint,
): FrontViewPoint | null {
  const cross2 = (a: FrontViewPoint, b: FrontViewPoint): Dual => sub(mul(a.y, b.z), mul(a.z, b.y));
  const den = cross2(d1, d2);
  const l1 = Math.hypot(d1.y.v, d1.z.v), l2 = Math.hypot(d2.y.v, d2.z.v);
  if (!(Math.abs(den.v) > PARALLEL_TOLERANCE * l1 * l2)) return null;
  const t = div(cross2({ y: sub(p2.y, p1.y), z: sub(p2.z, p1.z) }, d2), den);
  return { y: add(p1.y, mul(t, d1.y)), z: add(p1.z, mul(t, d1.z)) };
}

/** The front-view line perpendicular to a velocity (v_y, v_z): direction (−v_z, v_y). */
export function perpendicular(v: FrontViewPoint): FrontViewPoint {
  return { y: neg(v.z), z: scale(v.y, 1) };
}
