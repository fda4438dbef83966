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
import { BufferAttribute, BufferGeometry, Matrix4, Vector3, Box3 } from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import type { PartMesh } from './mesh.ts';
import { isClosedMesh, weldMap } from './closed.ts';
import { closestPair, closestResult, type ClosestResult } from './closest.ts';
import { flattenBVH, type FlatBVH } from './flat-bvh.ts';
import { deepestVertex, hullExtent, isInside, vertexLayout, type Deepest, type SolidBody } from './depth.ts';

export { isInside } from './depth.ts';

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
export class ClearanceBody implements SolidBody {
  readonly geometry: BufferGeometry;
  readonly bvh: MeshBVH;
  /** Closed meshes have an inside: containment and depth are measured against them. */
  readonly closed: boolean;
  readonly box: Box3;
  /** The BVH as flat arrays, for the closest-pair walk. */
  readonly flat: FlatBVH;
  /** Each position once (a mesh read from STL repeats a vertex per triangle, about six times), in first-seen order: the depth's candidates. */
  readonly vertices: Float64Array;
  /** The vertices' extent (lo, hi) along each of 24 directions (depth.ts): a point outside it is outside the convex hull, so not inside. */
  readonly hull: Float64Array;
  /** The vertices by leaf of the hierarchy (depth.ts's vertexLayout): the depth visits only leaves that meet the other part's box. */
  readonly vertexOrder: Int32Array;
  readonly vertexStart: Int32Array;
  readonly vertexEnd: Int32Array;

  constructor(readonly mesh: PartMesh) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(mesh.positions, 3));
    // the BVH reorders the index it is given: give it a copy, the mesh's triangle order (B-rep faces) stays
    geometry.setIndex(new BufferAttribute(new Uint32Array(mesh.indices), 1));
    this.bvh = new MeshBVH(geometry, { targetLeafSize: 4, strategy: SAH });
    geometry.boundsTree = this.bvh;
    geometry.computeBoundingBox();
    this.geometry = geometry;
    this.box = geometry.boundingBox!.clone();
    const weld = weldMap(mesh);
    this.closed = isClosedMesh(mesh, weld);
    const { vertices, rank } = distinctVertices(mesh.positions, weld);
    this.vertices = vertices;
    this.hull = hullExtent(vertices);
    this.flat = flattenBVH(this.bvh, mesh.indices);
    ({ vertexOrder: this.vertexOrder, vertexStart: this.vertexStart, vertexEnd: this.vertexEnd } = vertexLayout(this.flat, geometry.index!.array, weld, rank));
  }
}

/** Each position once, in first-seen order (the depth's candidates), and for each position's first index its place there. */
function distinctVertices(p: Float32Array, weld: Uint32Array): { vertices: Float64Array; rank: Int32Array } {
  const rank = new Int32Array(weld.length).fill(-1);
  let n = 0;
  for (let i = 0; i < weld.length; i++) if (weld[i] === i) rank[i] = n++;
  const out = new Float64Array(3 * n);
  for (let i = 0, k = 0; i < weld.length; i++) {
    if (weld[i] !== i) continue;
    out[k++] = p[3 * i]!; out[k++] = p[3 * i + 1]!; out[k++] = p[3 * i + 2]!;
  }
  return { vertices: out, rank };
}

// scratch, reused by every query (no allocation per state)
const mA = new Matrix4(), mB = new Matrix4(), bToA = new Matrix4(), aToB = new Matrix4(), inv = new Matrix4();
const v = new Vector3(), w = new Vector3(), probeA = new Vector3(), probeB = new Vector3();

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
      // b's vertices inside a (a's frame): only one deeper than a's deepest wins (a's on a tie)
      deepestVertex(b, bToA, a, deepBA, hint.deepest[1], deepAB.depth);
      hint.deepest[0] = deepAB.index; hint.deepest[1] = deepBA.index;
      if (deepAB.depth > 0 || deepBA.depth > 0) {
        if (deepBA.index < 0) {
          distance = -deepAB.depth;
          v.copy(deepAB.inner).applyMatrix4(mB);
          w.copy(deepAB.outer).applyMatrix4(mB);
        } else {
          distance = -deepBA.depth;
          v.copy(deepBA.outer).applyMatrix4(mA);
          w.copy(deepBA.inner).applyMatrix4(mA);
        }
      }
    }
  }
  result.distance = distance;
  result.a_point[0] = v.x; result.a_point[1] = v.y; result.a_point[2] = v.z;
  result.b_point[0] = w.x; result.b_point[1] = w.y; result.b_point[2] = w.z;
  result.touching = distance <= TOUCH_TOLERANCE;
  return result;
}
