/**
 * Where a large iteration matrix (iteration.ts) can be nonzero: the bodies' mass and
 * gyroscopic blocks, the force blocks' K and C (every pair of a block's slots) and the
 * active rows' Jacobian with its transpose. A car's matrix (288 unknowns) has ~3k such
 * entries of 83k: clearing, assembling and refactoring (lu-refactor.ts) touch these alone.
 * The entries written are the dense loops' own, in the same order, so the matrix is the
 * same to the bit; an entry outside the pattern stays an exact zero.
 */
import type { ConstraintRows } from './rows';

export class IterationPattern {
  /** Every entry of the N × N matrix (row-major) that can be nonzero, ascending. */
  readonly entries: Int32Array;
  /** K's and C's entries (row-major n × n) and their place in the matrix. */
  readonly kcFrom: Int32Array;
  readonly kcTo: Int32Array;
  /** The active rows' Jacobian entries (row-major in J) and their places in the matrix: row n + k and its transpose. */
  readonly jFrom: Int32Array;
  readonly jLower: Int32Array;
  readonly jUpper: Int32Array;

  /**
   * For the matrix of size N = n + the active rows now: `bodySlot` each body's first slot
   * (−1: fixed), `forcePattern` the forces' K/C entries (ForceSet.derivativePattern).
   */
  constructor(readonly n: number, readonly N: number, bodySlot: Int32Array, forcePattern: Int32Array, constraints: ConstraintRows) {
    const all = new Set<number>();
    for (const c0 of bodySlot) {
      if (c0 < 0) continue;
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) all.add((c0 + i) * N + c0 + j);
    }
    this.kcFrom = forcePattern;
    this.kcTo = Int32Array.from(forcePattern, (e) => Math.floor(e / n) * N + (e % n));
    for (const e of this.kcTo) all.add(e);
    const from: number[] = [], lower: number[] = [], upper: number[] = [];
    constraints.forEachActiveEntry((k, row, c) => {
      from.push(row * n + c); lower.push((n + k) * N + c); upper.push(c * N + n + k);
    });
    this.jFrom = Int32Array.from(from);
    this.jLower = Int32Array.from(lower);
    this.jUpper = Int32Array.from(upper);
    for (const e of lower) all.add(e);
    for (const e of upper) all.add(e);
    this.entries = Int32Array.from([...all].sort((a, b) => a - b));
  }

  /** S's pattern entries ← 0 (S is zero elsewhere). */
  clear(S: Float64Array): void {
    const p = this.entries;
    for (let e = 0; e < p.length; e++) S[p[e]] = 0;
  }

  /** S −= inv (K + γ' C) over the forces' entries. */
  subtractForces(S: Float64Array, K: Float64Array, C: Float64Array, inv: number, gammaP: number): void {
    const from = this.kcFrom, to = this.kcTo;
    for (let e = 0; e < from.length; e++) { const f = from[e]; S[to[e]] -= inv * (K[f] + gammaP * C[f]); }
  }

  /** The active rows' Jacobian into S's bordering blocks. */
  addRows(S: Float64Array, J: Float64Array): void {
    const from = this.jFrom, lower = this.jLower, upper = this.jUpper;
    for (let e = 0; e < from.length; e++) { const x = J[from[e]]; S[lower[e]] = x; S[upper[e]] = x; }
  }
}
