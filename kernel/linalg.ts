/**
 * Dense linear algebra for the solver, in Float64 with preallocated workspaces:
 * Householder QR with column pivoting (rank-revealing), a Cholesky solve, an LU, and the
 * 3×3 Jacobi SVD of the screw-axis fit.
 *
 * Why our own and not ml-matrix's SVD: the solver factors a small Jacobian on every Newton
 * step, where a general SVD is too slow (a 36×36 took ~3.7 ms), and ml-matrix's SVD of a
 * wide matrix does not give a usable null space (MATH.md). A pivoted QR of Jᵀ gives the
 * rank, which rows are independent, a basis of the null space and the minimum-norm step.
 */
import { InternalError } from './errors';

/**
 * Column-pivoted Householder QR of A (rows × cols, column-major, leading dimension rows):
 * A·P = Q·R. Columns whose remaining norm falls below `relativeTolerance` × the largest
 * column norm are left out of the rank.
 */
export class PivotedQR {
  rows = 0;
  cols = 0;
  rank = 0;
  /** Factored matrix: R on and above the diagonal, Householder vectors below. */
  a: Float64Array;
  /** Householder scalars. */
  tau: Float64Array;
  /** perm[k] = original column at position k. */
  perm: Int32Array;
  private norms: Float64Array;
  private work: Float64Array;
  /** Per column: the first and last row that may be non-zero (see `factor`). */
  private lo: Int32Array;
  private hi: Int32Array;
  /** Last row of reflector k's vector (rows past it are zero). */
  private vEnd: Int32Array;

  constructor(maxRows = 0, maxCols = 0) {
    this.a = new Float64Array(maxRows * maxCols);
    this.tau = new Float64Array(Math.max(maxRows, maxCols));
    this.perm = new Int32Array(maxCols);
    this.norms = new Float64Array(maxCols);
    this.work = new Float64Array(Math.max(maxRows, maxCols));
    this.lo = new Int32Array(maxCols);
    this.hi = new Int32Array(maxCols);
    this.vEnd = new Int32Array(Math.max(maxRows, maxCols));
    this.ref = new Float64Array(maxCols);
  }

  /**
   * Reference norms of the pivoting (allocated with the others, not at a first factor: a
   * `new` that ran before V8 kept type feedback for it deoptimised `factor` at every new
   * model's first factorisation).
   */
  private ref: Float64Array;

  private ensure(rows: number, cols: number): void {
    if (this.a.length < rows * cols) this.a = new Float64Array(rows * cols);
    if (this.tau.length < Math.max(rows, cols)) this.tau = new Float64Array(Math.max(rows, cols));
    if (this.perm.length < cols) { this.perm = new Int32Array(cols); this.norms = new Float64Array(cols); this.lo = new Int32Array(cols); this.hi = new Int32Array(cols); }
    if (this.ref.length < cols) this.ref = new Float64Array(cols);
    if (this.vEnd.length < Math.max(rows, cols)) this.vEnd = new Int32Array(Math.max(rows, cols));
    if (this.work.length < Math.max(rows, cols)) this.work = new Float64Array(Math.max(rows, cols));
  }

