/**
 * A point-to-point spring/damper's generalized forces without derivatives, written out:
 * the values PointToPointForce's width-0 dual pass computes, by the same operations in the
 * same order but for the length (√ of the sum of squares where the dual pass calls
 * Math.hypot: the same to an ulp or two), without its few dozen calls. A Newton iteration
 * that reuses its matrix asks for Q alone on every iteration of every step.
 */
import { rotationMatrix } from '../kernel/dual';
import type { Law } from './law';

/** What the values need of the element; `last` receives length, rate and tension as the dual pass reports them. */
export interface PointToPointInput {
  /** The points on body 0 and body 1, as Float64Arrays (a document's arrays vary in element kind: slow to read). */
  readonly localA: Float64Array;
  readonly localB: Float64Array;
  readonly spring: Law | null;
  readonly damper: Law | null;
  readonly last: { length: number; rate: number; tension: number };
}

const ownA = new Float64Array(9), ownB = new Float64Array(9), law = new Float64Array(2);
/** The bodies' rotations in this call: the caller's (made at the state already) or made into ownA, ownB (geometry). */
let RA: Float64Array = ownA, RB: Float64Array = ownB;
const pa = new Float64Array(3), pb = new Float64Array(3), unit = new Float64Array(3), force = new Float64Array(3);

function bodyVelocity(R: Float64Array, xi: Float64Array, b: number, p: Float64Array, out: Float64Array): void {
  // R (ω × p + v), by component
  const w0 = xi[b], w1 = xi[b + 1], w2 = xi[b + 2], p0 = p[0], p1 = p[1], p2 = p[2];
  const a0 = w1 * p2 - w2 * p1 + xi[b + 3];
  const a1 = w2 * p0 - w0 * p2 + xi[b + 4];
  const a2 = w0 * p1 - w1 * p0 + xi[b + 5];
  for (let i = 0; i < 3; i++) out[i] = R[3 * i] * a0 + R[3 * i + 1] * a1 + R[3 * i + 2] * a2;
}
const va = new Float64Array(3), vb = new Float64Array(3);

/**
 * The points, the unit vector a → b (into pa, pb, unit) and the length (into got[0]: a returned
 * number is boxed where V8 does not inline); the rotations turnA, turnB where given (else made).
 */
function geometry(e: PointToPointInput, state: Float64Array, offsets: Int32Array, turnA: Float64Array | null, turnB: Float64Array | null): void {
  RA = turnA ?? rotationMatrix(ownA, state, offsets[0] + 3);
  RB = turnB ?? rotationMatrix(ownB, state, offsets[1] + 3);
  const a = e.localA, b = e.localB, oA = offsets[0], oB = offsets[1];
  const a0 = a[0], a1 = a[1], a2 = a[2], b0 = b[0], b1 = b[1], b2 = b[2];
  // the points in registers (a loop stored them and read them back for d)
  const pa0 = RA[0] * a0 + RA[1] * a1 + RA[2] * a2 + state[oA], pb0 = RB[0] * b0 + RB[1] * b1 + RB[2] * b2 + state[oB];
  const pa1 = RA[3] * a0 + RA[4] * a1 + RA[5] * a2 + state[oA + 1], pb1 = RB[3] * b0 + RB[4] * b1 + RB[5] * b2 + state[oB + 1];
  const pa2 = RA[6] * a0 + RA[7] * a1 + RA[8] * a2 + state[oA + 2], pb2 = RB[6] * b0 + RB[7] * b1 + RB[8] * b2 + state[oB + 2];
  pa[0] = pa0; pa[1] = pa1; pa[2] = pa2; pb[0] = pb0; pb[1] = pb1; pb[2] = pb2;
  const d0 = pb0 - pa0, d1 = pb1 - pa1, d2 = pb2 - pa2;
  // √(Σd²), not Math.hypot: a tenth of the time (hypot's guard against overflow is moot here)
  const length = Math.sqrt(d0 * d0 + d1 * d1 + d2 * d2);
  unit[0] = d0 / length; unit[1] = d1 / length; unit[2] = d2 / length;
  got[0] = length;
}

