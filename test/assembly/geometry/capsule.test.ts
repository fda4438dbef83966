/**
 * Capsule bounds (capsule.ts) and what they prune in the closest-pair walk: each node's
 * capsule holds its triangles' corners; the segment distance is a lower bound of the true
 * one and equal to it but for rounding (against a dense sampling and a fine ternary
 * search, fast-check); the walk with capsules on small meshes still equals brute force;
 * on two long tubes turned a few degrees apart (the wishbones' case) capsules leave far
 * fewer node pairs open than the boxes alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { boxMesh, cylinderMesh, sphereMesh, torusMesh, type PartMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody } from '../../../src/assembly/geometry/clearance.ts';
import { CAPSULE, segmentDistance } from '../../../src/assembly/geometry/capsule.ts';
import { closestPair, closestResult, closestStats, closestTuning } from '../../../src/assembly/geometry/closest.ts';
import { triangleDistance } from '../../../src/assembly/geometry/tri-distance.ts';
import type { FlatBVH } from '../../../src/assembly/geometry/flat-bvh.ts';

const defaults = { ...closestTuning };
afterEach(() => { Object.assign(closestTuning, defaults); });

const num = (min: number, max: number) => fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((x) => min + ((max - min) * x) / 1_000_000);
const point = fc.tuple(num(-5, 5), num(-5, 5), num(-5, 5));

/** Distance between segments by sampling one and projecting onto the other: an upper bound within the sampling's step. */
function sampledDistance(p1: number[], q1: number[], p2: number[], q2: number[]): number {
  const at = (p: number[], q: number[], s: number) => [0, 1, 2].map((k) => p[k]! + s * (q[k]! - p[k]!));
  const toSegment = (x: number[]) => {
    const d = [0, 1, 2].map((k) => q2[k]! - p2[k]!), l2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
    const t = l2 > 0 ? Math.min(1, Math.max(0, ((x[0]! - p2[0]!) * d[0]! + (x[1]! - p2[1]!) * d[1]! + (x[2]! - p2[2]!) * d[2]!) / l2)) : 0;
    const y = at(p2, q2, t);
    return Math.hypot(x[0]! - y[0]!, x[1]! - y[1]!, x[2]! - y[2]!);
  };
  // the distance from a point of the first to the second is convex along the first: a ternary search
  let lo = 0, hi = 1;
  for (let k = 0; k < 120; k++) {
    const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (toSegment(at(p1, q1, m1)) <= toSegment(at(p1, q1, m2))) hi = m2; else lo = m1;
  }
  return Math.min(toSegment(at(p1, q1, (lo + hi) / 2)), toSegment(p1), toSegment(q1));
}

describe('segment distance', () => {
  it('is never above the true distance and equals it but for rounding (fast-check)', () => {
    fc.assert(fc.property(point, point, point, point, (p1, q1, p2, q2) => {
      const d = segmentDistance(...p1, ...q1, ...p2, ...q2);
      const s = sampledDistance(p1, q1, p2, q2);
      expect(d).toBeLessThanOrEqual(s + 1e-12);
      expect(d).toBeGreaterThan(s - 1e-7);
    }), { numRuns: 600 });
  });

  it('stays a lower bound for parallel, near-parallel, crossing and point-like segments', () => {
    const cases: number[][][] = [
      [[0, 0, 0], [10, 0, 0], [2, 3, 0], [12, 3, 0]], // parallel, overlapping
      [[0, 0, 0], [10, 0, 0], [12, 3, 0], [20, 3, 0]], // parallel, apart along the line
      [[0, 0, 0], [300, 0, 0], [0, 270, 0], [300, 270 + 1e-7, 0]], // near-parallel, long
      [[0, 0, 0], [10, 0, 0], [5, -5, 0], [5, 5, 0]], // crossing
      [[1, 2, 3], [1, 2, 3], [4, 6, 3], [4, 6, 3]], // two points
      [[1, 2, 3], [1, 2, 3], [0, 0, 0], [10, 0, 0]], // a point and a segment
    ];
    for (const [p1, q1, p2, q2] of cases) {
      const d = segmentDistance(...(p1 as [number, number, number]), ...(q1 as [number, number, number]), ...(p2 as [number, number, number]), ...(q2 as [number, number, number]));
      const s = sampledDistance(p1!, q1!, p2!, q2!);
      expect(d).toBeLessThanOrEqual(s + 1e-12);
      expect(d).toBeGreaterThan(s - 1e-6);
    }
  });
});

