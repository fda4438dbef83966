/**
 * A vertical tyre's generalized force, stored energy and damping power without derivatives,
 * written out: what TyreForce's width-0 dual pass (mates/forces.ts) computes, by the same
 * floating-point operations in the same order (the same bits), without its few hundred dual
 * calls. A whole car's run asks for Q alone at each of ~5 Newton iterations a step, and the
 * energy budget for the damping power after each: the dual pass cost ~4 µs a tyre each time.
 */
import { rotationMatrix } from '../kernel/dual';
import { hypotInto, place, turn, velocityOf } from './plain-values';

/** What the values read of the element, and its report (`last`, as the dual pass writes it). */
export interface TyreValuesInput {
  /**
   * The centre, axis and road point as Float64Arrays (a document's arrays vary in element
   * kind: plain-values.ts's `place` and `turn` then read every element polymorphically and
   * box each number read, in the bushing's and the springs' passes too).
   */
  readonly centreAt: Float64Array;
  readonly axisAt: Float64Array;
  readonly roadAt: Float64Array | null;
  readonly radius: number;
  readonly stiffness: number;
  readonly damping: number;
  readonly ground: number;
    readonly last: { penetration: number; force: number; contact: Float64Array };
}

// scratch (single-threaded; never held across calls)
const RW = new Float64Array(9), RR = new Float64Array(9);
const c = new Float64Array(3), a = new Float64Array(3), s = new Float64Array(3), x = new Float64Array(3), r = new Float64Array(3);
const v = new Float64Array(3), w = new Float64Array(3), o = new Float64Array(3), arm = new Float64Array(3), tmp = new Float64Array(3);

/** out = u / |u| with |u| by Math.hypot's bits (dvNormalize's value; hypotInto: no number passed or returned, none boxed). */
function normalize(out: Float64Array, u: Float64Array): void {
  const u0 = u[0], u1 = u[1], u2 = u[2];
  len[0] = u0; len[1] = u1; len[2] = u2;
  hypotInto(len);
  const l = len[3];
  out[0] = u0 / l; out[1] = u1 / l; out[2] = u2 / l;
}
const len = new Float64Array(4), load = new Float64Array(1);

/** out = u × w (dvCross's value). */
function cross(out: Float64Array, u: Float64Array, z: Float64Array): void {
  const a0 = u[0], a1 = u[1], a2 = u[2], b0 = z[0], b1 = z[1], b2 = z[2];
  out[0] = a1 * b2 - a2 * b1; out[1] = a2 * b0 - a0 * b2; out[2] = a0 * b1 - a1 * b0;
}

const ORIGIN = Float64Array.of(0, 0, 0);

/** TyreForce.contact's values: the contact point into x (and the road point into r), the penetration into e.last (not returned: a returned number is boxed where V8 does not inline). */
function contact(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>): void {
  rotationMatrix(RW, state, offsets[0] + 3);
  place(c, RW, state, offsets[0], e.centreAt);
  turn(tmp, 0, RW, e.axisAt);
  normalize(a, tmp);
  // rimLowestPoint: x = c + r n, n ∥ (a·e_z) a − e_z
  const az = a[2];
  s[0] = a[0] * az; s[1] = a[1] * az; s[2] = a[2] * az;
  s[2] -= 1;
  const len2 = s[0] ** 2 + s[1] ** 2 + s[2] ** 2;
  if (len2 > 1e-24) {
    normalize(tmp, s);
    for (let i = 0; i < 3; i++) x[i] = c[i] + tmp[i] * e.radius;
  } else for (let i = 0; i < 3; i++) x[i] = c[i] + 0;
  let p = x[2] * -1 + e.ground;
  const road = e.roadAt;
  if (road) {
    rotationMatrix(RR, state, offsets[1] + 3);
    place(r, RR, state, offsets[1], road);
    p = p + r[2];
  }
  e.last.penetration = p;
  const report = e.last.contact;
  report[0] = x[0]; report[1] = x[1]; report[2] = x[2];
}

