/**
 * The walk from the last state's front (front.ts): its answer is the walk from the roots'
 * to the bit (distance, triangles, points) over a drag and over far jumps, the front holds
 * every pair of leaves exactly once after each walk (merged halves included), and a small
 * step from the last state opens fewer node pairs than a walk from the roots.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { cylinderMesh, sphereMesh, torusMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody } from '../../../src/assembly/geometry/clearance.ts';
import { closestPair, closestResult, closestStats, closestTuning, type ClosestResult } from '../../../src/assembly/geometry/closest.ts';
import type { FlatBVH } from '../../../src/assembly/geometry/flat-bvh.ts';

const defaults = { ...closestTuning };
afterEach(() => { Object.assign(closestTuning, defaults); });

const bodies = [sphereMesh(3, 10, 6), cylinderMesh(1, 9, 12, 6), torusMesh(3, 1, 12, 6)].map((m) => new ClearanceBody(m).flat);

const num = (min: number, max: number) => fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((x) => min + ((max - min) * x) / 1_000_000);

function pose(t: number[], axis: number[], angle: number): Matrix4 {
  return new Matrix4().compose(new Vector3(...t), new Quaternion().setFromAxisAngle(new Vector3(...axis).normalize(), angle), new Vector3(1, 1, 1));
}

function answer(r: ClosestResult): string {
  return `${r.distance} ${r.triA} ${r.triB} ${r.a.toArray()} ${r.b.toArray()}`;
}

/** Each leaf pair's count of front pairs above it (must be 1 each). */
function coverage(a: FlatBVH, b: FlatBVH, r: ClosestResult): Map<string, number> {
  const leaves = (t: FlatBVH, i: number): number[] => (t.right[i]! < 0 ? [i] : [...leaves(t, i + 1), ...leaves(t, t.right[i]!)]);
  const count = new Map<string, number>();
  for (const i of leaves(a, 0)) for (const j of leaves(b, 0)) count.set(`${i} ${j}`, 0);
  const f = r.front;
  for (let k = 0; k < f.size; k++) {
    for (const i of leaves(a, f.pairs[2 * k]!)) for (const j of leaves(b, f.pairs[2 * k + 1]!)) count.set(`${i} ${j}`, count.get(`${i} ${j}`)! + 1);
  }
  return count;
}

/**
 * Fast-check runs of drags (small steps) and now and then a far jump: at each state the walk
 * from the last front and the walk from the roots, handed to `check`; then every pair of
 * leaves held once by the front (a walk that started again on a turned F, or stopped at
 * touching surfaces, leaves none).
 */
function frontAgainstRoots(numRuns: number, check: (withFront: ClosestResult, fromRoots: ClosestResult) => void): void {
  const step = fc.record({ t: fc.tuple(num(-0.4, 0.4), num(-0.4, 0.4), num(-0.4, 0.4)), angle: num(-0.1, 0.1), jump: fc.integer({ min: 0, max: 5 }) });
  fc.assert(fc.property(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.array(step, { minLength: 2, maxLength: 8 }), (ia, ib, steps) => {
    const a = bodies[ia]!, b = bodies[ib]!;
    const withFront = closestResult(), fromRoots = closestResult();
    const t = [7, 1, 0.5];
    let angle = 0.3;
    for (const s of steps) {
      const far = s.jump === 0 ? 4 : 1;
      t[0]! += far * s.t[0]; t[1]! += far * s.t[1]; t[2]! += far * s.t[2]; angle += far * s.angle;
      const m = pose(t, [0.2, 1, 0.3], angle);
      closestTuning.front = true;
      closestPair(a, b, m, withFront);
      closestTuning.front = false;
      closestPair(a, b, m, fromRoots);
      check(withFront, fromRoots);
      if (withFront.front.size > 0) expect([...coverage(a, b, withFront).values()].every((c) => c === 1)).toBe(true);
    }
  }), { numRuns });
}

describe('walk from the last front', () => {
  it('gives the walk from the roots\' answer to the bit, state after state, drags and jumps, exact (no tie slack; fast-check)', () => {
    closestTuning.tieSlack = 0;
    frontAgainstRoots(30, (withFront, fromRoots) => expect(answer(withFront)).toBe(answer(fromRoots)));
  });

  it('with the default tie slack: the walk from the roots\' distance to within 1e-12 of it, every pair of leaves held once (fast-check)', () => {
    frontAgainstRoots(20, (withFront, fromRoots) => {
      expect(Math.abs(withFront.distance - fromRoots.distance)).toBeLessThanOrEqual(1e-12 * fromRoots.distance);
      expect(Math.abs(withFront.a.distanceTo(withFront.b) - withFront.distance)).toBeLessThan(1e-9);
    });
  });

  it('stays as small as a walk from the roots leaves it while the near spot moves round (its halves merge back up), every pair of leaves held once', () => {
    // a ball orbiting a torus: the near spot moves on, the fine pairs it leaves behind must merge
    const a = bodies[0]!, b = bodies[2]!, r = closestResult();
    for (let k = 0; k < 24; k++) {
      const m = pose([7.5 * Math.cos(0.25 * k), 7.5 * Math.sin(0.25 * k), 0.3], [0, 0, 1], 0.05);
      closestPair(a, b, m, r);
      const fresh = closestPair(a, b, m, closestResult());
      expect(r.front.size).toBeGreaterThan(0);
      expect(r.front.size).toBeLessThanOrEqual(1.1 * fresh.front.size + 2);
      expect([...coverage(a, b, r).values()].every((c) => c === 1)).toBe(true);
    }
  });

  it('opens fewer node pairs than a walk from the roots on a small step', () => {
    const a = new ClearanceBody(cylinderMesh(15, 400, 64, 16)).flat;
    closestTuning.tieSlack = 0; // exact: with the slack the start's bound prunes most of these convex tubes from the roots
    const work = (front: boolean): number => {
      closestTuning.front = front;
      const r = closestResult();
      closestPair(a, a, pose([280, 0, 0], [1, 0, 0], 0.07), r);
      closestStats.nodePairs = 0; closestStats.nodeBounds = 0;
      closestPair(a, a, pose([280, 0.5, 0.3], [1, 0, 0], 0.071), r);
      return closestStats.nodePairs + closestStats.nodeBounds;
    };
    expect(work(true)).toBeLessThan(0.7 * work(false));
  });
});
