/**
 * Sparse linear algebra for the solver's large groups, in Float64 with workspaces that are
 * allocated once per structure and reused on every iteration.
 *
 * A group's Jacobian is a stack of row blocks (one per residual block): each block's rows
 * touch only the columns of its own variables, so it is stored dense over its own sorted
 * column list (`BlockRows`). The Newton step and the drag step both solve a system with the
 * matrix S = J M Jᵀ (M = I, or the inverse of a block-diagonal objective Hessian), whose
 * entry (i, k) can be non-zero only where rows i and k share a column. Rows are ordered by
 * reverse Cuthill–McKee on the block adjacency graph (blocks adjacent when they share a
 * column), which keeps S's envelope (the band from each row's first non-zero to the
 * diagonal) narrow; a Cholesky factor has no fill outside the envelope, so the factor lives
 * in the envelope's own storage (`NormalEquations`, profile or skyline Cholesky).
 *
 * Redundant rows make S singular: the factor is of S + ε·diag(S) (a Tikhonov term relative
 * to each row's own scale), and a pivot that rounding pushes below that floor is clamped
 * rather than failing, so the factorisation never breaks down on finite input. Non-finite
 * input is reported (factor returns false), never thrown.
 */
import { InternalError } from './errors';

/** A row block's pattern: its row count and its columns (any order, repeats allowed). */
export interface RowBlockPattern {
  rows: number;
  cols: ArrayLike<number>;
}

/**
 * Reverse Cuthill–McKee order of an undirected graph given as CSR adjacency (no self
 * loops needed; repeats harmless). Each connected component starts from a pseudo-peripheral
 * node (repeated breadth-first search from a least-degree node), visits neighbours by
 * increasing degree, and the whole order is reversed. Returns order[k] = node at position k.
 */
export function reverseCuthillMcKee(nodes: number, adjPtr: Int32Array, adj: Int32Array): Int32Array {
  const degree = new Int32Array(nodes);
  for (let v = 0; v < nodes; v++) degree[v] = adjPtr[v + 1] - adjPtr[v];
  const order = new Int32Array(nodes);
  const placed = new Uint8Array(nodes);
  const level = new Int32Array(nodes).fill(-1);
  const queue = new Int32Array(nodes);
  let count = 0;
  const neighbours: number[] = [];
  // Breadth-first search from s over unplaced nodes, recording levels (queue[0..end)); returns end and the depth.
  const levels = (s: number): { end: number; depth: number } => {
    let head = 0, tail = 0;
    queue[tail++] = s;
    level[s] = 0;
    let depth = 0;
    while (head < tail) {
      const v = queue[head++];
      for (let e = adjPtr[v]; e < adjPtr[v + 1]; e++) {
        const w = adj[e];
        if (placed[w] || level[w] >= 0) continue;
        level[w] = level[v] + 1;
        if (level[w] > depth) depth = level[w];
        queue[tail++] = w;
      }
    }
    return { end: tail, depth };
  };
  const clearLevels = (end: number) => { for (let i = 0; i < end; i++) level[queue[i]] = -1; };
  for (;;) {
    // start: an unplaced node of least degree
    let start = -1;
    for (let v = 0; v < nodes; v++) if (!placed[v] && (start < 0 || degree[v] < degree[start])) start = v;
    if (start < 0) break;
    // pseudo-peripheral node: move to a least-degree node of the last level while the depth grows
    let { end, depth } = levels(start);
    for (let pass = 0; pass < 8; pass++) {
      let best = -1;
      for (let i = 0; i < end; i++) {
        const v = queue[i];
        if (level[v] === depth && (best < 0 || degree[v] < degree[best])) best = v;
      }
      clearLevels(end);
      const next = levels(best);
      end = next.end;
      if (next.depth <= depth) break;
      start = best;
      depth = next.depth;
    }
    clearLevels(end);
    // Cuthill–McKee from start
    let head = count;
    order[count++] = start;
    placed[start] = 1;
    while (head < count) {
      const v = order[head++];
      neighbours.length = 0;
      for (let e = adjPtr[v]; e < adjPtr[v + 1]; e++) {
        const w = adj[e];
        if (placed[w]) continue;
        placed[w] = 1;
        neighbours.push(w);
      }
      neighbours.sort((a, b) => degree[a] - degree[b] || a - b);
      for (const w of neighbours) order[count++] = w;
    }
  }
  order.reverse();
  return order;
}

