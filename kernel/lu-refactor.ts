/**
 * A sparse numeric refactor on a fixed pattern and pivot sequence. A modified Newton refactors
 * one iteration matrix after another whose nonzeros sit where the first one's did (a
 * vehicle's: 288 unknowns, ~3k nonzeros). The pivoting LU (linalg.ts) of the first one, in
 * a fill-reducing order, fixes the row order; the factors' pattern without further pivoting
 * follows from the matrix's pattern by symbolic elimination, and each later matrix is
 * factored on it row by row (IKJ) at the cost of the factors' nonzeros, not of n².
 *
 * The refactor declines (returns false, nothing changed that a pivoting factor would not
 * redo) when the matrix has a nonzero outside the pattern, or when a multiplier exceeds
 * 1/threshold: the pivot kept is then below the threshold-pivoting bound of the column's
 * entries, so the factorisation keeps the stability a threshold-pivoting LU guarantees.
 */
import type { LU } from './linalg';

export class PatternLU {
  /** Size of the analysed pattern (−1: none). */
  n = -1;
  /** Factor row k is the matrix's row rowOf[k]; factor column j its column colOf[j]. */
  private rowOf: Int32Array;
  private colOf: Int32Array;
  /** Row k's entries: val/col[rowStart[k] .. rowStart[k + 1]), L's (ascending), then the diagonal at diagPos[k], then U's. */
  private rowStart: Int32Array;
  private diagPos: Int32Array;
  private col: Int32Array = new Int32Array(0);
  /** The factors' values (the first rowStart[n]), then the solve's n working values: one array for both (solve). */
  private val: Float64Array = new Float64Array(0);
  /** col[e] + rowStart[n]: entry e's column as the place of its working value in val (solve). */
  private solveCol: Int32Array = new Int32Array(0);
  /**
   * The elimination's schedule: for each update of row k by row j (an L entry) and each U
   * entry f of row j, in that order, the place in val of row k's entry in f's column. The
   * refactor updates val in place through it, without scattering each row into a dense work
   * row and back: the same operations in the same order (the same bits), ~40 % less time.
   */
  private target: Int32Array = new Int32Array(0);
  /** The matrix's entry (row-major index) → its place in val, or −1 outside the pattern. */
  private map: Int32Array;
  /**
   * Entries found nonzero outside the pattern since the size was set: the next analysis
   * keeps them, so the pattern grows to every entry the matrices use (an entry can be an
   * exact zero in one matrix, at a symmetric pose, and not in the next).
   */
  private readonly seen: Uint8Array;
  private seenN = -1;
  private readonly mark: Uint8Array;
  /** Original column → factor column. */
  private readonly pos: Int32Array;
  /** Why the last refactor declined: a nonzero outside the pattern (a reanalysis may do), or a pivot. */
  declinedOutside = false;
  /** Counts the analyses: a place in val looked up before the last one (`place`) is stale. */
  version = 0;

  constructor(readonly maxN: number, readonly growthLimit: number) {
    this.rowOf = new Int32Array(maxN);
    this.colOf = new Int32Array(maxN);
    this.rowStart = new Int32Array(maxN + 1);
    this.diagPos = new Int32Array(maxN);
    this.map = new Int32Array(maxN * maxN);
    this.seen = new Uint8Array(maxN * maxN);
    this.mark = new Uint8Array(maxN);
    this.pos = new Int32Array(maxN);
  }

  /**
   * Take the pattern of A (n×n row-major) and the pivot sequence of `lu`, which factored A's
   * symmetric permutation `perm` (null: A's own order); a later `refactor` follows them.
   */
  analyse(A: ArrayLike<number>, n: number, perm: Int32Array | null, lu: LU): void {
    const seen = this.seen;
    if (n !== this.seenN) { seen.fill(0, 0, n * n); this.seenN = n; }
    const rowp = new Int32Array(n);
    for (let k = 0; k < n; k++) rowp[k] = k;
    for (let k = 0; k < n; k++) { const p = lu.piv[k]; if (p !== k) { const t = rowp[k]; rowp[k] = rowp[p]; rowp[p] = t; } }
    for (let j = 0; j < n; j++) this.colOf[j] = perm ? perm[j] : j;
    for (let k = 0; k < n; k++) this.rowOf[k] = perm ? perm[rowp[k]] : rowp[k];
    this.n = n;
    this.symbolic(A, n);
  }

