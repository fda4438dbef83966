/**
 * Device metrics (`suspension-devices.md`, "New metric columns"), as dual-number functions
 * of positions like every other metric, so each carries its exact derivative.
 *
 * `rot(p; A, B)` is `turnAboutAxis` (the signed turn of p about A→B since design).
 */
import { Dual, DualVec3 } from '../../../kernel/dual';
import { atan2, comp, cross, deg, dot, midpoint, reject, scale, sub, unit, vconst, vlength, vsub } from './dualops';
import { turnAboutAxis } from './corner';

/** `σ · deg(rot(p; A, B))`: the twist of a torsion bar on the axis A→B (0 at design). */
export function torsionBarTwist(a: DualVec3, b: DualVec3, p: DualVec3, pDesign: DualVec3, sigma: number): Dual {
  return scale(deg(turnAboutAxis(a, b, p, pDesign)), sigma);
}

/** U-bar `arb_arm_angle`: `deg(rot(droplink_u_bar; axis_a, axis_b))`, no side sign. */
export function uBarArmAngle(a: DualVec3, b: DualVec3, end: DualVec3, endDesign: DualVec3): Dual {
  return deg(turnAboutAxis(a, b, end, endDesign));
}

/**
 * The T-bar crossbar angle φ (radians): with M the midpoint of L and R, s = unit(M − P)
 * (the stem), c = L − R and c⊥ = c − s(s·c): φ = atan2(s·(ŷ × c⊥), ŷ·c⊥), ŷ not projected.
 */
export function tBarAngle(left: DualVec3, right: DualVec3, pivot: DualVec3): Dual {
  const n = left.n;
  const s = unit(vsub(midpoint(left, right), pivot));
  const c = vsub(left, right);
  const cPerp = reject(c, s);
  const y = vconst(n, 0, 1, 0);
  return atan2(dot(s, cross(y, cPerp)), dot(y, cPerp));
}

export interface TBarMetrics {
  /** deg(φ − φ_design): negative with the left wheel down (the reference's sign). */
  arb_twist: Dual;
  /** Turn of the midpoint about the line through the design pivot along +Y, deg. */
  t_bar_heave_angle: Dual;
  /** Chassis x of the crossbar midpoint, mm. */
  t_bar_center_x: Dual;
}

export function tBarMetrics(left: DualVec3, right: DualVec3, pivot: DualVec3, design: { left: DualVec3; right: DualVec3; pivot: DualVec3 }): TBarMetrics {
  const n = left.n;
  const phi = tBarAngle(left, right, pivot), phi0 = tBarAngle(design.left, design.right, design.pivot);
  const m = midpoint(left, right), m0 = midpoint(design.left, design.right);
  const p0 = design.pivot;
  const p0y = vconst(n, p0.v[0], p0.v[1] + 1, p0.v[2]);
  return { arb_twist: deg(sub(phi, phi0)), t_bar_heave_angle: deg(turnAboutAxis(p0, p0y, m, m0)), t_bar_center_x: comp(m, 0) };
}

/** Heave link length |left − right|, mm. */
export function heaveLinkLength(left: DualVec3, right: DualVec3): Dual {
  return vlength(vsub(left, right));
}

/**
 * A link driving a lever about a chassis axis: the signed transmission ratio
 * m = (u × r⊥)·l / (|r⊥| |l|), u the axis, r⊥ the lever arm square to it, l the link. |m| is
 * the share of the link's pull that turns the lever (1 square-on, 0 at toggle, the
 * transmission margin); its sign is the branch (the side of the lever plane the link lies
 * on), which flips only when the linkage passes through toggle. Plain numbers: a diagnostic.
 */
export function leverTransmission(a: ArrayLike<number>, b: ArrayLike<number>, pickup: ArrayLike<number>, linkEnd: ArrayLike<number>): number {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const ul = Math.hypot(u[0], u[1], u[2]);
  for (let i = 0; i < 3; i++) u[i] /= ul;
  const r = [pickup[0] - a[0], pickup[1] - a[1], pickup[2] - a[2]];
  const along = r[0] * u[0] + r[1] * u[1] + r[2] * u[2];
  for (let i = 0; i < 3; i++) r[i] -= along * u[i];
  const t = [u[1] * r[2] - u[2] * r[1], u[2] * r[0] - u[0] * r[2], u[0] * r[1] - u[1] * r[0]];
  const l = [linkEnd[0] - pickup[0], linkEnd[1] - pickup[1], linkEnd[2] - pickup[2]];
  const denominator = Math.hypot(t[0], t[1], t[2]) * Math.hypot(l[0], l[1], l[2]);
  return denominator > 0 ? (t[0] * l[0] + t[1] * l[1] + t[2] * l[2]) / denominator : 0;
}

/** Below this the reference warns that a link/lever pair is near toggle. */
export const TRANSMISSION_MARGIN_WARNING = 0.15;
