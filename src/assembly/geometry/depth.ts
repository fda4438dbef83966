/**
 * Overlap depth: the vertex of one part deepest inside another closed part (its distance
 * to that part's surface), and the inside test by ray parity it rests on.
 *
 * Only vertices that can be inside are looked at: the part's hierarchy is walked against
 * the closed part's box (a node whose box misses it holds no candidate), and a vertex is
 * measured only where it can beat the best so far, as a point inside a convex set is no
 * deeper in the solid than its distance to that set's boundary: the box's faces and the
 * 48-sided hull's planes bound its depth from above before any ray is cast.
 */
import { DoubleSide, Matrix4, Ray, Vector3, type Box3 } from 'three';
import type { MeshBVH } from 'three-mesh-bvh';
import type { FlatBVH } from './flat-bvh.ts';
import { nearestDistance } from './near-point.ts';

/** What the depth needs of a part (clearance.ts's ClearanceBody). */
export interface SolidBody {
  readonly closed: boolean;
  readonly box: Box3;
  readonly bvh: MeshBVH;
  readonly flat: FlatBVH;
  /** Each position once, in first-seen order: a vertex's index here names it on a tie. */
  readonly vertices: Float64Array;
  /** The vertices' extent (lo, hi) along each of HULL_DIRECTIONS, widened by a rounding's worth. */
  readonly hull: Float64Array;
  /** The vertices (indices into `vertices`) by hierarchy leaf: node i holds vertexOrder[vertexStart[i]] up to vertexEnd[i]. */
  readonly vertexOrder: Int32Array;
  readonly vertexStart: Int32Array;
  readonly vertexEnd: Int32Array;
}

/** 24 directions spread over the sphere (a Fibonacci lattice): with both ends, a 48-sided hull. */
const HULL_DIRECTIONS = (() => {
  const n = 24, out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const z = 1 - (2 * i + 1) / n, r = Math.sqrt(1 - z * z), phi = i * Math.PI * (3 - Math.sqrt(5));
    out[3 * i] = r * Math.cos(phi); out[3 * i + 1] = r * Math.sin(phi); out[3 * i + 2] = z;
  }
  return out;
})();

export function hullExtent(v: Float64Array): Float64Array {
  const out = new Float64Array(2 * HULL_DIRECTIONS.length / 3);
  for (let k = 0; k < out.length; k += 2) {
    const dx = HULL_DIRECTIONS[1.5 * k]!, dy = HULL_DIRECTIONS[1.5 * k + 1]!, dz = HULL_DIRECTIONS[1.5 * k + 2]!;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < v.length; i += 3) {
      const x = dx * v[i]! + dy * v[i + 1]! + dz * v[i + 2]!;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    // widened by a rounding's worth: a point on the hull is left to the ray
    const slack = 1e-9 * (1 + Math.abs(lo) + Math.abs(hi));
    out[k] = lo - slack; out[k + 1] = hi + slack;
  }
  return out;
}

/**
 * How far p (the body's frame) lies inside the body's box and hull: the smallest distance
 * to a face of either, negative when outside one. A point of the solid lies no deeper.
 */
function margin(body: SolidBody, p: Vector3): number {
  const b = body.box;
  let m = Math.min(p.x - b.min.x, b.max.x - p.x, p.y - b.min.y, b.max.y - p.y, p.z - b.min.z, b.max.z - p.z);
  if (m < 0) return m;
  const h = body.hull;
  for (let k = 0; k < h.length; k += 2) {
    const x = HULL_DIRECTIONS[1.5 * k]! * p.x + HULL_DIRECTIONS[1.5 * k + 1]! * p.y + HULL_DIRECTIONS[1.5 * k + 2]! * p.z;
    const g = x - h[k]! < h[k + 1]! - x ? x - h[k]! : h[k + 1]! - x;
    if (g < m) { m = g; if (m < 0) return m; }
  }
  return m;
}

const ray = new Ray();
// a direction off every axis and diagonal, so parity rays rarely graze an edge
const RAY_DIRECTION = new Vector3(0.5773, 0.5793, 0.5753).normalize();

