/**
 * The edge-gap bound (tri-gaps.ts, closest.ts): a triangle's gap off the other's plane and
 * beyond its edges, added in squares, is never above the two triangles' exact distance
 * (fast-check, flat and near-parallel pairs included), and on two parallel faces, one
 * turned on the other, it spares exact distances without changing the answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { gridBoxMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody } from '../../../src/assembly/geometry/clearance.ts';
import { closestPair, closestResult, closestStats, closestTuning } from '../../../src/assembly/geometry/closest.ts';
import { edgeGap2 } from '../../../src/assembly/geometry/tri-gaps.ts';
import { triangleDistance } from '../../../src/assembly/geometry/tri-distance.ts';

const defaults = { ...closestTuning };
afterEach(() => { Object.assign(closestTuning, defaults); });

/** Triangle p's unit normal (zero when flat), and c's gap off p's plane where c lies wholly on one side. */
function planeGap(p: number[], c: number[]): { n: number[]; gap: number } {
  const u = [p[3]! - p[0]!, p[4]! - p[1]!, p[5]! - p[2]!], v = [p[6]! - p[0]!, p[7]! - p[1]!, p[8]! - p[2]!];
  const x = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
  const len = Math.hypot(x[0]!, x[1]!, x[2]!);
  if (!(len > 0)) return { n: [0, 0, 0], gap: 0 };
  const n = x.map((t) => t / len);
  const s = [0, 3, 6].map((k) => n[0]! * (c[k]! - p[0]!) + n[1]! * (c[k + 1]! - p[1]!) + n[2]! * (c[k + 2]! - p[2]!));
  const gap = Math.min(...s) > 0 ? Math.min(...s) : Math.max(...s) < 0 ? -Math.max(...s) : 0;
  return { n, gap };
}

describe('edge-gap bound', () => {
  it('with the plane\'s gap, is never above the triangles\' distance (fast-check)', () => {
    const out = new Float64Array(6);
    const coords = fc.array(fc.noBias(fc.integer({ min: -1_000_000, max: 1_000_000 })).map((x) => x / 100_000), { minLength: 18, maxLength: 18 });
    fc.assert(fc.property(coords, fc.noBias(fc.integer({ min: 0, max: 1000 })), fc.boolean(), (c, shift, flat) => {
      const p = c.slice(0, 9);
      // the second triangle moved off along x, and half the time flattened onto a plane parallel to p's (z = const after p flattened too)
      const b = c.slice(9).map((v, k) => (k % 3 === 0 ? v + shift / 50 : v));
      if (flat) { p[2] = p[5] = p[8] = 0; b[2] = b[5] = b[8] = shift / 100; }
      const d = triangleDistance(p, 0, b, 0, out);
      const { n, gap } = planeGap(p, b);
      const bound = Math.sqrt(gap * gap + edgeGap2(p, 0, n[0]!, n[1]!, n[2]!, b, 0));
      expect(bound).toBeLessThanOrEqual(d + 1e-12 * (1 + d));
    }), { numRuns: 3000 });
  });

  it('spares exact distances on two parallel faces, one turned on the other, the answers unchanged', () => {
    const a = new ClearanceBody(gridBoxMesh([40, 40, 4], 12)).flat, b = new ClearanceBody(gridBoxMesh([40, 40, 4], 12)).flat;
    const run = (edges: boolean) => {
      closestTuning.edges = edges; closestTuning.laterTies = false; closestTuning.tieSlack = 0; // the exact walk: every tie measured
      const r = closestResult(), answers: string[] = [];
      let measured = 0;
      for (let k = 0; k < 4; k++) {
        closestStats.triangleDistances = 0;
        const m = new Matrix4().compose(new Vector3(0.5 * k, 0, 7), new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 0.4 + 0.01 * k), new Vector3(1, 1, 1));
        closestPair(a, b, m, r);
        measured += closestStats.triangleDistances;
        answers.push(`${r.distance} ${r.triA} ${r.triB} ${r.a.toArray()} ${r.b.toArray()}`);
      }
      return { measured, answers };
    };
    const without = run(false), withIt = run(true);
    expect(withIt.answers).toEqual(without.answers);
    expect(withIt.measured).toBeLessThan(0.8 * without.measured);
  });
});
