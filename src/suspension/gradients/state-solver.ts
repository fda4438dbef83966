/**
 * The solves on a solved state's square system A = [Φ_q; drivers_q] (state-factors.ts builds
 * it in scaled columns, column-major): A x = b for state rates, Aᵀ λ = y for the adjoint and
 * the multipliers. A square A (as many rows as free coordinates, the usual case) is
 * nonsingular at a state its rows fix, so an LU with partial pivoting does (about half a
 * QR's work). The column-major A read row-major is Aᵀ, so the LU is Aᵀ's: P Aᵀ = L U, and
 * A x = b is its transposed solve. More rows than coordinates (redundant constraints) take
 * the pivoted QR's least squares, as does a square A whose LU finds a pivot too small (the
 * QR then says the rank). Every solve takes and gives unscaled values.
 */
import { LU, PivotedQR } from '../../../kernel/linalg';

/** Rank tolerance: a pivot (LU) or a remaining column norm (QR) below this × the largest is zero. */
const RANK_TOLERANCE = 1e-10;

export class StateSolver {
  M = 0;
  n = 0;
  /** Which factorisation the last `factor` kept. */
  method: 'lu' | 'qr' = 'lu';
  private lu: LU;
  private qrFactor: PivotedQR | null = null;
  /** Whether qrFactor holds the current matrix's factors (it is made on demand for a square one). */
  private qrCurrent = false;
  private A: Float64Array = new Float64Array(0);
  private colScale: readonly number[] = [];
  private readonly work: Float64Array;

  constructor(maxN: number) {
    this.lu = new LU(maxN);
    this.work = new Float64Array(maxN);
  }

  /**
   * Factor A (M × n, column-major, columns scaled by colScale; kept by reference, not
   * copied: the caller leaves it unchanged until the next factor). Returns the rank: n
   * when A fixes the state.
   */
  factor(A: Float64Array, M: number, n: number, colScale: readonly number[]): number {
    this.M = M; this.n = n; this.A = A; this.colScale = colScale;
    this.qrCurrent = false;
    if (M === n && n <= this.lu.maxN && this.lu.factor(A, n, RANK_TOLERANCE)) { this.method = 'lu'; return n; }
    this.method = 'qr';
    return this.qr().rank;
  }

  /**
   * The pivoted QR of the current A (made now for a square one factored by LU): for callers
   * that read a QR's own factors. The solves below need none.
   */
  qr(): PivotedQR {
    if (!this.qrCurrent) {
      this.qrFactor ??= new PivotedQR(this.M, this.n);
      this.qrFactor.factor(this.A, this.M, this.n, RANK_TOLERANCE);
      this.qrCurrent = true;
    }
    return this.qrFactor!;
  }

  /** out = x with A x = rhs (rhs by row, unscaled; out: unscaled state columns, length ≥ n). */
  solve(out: Float64Array, rhs: ArrayLike<number>): Float64Array {
    const n = this.n, cs = this.colScale;
    if (this.method === 'lu') {
      const w = this.work;
      for (let i = 0; i < n; i++) w[i] = rhs[i];
      this.lu.solveTransposed(w);
      for (let a = 0; a < n; a++) out[a] = w[a] * cs[a];
      return out;
    }
    const qr = this.qr(), M = this.M;
    const b = new Float64Array(M), x = new Float64Array(n);
    for (let i = 0; i < M; i++) b[i] = rhs[i];
    qr.applyQt(b);
    qr.solveR(x, b);
    for (let a = 0; a < n; a++) out[qr.perm[a]] = x[a] * cs[qr.perm[a]];
    return out;
  }

  /** out = λ with Aᵀ λ = y (y per state column, unscaled; out by row, length ≥ M). */
  solveTransposed(out: Float64Array, y: ArrayLike<number>): Float64Array {
    const n = this.n, cs = this.colScale;
    if (this.method === 'lu') {
      for (let a = 0; a < n; a++) out[a] = y[a] * cs[a];
      this.lu.solve(out);
      return out;
    }
    const qr = this.qr();
    const b = new Float64Array(n), z = new Float64Array(n);
    for (let a = 0; a < n; a++) b[a] = y[qr.perm[a]] * cs[qr.perm[a]];
    qr.solveRt(z, b);
    out.fill(0, 0, this.M);
    out.set(z);
    qr.applyQ(out);
    return out;
  }

  /** out = μ with Aᵀ μ = e_a, the unit at state column a (the adjoint's right-hand sides). */
  unitTransposed(out: Float64Array, a: number): Float64Array {
    if (this.method === 'lu') {
      out.fill(0, 0, this.n);
      out[a] = this.colScale[a];
      this.lu.solve(out);
      return out;
    }
    // Rᵀ z = the scaled unit at a's pivoted place p (z zero above p), μ = Q z
    const qr = this.qr(), R = qr.a, rows = qr.rows, n = this.n, perm = qr.perm;
    let p = 0;
    while (perm[p] !== a) p++;
    out.fill(0, 0, this.M);
    out[p] = this.colScale[a] / R[p * rows + p];
    for (let i = p + 1; i < n; i++) {
      let s = 0;
      const ii = i * rows;
      for (let k = p; k < i; k++) s -= R[ii + k] * out[k];
      out[i] = s / R[ii + i];
    }
    qr.applyQ(out);
    return out;
  }
}
