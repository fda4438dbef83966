/**
 * The LU of the integrator's small iteration matrices (≤ 16 unknowns and rows, refactored at
 * every step: kernel/integrator/iteration.ts), replayed on their known nonzeros.
 *
 * The dense LU (linalg.ts `LU`: partial pivoting, no threshold) spends most of a 13 × 13
 * factorisation on its n² passes (the copy and the largest entry, the pivot searches, the row
 * exchanges, the pivot rows' nonzero lists), not on its few dozen multiply-adds: a
 * pendulum's saddle matrix has ~45 nonzeros of 169. Where it can be nonzero is fixed (the
 * mass and gyroscopic blocks, the forces' K and C pairs, the rows' columns: pattern.ts, 120
 * entries for the pendulum), and fewer are (a point mass's blocks, a planar swing's rows):
 * the schedule is made for the entries seen nonzero so far, and a replay first checks that
 * the others are still zero (one that is not joins them, through the dense LU). The first
 * factorisation is the dense LU, and its pivot sequence, applied to the seen entries by a
 * symbolic elimination, gives a schedule: the entries to read, each stage's competing entries in its
 * column (and whether each comes before the pivot in the dense search's order), its pivot
 * row's nonzero columns and the rows it updates. Later matrices are factored on that
 * schedule, in the final row order, after checking that partial pivoting picks the same rows
 * (a competing entry of a stage must be smaller, or no larger when the dense search meets it
 * after the pivot); when it would not, the dense LU factors that matrix and a new schedule
 * is made from its pivots.
 *
 * The same pivots and the same operations on every nonzero, so the same factors bit for bit:
 * an entry of the pattern that is zero adds −l·0 to an entry that is never −0 (every entry
 * starts at +0 or the matrix's value, which the iteration matrix's assembly never leaves
 * −0), which changes nothing. A solve subtracts the factors' nonzeros in the dense solve's
 * order. Skipping a zero term changes a sum only when it is a zero: after a nonzero term a
 * zero sum is +0 either way and stays so, so only a row with no nonzero term, starting at
 * −0, can differ; such a row is summed again over every term as the dense solve does. So
 * the solutions are the dense solve's too.
 */
import { LU } from './linalg';

export class ScheduledLU {
  n = 0;
  /** The dense LU: the first factorisation and any whose pivots the schedule does not hold. */
  private readonly dense: LU;
  /** The factors in the final row order (row-major n × n): L below the diagonal, U on and above it; zero elsewhere. */
  private readonly w: Float64Array;
  private readonly piv: Int32Array;
  /**
   * The pattern's entries seen nonzero so far (matrix indices, row-major: from[0 .. seenCount))
   * and their places in w; the others (zero[0 .. zeroCount)), which a replay checks are still
   * zero (the schedule has nothing there); the factors' other nonzeros (fill), cleared before a replay.
   */
  private from: Int32Array = new Int32Array(0);
  private to: Int32Array = new Int32Array(0);
  private zero: Int32Array = new Int32Array(0);
  private seenCount = 0;
  private zeroCount = 0;
  private seen: Uint8Array = new Uint8Array(0);
  private readonly fill: Int32Array;
  private fillCount = 0;
  /** Stage k's competitors: places in w of candStart[k] .. candStart[k + 1], with 1 where the dense search meets them before the pivot. */
  private readonly candStart: Int32Array;
  private readonly cand: Int32Array;
  private readonly candBefore: Uint8Array;
  /** Stage k's pivot row nonzeros right of the diagonal: columns uStart[k] .. uStart[k + 1] (also U's rows for the solve). */
  private readonly uStart: Int32Array;
  private readonly uCol: Int32Array;
  /** L's rows for the solve: row i's columns lStart[i] .. lStart[i + 1], ascending. */
  private readonly lStart: Int32Array;
  private readonly lCol: Int32Array;
  /** The schedule's scratch: the pattern by position, the row contents by position, their final rows, marks. */
  private readonly nz: Uint8Array;
  private readonly content: Int32Array;
  private readonly finalRow: Int32Array;
  private readonly mark: Uint8Array;
  /** The pattern the schedule is for; null: none (the dense LU alone). */
  private pattern: Int32Array | null = null;
  private patternN = -1;
  private scheduled = false;
  /** Factorisations that ran the dense LU (the first, and after a change of pivots): for the tests. */
  denseFactorisations = 0;

