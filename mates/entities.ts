/**
 * Entities on a part, in the part's own frame: the things mates are stated between.
 * A frame's z axis is a joint's axis and its x axis the angle's reference.
 */
import { across, cross, normalize, vec3, type ReadonlyVec3 } from '../kernel/vec3';
import * as Q from '../kernel/quat';

export type Entity =
  | { kind: 'point'; point: ReadonlyVec3 }
  | { kind: 'frame'; origin: ReadonlyVec3; x: ReadonlyVec3; y: ReadonlyVec3; z: ReadonlyVec3 }
  | { kind: 'axis'; origin: ReadonlyVec3; direction: ReadonlyVec3 }
  | { kind: 'plane'; origin: ReadonlyVec3; normal: ReadonlyVec3 }
  | { kind: 'circle'; center: ReadonlyVec3; normal: ReadonlyVec3; radius: number }
  | { kind: 'curve'; curve: Curve };

export type EntityKind = Entity['kind'];

/** A frame from an origin and a rotation quaternion (not necessarily unit). */
export function frameEntity(origin: ReadonlyVec3, rotation: Readonly<ArrayLike<number>>): Entity {
  const x = Q.rotate(vec3(), rotation, [1, 0, 0]);
  const y = Q.rotate(vec3(), rotation, [0, 1, 0]);
  const z = Q.rotate(vec3(), rotation, [0, 0, 1]);
  return { kind: 'frame', origin: vec3(origin[0], origin[1], origin[2]), x, y, z };
}

/**
 * A frame on an axis: z along the direction, x the reference direction square to it,
 * chosen as the world axis the direction runs least along with a tie-break that noise
 * cannot flip (vec3.across) — so both ends of a joint choose alike.
 */
export function frameOnAxis(origin: ReadonlyVec3, direction: ReadonlyVec3): Entity {
  const z = normalize(vec3(), direction);
  const x = across(vec3(), z);
  const y = normalize(vec3(), cross(vec3(), z, x));
  return { kind: 'frame', origin: vec3(origin[0], origin[1], origin[2]), x, y, z };
}

/** Origin and direction of a line-like entity (axis, frame z, circle axis). */
export function lineOf(e: Entity): { origin: ReadonlyVec3; direction: ReadonlyVec3 } | null {
  switch (e.kind) {
    case 'axis': return { origin: e.origin, direction: normalize(vec3(), e.direction) };
    case 'frame': return { origin: e.origin, direction: e.z };
    case 'circle': return { origin: e.center, direction: normalize(vec3(), e.normal) };
    default: return null;
  }
}
/** Origin and unit normal of a plane-like entity (plane, frame xy plane, circle plane). */
export function planeOf(e: Entity): { origin: ReadonlyVec3; normal: ReadonlyVec3 } | null {
  switch (e.kind) {
    case 'plane': return { origin: e.origin, normal: normalize(vec3(), e.normal) };
    case 'frame': return { origin: e.origin, normal: e.z };
    case 'circle': return { origin: e.center, normal: normalize(vec3(), e.normal) };
    default: return null;
  }
}
/** The direction a parallel/perpendicular/angle mate compares: axis direction or plane normal. */
export function directionOf(e: Entity): ReadonlyVec3 | null {
  switch (e.kind) {
    case 'axis': return normalize(vec3(), e.direction);
    case 'plane': return normalize(vec3(), e.normal);
    case 'frame': return e.z;
    case 'circle': return normalize(vec3(), e.normal);
    default: return null;
  }
}
export function pointOf(e: Entity): ReadonlyVec3 | null {
  switch (e.kind) {
    case 'point': return e.point;
    case 'frame': return e.origin;
    case 'circle': return e.center;
    default: return null;
  }
}

/**
 * A curve through polyline vertices, parameterised by u: vertex i at u = i. Linear
 * between vertices, or a uniform Catmull–Rom spline (C¹, through every vertex) when
 * smooth. A closed curve wraps: u may grow without bound and the foot runs round and
 * round, across the seam as across any vertex. An open curve continues its end segments
 * beyond its ends (smoothly), and a path mate limits u to [0, last].
 */
