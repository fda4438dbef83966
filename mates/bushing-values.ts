/**
 * A bushing's generalized force in plain numbers: the values pass of BushingForce
 * (mates/forces.ts), operation for operation, without the dual machinery. A compliant
 * settle asks for Q alone many times per state (each Newton iterate, the loads report, the
 * element reports), and the width-0 dual pass costs an order of magnitude more than its
 * arithmetic. Each value is computed by the same floating-point operations in the same
 * order as the dual ops' values (kernel/dual-arithmetic.ts), so Q and the report are the
 * values pass's bit for bit (test/mates/bushing-values.test.ts checks it).
 */
import { rotationMatrix } from '../kernel/dual';
import { place, turn, velocityOf } from './plain-values';

/** What the values pass reads of a bushing, and the report it writes. */
export interface BushingValuesInput {
  readonly axesA: readonly ArrayLike<number>[];
  readonly axesB: readonly ArrayLike<number>[];
  /** The frames' origins as Float64Arrays (a document's arrays would make plain-values.ts's reads polymorphic, which boxes every number read). */
  readonly pointA: Float64Array;
  readonly pointB: Float64Array;
  readonly stiffness: ArrayLike<number>;
  readonly rotationalStiffness: ArrayLike<number>;
  /** Damping rates per A axis, read when a body moves. */
  readonly damping: ArrayLike<number>;
  readonly rotationalDamping: ArrayLike<number>;
  readonly last: { translation: Float64Array; rotation: Float64Array; force: Float64Array; moment: Float64Array; at: Float64Array };
}

// scratch (single-threaded; never held across calls)
const RA = new Float64Array(9), RB = new Float64Array(9);
const fa = new Float64Array(9), fb = new Float64Array(9), rr = new Float64Array(9);
const oa = new Float64Array(3), ob = new Float64Array(3), sep = new Float64Array(3), vee = new Float64Array(3);
const F = new Float64Array(3), M = new Float64Array(3);

function dot(a: Float64Array, ao: number, b: Float64Array, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2];
}

const va = new Float64Array(3), vb = new Float64Array(3), wa = new Float64Array(3), wb = new Float64Array(3);
const rel = new Float64Array(3), spin = new Float64Array(3);

/**
 * The damper's relative rates at the geometry just computed, as BushingForce.compute takes
 * them: rel = A-axes' ḋ source v_B − v_A − ω_A × sep, spin = ω_B − ω_A (world).
 */
function rates(b: BushingValuesInput, xi: Float64Array): void {
  velocityOf(va, RA, xi, 0, b.pointA, false); velocityOf(vb, RB, xi, 6, b.pointB, false);
  velocityOf(wa, RA, xi, 0, ORIGIN, true); velocityOf(wb, RB, xi, 6, ORIGIN, true);
  for (let i = 0; i < 3; i++) rel[i] = vb[i] - va[i];
  const c0 = wa[1] * sep[2] - wa[2] * sep[1], c1 = wa[2] * sep[0] - wa[0] * sep[2], c2 = wa[0] * sep[1] - wa[1] * sep[0];
  rel[0] = rel[0] - c0; rel[1] = rel[1] - c1; rel[2] = rel[2] - c2;
  for (let i = 0; i < 3; i++) spin[i] = wb[i] - wa[i];
}

/**
 * Q (12: body A's ω, v, then B's) of a bushing, and its `last` report, at `state` (offsets
 * of A's and B's poses) with the bodies at rest, or moving at `velocity` (12: A's (ω, v) then
 * B's): its damping force and moment then, as BushingForce.compute adds them.
 */
