/**
 * The stiffness of an applied force or torque of constant world direction on one body, in
 * closed form: what PointForce's and BodyTorque's dual passes give for K (to rounding),
 * without the pass. Their generalized force is f = Rᵀ F and m = p × f (a force at body point
 * p) or m = Rᵀ M (a torque); a step ω of the body turns f by [f]ₓ ω and leaves it unmoved by
 * a translation, so ∂f/∂ω = [f]ₓ, ∂m/∂ω = [p]ₓ [f]ₓ (or [m]ₓ). A force or torque fixed in
 * the body's own axes has constant f and m: K = 0.
 */
import { rotationMatrix } from '../kernel/dual';

const R = new Float64Array(9), f = new Float64Array(3);

/**
 * K (6 × 6, row-major, rows (moment, force), columns (ω, v)) := ∂Q/∂δ of the world force F
 * at body point p (p null: the world torque F) on the pose at `offset`.
 */
export function appliedStiffness(K: Float64Array, state: Float64Array, offset: number, F: ArrayLike<number>, p: ArrayLike<number> | null): void {
  K.fill(0, 0, 36);
  rotationMatrix(R, state, offset + 3);
  for (let i = 0; i < 3; i++) f[i] = R[i] * F[0] + R[3 + i] * F[1] + R[6 + i] * F[2];
  // [f]ₓ = [[0, −f2, f1], [f2, 0, −f0], [−f1, f0, 0]]
  const row = p ? 18 : 0;
  K[row + 1] = -f[2]; K[row + 2] = f[1];
  K[row + 6] = f[2]; K[row + 8] = -f[0];
  K[row + 12] = -f[1]; K[row + 13] = f[0];
  if (!p) return;
  // moment rows: [p]ₓ [f]ₓ, row i, column j: p_{i+1} F_{i+2,j} − p_{i+2} F_{i+1,j}
  for (let i = 0; i < 3; i++) {
    const i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (let j = 0; j < 3; j++) K[6 * i + j] = p[i1] * K[18 + 6 * i2 + j] - p[i2] * K[18 + 6 * i1 + j];
  }
}
