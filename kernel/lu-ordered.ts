/**
 * The integrator's factorisation of a large sparse iteration matrix: a symmetric
 * fill-reducing permutation (minimum degree on the matrix's symmetrised pattern), then the
 * dense LU with partial pivoting (linalg.ts) of the permuted matrix and its nonzero-only
 * solve (lu-sparse.ts). A vehicle's four corners couple only through the body: in the
 * matrix's own order the body's columns spread fill across the whole factor, whereas
 * eliminating each corner's chain before the body keeps the factors nearly as sparse as the
 * matrix, and LU.factor's work is the factors' nonzeros (it skips exact zeros).
 *
 * The ordering depends on the pattern only: it is computed once per matrix size (the active
 * rows fix the size and the pattern) and reused by every numeric refactor. Pivoting keeps
 * the factorisation exact for any pattern; the ordering only decides how much fill there is.
 *
 * Later matrices are first refactored on the last pivoting factorisation's row order and
 * pattern (lu-refactor.ts: the cost of the factors' nonzeros instead of a scan of n²); where
 * that declines (a new nonzero, a pivot below the threshold), the pivoting LU runs again and
 * its order is the one kept.
 */
import { LU } from './linalg';
import { CompressedLU } from './lu-sparse';
import { PatternLU } from './lu-refactor';
import { equilibrate } from './equilibrate';

/**
 * Threshold pivoting's fraction: the diagonal pivot is kept while at least this fraction of
 * its column's largest entry (growth bounded by 1 + 1/0.1 a step, the usual sparse LU
 * choice), so the factors keep the pattern the order predicted.
 */
const PIVOT_THRESHOLD = 0.1;

/**
 * The refactor keeps the pivots of the last pivoting LU while each stays at least this
 * fraction of its column's entries (multipliers up to 100: the threshold of HSL MA48's
 * default); below it, the pivoting LU chooses again. A Newton iteration's matrix drifts from
 * step to step, and a pivot at 3 % of its column is still a sound one.
 */
const REFACTOR_THRESHOLD = 0.01;

/** Ruiz passes of an equilibrated factorisation's scales: the first gains most, a third little (equilibrate.ts). */
const SCALE_SWEEPS = 3;

/** No kept entries (factorCompact's list is written whole). */
const NONE = new Int32Array(0);

/** Where a compact list's writers put its entries (OrderedLU.placeCompact): entry e, as it is, at memory[place[e]]. */
export class PlacedList {
  /** The pattern's arena as doubles (its memory: a new one after the arena moved). */
  memory: Float64Array = new Float64Array(0);
  place: Int32Array = new Int32Array(0);
  /**
   * The values of the entries placeCompact's `kept` lists, in its order: the caller writes them
   * here when they change, the refactor puts them in place (not at `place`'s).
   */
  kept: Float64Array = new Float64Array(0);
  /** Changes whenever `place` or `kept`'s room do (a caller composing `place` with its own places makes those again; `kept` is then to be written). */
  version = -1;
}

export class OrderedLU {
  private readonly lu: LU;
  private readonly compressed: CompressedLU;
  /** perm[k] = the original row/column at position k, for matrices of size `orderedN`. */
  private readonly perm: Int32Array;
  private orderedN = -1;
  private readonly work: Float64Array;
  /** The refactor on the last pivoting factorisation's pattern (ordered systems only), and whether it holds the current factors. */
  private readonly pattern: PatternLU | null;
  private patterned = false;
  /** Factorisations by the pivoting LU, and refactors on its pattern. */
  pivoted = 0;
  refactored = 0;
  /**
   * Equilibrated (`equilibrated` true): the factors are D A D's, D (powers of two) taken at
   * each pivoting factorisation and kept by the refactors on its pattern; `scaled` holds D A D.
   */
  private readonly scale: Float64Array | null;
  private readonly scaled: Float64Array | null;
  /** The nonzero list whose entries `scaled` holds (any other entry of it is zero), its count, and each entry's D_i D_j. */
  private scaledList: Int32Array | null = null;
  private scaledCount = -1;
  private scaledN = -1;
  private entryScale: Float64Array = new Float64Array(0);
  /** factorCompact's places of its list's entries in the pattern's factors, for that list and analysis. */
  private places: Int32Array = new Int32Array(0);
  private placeList: Int32Array | null = null;
  private placeVersion = -1;
  /** Counts changes of `places` and `entryScale` (the pattern's key of its places for them: placeList's `list`). */
  private listVersion = 0;
  /** placeCompact's answer (one object, its fields renewed at each call). */
  private readonly placed = new PlacedList();

