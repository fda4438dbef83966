/**
 * Clearance against closed forms: two spheres (pole facing pole, so the tessellation's
 * nearest points are its vertices), a sphere and a plane (a slab), overlap depth, a box
 * held whole inside another, and a box sliding past a box along a driven slider joint:
 * d(s) = √(gap² + max(0, |s| − (a + b))²).
 */
import { describe, expect, it } from 'vitest';
import { boxMesh, gridBoxMesh, sphereMesh, type PartMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody, isInside, pairClearance } from '../../../src/assembly/geometry/clearance.ts';
import { closestResult } from '../../../src/assembly/geometry/closest.ts';
import { ClearanceSet, chain, parsePairs, summarize, unjoinedPairs } from '../../../src/assembly/geometry/clearance-set.ts';
import { isClosedMesh } from '../../../src/assembly/geometry/closed.ts';
import { validateAssembly } from '../../../src/assembly/load.ts';
import { buildModel } from '../../../src/model/build.ts';
import { driveClearance, joinedPartPairs } from '../../../src/mechanics/clearance.ts';
import { Vector3 } from 'three';
import fc from 'fast-check';

const at = (x: number, y: number, z: number): number[] => [x, y, z, 1, 0, 0, 0];
const dist = (p: number[], q: number[]): number => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);

describe('clearance against closed forms', () => {
  const big = new ClearanceBody(sphereMesh(10, 48, 24));
  const small = new ClearanceBody(sphereMesh(4, 48, 24));

  it('two spheres apart: d − r1 − r2, the points on the line of centres', () => {
    for (const d of [14.5, 20, 57.25]) {
      const c = pairClearance(big, at(0, 0, 0), small, at(0, 0, d));
      expect(c.distance).toBeCloseTo(d - 14, 5);
      expect(c.a_point[2]).toBeCloseTo(10, 5);
      expect(c.b_point[2]).toBeCloseTo(d - 4, 5);
      expect(c.touching).toBe(false);
      expect(dist(c.a_point, c.b_point)).toBeCloseTo(c.distance, 9);
    }
  });

  it('two spheres overlapping: −(r1 + r2 − d), the depth of the deepest vertex', () => {
    for (const d of [13, 11.5]) {
      const c = pairClearance(big, at(0, 0, 0), small, at(0, 0, d));
      // the tessellated surfaces lie inside the spheres by at most r(1 − cos(π/24)): the depth is within that
      expect(c.distance).toBeLessThan(0);
      expect(Math.abs(c.distance + (14 - d))).toBeLessThan(10 * (1 - Math.cos(Math.PI / 24)));
      expect(c.touching).toBe(true);
    }
  });

  it('a sphere and a plane (a slab under it): h − r above, −(r − h) into it, touching at 0', () => {
    const slab = new ClearanceBody(gridBoxMesh([200, 200, 20], 4, [0, 0, -10])); // top face z = 0
    for (const h of [30, 10.005, 10]) {
      const c = pairClearance(big, at(0, 0, h), slab, at(0, 0, 0));
      expect(c.distance).toBeCloseTo(h - 10, 5);
      expect(c.b_point[2]).toBeCloseTo(0, 6);
      expect(c.touching).toBe(h - 10 <= 0.01);
    }
    const c = pairClearance(big, at(3, -2, 7), slab, at(0, 0, 0));
    expect(c.distance).toBeCloseTo(-3, 5); // the south pole 3 mm below the top face
    expect(c.a_point).toEqual([expect.closeTo(3, 5), expect.closeTo(-2, 5), expect.closeTo(-3, 5)]);
  });

  it('a part held whole inside a closed one overlaps though the surfaces never meet', () => {
    const shell = new ClearanceBody(boxMesh([100, 100, 100]));
    const inner = new ClearanceBody(boxMesh([10, 10, 10]));
    const c = pairClearance(shell, at(0, 0, 0), inner, at(30, 0, 0));
    // the inner box's vertices deepest inside are (25, ±5, ±5), 25 from the nearest face (x = 50):
    // as far as the box must move to come out
    expect(c.distance).toBeCloseTo(-25, 5);
    const apart = pairClearance(shell, at(0, 0, 0), inner, at(80, 0, 0));
    expect(apart.distance).toBeCloseTo(25, 5);
  });

  it('turned parts: poses with non-unit quaternions are normalised', () => {
    const q = Math.SQRT1_2 * 3; // a quarter turn about x, written 3 times too long: (x, y, z) → (x, −z, y)
    const c = pairClearance(big, [0, 0, 0, q, q, 0, 0], small, at(0, 25, 0));
    // the big sphere's south pole now faces +y, the small one's equator (a ring vertex on +y) faces it
    expect(c.distance).toBeCloseTo(25 - 10 - 4, 5);
    expect(c.a_point[1]).toBeCloseTo(10, 5);
  });

  it('inside by ray parity, on closed meshes only', () => {
    const box = new ClearanceBody(boxMesh([2, 2, 2]));
    expect(isInside(box, new Vector3(0.3, 0.2, -0.1))).toBe(true);
    expect(isInside(box, new Vector3(1.3, 0.2, -0.1))).toBe(false);
    const open: PartMesh = { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) };
    expect(isClosedMesh(open)).toBe(false);
    expect(isClosedMesh(sphereMesh(1, 12, 6))).toBe(true);
    expect(isClosedMesh(gridBoxMesh([1, 2, 3], 3))).toBe(true);
  });
});