/** The rate of lengthening at the geometry just computed, into got[1]: the bodies' twists at velocity[a ..], velocity[b ..]. */
function rateOf(e: PointToPointInput, velocity: Float64Array, a: number, b: number): void {
  bodyVelocity(RA, velocity, a, e.localA, va); bodyVelocity(RB, velocity, b, e.localB, vb);
  got[1] = unit[0] * (vb[0] - va[0]) + unit[1] * (vb[1] - va[1]) + unit[2] * (vb[2] - va[2]);
}
const got = new Float64Array(2);

/** Power the damper part dissipates, damper(rate)·rate (0 without one), as the dual pass's `dissipation`. */
export function pointToPointDissipation(e: PointToPointInput, state: Float64Array, offsets: Int32Array, velocity: Float64Array): number {
  if (!e.damper) return 0;
  geometry(e, state, offsets, null, null);
  rateOf(e, velocity, 0, 6);
  const rate = got[1];
  return e.damper.evaluate(rate, law)[0] * rate;
}

/** Q (12: body 0's (moment, force) in its axes, then body 1's) of the element at the state and velocities. */
export function pointToPointValues(e: PointToPointInput, state: Float64Array, offsets: Int32Array, velocity: Float64Array, Q: Float64Array): void {
  for (let i = 0; i < 12; i++) Q[i] = 0;
  addPointToPoint(e, state, offsets, velocity, Q, 0, 6, null, null);
}

/**
 * Q added into Q at body 0's six slots from a and body 1's from b, its twists read at
 * velocity[a ..] and velocity[b ..] (ForceBlock.addForces: a force set's whole Q and velocities;
 * pointToPointValues: the element's own, zeroed). Each slot's term added once, as ForceSet adds
 * the element's own Q (a +0 or −0 term leaves a sum from +0 as it was). turnA, turnB: the
 * bodies' rotation matrices at this state where the caller has them (the same bits), or null.
 */
export function addPointToPoint(e: PointToPointInput, state: Float64Array, offsets: Int32Array, velocity: Float64Array, Q: Float64Array, a: number, b: number,
  turnA: Float64Array | null, turnB: Float64Array | null): void {
  geometry(e, state, offsets, turnA, turnB);
  const length = got[0];
  const oA = offsets[0], oB = offsets[1];
  let tension = 0, rate = 0;
  if (e.spring) {
    e.spring.evaluate(length, law);
    tension = tension + law[0];
  }
  if (e.damper) {
    rateOf(e, velocity, a, b);
    rate = got[1];
    e.damper.evaluate(rate, law);
    tension = tension + law[0];
  }
  e.last.length = length; e.last.rate = rate; e.last.tension = tension;
  force[0] = unit[0] * tension; force[1] = unit[1] * tension; force[2] = unit[2] * tension;
  applyValues(Q, a, RA, state, oA, pa, 1);
  applyValues(Q, b, RB, state, oB, pb, -1);
}

/** Body k's (Rᵀ(x − t) × F... as the dual pass: moment (x − t) × F, both read in the body's axes) added into Q[b..b+5]. */
function applyValues(Q: Float64Array, b: number, R: Float64Array, state: Float64Array, o: number, x: Float64Array, sign: number): void {
  const l0 = x[0] - state[o], l1 = x[1] - state[o + 1], l2 = x[2] - state[o + 2];
  const f0 = force[0], f1 = force[1], f2 = force[2];
  const m0 = l1 * f2 - l2 * f1, m1 = l2 * f0 - l0 * f2, m2 = l0 * f1 - l1 * f0;
  for (let i = 0; i < 3; i++) {
    // (R e_i) = column i of R
    const c0 = R[i], c1 = R[3 + i], c2 = R[6 + i];
    Q[b + 3 + i] = Q[b + 3 + i] + (c0 * f0 + c1 * f1 + c2 * f2) * sign;
    Q[b + i] = Q[b + i] + (c0 * m0 + c1 * m1 + c2 * m2) * sign;
  }
}
