import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LU, PivotedQR, choleskySolve, svd3 } from '../../kernel/linalg';
import { fromAxisAngle, toMatrix } from '../../kernel/quat';

const entry = fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true });

describe('pivoted QR', () => {
  it('finds the rank of a product of random factors and a null space orthogonal to the rows', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.array(entry, { minLength: 200, maxLength: 200 }), (r, m, n, vals) => {
      const rank = Math.min(r, m, n);
      // J (m×n, row-major) = U (m×rank) V (rank×n)
      const J = new Float64Array(m * n);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
        let s = 0;
        for (let k = 0; k < rank; k++) s += (vals[(i * rank + k) % 100] + (i === k ? 3 : 0)) * (vals[100 + ((k * n + j) % 100)] + (k === j ? 3 : 0));
        J[i * n + j] = s;
      }
      const qr = new PivotedQR(n, m);
      const got = qr.factor(J, n, m, 1e-9);
      expect(got).toBe(rank);
      const Z = qr.nullSpace();
      const k = n - got;
      for (let a = 0; a < k; a++) {
        for (let i = 0; i < m; i++) {
          let s = 0;
          for (let j = 0; j < n; j++) s += J[i * n + j] * Z[a * n + j];
          expect(Math.abs(s)).toBeLessThan(1e-9);
        }
        for (let b = 0; b < k; b++) {
          let s = 0;
          for (let j = 0; j < n; j++) s += Z[a * n + j] * Z[b * n + j];
          expect(s).toBeCloseTo(a === b ? 1 : 0, 12);
        }
      }
    }));
  });

  it('Q is orthogonal: QᵀQx = x', () => {
    fc.assert(fc.property(fc.array(entry, { minLength: 20, maxLength: 20 }), fc.array(entry, { minLength: 5, maxLength: 5 }), (a, x) => {
      const qr = new PivotedQR(5, 4);
      qr.factor(a, 5, 4, 1e-12);
      const y = Float64Array.from(x);
      qr.applyQ(y); qr.applyQt(y);
      for (let i = 0; i < 5; i++) expect(y[i]).toBeCloseTo(x[i], 12);
    }));
  });

  it('solveRt solves R₁₁ᵀ y = b, bit for bit the forward substitution row by row, at every rank', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.array(entry, { minLength: 90, maxLength: 90 }), fc.array(entry, { minLength: 9, maxLength: 9 }), (n, vals, b) => {
      // a full-rank n × (n + 1) matrix (a diagonal that dominates), factored
      const m = n + 1, J = new Float64Array(m * n);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) J[i * n + j] = vals[(i * n + j) % 90] + (i === j ? 5 : 0);
      const qr = new PivotedQR(n, m);
      expect(qr.factor(J, n, m, 1e-12)).toBe(n);
      const y = new Float64Array(n);
      qr.solveRt(y, b);
      // the reference: one row at a time, each sum over k ascending
      for (let i = 0; i < n; i++) {
        let s = b[i];
        for (let k = 0; k < i; k++) s -= qr.r(k, i) * y[k];
        expect(Object.is(y[i], s / qr.r(i, i))).toBe(true);
      }
      // and it solves the system: Σ_k R[k, i] y[k] = b[i]
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k <= i; k++) s += qr.r(k, i) * y[k];
        expect(s).toBeCloseTo(b[i], 9);
      }
    }));
  });
});

describe('Cholesky', () => {
  it('solves symmetric positive-definite systems and refuses indefinite ones', () => {
    const A = Float64Array.from([4, 2, 0, 2, 5, 1, 0, 1, 3]);
    const b = Float64Array.from([2, 3, 4]);
    const x = Float64Array.from(b);
    expect(choleskySolve(Float64Array.from(A), x, 3)).toBe(true);
    for (let i = 0; i < 3; i++) expect(A[i * 3] * x[0] + A[i * 3 + 1] * x[1] + A[i * 3 + 2] * x[2]).toBeCloseTo(b[i], 13);
    expect(choleskySolve(Float64Array.from([1, 2, 2, 1]), Float64Array.from([1, 1]), 2)).toBe(false);
  });
});

describe('LU transposed solve', () => {
  it('solves Aᵀx = b with the factors of A (pivoting needed: a zero leading entry)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), fc.array(entry, { minLength: 49, maxLength: 49 }), fc.array(entry, { minLength: 7, maxLength: 7 }), (n, vals, b) => {
      const A = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * n + j] = vals[i * n + j] + (i === (j + 1) % n ? 5 : 0);
      A[0] = 0;
      const lu = new LU(n);
      if (!lu.factor(A, n, 1e-12)) return;
      const x = Float64Array.from(b.slice(0, n));
      lu.solveTransposed(x);
      // backward stable: the residual is round-off of |A||x|
      const size = Math.max(1, ...x.map(Math.abs)) * 10;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += A[i * n + j] * x[i];
        expect(Math.abs(s - b[j])).toBeLessThan(1e-12 * size * n);
      }
    }));
  });
});

describe('3×3 Jacobi SVD', () => {
  // A = R₁ diag(σ) R₂ᵀ from two rotations: its singular values are σ, by construction
  const rotation = (axis: number[], angle: number) => toMatrix(new Float64Array(9), fromAxisAngle(new Float64Array(4), Float64Array.from(axis), angle));
  it('gives the singular values of R₁ diag(σ) R₂ᵀ (σ sorted, down to 1e-12 of σ₁) and factors that rebuild A', () => {
    fc.assert(fc.property(fc.array(entry, { minLength: 8, maxLength: 8 }), fc.integer({ min: 0, max: 12 }), (x, small) => {
      const sigma = [3, 1 + Math.abs(x[6]) / 4, 10 ** -small];
      const r1 = rotation([x[0], x[1], 3 + x[2]], x[3]), r2 = rotation([3 + x[4], x[5], x[7]], 1 + x[3]);
      const A = new Float64Array(9);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) A[3 * i + j] += r1[3 * i + k] * sigma[k] * r2[3 * j + k];
      const a = A.slice(), v = new Float64Array(9), s = new Float64Array(3);
      svd3(a, v, s);
      const sorted = [...sigma].sort((p, q) => q - p);
      for (let k = 0; k < 3; k++) expect(Math.abs(s[k] - sorted[k])).toBeLessThan(1e-14 * 3 * 4);
      // a = U·Σ, so A = a·Vᵀ; V orthogonal
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        let back = 0, vtv = 0;
        for (let k = 0; k < 3; k++) { back += a[3 * i + k] * v[3 * j + k]; vtv += v[3 * k + i] * v[3 * k + j]; }
        expect(Math.abs(back - A[3 * i + j])).toBeLessThan(1e-14 * 3 * 4);
        expect(Math.abs(vtv - (i === j ? 1 : 0))).toBeLessThan(1e-14);
      }
    }));
  });
  it('leaves the zero matrix at σ = 0 with V = I', () => {
    const a = new Float64Array(9), v = new Float64Array(9), s = new Float64Array(3).fill(7);
    svd3(a, v, s);
    expect([...s]).toEqual([0, 0, 0]);
    expect([...v]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});
