/**
 * kernel/lu-ordered.ts: the LU of a fill-reducing symmetric permutation. Solves A x = b
 * itself (the permutation undone) on a vehicle-shaped saddle matrix [M, Jᵀ; J, 0] (four
 * chains of 6-blocks joined to one hub block, pivoting needed), and keeps an arrow matrix's
 * factors as sparse as the matrix where the natural order fills them completely.
 */
import { describe, expect, it } from 'vitest';
import { OrderedLU, minimumDegreeOrder } from '../../kernel/lu-ordered';
import { LU } from '../../kernel/linalg';
import { CompressedLU } from '../../kernel/lu-sparse';
import { rng } from '../util/rng';

/** Hub block 0, four chains of `links` blocks; one 6-row joint between neighbours (a vehicle's corners on its body). */
function vehicleLike(r: () => number, links: number): { A: Float64Array; N: number } {
  const blocks = 1 + 4 * links, n = 6 * blocks;
  const pairs: [number, number][] = [];
  for (let c = 0; c < 4; c++) for (let l = 0; l < links; l++) pairs.push([1 + c * links + l, l === 0 ? 0 : c * links + l]);
  const m = 6 * pairs.length, N = n + m, A = new Float64Array(N * N);
  for (let b = 0; b < blocks; b++) for (let i = 0; i < 6; i++) for (let j = 0; j <= i; j++) {
    const x = i === j ? 2 + r() : 0.1 * (r() - 0.5);
    A[(6 * b + i) * N + 6 * b + j] = x; A[(6 * b + j) * N + 6 * b + i] = x;
  }
  pairs.forEach(([p, q], k) => {
    for (let row = 0; row < 6; row++) for (const b of [p, q]) for (let j = 0; j < 6; j++) {
      const x = r() - 0.5, i = n + 6 * k + row;
      A[i * N + 6 * b + j] = x; A[(6 * b + j) * N + i] = x;
    }
  });
  return { A, N };
}

function residual(A: Float64Array, N: number, x: Float64Array, b: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < N; i++) {
    let s = -b[i];
    for (let j = 0; j < N; j++) s += A[i * N + j] * x[j];
    worst = Math.max(worst, Math.abs(s));
  }
  return worst;
}

describe('OrderedLU', () => {
  it('solves A x = b on vehicle-shaped saddle matrices, refactored with the ordering reused', () => {
    const r = rng(29);
    const { A, N } = vehicleLike(r, 3);
    const lu = new OrderedLU(N);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < A.length; i++) if (A[i] !== 0) A[i] *= 1 + 0.1 * (r() - 0.5);
      expect(lu.factor(A, N, 1e-15)).toBe(true);
      const b = Float64Array.from({ length: N }, () => r() - 0.5), x = b.slice();
      lu.solve(x);
      expect(residual(A, N, x, b)).toBeLessThan(1e-10);
    }
  });

  it('has fewer factor nonzeros than the natural order on that matrix', () => {
    const { A, N } = vehicleLike(rng(3), 3);
    const ordered = new OrderedLU(N);
    expect(ordered.factor(A, N, 1e-15)).toBe(true);
    const plain = new LU(N), compressed = new CompressedLU(N);
    expect(plain.factor(A, N, 1e-15)).toBe(true);
    compressed.load(plain);
    expect(ordered.nonzeros).toBeLessThan(0.6 * compressed.nonzeros);
  });

  it('orders an arrow matrix hub last: no fill', () => {
    const N = 40, A = new Float64Array(N * N);
    for (let i = 0; i < N; i++) { A[i * N + i] = 4; if (i > 0) { A[i] = 1; A[i * N] = 1; } }
    const perm = new Int32Array(N);
    minimumDegreeOrder(A, N, perm);
    expect(Array.from(perm).sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(Array.from(perm.subarray(N - 2))).toContain(0); // the hub goes last (with the last leaf: a tie)
    const lu = new OrderedLU(N);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    expect(lu.nonzeros).toBe(2 * (N - 1));
    const b = Float64Array.from({ length: N }, (_, i) => Math.sin(i)), x = b.slice();
    lu.solve(x);
    expect(residual(A, N, x, b)).toBeLessThan(1e-12);
  });

  it('in the natural order (unordered) matches the plain LU bit for bit', () => {
    const { A, N } = vehicleLike(rng(5), 2);
    const lu = new OrderedLU(N, false), plain = new LU(N);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    plain.factor(A, N, 1e-15);
    const b = Float64Array.from({ length: N }, (_, i) => Math.cos(i)), x1 = b.slice(), x2 = b.slice();
    lu.solve(x1); plain.solve(x2);
    expect(Array.from(x1)).toEqual(Array.from(x2));
  });
});

