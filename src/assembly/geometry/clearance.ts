/**
 * Clearance between two posed parts on bounding-volume hierarchies (three-mesh-bvh).
 * Each part's BVH is built once, in the part's own frame; a state only changes the
 * relative transform handed to the query, so nothing is rebuilt per state.
 *
 * Distance: the BVH–BVH closest pair of points (triangle to triangle), exact for the
 * meshes. Overlap: where both surfaces meet (distance ≈ 0), or where one closed part holds
 * the other whole (a vertex inside by ray parity), the parts overlap; the penetration depth
 * is the deepest vertex of one part inside the other closed part (its distance to that
 * part's surface), reported as a negative distance with that vertex and its nearest surface
 * point. Only closed meshes have an inside: an open one (a liner sheet) can touch and cross
 * but never report a depth of its own.
 */
import { BufferAttribute, BufferGeometry, DoubleSide, Matrix4, Ray, Vector3, Box3 } from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import type { PartMesh } from './mesh.ts';
import { isClosedMesh, weldMap } from './closed.ts';
import { closestPair, closestResult, type ClosestResult } from './closest.ts';
import { flattenBVH, type FlatBVH } from './flat-bvh.ts';

/** A pose as the kernel stores it: [tx, ty, tz, qw, qx, qy, qz] (quaternion any non-zero length). */
export type PoseArray = Readonly<ArrayLike<number>>;

/** Distances at or below this (mm) count as touching. */
export const TOUCH_TOLERANCE = 0.01;

export interface PairClearance {
  /** mm; negative by the penetration depth where the parts overlap. */
  distance: number;
  /** World axes, mm: the closest (or deepest) point on the first part … */
  a_point: [number, number, number];
  /** … and on the second. */
  b_point: [number, number, number];
  /** distance ≤ TOUCH_TOLERANCE (overlap included). */
  touching: boolean;
}

/** A part's mesh with its BVH, built once. */
export class ClearanceBody {
  readonly geometry: BufferGeometry;
  readonly bvh: MeshBVH;
  /** Closed meshes have an inside: containment and depth are measured against them. */
  readonly closed: boolean;
  readonly box: Box3;
  /** The BVH as flat arrays, for the closest-pair walk. */
  readonly flat: FlatBVH;
  /** Each position once (a mesh read from STL repeats a vertex per triangle, about six times), in first-seen order: the depth's candidates. */
  readonly vertices: Float64Array;
  /** The vertices' extent (lo, hi) along each of HULL_DIRECTIONS: a point outside it is outside the convex hull, so not inside. */
  readonly hull: Float64Array;

  constructor(readonly mesh: PartMesh) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(mesh.positions, 3));
    // the BVH reorders the index it is given: give it a copy, the mesh's triangle order (B-rep faces) stays
    geometry.setIndex(new BufferAttribute(new Uint32Array(mesh.indices), 1));
    this.bvh = new MeshBVH(geometry, { targetLeafSize: 4 });
    geometry.boundsTree = this.bvh;
    geometry.computeBoundingBox();
    this.geometry = geometry;
    this.box = geometry.boundingBox!.clone();
    const weld = weldMap(mesh);
    this.closed = isClosedMesh(mesh, weld);
    this.vertices = distinctVertices(mesh.positions, weld);
    this.hull = hullExtent(this.vertices);
    this.flat = flattenBVH(this.bvh, mesh.indices);
  }
}

function distinctVertices(p: Float32Array, weld: Uint32Array): Float64Array {
  let n = 0;
  for (let i = 0; i < weld.length; i++) if (weld[i] === i) n++;
  const out = new Float64Array(3 * n);
  for (let i = 0, k = 0; i < weld.length; i++) {
    if (weld[i] !== i) continue;
    out[k++] = p[3 * i]!; out[k++] = p[3 * i + 1]!; out[k++] = p[3 * i + 2]!;
  }
  return out;
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

function hullExtent(v: Float64Array): Float64Array {
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

/** Is p (the body's frame) within the body's hull extent along every direction? */
function inHull(body: ClearanceBody, p: Vector3): boolean {
  const h = body.hull;
  for (let k = 0; k < h.length; k += 2) {
    const x = HULL_DIRECTIONS[1.5 * k]! * p.x + HULL_DIRECTIONS[1.5 * k + 1]! * p.y + HULL_DIRECTIONS[1.5 * k + 2]! * p.z;
    if (x < h[k]! || x > h[k + 1]!) return false;
  }
  return true;
}

// scratch, reused by every query (no allocation per state)
const mA = new Matrix4(), mB = new Matrix4(), bToA = new Matrix4(), aToB = new Matrix4(), inv = new Matrix4();
const v = new Vector3(), w = new Vector3(), probeA = new Vector3(), probeB = new Vector3();
const ray = new Ray();
// a direction off every axis and diagonal, so parity rays rarely graze an edge
const RAY_DIRECTION = new Vector3(0.5773, 0.5793, 0.5753).normalize();
const nearest = { point: new Vector3(), distance: 0, faceIndex: 0 };

/** The 4×4 matrix of a pose (quaternion normalised). */
export function poseMatrix(pose: PoseArray, out: Matrix4): Matrix4 {
  const n = Math.hypot(pose[3]!, pose[4]!, pose[5]!, pose[6]!);
  const qw = pose[3]! / n, qx = pose[4]! / n, qy = pose[5]! / n, qz = pose[6]! / n;
  return out.set(
    1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy), pose[0]!,
    2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx), pose[1]!,
    2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy), pose[2]!,
    0, 0, 0, 1,
  );
}

