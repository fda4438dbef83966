/**
 * The closest-pair search is exact: against a brute-force reference (every triangle pair
 * measured by three-mesh-bvh's own ExtendedTriangle) on small meshes at random poses, a
 * state after state walk reusing the hint included (fast-check). The triangle distance of
 * our own against the library's on random triangles, and against a dense sampling where
 * corners sit on a coarse grid (degenerate contacts, where the library's intersection test
 * reports crossings that are not there). The flattened hierarchy holds every triangle once,
 * each node's boxes hold its triangles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { ExtendedTriangle } from 'three-mesh-bvh';
import { boxMesh, cylinderMesh, gridBoxMesh, sphereMesh, torusMesh, type PartMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody } from '../../../src/assembly/geometry/clearance.ts';
import { closestPair, closestResult, closestStats, closestTuning } from '../../../src/assembly/geometry/closest.ts';
import { triangleDistance } from '../../../src/assembly/geometry/tri-distance.ts';
import type { FlatBVH } from '../../../src/assembly/geometry/flat-bvh.ts';

const triA = new ExtendedTriangle(), triB = new ExtendedTriangle();

function load(tri: ExtendedTriangle, s: ArrayLike<number>, o: number, m?: Matrix4): void {
  tri.a.set(s[o]!, s[o + 1]!, s[o + 2]!); tri.b.set(s[o + 3]!, s[o + 4]!, s[o + 5]!); tri.c.set(s[o + 6]!, s[o + 7]!, s[o + 8]!);
  if (m) { tri.a.applyMatrix4(m); tri.b.applyMatrix4(m); tri.c.applyMatrix4(m); }
  tri.needsUpdate = true;
}

/** Every triangle pair, B carried into A's frame. */
function bruteForce(a: FlatBVH, b: FlatBVH, bToA: Matrix4): number {
  let best = Infinity;
  for (let j = 0; j < b.triangles; j++) {
    load(triB, b.tri, 9 * j, bToA);
    for (let i = 0; i < a.triangles; i++) {
      load(triA, a.tri, 9 * i);
      best = Math.min(best, triA.distanceToTriangle(triB));
    }
  }
  return best;
}

const shapes: PartMesh[] = [
  sphereMesh(3, 8, 5),
  boxMesh([4, 2, 6]),
  cylinderMesh(1.5, 8, 8, 3),
  torusMesh(3, 1, 8, 5),
];
const bodies = shapes.map((m) => new ClearanceBody(m));

// unbiased numbers: fast-check leans to 0 and the ends, which would stack exact touching faces
const num = (min: number, max: number) => fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((x) => min + ((max - min) * x) / 1_000_000);
const pose = fc.record({
  t: fc.tuple(num(-9, 9), num(-9, 9), num(-9, 9)),
  q: fc.tuple(num(-1, 1), num(-1, 1), num(-1, 1), num(0.1, 1)),
});

function matrix(p: { t: number[]; q: number[] }): Matrix4 {
  const q = new Quaternion(p.q[0], p.q[1], p.q[2], p.q[3]).normalize();
  return new Matrix4().compose(new Vector3(...p.t), q, new Vector3(1, 1, 1));
}

describe('closest pair', () => {
  it('equals the brute-force minimum over every triangle pair, state after state with the hint carried (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.array(pose, { minLength: 1, maxLength: 4 }), (ia, ib, poses) => {
      const a = bodies[ia]!.flat, b = bodies[ib]!.flat;
      const hint = closestResult();
      for (const p of poses) {
        const m = matrix(p);
        closestPair(a, b, m, hint);
        expect(Math.abs(hint.distance - bruteForce(a, b, m))).toBeLessThan(1e-9);
        // the points are on their triangles and as far apart as the distance
        expect(Math.abs(hint.a.distanceTo(hint.b) - hint.distance)).toBeLessThan(1e-9);
        load(triA, a.tri, 9 * hint.triA);
        load(triB, b.tri, 9 * hint.triB, m);
        expect(Math.abs(triA.distanceToTriangle(triB) - hint.distance)).toBeLessThan(1e-9);
      }
    }), { numRuns: 30 });
  });

  it('a small step from the last state (the drag case) matches brute force too', () => {
    const a = bodies[2]!.flat, b = bodies[3]!.flat;
    const hint = closestResult();
    for (let k = 0; k < 12; k++) {
      const m = new Matrix4().compose(new Vector3(5 - 0.3 * k, 0.2 * k, 1), new Quaternion().setFromAxisAngle(new Vector3(0.3, 1, 0.2).normalize(), 0.07 * k), new Vector3(1, 1, 1));
      closestPair(a, b, m, hint);
      expect(Math.abs(hint.distance - bruteForce(a, b, m))).toBeLessThan(1e-9);
    }
  });
});

