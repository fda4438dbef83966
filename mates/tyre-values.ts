/**
 * A vertical tyre's generalized force, stored energy and damping power without derivatives,
 * written out: what TyreForce's width-0 dual pass (mates/forces.ts) computes, by the same
 * floating-point operations in the same order (the same bits), without its few hundred dual
 * calls. A whole car's run asks for Q alone at each of ~5 Newton iterations a step, and the
 * energy budget for the damping power after each: the dual pass cost ~4 µs a tyre each time.
 */
import { rotationMatrix } from '../kernel/dual';
import { hypotInto, place } from './plain-values';

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
const ownW = new Float64Array(9), ownR = new Float64Array(9);
/** The wheel's and the road part's rotations in this call: the caller's (made at the state already) or made into ownW, ownR (contact). */
let RW: Float64Array = ownW, RR: Float64Array = ownR;
const x = new Float64Array(3), r = new Float64Array(3);
const v = new Float64Array(3);

/** hypotInto's argument and result (|u| by Math.hypot's bits: no number passed or returned, none boxed); the load for apply. */
const len = new Float64Array(4), load = new Float64Array(1);

/**
 * TyreForce.contact's values: the contact point into x (and the road point into r), the
 * penetration into e.last (not returned: a returned number is boxed where V8 does not
 * inline). The centre, the axis and the rim's direction in registers (place's, turn's and
 * normalize's operations written here), the lengths by hypotInto.
 */
function contact(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, turnW: Float64Array | null, turnR: Float64Array | null): void {
  const o = offsets[0];
  RW = turnW ?? rotationMatrix(ownW, state, o + 3);
  const R0 = RW[0], R1 = RW[1], R2 = RW[2], R3 = RW[3], R4 = RW[4], R5 = RW[5], R6 = RW[6], R7 = RW[7], R8 = RW[8];
  const ce = e.centreAt, ax = e.axisAt, p0 = ce[0], p1 = ce[1], p2 = ce[2], d0 = ax[0], d1 = ax[1], d2 = ax[2];
  const c0 = R0 * p0 + R1 * p1 + R2 * p2 + state[o];
  const c1 = R3 * p0 + R4 * p1 + R5 * p2 + state[o + 1];
  const c2 = R6 * p0 + R7 * p1 + R8 * p2 + state[o + 2];
  // the axis, normalized
  const t0 = R0 * d0 + R1 * d1 + R2 * d2, t1 = R3 * d0 + R4 * d1 + R5 * d2, t2 = R6 * d0 + R7 * d1 + R8 * d2;
  len[0] = t0; len[1] = t1; len[2] = t2;
  hypotInto(len);
  const l = len[3], a0 = t0 / l, a1 = t1 / l, a2 = t2 / l;
  // rimLowestPoint: x = c + r n, n ∥ (a·e_z) a − e_z
  const s0 = a0 * a2, s1 = a1 * a2, s2 = a2 * a2 - 1;
  const len2 = s0 ** 2 + s1 ** 2 + s2 ** 2;
  let x0: number, x1: number, x2: number;
  if (len2 > 1e-24) {
    len[0] = s0; len[1] = s1; len[2] = s2;
    hypotInto(len);
    const m = len[3], radius = e.radius;
    x0 = c0 + (s0 / m) * radius; x1 = c1 + (s1 / m) * radius; x2 = c2 + (s2 / m) * radius;
  } else { x0 = c0 + 0; x1 = c1 + 0; x2 = c2 + 0; }
  x[0] = x0; x[1] = x1; x[2] = x2;
  let p = x2 * -1 + e.ground;
  const road = e.roadAt;
  if (road) {
    RR = turnR ?? rotationMatrix(ownR, state, offsets[1] + 3);
    place(r, RR, state, offsets[1], road);
    p = p + r[2];
  }
  e.last.penetration = p;
  const report = e.last.contact;
  report[0] = x0; report[1] = x1; report[2] = x2;
}

