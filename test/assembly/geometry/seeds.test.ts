/**
 * The seed memory (seeds.ts): the state remembered at the pose nearest to this one, a far
 * move told from a drag's steps, one slot per pose, the oldest overwritten; and in the
 * closest-pair walk, a far move back to a pose seen before starts from that pose's answer:
 * far less work, and (exact rule) the same answer to the bit as without the memory.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { cylinderMesh, torusMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody } from '../../../src/assembly/geometry/clearance.ts';
import { closestPair, closestResult, closestStats, closestTuning } from '../../../src/assembly/geometry/closest.ts';
import { FAR_STEP, SEED_STATES, Seeds } from '../../../src/assembly/geometry/seeds.ts';

const defaults = { ...closestTuning };
afterEach(() => { Object.assign(closestTuning, defaults); });

/** A pose in the walk's layout: rotation about z by `angle` (row-major), then translation (x, 0, 0). */
function layout(x: number, angle = 0): Float64Array {
  const c = Math.cos(angle), s = Math.sin(angle);
  return Float64Array.from([c, -s, 0, s, c, 0, 0, 0, 1, x, 0, 0]);
}

describe('seed memory', () => {
  const a = new ClearanceBody(torusMesh(3, 1, 8, 4)).flat, b = new ClearanceBody(torusMesh(2, 1, 8, 4)).flat;
  const out = new Int32Array(2);

  it('finds the nearest remembered pose (translation plus turn times the reach), and tells a far move from the steps before it', () => {
    const seeds = new Seeds();
    for (let k = 0; k < 5; k++) {
      seeds.find(a, b, layout(10 + k), 2);
      expect(seeds.far).toBe(false);
      seeds.remember(layout(10 + k), k, 10 * k);
    }
    // a step like the others: not far
    seeds.find(a, b, layout(15), 2);
    expect(seeds.far).toBe(false);
    expect(seeds.lastMove).toBeCloseTo(1, 12);
    // back to the start: far (over FAR_STEP steps), the nearest remembered is the first
    seeds.find(a, b, layout(9.8), 2);
    expect(seeds.lastMove).toBeGreaterThan(FAR_STEP);
    expect(seeds.far).toBe(true);
    expect(seeds.pairOf(out)).toBe(true);
    expect([...out]).toEqual([0, 0]);
    expect(seeds.nearestMove).toBeCloseTo(0.2, 12);
    // a turn counts by the reach: 0.1 rad at reach 2 moves more than 0.15 along x
    seeds.find(a, b, layout(11.15, 0.1), 2);
    seeds.pairOf(out);
    expect([...out]).toEqual([1, 10]);
    seeds.find(a, b, layout(11.15, 0.1), 20);
    expect(seeds.nearestMove).toBeGreaterThan(1.15);
  });

  it('keeps one slot per pose, overwrites the oldest when full, and forgets all for other meshes', () => {
    const seeds = new Seeds();
    for (let k = 0; k < 3; k++) { seeds.find(a, b, layout(5), 1); seeds.remember(layout(5), k, k); }
    seeds.find(a, b, layout(5), 1);
    expect(seeds.nearestMove).toBe(0);
    expect(seeds.pairOf(out) && [...out]).toEqual([2, 2]);
    for (let k = 0; k < SEED_STATES; k++) { seeds.find(a, b, layout(100 + k), 1); seeds.remember(layout(100 + k), 7, 7); }
    seeds.find(a, b, layout(5), 1);
    expect(seeds.nearestMove).toBeCloseTo(95, 9); // pose 5 was the oldest: overwritten
    seeds.find(b, a, layout(5), 1);
    expect(seeds.pairOf(out)).toBe(false);
  });
});

describe('a far move back', () => {
  const torus = new ClearanceBody(torusMesh(60, 20, 96, 32)).flat, tube = new ClearanceBody(cylinderMesh(15, 400, 64, 16)).flat;
  // a drag of 5 mm steps along the tube, turning, then back to where it began
  const pose = (k: number) => new Matrix4().compose(new Vector3(110, 5 * k, 0), new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 0.03 * k), new Vector3(1, 1, 1));
  const run = (seeds: boolean, tieSlack: number) => {
    closestTuning.seeds = seeds; closestTuning.tieSlack = tieSlack;
    const r = closestResult();
    for (let k = 0; k <= 12; k++) closestPair(torus, tube, pose(k), r);
    closestStats.nodePairs = 0; closestStats.nodeBounds = 0;
    closestPair(torus, tube, pose(0), r);
    return { work: closestStats.nodePairs + closestStats.nodeBounds, distance: r.distance, answer: `${r.distance} ${r.triA} ${r.triB} ${r.a.toArray()} ${r.b.toArray()}` };
  };

  it('starts from the answer of the pose seen before, and from the roots: far fewer node pairs, the distance within the tie slack', () => {
    const without = run(false, defaults.tieSlack), withSeeds = run(true, defaults.tieSlack);
    expect(Math.abs(withSeeds.distance - without.distance)).toBeLessThanOrEqual(1e-12 * without.distance);
    expect(withSeeds.work).toBeLessThan(0.25 * without.work);
  });

  it('gives the same answer to the bit under the exact rule', () => {
    expect(run(true, 0).answer).toBe(run(false, 0).answer);
  });
});
