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
const ownA = new Float64Array(9), ownB = new Float64Array(9);
/** The bodies' rotations in this call: the caller's (made at the state already) or made into ownA, ownB. */
let RA: Float64Array = ownA, RB: Float64Array = ownB;
const fa = new Float64Array(9), fb = new Float64Array(9);
const oa = new Float64Array(3), ob = new Float64Array(3), sep = new Float64Array(3), vee = new Float64Array(3);
const F = new Float64Array(3), M = new Float64Array(3);

const va = new Float64Array(3), vb = new Float64Array(3), wa = new Float64Array(3), wb = new Float64Array(3);
const rel = new Float64Array(3), spin = new Float64Array(3);

/**
 * Q (12: body A's ω, v, then B's) of a bushing, and its `last` report, at `state` (offsets
 * of A's and B's poses) with the bodies at rest (`velocity` null: the caller tests for motion,
 * as the dual pass's `moving`), or moving at `velocity` (12: A's (ω, v) then B's): its damping
 * force and moment then, as BushingForce.compute adds them. The damper's rates are written in
 * addBushing, not in a helper: run ~5 times a step of the whole car, a helper not inlined (the
 * rates, 475 bytes of bytecode, over TurboFan's 460) was compiled on its own in the bench's timed
 * rounds (docs/vehicle-dynamics.md, Session 18).
 */
export function bushingValues(b: BushingValuesInput, state: Float64Array, offsets: ArrayLike<number>, Q: Float64Array, velocity: Float64Array | null = null): void {
  for (let i = 0; i < 12; i++) Q[i] = 0;
  addBushing(b, state, offsets, Q, 0, 6, velocity, null, null);
}

/**
 * bushingValues' Q added into Q at A's six slots from sA and B's from sB, the twists (where
 * `velocity` is given: a body moves) at velocity[sA ..] and velocity[sB ..] (ForceBlock.addForces:
 * a force set's whole Q and velocities; bushingValues: the element's own, zeroed). Each slot's
 * term added once, as ForceSet adds the element's own Q. turnA, turnB: the bodies' rotation
 * matrices at this state where the caller has them (the same bits), or null.
 */