/** The mesh as STL stores it: three vertices of its own per triangle. */
function unwelded(mesh: PartMesh): PartMesh {
  const positions = new Float32Array(3 * mesh.indices.length);
  mesh.indices.forEach((v, k) => positions.set(mesh.positions.subarray(3 * v, 3 * v + 3), 3 * k));
  return { positions, indices: Uint32Array.from(mesh.indices, (_, k) => k) };
}

describe('overlap depth on meshes read from STL (a vertex per triangle corner)', () => {
  it('each position is a depth candidate once, and the depth is the welded mesh\'s', () => {
    const box = new ClearanceBody(unwelded(boxMesh([20, 20, 20])));
    expect(box.vertices.length).toBe(3 * 8);
    const shell = new ClearanceBody(unwelded(sphereMesh(10, 24, 12)));
    const welded = pairClearance(new ClearanceBody(boxMesh([20, 20, 20])), at(0, 0, 0), new ClearanceBody(sphereMesh(10, 24, 12)), at(0, 0, 12));
    const c = pairClearance(box, at(0, 0, 0), shell, at(0, 0, 12));
    // the sphere's south pole 8 mm into the cube's top face (z = 10)
    expect(c.distance).toBeCloseTo(-8, 9);
    expect(c).toEqual(welded);
  });
});

describe('overlap depth from the last state\'s deepest vertex', () => {
  it('is the same deepest vertex whichever vertex the search starts from (ties to the first in order)', () => {
    // a box's four bottom corners 5 mm into a slab: tied to the bit, the first in the box's order wins
    const box = new ClearanceBody(boxMesh([10, 10, 10]));
    const slab = new ClearanceBody(gridBoxMesh([200, 200, 20], 4, [0, 0, -10]));
    const fresh = pairClearance(box, at(0, 0, 0), slab, at(0, 0, 0));
    expect(fresh.distance).toBeCloseTo(-5, 9);
    for (let first = -1; first < box.vertices.length / 3 + 1; first++) {
      const hint = closestResult();
      hint.deepest[0] = first;
      expect(pairClearance(box, at(0, 0, 0), slab, at(0, 0, 0), undefined, hint)).toEqual(fresh);
      expect(hint.deepest[0]).toBe(0); // corner 0, (−5, −5, −5), is the first of the four
    }
  });
});