const defaults = { ...closestTuning };
afterEach(() => { Object.assign(closestTuning, defaults); });

describe('ties', () => {
  /** Every pair measured with B carried as the search carries it: the smallest distance, the first pair (A's triangle, then B's, in the meshes' order) on a tie. */
  function firstNearest(a: FlatBVH, b: FlatBVH, m: Matrix4): { d: number; ta: number; tb: number } {
    const e = m.elements, c = new Float64Array(9), pts = new Float64Array(6);
    let r = { d: Infinity, ta: -1, tb: -1 };
    for (let ta = 0; ta < a.triangles; ta++) {
      for (let tb = 0; tb < b.triangles; tb++) {
        for (let k = 0; k < 9; k += 3) {
          const x = b.tri[9 * tb + k]!, y = b.tri[9 * tb + k + 1]!, z = b.tri[9 * tb + k + 2]!;
          c[k] = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!;
          c[k + 1] = e[1]! * x + e[5]! * y + e[9]! * z + e[13]!;
          c[k + 2] = e[2]! * x + e[6]! * y + e[10]! * z + e[14]!;
        }
        const d = triangleDistance(a.tri, 9 * ta, c, 0, pts);
        if (d < r.d || (d === r.d && (a.order[ta]! < a.order[r.ta]! || (a.order[ta] === a.order[r.ta] && b.order[tb]! < b.order[r.tb]!)))) r = { d, ta, tb };
      }
    }
    return r;
  }

  it('two faces facing each other (every facing pair tied), exact (no tie slack): the same pair whatever pair the search starts from', () => {
    closestTuning.tieSlack = 0;
    // boxes of 2 × 2 quads a face, 3 apart across parallel faces: the facing corners are tied to the bit
    const a = new ClearanceBody(gridBoxMesh([4, 4, 4], 2)).flat, b = new ClearanceBody(gridBoxMesh([4, 4, 4], 2, [0, 0, 7])).flat;
    const m = new Matrix4();
    const want = firstNearest(a, b, m);
    expect(want.d).toBe(3);
    const found = new Set<string>();
    for (let ta = 0; ta < a.triangles; ta += 5) {
      for (let tb = 0; tb < b.triangles; tb += 7) {
        const hint = closestResult();
        hint.triA = ta; hint.triB = tb;
        closestPair(a, b, m, hint);
        found.add(`${hint.distance} ${hint.triA} ${hint.triB} ${hint.a.toArray()} ${hint.b.toArray()}`);
      }
    }
    const none = closestPair(a, b, m, closestResult());
    expect([...found]).toEqual([`${none.distance} ${none.triA} ${none.triB} ${none.a.toArray()} ${none.b.toArray()}`]);
    expect([none.distance, none.triA, none.triB]).toEqual([want.d, want.ta, want.tb]);
  });

  it('two tied faces, closestTuning.laterTies: measures a few of the tied triangle pairs, not each (a pair after the best in mesh order can only tie, and is skipped)', () => {
    // 6 × 6 quads a face: each of A's 72 facing triangles ties to the bit with B's facing ones (all measured before)
    const a = new ClearanceBody(gridBoxMesh([4, 4, 4], 6)).flat, b = new ClearanceBody(gridBoxMesh([4, 4, 4], 6, [0, 0, 7])).flat;
    const m = new Matrix4();
    const want = firstNearest(a, b, m);
    closestTuning.tieSlack = 0;
    closestTuning.laterTies = true;
    closestStats.triangleDistances = 0;
    const cold = closestPair(a, b, m, closestResult());
    expect([cold.distance, cold.triA, cold.triB]).toEqual([want.d, want.ta, want.tb]);
    expect(closestStats.triangleDistances).toBeLessThan(16);
    // again from its own answer and front, as the next state of a sweep
    closestStats.triangleDistances = 0;
    closestPair(a, b, m, cold);
    expect([cold.distance, cold.triA, cold.triB]).toEqual([want.d, want.ta, want.tb]);
    expect(closestStats.triangleDistances).toBeLessThan(4);
    closestTuning.laterTies = false;
  });

  it('near-ties (parallel faces, one turned on the other: equal but for rounding), with the default tie slack: a distance within 1e-12 of the smallest, few of them measured', () => {
    const a = new ClearanceBody(gridBoxMesh([40, 40, 4], 8)).flat, b = new ClearanceBody(gridBoxMesh([40, 40, 4], 8)).flat;
    const m = new Matrix4().compose(new Vector3(0.3, 0.1, 7), new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 0.4), new Vector3(1, 1, 1));
    const want = firstNearest(a, b, m);
    expect(Math.abs(want.d - 3)).toBeLessThan(1e-12);
    const measured = (slack: number) => {
      closestTuning.tieSlack = slack;
      closestStats.triangleDistances = 0;
      const r = closestPair(a, b, m, closestResult());
      return { d: r.distance, count: closestStats.triangleDistances };
    };
    const exact = measured(0), slack = measured(defaults.tieSlack);
    expect(defaults.tieSlack).toBeGreaterThan(0);
    expect(exact.d).toBe(want.d);
    expect(slack.d).toBeGreaterThanOrEqual(want.d);
    expect(slack.d - want.d).toBeLessThanOrEqual(1e-12 * want.d);
    expect(slack.count).toBeLessThan(exact.count / 4);
  });
});