export function addBushing(b: BushingValuesInput, state: Float64Array, offsets: ArrayLike<number>, Q: Float64Array, sA: number, sB: number, velocity: Float64Array | null,
  turnA: Float64Array | null, turnB: Float64Array | null): void {
  RA = turnA ?? rotationMatrix(ownA, state, offsets[0] + 3);
  RB = turnB ?? rotationMatrix(ownB, state, offsets[1] + 3);
  for (let i = 0; i < 3; i++) { turn(fa, 3 * i, RA, b.axesA[i]); turn(fb, 3 * i, RB, b.axesB[i]); }
  place(oa, RA, state, offsets[0], b.pointA);
  place(ob, RB, state, offsets[1], b.pointB);
  sep[0] = ob[0] - oa[0]; sep[1] = ob[1] - oa[1]; sep[2] = ob[2] - oa[2];
  // rr[3i + j] = fa_i · fb_j (each dot's operations in its order), in registers
  const a0 = fa[0], a1 = fa[1], a2 = fa[2], a3 = fa[3], a4 = fa[4], a5 = fa[5], a6 = fa[6], a7 = fa[7], a8 = fa[8];
  const b0 = fb[0], b1 = fb[1], b2 = fb[2], b3 = fb[3], b4 = fb[4], b5 = fb[5], b6 = fb[6], b7 = fb[7], b8 = fb[8];
  const r0 = a0 * b0 + a1 * b1 + a2 * b2, r1 = a0 * b3 + a1 * b4 + a2 * b5, r2 = a0 * b6 + a1 * b7 + a2 * b8;
  const r3 = a3 * b0 + a4 * b1 + a5 * b2, r4 = a3 * b3 + a4 * b4 + a5 * b5, r5 = a3 * b6 + a4 * b7 + a5 * b8;
  const r6 = a6 * b0 + a7 * b1 + a8 * b2, r7 = a6 * b3 + a7 * b4 + a8 * b5, r8 = a6 * b6 + a7 * b7 + a8 * b8;
  // θ = vee(R − Rᵀ) φ/(2 sin φ), as BushingForce.deflect
  const e0 = r7 - r5, e1 = r2 - r6, e2 = r3 - r1;
  const s1 = (e0 * e0 + e1 * e1 + e2 * e2) * 0.25;
  const s2 = (r0 + r4 + r8 + -1) * 0.5;
  let s3: number;
  if (s1 < 1e-4 && s2 > 0) s3 = 0.5 * (1 + s1 / 6 + (3 * s1 * s1) / 40 + (5 * s1 * s1 * s1) / 112);
  else { const s4 = Math.sqrt(s1); s3 = (Math.atan2(s4, s2) / s4) * 0.5; }
  vee[0] = e0 * s3; vee[1] = e1 * s3; vee[2] = e2 * s3;
  const last = b.last;
  // `velocity` only when a body moves (as the dual pass's `moving`): the same signs of zero at rest
  const moving = velocity !== null;
  if (moving) {
    // the damper's relative rates, as BushingForce.compute takes them: rel = A-axes' ḋ source
    // v_B − v_A − ω_A × sep, spin = ω_B − ω_A (world); written here, not in a helper (see above)
    const xi = velocity;
    velocityOf(va, RA, xi, sA, b.pointA, false); velocityOf(vb, RB, xi, sB, b.pointB, false);
    velocityOf(wa, RA, xi, sA, ORIGIN, true); velocityOf(wb, RB, xi, sB, ORIGIN, true);
    for (let i = 0; i < 3; i++) rel[i] = vb[i] - va[i];
    const c0 = wa[1] * sep[2] - wa[2] * sep[1], c1 = wa[2] * sep[0] - wa[0] * sep[2], c2 = wa[0] * sep[1] - wa[1] * sep[0];
    rel[0] = rel[0] - c0; rel[1] = rel[1] - c1; rel[2] = rel[2] - c2;
    for (let i = 0; i < 3; i++) spin[i] = wb[i] - wa[i];
  }
  // F and M summed from zero axis by axis, in registers (F[j] + fa[3i + j] c as the loop into the cleared scratch did)
  let F0 = 0, F1 = 0, F2 = 0, M0 = 0, M1 = 0, M2 = 0;
  for (let i = 0; i < 3; i++) {
    const f0 = fa[3 * i], f1 = fa[3 * i + 1], f2 = fa[3 * i + 2];
    const d = f0 * sep[0] + f1 * sep[1] + f2 * sep[2];
    let c = d * -b.stiffness[i];
    if (moving && b.damping[i] !== 0) c = c + (f0 * rel[0] + f1 * rel[1] + f2 * rel[2]) * -b.damping[i];
    F0 = F0 + f0 * c; F1 = F1 + f1 * c; F2 = F2 + f2 * c;
    last.translation[i] = d;
    last.rotation[i] = vee[i];
    let m = vee[i] * -b.rotationalStiffness[i];
    if (moving && b.rotationalDamping[i] !== 0) m = m + (f0 * spin[0] + f1 * spin[1] + f2 * spin[2]) * -b.rotationalDamping[i];
    M0 = M0 + f0 * m; M1 = M1 + f1 * m; M2 = M2 + f2 * m;
  }
  F[0] = F0; F[1] = F1; F[2] = F2; M[0] = M0; M[1] = M1; M[2] = M2;
  const force = last.force, torque = last.moment, at = last.at;
  for (let i = 0; i < 3; i++) { force[i] = F[i]; torque[i] = M[i]; at[i] = ob[i]; }
  // into Q itself, each slot added once, not through a scratch copied out
  apply(Q, sB, RB, state, offsets[1], 1);
  apply(Q, sA, RA, state, offsets[0], -1);
}

const ORIGIN = Float64Array.of(0, 0, 0);

/**
 * BodyForceBlock.apply's values: the world force F at ob and moment M on the body whose slots
 * start at b, times sign. The body's axes R eᵢ are R's columns and its origin R 0 + t is t: the
 * dual pass's products by 1 and 0 differ from these only in a zero's sign, which q's sum from
 * +0 (each slot added once) erases.
 */
function apply(q: Float64Array, b: number, R: Float64Array, state: Float64Array, off: number, sign: 1 | -1): void {
  const l0 = ob[0] - state[off], l1 = ob[1] - state[off + 1], l2 = ob[2] - state[off + 2];
  const F0 = F[0], F1 = F[1], F2 = F[2];
  const m0 = (l1 * F2 - l2 * F1) + M[0], m1 = (l2 * F0 - l0 * F2) + M[1], m2 = (l0 * F1 - l1 * F0) + M[2];
  for (let i = 0; i < 3; i++) {
    const e0 = R[i], e1 = R[3 + i], e2 = R[6 + i];
    q[b + 3 + i] = q[b + 3 + i] + (e0 * F0 + e1 * F1 + e2 * F2) * sign;
    q[b + i] = q[b + i] + (e0 * m0 + e1 * m1 + e2 * m2) * sign;
  }
}