  /**
   * The pattern again on the same row order, with the entries seen since (a refactor that
   * declined for a new nonzero): no pivoting LU, when the kept pivots still hold.
   */
  reanalyse(A: ArrayLike<number>, n: number): void {
    if (n === this.n) this.symbolic(A, n);
  }

  /**
   * Symbolic elimination on the row order: row k's pattern gains U's pattern of each row it
   * eliminates with. A position counts when A or the entries seen have it, or its transpose
   * (mated systems' matrices are structurally symmetric but for exact zeros). Each matrix
   * index's neighbours (row and column together) are listed first, in one row-major pass:
   * reading A's row and column in place for every factor row (n strided reads a row, and
   * number[] lists) cost the car's matrix ~4.6 ms an analysis, 13 of them in 2600 steps.
   */
  private symbolic(A: ArrayLike<number>, n: number): void {
    const pos = this.pos, mark = this.mark;
    for (let j = 0; j < n; j++) pos[this.colOf[j]] = j;
    const { start, list } = this.neighbours(A, n);
    let cols = this.grow(new Int32Array(0), 4 * list.length + n);
    let count = 0;
    const uStart = new Int32Array(n), uEnd = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      mark.fill(0, 0, n);
      const row = this.rowOf[k];
      for (let e = start[row]; e < start[row + 1]; e++) mark[pos[list[e]]] = 1;
      mark[k] = 1;
      this.rowStart[k] = count;
      for (let j = 0; j < k; j++) {
        if (!mark[j]) continue;
        if (count === cols.length) cols = this.grow(cols, count + 1);
        cols[count++] = j;
        for (let e = uStart[j]; e < uEnd[j]; e++) mark[cols[e]] = 1;
      }
      if (count + n - k > cols.length) cols = this.grow(cols, count + n - k);
      this.diagPos[k] = count;
      cols[count++] = k;
      uStart[k] = count;
      for (let j = k + 1; j < n; j++) if (mark[j]) cols[count++] = j;
      uEnd[k] = count;
    }
    this.rowStart[n] = count;
    this.version++;
    this.col = cols.slice(0, count);
    this.val = new Float64Array(count + n);
    this.solveCol = this.col.map((c) => c + count);
    this.target = this.schedule(n);
    const map = this.map;
    map.fill(-1, 0, n * n);
    for (let k = 0; k < n; k++) {
      const r = this.rowOf[k] * n;
      for (let e = this.rowStart[k]; e < this.rowStart[k + 1]; e++) map[r + this.colOf[this.col[e]]] = e;
    }
  }

  /** Each matrix index's neighbours: j with A_ij or A_ji nonzero or seen (i itself when A_ii is; a pair found both ways listed twice). */
  private neighbours(A: ArrayLike<number>, n: number): { start: Int32Array; list: Int32Array } {
    const seen = this.seen, degree = new Int32Array(n + 1);
    for (let i = 0, r = 0; i < n; i++, r += n) {
      for (let j = 0; j < n; j++) if (A[r + j] !== 0 || seen[r + j]) { degree[i + 1]++; if (j !== i) degree[j + 1]++; }
    }
    for (let i = 0; i < n; i++) degree[i + 1] += degree[i];
    const start = degree.slice(), next = degree.slice(0, n), list = new Int32Array(start[n]);
    for (let i = 0, r = 0; i < n; i++, r += n) {
      for (let j = 0; j < n; j++) if (A[r + j] !== 0 || seen[r + j]) { list[next[i]++] = j; if (j !== i) list[next[j]++] = i; }
    }
    return { start, list };
  }

  /** `cols` copied into a larger buffer (at least `need`). */
  private grow(cols: Int32Array, need: number): Int32Array {
    const out = new Int32Array(Math.max(need, 2 * cols.length));
    out.set(cols);
    return out;
  }

  /** The elimination's schedule (`target`) on the pattern just built. */
  private schedule(n: number): Int32Array {
    const col = this.col, rowStart = this.rowStart, diagPos = this.diagPos, place = new Int32Array(n).fill(-1);
    let total = 0;
    for (let k = 0; k < n; k++) for (let e = rowStart[k]; e < diagPos[k]; e++) total += rowStart[col[e] + 1] - diagPos[col[e]] - 1;
    const out = new Int32Array(total);
    for (let k = 0, t = 0; k < n; k++) {
      for (let e = rowStart[k]; e < rowStart[k + 1]; e++) place[col[e]] = e;
      for (let e = rowStart[k]; e < diagPos[k]; e++) {
        const j = col[e];
        for (let f = diagPos[j] + 1; f < rowStart[j + 1]; f++) out[t++] = place[col[f]];
      }
      for (let e = rowStart[k]; e < rowStart[k + 1]; e++) place[col[e]] = -1;
    }
    return out;
  }

  /**
   * Factor A on the analysed pattern; false (declined) for a nonzero outside it, too large a
   * multiplier, or a pivot at or below relativeTolerance × max|A|. `nonzeros` (its first
   * `count`), when given, lists A's entries that may be nonzero (row-major indices; every
   * other entry is zero): the refactor then reads those alone instead of all n².
   * `entryScale` (with `nonzeros`): factor the matrix whose listed entry e is A's × entryScale[e]
   * (an equilibrated D A D, lu-ordered.ts), without writing it out.
   */
  refactor(A: ArrayLike<number>, n: number, relativeTolerance: number, nonzeros: Int32Array | null = null, count = 0, entryScale: Float64Array | null = null): boolean {
    this.declinedOutside = false;
    if (n !== this.n) return false;
    const val = this.val, map = this.map, col = this.col, rowStart = this.rowStart, diagPos = this.diagPos;
    val.fill(0, 0, this.rowStart[this.n]);
    let scale = 0, outside = false;
    const end = nonzeros ? count : n * n;
    for (let e = 0; e < end; e++) {
      const i = nonzeros ? nonzeros[e] : e;
      const x = entryScale ? A[i] * entryScale[e] : A[i];
      if (x === 0) continue;
      const p = map[i];
      if (p < 0) { outside = true; this.seen[i] = 1; continue; }
      val[p] = x;
      const a = x < 0 ? -x : x;
      if (a > scale) scale = a;
    }
    if (outside) { this.declinedOutside = true; return false; }
    return this.eliminate(n, relativeTolerance * scale);
  }

  /** The place in the factors' values of the matrix's entry at row-major index i (−1: outside the pattern; see `version`). */
  place(i: number): number {
    return this.map[i];
  }

  /**
   * `refactor` of a matrix given as a compact list: entry e (of `count`) is values[e] ×
   * entryScale[e] at row-major index entries[e], its place in the factors place[e] (from
   * `place`, at this `version`); every other entry zero. The same values land in the same
   * places as `refactor` puts them from the n² matrix, so the same factors to the bit, without
   * reading the n² matrix or the n² map.
   */
  refactorCompact(values: Float64Array, entries: Int32Array, place: Int32Array, entryScale: Float64Array, count: number, relativeTolerance: number): boolean {
    this.declinedOutside = false;
    const val = this.val;
    val.fill(0, 0, this.rowStart[this.n]);
    let scale = 0, outside = false;
    for (let e = 0; e < count; e++) {
      const x = values[e] * entryScale[e];
      if (x === 0) continue;
      const p = place[e];
      if (p < 0) { outside = true; this.seen[entries[e]] = 1; continue; }
      val[p] = x;
      const a = x < 0 ? -x : x;
      if (a > scale) scale = a;
    }
    if (outside) { this.declinedOutside = true; return false; }
    return this.eliminate(this.n, relativeTolerance * scale);
  }

  /** The elimination on val as gathered; false for too large a multiplier or a pivot at or below `floor`. */
  private eliminate(n: number, floor: number): boolean {
    const val = this.val, col = this.col, rowStart = this.rowStart, diagPos = this.diagPos;
    const limit = this.growthLimit, target = this.target;
    // row by row (IKJ), in place: row k's entry in column c gets −l·U_j[c] for each earlier row j it eliminates with
    for (let k = 0, t = 0; k < n; k++) {
      const d = diagPos[k];
      for (let e = rowStart[k]; e < d; e++) {
        const j = col[e], dj = diagPos[j], fe = rowStart[j + 1];
        const l = val[e] / val[dj];
        if (!(Math.abs(l) <= limit)) return false;
        val[e] = l;
        if (l === 0) { t += fe - dj - 1; continue; }
        // eight updates a pass, then four, then the rest (they touch distinct entries: the same
        // operations): V8 does not unroll, and each pass re-checks and reloads both arrays
        let f = dj + 1;
        for (; f + 7 < fe; f += 8, t += 8) {
          val[target[t]] -= l * val[f]; val[target[t + 1]] -= l * val[f + 1];
          val[target[t + 2]] -= l * val[f + 2]; val[target[t + 3]] -= l * val[f + 3];
          val[target[t + 4]] -= l * val[f + 4]; val[target[t + 5]] -= l * val[f + 5];
          val[target[t + 6]] -= l * val[f + 6]; val[target[t + 7]] -= l * val[f + 7];
        }
        for (; f + 3 < fe; f += 4, t += 4) {
          val[target[t]] -= l * val[f]; val[target[t + 1]] -= l * val[f + 1];
          val[target[t + 2]] -= l * val[f + 2]; val[target[t + 3]] -= l * val[f + 3];
        }
        for (; f < fe; f++) val[target[t++]] -= l * val[f];
      }
      if (!(Math.abs(val[d]) > floor)) return false;
    }
    return true;
  }

  /**
   * Solve A x = b in place with the last successful refactor. `scale` (an equilibrated
   * factorisation's D, lu-ordered.ts: these factors are D A D's): solve A x = b as
   * D (D A D)⁻¹ D b, the scaling done in the permutations' passes (the same products as scaling
   * b before and after: the same bits). The working values y sit in val after the factors, so
   * that each term reads one Float64Array twice (V8 reloads and checks every typed array a loop
   * reads at each pass: three arrays a term cost ~1.2× two).
   */
  solve(b: Float64Array, scale: Float64Array | null = null): void {
    const n = this.n, v = this.val, c = this.solveCol, rowStart = this.rowStart, diagPos = this.diagPos, rowOf = this.rowOf, colOf = this.colOf, y = rowStart[n];
    // each row's sum in the order of its entries, four terms a pass (V8 does not unroll); the
    // permutations and scalings inside the sweeps: the same operations as passes of their own
    for (let k = 0; k < n; k++) {
      const r = rowOf[k], d = diagPos[k];
      let s = scale ? b[r] * scale[r] : b[r], e = rowStart[k];
      for (; e + 3 < d; e += 4) { s -= v[e] * v[c[e]]; s -= v[e + 1] * v[c[e + 1]]; s -= v[e + 2] * v[c[e + 2]]; s -= v[e + 3] * v[c[e + 3]]; }
      for (; e < d; e++) s -= v[e] * v[c[e]];
      v[y + k] = s;
    }
    for (let k = n - 1; k >= 0; k--) {
      const d = diagPos[k], end = rowStart[k + 1];
      let s = v[y + k], e = d + 1;
      for (; e + 3 < end; e += 4) { s -= v[e] * v[c[e]]; s -= v[e + 1] * v[c[e + 1]]; s -= v[e + 2] * v[c[e + 2]]; s -= v[e + 3] * v[c[e + 3]]; }
      for (; e < end; e++) s -= v[e] * v[c[e]];
      const x = s / v[d], cc = colOf[k];
      v[y + k] = x;
      b[cc] = scale ? x * scale[cc] : x;
    }
  }

  /** Nonzeros of the pattern's factors (diagonal not counted). */
  get nonzeros(): number { return this.n < 0 ? 0 : this.rowStart[this.n] - this.n; }
}
