/**
 * kernel/lu-refactor.ts's large systems (SPLIT_MIN unknowns or more: lu-wasm.ts eliminateSplit
 * and solveSplit, reciprocal pivots and each long row's sum in four): their solutions against
 * the dense pivoting LU's (linalg.ts, the matrix as it stands) on random sparse systems shaped
 * like the car's: chained blocks whose unknowns each touch a few of a dense border (the body),
 * the border last in the order, so that the factors end in long, nearly dense rows. A first
 * factorisation (the pattern's refactor after the pivoting LU) and a refactor of a changed
 * matrix on its pattern, to ~1e-12 relative.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OrderedLU } from '../../kernel/lu-ordered';
import { SPLIT_MIN } from '../../kernel/lu-refactor';
import { LU } from '../../kernel/linalg';
import { rng } from '../util/rng';

/** The pattern of N unknowns: 3×3 blocks in a chain, the last `border` unknowns coupled to every block's unknowns at random and to each other (symmetric pattern). */
function pattern(r: () => number, N: number, border: number): Int32Array {
  const listed = new Set<number>(), n = N - border, pair = (i: number, j: number): void => { listed.add(i * N + j); listed.add(j * N + i); };
  for (let i = 0; i < n; i++) {
    const b = 3 * Math.floor(i / 3);
    for (let j = b; j < Math.min(b + 3, n); j++) pair(i, j);
    if (b + 3 < n && r() < 0.3) pair(i, b + 3 + Math.floor(r() * 3));
    for (let c = 0; c < border; c++) if (r() < 0.4) pair(i, n + c);
  }
  for (let i = n; i < N; i++) for (let j = n; j < N; j++) if (i === j || r() < 0.8) pair(i, j);
  return Int32Array.from([...listed].sort((a, b) => a - b));
}

/** Values on the list: diagonals 1–2 (times a scale per unknown, as masses and inertias mix), off-diagonals ±0.3 of that. */
function fill(r: () => number, N: number, list: Int32Array, scale: Float64Array): Float64Array {
  const A = new Float64Array(N * N);
  for (const e of list) {
    const i = Math.floor(e / N), j = e - i * N, s = Math.sqrt(scale[i] * scale[j]);
    A[e] = s * (i === j ? 1 + r() : 0.6 * (r() - 0.5));
  }
  return A;
}

/** max |x − want| / max |want|. */
function relative(x: Float64Array, want: Float64Array): number {
  let d = 0, w = 0;
  for (let i = 0; i < want.length; i++) { d = Math.max(d, Math.abs(x[i] - want[i])); w = Math.max(w, Math.abs(want[i])); }
  return d / w;
}

describe('the pattern LU of a large system (reordered loops)', () => {
  it('solves as the dense pivoting LU does, to ~1e-12, through a first factorisation and a refactor on its pattern', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: SPLIT_MIN, max: SPLIT_MIN + 60 }), fc.integer({ min: 4, max: 24 }), (seed, N, border) => {
      const r = rng(seed), list = pattern(r, N, border);
      const scale = Float64Array.from({ length: N }, () => 10 ** Math.floor(4 * r() - 2));
      const lu = new OrderedLU(N, true, true), dense = new LU(N);
      for (let round = 0; round < 2; round++) {
        const A = fill(r, N, list, scale);
        expect(lu.factor(A, N, 1e-15, list, list.length)).toBe(true);
        expect(dense.factor(A, N, 1e-15)).toBe(true);
        const b = Float64Array.from({ length: N }, () => r() - 0.5), x = b.slice(), want = b.slice();
        lu.solve(x); dense.solve(want);
        expect(relative(x, want)).toBeLessThan(1e-12);
      }
      // the second matrix refactored on the first one's pattern
      expect(lu.refactored).toBe(1);
    }), { numRuns: 12 });
  });
});
