/**
 * The integrator's constraint rows: the enabled constraint and driver blocks of a System
 * (limits left out) laid out as rows of Φ and of the dense Jacobian Φ_q over the tangent
 * columns, with the independent subset the step solves with.
 *
 * Redundant rows (a planar loop of revolutes) are handled by keeping an independent subset,
 * chosen by a pivoted QR of Φ_qᵀ; the others get λ = 0 (they stay satisfied because the
 * subset implies them).
 */
import { PivotedQR, choleskySolve } from '../linalg';
import type { ResidualBlock, System } from '../system';

export class ConstraintRows {
  /** Rows in all. */
  readonly count: number;
  /** Block index and row within it of each row. */
  readonly rowBlock: Int32Array;
  readonly rowInBlock: Int32Array;
  /** Φ and Φ_q (row-major, count × n) as last evaluated. */
  readonly phi: Float64Array;
  readonly J: Float64Array;
  /** The independent rows, in row order: active[0 .. activeCount). */
  readonly active: Int32Array;
  activeCount = 0;

  /** System block index, first row and tangent columns (−1: fixed) of each block. */
  private readonly blocks: Int32Array;
  private readonly blockRow0: Int32Array;
  private readonly blockCols: Int32Array[];
  /** The block each row set is evaluated by (its free-columns twin where it has one). */
  private readonly evalBlocks: ResidualBlock[];
  /** Whether a block's tangent columns are all different (1: its Jacobian scatters by assignment). */
  private readonly distinctColumns: Uint8Array;
  /** The Jacobian scatter of blocks with distinct columns (scatterLists). */
  private readonly scatterStart: Int32Array;
  private readonly scatterTo: Int32Array;
  private readonly scatterFrom: Int32Array;
  /** Each row's nonzero columns (its block's distinct columns), flattened: row k's are rowColumnIndex[rowColumnStart[k] .. rowColumnStart[k + 1]). */
  private readonly rowColumnStart: Int32Array;
  private readonly rowColumnIndex: Int32Array;
  private readonly localRes: Float64Array;
  private readonly localJac: Float64Array;
  private readonly qr: PivotedQR;

  constructor(private readonly system: System, layout: Int32Array, private readonly n: number) {
    const blocks: number[] = [], row0: number[] = [], cols: Int32Array[] = [], rb: number[] = [], rib: number[] = [];
    const evalBlocks: ResidualBlock[] = [];
    let m = 0, maxLocal = 1;
    for (let b = 0; b < system.blockCount; b++) {
      const blk = system.block(b);
      if (!system.blockEnabled(b) || blk.kind === 'limit') continue;
      blocks.push(b); row0.push(m);
      // fixed vars' columns are dropped: a block that can leaves them out of its Jacobian (a
      // twin, made even when all are free: twins take a block's faster hand-written rows)
      const free = blk.vars.map((vid) => layout[vid] >= 0);
      const narrow = blk.withFreeColumns?.(free);
      evalBlocks.push(narrow ?? blk);
      const c: number[] = [];
      for (const vid of blk.vars) {
        const v = system.variables[vid];
        if (narrow && layout[vid] < 0) continue;
        for (let k = 0; k < v.dim; k++) c.push(layout[vid] < 0 ? -1 : layout[vid] + k);
      }
      cols.push(Int32Array.from(c));
      maxLocal = Math.max(maxLocal, blk.rows * c.length);
      for (let r = 0; r < blk.rows; r++) { rb.push(b); rib.push(r); }
      m += blk.rows;
    }
    this.blocks = Int32Array.from(blocks);
    this.blockRow0 = Int32Array.from(row0);
    this.blockCols = cols;
    this.evalBlocks = evalBlocks;
    this.rowBlock = Int32Array.from(rb);
    this.rowInBlock = Int32Array.from(rib);
    const rowColumns = cols.map((c) => Int32Array.from(new Set(Array.from(c).filter((x) => x >= 0))));
    this.distinctColumns = Uint8Array.from(cols, (c, i) => (rowColumns[i].length === c.filter((x) => x >= 0).length ? 1 : 0));
    const rowLocalBlock = new Int32Array(m);
    for (let i = 0; i < blocks.length; i++) for (let r = 0; r < system.block(blocks[i]).rows; r++) rowLocalBlock[row0[i] + r] = i;
    ({ start: this.scatterStart, to: this.scatterTo, from: this.scatterFrom } = this.scatterLists());
    this.rowColumnStart = new Int32Array(m + 1);
    for (let row = 0; row < m; row++) this.rowColumnStart[row + 1] = this.rowColumnStart[row] + rowColumns[rowLocalBlock[row]].length;
    this.rowColumnIndex = new Int32Array(this.rowColumnStart[m]);
    for (let row = 0; row < m; row++) this.rowColumnIndex.set(rowColumns[rowLocalBlock[row]], this.rowColumnStart[row]);
    this.count = m;
    this.active = new Int32Array(m);
    this.J = new Float64Array(m * n);
    this.phi = new Float64Array(m);
    this.localRes = new Float64Array(Math.max(1, ...blocks.map((b) => system.block(b).rows)));
    this.localJac = new Float64Array(maxLocal);
    this.qr = new PivotedQR(n, m);
  }

  /** The first row of a block of the system, or −1 when it is not one of the rows'. */
  firstRowOf(block: ResidualBlock): number {
    let found = -1;
    for (let i = 0; i < this.blocks.length; i++) if (this.system.block(this.blocks[i]) === block) found = this.blockRow0[i];
    return found;
  }

