/**
 * kernel/lu-refactor.ts: the symbolic analysis. Its pattern and elimination schedule are
 * checked against the plain per-row symbolic elimination written out here (each factor row
 * reads its matrix row and column in place), on random saddle matrices whose pivoting LU
 * takes rows off the diagonal, before and after an entry outside the pattern is seen: the
 * same pattern, so the same factors to the bit.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PatternLU } from '../../kernel/lu-refactor';
import { LU } from '../../kernel/linalg';
import { minimumDegreeOrder } from '../../kernel/lu-ordered';
import { rng } from '../util/rng';

type Fields = { col: Int32Array; rowStart: Int32Array; diagPos: Int32Array; target: Int32Array; rowOf: Int32Array; colOf: Int32Array; seen: Uint8Array };

/** [M, Jᵀ; J, 0] with `blocks` 3×3 mass blocks in a chain and `rows` constraint rows on random pairs of neighbouring blocks. */
function saddle(r: () => number, blocks: number, rows: number): { A: Float64Array; N: number } {
  const n = 3 * blocks, N = n + rows, A = new Float64Array(N * N);
  for (let b = 0; b < blocks; b++) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    A[(3 * b + i) * N + 3 * b + j] = i === j ? 1 + r() : 0.2 * (r() - 0.5);
  }
  for (let k = 0; k < rows; k++) {
    const b = Math.floor(r() * (blocks - 1));
    for (const c of [3 * b + Math.floor(r() * 3), 3 * (b + 1) + Math.floor(r() * 3)]) {
      const x = r() - 0.5;
      A[(n + k) * N + c] = x; A[c * N + n + k] = x;
    }
  }
  return { A, N };
}

/** The plain symbolic elimination on the analysed row and column orders: the pattern and schedule. */
function reference(A: Float64Array, N: number, f: Fields): { col: number[]; rowStart: number[]; diagPos: number[]; target: number[] } {
  const pos = new Int32Array(N);
  for (let j = 0; j < N; j++) pos[f.colOf[j]] = j;
  const col: number[] = [], rowStart: number[] = [], diagPos: number[] = [], uStart: number[] = [], uEnd: number[] = [];
  for (let k = 0; k < N; k++) {
    const mark = new Uint8Array(N), row = f.rowOf[k];
    for (let j = 0; j < N; j++) {
      if (A[row * N + j] !== 0 || f.seen[row * N + j] || A[j * N + row] !== 0 || f.seen[j * N + row]) mark[pos[j]] = 1;
    }
    mark[k] = 1;
    rowStart.push(col.length);
    for (let j = 0; j < k; j++) {
      if (!mark[j]) continue;
      col.push(j);
      for (let e = uStart[j]; e < uEnd[j]; e++) mark[col[e]] = 1;
    }
    diagPos.push(col.length);
    col.push(k);
    uStart.push(col.length);
    for (let j = k + 1; j < N; j++) if (mark[j]) col.push(j);
    uEnd.push(col.length);
  }
  rowStart.push(col.length);
  const target: number[] = [];
  for (let k = 0; k < N; k++) {
    const place = new Map<number, number>();
    for (let e = rowStart[k]; e < rowStart[k + 1]; e++) place.set(col[e], e);
    for (let e = rowStart[k]; e < diagPos[k]; e++) {
      const j = col[e];
      for (let g = diagPos[j] + 1; g < rowStart[j + 1]; g++) target.push(place.get(col[g])!);
    }
  }
  return { col, rowStart, diagPos, target };
}

function expectReference(A: Float64Array, N: number, pattern: PatternLU): void {
  const f = pattern as unknown as Fields, want = reference(A, N, f);
  expect(Array.from(f.col)).toEqual(want.col);
  expect(Array.from(f.rowStart.subarray(0, N + 1))).toEqual(want.rowStart);
  expect(Array.from(f.diagPos.subarray(0, N))).toEqual(want.diagPos);
  expect(Array.from(f.target)).toEqual(want.target);
}

describe('PatternLU analysis', () => {
  it('builds the plain symbolic elimination\'s pattern and schedule, pivots off the diagonal and seen entries included', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 3, max: 9 }), (seed, blocks) => {
      const r = rng(seed);
      const { A, N } = saddle(r, blocks, blocks + 1);
      const perm = new Int32Array(N), lu = new LU(N);
      minimumDegreeOrder(A, N, perm);
      if (!lu.factor(A, N, 1e-14, perm, 0.1)) return;
      const pattern = new PatternLU(N, 100);
      pattern.analyse(A, N, perm, lu);
      expectReference(A, N, pattern);
      // an entry outside the pattern (two distant blocks coupled): seen, then the pattern grows on the same pivots
      const i = 0, j = 3 * blocks - 1;
      if ((pattern as unknown as { map: Int32Array }).map[i * N + j] >= 0) return;
      const B = A.slice();
      B[i * N + j] = 0.01;
      expect(pattern.refactor(B, N, 1e-14)).toBe(false);
      expect(pattern.declinedOutside).toBe(true);
      pattern.reanalyse(A, N);
      expectReference(A, N, pattern);
      expect((pattern as unknown as { map: Int32Array }).map[i * N + j]).toBeGreaterThanOrEqual(0);
    }), { numRuns: 40 });
  });

  it('has rows pivoted off the diagonal in these cases (the test reaches that path)', () => {
    let off = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const { A, N } = saddle(rng(seed), 6, 7);
      const perm = new Int32Array(N), lu = new LU(N);
      minimumDegreeOrder(A, N, perm);
      expect(lu.factor(A, N, 1e-14, perm, 0.1)).toBe(true);
      const pattern = new PatternLU(N, 100);
      pattern.analyse(A, N, perm, lu);
      const f = pattern as unknown as Fields;
      for (let k = 0; k < N; k++) if (f.rowOf[k] !== f.colOf[k]) off++;
    }
    expect(off).toBeGreaterThan(0);
  });
});