/** TyreForce.contactVelocity's value: the contact's material velocity less the road's there, into v. */
function contactVelocity(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array): void {
  velocityOf(v, RW, xi, 0, ORIGIN, false);
  velocityOf(w, RW, xi, 0, ORIGIN, true);
  place(o, RW, state, offsets[0], ORIGIN);
  for (let i = 0; i < 3; i++) arm[i] = x[i] - o[i];
  cross(tmp, w, arm);
  for (let i = 0; i < 3; i++) v[i] = v[i] + tmp[i];
  const road = e.roadAt;
  if (road) {
    velocityOf(w, RR, xi, 6, road, false);
    for (let i = 0; i < 3; i++) v[i] = v[i] - w[i];
    velocityOf(w, RR, xi, 6, ORIGIN, true);
    for (let i = 0; i < 3; i++) arm[i] = x[i] - r[i];
    cross(tmp, w, arm);
    for (let i = 0; i < 3; i++) v[i] = v[i] - tmp[i];
  }
}

/** The damping term −c v_z of the load (after `contact`), as normalLoad adds it. */
function dampingTerm(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array): number {
  contactVelocity(e, state, offsets, xi);
  return v[2] * -e.damping;
}

/**
 * Q (6 on the wheel: moment, force in its axes; 12 with the road part's after) at the state
 * and the bodies' velocities `xi`, and the report in `e.last`.
 */
export function tyreValues(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array, Q: Float64Array): void {
  contact(e, state, offsets);
  const p = e.last.penetration;
  const count = e.roadAt ? 12 : 6;
  e.last.force = 0;
  let N = 0;
  if (p > 0) {
    N = p * e.stiffness;
    if (e.damping !== 0) N = N + dampingTerm(e, state, offsets, xi);
  }
  // into Q itself (zeroed, then each slot added once: the scratch's 0 + … as before), not through a scratch copied out
  for (let i = 0; i < count; i++) Q[i] = 0;
  if (p > 0 && N > 0) {
    e.last.force = N;
    load[0] = N;
    apply(Q, 0, RW, state, offsets[0], 1);
    if (e.roadAt) apply(Q, 6, RR, state, offsets[1], -1);
  }
}

/**
 * BodyForceBlock.apply's values for the vertical force (0, 0, N), N = load[0] (not passed: a number
 * passed is boxed where V8 does not inline), at x on the body whose slots start at b, times sign.
 * The body's axes R eᵢ are R's columns and its origin R 0 + t is t: the dual pass's products by
 * 1 and 0 differ from these only in a zero's sign, which q's 0 + … (each slot added once) erases.
 */
function apply(q: Float64Array, b: number, R: Float64Array, state: Float64Array, off: number, sign: 1 | -1): void {
  const N = load[0];
  // lever × (0, 0, N), written as dvCross writes it (its zero products kept: the same signs of zero)
  const l0 = x[0] - state[off], l1 = x[1] - state[off + 1], l2 = x[2] - state[off + 2];
  const m0 = l1 * N - l2 * 0, m1 = l2 * 0 - l0 * N, m2 = l0 * 0 - l1 * 0;
  for (let i = 0; i < 3; i++) {
    const e0 = R[i], e1 = R[3 + i], e2 = R[6 + i];
    q[b + 3 + i] = q[b + 3 + i] + (e0 * 0 + e1 * 0 + e2 * N) * sign;
    q[b + i] = q[b + i] + (e0 * m0 + e1 * m1 + e2 * m2) * sign;
  }
}

/** Stored energy ½ k p² (0 off the road), as TyreForce.potential. */
export function tyrePotential(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>): number {
  contact(e, state, offsets);
  const p = e.last.penetration;
  return p > 0 ? 0.5 * e.stiffness * p * p : 0;
}

/** Power the damping takes, −(N − k p) v_z (0 off the road), as TyreForce.dissipation. */
export function tyreDissipation(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array): number {
  if (e.damping === 0) return 0;
  const Q = scratchQ;
  tyreValues(e, state, offsets, xi, Q);
  const p = e.last.penetration;
  if (!(p > 0)) return 0;
  const vz = -(v[2] * -e.damping) / e.damping;
  return -(e.last.force - e.stiffness * p) * vz;
}
const scratchQ = new Float64Array(12);