  /** Φ and (when asked) Φ_q, all rows, at the system's current state. */
  evaluate(jacobian: boolean): void {
    const { system, J, phi, localRes, localJac, n } = this;
    const state = system.state;
    for (let i = 0; i < this.blocks.length; i++) {
      const b = this.blocks[i], blk = this.evalBlocks[i];
      blk.evaluate(state, system.blockOffsets(b), localRes, jacobian ? localJac : null);
      const rows = blk.rows, cols = this.blockCols[i], ld = cols.length, r0 = this.blockRow0[i];
      for (let r = 0; r < rows; r++) phi[r0 + r] = localRes[r];
      if (!jacobian) continue;
      // only a block's own columns are ever written (J starts zero); a var listed twice adds up
      if (this.distinctColumns[i]) {
        const to = this.scatterTo, from = this.scatterFrom;
        for (let e = this.scatterStart[i], end = this.scatterStart[i + 1]; e < end; e++) J[to[e]] = 0 + localJac[from[e]];
        continue;
      }
      for (let r = 0; r < rows; r++) {
        const row = (r0 + r) * n;
        for (let k = 0; k < ld; k++) { const c = cols[k]; if (c >= 0) J[row + c] = 0; }
        for (let k = 0; k < ld; k++) { const c = cols[k]; if (c >= 0) J[row + c] += localJac[r * ld + k]; }
      }
    }
  }

  /** Largest |Φ| over all rows as last evaluated. */
  maxPhi(): number {
    let e = 0;
    for (let k = 0; k < this.count; k++) e = Math.max(e, Math.abs(this.phi[k]));
    return e;
  }

  /** For each block with distinct columns, its Jacobian's entries as (index in J, index in the block's own) pairs, row by row. */
  private scatterLists(): { start: Int32Array; to: Int32Array; from: Int32Array } {
    const n = this.n, to: number[] = [], from: number[] = [];
    const start = new Int32Array(this.blocks.length + 1);
    for (let i = 0; i < this.blocks.length; i++) {
      const cols = this.blockCols[i], ld = cols.length, r0 = this.blockRow0[i];
      if (this.distinctColumns[i]) {
        for (let r = 0; r < this.evalBlocks[i].rows; r++) {
          for (let k = 0; k < ld; k++) if (cols[k] >= 0) { to.push((r0 + r) * n + cols[k]); from.push(r * ld + k); }
        }
      }
      start[i + 1] = to.length;
    }
    return { start, to: Int32Array.from(to), from: Int32Array.from(from) };
  }

  /**
   * Independent rows at the current Φ_q: pivoted QR of Φ_qᵀ (n × m column-major = J
   * row-major), kept in row order. Redone whenever the iteration matrix is, for a redundant
   * set: which rows are independent can change along the motion (a slider-crank's dead centre).
   * The λ of a row that leaves the set stays as it was: its force lies in the span of the others.
   */
  select(): void {
    const n = this.n, m = this.count;
    if (m === 0 || n === 0) { this.activeCount = 0; return; }
    const ma = this.qr.factor(this.J, n, m, 1e-9);
    const active = this.active, perm = this.qr.perm;
    for (let i = 0; i < ma; i++) {
      // insertion sort into row order (no allocation)
      const row = perm[i];
      let j = i - 1;
      while (j >= 0 && active[j] > row) { active[j + 1] = active[j]; j--; }
      active[j + 1] = row;
    }
    this.activeCount = ma;
  }

  /** r += Jᵀλ over the active rows, each row's nonzeros in its block's columns. */
  addTransposeTimes(r: Float64Array, lambda: Float64Array): void {
    const n = this.n, J = this.J, active = this.active, start = this.rowColumnStart, columns = this.rowColumnIndex, ma = this.activeCount;
    for (let k = 0; k < ma; k++) {
      const row = active[k], lam = lambda[row];
      if (lam === 0) continue;
      const base = row * n;
      for (let e = start[row], end = start[row + 1]; e < end; e++) { const c = columns[e]; r[c] += J[base + c] * lam; }
    }
  }

  /** The active rows of J into the bordering blocks of the N × N matrix S (rows and columns n ..). */
  addToMatrix(S: Float64Array, N: number): void {
    const n = this.n;
    for (let k = 0; k < this.activeCount; k++) {
      const row = this.active[k] * n;
      for (let c = 0; c < n; c++) {
        const x = this.J[row + c];
        S[(n + k) * N + c] = x;
        S[c * N + n + k] = x;
      }
    }
  }

  /**
   * v ← v − W⁻¹ Jᵀ (J W⁻¹ Jᵀ)⁻¹ (J v + Φ_t) over the active rows: the velocity closest to v in
   * the metric W that the rows allow (`rate`: Φ_t per row). False when J W⁻¹ Jᵀ is singular.
   */
  projectVelocity(v: Float64Array, W: Float64Array, rate: Float64Array): boolean {
    const n = this.n, ma = this.activeCount, J = this.J, active = this.active;
    if (ma === 0) return true;
    const A = new Float64Array(ma * ma), e = new Float64Array(ma);
    for (let i = 0; i < ma; i++) {
      const ri = active[i] * n;
      let s = rate[active[i]];
      for (let c = 0; c < n; c++) s += J[ri + c] * v[c];
      e[i] = s;
      for (let j = 0; j < ma; j++) {
        const rj = active[j] * n;
        let t = 0;
        for (let c = 0; c < n; c++) t += J[ri + c] * J[rj + c] / W[c];
        A[i * ma + j] = t;
      }
    }
    if (!choleskySolve(A, e, ma)) return false;
    for (let c = 0; c < n; c++) {
      let s = 0;
      for (let i = 0; i < ma; i++) s += J[active[i] * n + c] * e[i];
      v[c] -= s / W[c];
    }
    return true;
  }
}
