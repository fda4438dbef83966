/**
 * The closed-form curvature of rows that are a world point's coordinates (tangent.ts): a
 * ball joint's three rows and a wheel pad's one carry a world force held at a body point,
 * whose stiffness on the body is [l]ₓ[f]ₓ and [f]ₓ in its own axes.
 */
import { rotationMatrix } from '../../../kernel/dual';
import type { ResidualBlock } from '../../../kernel/system';
import { JointBlock } from '../../../mates/joints';
import { PointCoordinateBlock } from '../build/targets';

/** Whether every row of the block is a world point's coordinate on its bodies (closed-form curvature). */
export function pointRows(blk: ResidualBlock): boolean {
  if (blk instanceof PointCoordinateBlock) return true;
  return blk instanceof JointBlock && blk.type === 'ball' && blk.vars.length === 2;
}

/**
 * H += the curvature of a world force held at a body point, on the body's slots c0..c0+5:
 * f the force in body axes, l the point; rows (ω, v), columns ω: [l]ₓ[f]ₓ and [f]ₓ.
 */
export function addDeadForce(H: Float64Array, n: number, c0: number, l: ArrayLike<number>, f: ArrayLike<number>): void {
  // [l]ₓ[f]ₓ = f lᵀ − (l·f) I
  const lf = l[0] * f[0] + l[1] * f[1] + l[2] * f[2];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) H[(c0 + i) * n + c0 + j] += f[i] * l[j] - (i === j ? lf : 0);
  H[(c0 + 3) * n + c0 + 1] -= f[2]; H[(c0 + 3) * n + c0 + 2] += f[1];
  H[(c0 + 4) * n + c0 + 0] += f[2]; H[(c0 + 4) * n + c0 + 2] -= f[0];
  H[(c0 + 5) * n + c0 + 0] -= f[1]; H[(c0 + 5) * n + c0 + 1] += f[0];
}

// scratch of addPointTerms (single-threaded; never held across calls)
const padR = new Float64Array(9), padF = new Float64Array(3);

/** A pad's terms on one body: each point carries λ·weight along the pad's world axis (in body axes Rᵀ e). */
export function addPointTerms(H: Float64Array, n: number, c0: number, blk: PointCoordinateBlock, variable: number, lambda: number, state: Float64Array, offset: number): void {
  const R = rotationMatrix(padR, state, offset + 3);
  const f = padF;
  for (const t of blk.expr) {
    if (t.variable !== variable) continue;
    for (let i = 0; i < 3; i++) f[i] = lambda * t.weight * R[blk.axis * 3 + i];
    addDeadForce(H, n, c0, t.local, f);
  }
}