  /**
   * Factor the column-major matrix `src` (copied). A row-major m×n matrix J is exactly the
   * column-major n×m matrix Jᵀ, so `factor(J, n, m)` factors Jᵀ and pivots J's rows.
   */
  factor(src: ArrayLike<number>, rows: number, cols: number, relativeTolerance: number): number {
    this.ensure(rows, cols);
    this.rows = rows; this.cols = cols;
    const a = this.a, perm = this.perm, norms = this.norms, tau = this.tau, lo = this.lo, hi = this.hi, vEnd = this.vEnd;
    if (src instanceof Float64Array) a.set(src.length === rows * cols ? src : src.subarray(0, rows * cols));
    else for (let i = 0; i < rows * cols; i++) a[i] = src[i];
    // Each column's non-zeros lie in rows lo..hi (a bound kept through the updates): a
    // constraint Jacobian is sparse, so most reflector–column pairs do not meet and are
    // skipped, and the rest only loop over their overlap. Skipped terms are exact zeros, so
    // the factor is bit for bit the dense one.
    let maxNorm = 0;
    for (let j = 0; j < cols; j++) {
      perm[j] = j;
      let s = 0, first = rows, last = -1;
      const base = j * rows;
      for (let i = 0; i < rows; i++) {
        const v = a[base + i];
        if (v !== 0) { if (first === rows) first = i; last = i; }
        s += v * v;
      }
      lo[j] = first; hi[j] = last;
      norms[j] = s;
      if (s > maxNorm) maxNorm = s;
    }
    const steps = Math.min(rows, cols);
    const threshold = relativeTolerance * Math.sqrt(maxNorm);
    const ref = this.ref;
    for (let j = 0; j < cols; j++) ref[j] = norms[j];
    let rank = 0;
    for (let k = 0; k < steps; k++) {
      // Pick the column with the largest remaining norm; the first among equals. Norms are
      // downdated (LAPACK style) and recomputed exactly whenever cancellation has eaten
      // most of their digits, so rank decisions see accurate values.
      let best = k, bestNorm = -1;
      for (let j = k; j < cols; j++) {
        if (k > 0) {
          const r = a[j * rows + k - 1];
          let s = norms[j] - r * r;
          if (s <= 1e-6 * ref[j] || s < 0) {
            s = 0;
            const base = j * rows;
            for (let i = lo[j] > k ? lo[j] : k; i <= hi[j]; i++) { const v = a[base + i]; s += v * v; }
            ref[j] = s;
          }
          norms[j] = s;
        }
        const s = norms[j];
        if (s > bestNorm * (1 + 1e-9)) { bestNorm = s; best = j; }
      }
      if (!(Math.sqrt(bestNorm) > threshold)) break; // also stops on NaN
      if (best !== k) {
        // both columns are zero outside their rows lo..hi: swap the union of the two
        const bk = best * rows, kk = k * rows;
        const i0 = lo[best] < lo[k] ? lo[best] : lo[k], i1 = hi[best] > hi[k] ? hi[best] : hi[k];
        for (let i = i0; i <= i1; i++) { const t = a[bk + i]; a[bk + i] = a[kk + i]; a[kk + i] = t; }
        const tp = perm[best]; perm[best] = perm[k]; perm[k] = tp;
        const tn = norms[best]; norms[best] = norms[k]; norms[k] = tn;
        const tr = ref[best]; ref[best] = ref[k]; ref[k] = tr;
        const tl = lo[best]; lo[best] = lo[k]; lo[k] = tl;
        const th = hi[best]; hi[best] = hi[k]; hi[k] = th;
      }
      // Householder vector for a[k.., k]: non-zero in rows k..hk only
      const kk = k * rows, hk = hi[k];
      vEnd[k] = hk;
      let sigma = 0;
      for (let i = k + 1; i <= hk; i++) sigma += a[kk + i] * a[kk + i];
      const x0 = a[kk + k];
      const normx = Math.sqrt(x0 * x0 + sigma);
      // (τ stored before the test: a store only in the rare branch had no type feedback when
      // V8 optimised this loop, and the first column found reduced deoptimised it)
      tau[k] = 0;
      if (!(sigma === 0 && x0 >= 0)) {
        const beta = x0 >= 0 ? -normx : normx;
        const v0 = x0 - beta;
        for (let i = k + 1; i <= hk; i++) a[kk + i] /= v0;
        tau[k] = (beta - x0) / beta;
        a[kk + k] = beta;
        // Apply H = I − τ v vᵀ (v0 = 1 implicit) to the remaining columns that v meets.
        const t = tau[k];
        for (let j = k + 1; j < cols; j++) {
          const lj = lo[j], hj = hi[j];
          if (lj > hk || hj < k) continue;
          const jj = j * rows;
          let s = a[jj + k];
          const top = hj < hk ? hj : hk;
          for (let i = lj > k + 1 ? lj : k + 1; i <= top; i++) s += a[kk + i] * a[jj + i];
          if (s === 0) continue;
          s *= t;
          a[jj + k] -= s;
          for (let i = k + 1; i <= hk; i++) a[jj + i] -= s * a[kk + i];
          if (k < lj) lo[j] = k;
          if (hk > hj) hi[j] = hk;
        }
      }
      rank = k + 1;
    }
    this.rank = rank;
    return rank;
  }