/** The matrix's nonzeros as row-major indices (what a caller that assembles it knows). */
function nonzerosOf(A: Float64Array): Int32Array {
  const idx: number[] = [];
  for (let i = 0; i < A.length; i++) if (A[i] !== 0) idx.push(i);
  return Int32Array.from(idx);
}

describe('OrderedLU refactor on the last pivoting factorisation (kernel/lu-refactor.ts)', () => {
  it('refactors later matrices of the same pattern without pivoting again, and solves them', () => {
    const r = rng(41);
    const { A, N } = vehicleLike(r, 3);
    const lu = new OrderedLU(N);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < A.length; i++) if (A[i] !== 0) A[i] *= 1 + 0.05 * (r() - 0.5);
      expect(lu.factor(A, N, 1e-15)).toBe(true);
      const b = Float64Array.from({ length: N }, () => r() - 0.5), x = b.slice();
      lu.solve(x);
      expect(residual(A, N, x, b)).toBeLessThan(1e-10);
    }
    expect(lu.pivoted).toBe(1);
    expect(lu.refactored).toBe(3);
  });

  it('eliminates in place by its schedule: the factors of a dense work row\'s IKJ on the same pattern, bit for bit', () => {
    const r = rng(43);
    const { A, N } = vehicleLike(r, 3);
    const lu = new OrderedLU(N);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    for (let i = 0; i < A.length; i++) if (A[i] !== 0) A[i] *= 1 + 0.05 * (r() - 0.5);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    expect(lu.refactored).toBe(1);
    type Fields = { val: Float64Array; col: Int32Array; rowStart: Int32Array; diagPos: Int32Array; map: Int32Array };
    const f = (lu as unknown as { pattern: Fields }).pattern;
    // the reference: A's entries on the pattern, then row by row through a dense work row
    const val = new Float64Array(f.val.length), w = new Float64Array(N);
    for (let i = 0; i < N * N; i++) if (A[i] !== 0) val[f.map[i]] = A[i];
    for (let k = 0; k < N; k++) {
      const s = f.rowStart[k], d = f.diagPos[k], end = f.rowStart[k + 1];
      for (let e = s; e < end; e++) w[f.col[e]] = val[e];
      for (let e = s; e < d; e++) {
        const j = f.col[e], l = w[j] / val[f.diagPos[j]];
        w[j] = l;
        for (let g = f.diagPos[j] + 1; g < f.rowStart[j + 1]; g++) w[f.col[g]] -= l * val[g];
      }
      for (let e = s; e < end; e++) val[e] = w[f.col[e]];
    }
    expect(Array.from(f.val)).toEqual(Array.from(val));
    // rows j with eight U entries or more: the schedule's eight-a-pass loop is in the comparison
    let long = 0;
    for (let j = 0; j < N; j++) if (f.rowStart[j + 1] - f.diagPos[j] - 1 >= 8) long++;
    expect(long).toBeGreaterThan(0);
  });

  it('grows the pattern for a nonzero outside it on the same pivots (no pivoting LU), and keeps that entry', () => {
    const r = rng(43);
    const { A, N } = vehicleLike(r, 2);
    const lu = new OrderedLU(N);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    // couple two corners' first blocks directly (symmetric), where the first matrix had zeros
    const i = 6, j = 6 * 3;
    expect(A[i * N + j]).toBe(0);
    A[i * N + j] = 0.3; A[j * N + i] = 0.3;
    const before = lu.nonzeros;
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    expect(lu.pivoted).toBe(1);
    expect(lu.refactored).toBe(1);
    expect(lu.nonzeros).toBeGreaterThan(before);
    const b = Float64Array.from({ length: N }, (_, k) => Math.sin(k)), x = b.slice();
    lu.solve(x);
    expect(residual(A, N, x, b)).toBeLessThan(1e-10);
    // the same entry zero again, then nonzero: inside the grown pattern, refactored
    A[i * N + j] = 0; A[j * N + i] = 0;
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    A[i * N + j] = -0.2; A[j * N + i] = -0.2;
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    expect(lu.pivoted).toBe(1);
    expect(lu.refactored).toBe(3);
    const y = b.slice();
    lu.solve(y);
    expect(residual(A, N, y, b)).toBeLessThan(1e-10);
  });

  it('declines a pivot that fell below the threshold (pivots again) and stays exact', () => {
    const N = 3;
    const A = Float64Array.from([4, 1, 0, 1, 3, 1, 0, 1, 2]);
    const lu = new OrderedLU(N);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    // the first pivot (whichever the order chose) made tiny against its column: the refactor would divide by it
    const B = Float64Array.from([1e-9, 1, 0, 1, 1e-9, 1, 0, 1, 1e-9]);
    expect(lu.factor(B, N, 1e-15)).toBe(true);
    expect(lu.pivoted).toBe(2);
    const b = Float64Array.from([1, 2, 3]), x = b.slice();
    lu.solve(x);
    expect(residual(B, N, x, b)).toBeLessThan(1e-12);
  });

  it('reads only the listed nonzeros when given them: the same factors as the scan of n²', () => {
    const r = rng(47);
    const { A, N } = vehicleLike(r, 3);
    const scan = new OrderedLU(N), listed = new OrderedLU(N);
    const idx = nonzerosOf(A);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < A.length; i++) if (A[i] !== 0) A[i] *= 1 + 0.05 * (r() - 0.5);
      expect(scan.factor(A, N, 1e-15)).toBe(true);
      expect(listed.factor(A, N, 1e-15, idx, idx.length)).toBe(true);
      const b = Float64Array.from({ length: N }, () => r() - 0.5), x1 = b.slice(), x2 = b.slice();
      scan.solve(x1); listed.solve(x2);
      expect(Array.from(x2)).toEqual(Array.from(x1));
    }
    expect(listed.refactored).toBe(1);
  });
});

