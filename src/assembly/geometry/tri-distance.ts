/**
 * The distance between two triangles in plain numbers (no vector objects): zero where an
 * edge of one crosses the other, else the smallest of the nine edge-to-edge distances and
 * of the six corners' distances to the other's face where they project inside it (the
 * closest points of two disjoint triangles lie on one of those features). Segment
 * formula after Ericson, Real-Time Collision Detection §5.1.9.
 */

/** (relative rounding)²: a side test this near zero is no side. */
const NOISE = 1e-24;
const q = new Float64Array(6); // scratch: a candidate pair of points
// the best squared distance so far, in a typed array: a module-level number would be a new heap number at every write
const bestD2 = new Float64Array(1);

/**
 * Where point p (s[ps …]) projects into triangle t (at o): that foot and p kept in `out` when nearer
 * than the best so far (p first, or with `swap` the foot first). Nothing where the foot
 * falls outside (then an edge holds the nearest point, and the edge-to-edge distances,
 * which include p's own edges, find it) or the triangle is flat. (The point by index, not
 * as three numbers: doubles passed to a call V8 does not inline are each boxed.)
 */
function pointTriangle(s: ArrayLike<number>, ps: number, t: ArrayLike<number>, o: number, out: Float64Array, swap: boolean): void {
  const px = s[ps]!, py = s[ps + 1]!, pz = s[ps + 2]!;
  const ax = t[o]!, ay = t[o + 1]!, az = t[o + 2]!;
  const e1x = t[o + 3]! - ax, e1y = t[o + 4]! - ay, e1z = t[o + 5]! - az;
  const e2x = t[o + 6]! - ax, e2y = t[o + 7]! - ay, e2z = t[o + 8]! - az;
  const wx = px - ax, wy = py - ay, wz = pz - az;
  const d00 = e1x * e1x + e1y * e1y + e1z * e1z, d01 = e1x * e2x + e1y * e2y + e1z * e2z, d11 = e2x * e2x + e2y * e2y + e2z * e2z;
  const d20 = wx * e1x + wy * e1y + wz * e1z, d21 = wx * e2x + wy * e2y + wz * e2z;
  const denom = d00 * d11 - d01 * d01;
  const v = (d11 * d20 - d01 * d21) / denom, w = (d00 * d21 - d01 * d20) / denom;
  if (!(denom > 0 && v >= 0 && w >= 0 && v + w <= 1)) return;
  const fx = ax + v * e1x + w * e2x, fy = ay + v * e1y + w * e2y, fz = az + v * e1z + w * e2z;
  const dx = fx - px, dy = fy - py, dz = fz - pz;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (!(d2 < bestD2[0]!)) return;
  bestD2[0] = d2;
  if (swap) { out[0] = fx; out[1] = fy; out[2] = fz; out[3] = px; out[4] = py; out[5] = pz; }
  else { out[0] = px; out[1] = py; out[2] = pz; out[3] = fx; out[4] = fy; out[5] = fz; }
}

/**
 * Closest points of segments p1–q1 and p2–q2 (corner indices into a and b): kept in `out`
 * (on a's, then on b's) when nearer than the best so far.
 */
function segmentSegment(a: ArrayLike<number>, i1: number, j1: number, b: ArrayLike<number>, i2: number, j2: number, out: Float64Array): void {
  const p1x = a[i1]!, p1y = a[i1 + 1]!, p1z = a[i1 + 2]!;
  const p2x = b[i2]!, p2y = b[i2 + 1]!, p2z = b[i2 + 2]!;
  const d1x = a[j1]! - p1x, d1y = a[j1 + 1]! - p1y, d1z = a[j1 + 2]! - p1z;
  const d2x = b[j2]! - p2x, d2y = b[j2 + 1]! - p2y, d2z = b[j2 + 2]! - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const A = d1x * d1x + d1y * d1y + d1z * d1z, E = d2x * d2x + d2y * d2y + d2z * d2z;
  const F = d2x * rx + d2y * ry + d2z * rz;
  let s: number, t: number;
  if (A <= 0 && E <= 0) { s = 0; t = 0; }
  else if (A <= 0) { s = 0; t = clamp(F / E); }
  else {
    const C = d1x * rx + d1y * ry + d1z * rz;
    if (E <= 0) { t = 0; s = clamp(-C / A); }
    else {
      const B = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = A * E - B * B;
      s = denom > 0 ? clamp((B * F - C * E) / denom) : 0;
      t = (B * s + F) / E;
      if (t < 0) { t = 0; s = clamp(-C / A); } else if (t > 1) { t = 1; s = clamp((B - C) / A); }
    }
  }
  const x0 = p1x + d1x * s, y0 = p1y + d1y * s, z0 = p1z + d1z * s;
  const x1 = p2x + d2x * t, y1 = p2y + d2y * t, z1 = p2z + d2z * t;
  const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (!(d2 < bestD2[0]!)) return;
  bestD2[0] = d2;
  out[0] = x0; out[1] = y0; out[2] = z0; out[3] = x1; out[4] = y1; out[5] = z1;
}

