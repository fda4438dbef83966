/**
 * The distance between two triangles in plain numbers (no vector objects): zero where an
 * edge of one crosses the other, else the smallest of the six corner-to-triangle and nine
 * edge-to-edge distances (the closest points of two disjoint triangles lie on one of those
 * features). Closest-point formulas after Ericson, Real-Time Collision Detection §5.1.
 */

/** (relative rounding)²: a side test this near zero is no side. */
const NOISE = 1e-24;
const q = new Float64Array(6); // scratch: a candidate pair of points
let bestD2 = Infinity;

/** Closest point of triangle (t at o) to point p: into q[3..5]. */
function pointTriangle(px: number, py: number, pz: number, t: ArrayLike<number>, o: number): void {
  const ax = t[o]!, ay = t[o + 1]!, az = t[o + 2]!;
  const abx = t[o + 3]! - ax, aby = t[o + 4]! - ay, abz = t[o + 5]! - az;
  const acx = t[o + 6]! - ax, acy = t[o + 7]! - ay, acz = t[o + 8]! - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return set3(ax, ay, az);
  const bpx = px - t[o + 3]!, bpy = py - t[o + 4]!, bpz = pz - t[o + 5]!;
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return set3(t[o + 3]!, t[o + 4]!, t[o + 5]!);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) { const v = d1 / (d1 - d3); return set3(ax + v * abx, ay + v * aby, az + v * abz); }
  const cpx = px - t[o + 6]!, cpy = py - t[o + 7]!, cpz = pz - t[o + 8]!;
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return set3(t[o + 6]!, t[o + 7]!, t[o + 8]!);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) { const w = d2 / (d2 - d6); return set3(ax + w * acx, ay + w * acy, az + w * acz); }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    const bx = t[o + 3]!, by = t[o + 4]!, bz = t[o + 5]!;
    return set3(bx + w * (t[o + 6]! - bx), by + w * (t[o + 7]! - by), bz + w * (t[o + 8]! - bz));
  }
  const denom = va + vb + vc;
  // a degenerate (flat) triangle: its edges, measured edge to edge, stand for it
  if (!(denom > 0)) return set3(NaN, NaN, NaN);
  const v = vb / denom, w = vc / denom;
  return set3(ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
}

function set3(x: number, y: number, z: number): void { q[3] = x; q[4] = y; q[5] = z; }

/** Closest points of segments p1–q1 and p2–q2 (corner indices into a and b): into q[0..2], q[3..5]. */
function segmentSegment(a: ArrayLike<number>, i1: number, j1: number, b: ArrayLike<number>, i2: number, j2: number): void {
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
  q[0] = p1x + d1x * s; q[1] = p1y + d1y * s; q[2] = p1z + d1z * s;
  q[3] = p2x + d2x * t; q[4] = p2y + d2y * t; q[5] = p2z + d2z * t;
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

function keep(out: Float64Array, swap: boolean): void {
  const dx = q[3]! - q[0]!, dy = q[4]! - q[1]!, dz = q[5]! - q[2]!;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (!(d2 < bestD2)) return;
  bestD2 = d2;
  if (swap) { out[0] = q[3]!; out[1] = q[4]!; out[2] = q[5]!; out[3] = q[0]!; out[4] = q[1]!; out[5] = q[2]!; }
  else out.set(q);
}

/**
 * Distance of triangle a (9 numbers at oa) and triangle b (at ob), in one frame; the
 * closest point on a into out[0..2], on b into out[3..5].
 */
export function triangleDistance(a: ArrayLike<number>, oa: number, b: ArrayLike<number>, ob: number, out: Float64Array): number {
  bestD2 = Infinity;
  for (let k = 0; k < 9; k += 3) {
    const k2 = k === 6 ? 0 : k + 3;
    if (segmentCrosses(a, oa + k, oa + k2, b, ob)) { out.set(q); return 0; }
    if (segmentCrosses(b, ob + k, ob + k2, a, oa)) { out.set(q); return 0; }
  }
  for (let k = 0; k < 9; k += 3) {
    q[0] = b[ob + k]!; q[1] = b[ob + k + 1]!; q[2] = b[ob + k + 2]!;
    pointTriangle(q[0]!, q[1]!, q[2]!, a, oa);
    keep(out, true); // q: (b's corner, the point on a)
    q[0] = a[oa + k]!; q[1] = a[oa + k + 1]!; q[2] = a[oa + k + 2]!;
    pointTriangle(q[0]!, q[1]!, q[2]!, b, ob);
    keep(out, false);
  }
  for (let i = 0; i < 9; i += 3) {
    for (let j = 0; j < 9; j += 3) {
      segmentSegment(a, oa + i, oa + (i === 6 ? 0 : i + 3), b, ob + j, ob + (j === 6 ? 0 : j + 3));
      keep(out, false);
    }
  }
  return Math.sqrt(bestD2);
}