/** Is `p` (the body's frame) inside a closed body? Ray parity, hits at one distance counted once (shared edges). */
export function isInside(body: ClearanceBody, p: Vector3): boolean {
  // outside the box or the 48-sided hull is outside: no ray needed (most of what lies in a round part's box)
  if (!body.closed || !body.box.containsPoint(p) || !inHull(body, p)) return false;
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

interface Deepest { depth: number; index: number; inner: Vector3; outer: Vector3 }

/** Vertex i of `a` carried into b's frame (into v): is it inside closed b? */
function candidate(a: ClearanceBody, i: number, aToB: Matrix4, b: ClearanceBody): boolean {
  const p = a.vertices;
  v.set(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!).applyMatrix4(aToB);
  return isInside(b, v);
}

/** Vertex i's depth in b (v holds it, inside b): kept when deeper, or as deep and first in a's order. */
function measureDepth(b: ClearanceBody, i: number, best: Deepest): void {
  // the surface's distance, given up as soon as it is under the depth to beat (a hair
  // under it, so that a vertex as deep as the best is measured in full and can win a tie)
  b.bvh.closestPointToPoint(v, nearest, best.depth * (1 - 1e-12));
  if (nearest.distance < best.depth || (nearest.distance === best.depth && i > best.index)) return;
  best.depth = nearest.distance;
  best.index = i;
  best.inner.copy(v);
  best.outer.copy(nearest.point);
}

/**
 * The vertex of `a` deepest inside closed `b` (`aToB` maps a's frame to b's): its depth,
 * index and both points in b's frame. `first` (the last state's deepest) is measured
 * first: its depth, near the answer, lets every shallower vertex stop its distance search
 * at once. The answer is the deepest, the first in a's order on a tie, whatever `first` is.
 */
function deepestVertex(a: ClearanceBody, aToB: Matrix4, b: ClearanceBody, best: Deepest, first: number): void {
  best.depth = 0; best.index = -1;
  if (!b.closed) return;
  const n = a.vertices.length / 3;
  if (first >= 0 && first < n && candidate(a, first, aToB, b)) measureDepth(b, first, best);
  for (let i = 0; i < n; i++) if (i !== first && candidate(a, i, aToB, b)) measureDepth(b, i, best);
}

const deepAB: Deepest = { depth: 0, index: -1, inner: new Vector3(), outer: new Vector3() };
const deepBA: Deepest = { depth: 0, index: -1, inner: new Vector3(), outer: new Vector3() };

/**
 * Clearance of two posed bodies (poses in world axes, mm), into `out`. `hint` carries the
 * closest triangle pair from one call to the next (a sweep's states are near each other).
 */
export function pairClearance(a: ClearanceBody, poseA: PoseArray, b: ClearanceBody, poseB: PoseArray, out?: PairClearance, hint: ClosestResult = closestResult()): PairClearance {
  const result = out ?? { distance: 0, a_point: [0, 0, 0], b_point: [0, 0, 0], touching: false };
  poseMatrix(poseA, mA);
  poseMatrix(poseB, mB);
  bToA.copy(inv.copy(mA).invert()).multiply(mB);
  closestPair(a.flat, b.flat, bToA, hint);
  let distance = hint.distance;
  v.copy(hint.a).applyMatrix4(mA); // a's point, world
  w.copy(hint.b).applyMatrix4(mA); // b's point (found in a's frame), world
  if (a.closed || b.closed) {
    // crossing surfaces, or one held whole inside the other: measure how deep
    aToB.copy(bToA).invert();
    const crossing = distance <= TOUCH_TOLERANCE;
    if (crossing || isInside(b, probeA.fromArray(a.mesh.positions, 0).applyMatrix4(aToB)) || isInside(a, probeB.fromArray(b.mesh.positions, 0).applyMatrix4(bToA))) {
      deepestVertex(a, aToB, b, deepAB, hint.deepest[0]); // a's vertices inside b (b's frame)
      deepestVertex(b, bToA, a, deepBA, hint.deepest[1]); // b's vertices inside a (a's frame)
      hint.deepest[0] = deepAB.index; hint.deepest[1] = deepBA.index;
      if (deepAB.depth > 0 || deepBA.depth > 0) {
        if (deepAB.depth >= deepBA.depth) {
          distance = -deepAB.depth;
          v.copy(deepAB.inner).applyMatrix4(mB);
          w.copy(deepAB.outer).applyMatrix4(mB);
        } else {
          distance = -deepBA.depth;
          v.copy(deepBA.outer).applyMatrix4(mA);
          w.copy(deepBA.inner).applyMatrix4(mA);
        }
      } else {
        // deepestVertex used v as scratch: the closest points again
        v.copy(hint.a).applyMatrix4(mA);
        w.copy(hint.b).applyMatrix4(mA);
      }
    }
  }
  result.distance = distance;
  result.a_point[0] = v.x; result.a_point[1] = v.y; result.a_point[2] = v.z;
  result.b_point[0] = w.x; result.b_point[1] = w.y; result.b_point[2] = w.z;
  result.touching = distance <= TOUCH_TOLERANCE;
  return result;
}