  constructor(readonly maxN: number) {
    this.dense = new LU(maxN);
    const n2 = maxN * maxN;
    this.w = new Float64Array(n2);
    this.piv = new Int32Array(maxN);
    this.fill = new Int32Array(n2);
    this.candStart = new Int32Array(maxN + 1);
    this.cand = new Int32Array(n2);
    this.candBefore = new Uint8Array(n2);
    this.uStart = new Int32Array(maxN + 1);
    this.uCol = new Int32Array(n2);
    this.lStart = new Int32Array(maxN + 1);
    this.lCol = new Int32Array(n2);
    this.nz = new Uint8Array(n2);
    this.content = new Int32Array(maxN);
    this.finalRow = new Int32Array(maxN);
    this.mark = new Uint8Array(n2);
  }

  /**
   * The matrices to come are n × n with nonzeros only at `entries` (row-major indices,
   * stride n); null: any entry may be nonzero, so every factorisation is the dense LU's.
   */
  usePattern(n: number, entries: Int32Array | null): void {
    this.patternN = n;
    this.pattern = entries;
    this.seen = new Uint8Array(entries ? entries.length : 0);
    const count = entries ? entries.length : 0;
    this.from = new Int32Array(count);
    this.to = new Int32Array(count);
    this.zero = new Int32Array(count);
    this.scheduled = false;
  }

  /** Factor A (n × n row-major, untouched); false when singular (a pivot not above `relativeTolerance` × A's largest entry), as LU.factor. */
  factor(A: Float64Array, n: number, relativeTolerance: number): boolean {
    if (!this.scheduled || n !== this.n) return this.factorDense(A, n, relativeTolerance);
    const w = this.w, from = this.from, to = this.to, fill = this.fill;
    for (let e = 0, end = this.fillCount; e < end; e++) w[fill[e]] = 0;
    const zero = this.zero;
    for (let e = 0, end = this.zeroCount; e < end; e++) if (A[zero[e]] !== 0) return this.factorDense(A, n, relativeTolerance);
    let scale = 0;
    for (let e = 0, end = this.seenCount; e < end; e++) { const x = A[from[e]]; w[to[e]] = x; scale = Math.max(scale, Math.abs(x)); }
    const floor = relativeTolerance * scale;
    const candStart = this.candStart, cand = this.cand, before = this.candBefore, uStart = this.uStart, uCol = this.uCol;
    for (let k = 0; k < n; k++) {
      const kn = k * n, best = Math.abs(w[kn + k]);
      const c0 = candStart[k], c1 = candStart[k + 1];
      // the dense search: p = k, then each later row that is strictly larger
      for (let c = c0; c < c1; c++) {
        const x = Math.abs(w[cand[c]]);
        if (before[c] ? !(x < best) : x > best) return this.factorDense(A, n, relativeTolerance);
      }
      if (!(best > floor)) return false;
      const inv = 1 / w[kn + k], u0 = uStart[k], u1 = uStart[k + 1];
      for (let c = c0; c < c1; c++) {
        const at = cand[c], l = w[at] * inv;
        if (l === 0) continue;
        w[at] = l;
        const row = at - k;
        for (let f = u0; f < u1; f++) { const j = uCol[f]; w[row + j] -= l * w[kn + j]; }
      }
    }
    return true;
  }

