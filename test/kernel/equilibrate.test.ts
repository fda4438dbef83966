/**
 * kernel/equilibrate.ts: symmetric Ruiz scales. A matrix B with entries of order one, its
 * unknowns put in wildly different units (A = T B T, T up to 10^±4), is brought back to rows
 * and columns of largest entry near one; the scales are powers of two (scaling rounds
 * nothing); reading a list of the nonzeros gives the scan's scales.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { equilibrate } from '../../kernel/equilibrate';

function mixedUnits(seed: number[], n: number): Float64Array {
  const A = new Float64Array(n * n);
  // exponents −4, 0 and 4 in turn (n ≥ 3: all three), shifted by the seed
  const T = Float64Array.from({ length: n }, (_, i) => 10 ** (((seed[0] + i) % 3) * 4 - 4));
  for (let i = 0; i < n; i++) {
    A[i * n + i] = (2 + ((seed[i % seed.length] + i) % 5)) * T[i] * T[i];
    const j = (i * 7 + 3) % n;
    if (j !== i) { const x = (0.5 + ((seed[j % seed.length] + i) % 3)) * T[i] * T[j]; A[i * n + j] = x; A[j * n + i] = -x; }
  }
  return A;
}

function rowColumnMax(A: Float64Array, n: number, D: Float64Array): Float64Array {
  const m = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const x = Math.abs(A[i * n + j]) * D[i] * D[j];
    m[i] = Math.max(m[i], x); m[j] = Math.max(m[j], x);
  }
  return m;
}

describe('equilibrate', () => {
  it('brings every row and column of D A D to a largest entry near one, with power-of-two scales', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 3, maxLength: 12 }), fc.integer({ min: 4, max: 24 }), (seed, n) => {
      const A = mixedUnits(seed, n), D = new Float64Array(n), work = new Float64Array(n);
      const before = rowColumnMax(A, n, new Float64Array(n).fill(1));
      expect(Math.max(...before) / Math.min(...before)).toBeGreaterThan(1e3);
      equilibrate(A, n, D, work, 6);
      for (const d of D) expect(Number.isInteger(Math.log2(d))).toBe(true);
      for (const m of rowColumnMax(A, n, D)) { expect(m).toBeGreaterThan(0.1); expect(m).toBeLessThan(10); }
    }), { numRuns: 30 });
  });

  it('reads a list of the nonzeros as it scans the whole matrix', () => {
    const n = 17, A = mixedUnits([5, 81, 2, 40], n);
    const nonzeros = Int32Array.from(A.keys()).filter((k) => A[k] !== 0);
    const scan = new Float64Array(n), listed = new Float64Array(n), work = new Float64Array(n);
    equilibrate(A, n, scan, work, 3);
    equilibrate(A, n, listed, work, 3, nonzeros, nonzeros.length);
    expect(Array.from(listed)).toEqual(Array.from(scan));
  });
});
