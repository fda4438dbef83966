/**
 * The overlap depth visits only the vertices that can win (leaves that meet the closed
 * part's box, bounds under the best so far, a plain-number nearest distance before the
 * library's): against a brute-force reference (every vertex, inside by ray parity, its
 * depth by three-mesh-bvh's nearest point, the first in order on a tie) at random poses,
 * from any starting vertex and with a floor. The point-to-triangle distance against the
 * library's Triangle; the nearest distance against every triangle.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Matrix4, Quaternion, Triangle, Vector3 } from 'three';
import { boxMesh, gridBoxMesh, sphereMesh, torusMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody, isInside } from '../../../src/assembly/geometry/clearance.ts';
import { deepestVertex, type Deepest } from '../../../src/assembly/geometry/depth.ts';
import { nearestDistance, pointTriangleDistance2 } from '../../../src/assembly/geometry/near-point.ts';

const num = (min: number, max: number) => fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((x) => min + ((max - min) * x) / 1_000_000);
const pose = fc.record({
  t: fc.tuple(num(-8, 8), num(-8, 8), num(-8, 8)),
  q: fc.tuple(num(-1, 1), num(-1, 1), num(-1, 1), num(0.1, 1)),
});
const matrix = (p: { t: number[]; q: number[] }): Matrix4 =>
  new Matrix4().compose(new Vector3(...p.t), new Quaternion(p.q[0], p.q[1], p.q[2], p.q[3]).normalize(), new Vector3(1, 1, 1));

/** Every vertex of `a`: the deepest inside `b`, the first in order on a tie, deeper than `floor`. */
function bruteForce(a: ClearanceBody, aToB: Matrix4, b: ClearanceBody, floor: number): { depth: number; index: number } {
  let depth = floor, index = -1;
  const p = new Vector3(), hit = { point: new Vector3(), distance: 0, faceIndex: 0 };
  for (let i = 0; i < a.vertices.length / 3; i++) {
    p.fromArray(a.vertices, 3 * i).applyMatrix4(aToB);
    if (!isInside(b, p)) continue;
    b.bvh.closestPointToPoint(p, hit);
    if (hit.distance > depth) { depth = hit.distance; index = i; }
  }
  return { depth, index };
}

const fresh = (): Deepest => ({ depth: 0, index: -1, inner: new Vector3(), outer: new Vector3() });

describe('overlap depth', () => {
  const bodies = [new ClearanceBody(sphereMesh(5, 16, 9)), new ClearanceBody(gridBoxMesh([8, 6, 4], 3)), new ClearanceBody(torusMesh(4, 1.5, 16, 8))];

  it('is the brute-force deepest vertex at random poses, from any start and above any floor', () => {
    fc.assert(fc.property(fc.nat(2), fc.nat(2), pose, fc.nat(200), num(0, 2), (i, j, p, first, floor) => {
      const a = bodies[i]!, b = bodies[j]!, aToB = matrix(p);
      const out = fresh();
      deepestVertex(a, aToB, b, out, first);
      expect({ depth: out.depth, index: out.index }).toEqual(bruteForce(a, aToB, b, 0));
      deepestVertex(a, aToB, b, out, first, floor);
      expect({ depth: out.depth, index: out.index }).toEqual(bruteForce(a, aToB, b, floor));
    }), { numRuns: 60 });
  });

  it('ties go to the first vertex in order: four corners of a box equally deep in a slab', () => {
    const box = new ClearanceBody(boxMesh([10, 10, 10])), slab = new ClearanceBody(gridBoxMesh([200, 200, 20], 4, [0, 0, -10]));
    const out = fresh();
    for (let first = -1; first < 9; first++) {
      deepestVertex(box, new Matrix4(), slab, out, first);
      expect(out.depth).toBeCloseTo(5, 12);
      expect(out.index).toBe(bruteForce(box, new Matrix4(), slab, 0).index);
    }
  });
});

describe('nearest distance in plain numbers', () => {
  const tri = new Triangle(), q = new Vector3();
  const point = fc.tuple(num(-3, 3), num(-3, 3), num(-3, 3));

  it('point to triangle: the library Triangle\'s closest point', () => {
    fc.assert(fc.property(fc.array(num(-2, 2), { minLength: 9, maxLength: 9 }), point, (c, [x, y, z]) => {
      tri.a.set(c[0]!, c[1]!, c[2]!); tri.b.set(c[3]!, c[4]!, c[5]!); tri.c.set(c[6]!, c[7]!, c[8]!);
      tri.closestPointToPoint(new Vector3(x, y, z), q);
      expect(Math.sqrt(pointTriangleDistance2(x, y, z, c, 0))).toBeCloseTo(q.distanceTo(new Vector3(x, y, z)), 9);
    }), { numRuns: 300 });
  });

  it('to a mesh: the smallest over every triangle, or one under the stop', () => {
    const body = new ClearanceBody(torusMesh(4, 1.5, 16, 8));
    const f = body.flat;
    fc.assert(fc.property(point, num(0, 3), ([x, y, z], stop) => {
      let best = Infinity;
      for (let t = 0; t < f.triangles; t++) best = Math.min(best, pointTriangleDistance2(x, y, z, f.tri, 9 * t));
      best = Math.sqrt(best);
      const d = nearestDistance(f, x, y, z, 0);
      expect(d).toBe(best);
      const s = nearestDistance(f, x, y, z, stop);
      if (best < stop) expect(s).toBeLessThan(stop);
      else expect(s).toBe(best);
    }), { numRuns: 100 });
  });
});
