/**
 * Seeding duals from a posed body: a world point or direction of a body whose pose is in
 * the state vector, with derivatives with respect to the body's twist step, and the tangent
 * mode of those seeds (the rules themselves are dual-pose-tangent.ts).
 */
import { toMatrix } from './quat';
import { DualVec3 } from './dual-number';
import { secondTangentSeeds, tangentMode, tangentSeeds } from './dual-arithmetic';
import { rigidMixedTangent, rigidTangent, rigidVelocityTangent } from './dual-pose-tangent';

/**
 * Seed a world point of a posed body: value R(q)·p + t for the pose stored at
 * state[off..off+7] = [tx, ty, tz, qw, qx, qy, qz], with derivatives with respect to the
 * body's twist step δ = (ω, v) (body frame, `x ∘ exp(δ)`) in components col..col+5:
 * ∂/∂ω_j = R(e_j × p), ∂/∂v_j = R e_j. Pass col < 0 for a fixed body (a constant). All
 * other derivative components are zero.
 */
export function dvPosePoint(out: DualVec3, state: ArrayLike<number>, off: number, p: ArrayLike<number>, col: number): DualVec3 {
  return dvRigidPoint(out, rotationMatrix(scratchR, state, off + 3), state, off, p, col);
}
/** Like dvPosePoint for a direction d: value R d, derivative ∂/∂ω_j = R(e_j × d), none in v. */
export function dvPoseDirection(out: DualVec3, state: ArrayLike<number>, off: number, dir: ArrayLike<number>, col: number): DualVec3 {
  return dvRigidDirection(out, rotationMatrix(scratchR, state, off + 3), dir, col);
}

const scratchR = new Float64Array(9);

/**
 * dvPosePoint with the pose's rotation matrix R already computed (a block that reads the
 * same pose several times computes R once).
 */
export function dvRigidPoint(out: DualVec3, R: Float64Array, state: ArrayLike<number>, off: number, p: ArrayLike<number>, col: number): DualVec3 {
  if (tangentMode()) seedTangents(out, R, p, col, true);
  const px = p[0], py = p[1], pz = p[2];
  out.v[0] = R[0] * px + R[1] * py + R[2] * pz + state[off];
  out.v[1] = R[3] * px + R[4] * py + R[5] * pz + state[off + 1];
  out.v[2] = R[6] * px + R[7] * py + R[8] * pz + state[off + 2];
  out.d.fill(0);
  if (col >= 0) seedRigid(out, R, px, py, pz, col, true);
  return out;
}
/** dvPoseDirection with R already computed. */
export function dvRigidDirection(out: DualVec3, R: Float64Array, dir: ArrayLike<number>, col: number): DualVec3 {
  if (tangentMode()) seedTangents(out, R, dir, col, false);
  const px = dir[0], py = dir[1], pz = dir[2];
  out.v[0] = R[0] * px + R[1] * py + R[2] * pz;
  out.v[1] = R[3] * px + R[4] * py + R[5] * pz;
  out.v[2] = R[6] * px + R[7] * py + R[8] * pz;
  out.d.fill(0);
  if (col >= 0) seedRigid(out, R, px, py, pz, col, false);
  return out;
}

function seedRigid(out: DualVec3, R: Float64Array, px: number, py: number, pz: number, col: number, withTranslation: boolean): void {
  const n = out.n, d = out.d;
  // e_x × p = (0, −pz, py); e_y × p = (pz, 0, −px); e_z × p = (−py, px, 0)
  for (let i = 0; i < 3; i++) {
    const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2];
    d[i * n + col] = -r1 * pz + r2 * py;
    d[i * n + col + 1] = r0 * pz - r2 * px;
    d[i * n + col + 2] = -r0 * py + r1 * px;
    if (withTranslation) {
      d[i * n + col + 3] = r0;
      d[i * n + col + 4] = r1;
      d[i * n + col + 5] = r2;
    }
  }
}

/** Row-major rotation matrix of the (not necessarily unit) quaternion at q[off..off+4]. */
export function rotationMatrix(out: Float64Array, q: ArrayLike<number>, off: number): Float64Array {
  return toMatrix(out, q, off);
}

/**
 * Tangent mode of a material point's world velocity R a (dual-pose-tangent.ts
 * rigidVelocityTangent); nothing outside tangent mode. Called by a force element after
 * writing the value and derivatives (mates/forces.ts velocityOf).
 */
export function tvRigidVelocity(out: DualVec3, R: Float64Array, xi: ArrayLike<number>, b: number, vcol: number, p: ArrayLike<number>, angular: boolean): void {
  if (!tangentMode()) return;
  const s = tangentSeeds(), r = secondTangentSeeds();
  if (s) rigidVelocityTangent((out.t ??= new DualVec3(out.n)), R, xi, b, vcol, p, angular, s);
  if (r) rigidVelocityTangent((out.t2 ??= new DualVec3(out.n)), R, xi, b, vcol, p, angular, r);
  // no mixed rule for velocities (statics has none): poisoned, never silently wrong
  if (s && r) { const m = (out.t!.t2 ??= new DualVec3(out.n)); m.v.fill(NaN); m.d.fill(NaN); }
}

/** A posed seed's tangents at each level on, and the mixed one under both (dual-pose-tangent.ts). */
function seedTangents(out: DualVec3, R: Float64Array, p: ArrayLike<number>, col: number, isPoint: boolean): void {
  const s = tangentSeeds(), r = secondTangentSeeds();
  if (s) rigidTangent((out.t ??= new DualVec3(out.n)), R, p, col, isPoint, s);
  if (r) rigidTangent((out.t2 ??= new DualVec3(out.n)), R, p, col, isPoint, r);
  if (s && r) rigidMixedTangent((out.t!.t2 ??= new DualVec3(out.n)), R, p, col, isPoint, s, r);
}