  /**
   * `ordered` false: the matrix's own order (a small system, where ordering gains nothing).
   * `equilibrated`: factor D A D instead (ordered systems only; equilibrate.ts): fewer pivots
   * off the diagonal, sparser factors; the solution is A's, to the rounding.
   */
  constructor(readonly maxN: number, readonly ordered = true, readonly equilibrated = false) {
    this.lu = new LU(maxN);
    this.compressed = new CompressedLU(maxN);
    this.perm = new Int32Array(maxN);
    this.work = new Float64Array(maxN);
    this.pattern = ordered ? new PatternLU(maxN, 1 / REFACTOR_THRESHOLD) : null;
    const scaling = ordered && equilibrated;
    this.scale = scaling ? new Float64Array(maxN) : null;
    this.scaled = scaling ? new Float64Array(maxN * maxN) : null;
  }

  /**
   * Factor the n×n row-major A (left untouched); false when singular (LU.factor's test).
   * `nonzeros` (first `count`): A's entries that may be nonzero, all others zero (a caller
   * that knows them spares the refactor a scan of n²).
   */
  factor(A: Float64Array, n: number, relativeTolerance: number, nonzeros: Int32Array | null = null, count = 0): boolean {
    return this.factorFrom(A, n, relativeTolerance, nonzeros, count, true);
  }

  /**
   * `factor` of the matrix whose entry at row-major index entries[e] is values[e], every other
   * entry zero (an iteration matrix assembled on its pattern, integrator/pattern.ts): an
   * equilibrated refactor on the kept pattern writes the list's entries into the factors'
   * places (placeCompact; scaled there) and refactors there; otherwise (the first factorisation, a
   * refactor that declined) the matrix is written out into `dense` (n × n, zero off the list's
   * entries) and factored from there. The same factors, bit for bit, as
   * `factor(dense, n, relativeTolerance, entries, entries.length)`.
   */
  factorCompact(values: Float64Array, entries: Int32Array, dense: Float64Array, n: number, relativeTolerance: number): boolean {
    const placed = this.placeCompact(entries, n, NONE), count = entries.length;
    if (placed) {
      const out = placed.memory, to = placed.place;
      // `+ 0`: an exact zero (either sign) lands as +0 (its product with the scale too), as in `refactor`, which skips it
      for (let e = 0; e < count; e++) out[to[e]] = values[e] + 0;
      return this.refactorPlaced(entries, relativeTolerance) || this.factorDeclined(values, entries, dense, n, relativeTolerance);
    }
    writeOut(values, entries, count, dense);
    return this.factorFrom(dense, n, relativeTolerance, entries, count, true);
  }

  /**
   * Where a compact list's writers put its entries for a refactor on the kept pattern (the
   * case factorCompact's refactor is for: equilibrated, the scales taken for this list): entry
   * e, as it is, at placed.memory[placed.place[e]] — its place in the factors, cleared — but for
   * those `kept` lists (indices into the list), whose values go to placed.kept instead — then
   * `refactorPlaced`, which scales each by its D_i D_j in place. Null in every other case: the
   * caller writes the list and calls factorCompact. A written value must not be −0 (a sum from
   * +0 is not): the refactor takes a zero as the +0 the gather of a list left (`refactor` skips it).
   */
  placeCompact(entries: Int32Array, n: number, kept: Int32Array): PlacedList | null {
    const pattern = this.pattern, count = entries.length;
    const onPattern = pattern !== null && this.scaled !== null && pattern.n === n && this.orderedN === n;
    if (!onPattern || entries !== this.scaledList || count !== this.scaledCount || n !== this.scaledN) return null;
    const out = this.placed;
    out.place = pattern.placeList(this.placeOf(entries, count, pattern), this.entryScale, count, this.listVersion, kept);
    out.memory = pattern.memory; out.kept = pattern.keptView; out.version = pattern.listPlaces;
    return out;
  }

  /** The refactor of what the writers put in placeCompact's places (`entries` its list); false: declined (factorDeclined then). */
  refactorPlaced(entries: Int32Array, relativeTolerance: number): boolean {
    if (!this.pattern!.refactorPlaced(entries, relativeTolerance)) return false;
    this.patterned = true; this.refactored++;
    return true;
  }