  /** x ← Q x (x of length rows), using the first `rank` reflectors. */
  applyQ(x: Float64Array, xOff = 0): void {
    const a = this.a, rows = this.rows, tau = this.tau, vEnd = this.vEnd;
    for (let k = this.rank - 1; k >= 0; k--) {
      const t = tau[k];
      if (t === 0) continue;
      const kk = k * rows, end = vEnd[k];
      let s = x[xOff + k];
      for (let i = k + 1; i <= end; i++) s += a[kk + i] * x[xOff + i];
      s *= t;
      x[xOff + k] -= s;
      for (let i = k + 1; i <= end; i++) x[xOff + i] -= s * a[kk + i];
    }
  }
  /** x ← Qᵀ x. */
  applyQt(x: Float64Array, xOff = 0): void {
    const a = this.a, rows = this.rows, tau = this.tau, vEnd = this.vEnd;
    for (let k = 0; k < this.rank; k++) {
      const t = tau[k];
      if (t === 0) continue;
      const kk = k * rows, end = vEnd[k];
      let s = x[xOff + k];
      for (let i = k + 1; i <= end; i++) s += a[kk + i] * x[xOff + i];
      s *= t;
      x[xOff + k] -= s;
      for (let i = k + 1; i <= end; i++) x[xOff + i] -= s * a[kk + i];
    }
  }
  /** R[i, j] (after pivoting), i ≤ j. */
  r(i: number, j: number): number {
    return this.a[j * this.rows + i];
  }
  /**
   * Solve R11ᵀ y = b for the leading rank×rank block (forward substitution), b given in
   * pivoted order (b[k] belongs to original column perm[k]). Writes y into out[0..rank).
   */
  solveRt(out: Float64Array, b: ArrayLike<number>): void {
    const a = this.a, rows = this.rows, r = this.rank;
    // Two rows at a time: each row's sum is a chain of dependent subtractions, and two chains
    // in one loop run side by side (a drive's chord step is two triangular solves, the QR's
    // application, and the rows). Each row's terms are taken in the same order (k ascending),
    // so the bits are the one-row loop's.
    let i = 0;
    for (; i + 1 < r; i += 2) {
      const ii = i * rows, jj = ii + rows;
      let s = b[i], t = b[i + 1];
      for (let k = 0; k < i; k++) { const o = out[k]; s -= a[ii + k] * o; t -= a[jj + k] * o; }
      const oi = s / a[ii + i];
      out[i] = oi;
      t -= a[jj + i] * oi;
      out[i + 1] = t / a[jj + i + 1];
    }
    if (i < r) {
      let s = b[i];
      const ii = i * rows;
      for (let k = 0; k < i; k++) s -= a[ii + k] * out[k];
      out[i] = s / a[ii + i];
    }
  }
  /** Solve R11 x = b (back substitution) for the leading rank×rank block. */
  solveR(out: Float64Array, b: ArrayLike<number>): void {
    const a = this.a, rows = this.rows, r = this.rank;
    for (let i = r - 1; i >= 0; i--) {
      let s = b[i];
      for (let k = i + 1; k < r; k++) s -= a[k * rows + i] * out[k];
      out[i] = s / a[i * rows + i];
    }
  }
  /**
   * An orthonormal basis of the orthogonal complement of the factored columns' span
   * (for A = Jᵀ: the null space of J), as a column-major rows×(rows−rank) matrix.
   */
  nullSpace(out?: Float64Array): Float64Array {
    const rows = this.rows, k = rows - this.rank;
    const z = out && out.length >= rows * k ? out : new Float64Array(rows * k);
    z.fill(0, 0, rows * k);
    for (let j = 0; j < k; j++) {
      z[j * rows + this.rank + j] = 1;
      this.applyQ(z, j * rows);
    }
    return z;
  }
}

/**
 * In-place Cholesky solve of the symmetric positive-definite n×n system A x = b
 * (A row-major, overwritten by its factor; b overwritten by x). Returns false when A is
 * not positive definite (a pivot ≤ tiny × the largest diagonal), leaving b undefined.
 */
export function choleskySolve(A: Float64Array, b: Float64Array, n: number): boolean {
  let maxDiag = 0;
  for (let i = 0; i < n; i++) maxDiag = Math.max(maxDiag, Math.abs(A[i * n + i]));
  const floor = maxDiag * 1e-15;
  for (let j = 0; j < n; j++) {
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) d -= A[j * n + k] * A[j * n + k];
    if (!(d > floor)) return false;
    d = Math.sqrt(d);
    A[j * n + j] = d;
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = s / d;
    }
  }
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= A[i * n + k] * b[k];
    b[i] = s / A[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < n; k++) s -= A[k * n + i] * b[k];
    b[i] = s / A[i * n + i];
  }
  return true;
}

