/**
 * Quaternions `[w, x, y, z]` in Float64. A quaternion need not be unit: rotating by it
 * divides by |q|² (so a pose read from a file is used exactly as read). Only the zero
 * quaternion stands for nothing and is refused where a rotation is built from input.
 */
import type { ReadonlyVec3, Vec3 } from './vec3';

export type Quat = Float64Array;
export type ReadonlyQuat = Readonly<ArrayLike<number>>;

export function quat(w = 1, x = 0, y = 0, z = 0): Quat {
  const out = new Float64Array(4);
  out[0] = w; out[1] = x; out[2] = y; out[3] = z;
  return out;
}
export function identity(out: Quat): Quat {
  out[0] = 1; out[1] = 0; out[2] = 0; out[3] = 0; return out;
}
export function copy(out: Quat, a: ReadonlyQuat): Quat {
  out[0] = a[0]; out[1] = a[1]; out[2] = a[2]; out[3] = a[3]; return out;
}
export function squaredNorm(a: ReadonlyQuat): number {
  return a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
}
/** Hamilton product a·b (apply b first, then a). */
export function multiply(out: Quat, a: ReadonlyQuat, b: ReadonlyQuat): Quat {
  const aw = a[0], ax = a[1], ay = a[2], az = a[3];
  const bw = b[0], bx = b[1], by = b[2], bz = b[3];
  out[0] = aw * bw - ax * bx - ay * by - az * bz;
  out[1] = aw * bx + ax * bw + ay * bz - az * by;
  out[2] = aw * by - ax * bz + ay * bw + az * bx;
  out[3] = aw * bz + ax * by - ay * bx + az * bw;
  return out;
}
export function conjugate(out: Quat, a: ReadonlyQuat): Quat {
  out[0] = a[0]; out[1] = -a[1]; out[2] = -a[2]; out[3] = -a[3]; return out;
}
/** The inverse rotation's quaternion, q̄/|q|², so q·q⁻¹ = 1 even off unit. */
export function invert(out: Quat, a: ReadonlyQuat): Quat {
  const n = squaredNorm(a);
  out[0] = a[0] / n; out[1] = -a[1] / n; out[2] = -a[2] / n; out[3] = -a[3] / n;
  return out;
}
export function normalize(out: Quat, a: ReadonlyQuat): Quat {
  const n = Math.hypot(a[0], a[1], a[2], a[3]);
  out[0] = a[0] / n; out[1] = a[1] / n; out[2] = a[2] / n; out[3] = a[3] / n;
  return out;
}
export function fromAxisAngle(out: Quat, axis: ReadonlyVec3, angle: number): Quat {
  const n = Math.hypot(axis[0], axis[1], axis[2]);
  const s = Math.sin(angle / 2) / n;
  out[0] = Math.cos(angle / 2); out[1] = axis[0] * s; out[2] = axis[1] * s; out[3] = axis[2] * s;
  return out;
}

/**
 * Rotate v by q: (q v q̄)/|q|², written as the rotation matrix's action so a non-unit q
 * costs one division. Reads v before writing out.
 */
export function rotate(out: Vec3, q: ReadonlyQuat, v: ReadonlyVec3, qOff = 0): Vec3 {
  const w = q[qOff], x = q[qOff + 1], y = q[qOff + 2], z = q[qOff + 3];
  const s = 2 / (w * w + x * x + y * y + z * z);
  const vx = v[0], vy = v[1], vz = v[2];
  // t = s·(q_v × v); v' = v + w t + q_v × t   (Rodrigues in quaternion form)
  const tx = s * (y * vz - z * vy), ty = s * (z * vx - x * vz), tz = s * (x * vy - y * vx);
  out[0] = vx + w * tx + (y * tz - z * ty);
  out[1] = vy + w * ty + (z * tx - x * tz);
  out[2] = vz + w * tz + (x * ty - y * tx);
  return out;
}
/** Rotate v by the inverse of q (read at q[qOff..qOff+4]). */
export function rotateInverse(out: Vec3, q: ReadonlyQuat, v: ReadonlyVec3, qOff = 0): Vec3 {
  const w = q[qOff], x = -q[qOff + 1], y = -q[qOff + 2], z = -q[qOff + 3];
  const s = 2 / (w * w + x * x + y * y + z * z);
  const vx = v[0], vy = v[1], vz = v[2];
  const tx = s * (y * vz - z * vy), ty = s * (z * vx - x * vz), tz = s * (x * vy - y * vx);
  out[0] = vx + w * tx + (y * tz - z * ty);
  out[1] = vy + w * ty + (z * tx - x * tz);
  out[2] = vz + w * tz + (x * ty - y * tx);
  return out;
}
/** Row-major 3×3 rotation matrix of q (divided by |q|²). */
export function toMatrix(out: Float64Array, q: ReadonlyQuat, offset = 0): Float64Array {
  const w = q[offset], x = q[offset + 1], y = q[offset + 2], z = q[offset + 3];
  const s = 2 / (w * w + x * x + y * y + z * z);
  const xx = x * x * s, yy = y * y * s, zz = z * z * s;
  const xy = x * y * s, xz = x * z * s, yz = y * z * s;
  const wx = w * x * s, wy = w * y * s, wz = w * z * s;
  out[0] = 1 - yy - zz; out[1] = xy - wz; out[2] = xz + wy;
  out[3] = xy + wz; out[4] = 1 - xx - zz; out[5] = yz - wx;
  out[6] = xz - wy; out[7] = yz + wx; out[8] = 1 - xx - yy;
  return out;
}
/**
 * The angle between the rotations of a and b in radians, in [0, π]; q and −q count as the
 * same rotation. Uses atan2 of the relative quaternion, accurate for tiny angles too.
 */
export function angleBetween(a: ReadonlyQuat, b: ReadonlyQuat): number {
  const aw = a[0], ax = -a[1], ay = -a[2], az = -a[3];
  const bw = b[0], bx = b[1], by = b[2], bz = b[3];
  const w = aw * bw - ax * bx - ay * by - az * bz;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  return 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w));
}