describe('triangle distance', () => {
  const out = new Float64Array(6);
  // unbiased (fast-check's doubles lean to 0 and ±1, which makes most triangles flat)
  const coords = fc.array(fc.noBias(fc.integer({ min: -1_000_000, max: 1_000_000 })).map((x) => x / 1_000_000), { minLength: 18, maxLength: 18 });

  /** Twice the area of the triangle at o. */
  const area2 = (c: number[], o: number): number => {
    const u = [c[o + 3]! - c[o]!, c[o + 4]! - c[o + 1]!, c[o + 5]! - c[o + 2]!], v = [c[o + 6]! - c[o]!, c[o + 7]! - c[o + 1]!, c[o + 8]! - c[o + 2]!];
    return Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!);
  };

  it('equals the library\'s on random (not flat) triangles, the points that far apart (fast-check)', () => {
    fc.assert(fc.property(coords, (c) => {
      // the library's intersection test misreads flat triangles (the grid case below covers them)
      fc.pre(area2(c, 0) > 1e-3 && area2(c, 9) > 1e-3);
      load(triA, c, 0); load(triB, c, 9);
      const d = triangleDistance(c, 0, c, 9, out);
      expect(Math.abs(d - triA.distanceToTriangle(triB))).toBeLessThan(1e-9);
      expect(Math.abs(Math.hypot(out[3]! - out[0]!, out[4]! - out[1]!, out[5]! - out[2]!) - d)).toBeLessThan(1e-9);
    }), { numRuns: 2000 });
  });

  it('corners on a coarse grid (touching, coplanar, flat triangles): within a dense sampling\'s reach, never above it', () => {
    const sample = (t: number[]): number[][] => {
      const n = 12, r: number[][] = [];
      for (let i = 0; i <= n; i++) for (let j = 0; i + j <= n; j++) r.push([0, 1, 2].map((k) => t[k]! + (i / n) * (t[3 + k]! - t[k]!) + (j / n) * (t[6 + k]! - t[k]!)));
      return r;
    };
    fc.assert(fc.property(fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 18, maxLength: 18 }), (g) => {
      const c = g.map((x) => x / 2);
      const d = triangleDistance(c, 0, c, 9, out);
      let s = Infinity;
      const P = sample(c.slice(0, 9)), Q = sample(c.slice(9));
      for (const p of P) for (const q of Q) s = Math.min(s, Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!));
      // every point of a triangle is within (longest edge)/12 ≤ 2√3/12 of a sample: the true distance is in [s − 0.58, s]
      expect(d).toBeLessThanOrEqual(s + 1e-12);
      expect(d).toBeGreaterThanOrEqual(s - 0.58);
    }), { numRuns: 200 });
  });
});

