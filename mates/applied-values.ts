/**
 * An applied force's or torque's generalized force without derivatives, written out: the
 * values PointForce's and BodyTorque's width-0 dual passes compute, by the same operations
 * in the same order (the same bits), without their dual calls. Every Newton state of a loaded
 * equilibrium asks for them, with K in closed form (mates/applied-stiffness.ts) or alone.
 */
import { rotationMatrix } from '../kernel/dual';
import type { Law } from './law';

/** What the values need of the element; `last` receives what the dual pass reports. */
export interface AppliedInput {
  /** The body point the force acts at (null: a torque, at the body origin). */
  readonly at?: ArrayLike<number> | null;
  readonly vector: ArrayLike<number>;
  readonly inBodyAxes: boolean;
  readonly scale: Law | null;
}

const R = new Float64Array(9), s = new Float64Array(2), x = new Float64Array(3), origin = new Float64Array(3);
const F = new Float64Array(3), M = new Float64Array(3), lever = new Float64Array(3), moment = new Float64Array(3);

/**
 * Q (6: moment, force in the body's axes) of the element on the pose at `offset` at time t;
 * `world` receives the world force (a point force) or moment (a torque).
 */
export function appliedValues(e: AppliedInput, state: Float64Array, offset: number, t: number, Q: Float64Array, world: Float64Array, at: Float64Array | null): void {
  const k = e.scale ? e.scale.evaluate(t, s)[0] : 1;
  rotationMatrix(R, state, offset + 3);
  const p = e.at ?? null, v = e.vector, out = p ? F : M;
  // x = R p + t (dvRigidPoint's value; the body origin for a torque)
  for (let i = 0; i < 3; i++) x[i] = p ? R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2] + state[offset + i] : R[3 * i] * 0 + R[3 * i + 1] * 0 + R[3 * i + 2] * 0 + state[offset + i];
  if (e.inBodyAxes) for (let i = 0; i < 3; i++) out[i] = (R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2]) * k;
  else for (let i = 0; i < 3; i++) out[i] = v[i] * k;
  if (p) M.fill(0); else F.fill(0);
  world.set(out);
  if (at) at.set(x);
  // BodyForceBlock.apply's values, sign 1, on a generalized force that starts at zero
  for (let i = 0; i < 3; i++) origin[i] = R[3 * i] * 0 + R[3 * i + 1] * 0 + R[3 * i + 2] * 0 + state[offset + i];
  for (let i = 0; i < 3; i++) lever[i] = x[i] - origin[i];
  moment[0] = lever[1] * F[2] - lever[2] * F[1];
  moment[1] = lever[2] * F[0] - lever[0] * F[2];
  moment[2] = lever[0] * F[1] - lever[1] * F[0];
  if (!p) for (let i = 0; i < 3; i++) moment[i] = moment[i] + M[i];
  for (let i = 0; i < 3; i++) {
    // R e_i as dvRigidDirection computes it (its zeros' signs included)
    const e0 = i === 0 ? 1 : 0, e1 = i === 1 ? 1 : 0, e2 = i === 2 ? 1 : 0;
    const c0 = R[0] * e0 + R[1] * e1 + R[2] * e2, c1 = R[3] * e0 + R[4] * e1 + R[5] * e2, c2 = R[6] * e0 + R[7] * e1 + R[8] * e2;
    Q[3 + i] = 0 + (c0 * F[0] + c1 * F[1] + c2 * F[2]) * 1;
    Q[i] = 0 + (c0 * moment[0] + c1 * moment[1] + c2 * moment[2]) * 1;
  }
}