/**
 * LU factorisation with partial (row) pivoting of a square n×n matrix, row-major, in a
 * preallocated workspace: factor once, solve many right-hand sides (the integrator reuses
 * one factorisation across Newton iterations while they converge). No allocation after
 * construction for n ≤ the size it was built for.
 */
export class LU {
  n = 0;
  readonly a: Float64Array;
  readonly piv: Int32Array;
  /** Scratch: the pivot row's nonzero columns. */
  private readonly cols: Int32Array;
  constructor(readonly maxN: number) {
    this.a = new Float64Array(maxN * maxN);
    this.piv = new Int32Array(maxN);
    this.cols = new Int32Array(maxN);
  }

  /**
   * Factor A (n×n row-major; copied, A is left untouched). Returns false when a pivot is
   * below `relativeTolerance` × the largest entry of its column at that stage (singular).
   * With `perm`, the matrix factored is A's symmetric permutation: entry (i, j) is
   * A[perm[i], perm[j]] (lu-ordered.ts: a fill-reducing order). `pivotThreshold` < 1 keeps
   * the diagonal pivot when it is at least that fraction of its column's largest entry.
   */
  factor(A: ArrayLike<number>, n: number, relativeTolerance = 1e-14, perm: Int32Array | null = null, pivotThreshold = 1): boolean {
    if (n > this.maxN) throw new InternalError(`LU: size ${n} exceeds the workspace (${this.maxN})`);
    this.n = n;
    const a = this.a, piv = this.piv;
    let scale = 0;
    if (perm) {
      for (let i = 0; i < n; i++) {
        const src = perm[i] * n, dst = i * n;
        for (let j = 0; j < n; j++) { const x = A[src + perm[j]]; a[dst + j] = x; if (Math.abs(x) > scale) scale = Math.abs(x); }
      }
    } else for (let i = 0; i < n * n; i++) { a[i] = A[i]; scale = Math.max(scale, Math.abs(A[i])); }
    const floor = relativeTolerance * scale;
    for (let k = 0; k < n; k++) {
      let p = k, best = Math.abs(a[k * n + k]);
      for (let i = k + 1; i < n; i++) {
        const x = Math.abs(a[i * n + k]);
        if (x > best) { best = x; p = i; }
      }
      // threshold pivoting: the diagonal when within the threshold of the column's largest
      // (a sparse order's pivots, so its fill stays where the order predicted)
      if (p !== k && Math.abs(a[k * n + k]) >= pivotThreshold * best) p = k;
      piv[k] = p;
      if (!(best > floor)) return false;
      if (p !== k) {
        for (let j = 0; j < n; j++) { const t = a[k * n + j]; a[k * n + j] = a[p * n + j]; a[p * n + j] = t; }
      }
      const inv = 1 / a[k * n + k];
      // the pivot row's nonzeros right of the diagonal: a mated system's rows have few, and
      // a skipped term subtracts an exact zero
      const cols = this.cols, kn = k * n;
      let nz = 0;
      for (let j = k + 1; j < n; j++) if (a[kn + j] !== 0) cols[nz++] = j;
      for (let i = k + 1; i < n; i++) {
        const l = a[i * n + k] * inv;
        if (l === 0) continue;
        const in_ = i * n;
        a[in_ + k] = l;
        for (let e = 0; e < nz; e++) { const j = cols[e]; a[in_ + j] -= l * a[kn + j]; }
      }
    }
    return true;
  }

