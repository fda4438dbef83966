/**
 * The state's square system is factored by LU (no QR at a state whose rows fix it), its
 * solves satisfy their equations, a system with redundant rows takes the QR's least squares,
 * and a singular one reports its rank; a body at rest along a direction has the zero twist.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PivotedQR } from '../../../kernel/linalg';
import { seededRandom } from '../../../kernel/random';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { SensitivityModel, gradientsAtFirstState } from '../../../src/suspension/gradients/model';
import { StateSolver } from '../../../src/suspension/gradients/state-solver';
import { twistOf } from '../../../src/suspension/gradients/virtual';
import { tt, type V } from '../../../src/suspension/gradients/tangent-ops';

/** A column-major M × n matrix of uniform entries in [−1, 1), and per-column scales. */
function randomSystem(M: number, n: number, seed: number): { A: Float64Array; scale: number[] } {
  const rnd = seededRandom(seed);
  const A = new Float64Array(M * n);
  for (let i = 0; i < A.length; i++) A[i] = 2 * rnd() - 1;
  return { A, scale: Array.from({ length: n }, () => 0.5 + rnd()) };
}

/** (A D⁻¹ x)_r for column-major A: the unscaled system's row r (x unscaled). */
const row = (A: Float64Array, M: number, n: number, scale: number[], x: Float64Array, r: number) => {
  let s = 0;
  for (let c = 0; c < n; c++) s += A[c * M + r] * x[c] / scale[c];
  return s;
};
/** (D⁻¹ Aᵀ λ)_c: the unscaled transposed system's column c. */
const col = (A: Float64Array, M: number, scale: number[], l: Float64Array, c: number) => {
  let s = 0;
  for (let r = 0; r < M; r++) s += A[c * M + r] * l[r];
  return s / scale[c];
};

describe('state solver', () => {
  it('the DW corner state is factored by LU: no QR per state, and its solves meet their equations', () => {
    const model = new SensitivityModel(parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8')));
    const here = gradientsAtFirstState(model, sweepFromShortcut('bump', '20:20:1'));
    here();
    const factor = PivotedQR.prototype.factor;
    let qrs = 0;
    PivotedQR.prototype.factor = function (...args: Parameters<typeof factor>) { qrs++; return factor.apply(this, args); };
    try {
      for (let i = 0; i < 3; i++) expect(here().camber).not.toBeNull();
    } finally {
      PivotedQR.prototype.factor = factor;
    }
    expect(qrs).toBe(0);
  });

  it('square: A x = b, Aᵀ λ = y and Aᵀ μ = e_a hold to rounding; the QR made on demand agrees', () => {
    const n = 12;
    const { A, scale } = randomSystem(n, n, 7);
    const s = new StateSolver(n);
    expect(s.factor(A, n, n, scale)).toBe(n);
    expect(s.method).toBe('lu');
    const rnd = seededRandom(3);
    const b = Float64Array.from({ length: n }, () => rnd() - 0.5);
    const x = s.solve(new Float64Array(n), b);
    for (let r = 0; r < n; r++) expect(Math.abs(row(A, n, n, scale, x, r) - b[r])).toBeLessThan(1e-12);
    const l = s.solveTransposed(new Float64Array(n), b);
    for (let c = 0; c < n; c++) expect(Math.abs(col(A, n, scale, l, c) - b[c])).toBeLessThan(1e-12);
    const mu = s.unitTransposed(new Float64Array(n), 5);
    for (let c = 0; c < n; c++) expect(Math.abs(col(A, n, scale, mu, c) - (c === 5 ? 1 : 0))).toBeLessThan(1e-12);
    // the least squares of a consistent square system is its solution
    const qr = s.qr();
    const y = Float64Array.from(b), z = new Float64Array(n);
    qr.applyQt(y);
    qr.solveR(z, y);
    for (let k = 0; k < n; k++) expect(Math.abs(z[k] * scale[qr.perm[k]] - x[qr.perm[k]])).toBeLessThan(1e-11);
  });

  it('redundant rows (M > n) take the QR: consistent right-hand sides are solved exactly', () => {
    const n = 6, M = 8;
    const { A, scale } = randomSystem(M, n, 11);
    // rows 6 and 7 repeat rows 0 and 1
    for (let c = 0; c < n; c++) { A[c * M + 6] = A[c * M]; A[c * M + 7] = A[c * M + 1]; }
    const s = new StateSolver(n);
    expect(s.factor(A, M, n, scale)).toBe(n);
    expect(s.method).toBe('qr');
    const x0 = Float64Array.from({ length: n }, (_, i) => i - 2.5);
    const b = Float64Array.from({ length: M }, (_, r) => row(A, M, n, scale, x0, r));
    const x = s.solve(new Float64Array(n), b);
    for (let c = 0; c < n; c++) expect(Math.abs(x[c] - x0[c])).toBeLessThan(1e-12);
    const y = Float64Array.from({ length: n }, (_, c) => c + 1);
    const l = s.solveTransposed(new Float64Array(M), y);
    for (let c = 0; c < n; c++) expect(Math.abs(col(A, M, scale, l, c) - y[c])).toBeLessThan(1e-12);
    const mu = s.unitTransposed(new Float64Array(M), 2);
    for (let c = 0; c < n; c++) expect(Math.abs(col(A, M, scale, mu, c) - (c === 2 ? 1 : 0))).toBeLessThan(1e-12);
  });

  it('a singular square system reports its rank', () => {
    const n = 7;
    const { A, scale } = randomSystem(n, n, 5);
    // column 6 = column 0 + column 3: rank 6
    for (let r = 0; r < n; r++) A[6 * n + r] = A[r] + A[3 * n + r];
    expect(new StateSolver(n).factor(A, n, n, scale)).toBe(6);
  });
});

describe('twistOf', () => {
  const p: V[] = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]].map((x) => x.map((v) => tt(v, 0)) as V);
  it('a body at rest has the zero twist, and the twist of its rates’ derivatives as its derivative', () => {
    const still = twistOf(p, p.map(() => [tt(0, 0), tt(0, 0), tt(0, 0)] as V));
    expect(still).not.toBeNull();
    for (const v of [...still!.w, ...still!.v0]) expect(v).toEqual({ v: 0, t: 0 });
    // rates zero, their derivatives those of a turn about z (ω' = e_z) and a slide along x
    const rates = p.map((q) => [tt(0, -q[1].v + 1), tt(0, q[0].v), tt(0, 0)] as V);
    const moving = twistOf(p, rates)!;
    expect(moving.w.map((c) => c.v)).toEqual([0, 0, 0]);
    expect(moving.w.map((c) => c.t + 0)).toEqual([0, 0, 1]);
    expect(moving.v0.map((c) => c.t + 0)).toEqual([1, 0, 0]);
  });
});