export function bushingValues(b: BushingValuesInput, state: Float64Array, offsets: ArrayLike<number>, Q: Float64Array, velocity: Float64Array | null = null): void {
  rotationMatrix(RA, state, offsets[0] + 3);
  rotationMatrix(RB, state, offsets[1] + 3);
  for (let i = 0; i < 3; i++) { turn(fa, 3 * i, RA, b.axesA[i]); turn(fb, 3 * i, RB, b.axesB[i]); }
  place(oa, RA, state, offsets[0], b.pointA);
  place(ob, RB, state, offsets[1], b.pointB);
  for (let i = 0; i < 3; i++) sep[i] = ob[i] - oa[i];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) rr[3 * i + j] = dot(fa, 3 * i, fb, 3 * j);
  // θ = vee(R − Rᵀ) φ/(2 sin φ), as BushingForce.deflect
  vee[0] = rr[7] - rr[5]; vee[1] = rr[2] - rr[6]; vee[2] = rr[3] - rr[1];
  const s1 = (vee[0] * vee[0] + vee[1] * vee[1] + vee[2] * vee[2]) * 0.25;
  const s2 = (rr[0] + rr[4] + rr[8] + -1) * 0.5;
  let s3: number;
  if (s1 < 1e-4 && s2 > 0) s3 = 0.5 * (1 + s1 / 6 + (3 * s1 * s1) / 40 + (5 * s1 * s1 * s1) / 112);
  else { const s4 = Math.sqrt(s1); s3 = (Math.atan2(s4, s2) / s4) * 0.5; }
  for (let i = 0; i < 3; i++) vee[i] = vee[i] * s3;
  // by loops, not the builtins fill and set: their calls were a fifth of this pass's time
  for (let i = 0; i < 3; i++) { F[i] = 0; M[i] = 0; }
  const last = b.last;
  // `velocity` only when a body moves (as the dual pass's `moving`): the same signs of zero at rest
  const moving = velocity !== null;
  if (moving) rates(b, velocity);
  for (let i = 0; i < 3; i++) {
    const d = dot(fa, 3 * i, sep, 0);
    let c = d * -b.stiffness[i];
    if (moving && b.damping[i] !== 0) c = c + dot(fa, 3 * i, rel, 0) * -b.damping[i];
    for (let j = 0; j < 3; j++) F[j] = F[j] + fa[3 * i + j] * c;
    last.translation[i] = d;
    last.rotation[i] = vee[i];
    let m = vee[i] * -b.rotationalStiffness[i];
    if (moving && b.rotationalDamping[i] !== 0) m = m + dot(fa, 3 * i, spin, 0) * -b.rotationalDamping[i];
    for (let j = 0; j < 3; j++) M[j] = M[j] + fa[3 * i + j] * m;
  }
  const force = last.force, torque = last.moment, at = last.at;
  for (let i = 0; i < 3; i++) { force[i] = F[i]; torque[i] = M[i]; at[i] = ob[i]; }
  // into Q itself (zeroed, then each slot added once), not through a scratch copied out
  for (let i = 0; i < 12; i++) Q[i] = 0;
  apply(Q, 1, RB, state, offsets[1], 1);
  apply(Q, 0, RA, state, offsets[0], -1);
}

const ORIGIN = Float64Array.of(0, 0, 0);

/**
 * BodyForceBlock.apply's values: the world force F at ob and moment M on body k, times sign. The
 * body's axes R eᵢ are R's columns and its origin R 0 + t is t: the dual pass's products by 1
 * and 0 differ from these only in a zero's sign, which q's 0 + … (each slot added once) erases.
 */
function apply(q: Float64Array, k: number, R: Float64Array, state: Float64Array, off: number, sign: 1 | -1): void {
  const l0 = ob[0] - state[off], l1 = ob[1] - state[off + 1], l2 = ob[2] - state[off + 2];
  const F0 = F[0], F1 = F[1], F2 = F[2];
  const m0 = (l1 * F2 - l2 * F1) + M[0], m1 = (l2 * F0 - l0 * F2) + M[1], m2 = (l0 * F1 - l1 * F0) + M[2];
  const b = 6 * k;
  for (let i = 0; i < 3; i++) {
    const e0 = R[i], e1 = R[3 + i], e2 = R[6 + i];
    q[b + 3 + i] = q[b + 3 + i] + (e0 * F0 + e1 * F1 + e2 * F2) * sign;
    q[b + i] = q[b + i] + (e0 * m0 + e1 * m1 + e2 * m2) * sign;
  }
}
