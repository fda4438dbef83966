/**
 * Where a large iteration matrix (iteration.ts) can be nonzero: the bodies' mass and
 * gyroscopic blocks, the force blocks' K and C (every pair of a block's slots) and the
 * active rows' Jacobian with its transpose. A car's matrix (288 unknowns) has ~4.5k such
 * entries of 83k: it is assembled into a compact array of those entries alone (`values`,
 * entry e at row-major place entries[e]) and refactored from it (lu-ordered.ts factorCompact),
 * or written straight into the factors' places (CompactTarget), so that neither the assembly
 * nor the refactor touches the 660 kB n² matrix.
 * Each entry gets the dense loops' own operations, in the same order, so the matrix is the
 * same to the bit; an entry outside the pattern stays an exact zero.
 */
import type { ConstraintRows } from './rows';
import type { PlacedList } from '../lu-ordered';

/**
 * Where `writeDynamic` and `addRows` write the matrix: the bodies' blocks at out[body[36 b + q]],
 * the force places outside them at out[outside[k]], the rows' entries and their transpose at
 * out[lower[q]] and out[upper[q]]. The pattern's own list (`plain`): the places in `values`.
 * In place of the factors (`directTo`): lu-ordered.ts placeCompact's places, so that no
 * gather follows (the LU scales each entry where it lies).
 */
export class CompactTarget {
  out: Float64Array = new Float64Array(0);
  /**
   * 0 − inv (K + γ'C) at each outside place, for the products' renewal `outsideOf` (−1: none
   * since the places changed). `outsideKept`: they stay there and the LU puts them in place at
   * each refactor (placeCompact's `kept`: its arena); else writeDynamic writes them.
   */
  outsideValues: Float64Array;
  outsideOf = -1;
  outsideKept = false;
  /** The PlacedList version the places were composed from (−1: none). */
  version = -1;

  constructor(readonly body: Int32Array, readonly outside: Int32Array, readonly lower: Int32Array, readonly upper: Int32Array) {
    this.outsideValues = new Float64Array(outside.length);
  }
}

export class IterationPattern {
  /** Every entry of the N × N matrix (row-major) that can be nonzero, ascending. */
  readonly entries: Int32Array;
  /** The matrix's entries as assembled: values[e] is the entry at entries[e]. */
  readonly values: Float64Array;
  /** Body b's 6 × 6 block (row-major) as places in `values`, at 36 b (a fixed body's unused). */
  readonly bodyAt: Int32Array;
  /** K's and C's entries (row-major n × n) and their place in `values`. */
  readonly kcFrom: Int32Array;
  readonly kcTo: Int32Array;
  /** The active rows' Jacobian entries' places in `values` (ConstraintRows.forEachActiveEntry's order): row n + k and its transpose. */
  readonly jLower: Int32Array;
  readonly jUpper: Int32Array;
  /**
   * inv (K + γ' C) at each of K's and C's entries as last subtracted, and the K and C assembly
   * (`derivatives`), inv and γ' it was made for: a large matrix keeps K and C over many refactors
   * (iteration.ts keptDerivatives), and reading the n² K and C again (cold by then) cost each
   * refactor ~10 µs. The same product reused: the same bits.
   */
  private readonly kc: Float64Array;
  /**
   * Per body (at 36 b) the K and C entry (its index in kcTo) at each place of its block, −1
   * where none; null where two bodies' blocks share a place (then `writeDynamic` cannot write
   * a place whole). kcOutside: the K and C entries outside every body's block.
   */
  readonly bodyKc: Int32Array | null;
  private readonly kcOutside: Int32Array;
  private kcDerivatives = -1;
  private kcInv = NaN;
  private kcGamma = NaN;
  /** Counts the products' renewals (forceProducts): a target's outside values made before the last are stale. */
  private kcVersion = 0;
  /** The list's own places (values), and the factors' (directTo: its places composed with placeCompact's). */
  readonly plain: CompactTarget;
  private readonly direct: CompactTarget;
  /** The outside force places as list entries (placeCompact's `kept`: the LU keeps their values in its arena). */
  readonly keptEntries: Int32Array;