/** Adjacency (CSR) of row blocks that share a column; no self loops. */
export function blockAdjacency(blocks: readonly RowBlockPattern[], columns: number): { ptr: Int32Array; adj: Int32Array } {
  const nb = blocks.length;
  // blocks of each column
  const colCount = new Int32Array(columns + 1);
  for (const b of blocks) for (let i = 0; i < b.cols.length; i++) colCount[b.cols[i] + 1]++;
  for (let j = 0; j < columns; j++) colCount[j + 1] += colCount[j];
  const colBlocks = new Int32Array(colCount[columns]);
  const fill = colCount.slice(0, columns);
  blocks.forEach((b, k) => { for (let i = 0; i < b.cols.length; i++) colBlocks[fill[b.cols[i]]++] = k; });
  const mark = new Int32Array(nb).fill(-1);
  const ptr = new Int32Array(nb + 1);
  const adj: number[] = [];
  for (let k = 0; k < nb; k++) {
    mark[k] = k;
    const cols = blocks[k].cols;
    for (let i = 0; i < cols.length; i++) {
      const j = cols[i];
      for (let e = colCount[j]; e < colCount[j + 1]; e++) {
        const l = colBlocks[e];
        if (mark[l] === k) continue;
        mark[l] = k;
        adj.push(l);
      }
    }
    ptr[k + 1] = adj.length;
  }
  return { ptr, adj: Int32Array.from(adj) };
}

/**
 * J as a stack of row blocks, in the order given: block k has rows rowPtr[k]..rowPtr[k+1]
 * and is stored row-major over its own sorted, distinct columns cols[colPtr[k]..colPtr[k+1]]
 * at vals[valPtr[k]..]. Also holds the envelope of J Jᵀ's lower triangle (row i's first
 * column `first[i]`) and, for each block, the earlier blocks it shares columns with.
 */
export class BlockRows {
  readonly n: number;
  readonly m: number;
  readonly blocks: number;
  readonly rowPtr: Int32Array;
  readonly colPtr: Int32Array;
  readonly cols: Int32Array;
  readonly valPtr: Int32Array;
  /** The values (assignable: a solver may swap in another buffer of the same length). */
  vals: Float64Array;
  /** Envelope of S = J M Jᵀ (lower triangle): first column of each row, and row starts. */
  readonly first: Int32Array;
  readonly envPtr: Int32Array;
  /**
   * Block pairs sharing columns, for S = J M Jᵀ by blocks: block k's partners l ≤ k are
   * pairBlock[pairPtr[k] .. pairPtr[k+1]), each with runs of shared columns
   * segPtr[p] .. segPtr[p+1]: run s covers local columns segA[s].. of k and segB[s].. of l,
   * segLen[s] long.
   */
  readonly pairPtr: Int32Array;
  readonly pairBlock: Int32Array;
  readonly segPtr: Int32Array;
  readonly segA: Int32Array;
  readonly segB: Int32Array;
  readonly segLen: Int32Array;
  /** Scratch of mul and mulT: one block's entries of a vector (the widest block's columns). */
  private readonly gathered: Float64Array;

