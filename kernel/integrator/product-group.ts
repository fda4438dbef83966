/**
 * Poses on R³ × SO(3) for time integration (kernel/integrator/integrator.ts, `lieGroup: 'R3xSO3'`).
 *
 * The system's tangent of a pose is the SE(3) body twist ξ = (ω, v_b): the solver, the rows'
 * Jacobians and the force blocks all speak it. Stepping a body in time on SE(3) couples its
 * turn to its travel: q ∘ exp(h ξ) moves the origin along a screw, and v_b = Rᵀ ẋ turns with
 * the body, so a body that spins while its origin moves with a constant acceleration (a disc
 * rolling down an incline, a spinning body falling) has a body-frame velocity that is no
 * polynomial in t, and generalized-α, exact for constant accelerations in a vector space,
 * is off by O(h²). On the direct product R³ × SO(3) the translation is a plain vector,
 * η = (ω, ẋ) with ẋ in world axes, and the origin moves by x + h(…) in a straight line.
 *
 * The two tangents agree to first order, ξ = P η with P = diag(I, Rᵀ), so the integrator
 * keeps its residual, Jacobians and iteration matrix in ξ and only converts here:
 * ξ from η (with ξ̇ = P η̇ + Ṗ η, i.e. v̇_b = Rᵀ ẍ − ω × v_b), η from ξ, a Newton
 * correction from ξ to η (P⁻¹ = diag(I, R)), and the product retraction.
 */
import { rotationMatrix } from '../dual';
import { toMatrix } from '../quat';
import { retractRotation } from '../pose';

/** The moving poses: state offset and first tangent slot of each. */
export interface PoseSlots {
  offset: Int32Array;
  slot: Int32Array;
}

const R = new Float64Array(9);

/**
 * v (body twists) and v̇ from η and η̇ at the current state; scalars are copied. `rotations`
 * (one 9-view a pose) receives each pose's rotation matrix at this state, for
 * correctionToProduct (the integrator's Newton correction: the state has not moved since)
 * and for the constraint rows, which read the same matrices (ConstraintRows.claimTurn).
 */
export function bodyFromProduct(state: Float64Array, poses: PoseSlots, eta: Float64Array, etaDot: Float64Array, v: Float64Array, vdot: Float64Array, rotations: readonly Float64Array[]): void {
  v.set(eta); vdot.set(etaDot);
  const slots = poses.slot, offsets = poses.offset;
  // R, η's and η̇'s entries and v_b in registers (the loops over i stored v and reloaded η,
  // which V8 cannot tell apart from v): the same operations in the same order
  for (let p = 0, count = slots.length; p < count; p++) {
    const c = slots[p] + 3, rot = rotations[p];
    toMatrix(rot, state, offsets[p] + 3);
    const r0 = rot[0], r1 = rot[1], r2 = rot[2], r3 = rot[3], r4 = rot[4], r5 = rot[5], r6 = rot[6], r7 = rot[7], r8 = rot[8];
    const e0 = eta[c], e1 = eta[c + 1], e2 = eta[c + 2], a0 = etaDot[c], a1 = etaDot[c + 1], a2 = etaDot[c + 2];
    const v0 = r0 * e0 + r3 * e1 + r6 * e2, v1 = r1 * e0 + r4 * e1 + r7 * e2, v2 = r2 * e0 + r5 * e1 + r8 * e2;
    v[c] = v0; v[c + 1] = v1; v[c + 2] = v2;
    // v̇_b = Rᵀ ẍ − ω × v_b (ω: η's, copied into v)
    const w0 = eta[c - 3], w1 = eta[c - 2], w2 = eta[c - 1];
    vdot[c] = (r0 * a0 + r3 * a1 + r6 * a2) - (w1 * v2 - w2 * v1);
    vdot[c + 1] = (r1 * a0 + r4 * a1 + r7 * a2) - (w2 * v0 - w0 * v2);
    vdot[c + 2] = (r2 * a0 + r5 * a1 + r8 * a2) - (w0 * v1 - w1 * v0);
  }
}

/** η and η̇ from v (body twists) and v̇ at the current state (the inverse of bodyFromProduct). */
export function productFromBody(state: Float64Array, poses: PoseSlots, v: Float64Array, vdot: Float64Array, eta: Float64Array, etaDot: Float64Array): void {
  eta.set(v); etaDot.set(vdot);
  for (let p = 0; p < poses.slot.length; p++) {
    const c = poses.slot[p] + 3, w = c - 3;
    rotationMatrix(R, state, poses.offset[p] + 3);
    // ẍ = R (v̇_b + ω × v_b)
    const ax = vdot[c] + v[w + 1] * v[c + 2] - v[w + 2] * v[c + 1];
    const ay = vdot[c + 1] + v[w + 2] * v[c] - v[w] * v[c + 2];
    const az = vdot[c + 2] + v[w] * v[c + 1] - v[w + 1] * v[c];
    for (let i = 0; i < 3; i++) {
      eta[c + i] = R[3 * i] * v[c] + R[3 * i + 1] * v[c + 1] + R[3 * i + 2] * v[c + 2];
      etaDot[c + i] = R[3 * i] * ax + R[3 * i + 1] * ay + R[3 * i + 2] * az;
    }
  }
}

/** A correction in body axes (ξ) to world translation (η) in place: d_v ← R d_v, R each pose's as bodyFromProduct kept them (`rotations`). */
export function correctionToProduct(poses: PoseSlots, rotations: readonly Float64Array[], d: Float64Array): void {
  for (let p = 0; p < poses.slot.length; p++) {
    const c = poses.slot[p] + 3, rot = rotations[p];
    const x = d[c], y = d[c + 1], z = d[c + 2];
    for (let i = 0; i < 3; i++) d[c + i] = rot[3 * i] * x + rot[3 * i + 1] * y + rot[3 * i + 2] * z;
  }
}

/**
 * The product retraction of every moving variable (state offset, first tangent slot, 1 for a
 * pose): a pose's rotation R ← R exp(y_ω) and its origin x ← x + y_v (world), a scalar as
 * System.retractVariable steps it.
 */
export function retractMoving(state: Float64Array, offset: Int32Array, slot: Int32Array, pose: Uint8Array, step: Float64Array): void {
  for (let k = 0, count = offset.length; k < count; k++) {
    const o = offset[k], s = slot[k];
    if (pose[k] === 0) { state[o] += step[s]; continue; }
    retractRotation(state, o, step, s);
    state[o] += step[s + 3]; state[o + 1] += step[s + 4]; state[o + 2] += step[s + 5];
  }
}