describe('node capsules', () => {
  it('hold every corner of their nodes\' triangles (fast-check over meshes and tessellations)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 3, max: 24 }), fc.integer({ min: 1, max: 6 }), (kind, n, m) => {
      const mesh = [sphereMesh(3, n, m + 2), cylinderMesh(1.5, 20, n, m), torusMesh(3, 1, n, m + 2), boxMesh([4, 2, 6])][kind]!;
      const f = new ClearanceBody(mesh).flat;
      for (let i = 0; i < f.right.length; i++) {
        const c = CAPSULE * i;
        for (let t = f.first[i]!; t < f.first[i]! + f.count[i]!; t++) {
          for (let k = 0; k < 9; k += 3) {
            const x = f.tri[9 * t + k]!, y = f.tri[9 * t + k + 1]!, z = f.tri[9 * t + k + 2]!;
            const d = segmentDistance(x, y, z, x, y, z, f.capsule[c]!, f.capsule[c + 1]!, f.capsule[c + 2]!, f.capsule[c + 3]!, f.capsule[c + 4]!, f.capsule[c + 5]!);
            expect(d).toBeLessThanOrEqual(f.capsule[c + 6]!);
          }
        }
      }
    }), { numRuns: 12 });
  });

  it('around a whole tube: its axis, its radius', () => {
    const f = new ClearanceBody(cylinderMesh(15, 300, 64, 8)).flat;
    // the root's segment runs along z through the axis; its radius is the tube's (the caps' centres lie on the axis)
    expect(Math.hypot(f.capsule[0]!, f.capsule[1]!)).toBeLessThan(1e-6);
    expect(Math.hypot(f.capsule[3]!, f.capsule[4]!)).toBeLessThan(1e-6);
    expect(Math.abs(f.capsule[5]! - f.capsule[2]!)).toBeCloseTo(300, 6);
    expect(f.capsule[6]!).toBeCloseTo(15, 5);
  });
});

/** Every triangle pair, B carried into A's frame by m. */
function bruteForce(a: FlatBVH, b: FlatBVH, m: Matrix4): number {
  const e = m.elements, c = new Float64Array(9), pts = new Float64Array(6);
  let best = Infinity;
  for (let tb = 0; tb < b.triangles; tb++) {
    for (let k = 0; k < 9; k += 3) {
      const x = b.tri[9 * tb + k]!, y = b.tri[9 * tb + k + 1]!, z = b.tri[9 * tb + k + 2]!;
      c[k] = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!;
      c[k + 1] = e[1]! * x + e[5]! * y + e[9]! * z + e[13]!;
      c[k + 2] = e[2]! * x + e[6]! * y + e[10]! * z + e[14]!;
    }
    for (let ta = 0; ta < a.triangles; ta++) best = Math.min(best, triangleDistance(a.tri, 9 * ta, c, 0, pts));
  }
  return best;
}

describe('closest pair with capsules on every node pair', () => {
  const shapes: PartMesh[] = [sphereMesh(3, 8, 5), boxMesh([4, 2, 6]), cylinderMesh(1.5, 8, 8, 3), torusMesh(3, 1, 8, 5), cylinderMesh(0.5, 12, 6, 4)];
  const bodies = shapes.map((m) => new ClearanceBody(m).flat);
  const pose = fc.record({ t: fc.tuple(num(-9, 9), num(-9, 9), num(-9, 9)), q: fc.tuple(num(-1, 1), num(-1, 1), num(-1, 1), num(0.1, 1)) });

  it('equals brute force over random meshes and poses, state after state (fast-check)', () => {
    closestTuning.capsuleMin = 0;
    fc.assert(fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.array(pose, { minLength: 1, maxLength: 3 }), (ia, ib, poses) => {
      const hint = closestResult();
      for (const p of poses) {
        const m = new Matrix4().compose(new Vector3(...p.t), new Quaternion(p.q[0], p.q[1], p.q[2], p.q[3]).normalize(), new Vector3(1, 1, 1));
        closestPair(bodies[ia]!, bodies[ib]!, m, hint);
        expect(Math.abs(hint.distance - bruteForce(bodies[ia]!, bodies[ib]!, m))).toBeLessThan(1e-9);
      }
    }), { numRuns: 30 });
  });
});

describe('what capsules prune', () => {
  it('two long tubes a few degrees apart: far fewer node pairs opened than with the boxes alone, the same answer', () => {
    // two 400 mm arms of 15 mm radius, 280 mm apart, the second turned 4° about the line between them
    const tube = new ClearanceBody(cylinderMesh(15, 400, 128, 32)).flat;
    const m = new Matrix4().compose(new Vector3(280, 0, 0), new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), (4 * Math.PI) / 180), new Vector3(1, 1, 1));
    const run = (capsuleMin: number) => {
      closestTuning.capsuleMin = capsuleMin;
      closestTuning.front = false; // both walks from the roots (a walk from the last front opens few pairs either way)
      closestTuning.tieSlack = 0; // exact: with the slack the hint's bound prunes the roots of these two convex tubes at once
      const hint = closestResult();
      closestPair(tube, tube, m, hint); // a first state gives the hint, as a sweep's last state does
      closestStats.nodePairs = 0;
      closestPair(tube, tube, m, hint);
      return { pairs: closestStats.nodePairs, distance: hint.distance, ta: hint.triA, tb: hint.triB };
    };
    const without = run(Infinity), withCapsules = run(defaults.capsuleMin);
    expect(withCapsules.distance).toBe(without.distance);
    expect([withCapsules.ta, withCapsules.tb]).toEqual([without.ta, without.tb]);
    expect(withCapsules.pairs).toBeLessThan(0.6 * without.pairs);
  });
});