function clamp(x: number): number { return x < 0 ? 0 : x > 1 ? 1 : x; }

/**
 * Does segment i–j of `s` cross triangle `t` (at o), its ends strictly on both sides of the
 * plane? Writes the crossing to q[0..5]. An end on the plane, or a segment in it, is left
 * to the corner and edge distances, which are then zero themselves: only a clean crossing
 * is decided here, where the arithmetic is well conditioned.
 */
function segmentCrosses(s: ArrayLike<number>, i: number, j: number, t: ArrayLike<number>, o: number): boolean {
  const px = s[i]!, py = s[i + 1]!, pz = s[i + 2]!;
  const dx = s[j]! - px, dy = s[j + 1]! - py, dz = s[j + 2]! - pz;
  const ax = t[o]!, ay = t[o + 1]!, az = t[o + 2]!;
  const e1x = t[o + 3]! - ax, e1y = t[o + 4]! - ay, e1z = t[o + 5]! - az;
  const e2x = t[o + 6]! - ax, e2y = t[o + 7]! - ay, e2z = t[o + 8]! - az;
  const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const wx = px - ax, wy = py - ay, wz = pz - az;
  const s0 = wx * nx + wy * ny + wz * nz;
  const s1 = s0 + dx * nx + dy * ny + dz * nz;
  if (!(s0 * s1 < 0)) return false;
  // an end within rounding of the plane is on it (the corner and edge distances see it)
  const n2 = nx * nx + ny * ny + nz * nz;
  const w2 = wx * wx + wy * wy + wz * wz;
  const vx = wx + dx, vy = wy + dy, vz = wz + dz;
  if (s0 * s0 <= NOISE * n2 * w2 || s1 * s1 <= NOISE * n2 * (vx * vx + vy * vy + vz * vz)) return false;
  const denom = s0 - s1; // = −d·n
  const tt = s0 / denom;
  // the hit's barycentric coordinates by Cramer's rule: u = −e2·(d × w)/denom, v = e1·(d × w)/denom
  const ex = dy * wz - dz * wy, ey = dz * wx - dx * wz, ez = dx * wy - dy * wx; // d × w
  const u = -(e2x * ex + e2y * ey + e2z * ez) / denom;
  const v = (e1x * ex + e1y * ey + e1z * ez) / denom;
  if (!(v >= 0 && u >= 0 && u + v <= 1)) return false;
  q[0] = q[3] = px + tt * dx; q[1] = q[4] = py + tt * dy; q[2] = q[5] = pz + tt * dz;
  return true;
}

/**
 * Distance of triangle a (9 numbers at oa) and triangle b (at ob), in one frame; the
 * closest point on a into out[0..2], on b into out[3..5]. `apart`: the caller knows one
 * lies wholly on one side of the other's plane, so they cannot cross.
 */
export function triangleDistance(a: ArrayLike<number>, oa: number, b: ArrayLike<number>, ob: number, out: Float64Array, apart = false): number {
  bestD2[0] = Infinity;
  for (let k = 0; k < 9 && !apart; k += 3) {
    const k2 = k === 6 ? 0 : k + 3;
    if (segmentCrosses(a, oa + k, oa + k2, b, ob)) { out.set(q); return 0; }
    if (segmentCrosses(b, ob + k, ob + k2, a, oa)) { out.set(q); return 0; }
  }
  for (let k = 0; k < 9; k += 3) {
    pointTriangle(b, ob + k, a, oa, out, true); // (the point on a, b's corner)
    pointTriangle(a, oa + k, b, ob, out, false);
  }
  for (let i = 0; i < 9; i += 3) {
    for (let j = 0; j < 9; j += 3) {
      segmentSegment(a, oa + i, oa + (i === 6 ? 0 : i + 3), b, ob + j, ob + (j === 6 ? 0 : j + 3), out);
    }
  }
  return Math.sqrt(bestD2[0]!);
}