  constructor(n: number, blocks: readonly RowBlockPattern[]) {
    this.n = n;
    const nb = blocks.length;
    this.blocks = nb;
    this.rowPtr = new Int32Array(nb + 1);
    this.colPtr = new Int32Array(nb + 1);
    this.valPtr = new Int32Array(nb + 1);
    const colLists: number[][] = [];
    for (let k = 0; k < nb; k++) {
      const list = [...new Set(Array.from(blocks[k].cols))].sort((a, b) => a - b);
      for (const j of list) if (!(j >= 0 && j < n)) throw new InternalError(`BlockRows: column ${j} outside 0..${n - 1}`);
      colLists.push(list);
      this.rowPtr[k + 1] = this.rowPtr[k] + blocks[k].rows;
      this.colPtr[k + 1] = this.colPtr[k] + list.length;
      this.valPtr[k + 1] = this.valPtr[k] + blocks[k].rows * list.length;
    }
    this.m = this.rowPtr[nb];
    this.cols = Int32Array.from(colLists.flat());
    let widest = 0;
    for (const list of colLists) widest = Math.max(widest, list.length);
    this.gathered = new Float64Array(widest);
    this.vals = new Float64Array(this.valPtr[nb]);
    const firstRowOfCol = new Int32Array(n).fill(this.m);
    for (let k = 0; k < nb; k++) for (const j of colLists[k]) if (this.rowPtr[k] < firstRowOfCol[j]) firstRowOfCol[j] = this.rowPtr[k];
    // block pairs and their runs of shared columns
    const pairPtr = [0], pairBlock: number[] = [], segPtr = [0], segA: number[] = [], segB: number[] = [], segLen: number[] = [];
    const colBlockStart = new Int32Array(n + 1);
    for (let k = 0; k < nb; k++) for (const j of colLists[k]) colBlockStart[j + 1]++;
    for (let j = 0; j < n; j++) colBlockStart[j + 1] += colBlockStart[j];
    const colBlocks = new Int32Array(colBlockStart[n]), colLocal = new Int32Array(colBlockStart[n]);
    const cb = colBlockStart.slice(0, n);
    for (let k = 0; k < nb; k++) colLists[k].forEach((j, t) => { colBlocks[cb[j]] = k; colLocal[cb[j]++] = t; });
    const partners = new Map<number, number[]>(); // l → [tk, tl, …]
    for (let k = 0; k < nb; k++) {
      partners.clear();
      colLists[k].forEach((j, tk) => {
        for (let e = colBlockStart[j]; e < colBlockStart[j + 1]; e++) {
          const l = colBlocks[e];
          if (l > k) continue;
          let list = partners.get(l);
          if (!list) { list = []; partners.set(l, list); }
          list.push(tk, colLocal[e]);
        }
      });
      for (const l of [...partners.keys()].sort((a, b) => a - b)) {
        const list = partners.get(l)!;
        pairBlock.push(l);
        for (let q = 0; q < list.length; q += 2) {
          const last = segA.length - 1;
          if (q > 0 && segA[last] + segLen[last] === list[q] && segB[last] + segLen[last] === list[q + 1]) segLen[last]++;
          else { segA.push(list[q]); segB.push(list[q + 1]); segLen.push(1); }
        }
        segPtr.push(segA.length);
      }
      pairPtr.push(pairBlock.length);
    }
    this.pairPtr = Int32Array.from(pairPtr); this.pairBlock = Int32Array.from(pairBlock);
    this.segPtr = Int32Array.from(segPtr); this.segA = Int32Array.from(segA); this.segB = Int32Array.from(segB); this.segLen = Int32Array.from(segLen);
    // envelope: every row of block k starts at the first row of any block sharing a column
    this.first = new Int32Array(this.m);
    this.envPtr = new Int32Array(this.m + 1);
    for (let k = 0; k < nb; k++) {
      let f = this.rowPtr[k];
      for (const j of colLists[k]) if (firstRowOfCol[j] < f) f = firstRowOfCol[j];
      for (let i = this.rowPtr[k]; i < this.rowPtr[k + 1]; i++) {
        this.first[i] = f;
        this.envPtr[i + 1] = this.envPtr[i] + (i - f + 1);
      }
    }
  }

