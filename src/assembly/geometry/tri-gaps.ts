/**
 * Lower bounds of the distance of two triangles (9 numbers each, one frame) that cost far
 * less than measuring it (tri-distance.ts): the closest-pair walk (closest.ts) measures
 * only the pairs none of them rules out.
 *
 * The edge gap: two faces a gap apart across parallel planes (a flat cap under a flat
 * liner) tie along the planes' normal for every pair that faces, and the spans along fixed
 * axes see little of a pair that sits a few mm aside along a slant; the gap beyond an
 * edge, square to the normal, adds to the normal's gap in squares.
 */

/** Gap between a triangle and the other's plane, when all its corners lie on one side (else 0). */
export function sideGap(nx: number, ny: number, nz: number, off: number, s: Float64Array, o: number): number {
  const a = nx * s[o]! + ny * s[o + 1]! + nz * s[o + 2]! - off;
  const b = nx * s[o + 3]! + ny * s[o + 4]! + nz * s[o + 5]! - off;
  const c = nx * s[o + 6]! + ny * s[o + 7]! + nz * s[o + 8]! - off;
  if (a > 0 && b > 0 && c > 0) return Math.min(a, b, c);
  if (a < 0 && b < 0 && c < 0) return -Math.max(a, b, c);
  return 0;
}

/**
 * Lower bound of the distance of triangle p (9 numbers at o) to triangle c (at q), one
 * frame: the gap between their spans
 * along the line through their centroids. Two patches of curved surfaces a little past
 * the nearest pair sit side by side more than across: the line between them turns with
 * them, where F's n and the triangles' own planes do not.
 */
export function centroidGap(p: ArrayLike<number>, o: number, c: ArrayLike<number>, q: number): number {
  centroidGapTo(p, o, c, q, result, 0);
  return result[0]!;
}

/**
 * Results of the `…To` forms (and the wrappers' scratch): the closest-pair walk calls those,
 * as a double returned from a call V8 does not inline is boxed, a heap number per triangle pair.
 */
const result = new Float64Array(1);

/** centroidGap into out[k]. */
export function centroidGapTo(p: ArrayLike<number>, o: number, c: ArrayLike<number>, q: number, out: Float64Array, k: number): void {
  const ax = p[o]!, ay = p[o + 1]!, az = p[o + 2]!, bx = p[o + 3]!, by = p[o + 4]!, bz = p[o + 5]!, cx = p[o + 6]!, cy = p[o + 7]!, cz = p[o + 8]!;
  const ux = c[q]!, uy = c[q + 1]!, uz = c[q + 2]!, vx = c[q + 3]!, vy = c[q + 4]!, vz = c[q + 5]!, wx = c[q + 6]!, wy = c[q + 7]!, wz = c[q + 8]!;
  let dx = ux + vx + wx - ax - bx - cx, dy = uy + vy + wy - ay - by - cy, dz = uz + vz + wz - az - bz - cz;
  const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(len > 0)) { out[k] = 0; return; }
  dx /= len; dy /= len; dz /= len;
  const hi = Math.max(dx * ax + dy * ay + dz * az, dx * bx + dy * by + dz * bz, dx * cx + dy * cy + dz * cz);
  const lo = Math.min(dx * ux + dy * uy + dz * uz, dx * vx + dy * vy + dz * vz, dx * wx + dy * wy + dz * wz);
  out[k] = lo - hi;
}

/**
 * The largest squared gap between triangle c (9 numbers at q) and triangle p (at o) along
 * the normals of p's three edges within p's plane (unit normal nx, ny, nz); 0 where c
 * reaches over every edge's line or p is flat (a zero normal). Any point of c then lies at
 * least that far, square to the plane's normal, from any point of p. Returns as soon as
 * a gap over `stop` is found (enough to prune).
 */
export function edgeGap2(p: ArrayLike<number>, o: number, nx: number, ny: number, nz: number, c: ArrayLike<number>, q: number, stop = Infinity): number {
  edgeArgs[0] = nx; edgeArgs[1] = ny; edgeArgs[2] = nz; edgeArgs[3] = stop;
  edgeGap2To(p, o, c, q, edgeArgs);
  return edgeArgs[4]!;
}

/** edgeGap2To's numbers: in, the normal (nx, ny, nz) and `stop`; out, the squared gap. */
export const edgeArgs = new Float64Array(5);

/** edgeGap2 with its numbers in and its answer out through `args` (edgeArgs' layout). */
export function edgeGap2To(p: ArrayLike<number>, o: number, c: ArrayLike<number>, q: number, args: Float64Array): void {
  const nx = args[0]!, ny = args[1]!, nz = args[2]!, stop = args[3]!;
  let best = 0;
  for (let k = 0; k < 9; k += 3) {
    const k2 = k === 6 ? 0 : k + 3, k3 = k === 0 ? 6 : k - 3;
    const ax = p[o + k]!, ay = p[o + k + 1]!, az = p[o + k + 2]!;
    const ex = p[o + k2]! - ax, ey = p[o + k2 + 1]! - ay, ez = p[o + k2 + 2]! - az;
    // m = n × e: square to the edge, in the plane (|m| = |e| for a unit n square to e)
    const mx = ny * ez - nz * ey, my = nz * ex - nx * ez, mz = nx * ey - ny * ex;
    const edge = mx * ax + my * ay + mz * az;
    const third = mx * p[o + k3]! + my * p[o + k3 + 1]! + mz * p[o + k3 + 2]! - edge;
    const u = mx * c[q]! + my * c[q + 1]! + mz * c[q + 2]! - edge;
    const v = mx * c[q + 3]! + my * c[q + 4]! + mz * c[q + 5]! - edge;
    const w = mx * c[q + 6]! + my * c[q + 7]! + mz * c[q + 8]! - edge;
    // p lies on the third corner's side of the edge's line; c must lie wholly on the other
    const g = third > 0 ? -Math.max(u, v, w) : third < 0 ? Math.min(u, v, w) : 0;
    if (g <= 0) continue;
    const m2 = mx * mx + my * my + mz * mz;
    const g2 = (g * g) / m2;
    if (g2 > best) {
      best = g2;
      if (best > stop) break;
    }
  }
  args[4] = best;
}