  /**
   * After a declined refactorPlaced, the list (as values) written out into `dense` and factored
   * from there: for a new nonzero a reanalysis (its refactor declines again, marking nothing
   * new), for a pivot straight to the pivoting LU.
   */
  factorDeclined(values: Float64Array, entries: Int32Array, dense: Float64Array, n: number, relativeTolerance: number): boolean {
    const count = entries.length;
    writeOut(values, entries, count, dense);
    return this.factorFrom(dense, n, relativeTolerance, entries, count, this.pattern!.declinedOutside);
  }

  /**
   * Each listed entry's place in the pattern's factors, looked up again after an analysis.
   * Every field read and compared at every call: a test first made after V8 optimised the
   * caller (the first list kept past an analysis, ~step 23) deoptimised it for want of feedback.
   */
  private placeOf(entries: Int32Array, count: number, pattern: PatternLU): Int32Array {
    const places = this.places, otherList = this.placeList !== entries;
    const reanalysed = this.placeVersion !== pattern.version, short = places.length < count;
    return otherList || reanalysed || short ? this.placesAgain(entries, count, pattern) : places;
  }

  /** placeOf's rare path: the places looked up again (a new list, an analysis, more entries). */
  private placesAgain(entries: Int32Array, count: number, pattern: PatternLU): Int32Array {
    if (this.places.length < count) this.places = new Int32Array(count);
    for (let e = 0; e < count; e++) this.places[e] = pattern.place(entries[e]);
    this.placeList = entries; this.placeVersion = pattern.version; this.listVersion++;
    return this.places;
  }

  private factorFrom(A: Float64Array, n: number, relativeTolerance: number, nonzeros: Int32Array | null, count: number, refactor: boolean): boolean {
    if (this.ordered && n !== this.orderedN) minimumDegreeOrder(A, n, this.perm);
    this.orderedN = n;
    const pattern = this.pattern;
    // an equilibrated refactor needs the scales of the pattern's pivots, taken for these entries
    const scalesHold = !this.scaled || (nonzeros === this.scaledList && count === this.scaledCount && n === this.scaledN);
    if (refactor && pattern && pattern.n === n && scalesHold) {
      // the kept scales (the pattern's pivots were chosen on a matrix scaled by them): the matrix
      // (a list's entries alone) scaled first, the same products as scaling them as they are
      // read, which `refactor` did: its scales first read at the first scaled refactor deoptimised it
      const B = this.scaled ? this.scaleInto(A, n, nonzeros, count) : A;
      if (pattern.refactor(B, n, relativeTolerance, nonzeros, count)) { this.patterned = true; this.refactored++; return true; }
      // a new nonzero: the pattern grows on the same row order, while the pivots hold (the
      // pattern reads only which entries are nonzero: a list's as given, as before)
      if (pattern.declinedOutside) {
        pattern.reanalyse(nonzeros ? A : B, n);
        if (pattern.refactor(B, n, relativeTolerance, nonzeros, count)) { this.patterned = true; this.refactored++; return true; }
      }
    }
    this.patterned = false;
    if (this.scale) {
      this.rescale(A, n, nonzeros, count);
      A = this.scaleInto(A, n, nonzeros, count);
    }
    if (!this.lu.factor(A, n, relativeTolerance, this.ordered ? this.perm : null, this.ordered ? PIVOT_THRESHOLD : 1)) return false;
    this.pivoted++;
    if (pattern) {
      pattern.analyse(A, n, this.perm, this.lu);
      if (pattern.refactor(A, n, relativeTolerance, nonzeros, count)) { this.patterned = true; return true; }
    }
    this.compressed.load(this.lu);
    return true;
  }

  /** Solve A x = b in place with the last factorisation. */
  solve(b: Float64Array): void {
    // the pattern's factors scale as they permute (the same products)
    if (this.patterned) { this.pattern!.solve(b, this.scale); return; }
    const D = this.scale, n = this.orderedN;
    // (D A D) y = D b, x = D y
    if (D) for (let i = 0; i < n; i++) b[i] *= D[i];
    this.solveFactored(b);
    if (D) for (let i = 0; i < n; i++) b[i] *= D[i];
  }

