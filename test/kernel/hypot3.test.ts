import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hypot3 } from '../../kernel/vec3';

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