export class Curve {
  readonly count: number;
  readonly points: Float64Array;
  /** Mean segment length: the length one unit of u stands for. */
  readonly segmentLength: number;
  constructor(points: readonly ReadonlyVec3[], readonly closed: boolean, readonly smooth: boolean) {
    this.count = points.length;
    this.points = new Float64Array(points.length * 3);
    points.forEach((p, i) => { this.points[3 * i] = p[0]; this.points[3 * i + 1] = p[1]; this.points[3 * i + 2] = p[2]; });
    let total = 0;
    const segments = closed ? this.count : this.count - 1;
    for (let i = 0; i < segments; i++) {
      const j = (i + 1) % this.count;
      total += Math.hypot(points[j][0] - points[i][0], points[j][1] - points[i][1], points[j][2] - points[i][2]);
    }
    this.segmentLength = segments > 0 ? total / segments : 1;
  }
  /** The parameter range of an open curve: [0, count − 1]; closed curves have none. */
  get lastParameter(): number {
    return this.closed ? this.count : this.count - 1;
  }
  private vertex(i: number, k: number): number {
    const n = this.count;
    if (this.closed) i = ((i % n) + n) % n;
    else if (i < 0) return 2 * this.points[k] - this.points[3 + k]; // reflect past the start
    else if (i >= n) return 2 * this.points[3 * (n - 1) + k] - this.points[3 * (n - 2) + k];
    return this.points[3 * i + k];
  }
  /** Position (out[0..2]), d/du (out[3..5]) and d²/du² (out[6..8]) at u; d³/du³ (out[9..11]) when out has room. */
  evaluate(out: Float64Array, u: number): Float64Array {
    const n = this.count;
    let i = Math.floor(u);
    if (!this.closed) i = Math.max(0, Math.min(n - 2, i));
    const t = u - i;
    for (let k = 0; k < 3; k++) {
      const p1 = this.vertex(i, k), p2 = this.vertex(i + 1, k);
      if (!this.smooth || n < 3) {
        out[k] = p1 + t * (p2 - p1);
        out[3 + k] = p2 - p1;
        out[6 + k] = 0;
        if (out.length >= 12) out[9 + k] = 0;
      } else {
        const p0 = this.vertex(i - 1, k), p3 = this.vertex(i + 2, k);
        const a = 2 * p1, b = p2 - p0, c = 2 * p0 - 5 * p1 + 4 * p2 - p3, d = -p0 + 3 * p1 - 3 * p2 + p3;
        out[k] = 0.5 * (a + t * (b + t * (c + t * d)));
        out[3 + k] = 0.5 * (b + t * (2 * c + t * 3 * d));
        out[6 + k] = c + 3 * d * t;
        if (out.length >= 12) out[9 + k] = 3 * d;
      }
    }
    return out;
  }
  /** The parameter of the vertex-polyline point nearest p (a seed for a foot parameter). */
  nearestParameter(p: ReadonlyVec3): number {
    let best = 0, bestD = Infinity;
    const segments = this.closed ? this.count : this.count - 1;
    const e = new Float64Array(9);
    for (let i = 0; i < segments; i++) {
      for (let s = 0; s <= 8; s++) {
        const u = i + s / 8;
        this.evaluate(e, u);
        const d = Math.hypot(e[0] - p[0], e[1] - p[1], e[2] - p[2]);
        if (d < bestD) { bestD = d; best = u; }
      }
    }
    // polish with Newton on (C(u) − p)·C'(u) = 0
    for (let it = 0; it < 20; it++) {
      this.evaluate(e, best);
      const g = (e[0] - p[0]) * e[3] + (e[1] - p[1]) * e[4] + (e[2] - p[2]) * e[5];
      const h = e[3] * e[3] + e[4] * e[4] + e[5] * e[5];
      if (!(h > 0)) break;
      const step = -g / h;
      best += Math.max(-0.5, Math.min(0.5, step));
      if (Math.abs(step) < 1e-14) break;
    }
    return best;
  }
}