/**
 * TyreForce.contactVelocity's value, its z component alone (all the load reads) into v[2]: the
 * contact's material velocity less the road's there, each term by velocityOf's, place's and
 * cross's operations on the origin's zeros as they were (a zero's sign can reach the sum). The
 * wheel's twist at xi[a ..], the road part's at xi[b ..].
 */
function contactVelocity(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array, a: number, b: number): void {
  const R = RW, off = offsets[0];
  // the wheel: R (ω × 0 + v) + (R ω) × (x − (R 0 + t))
  const w0 = xi[a], w1 = xi[a + 1], w2 = xi[a + 2];
  const b0 = w1 * 0 - w2 * 0 + xi[a + 3], b1 = w2 * 0 - w0 * 0 + xi[a + 4], b2 = w0 * 0 - w1 * 0 + xi[a + 5];
  let vz = R[6] * b0 + R[7] * b1 + R[8] * b2;
  const W0 = R[0] * w0 + R[1] * w1 + R[2] * w2, W1 = R[3] * w0 + R[4] * w1 + R[5] * w2;
  const arm0 = x[0] - (R[0] * 0 + R[1] * 0 + R[2] * 0 + state[off]), arm1 = x[1] - (R[3] * 0 + R[4] * 0 + R[5] * 0 + state[off + 1]);
  vz = vz + (W0 * arm1 - W1 * arm0);
  const road = e.roadAt;
  if (road) {
    // less the road part's: R_r (ω_r × p_road + v_r) + (R_r ω_r) × (x − r)
    const Q = RR, u0 = xi[b], u1 = xi[b + 1], u2 = xi[b + 2], p0 = road[0], p1 = road[1], p2 = road[2];
    const c0 = u1 * p2 - u2 * p1 + xi[b + 3], c1 = u2 * p0 - u0 * p2 + xi[b + 4], c2 = u0 * p1 - u1 * p0 + xi[b + 5];
    vz = vz - (Q[6] * c0 + Q[7] * c1 + Q[8] * c2);
    const U0 = Q[0] * u0 + Q[1] * u1 + Q[2] * u2, U1 = Q[3] * u0 + Q[4] * u1 + Q[5] * u2;
    vz = vz - (U0 * (x[1] - r[1]) - U1 * (x[0] - r[0]));
  }
  v[2] = vz;
}

/** The damping term −c v_z of the load (after `contact`), as normalLoad adds it. */
function dampingTerm(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array, a: number, b: number): number {
  contactVelocity(e, state, offsets, xi, a, b);
  return v[2] * -e.damping;
}

/**
 * Q (6 on the wheel: moment, force in its axes; 12 with the road part's after) at the state
 * and the bodies' velocities `xi`, and the report in `e.last`.
 */
export function tyreValues(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array, Q: Float64Array): void {
  const count = e.roadAt ? 12 : 6;
  for (let i = 0; i < count; i++) Q[i] = 0;
  addTyre(e, state, offsets, xi, Q, 0, 6, null, null);
}

/**
 * The tyre's Q added into Q at the wheel's six slots from a and the road part's from b, their
 * twists read at xi[a ..] and xi[b ..] (ForceBlock.addForces: a force set's whole Q and
 * velocities; tyreValues: the element's own, zeroed), and the report in `e.last`. Off the
 * ground nothing is added (the zeros ForceSet added changed no sum from +0). turnW, turnR: the
 * wheel's and the road part's rotation matrices at this state where the caller has them, or null.
 */
export function addTyre(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array, Q: Float64Array, a: number, b: number,
  turnW: Float64Array | null, turnR: Float64Array | null): void {
  contact(e, state, offsets, turnW, turnR);
  const p = e.last.penetration;
  e.last.force = 0;
  let N = 0;
  if (p > 0) {
    N = p * e.stiffness;
    if (e.damping !== 0) N = N + dampingTerm(e, state, offsets, xi, a, b);
  }
  if (p > 0 && N > 0) {
    e.last.force = N;
    load[0] = N;
    apply(Q, a, RW, state, offsets[0], 1);
    if (e.roadAt) apply(Q, b, RR, state, offsets[1], -1);
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
  contact(e, state, offsets, null, null);
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