  /** Stored entries in the lower envelope of S (its diagonal included). */
  get profile(): number {
    return this.envPtr[this.m];
  }

  /** out (m) = J x (x of length n). */
  mul(out: Float64Array, x: ArrayLike<number>): void {
    const { rowPtr, colPtr, cols, valPtr, vals } = this;
    const xk = this.gathered;
    for (let k = 0; k < this.blocks; k++) {
      const c0 = colPtr[k], w = colPtr[k + 1] - c0;
      // the block's entries of x, gathered once for all its rows (the same sums)
      for (let t = 0; t < w; t++) xk[t] = x[cols[c0 + t]];
      let p = valPtr[k];
      for (let i = rowPtr[k], end = rowPtr[k + 1]; i < end; i++) {
        let s = 0;
        for (let t = 0; t < w; t++) s += vals[p + t] * xk[t];
        out[i] = s;
        p += w;
      }
    }
  }

  /** out (n) = Jᵀ y (y of length m). */
  mulT(out: Float64Array, y: ArrayLike<number>): void {
    const { rowPtr, colPtr, cols, valPtr, vals } = this;
    out.fill(0, 0, this.n);
    const ok = this.gathered;
    for (let k = 0; k < this.blocks; k++) {
      const c0 = colPtr[k], w = colPtr[k + 1] - c0;
      // the block's entries of out, summed in a gathered copy (its columns are distinct: the
      // same additions in the same order) and put back
      for (let t = 0; t < w; t++) ok[t] = out[cols[c0 + t]];
      let p = valPtr[k];
      for (let i = rowPtr[k], end = rowPtr[k + 1]; i < end; i++) {
        const yi = y[i];
        if (yi !== 0) for (let t = 0; t < w; t++) ok[t] += vals[p + t] * yi;
        p += w;
      }
      for (let t = 0; t < w; t++) out[cols[c0 + t]] = ok[t];
    }
  }

  /** Copy into a dense row-major m × n matrix (tests and checks). */
  toDense(out = new Float64Array(this.m * this.n)): Float64Array {
    out.fill(0, 0, this.m * this.n);
    for (let k = 0; k < this.blocks; k++) {
      const c0 = this.colPtr[k], w = this.colPtr[k + 1] - c0;
      let p = this.valPtr[k];
      for (let i = this.rowPtr[k]; i < this.rowPtr[k + 1]; i++, p += w) {
        for (let t = 0; t < w; t++) out[i * this.n + this.cols[c0 + t]] += this.vals[p + t];
      }
    }
    return out;
  }
}

/**
 * S = J M Jᵀ in the envelope of a BlockRows, and its Cholesky factor in place.
 * Row i holds columns first[i]..i at L[envPtr[i] ..].
 */
export class NormalEquations {
  readonly L: Float64Array;
  private readonly invDiag: Float64Array;
  /** Pivots clamped to the regularisation floor in the last factorisation. */
  clamped = 0;

  constructor(readonly J: BlockRows) {
    this.L = new Float64Array(J.profile);
    this.invDiag = new Float64Array(J.m);
  }