describe('flattened hierarchy', () => {
  it('holds every triangle in one leaf, and each node\'s boxes hold its triangles\' corners', () => {
    const f = new ClearanceBody(torusMesh(3, 1, 16, 8)).flat;
    const seen = new Int32Array(f.triangles);
    let outside = 0;
    for (let i = 0; i < f.right.length; i++) {
      if (f.right[i]! < 0) for (let t = f.first[i]!; t < f.first[i]! + f.count[i]!; t++) seen[t]!++;
      for (let t = f.first[i]!; t < f.first[i]! + f.count[i]!; t++) {
        for (let k = 0; k < 9; k += 3) {
          const p = [f.tri[9 * t + k]!, f.tri[9 * t + k + 1]!, f.tri[9 * t + k + 2]!];
          for (let c = 0; c < 3; c++) if (Math.abs(p[c]! - f.box[6 * i + c]!) > f.box[6 * i + 3 + c]! + 1e-9) outside++;
          const o = 15 * i;
          for (let ax = 0; ax < 3; ax++) {
            let along = 0;
            for (let c = 0; c < 3; c++) along += (p[c]! - f.obb[o + c]!) * f.obb[o + 3 + 3 * ax + c]!;
            if (Math.abs(along) > f.obb[o + 12 + ax]! + 1e-9) outside++;
          }
        }
      }
    }
    expect(outside).toBe(0);
    expect([...seen].every((x) => x === 1)).toBe(true);
    // the axis-aligned boxes are their triangles' extents exactly, in doubles (not the library's float boxes, rounded out)
    const far = new ClearanceBody(gridBoxMesh([40, 40, 4], 8, [700.1, 300.3, 177.03])).flat;
    for (let i = 0; i < far.right.length; i++) {
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let t = far.first[i]!; t < far.first[i]! + far.count[i]!; t++) {
        for (let k = 0; k < 9; k++) { lo[k % 3] = Math.min(lo[k % 3]!, far.tri[9 * t + k]!); hi[k % 3] = Math.max(hi[k % 3]!, far.tri[9 * t + k]!); }
      }
      for (let c = 0; c < 3; c++) {
        expect(far.box[6 * i + c]! - far.box[6 * i + 3 + c]!).toBeCloseTo(lo[c]!, 12);
        expect(far.box[6 * i + c]! + far.box[6 * i + 3 + c]!).toBeCloseTo(hi[c]!, 12);
      }
    }
    // a leaf's corners: each corner of its triangles, once
    for (let i = 0; i < f.right.length; i++) {
      const listed = Array.from({ length: f.leafCorner[i + 1]! - f.leafCorner[i]! }, (_, k) => [...f.corners.subarray(3 * (f.leafCorner[i]! + k), 3 * (f.leafCorner[i]! + k) + 3)].join());
      if (f.right[i]! >= 0) { expect(listed).toEqual([]); continue; }
      const want = new Set<string>();
      for (let t = f.first[i]!; t < f.first[i]! + f.count[i]!; t++) for (let k = 0; k < 9; k += 3) want.add([...f.tri.subarray(9 * t + k, 9 * t + k + 3)].join());
      expect(listed.sort()).toEqual([...want].sort());
    }
  });
});

describe('mesh order', () => {
  it('names each hierarchy triangle by its triangle in the mesh', () => {
    const mesh = torusMesh(3, 1, 16, 8);
    const f = new ClearanceBody(mesh).flat;
    expect([...f.order].sort((x, y) => x - y)).toEqual([...Array(f.triangles).keys()]);
    for (let t = 0; t < f.triangles; t++) {
      const m = f.order[t]!;
      for (let k = 0; k < 3; k++) {
        const v = mesh.indices[3 * m + k]!;
        for (let c = 0; c < 3; c++) expect(f.tri[9 * t + 3 * k + c]).toBe(mesh.positions[3 * v + c]);
      }
    }
  });
});