  /** Solve A x = b in place (b overwritten by x). */
  solve(b: Float64Array): void {
    const n = this.n, a = this.a, piv = this.piv;
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      if (p !== k) { const t = b[k]; b[k] = b[p]; b[p] = t; }
    }
    for (let i = 1; i < n; i++) {
      let s = b[i];
      for (let k = 0; k < i; k++) s -= a[i * n + k] * b[k];
      b[i] = s;
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = b[i];
      for (let k = i + 1; k < n; k++) s -= a[i * n + k] * b[k];
      b[i] = s / a[i * n + i];
    }
  }

  /** Solve Aᵀ x = b in place with the same factors (PA = LU: Uᵀ z = b, Lᵀ w = z, x = Pᵀ w). */
  solveTransposed(b: Float64Array): void {
    const n = this.n, a = this.a, piv = this.piv;
    for (let i = 0; i < n; i++) {
      let s = b[i];
      for (let k = 0; k < i; k++) s -= a[k * n + i] * b[k];
      b[i] = s / a[i * n + i];
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = b[i];
      for (let k = i + 1; k < n; k++) s -= a[k * n + i] * b[k];
      b[i] = s;
    }
    for (let k = n - 1; k >= 0; k--) {
      const p = piv[k];
      if (p !== k) { const t = b[k]; b[k] = b[p]; b[p] = t; }
    }
  }
}

/** sqrt(a² + b²) without spurious overflow or underflow. */
export function hyp(a: number, b: number): number {
  const r = Math.sqrt(a * a + b * b);
  if (r > 1e-150 && r < 1e150) return r;
  return Math.hypot(a, b);
}

/** sqrt(x² + y² + z²) without spurious overflow or underflow. */
export function norm3(x: number, y: number, z: number): number {
  const r = Math.sqrt(x * x + y * y + z * z);
  if (r > 1e-150 && r < 1e150) return r;
  return Math.hypot(x, y, z);
}

/**
 * One-sided (Hestenes) Jacobi SVD of the 3×3 matrix `a` (row-major), in place: afterwards
 * `a` holds U·Σ (column j = σ_j u_j), `v` the right singular vectors (columns), `sigma` the
 * singular values; all sorted by descending σ. Singular values to ~ε·σ₁ (screw.ts's fits).
 */
export function svd3(a: Float64Array, v: Float64Array, sigma: Float64Array): void {
  v.fill(0);
  v[0] = 1;
  v[4] = 1;
  v[8] = 1;
  // Work on a copy scaled to unit max entry, so sums of squares cannot under/overflow.
  let m = 0;
  for (let i = 0; i < 9; i++) m = Math.max(m, Math.abs(a[i]));
  const scaled = m > 0 && Number.isFinite(m);
  if (scaled) for (let i = 0; i < 9; i++) a[i] /= m;
  for (let sweep = 0; sweep < 64; sweep++) {
    let rotated = false;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < 3; i++) {
          const x = a[3 * i + p];
          const y = a[3 * i + q];
          alpha += x * x;
          beta += y * y;
          gamma += x * y;
        }
        if (gamma === 0 || !(Math.abs(gamma) > Number.EPSILON * Math.sqrt(alpha) * Math.sqrt(beta))) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + hyp(1, zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        for (let i = 0; i < 3; i++) {
          const x = a[3 * i + p];
          const y = a[3 * i + q];
          a[3 * i + p] = c * x - s * y;
          a[3 * i + q] = s * x + c * y;
          const vx = v[3 * i + p];
          const vy = v[3 * i + q];
          v[3 * i + p] = c * vx - s * vy;
          v[3 * i + q] = s * vx + c * vy;
        }
      }
    }
    if (!rotated) break;
  }
  if (scaled) for (let i = 0; i < 9; i++) a[i] *= m;
  for (let j = 0; j < 3; j++) sigma[j] = norm3(a[j], a[3 + j], a[6 + j]);
  // Sort descending (three elements: bubble the columns).
  for (let pass = 0; pass < 2; pass++) {
    for (let j = 0; j < 2 - pass; j++) {
      if (sigma[j] < sigma[j + 1]) {
        const ts = sigma[j];
        sigma[j] = sigma[j + 1];
        sigma[j + 1] = ts;
        for (let i = 0; i < 3; i++) {
          const ta = a[3 * i + j];
          a[3 * i + j] = a[3 * i + j + 1];
          a[3 * i + j + 1] = ta;
          const tv = v[3 * i + j];
          v[3 * i + j] = v[3 * i + j + 1];
          v[3 * i + j + 1] = tv;
        }
      }
    }
  }
}

/** K x for a dense row-major n × n matrix, in a new vector. */
export function denseTimes(K: Float64Array, x: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += K[i * n + j] * x[j]; out[i] = s; }
  return out;
}

/** a += b, element by element; returns a. */
export function addInto(a: Float64Array, b: Float64Array): Float64Array {
  for (let i = 0; i < a.length; i++) a[i] += b[i];
  return a;
}
