/**
 * The triangle pairs' centroid-line bound (closest.ts): never above the exact distance of
 * the two triangles (fast-check), and on a finely tessellated tube by a torus it spares
 * exact distances without changing the answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { cylinderMesh, torusMesh } from '../../../src/assembly/geometry/index.ts';
import { ClearanceBody } from '../../../src/assembly/geometry/clearance.ts';
import { centroidGap, closestPair, closestResult, closestStats, closestTuning } from '../../../src/assembly/geometry/closest.ts';
import { triangleDistance } from '../../../src/assembly/geometry/tri-distance.ts';

afterEach(() => { closestTuning.centroid = true; });

describe('centroid-line bound', () => {
  it('is never above the triangles\' distance (fast-check)', () => {
    const out = new Float64Array(6);
    const coords = fc.array(fc.noBias(fc.integer({ min: -1_000_000, max: 1_000_000 })).map((x) => x / 100_000), { minLength: 18, maxLength: 18 });
    fc.assert(fc.property(coords, fc.noBias(fc.integer({ min: 0, max: 1000 })), (c, shift) => {
      // the second triangle moved off by up to 20 along x, so that many pairs are apart
      const b = c.slice(9).map((v, k) => (k % 3 === 0 ? v + shift / 50 : v));
      const d = triangleDistance(c, 0, b, 0, out);
      expect(centroidGap(c, 0, b, 0)).toBeLessThanOrEqual(d + 1e-12 * (1 + d));
    }), { numRuns: 3000 });
  });

  it('spares exact distances on a tube by a torus over a few steps (as a sweep), the answers unchanged', () => {
    // a tyre-like torus and an arm-like tube, 38 mm apart, the tube stepping by and turning
    const torus = new ClearanceBody(torusMesh(213, 100, 128, 48)).flat, tube = new ClearanceBody(cylinderMesh(15, 300, 128, 32)).flat;
    const run = (centroid: boolean) => {
      closestTuning.centroid = centroid;
      const r = closestResult(), answers: string[] = [];
      let measured = 0;
      for (let k = 0; k < 6; k++) {
        closestStats.triangleDistances = 0;
        const m = new Matrix4().compose(new Vector3(150, 3 * k, 140), new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0.3).normalize(), 1 + 0.01 * k), new Vector3(1, 1, 1));
        closestPair(torus, tube, m, r);
        if (k > 0) measured += closestStats.triangleDistances;
        answers.push(`${r.distance} ${r.triA} ${r.triB} ${r.a.toArray()} ${r.b.toArray()}`);
      }
      return { measured, answers };
    };
    const without = run(false), withIt = run(true);
    expect(withIt.answers).toEqual(without.answers);
    expect(withIt.measured).toBeLessThan(0.8 * without.measured);
  });
});