  private solveFactored(b: Float64Array): void {
    if (!this.ordered) { this.compressed.solve(b); return; }
    const n = this.orderedN, perm = this.perm, w = this.work;
    for (let k = 0; k < n; k++) w[k] = b[perm[k]];
    this.compressed.solve(w);
    for (let k = 0; k < n; k++) b[perm[k]] = w[k];
  }

  /** D A D into `scaled` with the current scales (on the listed nonzeros when given; any other entry of it zero). */
  private scaleInto(A: Float64Array, n: number, nonzeros: Int32Array | null, count: number): Float64Array {
    const B = this.scaled!, D = this.scale!;
    if (nonzeros) {
      const es = this.entryScale;
      for (let e = 0; e < count; e++) { const k = nonzeros[e]; B[k] = A[k] * es[e]; }
    } else {
      for (let i = 0; i < n; i++) {
        const r = i * n, di = D[i];
        for (let j = 0; j < n; j++) B[r + j] = A[r + j] * di * D[j];
      }
    }
    return B;
  }

  /** New scales for A: equilibrate.ts's, and each listed entry's product of them. */
  private rescale(A: Float64Array, n: number, nonzeros: Int32Array | null, count: number): void {
    const D = this.scale!;
    equilibrate(A, n, D, this.work, SCALE_SWEEPS, nonzeros, count);
    // entries a different list wrote would stay in `scaled`: clear them first
    if (nonzeros && (nonzeros !== this.scaledList || count !== this.scaledCount || n !== this.scaledN)) this.scaled!.fill(0, 0, n * n);
    this.scaledList = nonzeros; this.scaledCount = nonzeros ? count : 0; this.scaledN = n;
    if (!nonzeros) return;
    if (this.entryScale.length < count) this.entryScale = new Float64Array(count);
    const es = this.entryScale;
    this.listVersion++;
    for (let e = 0; e < count; e++) {
      const k = nonzeros[e], i = (k / n) | 0;
      es[e] = D[i] * D[k - i * n];
    }
  }

  /** Nonzeros of the last factors (diagonal not counted). */
  get nonzeros(): number { return this.patterned ? this.pattern!.nonzeros : this.compressed.nonzeros; }
}

/**
 * The list written out into the n² `dense` (entry e at entries[e]): a function of its own, as the
 * loop's compile on stack replacement (a declined refactor's first call) reached code after it
 * with no feedback yet and was deoptimised again at each later decline (three in the warm-up).
 */
function writeOut(values: Float64Array, entries: Int32Array, count: number, dense: Float64Array): void {
  for (let e = 0; e < count; e++) dense[entries[e]] = values[e];
}

/**
 * Minimum-degree order of A's symmetrised pattern (i ~ j when A_ij or A_ji is nonzero) into
 * perm: repeatedly eliminate a node of least degree (lowest index on ties) and join its
 * neighbours into a clique. Dense adjacency (n² bytes): run once per pattern, not per factor.
 */
export function minimumDegreeOrder(A: ArrayLike<number>, n: number, perm: Int32Array): void {
  const adj = new Uint8Array(n * n);
  const degree = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (A[i * n + j] !== 0 || A[j * n + i] !== 0) { adj[i * n + j] = 1; adj[j * n + i] = 1; degree[i]++; degree[j]++; }
    }
  }
  const done = new Uint8Array(n);
  // a zero pivot (a constraint row's) turns nonzero once a neighbour is eliminated: until
  // then the node waits, so that the diagonal pivot the order assumes exists
  const pivotable = new Uint8Array(n);
  for (let i = 0; i < n; i++) pivotable[i] = A[i * n + i] !== 0 ? 1 : 0;
  const nb = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    let p = -1;
    for (let v = 0; v < n; v++) if (!done[v] && pivotable[v] && (p < 0 || degree[v] < degree[p])) p = v;
    if (p < 0) for (let v = 0; v < n; v++) if (!done[v] && (p < 0 || degree[v] < degree[p])) p = v;
    perm[k] = p;
    done[p] = 1;
    let c = 0;
    for (let v = 0; v < n; v++) if (adj[p * n + v] && !done[v]) nb[c++] = v;
    for (let x = 0; x < c; x++) {
      const u = nb[x];
      pivotable[u] = 1;
      adj[u * n + p] = 0; degree[u]--;
      for (let y = x + 1; y < c; y++) {
        const w = nb[y];
        if (!adj[u * n + w]) { adj[u * n + w] = 1; adj[w * n + u] = 1; degree[u]++; degree[w]++; }
      }
    }
  }
}