describe('OrderedLU equilibrated', () => {
  /** The saddle matrix with its unknowns in mixed units: a 6-block's first three scaled by 10³, the others by 10⁻² (inertias beside masses). */
  function mixedUnits(seed: number): { A: Float64Array; N: number; nonzeros: Int32Array } {
    const { A, N } = vehicleLike(rng(seed), 3);
    const n = 6 * 13, T = Float64Array.from({ length: N }, (_, i) => (i >= n ? 1 : i % 6 < 3 ? 1e3 : 1e-2));
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) A[i * N + j] *= T[i] * T[j];
    const nonzeros = Int32Array.from(A.keys()).filter((k) => A[k] !== 0);
    return { A, N, nonzeros };
  }

  it('solves a badly scaled matrix as the unscaled factors do', () => {
    const { A, N } = mixedUnits(7);
    const plain = new OrderedLU(N), scaled = new OrderedLU(N, true, true);
    expect(plain.factor(A, N, 1e-15)).toBe(true);
    expect(scaled.factor(A, N, 1e-15)).toBe(true);
    const b = Float64Array.from({ length: N }, (_, i) => Math.sin(i + 1)), x = b.slice(), y = b.slice();
    plain.solve(x); scaled.solve(y);
    const size = Math.max(...x.map(Math.abs));
    for (let i = 0; i < N; i++) expect(Math.abs(y[i] - x[i])).toBeLessThan(1e-9 * size);
  });

  it('refactors on its pattern with the kept scales, reading the listed entries only', () => {
    const r = rng(11);
    const { A, N, nonzeros } = mixedUnits(5);
    const lu = new OrderedLU(N, true, true);
    for (let round = 0; round < 3; round++) {
      for (const k of nonzeros) A[k] *= 1 + 0.02 * (r() - 0.5);
      expect(lu.factor(A, N, 1e-15, nonzeros, nonzeros.length)).toBe(true);
      const b = Float64Array.from({ length: N }, () => r() - 0.5), x = b.slice();
      lu.solve(x);
      const size = Math.max(...A.map(Math.abs)) * Math.max(...x.map(Math.abs));
      expect(residual(A, N, x, b)).toBeLessThan(1e-13 * size);
    }
    expect(lu.pivoted).toBe(1);
    expect(lu.refactored).toBe(2);
  });

  it('solves on the refactor\'s pattern with the scaling done in its permutations: D (D A D)⁻¹ D b to the bit, scaled before and after', () => {
    const r = rng(47);
    const { A, N } = vehicleLike(r, 3);
    // masses and lever arms of different sizes, as a car's: the scales are not all 1
    for (let i = 0; i < 24; i++) for (let j = 0; j < N; j++) { A[i * N + j] *= 64; A[j * N + i] *= 64; }
    const lu = new OrderedLU(N, true, true);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    for (let i = 0; i < A.length; i++) if (A[i] !== 0) A[i] *= 1 + 0.05 * (r() - 0.5);
    expect(lu.factor(A, N, 1e-15)).toBe(true);
    expect(lu.refactored).toBe(1);
    const inner = lu as unknown as { scale: Float64Array; pattern: { solve(b: Float64Array): void } };
    const D = inner.scale;
    expect(D.subarray(0, N).some((d) => d !== 1)).toBe(true);
    const b = Float64Array.from({ length: N }, () => r() - 0.5), x = b.slice();
    lu.solve(x);
    expect(residual(A, N, x, b)).toBeLessThan(1e-9);
    const y = Float64Array.from(b, (v, i) => v * D[i]);
    inner.pattern.solve(y);
    for (let i = 0; i < N; i++) y[i] *= D[i];
    expect(Array.from(x)).toEqual(Array.from(y));
  });
});