/** Ray parity: hits at one distance counted once (shared edges). */
function rayInside(body: SolidBody, p: Vector3): boolean {
  ray.origin.copy(p);
  ray.direction.copy(RAY_DIRECTION);
  const hits = body.bvh.raycast(ray, DoubleSide);
  hits.sort((x, y) => x.distance - y.distance);
  let count = 0;
  let last = -Infinity;
  for (const h of hits) {
    if (h.distance - last > 1e-7) count++;
    last = h.distance;
  }
  return count % 2 === 1;
}

/** Is `p` (the body's frame) inside a closed body? Outside its box or hull is outside without a ray. */
export function isInside(body: SolidBody, p: Vector3): boolean {
  return body.closed && margin(body, p) >= 0 && rayInside(body, p);
}

export interface Deepest { depth: number; index: number; inner: Vector3; outer: Vector3 }

const v = new Vector3();
const nearest = { point: new Vector3(), distance: 0, faceIndex: 0 };
/** A vertex whose depth bound is this far (mm) under the best cannot tie it: far above the bounds' and depths' rounding. */
const BOUND_SLACK = 1e-6;

/** Pass 1's candidates: vertices inside, with their depth by nearestDistance (index, depth pairs). */
let found = new Float64Array(64);
let foundCount = 0;
/** Pass 1's deepest so far by nearestDistance. */
let rough = 0;

/**
 * Pass 1, vertex i of `a` carried into b's frame (into v): kept as a candidate when it may
 * be as deep as the deepest so far and is inside b.
 */
function visit(a: SolidBody, i: number, aToB: Matrix4, b: SolidBody): void {
  const p = a.vertices;
  v.set(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!).applyMatrix4(aToB);
  const m = margin(b, v);
  if (m < 0 || m < rough - BOUND_SLACK) return;
  // nearer the surface than the deepest so far: no deeper, whether inside or not
  const d = nearestDistance(b.flat, v.x, v.y, v.z, rough - BOUND_SLACK);
  if (d < rough - BOUND_SLACK || !rayInside(b, v)) return;
  if (2 * foundCount + 2 > found.length) { const f = new Float64Array(2 * found.length); f.set(found); found = f; }
  found[2 * foundCount] = i; found[2 * foundCount + 1] = d;
  foundCount++;
  if (d > rough) rough = d;
}

/** Pass 2: vertex i's depth in b by three-mesh-bvh's nearest point, kept when deeper, or as deep and first in a's order. */
function measure(a: SolidBody, i: number, aToB: Matrix4, b: SolidBody, best: Deepest): void {
  const p = a.vertices;
  v.set(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!).applyMatrix4(aToB);
  // the surface's distance, given up as soon as it is under the depth to beat (a hair
  // under it, so that a vertex as deep as the best is measured in full and can win a tie)
  b.bvh.closestPointToPoint(v, nearest, best.depth * (1 - 1e-12));
  if (nearest.distance < best.depth || (nearest.distance === best.depth && i > best.index)) return;
  best.depth = nearest.distance;
  best.index = i;
  best.inner.copy(v);
  best.outer.copy(nearest.point);
}

let stack = new Int32Array(64);
const e = new Float64Array(12);

/**
 * Can node i of `a` (its box carried by `e` into b's frame, grown a hair) hold a vertex
 * inside b's box at least `depth` from its faces? (A point that deep in the solid is.)
 */
function nodeMayHold(a: FlatBVH, i: number, b: Box3, depth: number): boolean {
  const box = a.box, o = 6 * i;
  const cx = box[o]!, cy = box[o + 1]!, cz = box[o + 2]!, hx = box[o + 3]!, hy = box[o + 4]!, hz = box[o + 5]!;
  for (let k = 0; k < 3; k++) {
    const c = e[3 * k]! * cx + e[3 * k + 1]! * cy + e[3 * k + 2]! * cz + e[9 + k]!;
    const r = Math.abs(e[3 * k]!) * hx + Math.abs(e[3 * k + 1]!) * hy + Math.abs(e[3 * k + 2]!) * hz;
    const lo = k === 0 ? b.min.x : k === 1 ? b.min.y : b.min.z, hi = k === 0 ? b.max.x : k === 1 ? b.max.y : b.max.z;
    const slack = 1e-9 * (1 + Math.abs(c) + r);
    // the node's span, widened, against the box's narrowed by the depth
    if (c + r + slack < lo + depth || c - r - slack > hi - depth) return false;
  }
  return true;
}

