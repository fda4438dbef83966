/**
 * Lower bounds of the distance between two hierarchy nodes (or triangles) for the
 * closest-pair walk (closest.ts), from numbers the walk has at hand: their spans along
 * three orthogonal axes, and their oriented boxes along the line through the boxes' centres.
 */
import type { FlatBVH } from './flat-bvh.ts';

/** Squared gap of two spans (lo, hi per axis) over three orthogonal axes, at oa in a and ob in b: a lower bound of the squared distance. */
export function frameGap2(a: Float64Array, oa: number, b: Float64Array, ob: number): number {
  let sum = 0;
  for (let k = 0; k < 6; k += 2) {
    const g = Math.max(b[ob + k]! - a[oa + k + 1]!, a[oa + k]! - b[ob + k + 1]!);
    if (g > 0) sum += g * g;
  }
  return sum;
}

/**
 * The gap between two nodes' oriented boxes along the line through their centres: a bound
 * that turns with each pair, where the spans along F's fixed axes lose what the pair's own
 * direction turns from n. `e`: B's pose in A's frame (rotation row-major, then translation).
 * Into out[k] (a double returned from a call V8 does not inline is boxed: a heap number per node pair).
 */
export function centreBound(A: FlatBVH, i: number, B: FlatBVH, j: number, e: Float64Array, out: Float64Array, k: number): void {
  const p = A.obb, q = B.obb, oa = 15 * i, ob = 15 * j;
  const x = q[ob]!, y = q[ob + 1]!, z = q[ob + 2]!;
  let dx = e[0]! * x + e[1]! * y + e[2]! * z + e[9]! - p[oa]!;
  let dy = e[3]! * x + e[4]! * y + e[5]! * z + e[10]! - p[oa + 1]!;
  let dz = e[6]! * x + e[7]! * y + e[8]! * z + e[11]! - p[oa + 2]!;
  const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(len > 0)) { out[k] = 0; return; }
  dx /= len; dy /= len; dz /= len;
  const ra = Math.abs(dx * p[oa + 3]! + dy * p[oa + 4]! + dz * p[oa + 5]!) * p[oa + 12]!
    + Math.abs(dx * p[oa + 6]! + dy * p[oa + 7]! + dz * p[oa + 8]!) * p[oa + 13]!
    + Math.abs(dx * p[oa + 9]! + dy * p[oa + 10]! + dz * p[oa + 11]!) * p[oa + 14]!;
  // the direction in B's frame: Rᵀd
  const bx = e[0]! * dx + e[3]! * dy + e[6]! * dz, by = e[1]! * dx + e[4]! * dy + e[7]! * dz, bz = e[2]! * dx + e[5]! * dy + e[8]! * dz;
  const rb = Math.abs(bx * q[ob + 3]! + by * q[ob + 4]! + bz * q[ob + 5]!) * q[ob + 12]!
    + Math.abs(bx * q[ob + 6]! + by * q[ob + 7]! + bz * q[ob + 8]!) * q[ob + 13]!
    + Math.abs(bx * q[ob + 9]! + by * q[ob + 10]! + bz * q[ob + 11]!) * q[ob + 14]!;
  out[k] = len - ra - rb;
}
