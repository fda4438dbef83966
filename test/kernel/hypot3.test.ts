import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hypot3, hypot4 } from '../../kernel/vec3';

// hypot3 stands in for Math.hypot where rows must keep their bits (mates/exact-rows.ts): equal bit for bit, zeros' signs included
describe('hypot3', () => {
  it('is Math.hypot bit for bit on any three doubles', () => {
    fc.assert(fc.property(fc.double(), fc.double(), fc.double(), (x, y, z) => Object.is(hypot3(x, y, z), Math.hypot(x, y, z))), { numRuns: 20000 });
  });

  it('is Math.hypot bit for bit on nearly equal components of any scale (where the compensation matters)', () => {
    fc.assert(fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (x, i, j) => {
      const y = x * (1 + i * 2 ** -52), z = -x * (1 + j * 2 ** -50);
      return Object.is(hypot3(x, y, z), Math.hypot(x, y, z));
    }), { numRuns: 20000 });
  });

  it('keeps the special cases: an infinity over a NaN, NaN, zeros, the largest and the smallest doubles', () => {
    const cases: [number, number, number][] = [[Infinity, NaN, 1], [NaN, -Infinity, 0], [NaN, 1, 2], [0, -0, 0], [-0, -0, -0],
      [Number.MAX_VALUE, Number.MAX_VALUE, 1], [Number.MIN_VALUE, Number.MIN_VALUE, 0], [3, 4, 12], [1e-200, 1e200, 1]];
    for (const [x, y, z] of cases) expect(Object.is(hypot3(x, y, z), Math.hypot(x, y, z)), `${x}, ${y}, ${z}`).toBe(true);
  });
});

// hypot4 likewise, for pose.log's quaternion norm
describe('hypot4', () => {
  it('is Math.hypot bit for bit on any four doubles', () => {
    fc.assert(fc.property(fc.double(), fc.double(), fc.double(), fc.double(), (w, x, y, z) => Object.is(hypot4(w, x, y, z), Math.hypot(w, x, y, z))), { numRuns: 20000 });
  });

  it('is Math.hypot bit for bit on nearly unit quaternions and nearly equal components of any scale', () => {
    fc.assert(fc.property(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), (x, y, z) => {
      const w = Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z));
      return Object.is(hypot4(w, x, y, z), Math.hypot(w, x, y, z));
    }), { numRuns: 20000 });
    fc.assert(fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (w, i, j, k) => {
      const x = -w * (1 + i * 2 ** -52), y = w * (1 + j * 2 ** -51), z = w * (1 + k * 2 ** -50);
      return Object.is(hypot4(w, x, y, z), Math.hypot(w, x, y, z));
    }), { numRuns: 20000 });
  });

  it('keeps the special cases: an infinity over a NaN, NaN, zeros, the largest and the smallest doubles', () => {
    const cases: [number, number, number, number][] = [[1, Infinity, NaN, 1], [NaN, 2, -Infinity, 0], [0, NaN, 1, 2], [0, -0, 0, -0], [-0, -0, -0, -0],
      [Number.MAX_VALUE, Number.MAX_VALUE, 1, Number.MAX_VALUE], [Number.MIN_VALUE, 0, Number.MIN_VALUE, 0], [1, 2, 2, 4], [1e-200, 1e200, 1, -1e100]];
    for (const [w, x, y, z] of cases) expect(Object.is(hypot4(w, x, y, z), Math.hypot(w, x, y, z)), `${w}, ${x}, ${y}, ${z}`).toBe(true);
  });
});
