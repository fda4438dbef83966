import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hypotInto } from '../../mates/plain-values';

/** hypotInto's |u| (u[3]) of u[0..2]. */
function viaArray(x: number, y: number, z: number): number {
  const u = Float64Array.of(x, y, z, 12345);
  hypotInto(u);
  return u[3];
}

// hypotInto stands in for hypot3 (Math.hypot's bits) where the passes by hand must keep the dual pass's bits, with nothing passed or returned
describe('hypotInto', () => {
  it('is Math.hypot bit for bit on any three doubles, and leaves u[0..2] as they were', () => {
    fc.assert(fc.property(fc.double(), fc.double(), fc.double(), (x, y, z) => {
      const u = Float64Array.of(x, y, z, 0);
      hypotInto(u);
      return Object.is(u[3], Math.hypot(x, y, z)) && Object.is(u[0], x) && Object.is(u[1], y) && Object.is(u[2], z);
    }), { numRuns: 20000 });
  });

  it('is Math.hypot bit for bit on nearly equal components of any scale (where the compensation matters)', () => {
    fc.assert(fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (x, i, j) => {
      const y = x * (1 + i * 2 ** -52), z = -x * (1 + j * 2 ** -50);
      return Object.is(viaArray(x, y, z), Math.hypot(x, y, z));
    }), { numRuns: 20000 });
  });

  it('keeps the special cases: an infinity over a NaN, NaN, zeros, the largest and the smallest doubles', () => {
    const cases: [number, number, number][] = [[Infinity, NaN, 1], [NaN, -Infinity, 0], [NaN, 1, 2], [0, -0, 0], [-0, -0, -0],
      [Number.MAX_VALUE, Number.MAX_VALUE, 1], [Number.MIN_VALUE, Number.MIN_VALUE, 0], [3, 4, 12], [1e-200, 1e200, 1]];
    for (const [x, y, z] of cases) expect(Object.is(viaArray(x, y, z), Math.hypot(x, y, z)), `${x}, ${y}, ${z}`).toBe(true);
  });
});
