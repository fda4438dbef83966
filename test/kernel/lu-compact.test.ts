/**
 * kernel/lu-ordered.ts factorCompact: an equilibrated OrderedLU fed a matrix as a list of its
 * pattern's entries (the integrator's compact assembly, kernel/integrator/pattern.ts) factors
 * it exactly as `factor` does from the n² matrix with that list: the same pivoting LUs,
 * refactors and solutions to the bit, through refactors on the kept pattern, a listed entry
 * that turns nonzero outside the factors' pattern (a reanalysis), and a pivot that collapses
 * (the pivoting LU again). Random saddle matrices whose threshold pivoting leaves the diagonal
 * (the constraint rows' zero diagonals); the solutions checked against A x = b too. And the
 * pattern's solve (lu-refactor.ts: permutations and scalings inside its sweeps, four terms a
 * pass) against the plain sweeps on its factors written out here, bit for bit.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OrderedLU } from '../../kernel/lu-ordered';
import { rng } from '../util/rng';

/** [M, Jᵀ; J, 0]: `blocks` 3×3 mass blocks of mixed scales in a chain, `rows` constraint rows on random neighbouring pairs; the listed entries include zeros. */
function saddle(r: () => number, blocks: number, rows: number): { A: Float64Array; N: number; list: Int32Array } {
  const n = 3 * blocks, N = n + rows, A = new Float64Array(N * N), listed = new Set<number>();
  for (let b = 0; b < blocks; b++) {
    const s = 10 ** Math.floor(4 * r() - 2);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      const e = (3 * b + i) * N + 3 * b + j;
      A[e] = s * (i === j ? 1 + r() : 0.2 * (r() - 0.5));
      listed.add(e);
    }
  }
  for (let k = 0; k < rows; k++) {
    const b = Math.floor(r() * (blocks - 1));
    for (const c of [3 * b + Math.floor(r() * 3), 3 * (b + 1) + Math.floor(r() * 3)]) {
      const x = r() - 0.5;
      A[(n + k) * N + c] = x; A[c * N + n + k] = x;
      listed.add((n + k) * N + c); listed.add(c * N + n + k);
    }
  }
  // a listed pair zero for now (a force block's entry exactly zero at rest)
  const c0 = Math.floor(r() * 3), c1 = 3 * (blocks - 1) + Math.floor(r() * 3);
  A[c0 * N + c1] = 0; A[c1 * N + c0] = 0;
  listed.add(c0 * N + c1); listed.add(c1 * N + c0);
  return { A, N, list: Int32Array.from([...listed].sort((a, b) => a - b)) };
}

/** The backward error of x: max |A x − b| over max |A| max |x| + max |b|. */
function backwardError(A: Float64Array, N: number, x: Float64Array, b: Float64Array): number {
  let worst = 0, a = 0, xs = 0, bs = 0;
  for (let i = 0; i < N; i++) {
    let s = -b[i];
    for (let j = 0; j < N; j++) { s += A[i * N + j] * x[j]; a = Math.max(a, Math.abs(A[i * N + j])); }
    worst = Math.max(worst, Math.abs(s)); xs = Math.max(xs, Math.abs(x[i])); bs = Math.max(bs, Math.abs(b[i]));
  }
  return worst / (a * xs + bs);
}

describe('OrderedLU.factorCompact', () => {
  it('factors as factor(dense, list) does, bit for bit, through refactors, a new nonzero and a collapsed pivot', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 3, max: 10 }), (seed, blocks) => {
      const r = rng(seed);
      const { A, N, list } = saddle(r, blocks, 2 * blocks - 1);
      const dense = new OrderedLU(N, true, true), compact = new OrderedLU(N, true, true);
      const values = new Float64Array(list.length), out = new Float64Array(N * N);
      let refactored = 0;
      for (let round = 0; round < 6; round++) {
        if (round > 0) for (const e of list) if (A[e] !== 0) A[e] *= 1 + 0.05 * (r() - 0.5);
        // round 2: the listed zero pair turns nonzero (outside the factors' pattern); round 4: a pivot collapses
        if (round === 2) for (const e of list) if (A[e] === 0) A[e] = 0.3 * (r() + 0.5);
        if (round === 4) { const e = list[0]; A[e] *= 1e-12; }
        list.forEach((e, k) => { values[k] = A[e]; });
        const ok = dense.factor(A, N, 1e-15, list, list.length);
        expect(compact.factorCompact(values, list, out, N, 1e-15)).toBe(ok);
        if (!ok) return;
        expect([compact.pivoted, compact.refactored, compact.nonzeros]).toEqual([dense.pivoted, dense.refactored, dense.nonzeros]);
        const b = Float64Array.from({ length: N }, () => r() - 0.5), x1 = b.slice(), x2 = b.slice();
        dense.solve(x1); compact.solve(x2);
        expect(Array.from(x2)).toEqual(Array.from(x1));
        expect(backwardError(A, N, x2, b)).toBeLessThan(1e-12);
        refactored = compact.refactored;
      }
      // most rounds were refactors on the kept pattern (the path the compact list serves)
      expect(refactored).toBeGreaterThanOrEqual(3);
    }), { numRuns: 60 });
  });

  it('solves on the pattern\'s factors as the plain sweeps do, bit for bit', () => {
    type Fields = { val: Float64Array; col: Int32Array; rowStart: Int32Array; diagPos: Int32Array; rowOf: Int32Array; colOf: Int32Array };
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 3, max: 12 }), (seed, blocks) => {
      const r = rng(seed);
      const { A, N, list } = saddle(r, blocks, 2 * blocks - 1);
      const lu = new OrderedLU(N, true, true), values = new Float64Array(list.length), out = new Float64Array(N * N);
      for (let round = 0; round < 2; round++) {
        for (const e of list) if (A[e] !== 0) A[e] *= 1 + 0.05 * (r() - 0.5);
        list.forEach((e, k) => { values[k] = A[e]; });
        // a draw whose constraint rows are dependent (two on the same pair of columns) is singular
        if (!lu.factorCompact(values, list, out, N, 1e-15)) return;
      }
      expect(lu.refactored).toBe(1);
      const f = (lu as unknown as { pattern: Fields }).pattern, D = (lu as unknown as { scale: Float64Array }).scale;
      const b = Float64Array.from({ length: N }, () => r() - 0.5), x = b.slice();
      lu.solve(x);
      // the reference: permute and scale, forward sweep, backward sweep, unpermute and scale
      const y = new Float64Array(N), want = new Float64Array(N);
      for (let k = 0; k < N; k++) y[k] = b[f.rowOf[k]] * D[f.rowOf[k]];
      for (let k = 0; k < N; k++) for (let e = f.rowStart[k]; e < f.diagPos[k]; e++) y[k] -= f.val[e] * y[f.col[e]];
      for (let k = N - 1; k >= 0; k--) {
        for (let e = f.diagPos[k] + 1; e < f.rowStart[k + 1]; e++) y[k] -= f.val[e] * y[f.col[e]];
        y[k] /= f.val[f.diagPos[k]];
      }
      for (let j = 0; j < N; j++) want[f.colOf[j]] = y[j] * D[f.colOf[j]];
      expect(Array.from(x)).toEqual(Array.from(want));
      expect(backwardError(A, N, x, b)).toBeLessThan(1e-12);
    }), { numRuns: 60 });
  });
});
