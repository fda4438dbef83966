/**
 * A capsule (a segment swept by a sphere) around each node of a flattened hierarchy, and
 * the distance of two segments: the closest-pair search's bound for long, round nodes. A
 * tube's length is boxed tightly by its oriented box only along the box's own axes; turned
 * against another tube (two wishbone arms a few degrees apart), the box's corners reach
 * millimetres nearer than the tube does, where a capsule around the tube's axis is exact
 * whatever the turn. The segment runs along the node's oriented box's longest axis through
 * its centre, as long as the box; the radius is the farthest triangle corner from it (a
 * triangle lies in the hull of its corners, and a capsule is convex).
 */

/** Per node, 7 numbers: the segment's ends p, q (xyz each), then the radius. */
export const CAPSULE = 7;

/** `obb` as obb.ts's nodeBoxes writes it (15 a node); `first`/`count` each node's triangles in `tri`. */
export function nodeCapsules(obb: Float64Array, first: Int32Array, count: Int32Array, tri: Float64Array): Float64Array {
  const nodes = first.length;
  const out = new Float64Array(CAPSULE * nodes);
  for (let i = 0; i < nodes; i++) {
    const o = 15 * i;
    // the longest axis
    let k = 0;
    if (obb[o + 13]! > obb[o + 12 + k]!) k = 1;
    if (obb[o + 14]! > obb[o + 12 + k]!) k = 2;
    const h = obb[o + 12 + k]!;
    const ax = obb[o + 3 + 3 * k]!, ay = obb[o + 4 + 3 * k]!, az = obb[o + 5 + 3 * k]!;
    const cx = obb[o]!, cy = obb[o + 1]!, cz = obb[o + 2]!;
    const px = cx - h * ax, py = cy - h * ay, pz = cz - h * az;
    let r2 = 0;
    for (let c = 9 * first[i]!, end = 9 * (first[i]! + count[i]!); c < end; c += 3) {
      // the corner's offset from the centre, less its part along the axis (clamped to the segment)
      const dx = tri[c]! - cx, dy = tri[c + 1]! - cy, dz = tri[c + 2]! - cz;
      let s = dx * ax + dy * ay + dz * az;
      s = s > h ? h : s < -h ? -h : s;
      const ex = dx - s * ax, ey = dy - s * ay, ez = dz - s * az;
      const d2 = ex * ex + ey * ey + ez * ez;
      if (d2 > r2) r2 = d2;
    }
    const b = CAPSULE * i;
    out[b] = px; out[b + 1] = py; out[b + 2] = pz;
    out[b + 3] = cx + h * ax; out[b + 4] = cy + h * ay; out[b + 5] = cz + h * az;
    // grown by a rounding's worth of the coordinates: the capsule must hold every corner
    out[b + 6] = Math.sqrt(r2) + 1e-12 * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + h + Math.sqrt(r2));
  }
  return out;
}

/**
 * A lower bound of the distance between segments p1–q1 and p2–q2 (coordinates as
 * numbers), equal to it but for rounding: the closest points by Ericson, Real-Time
 * Collision Detection §5.1.9, then the gap between the two segments' spans along the line
 * through those points. Any direction's gap bounds the distance from below, so parameters
 * a little off their best (near-parallel segments) only loosen it; along the true closest
 * points' line it is the distance.
 */
export function segmentDistance(
  p1x: number, p1y: number, p1z: number, q1x: number, q1y: number, q1z: number,
  p2x: number, p2y: number, p2z: number, q2x: number, q2y: number, q2z: number,
): number {
  const w = ends;
  w[0] = p1x; w[1] = p1y; w[2] = p1z; w[3] = q1x; w[4] = q1y; w[5] = q1z;
  w[6] = p2x; w[7] = p2y; w[8] = p2z; w[9] = q2x; w[10] = q2y; w[11] = q2z;
  segmentGap(w, 0, w, 6, w, 12);
  return w[12]!;
}
const ends = new Float64Array(13);

/**
 * segmentDistance of the segments at x[ox …] (p1, q1) and y[oy …] (p2, q2), into out[k]:
 * the closest-pair walk's form, as doubles passed to or returned from a call V8 does not
 * inline are each boxed.
 */
export function segmentGap(x: Float64Array, ox: number, y: Float64Array, oy: number, out: Float64Array, k: number): void {
  const p1x = x[ox]!, p1y = x[ox + 1]!, p1z = x[ox + 2]!, q1x = x[ox + 3]!, q1y = x[ox + 4]!, q1z = x[ox + 5]!;
  const p2x = y[oy]!, p2y = y[oy + 1]!, p2z = y[oy + 2]!, q2x = y[oy + 3]!, q2y = y[oy + 4]!, q2z = y[oy + 5]!;
  const d1x = q1x - p1x, d1y = q1y - p1y, d1z = q1z - p1z;
  const d2x = q2x - p2x, d2y = q2y - p2y, d2z = q2z - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z, e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz, c = d1x * rx + d1y * ry + d1z * rz;
  let s = 0, t = 0;
  if (a > 0 && e > 0) {
    const b = d1x * d2x + d1y * d2y + d1z * d2z;
    const denom = a * e - b * b;
    s = denom > 0 ? clamp((b * f - c * e) / denom) : 0;
    t = (b * s + f) / e;
    if (t < 0) { t = 0; s = clamp(-c / a); } else if (t > 1) { t = 1; s = clamp((b - c) / a); }
  } else if (a > 0) s = clamp(-c / a);
  else if (e > 0) t = clamp(f / e);
  // u: from the point on the first to the point on the second
  const ux = t * d2x - s * d1x - rx, uy = t * d2y - s * d1y - ry, uz = t * d2z - s * d1z - rz;
  const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (!(len > 0)) { out[k] = 0; return; }
  const hi1 = Math.max(ux * p1x + uy * p1y + uz * p1z, ux * q1x + uy * q1y + uz * q1z);
  const lo2 = Math.min(ux * p2x + uy * p2y + uz * p2z, ux * q2x + uy * q2y + uz * q2z);
  const slack = 1e-12 * (Math.abs(p1x) + Math.abs(p1y) + Math.abs(p1z) + Math.abs(q1x) + Math.abs(q1y) + Math.abs(q1z)
    + Math.abs(p2x) + Math.abs(p2y) + Math.abs(p2z) + Math.abs(q2x) + Math.abs(q2y) + Math.abs(q2z));
  out[k] = (lo2 - hi1) / len - slack;
}

function clamp(x: number): number { return x < 0 ? 0 : x > 1 ? 1 : x; }