  /**
   * S = W Jᵀ (lower triangle), with W stored like J.vals: W = J M for a column operator M
   * that maps each column's entries within the columns of every block touching it (a
   * diagonal, or blocks inside one variable). W omitted: S = J Jᵀ.
   */
  assemble(W: Float64Array | null = null): void {
    const J = this.J;
    const { rowPtr, colPtr, valPtr, vals, first, envPtr, pairPtr, pairBlock, segPtr, segA, segB, segLen } = J;
    const L = this.L, w = W ?? vals;
    L.fill(0);
    // S[i, j] for i in block k, j in block l ≤ k: rows of W_k against rows of J_l over the shared runs
    for (let k = 0; k < J.blocks; k++) {
      const wk = colPtr[k + 1] - colPtr[k], rk0 = rowPtr[k], rk1 = rowPtr[k + 1];
      for (let p = pairPtr[k]; p < pairPtr[k + 1]; p++) {
        const l = pairBlock[p], wl = colPtr[l + 1] - colPtr[l], rl0 = rowPtr[l];
        const s0 = segPtr[p], s1 = segPtr[p + 1];
        const single = s1 - s0 === 1, sa = segA[s0], sb = segB[s0], sl = segLen[s0];
        for (let i = rk0; i < rk1; i++) {
          const base = envPtr[i] - first[i];
          const a0 = valPtr[k] + (i - rk0) * wk;
          const jEnd = l === k ? i + 1 : rowPtr[l + 1];
          for (let j = rl0; j < jEnd; j++) {
            const b0 = valPtr[l] + (j - rl0) * wl;
            let sum = 0;
            if (single) {
              const a = a0 + sa, b = b0 + sb;
              for (let t = 0; t < sl; t++) sum += w[a + t] * vals[b + t];
            } else {
              for (let sg = s0; sg < s1; sg++) {
                const a = a0 + segA[sg], b = b0 + segB[sg], len = segLen[sg];
                for (let t = 0; t < len; t++) sum += w[a + t] * vals[b + t];
              }
            }
            L[base + j] = sum;
          }
        }
      }
    }
  }

  /** S's diagonal entry of row i (before factoring). */
  diagonal(i: number): number {
    return this.L[this.J.envPtr[i + 1] - 1];
  }

  /**
   * Factor S + ε·diag(S) = L Lᵀ in place (a zero diagonal counts as 1). Returns false on
   * non-finite input. A pivot that rounding drives below half the floor ε·S_ii is clamped to
   * the floor (counted in `clamped`).
   */
  factor(epsilon: number): boolean {
    const { first, envPtr, m } = this.J;
    const L = this.L, inv = this.invDiag;
    this.clamped = 0;
    for (let i = 0; i < m; i++) {
      const fi = first[i], bi = envPtr[i] - fi;
      for (let j = fi; j < i; j++) {
        const fj = first[j], bj = envPtr[j] - fj;
        const k0 = fi > fj ? fi : fj;
        let s = L[bi + j];
        for (let k = k0; k < j; k++) s -= L[bi + k] * L[bj + k];
        L[bi + j] = s * inv[j];
      }
      const sii = L[bi + i];
      // a zero row (or a diagonal that rounding made ≤ 0) counts as scale 1; NaN stays NaN
      const scale = sii > 0 ? sii : 1;
      let d = sii > 0 ? sii * (1 + epsilon) : sii === 0 ? 1 : sii + epsilon;
      for (let k = fi; k < i; k++) d -= L[bi + k] * L[bi + k];
      const floor = epsilon * scale;
      if (!(d > 0.5 * floor)) {
        if (!Number.isFinite(d) || !(floor > 0)) return false;
        d = floor;
        this.clamped++;
      }
      const r = Math.sqrt(d);
      L[bi + i] = r;
      inv[i] = 1 / r;
    }
    return true;
  }

  /** b ← (L Lᵀ)⁻¹ b in place (after factor). */
  solve(b: Float64Array): void {
    const { first, envPtr, m } = this.J;
    const L = this.L, inv = this.invDiag;
    for (let i = 0; i < m; i++) {
      const fi = first[i], bi = envPtr[i] - fi;
      let s = b[i];
      for (let k = fi; k < i; k++) s -= L[bi + k] * b[k];
      b[i] = s * inv[i];
    }
    for (let i = m - 1; i >= 0; i--) {
      const fi = first[i], bi = envPtr[i] - fi;
      const x = b[i] * inv[i];
      b[i] = x;
      if (x !== 0) for (let k = fi; k < i; k++) b[k] -= L[bi + k] * x;
    }
  }
}
