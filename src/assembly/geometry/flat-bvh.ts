/**
 * A three-mesh-bvh hierarchy read once into flat arrays (through the library's public
 * `traverse`, depth first: a node's left child follows it), with each triangle's corners
 * in the hierarchy's order, so the closest-pair search (closest.ts) walks plain numbers:
 * no callbacks, no Box3 or triangle objects per visit.
 */
import type { MeshBVH } from 'three-mesh-bvh';
import { nodeBoxes } from './obb.ts';
import { nodeCapsules } from './capsule.ts';
import { ownSpans } from './spans.ts';
import { GeometryError } from './errors.ts';

export interface FlatBVH {
  /** Per node: centre xyz, half size xyz. */
  readonly box: Float64Array;
  /** Per node: its right child's index, or -1 for a leaf (the left child is the next node). */
  readonly right: Int32Array;
  /** Per node: its parent, or -1 for the root. */
  readonly parent: Int32Array;
  /** Per node: its first triangle and how many (BVH order; an inner node's are its leaves' together). */
  readonly first: Int32Array;
  readonly count: Int32Array;
  /** Per node: an oriented box (obb.ts), 15 numbers: centre, axes (rows), half sizes. */
  readonly obb: Float64Array;
  /** Per node: a capsule (capsule.ts), 7 numbers: the segment's ends, the radius. */
  readonly capsule: Float64Array;
  /** Per triangle (BVH order): the corners a, b, c, xyz each (9 numbers). */
  readonly tri: Float64Array;
  /** Per triangle: its unit normal and the normal's offset (n·a); zero for a flat triangle. */
  readonly plane: Float64Array;
  /** Per triangle (BVH order): its index in the mesh, which names ties whatever order the hierarchy keeps. */
  readonly order: Int32Array;
  /** Per node: the smallest mesh index (`order`) among its triangles, so a walk can tell a node pair that can only tie late from one that may win a tie. */
  readonly minOrder: Int32Array;
  /** Per leaf, its triangles' corners each once (xyz), from `leafCorner[i]` to `leafCorner[i + 1]` (in corners): a leaf's extent from half the points. */
  readonly corners: Float64Array;
  readonly leafCorner: Int32Array;
  readonly triangles: number;
  /** Per node and per triangle, its extent along the part's own axes (spans.ts: lo, hi per axis, 6 numbers). */
  readonly ownNode: Float64Array;
  readonly ownTri: Float64Array;
}

/** `meshIndex`: the mesh's own triangles (three vertex indices each), before the hierarchy reordered them. */
export function flattenBVH(bvh: MeshBVH, meshIndex: ArrayLike<number>): FlatBVH {
  const right: number[] = [];
  const first: number[] = [];
  const count: number[] = [];
  const innerAt: number[] = []; // per depth, the last inner node seen there: the parent of the next node one deeper
  bvh.traverse((depth: number, isLeaf: boolean, _bounds: ArrayLike<number>, offset: number, n?: number) => {
    const node = right.length;
    // depth first: a node right after its parent is the left child, any other the right one
    if (depth > 0 && innerAt[depth - 1]! !== node - 1) right[innerAt[depth - 1]!] = node;
    right.push(-1);
    first.push(isLeaf ? offset : 0);
    count.push(isLeaf ? n! : 0);
    if (!isLeaf) innerAt[depth] = node;
    return false;
  });
  return finish(bvh, right, first, count, meshIndex);
}

function finish(bvh: MeshBVH, right: number[], first: number[], count: number[], meshIndex: ArrayLike<number>): FlatBVH {
  const pos = bvh.geometry.attributes.position!.array;
  const idx = bvh.geometry.index!.array;
  const triangles = idx.length / 3;
  const tri = new Float64Array(9 * triangles);
  for (let t = 0; t < triangles; t++) {
    for (let k = 0; k < 3; k++) {
      const v = 3 * idx[3 * t + k]!;
      for (let c = 0; c < 3; c++) tri[9 * t + 3 * k + c] = pos[v + c]!;
    }
  }
  const firstOf = Int32Array.from(first), countOf = Int32Array.from(count), rightOf = Int32Array.from(right);
  // an inner node's range: from its left child's first to its right child's end (children come later: walk back)
  for (let i = rightOf.length - 1; i >= 0; i--) {
    if (rightOf[i]! < 0) continue;
    const r = rightOf[i]!;
    firstOf[i] = firstOf[i + 1]!;
    countOf[i] = firstOf[r]! + countOf[r]! - firstOf[i + 1]!;
  }
  const box = tightBoxes(rightOf, firstOf, countOf, tri);
  const obb = nodeBoxes(firstOf, countOf, tri);
  const parent = new Int32Array(rightOf.length).fill(-1);
  for (let i = 0; i < rightOf.length; i++) if (rightOf[i]! >= 0) { parent[i + 1] = i; parent[rightOf[i]!] = i; }
  const { corners, leafCorner } = leafCorners(rightOf, firstOf, countOf, tri);
  const order = meshOrder(idx, meshIndex);
  const flat: FlatBVH = {
    box, right: rightOf, parent, first: firstOf, count: countOf, obb, capsule: nodeCapsules(obb, firstOf, countOf, tri),
    tri, plane: planes(tri, triangles), order, minOrder: minOrders(rightOf, firstOf, countOf, order), corners, leafCorner, triangles,
    ownNode: new Float64Array(6 * rightOf.length), ownTri: new Float64Array(6 * triangles),
  };
  // (filled on the finished object: the span code then meets one shape of hierarchy only)
  ownSpans(flat, flat.ownNode, flat.ownTri);
  return flat;
}

