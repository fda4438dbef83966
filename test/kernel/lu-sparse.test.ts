/**
 * kernel/lu-sparse.ts: solves with an LU's nonzeros only. Against LU.solve (bit for bit:
 * the same terms in the same order, the skipped ones exact zeros) and against A x = b
 * itself, on block-sparse matrices shaped like a mated system's iteration matrix
 * [M, Jᵀ; J, 0] (pivoting needed: a zero diagonal block) and on a dense one.
 */
import { describe, expect, it } from 'vitest';
import { LU } from '../../kernel/linalg';
import { CompressedLU } from '../../kernel/lu-sparse';
import { rng } from '../util/rng';

/** [M, Jᵀ; J, 0]: n unknowns in 6-blocks (SPD mass blocks), m rows each touching one or two blocks. */
function saddle(r: () => number, blocks: number, m: number): { A: Float64Array; N: number } {
  const n = 6 * blocks, N = n + m, A = new Float64Array(N * N);
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) {
      const x = i === j ? 2 + r() : 0.1 * (r() - 0.5);
      A[(6 * b + i) * N + 6 * b + j] += x; A[(6 * b + j) * N + 6 * b + i] += i === j ? 0 : x;
    }
  }
  for (let k = 0; k < m; k++) {
    const b1 = k % blocks, b2 = (k * 7 + 3) % blocks;
    for (const b of b1 === b2 ? [b1] : [b1, b2]) for (let j = 0; j < 6; j++) {
      const x = r() - 0.5;
      A[(n + k) * N + 6 * b + j] = x; A[(6 * b + j) * N + n + k] = x;
    }
  }
  return { A, N };
}

function check(A: Float64Array, N: number, r: () => number): number {
  const lu = new LU(N), sparse = new CompressedLU(N);
  expect(lu.factor(A, N)).toBe(true);
  sparse.load(lu);
  const b = Float64Array.from({ length: N }, () => r() - 0.5);
  const x1 = b.slice(), x2 = b.slice();
  lu.solve(x1);
  sparse.solve(x2);
  expect(Array.from(x2)).toEqual(Array.from(x1));
  let worst = 0;
  for (let i = 0; i < N; i++) {
    let s = -b[i];
    for (let j = 0; j < N; j++) s += A[i * N + j] * x2[j];
    worst = Math.max(worst, Math.abs(s));
  }
  expect(worst).toBeLessThan(1e-10);
  return sparse.nonzeros;
}

describe('CompressedLU', () => {
  it('block-sparse saddle systems: LU.solve bit for bit, A x = b, fewer terms than dense', () => {
    for (let k = 0; k < 12; k++) {
      const r = rng(700 + k);
      const blocks = 1 + (k % 5), { A, N } = saddle(r, blocks, 3 + (k % 4) * blocks);
      const nonzeros = check(A, N, r);
      if (blocks > 2) expect(nonzeros).toBeLessThan(N * (N - 1));
    }
  });
  it('a dense matrix: every term kept', () => {
    const r = rng(77), N = 9;
    const A = Float64Array.from({ length: N * N }, () => r() - 0.5);
    expect(check(A, N, r)).toBe(N * (N - 1));
  });
});