  /**
   * For the matrix of size N = n + the active rows now: `bodySlot` each body's first slot
   * (−1: fixed), `forcePattern` the forces' K/C entries (ForceSet.derivativePattern).
   */
  constructor(readonly n: number, readonly N: number, bodySlot: Int32Array, forcePattern: Int32Array, constraints: ConstraintRows) {
    const all = new Set<number>();
    const body = new Int32Array(36 * bodySlot.length);
    bodySlot.forEach((c0, b) => {
      if (c0 < 0) return;
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) { const e = (c0 + i) * N + c0 + j; all.add(e); body[36 * b + 6 * i + j] = e; }
    });
    this.kcFrom = forcePattern;
    const kc = Int32Array.from(forcePattern, (e) => Math.floor(e / n) * N + (e % n));
    for (const e of kc) all.add(e);
    const lower: number[] = [], upper: number[] = [];
    constraints.forEachActiveEntry((k, _row, c) => {
      lower.push((n + k) * N + c); upper.push(c * N + n + k);
    });
    for (const e of lower) all.add(e);
    for (const e of upper) all.add(e);
    this.entries = Int32Array.from([...all].sort((a, b) => a - b));
    this.values = new Float64Array(this.entries.length);
    const at = new Map<number, number>();
    this.entries.forEach((e, k) => at.set(e, k));
    const place = (e: number): number => at.get(e)!;
    this.bodyAt = body.map((e, q) => (bodySlot[(q / 36) | 0] < 0 ? 0 : place(e)));
    this.kcTo = kc.map(place);
    this.jLower = Int32Array.from(lower, place);
    this.jUpper = Int32Array.from(upper, place);
    this.kc = new Float64Array(forcePattern.length);
    const owner = new Map<number, number>();
    let shared = false;
    bodySlot.forEach((c0, b) => {
      if (c0 < 0) return;
      for (let q = 36 * b; q < 36 * b + 36; q++) { shared ||= owner.has(this.bodyAt[q]); owner.set(this.bodyAt[q], q); }
    });
    const bodyKc = new Int32Array(36 * bodySlot.length).fill(-1), outside: number[] = [];
    this.kcTo.forEach((place, e) => { const q = owner.get(place); if (q === undefined) outside.push(e); else bodyKc[q] = e; });
    this.bodyKc = shared ? null : bodyKc;
    this.kcOutside = Int32Array.from(outside);
    this.keptEntries = Int32Array.from(outside, (e) => this.kcTo[e]);
    this.plain = new CompactTarget(this.bodyAt, this.keptEntries, this.jLower, this.jUpper);
    this.plain.out = this.values;
    const r = lower.length;
    this.direct = new CompactTarget(new Int32Array(this.bodyAt.length), new Int32Array(outside.length), new Int32Array(r), new Int32Array(r));
    this.direct.outsideKept = true;
  }

  /**
   * The target in place of the factors: placeCompact's places composed with the list's (again
   * when they changed), the outside force places its `kept` (keptEntries, in the LU's arena).
   */
  directTo(placed: PlacedList): CompactTarget {
    const t = this.direct, stale = t.version !== placed.version;
    t.out = placed.memory; t.outsideValues = placed.kept;
    if (stale) this.compose(t, placed.place, placed.version);
    return t;
  }

  /** t's places: entry e of the list at place[e]. */
  private compose(t: CompactTarget, place: Int32Array, version: number): void {
    const p = this.plain;
    for (let q = 0; q < p.body.length; q++) t.body[q] = place[p.body[q]];
    for (let k = 0; k < p.outside.length; k++) t.outside[k] = place[p.outside[k]];
    for (let q = 0; q < p.lower.length; q++) { t.lower[q] = place[p.lower[q]]; t.upper[q] = place[p.upper[q]]; }
    t.version = version;
    t.outsideOf = -1;
  }

  /** Every entry ← 0. */
  clear(): void {
    this.values.fill(0);
  }

  /** Body b's block += scale × B (B 6 × 6 row-major). */
  addBody(b: number, B: Float64Array, scale: number): void {
    const v = this.values, at = this.bodyAt, q0 = 36 * b;
    for (let q = 0; q < 36; q++) v[at[q0 + q]] += scale * B[q];
  }

  /**
   * −= inv (K + γ' C) over the forces' entries; `derivatives` counts K's and C's assemblies
   * (iteration.ts): while it, inv and γ' are as last time, the products kept then are subtracted.
   */
  subtractForces(K: Float64Array, C: Float64Array, inv: number, gammaP: number, derivatives: number): void {
    const v = this.values, to = this.kcTo, kc = this.forceProducts(K, C, inv, gammaP, derivatives);
    for (let e = 0; e < kc.length; e++) v[to[e]] -= kc[e];
  }

  /**
   * The dynamic block written whole into t, no clear before it (bodyKc non-null): each body place
   * ((0 + scale G_b) + M_b) − inv (K + γ' C), a force place outside the bodies 0 − inv (K + γ' C):
   * the operations of `clear`, gyro's addBody(G, scale), factor's addBody(M, 1) and
   * subtractForces in turn, so the same bits. G: each body's 36 at 36 b (a fixed body's unread).
   */
  writeDynamic(t: CompactTarget, G: Float64Array, scale: number, masses: readonly Float64Array[], bodySlot: Int32Array, K: Float64Array, C: Float64Array, inv: number, gammaP: number, derivatives: number): void {
    const kc = this.forceProducts(K, C, inv, gammaP, derivatives);
    this.writeOutside(t, kc);
    const out = t.out, at = t.body, bodyKc = this.bodyKc!;
    for (let b = 0; b < masses.length; b++) {
      if (bodySlot[b] < 0) continue;
      const M = masses[b], q0 = 36 * b;
      for (let q = 0; q < 36; q++) {
        const i = q0 + q, x = (0 + scale * G[i]) + M[q], e = bodyKc[i];
        out[at[i]] = e < 0 ? x : x - kc[e];
      }
    }
  }

  /**
   * The force places outside the bodies (two fifths of writeDynamic's places, Session 17): their
   * values made again only when the products were renewed or t's places changed; then written,
   * unless the LU puts them in place itself (`outsideKept`: in place of the factors, which each
   * elimination overwrites).
   */
  private writeOutside(t: CompactTarget, kc: Float64Array): void {
    const values = t.outsideValues, places = t.outside, out = t.out, kept = t.outsideKept;
    if (t.outsideOf !== this.kcVersion) {
      const outside = this.kcOutside;
      for (let k = 0; k < outside.length; k++) values[k] = 0 - kc[outside[k]];
      t.outsideOf = this.kcVersion;
    }
    if (!kept) for (let k = 0; k < places.length; k++) out[places[k]] = values[k];
  }

  /** inv (K + γ' C) at the forces' entries: kept while the assembly count, inv and γ' are as last time. */
  private forceProducts(K: Float64Array, C: Float64Array, inv: number, gammaP: number, derivatives: number): Float64Array {
    // the three compares made at every call: the first kept inv came after V8 optimised writeDynamic (a deopt)
    const kc = this.kc, sameAssembly = derivatives === this.kcDerivatives, sameInv = inv === this.kcInv, sameGamma = gammaP === this.kcGamma;
    if (sameAssembly && sameInv && sameGamma) return kc;
    const from = this.kcFrom;
    for (let e = 0; e < from.length; e++) { const f = from[e]; kc[e] = inv * (K[f] + gammaP * C[f]); }
    this.kcDerivatives = derivatives; this.kcInv = inv; this.kcGamma = gammaP;
    this.kcVersion++;
    return kc;
  }

  /** The active rows' Jacobian (as last evaluated) into t's bordering blocks. */
  addRows(t: CompactTarget, constraints: ConstraintRows): void {
    constraints.writeActiveEntries(t.out, t.lower, t.upper);
  }

  /** The assembled matrix written out into the row-major S (whose other entries are zero). */
  expand(S: Float64Array): void {
    const v = this.values, p = this.entries;
    for (let e = 0; e < p.length; e++) S[p[e]] = v[e];
  }
}
