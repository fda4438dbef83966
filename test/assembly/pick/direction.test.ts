/**
 * A direction chosen from data has a tie-break that noise cannot flip (seed 004): the
 * canonical direction's laws, and fitted axes of noisy meshes against the noiseless ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameOnAxis } from '../../../mates/entities.ts';
import { canonicalDirection } from '../../../src/assembly/geometry/pick/direction.ts';
import { PickIndex } from '../../../src/assembly/geometry/pick/pick.ts';
import { cylinderMesh, quatAbout, transformed } from './primitives.ts';

const direction = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((d) => Math.hypot(...d) > 0.1);

describe('canonical direction', () => {
  it('is the same for d and −d, and for its own result', () => {
    fc.assert(fc.property(direction, fc.double({ min: 1e-9, max: 1e-2, noNaN: true }), (d, tau) => {
      const a = canonicalDirection(d, tau);
      expect(canonicalDirection([-d[0], -d[1], -d[2]], tau)).toEqual(a);
      canonicalDirection(a, tau).forEach((v, k) => expect(v).toBeCloseTo(a[k], 14));
      expect(Math.hypot(...a)).toBeCloseTo(1, 12);
    }));
  });

  it('takes its sign from an orientation where one is given', () => {
    expect(canonicalDirection([0.1, 0, -1], 1e-9, [0, 0, 1])).toEqual([-0.1 / Math.hypot(0.1, 1), 0, 1 / Math.hypot(0.1, 1)]);
    expect(canonicalDirection([0.1, 0, -1], 1e-9)).toEqual([-0.1 / Math.hypot(0.1, 1), 0, 1 / Math.hypot(0.1, 1)]);
  });

  it('takes its sign from the largest component, so a hair of x the tolerance keeps or zeroes cannot flip it', () => {
    const d: [number, number, number] = [1.2e-6, -0.0998, 0.995];
    expect(canonicalDirection(d, 1e-9)[2]).toBeGreaterThan(0);
    expect(canonicalDirection(d, 1e-3)[2]).toBeGreaterThan(0);
    expect(canonicalDirection(d, 1e-9)[0]).toBeGreaterThan(0);
    expect(canonicalDirection(d, 1e-3)[0]).toBe(0);
  });

  it('sets components within the tolerance to exactly zero, whichever way the noise fell', () => {
    fc.assert(fc.property(fc.double({ min: -1e-4, max: 1e-4, noNaN: true }), fc.double({ min: -1e-4, max: 1e-4, noNaN: true }), fc.boolean(), (ex, ey, flip) => {
      const s = flip ? -1 : 1;
      expect(canonicalDirection([s * ex, s * ey, s], 1e-3)).toEqual([0, 0, 1]);
    }));
  });
});

describe('fitted axes under noise', () => {
  it('a noisy cylinder along z gives exactly +z, so a joint on it measures its angle from x at both ends', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.double({ min: 1e-7, max: 2e-2, noNaN: true }), (seed, amp) => {
      const mesh = transformed(cylinderMesh({ radius: 20, height: 60, segments: 32, faces: false }), [1, 0, 0, 0], [5, 6, 7], amp, seed);
      const r = new PickIndex(mesh).pick(3);
      if (r.entity.kind !== 'axis') throw new Error(`picked ${r.feature}`);
      expect(r.entity.axis.direction).toEqual([0, 0, 1]);
      const frame = frameOnAxis(r.entity.axis.origin, r.entity.axis.direction);
      if (frame.kind !== 'frame') throw new Error('no frame');
      expect(Array.from(frame.x)).toEqual([1, 0, 0]);
    }), { numRuns: 12 });
  });

  it('a noisy cylinder turned anywhere points its axis the way the noiseless one does', () => {
    fc.assert(fc.property(direction, fc.double({ min: 0.1, max: 3, noNaN: true }), fc.integer({ min: 1, max: 1_000_000 }), (axis, angle, seed) => {
      const q = quatAbout(axis, angle);
      const clean = new PickIndex(transformed(cylinderMesh({ radius: 20, height: 60, segments: 32, faces: false }), q, [0, 0, 0])).pick(3);
      const noisy = new PickIndex(transformed(cylinderMesh({ radius: 20, height: 60, segments: 32, faces: false }), q, [0, 0, 0], 1e-3, seed)).pick(3);
      if (clean.entity.kind !== 'axis' || noisy.entity.kind !== 'axis') throw new Error('not axes');
      const a = clean.entity.axis.direction, b = noisy.entity.axis.direction;
      expect(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]).toBeGreaterThan(0.9999);
    }), { numRuns: 12, examples: [[[0.0999999999924714, 0, 0.0000012270791839061487], 0.1, 1]] });
  });
});
