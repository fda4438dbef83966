/**
 * Small exact-geometry helpers for the example generators: plain tuples in, plain tuples
 * out (so the numbers go into an AssemblyDoc as they are), no dependency on the kernel.
 */

export type V3 = [number, number, number];
/** A quaternion [w, x, y, z]. */
export type Q4 = [number, number, number, number];
/** A rotation as three orthonormal columns: where the local x, y, z axes point. */
export interface Axes { x: V3; y: V3; z: V3 }

export const DEG = Math.PI / 180;

export const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: V3, k: number): V3 => [a[0] * k, a[1] * k, a[2] * k];
export const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: V3): number => Math.hypot(a[0], a[1], a[2]);
export const unit = (a: V3): V3 => scale(a, 1 / norm(a));

export const IDENTITY: Q4 = [1, 0, 0, 0];

/** The quaternion of a turn by `angle` (rad) about `axis` (any length). */
export function axisAngle(axis: V3, angle: number): Q4 {
  const u = unit(axis), s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), u[0] * s, u[1] * s, u[2] * s];
}
/** A turn about world z. */
export const rotZ = (angle: number): Q4 => [Math.cos(angle / 2), 0, 0, Math.sin(angle / 2)];

/** Hamilton product a·b (b first, then a). */
export function qmul(a: Q4, b: Q4): Q4 {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}
export const qconj = (q: Q4): Q4 => [q[0], -q[1], -q[2], -q[3]];

/** Rotate v by unit q. */
export function rotate(q: Q4, v: V3): V3 {
  const [w, x, y, z] = q;
  const n = w * w + x * x + y * y + z * z, k = 2 / n;
  return [
    (1 - k * (y * y + z * z)) * v[0] + k * (x * y - w * z) * v[1] + k * (x * z + w * y) * v[2],
    k * (x * y + w * z) * v[0] + (1 - k * (x * x + z * z)) * v[1] + k * (y * z - w * x) * v[2],
    k * (x * z - w * y) * v[0] + k * (y * z + w * x) * v[1] + (1 - k * (x * x + y * y)) * v[2],
  ];
}

/** The columns of the rotation of q. */
export function axesOf(q: Q4): Axes {
  return { x: rotate(q, [1, 0, 0]), y: rotate(q, [0, 1, 0]), z: rotate(q, [0, 0, 1]) };
}

/** The unit quaternion (w ≥ 0) of the rotation whose columns are x, y, z (orthonormal, right-handed). */
export function quatFromAxes({ x, y, z }: Axes): Q4 {
  const m00 = x[0], m10 = x[1], m20 = x[2], m01 = y[0], m11 = y[1], m21 = y[2], m02 = z[0], m12 = z[1], m22 = z[2];
  const tr = m00 + m11 + m22;
  let q: Q4;
  if (tr > 0) {
    const s = 2 * Math.sqrt(1 + tr);
    q = [s / 4, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [(m21 - m12) / s, s / 4, (m01 + m10) / s, (m02 + m20) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m02 - m20) / s, (m01 + m10) / s, s / 4, (m12 + m21) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, s / 4];
  }
  const n = Math.hypot(q[0], q[1], q[2], q[3]) * (q[0] < 0 ? -1 : 1);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Axes with z along `z` and x along the part of `xHint` square to z. */
export function axesFromZX(z: V3, xHint: V3): Axes {
  const zz = unit(z);
  const x = unit(sub(xHint, scale(zz, dot(xHint, zz))));
  return { x, y: cross(zz, x), z: zz };
}

/** A rigid transform: p ↦ R(q) p + t. */
export interface Transform { q: Q4; t: V3 }
export const apply = (T: Transform, p: V3): V3 => add(rotate(T.q, p), T.t);
export const compose = (A: Transform, B: Transform): Transform => ({ q: qmul(A.q, B.q), t: apply(A, B.t) });
export const inverse = (A: Transform): Transform => {
  const qi = qconj(A.q);
  return { q: qi, t: scale(rotate(qi, A.t), -1) };
};

/** Round-off cleaning for numbers that are exactly zero in exact arithmetic (keeps files readable). */
export function clean(x: number, eps = 1e-15): number {
  return Math.abs(x) < eps ? 0 : x;
}
export const cleanV = (v: readonly number[]): V3 => [clean(v[0]), clean(v[1]), clean(v[2])];
export const cleanQ = (q: readonly number[]): Q4 => [clean(q[0]), clean(q[1]), clean(q[2]), clean(q[3])];

/** The smallest signed difference a − b of two angles (rad), in (−π, π]. */
export function angleDiff(a: number, b: number): number {
  return Math.atan2(Math.sin(a - b), Math.cos(a - b));
}
