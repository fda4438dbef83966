/**
 * Triangular solves with an LU factorisation's nonzeros only. A mated system's iteration
 * matrix (6×6 mass blocks, a few columns per constraint row) keeps most of its LU factors
 * zero; when one factorisation serves many solves (a modified Newton reusing its matrix
 * across iterations and steps), listing the nonzeros once per factorisation makes every
 * solve cost their count instead of n². The terms kept are summed in LU.solve's order, and
 * a skipped term is an exact zero, so the solution is LU.solve's, bit for bit.
 */
import type { LU } from './linalg';
import { InternalError } from './errors';

export class CompressedLU {
  private n = 0;
  private readonly piv: Int32Array;
  /** Row i's strict-lower nonzeros are lCol/lVal[lStart[i] .. lStart[i + 1]); the upper's likewise. */
  private readonly lStart: Int32Array;
  private readonly uStart: Int32Array;
  private readonly lCol: Int32Array;
  private readonly uCol: Int32Array;
  private readonly lVal: Float64Array;
  private readonly uVal: Float64Array;
  private readonly diag: Float64Array;

  constructor(readonly maxN: number) {
    const half = (maxN * (maxN + 1)) / 2;
    this.piv = new Int32Array(maxN);
    this.lStart = new Int32Array(maxN + 1);
    this.uStart = new Int32Array(maxN + 1);
    this.lCol = new Int32Array(half); this.lVal = new Float64Array(half);
    this.uCol = new Int32Array(half); this.uVal = new Float64Array(half);
    this.diag = new Float64Array(maxN);
  }

  /** Take the nonzeros of a factored LU (after a successful `factor`). */
  load(lu: LU): void {
    const n = lu.n, a = lu.a;
    if (n > this.maxN) throw new InternalError(`CompressedLU: size ${n} exceeds the workspace (${this.maxN})`);
    this.n = n;
    this.piv.set(lu.piv.subarray(0, n));
    let nl = 0, nu = 0;
    for (let i = 0; i < n; i++) {
      this.lStart[i] = nl;
      for (let k = 0; k < i; k++) {
        const x = a[i * n + k];
        if (x !== 0) { this.lCol[nl] = k; this.lVal[nl++] = x; }
      }
      this.uStart[i] = nu;
      for (let k = i + 1; k < n; k++) {
        const x = a[i * n + k];
        if (x !== 0) { this.uCol[nu] = k; this.uVal[nu++] = x; }
      }
      this.diag[i] = a[i * n + i];
    }
    this.lStart[n] = nl; this.uStart[n] = nu;
  }

  /** Nonzeros kept (lower and upper, diagonal not counted). */
  get nonzeros(): number { return this.lStart[this.n] + this.uStart[this.n]; }

  /** Solve A x = b in place (b overwritten by x). */
  solve(b: Float64Array): void {
    const n = this.n, piv = this.piv;
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      if (p !== k) { const t = b[k]; b[k] = b[p]; b[p] = t; }
    }
    const lStart = this.lStart, lCol = this.lCol, lVal = this.lVal;
    for (let i = 1; i < n; i++) {
      let s = b[i];
      for (let e = lStart[i], end = lStart[i + 1]; e < end; e++) s -= lVal[e] * b[lCol[e]];
      b[i] = s;
    }
    const uStart = this.uStart, uCol = this.uCol, uVal = this.uVal, diag = this.diag;
    for (let i = n - 1; i >= 0; i--) {
      let s = b[i];
      for (let e = uStart[i], end = uStart[i + 1]; e < end; e++) s -= uVal[e] * b[uCol[e]];
      b[i] = s / diag[i];
    }
  }
}