/**
 * The vertex of `a` deepest inside closed `b` (`aToB` maps a's frame to b's): its depth,
 * index and both points in b's frame. `first` (the last state's deepest) is measured
 * first: its depth, near the answer, rules out most other vertices by their bound alone.
 * The answer is the deepest, the first in a's order on a tie, whatever `first` is; none
 * (index −1, depth `floor`) where no vertex lies deeper than `floor`.
 */
export function deepestVertex(a: SolidBody, aToB: Matrix4, b: SolidBody, best: Deepest, first: number, floor = 0): void {
  best.depth = floor; best.index = -1;
  if (!b.closed) return;
  const n = a.vertices.length / 3;
  rough = floor; foundCount = 0;
  if (first >= 0 && first < n) visit(a, first, aToB, b);
  const t = aToB.elements; // column-major: row k of the rotation is t[k], t[k + 4], t[k + 8]
  for (let k = 0; k < 3; k++) { e[3 * k] = t[k]!; e[3 * k + 1] = t[k + 4]!; e[3 * k + 2] = t[k + 8]!; e[9 + k] = t[12 + k]!; }
  const tree = a.flat;
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const i = stack[--top]!;
    if (!nodeMayHold(tree, i, b.box, rough > BOUND_SLACK ? rough - BOUND_SLACK : 0)) continue;
    if (tree.right[i]! < 0) {
      for (let k = a.vertexStart[i]!; k < a.vertexEnd[i]!; k++) if (a.vertexOrder[k] !== first) visit(a, a.vertexOrder[k]!, aToB, b);
      continue;
    }
    if (top + 2 > stack.length) { const s = new Int32Array(2 * stack.length); s.set(stack); stack = s; }
    stack[top++] = tree.right[i]!;
    stack[top++] = i + 1;
  }
  // only those that may be the deepest or tie it (the two distances agree far inside BOUND_SLACK)
  for (let k = 0; k < foundCount; k++) if (found[2 * k + 1]! >= rough - BOUND_SLACK) measure(a, found[2 * k]!, aToB, b, best);
}

/**
 * The distinct vertices (indices into `vertices`, `rank` maps a welded position's first
 * index to its own) by leaf of the hierarchy, each under the first leaf that has it: a
 * node's vertices are then one run, inside its box. `index` is the hierarchy's own
 * triangle index (its order), `weld` each position's first equal one.
 */
export function vertexLayout(flat: FlatBVH, index: ArrayLike<number>, weld: Uint32Array, rank: Int32Array): { vertexOrder: Int32Array; vertexStart: Int32Array; vertexEnd: Int32Array } {
  const nodes = flat.right.length;
  const vertexStart = new Int32Array(nodes), vertexEnd = new Int32Array(nodes);
  const placed = new Uint8Array(rank.length);
  const order: number[] = [];
  for (let i = 0; i < nodes; i++) {
    vertexStart[i] = order.length;
    if (flat.right[i]! < 0) {
      for (let c = 3 * flat.first[i]!; c < 3 * (flat.first[i]! + flat.count[i]!); c++) {
        const d = rank[weld[index[c]!]!]!;
        if (!placed[d]) { placed[d] = 1; order.push(d); }
      }
    }
    vertexEnd[i] = order.length;
  }
  // an inner node's run: from its left child's start to its right child's end (children come later: walk back)
  for (let i = nodes - 1; i >= 0; i--) {
    if (flat.right[i]! < 0) continue;
    vertexStart[i] = vertexStart[i + 1]!;
    vertexEnd[i] = vertexEnd[flat.right[i]!]!;
  }
  return { vertexOrder: Int32Array.from(order), vertexStart, vertexEnd };
}