describe('clearance over a drive', () => {
  // ground holds a 20 mm cube at its origin; the carriage slides along z (the slider's axis)
  // with a 10 mm cube 40 mm off in y: the gap between faces is 40 − 10 − 5 = 25
  const doc = validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { rail: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } } },
      carriage: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { rail: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } } },
    },
    mates: { s: { type: 'slider', a: 'ground.rail', b: 'carriage.rail' } },
    state: { 's.slide': 0 },
  });
  const meshes = new Map<string, PartMesh>([['ground', boxMesh([20, 20, 20])], ['carriage', boxMesh([10, 10, 10], [0, 40, 0])]]);

  it('the slider joins ground and carriage: no default pair; listed, the distance follows the slide', () => {
    expect(unjoinedPairs(['ground', 'carriage'], joinedPartPairs(doc))).toEqual([]);
    const set = new ClearanceSet(meshes, parsePairs('carriage:ground', ['ground', 'carriage']));
    const states = driveClearance(buildModel(doc), set, 's.slide', -60, 60, 24);
    expect(states).toHaveLength(25);
    for (const s of states) {
      const expected = Math.hypot(25, Math.max(0, Math.abs(s.value) - 15));
      expect(s.pairs!['ground:carriage']!.distance).toBeCloseTo(expected, 6);
    }
    const summary = summarize(states, set.pairs, 30);
    expect(summary['ground:carriage']!.min_distance).toBeCloseTo(25, 6);
    expect(Math.abs(states[summary['ground:carriage']!.state]!.value)).toBeLessThanOrEqual(15);
  });
});

describe('pairs', () => {
  it('are measured in a chain: every pair once, each after one sharing a part where one is left (fast-check)', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const all = unjoinedPairs(names, new Set());
    fc.assert(fc.property(fc.subarray(all, { minLength: 1 }), (pairs) => {
      const order = chain(pairs);
      expect([...order].sort((x, y) => x - y)).toEqual(pairs.map((_, i) => i));
      for (let k = 1; k < order.length; k++) {
        const last = pairs[order[k - 1]!]!, next = pairs[order[k]!]!;
        if (next.some((p) => last.includes(p))) continue;
        // no pair left after this one shares a part with the last
        expect(order.slice(k).some((i) => pairs[i]!.some((p) => last.includes(p)))).toBe(false);
      }
    }), { numRuns: 100 });
  });

  it('a set measures in its chain\'s order but answers in the listed order, each pair as alone', () => {
    const meshes = new Map<string, PartMesh>(['a', 'b', 'c'].map((n, i) => [n, boxMesh([2, 2, 2], [4 * i, 0, 0])]));
    const pairs = [['a', 'c'], ['b', 'c'], ['a', 'b']] as const;
    const set = new ClearanceSet(meshes, pairs);
    const got = set.measure(() => at(0, 0, 0));
    expect(Object.keys(got)).toEqual(['a:c', 'b:c', 'a:b']);
    for (const [x, y] of pairs) expect(got[`${x}:${y}`]).toEqual(new ClearanceSet(meshes, [[x, y]]).measure(() => at(0, 0, 0))[`${x}:${y}`]);
  });

  it('every pair no mate joins, in the listed order; --pairs checked', () => {
    expect(unjoinedPairs(['a', 'b', 'c'], new Set(['c:a']))).toEqual([['a', 'b'], ['b', 'c']]);
    expect(parsePairs('c:a, b:c', ['a', 'b', 'c'])).toEqual([['a', 'c'], ['b', 'c']]);
    expect(() => parsePairs('a:x', ['a', 'b'])).toThrow('--pairs: no part "x" with geometry; parts with geometry: a, b');
    expect(() => parsePairs('a-b', ['a', 'b'])).toThrow(/expected a:b pairs/);
  });

  it('summary: pairs under --min first, each at its smallest state', () => {
    const c = (d: number) => ({ distance: d, a_point: [0, 0, 0] as [number, number, number], b_point: [0, 0, d] as [number, number, number], touching: d <= 0.01 });
    const states = [{ index: 0, pairs: { 'a:b': c(5), 'a:c': c(50) } }, { index: 1, pairs: { 'a:b': c(7), 'a:c': c(2) } }];
    const s = summarize(states, [['a', 'b'], ['a', 'c']], 3);
    expect(Object.keys(s)).toEqual(['a:c', 'a:b']);
    expect(s['a:c']).toMatchObject({ min_distance: 2, state: 1 });
    expect(s['a:b']).toMatchObject({ min_distance: 5, state: 0 });
  });
});
