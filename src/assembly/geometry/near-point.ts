/**
 * A point's distance to the nearest triangle of a flattened hierarchy, in plain numbers,
 * stopping at the first triangle under a limit: the depth's filter (depth.ts), which rules
 * out a vertex as the deepest without a ray, and ranks the rest before three-mesh-bvh's
 * own nearest point is asked of the few that may win.
 */
import type { FlatBVH } from './flat-bvh.ts';

/** Squared distance from p to triangle t (corners at o in `tri`): the region tests of the closest point on a triangle. */
export function pointTriangleDistance2(px: number, py: number, pz: number, tri: ArrayLike<number>, o: number): number {
  const ax = tri[o]!, ay = tri[o + 1]!, az = tri[o + 2]!;
  const abx = tri[o + 3]! - ax, aby = tri[o + 4]! - ay, abz = tri[o + 5]! - az;
  const acx = tri[o + 6]! - ax, acy = tri[o + 7]! - ay, acz = tri[o + 8]! - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return apx * apx + apy * apy + apz * apz; // corner a
  const bpx = px - tri[o + 3]!, bpy = py - tri[o + 4]!, bpz = pz - tri[o + 5]!;
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return bpx * bpx + bpy * bpy + bpz * bpz; // corner b
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return to(apx, apy, apz, abx, aby, abz, d1 / (d1 - d3), 0, 0, 0, 0); // edge ab
  const cpx = px - tri[o + 6]!, cpy = py - tri[o + 7]!, cpz = pz - tri[o + 8]!;
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return cpx * cpx + cpy * cpy + cpz * cpz; // corner c
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return to(apx, apy, apz, acx, acy, acz, d2 / (d2 - d6), 0, 0, 0, 0); // edge ac
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    // edge bc, from b
    return to(bpx, bpy, bpz, tri[o + 6]! - tri[o + 3]!, tri[o + 7]! - tri[o + 4]!, tri[o + 8]! - tri[o + 5]!, (d4 - d3) / (d4 - d3 + (d5 - d6)), 0, 0, 0, 0);
  }
  const denom = 1 / (va + vb + vc);
  return to(apx, apy, apz, abx, aby, abz, vb * denom, acx, acy, acz, vc * denom); // inside the face
}

/** |w − s·e − t·f|²: from a corner's offset w to the point s·e + t·f along its edges. */
function to(wx: number, wy: number, wz: number, ex: number, ey: number, ez: number, s: number, fx: number, fy: number, fz: number, t: number): number {
  const x = wx - s * ex - t * fx, y = wy - s * ey - t * fy, z = wz - s * ez - t * fz;
  return x * x + y * y + z * z;
}

let stack = new Int32Array(64);

/**
 * The distance from (px, py, pz) (the tree's frame) to the nearest triangle of `tree`, or
 * as soon as one comes nearer than `stop`, that one's distance (under `stop`).
 */
export function nearestDistance(tree: FlatBVH, px: number, py: number, pz: number, stop: number): number {
  const stop2 = stop > 0 ? stop * stop : 0, box = tree.box;
  let best2 = Infinity, top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const i = stack[--top]!;
    const o = 6 * i;
    const gx = Math.abs(px - box[o]!) - box[o + 3]!, gy = Math.abs(py - box[o + 1]!) - box[o + 4]!, gz = Math.abs(pz - box[o + 2]!) - box[o + 5]!;
    const g2 = (gx > 0 ? gx * gx : 0) + (gy > 0 ? gy * gy : 0) + (gz > 0 ? gz * gz : 0);
    if (g2 >= best2) continue;
    const r = tree.right[i]!;
    if (r < 0) {
      for (let t = tree.first[i]!, end = t + tree.count[i]!; t < end; t++) {
        const d2 = pointTriangleDistance2(px, py, pz, tree.tri, 9 * t);
        if (d2 < best2) { best2 = d2; if (d2 < stop2) return Math.sqrt(d2); }
      }
      continue;
    }
    if (top + 2 > stack.length) { const s = new Int32Array(2 * stack.length); s.set(stack); stack = s; }
    // the nearer child on top
    const lc = 6 * (i + 1), rc = 6 * r;
    const dl = Math.abs(px - box[lc]!) - box[lc + 3]! + Math.abs(py - box[lc + 1]!) - box[lc + 4]! + Math.abs(pz - box[lc + 2]!) - box[lc + 5]!;
    const dr = Math.abs(px - box[rc]!) - box[rc + 3]! + Math.abs(py - box[rc + 1]!) - box[rc + 4]! + Math.abs(pz - box[rc + 2]!) - box[rc + 5]!;
    if (dl <= dr) { stack[top++] = r; stack[top++] = i + 1; } else { stack[top++] = i + 1; stack[top++] = r; }
  }
  return Math.sqrt(best2);
}