/**
 * Per node its triangles' axis-aligned box, in doubles (centre, half size): the library's
 * boxes are stored as floats, rounded out by up to a float's ulp (6·10⁻⁸ of a coordinate,
 * some 10⁻⁵ mm at 700 mm), which left node pairs over two parallel faces bounded that much
 * under their distance, so opened, where the tie slack (closest.ts) is 10⁻¹² of it.
 */
function tightBoxes(right: Int32Array, first: Int32Array, count: Int32Array, tri: Float64Array): Float64Array {
  const lohi = new Float64Array(6 * right.length);
  for (let i = right.length - 1; i >= 0; i--) {
    const o = 6 * i;
    if (right[i]! >= 0) {
      const l = 6 * (i + 1), r = 6 * right[i]!;
      for (let k = 0; k < 3; k++) {
        lohi[o + k] = Math.min(lohi[l + k]!, lohi[r + k]!);
        lohi[o + 3 + k] = Math.max(lohi[l + 3 + k]!, lohi[r + 3 + k]!);
      }
      continue;
    }
    lohi.fill(Infinity, o, o + 3); lohi.fill(-Infinity, o + 3, o + 6);
    for (let c = 9 * first[i]!; c < 9 * (first[i]! + count[i]!); c += 3) {
      for (let k = 0; k < 3; k++) {
        if (tri[c + k]! < lohi[o + k]!) lohi[o + k] = tri[c + k]!;
        if (tri[c + k]! > lohi[o + 3 + k]!) lohi[o + 3 + k] = tri[c + k]!;
      }
    }
  }
  const out = new Float64Array(6 * right.length);
  for (let o = 0; o < out.length; o += 6) {
    for (let k = 0; k < 3; k++) {
      out[o + k] = (lohi[o + k]! + lohi[o + 3 + k]!) / 2;
      out[o + 3 + k] = (lohi[o + 3 + k]! - lohi[o + k]!) / 2;
    }
  }
  return out;
}

function planes(tri: Float64Array, triangles: number): Float64Array {
  const out = new Float64Array(4 * triangles);
  for (let t = 0; t < triangles; t++) {
    const o = 9 * t;
    const ux = tri[o + 3]! - tri[o]!, uy = tri[o + 4]! - tri[o + 1]!, uz = tri[o + 5]! - tri[o + 2]!;
    const vx = tri[o + 6]! - tri[o]!, vy = tri[o + 7]! - tri[o + 1]!, vz = tri[o + 8]! - tri[o + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0)) continue;
    out[4 * t] = nx / len; out[4 * t + 1] = ny / len; out[4 * t + 2] = nz / len;
    out[4 * t + 3] = (nx * tri[o]! + ny * tri[o + 1]! + nz * tri[o + 2]!) / len;
  }
  return out;
}

/** For each triangle of the hierarchy's index, the mesh triangle with the same three vertices (each used once). */
function meshOrder(idx: ArrayLike<number>, meshIndex: ArrayLike<number>): Int32Array {
  const triangles = idx.length / 3;
  // mesh triangles listed by their first vertex (a linked list per vertex)
  let vertices = 0;
  for (let k = 0; k < meshIndex.length; k++) if (meshIndex[k]! >= vertices) vertices = meshIndex[k]! + 1;
  const head = new Int32Array(vertices).fill(-1), next = new Int32Array(triangles), used = new Uint8Array(triangles);
  for (let t = triangles - 1; t >= 0; t--) { next[t] = head[meshIndex[3 * t]!]!; head[meshIndex[3 * t]!] = t; }
  const out = new Int32Array(triangles);
  for (let t = 0; t < triangles; t++) {
    let m = head[idx[3 * t]!]!;
    while (m >= 0 && (used[m] || meshIndex[3 * m + 1] !== idx[3 * t + 1] || meshIndex[3 * m + 2] !== idx[3 * t + 2])) m = next[m]!;
    if (m < 0) throw new GeometryError('flattenBVH', 'the hierarchy holds a triangle the mesh has not');
    used[m] = 1;
    out[t] = m;
  }
  return out;
}

/** Per node, the smallest mesh index among its triangles: a leaf's over its own, an inner node's its children's (children come later: walk back). */
function minOrders(right: Int32Array, first: Int32Array, count: Int32Array, order: Int32Array): Int32Array {
  const out = new Int32Array(right.length);
  for (let i = right.length - 1; i >= 0; i--) {
    if (right[i]! >= 0) { out[i] = Math.min(out[i + 1]!, out[right[i]!]!); continue; }
    let m = 0x7fffffff;
    for (let t = first[i]!; t < first[i]! + count[i]!; t++) if (order[t]! < m) m = order[t]!;
    out[i] = m;
  }
  return out;
}

/** Each leaf's distinct corners (equal coordinates once), in node order; an inner node has none. */
function leafCorners(right: Int32Array, first: Int32Array, count: Int32Array, tri: Float64Array): { corners: Float64Array; leafCorner: Int32Array } {
  const leafCorner = new Int32Array(right.length + 1);
  const out: number[] = [];
  for (let i = 0; i < right.length; i++) {
    leafCorner[i] = out.length / 3;
    if (right[i]! >= 0) continue;
    const start = out.length;
    for (let o = 9 * first[i]!; o < 9 * (first[i]! + count[i]!); o += 3) {
      let seen = false;
      for (let k = start; k < out.length && !seen; k += 3) seen = out[k] === tri[o] && out[k + 1] === tri[o + 1] && out[k + 2] === tri[o + 2];
      if (!seen) out.push(tri[o]!, tri[o + 1]!, tri[o + 2]!);
    }
  }
  leafCorner[right.length] = out.length / 3;
  return { corners: Float64Array.from(out), leafCorner };
}