  /** Solve A x = b in place with the last factors. */
  solve(b: Float64Array): void {
    // factors without a schedule (no pattern, another size): the dense LU's own
    if (!this.scheduled) { this.dense.solve(b); return; }
    const n = this.n, w = this.w, piv = this.piv;
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      if (p !== k) { const t = b[k]; b[k] = b[p]; b[p] = t; }
    }
    const lStart = this.lStart, lCol = this.lCol, uStart = this.uStart, uCol = this.uCol;
    for (let i = 1; i < n; i++) {
      const base = i * n;
      let s = b[i];
      for (let e = lStart[i], end = lStart[i + 1]; e < end; e++) { const k = lCol[e]; s -= w[base + k] * b[k]; }
      // −0 (no nonzero term, and b −0): the sign follows the zero terms too, so the row as the dense solve sums it
      if (s === 0 && 1 / s < 0) { s = b[i]; for (let k = 0; k < i; k++) s -= w[base + k] * b[k]; }
      b[i] = s;
    }
    for (let i = n - 1; i >= 0; i--) {
      const base = i * n;
      let s = b[i];
      for (let e = uStart[i], end = uStart[i + 1]; e < end; e++) { const j = uCol[e]; s -= w[base + j] * b[j]; }
      if (s === 0 && 1 / s < 0) { s = b[i]; for (let j = i + 1; j < n; j++) s -= w[base + j] * b[j]; }
      b[i] = s / w[base + i];
    }
  }

  /** The dense LU's factorisation, its factors taken over, and a schedule made from its pivots on the entries seen nonzero. */
  private factorDense(A: Float64Array, n: number, relativeTolerance: number): boolean {
    this.denseFactorisations++;
    this.scheduled = false;
    this.n = n;
    const pattern = this.pattern, seen = this.seen;
    if (pattern && n === this.patternN) for (let e = 0; e < pattern.length; e++) if (A[pattern[e]] !== 0) seen[e] = 1;
    const dense = this.dense;
    if (!dense.factor(A, n, relativeTolerance)) return false;
    this.w.set(dense.a.subarray(0, n * n));
    this.piv.set(dense.piv.subarray(0, n));
    if (this.pattern && n === this.patternN) this.schedule(n, this.pattern);
    return true;
  }

  /**
   * The symbolic elimination of the entries seen nonzero on the pivots in `piv`: where each
   * row content ends (the stage that picks it), each stage's competitors, the pivot rows'
   * columns, and the factors' pattern (for the solve and the fill to clear). In the
   * workspace's own arrays: a swinging pendulum changes pivots every hundred steps or so.
   */
  private schedule(n: number, pattern: Int32Array): void {
    const nz = this.nz, content = this.content, seen = this.seen, mark = this.mark;
    nz.fill(0, 0, n * n);
    for (let e = 0; e < pattern.length; e++) if (seen[e]) nz[pattern[e]] = 1;
    for (let i = 0; i < n; i++) content[i] = i;
    const candStart = this.candStart, cand = this.cand, before = this.candBefore, uStart = this.uStart, uCol = this.uCol, piv = this.piv;
    let nc = 0, nu = 0;
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      candStart[k] = nc;
      // competitors by content for now (their final rows are known at the end)
      for (let i = k; i < n; i++) if (i !== p && nz[i * n + k]) { cand[nc] = content[i]; before[nc++] = i < p ? 1 : 0; }
      if (p !== k) {
        for (let j = 0; j < n; j++) { const t = nz[k * n + j]; nz[k * n + j] = nz[p * n + j]; nz[p * n + j] = t; }
        const t = content[k]; content[k] = content[p]; content[p] = t;
      }
      uStart[k] = nu;
      for (let j = k + 1; j < n; j++) if (nz[k * n + j]) uCol[nu++] = j;
      for (let i = k + 1; i < n; i++) if (nz[i * n + k]) for (let f = uStart[k]; f < nu; f++) nz[i * n + uCol[f]] = 1;
    }
    candStart[n] = nc;
    uStart[n] = nu;
    // content → final row (the stage that picked it)
    const finalRow = this.finalRow;
    for (let i = 0; i < n; i++) finalRow[content[i]] = i;
    for (let k = 0; k < n; k++) for (let c = candStart[k]; c < candStart[k + 1]; c++) cand[c] = finalRow[cand[c]] * n + k;
    const lStart = this.lStart, lCol = this.lCol;
    let nl = 0;
    for (let i = 0; i < n; i++) { lStart[i] = nl; for (let k = 0; k < i; k++) if (nz[i * n + k]) lCol[nl++] = k; }
    lStart[n] = nl;
    // the seen entries' places in the final row order; the factors' other nonzeros are fill
    const from = this.from, to = this.to, zero = this.zero;
    mark.fill(0, 0, n * n);
    let ns = 0, nzero = 0;
    for (let e = 0; e < pattern.length; e++) {
      const x = pattern[e];
      if (!seen[e]) { zero[nzero++] = x; continue; }
      const place = finalRow[Math.floor(x / n)] * n + (x % n);
      from[ns] = x; to[ns++] = place;
      mark[place] = 1;
    }
    this.seenCount = ns;
    this.zeroCount = nzero;
    let nf = 0;
    for (let e = 0; e < n * n; e++) if (nz[e] && !mark[e]) this.fill[nf++] = e;
    this.fillCount = nf;
    this.scheduled = true;
  }
}

