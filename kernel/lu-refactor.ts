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
import { LUArena } from './lu-wasm';

/**
 * Systems this large (the whole car's, 288 unknowns) factor and solve with the reordered loops
 * (lu-wasm.ts eliminateSplit, solveSplit: reciprocal pivots, each long row's sum in four): the
 * same factors and solutions to the rounding, not to the bit. Smaller systems (a corner, an
 * axle, the vehicle's equilibrium) keep the plain order and their outputs' every bit.
 */
export const SPLIT_MIN = 200;

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
  /** The factors' values: a view of the arena's memory, where the elimination and the solve run (lu-wasm.ts). */
  private val: Float64Array = new Float64Array(0);
  /** The arena's copies of the right-hand side and of the scales (solve). */
  private bView: Float64Array = new Float64Array(0);
  private scaleView: Float64Array = new Float64Array(0);
  private readonly arena = new LUArena();
  /**
   * The arena's memory as doubles, and each entry of a compact list its place there (placeList):
   * its factor entry's, or past the analysis's arrays a sink of its own (an entry outside the
   * pattern: sinkEntry[k] is the list's entry of sink k). `listKey`, `listCount`, `listAnalysis`
   * and `keptKey`: which list's places (the caller's key), its length, the analysis and the kept
   * entries they are for. keptView: the kept entries' values, which the caller writes when they
   * change and the refactor puts in place (lu-wasm.ts scan).
   */
  memory: Float64Array = new Float64Array(0);
  private dest: Int32Array = new Int32Array(0);
  private sinkEntry: Int32Array = new Int32Array(0);
  private sinkCount = 0;
  private sinkView: Float64Array = new Float64Array(0);
  private sinkScale: Float64Array = new Float64Array(0);
  keptView: Float64Array = new Float64Array(0);
  private keptCount = 0;
  private keptKey: Int32Array | null = null;
  /** Counts the lists placed (toArenaList): a composition of `placeList`'s answer made before the last is stale. */
  listPlaces = 0;
  private listKey = -1;
  private listCount = -1;
  private listAnalysis = -1;
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
  /** The reordered loops (n ≥ SPLIT_MIN). */
  private split = false;
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
    this.split = n >= SPLIT_MIN;
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
    this.target = this.schedule(n);
    // a list's sinks and kept entries are laid out again after the new arrays (placeList)
    this.sinkCount = 0; this.keptCount = 0;
    this.toArena(n, count);
    const map = this.map;
    map.fill(-1, 0, n * n);
    for (let k = 0; k < n; k++) {
      const r = this.rowOf[k] * n;
      for (let e = this.rowStart[k]; e < this.rowStart[k + 1]; e++) map[r + this.colOf[this.col[e]]] = e;
    }
  }

  /** The analysis's arrays copied into the arena's memory (laid out afresh), and the views of it. */
  private toArena(n: number, count: number): void {
    const buf = this.arena.layout(n, count, this.target.length), at = this.arena.at;
    new Int32Array(buf, at.rowStart, n + 1).set(this.rowStart.subarray(0, n + 1));
    new Int32Array(buf, at.diagPos, n).set(this.diagPos.subarray(0, n));
    new Int32Array(buf, at.rowOf, n).set(this.rowOf.subarray(0, n));
    new Int32Array(buf, at.colOf, n).set(this.colOf.subarray(0, n));
    new Int32Array(buf, at.col, count).set(this.col);
    const yAt = new Int32Array(buf, at.yAt, count);
    for (let e = 0; e < count; e++) yAt[e] = at.y + 8 * this.col[e];
    new Int32Array(buf, at.target, this.target.length).set(this.target);
    this.views(buf);
  }

  /** The views of the arena's values, made again on its buffer (a grown memory's is new). */
  private views(buf: ArrayBuffer): void {
    const at = this.arena.at, n = this.n;
    this.val = new Float64Array(buf, at.val, this.rowStart[n]);
    this.bView = new Float64Array(buf, at.b, n);
    this.scaleView = new Float64Array(buf, at.scale, n);
    this.sinkView = new Float64Array(buf, at.sink, this.sinkCount);
    this.sinkScale = new Float64Array(buf, at.sinkScale, this.sinkCount);
    this.keptView = new Float64Array(buf, at.keptValue, this.keptCount);
    this.memory = new Float64Array(buf);
  }

  /**
   * A compact list's places in `memory` (after an analysis, or when the caller's `list` key or
   * kept entries changed): its entries outside the pattern each a sink; each place's scale
   * (a fill entry's 1); the kept entries' places as byte addresses for the arena.
   */
  private toArenaList(place: Int32Array, scale: Float64Array, count: number, list: number, kept: Int32Array): void {
    let sinks = 0;
    for (let e = 0; e < count; e++) if (place[e] < 0) sinks++;
    if (this.dest.length < count) this.dest = new Int32Array(count);
    if (this.sinkEntry.length < sinks) this.sinkEntry = new Int32Array(sinks);
    const entries = this.rowStart[this.n], buf = this.arena.list(entries, sinks, kept.length), at = this.arena.at, dest = this.dest;
    const valScale = new Float64Array(buf, at.valScale, entries).fill(1), sinkScale = new Float64Array(buf, at.sinkScale, sinks);
    for (let e = 0, k = 0; e < count; e++) {
      if (place[e] >= 0) { dest[e] = at.val / 8 + place[e]; valScale[place[e]] = scale[e]; continue; }
      dest[e] = at.sink / 8 + k; sinkScale[k] = scale[e]; this.sinkEntry[k++] = e;
    }
    const keptPlace = new Int32Array(buf, at.keptPlace, kept.length);
    for (let k = 0; k < kept.length; k++) keptPlace[k] = 8 * dest[kept[k]];
    this.sinkCount = sinks; this.keptCount = kept.length;
    this.listPlaces++;
    this.views(buf);
    this.listKey = list; this.listCount = count; this.listAnalysis = this.version; this.keptKey = kept;
  }

  /** Each matrix index's neighbours: j with A_ij or A_ji nonzero or seen (i itself when A_ii is; a pair found both ways listed twice). */
  private neighbours(A: ArrayLike<number>, n: number): { start: Int32Array; list: Int32Array } {
    const seen = this.seen, degree = new Int32Array(n + 1);
    countDegrees(A, seen, n, degree);
    for (let i = 0; i < n; i++) degree[i + 1] += degree[i];
    const start = degree.slice(), next = degree.slice(0, n), list = new Int32Array(start[n]);
    listNeighbours(A, seen, n, next, list);
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
   */
  refactor(A: ArrayLike<number>, n: number, relativeTolerance: number, nonzeros: Int32Array | null = null, count = 0): boolean {
    this.declinedOutside = false;
    if (n !== this.n) return false;
    const val = this.val, map = this.map;
    val.fill(0);
    let scale = 0, outside = false;
    const end = nonzeros ? count : n * n;
    for (let e = 0; e < end; e++) {
      const i = nonzeros ? nonzeros[e] : e;
      const x = A[i];
      if (x === 0) continue;
      const p = map[i];
      if (p < 0) { outside = true; this.seen[i] = 1; continue; }
      val[p] = x;
      const a = x < 0 ? -x : x;
      if (a > scale) scale = a;
    }
    if (outside) { this.declinedOutside = true; return false; }
    return this.arena.eliminate(n, this.growthLimit, relativeTolerance * scale, this.split);
  }

  /** The place in the factors' values of the matrix's entry at row-major index i (−1: outside the pattern; see `version`). */
  place(i: number): number {
    return this.map[i];
  }

  /**
   * Where to write a matrix given as a compact list for `refactorPlaced`: entry e (of `count`),
   * as it is, at memory[dest[e]] — its place in the factors (place[e], from `place` at this
   * `version`) or, outside the pattern, a sink of its own — but for the entries `kept` lists
   * (indices into the list), whose values go to keptView[k] instead, written when they change.
   * The refactor multiplies each by scale[e] in place (the matrix it factors: values[e] ×
   * scale[e], lu-ordered.ts's D A D). The factors and the sinks are cleared here, so that the
   * fill's entries and any entry not written read zero. The places are made again whenever
   * `list` (the caller's key of place's and scale's contents) or `kept` changes or the pattern
   * is analysed (`listPlaces` counts them).
   */
  placeList(place: Int32Array, scale: Float64Array, count: number, list: number, kept: Int32Array): Int32Array {
    // each test made at every call (the first list kept past an analysis came after V8 optimised this: a deopt)
    const otherList = list !== this.listKey, otherCount = count !== this.listCount, reanalysed = this.listAnalysis !== this.version, otherKept = kept !== this.keptKey;
    if (otherList || otherCount || reanalysed || otherKept) this.toArenaList(place, scale, count, list, kept);
    this.val.fill(0);
    this.sinkView.fill(0);
    return this.dest;
  }

  /**
   * `refactor` of the matrix written through `placeList`'s places (`entries`, the list's row-major
   * indices), its kept entries put in place and every entry scaled first (lu-wasm.ts scan): the
   * same values in the same places as `refactor` puts them from the n² matrix, so the same
   * factors to the bit, and the same declines — a nonzero in a sink (the entry outside the
   * pattern seen for the next analysis), the pivot floor from the largest |x|.
   */
  refactorPlaced(entries: Int32Array, relativeTolerance: number): boolean {
    this.declinedOutside = false;
    const scale = this.arena.scan(this.rowStart[this.n], this.sinkCount, this.keptCount);
    if (scale < 0) {
      const sink = this.sinkView, sinkScale = this.sinkScale, sinkEntry = this.sinkEntry;
      for (let k = 0; k < this.sinkCount; k++) if (sink[k] * sinkScale[k] !== 0) this.seen[entries[sinkEntry[k]]] = 1;
      this.declinedOutside = true;
      return false;
    }
    return this.arena.eliminate(this.n, this.growthLimit, relativeTolerance * scale, this.split);
  }

  /**
   * Solve A x = b in place with the last successful refactor (lu-wasm.ts: each row's sum in the
   * order of its entries; for n ≥ SPLIT_MIN in four sums, and the reciprocal pivots). `scale` (an equilibrated factorisation's D, lu-ordered.ts: these
   * factors are D A D's): solve A x = b as D (D A D)⁻¹ D b, the scaling done in the
   * permutations' passes (the same products as scaling b before and after: the same bits).
   */
  solve(b: Float64Array, scale: Float64Array | null = null): void {
    // copies in and out by the builtin (a memory copy) where the lengths allow: a loop each cost a third of the sweeps
    const n = this.n, bv = this.bView;
    if (b.length === n) bv.set(b); else for (let i = 0; i < n; i++) bv[i] = b[i];
    if (scale) { const sv = this.scaleView; if (scale.length === n) sv.set(scale); else for (let i = 0; i < n; i++) sv[i] = scale[i]; }
    this.arena.solve(n, scale !== null, this.split);
    b.set(bv);
  }

  /** Nonzeros of the pattern's factors (diagonal not counted). */
  get nonzeros(): number { return this.n < 0 ? 0 : this.rowStart[this.n] - this.n; }
}

/*
 * neighbours' two n² passes, each a function of its own: V8 compiles a long loop on stack
 * replacement in the first analysis, and the code after it (not yet run then) deoptimised that
 * compile, reused at every later analysis (steps 1, 15, 17 and 19 of the whole car: four deopts).
 */
function countDegrees(A: ArrayLike<number>, seen: Uint8Array, n: number, degree: Int32Array): void {
  for (let i = 0, r = 0; i < n; i++, r += n) {
    for (let j = 0; j < n; j++) if (A[r + j] !== 0 || seen[r + j]) { degree[i + 1]++; if (j !== i) degree[j + 1]++; }
  }
}

function listNeighbours(A: ArrayLike<number>, seen: Uint8Array, n: number, next: Int32Array, list: Int32Array): void {
  for (let i = 0, r = 0; i < n; i++, r += n) {
    for (let j = 0; j < n; j++) if (A[r + j] !== 0 || seen[r + j]) { list[next[i]++] = j; if (j !== i) list[next[j]++] = i; }
  }
}
