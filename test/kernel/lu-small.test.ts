/**
 * kernel/lu-small.ts: the small iteration matrices' LU replayed on their nonzeros. Against the
 * dense LU (linalg.ts) bit for bit — the same success, the same solutions including the
 * sign of a zero — on sequences of saddle matrices [A, Jᵀ; J, 0] with a fixed pattern whose
 * values move slowly (the replay), jump (new pivots), tie in magnitude (the dense search's
 * first-largest rule), vanish and reappear at pattern entries, and become singular.
 */
import { describe, expect, it } from 'vitest';
import { LU } from '../../kernel/linalg';
import { ScheduledLU } from '../../kernel/lu-small';
import { rng } from '../util/rng';

/** A pendulum-shaped pattern: a 7 × 7 block (row and column 2 and 6 without a diagonal: massless) and 6 bordering rows. */
function pattern(r: () => number, N = 13, n = 7): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i === j ? i !== 2 && i !== 6 : r() < 0.35) out.push(i * N + j);
  for (let k = n; k < N; k++) for (let j = 0; j < n; j++) if (r() < 0.45 || j === k - n) { out.push(k * N + j); out.push(j * N + k); }
  return Int32Array.from(new Set(out)).sort();
}

/** Bit for bit, −0 apart from +0. */
function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Factor A with both and solve two right-hand sides (one with ±0 entries); true when the dense LU succeeded. */
function compare(dense: LU, small: ScheduledLU, A: Float64Array, N: number, r: () => number): boolean {
  const ok = dense.factor(A, N, 1e-15);
  expect(small.factor(A, N, 1e-15)).toBe(ok);
  if (!ok) return false;
  for (const zeros of [false, true]) {
    const b = Float64Array.from({ length: N }, (_, i) => (zeros && i % 3 === 0 ? (i % 2 ? -0 : 0) : r() - 0.5));
    const x1 = b.slice(), x2 = b.slice();
    dense.solve(x1);
    small.solve(x2);
    expect(same(x2, x1), `solution ${Array.from(x2)} vs ${Array.from(x1)}`).toBe(true);
  }
  return true;
}

describe('ScheduledLU', () => {
  it('slowly moving values: replayed (few dense factorisations), the dense LU\'s solutions bit for bit', () => {
    const r = rng(7), N = 13, entries = pattern(r);
    const base = new Float64Array(N * N);
    for (const e of entries) base[e] = r() < 0.15 ? 0 : 2 * r() - 1;
    const dense = new LU(N), small = new ScheduledLU(N);
    small.usePattern(N, entries);
    const A = new Float64Array(N * N);
    let solved = 0;
    for (let s = 0; s < 300; s++) {
      for (const e of entries) A[e] = base[e] === 0 ? 0 : base[e] * (1 + 0.3 * Math.sin(0.05 * s + e));
      if (compare(dense, small, A, N, r)) solved++;
    }
    expect(solved).toBe(300);
    // a pivot change now and then: most factorisations are replays
    expect(small.denseFactorisations).toBeLessThan(60);
  });

  it('values from {−2, −1, 0, 1, 2}: ties, zeros at pattern entries, singular matrices, pivots changing every time', () => {
    const r = rng(11), N = 13, dense = new LU(N), small = new ScheduledLU(N);
    let solved = 0, singular = 0;
    for (let trial = 0; trial < 20; trial++) {
      const entries = pattern(r);
      small.usePattern(N, entries);
      const A = new Float64Array(N * N);
      for (let s = 0; s < 40; s++) {
        // mostly small moves of one entry, so a schedule is often replayed on a tie it must decline
        if (s === 0 || r() < 0.3) for (const e of entries) A[e] = Math.floor(5 * r()) - 2;
        else A[entries[Math.floor(r() * entries.length)]] = Math.floor(5 * r()) - 2;
        if (compare(dense, small, A, N, r)) solved++; else singular++;
      }
    }
    expect(solved).toBeGreaterThan(100);
    expect(singular).toBeGreaterThan(10);
  });

  it('a row whose terms are all zero: the sign of its zero as the dense solve\'s (−0 − 0·(−1) is +0)', () => {
    const N = 4, entries = Int32Array.from([0, 5, 10, 15]), A = new Float64Array(16);
    const dense = new LU(N), small = new ScheduledLU(N);
    small.usePattern(N, entries);
    for (const d of [[1, 2, 3, 4], [2, -1, 1, -3]]) {
      d.forEach((x, i) => { A[5 * i] = x; });
      expect(small.factor(A, N, 1e-15) && dense.factor(A, N, 1e-15)).toBe(true);
      for (const b of [[-1, -0, 2, -0], [-0, 1, -0, -2], [0, -0, -0, 0]]) {
        const x1 = Float64Array.from(b), x2 = Float64Array.from(b);
        dense.solve(x1);
        small.solve(x2);
        expect(same(x2, x1), `${Array.from(x2)} vs ${Array.from(x1)}`).toBe(true);
      }
    }
    expect(small.denseFactorisations).toBe(1);
  });

  it('without a pattern, and for another size than the pattern\'s: the dense LU itself', () => {
    const r = rng(3), N = 9, dense = new LU(N), small = new ScheduledLU(N);
    const A = Float64Array.from({ length: N * N }, () => (r() < 0.5 ? 0 : r() - 0.5));
    small.usePattern(N, null);
    compare(dense, small, A, N, r);
    small.usePattern(N, pattern(r, N, 5));
    const B = Float64Array.from({ length: 36 }, () => r() - 0.5);
    compare(dense, small, B, 6, r);
    expect(small.denseFactorisations).toBe(2);
  });
});
