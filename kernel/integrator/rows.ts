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
import { toMatrix } from '../quat';
import type { ResidualBlock, System, TurnedGroup, TurnedMember } from '../system';
import { TransposeArena } from './transpose-wasm';

/**
 * Rows from which Jᵀλ is summed block by block in WebAssembly (transpose-wasm.ts): a car's 139
 * rows; a pendulum's 6 and a corner's 19 keep the row loop (JavaScript's block-by-block sums
 * were even or slower there).
 */
const BY_BLOCK_MIN_ROWS = 32;

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

  /** System block index, first row (and after the last, the row count) and tangent columns (−1: fixed) of each block. */
  private readonly blocks: Int32Array;
  private readonly blockRow0: Int32Array;
  private readonly blockCols: Int32Array[];
  /** The block each row set is evaluated by (its free-columns twin where it has one). */
  private readonly evalBlocks: ResidualBlock[];
  /** Whether a block's tangent columns are all different (1: its Jacobian scatters by assignment). */
  private readonly distinctColumns: Uint8Array;
  /** The Jacobian scatter of blocks with distinct columns (scatterLists). */
  private readonly scatterTo: Int32Array;
  private readonly scatterFrom: Int32Array;
  /** Each row's nonzero columns (its block's distinct columns), flattened: row k's are rowColumnIndex[rowColumnStart[k] .. rowColumnStart[k + 1]). */
  private readonly rowColumnStart: Int32Array;
  private readonly rowColumnIndex: Int32Array;
  /**
   * Each block's own Jacobian (rows × its columns) as last evaluated, side by side: a Newton
   * iteration that keeps its matrix needs only Jᵀλ, read from here, and J itself is scattered
   * from here when the matrix is rebuilt (`scatter`).
   */
  private readonly slab: Float64Array;
  private readonly blockJac: Float64Array[];
  /** Each row's nonzeros in `slab` (its block's own, for blocks with distinct columns), beside rowColumnIndex. */
  private readonly rowSlabIndex: Int32Array;
  /** Every row's nonzeros are in the slab (no block repeats a column): writeActiveEntries' flat loop. */
  private readonly allFromSlab: boolean;
  /** Jᵀλ in WebAssembly (transpose-wasm.ts) for a large system whose blocks' columns are all distinct; null: the row loop. */
  private readonly transpose: TransposeArena | null;
  /** Each block's rows of phi (a view): the block writes its Φ there. */
  private readonly phiOf: Float64Array[];
  /**
   * The rotation matrix of each pose that a block evaluated with its parts' rotations
   * (ResidualBlock.evaluateTurned) reads, made once per evaluation (views of one array),
   * and its quaternion's state offset; each block's two poses' places among them (−1: the
   * block is evaluated by `evaluate`, its rotations its own).
   */
  private readonly turns: Float64Array[];
  /** The array `turns` are views of (9 numbers a pose), as the groups read it. */
  private readonly rotations: Float64Array;
  private readonly turnOffset: Int32Array;
  private readonly turnA: Int32Array;
  private readonly turnB: Int32Array;
  /** 1 where a caller makes the turn itself before each `evaluate(…, turnsMade)` (claimTurn). */
  private readonly claimed: Uint8Array;
  /** The turns not claimed (claimTurn), which `evaluate(…, true)` still makes: the ground's, in the car. */
  private unclaimed: Int32Array;
  /** Each block's state offsets (System.blockOffsets, fixed once a block is added), read here rather than through the system at each evaluation. */
  private readonly offsetsOf: Int32Array[];
  /**
   * The blocks by how `evaluate` calls them (each writes only its own views, so their order is
   * free): those evaluated with their parts' rotations of the commonest class (the car's
   * joints), the others so evaluated, the rest; and those whose columns repeat (addRepeated).
   * Three call sites, each seeing fewer maps than one would.
   */
  private readonly turnedCommon: Int32Array;
  private readonly turnedOther: Int32Array;
  private readonly unturned: Int32Array;
  private readonly repeated: Int32Array;
  /** The blocks evaluated by kind in one call each (ResidualBlock.groupTurned: the car's 16 distances); none of them is in the lists above. */
  private readonly groups: TurnedGroup[];
  /** Whether J holds the Jacobian of the last evaluation (false after one that left it in the slab). */
  private denseCurrent = false;
  private readonly qr: PivotedQR;

  constructor(private readonly system: System, layout: Int32Array, private readonly n: number) {
    const blocks: number[] = [], row0: number[] = [], cols: Int32Array[] = [], rb: number[] = [], rib: number[] = [];
    const evalBlocks: ResidualBlock[] = [];
    let m = 0;
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
      for (let r = 0; r < blk.rows; r++) { rb.push(b); rib.push(r); }
      m += blk.rows;
    }
    this.blocks = Int32Array.from(blocks);
    this.blockRow0 = Int32Array.from([...row0, m]);
    this.blockCols = cols;
    this.evalBlocks = evalBlocks;
    this.rowBlock = Int32Array.from(rb);
    this.rowInBlock = Int32Array.from(rib);
    const rowColumns = cols.map((c) => Int32Array.from(new Set(Array.from(c).filter((x) => x >= 0))));
    this.distinctColumns = Uint8Array.from(cols, (c, i) => (rowColumns[i].length === c.filter((x) => x >= 0).length ? 1 : 0));
    const rowLocalBlock = new Int32Array(m);
    for (let i = 0; i < blocks.length; i++) for (let r = 0; r < system.block(blocks[i]).rows; r++) rowLocalBlock[row0[i] + r] = i;
    this.rowColumnStart = new Int32Array(m + 1);
    for (let row = 0; row < m; row++) this.rowColumnStart[row + 1] = this.rowColumnStart[row] + rowColumns[rowLocalBlock[row]].length;
    this.rowColumnIndex = new Int32Array(this.rowColumnStart[m]);
    for (let row = 0; row < m; row++) this.rowColumnIndex.set(rowColumns[rowLocalBlock[row]], this.rowColumnStart[row]);
    this.count = m;
    this.active = new Int32Array(m);
    this.J = new Float64Array(m * n);
    this.phi = new Float64Array(m);
    const slabStart = new Int32Array(blocks.length + 1);
    for (let i = 0; i < blocks.length; i++) slabStart[i + 1] = slabStart[i] + system.block(blocks[i]).rows * cols[i].length;
    // a large system's slab in the WebAssembly Jᵀλ's memory (transpose-wasm.ts), where every block's columns are distinct
    const byBlock = this.blockColumnLists(slabStart);
    const stride = Int32Array.from(cols, (c) => c.length);
    this.transpose = byBlock.start && m >= BY_BLOCK_MIN_ROWS ? new TransposeArena(slabStart[blocks.length], m, n, this.blockRow0, stride, byBlock.start, byBlock.column, byBlock.slab) : null;
    this.slab = this.transpose?.slab ?? new Float64Array(Math.max(1, slabStart[blocks.length]));
    this.blockJac = cols.map((_, i) => this.slab.subarray(slabStart[i], slabStart[i + 1]));
    ({ to: this.scatterTo, from: this.scatterFrom } = this.scatterLists(slabStart));
    this.rowSlabIndex = this.rowSlabEntries(rowLocalBlock, slabStart);
    this.allFromSlab = this.rowSlabIndex.every((x) => x >= 0);
    this.qr = new PivotedQR(n, m);
    this.phiOf = blocks.map((_, i) => this.phi.subarray(this.blockRow0[i], this.blockRow0[i + 1]));
    ({ turns: this.turns, all: this.rotations, offset: this.turnOffset, a: this.turnA, b: this.turnB } = this.turnLists());
    this.claimed = new Uint8Array(this.turns.length);
    this.unclaimed = Int32Array.from(this.turns.keys());
    this.offsetsOf = blocks.map((b) => system.blockOffsets(b));
    const grouped = new Uint8Array(blocks.length);
    this.groups = this.turnedGroups(slabStart, grouped);
    ({ common: this.turnedCommon, other: this.turnedOther, unturned: this.unturned } = this.callLists(grouped));
    this.repeated = Int32Array.from(blocks.keys()).filter((i) => this.distinctColumns[i] === 0);
  }

  /**
   * The groups of the blocks evaluated with their rotations whose kind offers one
   * (ResidualBlock.groupTurned, the blocks of one maker together); grouped[i] set for each member.
   */
  private turnedGroups(slabStart: Int32Array, grouped: Uint8Array): TurnedGroup[] {
    const byMaker = new Map<unknown, number[]>();
    for (let i = 0; i < this.blocks.length; i++) {
      const maker = this.evalBlocks[i].groupTurned;
      if (this.turnA[i] < 0 || typeof maker !== 'function') continue;
      const list = byMaker.get(maker) ?? [];
      byMaker.set(maker, list);
      list.push(i);
    }
    const groups: TurnedGroup[] = [];
    for (const list of byMaker.values()) {
      const members: TurnedMember[] = list.map((i) => ({
        block: this.evalBlocks[i], offsets: this.offsetsOf[i], turnA: this.turnA[i], turnB: this.turnB[i],
        RA: this.turns[this.turnA[i]], RB: this.turns[this.turnB[i]], row: this.blockRow0[i], phi: this.phiOf[i],
        slabAt: slabStart[i], jacobian: this.blockJac[i],
      }));
      const group = this.evalBlocks[list[0]].groupTurned!(members);
      if (group === null) continue;
      groups.push(group);
      for (const i of list) grouped[i] = 1;
    }
    return groups;
  }

  /** The blocks evaluated with their rotations, the commonest class's apart from the others', and the rest (see turnedCommon); the grouped left out. */
  private callLists(grouped: Uint8Array): { common: Int32Array; other: Int32Array; unturned: Int32Array } {
    const turned = Int32Array.from(this.blocks.keys()).filter((i) => this.turnA[i] >= 0 && grouped[i] === 0);
    const counts = new Map<unknown, number>();
    for (const i of turned) { const c = this.evalBlocks[i].constructor; counts.set(c, (counts.get(c) ?? 0) + 1); }
    let commonest: unknown = null, most = 0;
    for (const [c, count] of counts) if (count > most) { commonest = c; most = count; }
    return {
      common: turned.filter((i) => this.evalBlocks[i].constructor === commonest),
      other: turned.filter((i) => this.evalBlocks[i].constructor !== commonest),
      unturned: Int32Array.from(this.blocks.keys()).filter((i) => this.turnA[i] < 0),
    };
  }

  /**
   * The rotation matrix the rows read for the pose whose quaternion is at state offset
   * `offset` (a view, 9 row-major), or null where they read none: the caller (the integrator
   * on R³ × SO(3), which makes every moving pose's rotation at each iterate anyway) writes it
   * there itself before each `evaluate(…, true)`, and the rows then leave it as written.
   */
  claimTurn(offset: number): Float64Array | null {
    for (let k = 0; k < this.turns.length; k++) {
      if (this.turnOffset[k] !== offset) continue;
      this.claimed[k] = 1;
      this.unclaimed = this.unclaimed.filter((j) => j !== k);
      return this.turns[k];
    }
    return null;
  }

  /** The poses whose rotations the blocks read (evaluateTurned), and each block's two (see `turns`). */
  private turnLists(): { turns: Float64Array[]; all: Float64Array; offset: Int32Array; a: Int32Array; b: Int32Array } {
    const system = this.system, place = new Map<number, number>(), offset: number[] = [];
    const a = new Int32Array(this.blocks.length).fill(-1), b = new Int32Array(this.blocks.length).fill(-1);
    const poseAt = (vid: number): number => {
      let k = place.get(vid);
      if (k === undefined) { k = offset.length; place.set(vid, k); offset.push(system.variables[vid].offset + 3); }
      return k;
    };
    for (let i = 0; i < this.blocks.length; i++) {
      const vars = system.block(this.blocks[i]).vars;
      if (typeof this.evalBlocks[i].evaluateTurned !== 'function' || vars.length < 2) continue;
      if (system.variables[vars[0]].kind !== 'pose' || system.variables[vars[1]].kind !== 'pose') continue;
      a[i] = poseAt(vars[0]); b[i] = poseAt(vars[1]);
    }
    const all = new Float64Array(9 * Math.max(1, offset.length));
    return { turns: offset.map((_, k) => all.subarray(9 * k, 9 * k + 9)), all, offset: Int32Array.from(offset), a, b };
  }

  /** The first row of a block of the system, or −1 when it is not one of the rows'. */
  firstRowOf(block: ResidualBlock): number {
    let found = -1;
    for (let i = 0; i < this.blocks.length; i++) if (this.system.block(this.blocks[i]) === block) found = this.blockRow0[i];
    return found;
  }

  /**
   * Φ and (when asked) Φ_q, all rows, at the system's current state. `dense` false leaves
   * Φ_q in the blocks' own storage (Jᵀλ reads it there) until `scatter` writes J; blocks
   * whose columns repeat are scattered into J either way (their entries add up). `turnsMade`:
   * the claimed turns (claimTurn) hold the current state's rotations already.
   */
  evaluate(jacobian: boolean, dense = true, turnsMade = false): void {
    const state = this.system.state;
    const evalBlocks = this.evalBlocks, blockJac = this.blockJac, phiOf = this.phiOf, offsetsOf = this.offsetsOf;
    const turns = this.turns, turnOffset = this.turnOffset, turnA = this.turnA, turnB = this.turnB;
    if (turnsMade) {
      const unclaimed = this.unclaimed;
      for (let j = 0; j < unclaimed.length; j++) { const k = unclaimed[j]; toMatrix(turns[k], state, turnOffset[k]); }
    } else for (let k = 0; k < turns.length; k++) toMatrix(turns[k], state, turnOffset[k]);
    // each row set writes its own Φ in place; the joints and distances take their parts' rotations from `turns`
    const common = this.turnedCommon, other = this.turnedOther, unturned = this.unturned;
    for (let j = 0; j < common.length; j++) {
      const i = common[j];
      evalBlocks[i].evaluateTurned!(state, offsetsOf[i], turns[turnA[i]], turns[turnB[i]], phiOf[i], jacobian ? blockJac[i] : null);
    }
    for (let j = 0; j < other.length; j++) {
      const i = other[j];
      evalBlocks[i].evaluateTurned!(state, offsetsOf[i], turns[turnA[i]], turns[turnB[i]], phiOf[i], jacobian ? blockJac[i] : null);
    }
    for (let j = 0; j < unturned.length; j++) {
      const i = unturned[j];
      evalBlocks[i].evaluate(state, offsetsOf[i], phiOf[i], jacobian ? blockJac[i] : null);
    }
    const groups = this.groups;
    for (let g = 0; g < groups.length; g++) groups[g].evaluate(state, this.rotations, this.phi, jacobian ? this.slab : null);
    if (jacobian) for (let j = 0; j < this.repeated.length; j++) this.addRepeated(this.repeated[j]);
    this.denseCurrent = false;
    if (jacobian && dense) this.scatter();
  }

  /** J from the blocks' own Jacobians of the last evaluation (blocks with distinct columns: those with repeats are there already). */
  scatter(): void {
    if (this.denseCurrent) return;
    const J = this.J, slab = this.slab, to = this.scatterTo, from = this.scatterFrom;
    // only a block's own columns are ever written (J starts zero)
    for (let e = 0, end = to.length; e < end; e++) J[to[e]] = 0 + slab[from[e]];
    this.denseCurrent = true;
  }

  /** Block i's rows of J from its own Jacobian, where a var listed twice adds up. */
  private addRepeated(i: number): void {
    const J = this.J, n = this.n, localJac = this.blockJac[i];
    const rows = this.evalBlocks[i].rows, cols = this.blockCols[i], ld = cols.length, r0 = this.blockRow0[i];
    for (let r = 0; r < rows; r++) {
      const row = (r0 + r) * n;
      for (let k = 0; k < ld; k++) { const c = cols[k]; if (c >= 0) J[row + c] = 0; }
      for (let k = 0; k < ld; k++) { const c = cols[k]; if (c >= 0) J[row + c] += localJac[r * ld + k]; }
    }
  }

  /** Largest |Φ| over all rows as last evaluated. */
  maxPhi(): number {
    const phi = this.phi, m = this.count;
    let e = 0;
    // Math.max's result without its call: a NaN row makes the whole NaN, as there
    for (let k = 0; k < m; k++) { const a = Math.abs(phi[k]); if (a > e) e = a; else if (a !== a) return NaN; }
    return e;
  }

  /** The blocks with distinct columns: their Jacobians' entries as (index in J, index in the slab) pairs, row by row. */
  private scatterLists(slabStart: Int32Array): { to: Int32Array; from: Int32Array } {
    const n = this.n, to: number[] = [], from: number[] = [];
    for (let i = 0; i < this.blocks.length; i++) {
      const cols = this.blockCols[i], ld = cols.length, r0 = this.blockRow0[i];
      if (!this.distinctColumns[i]) continue;
      for (let r = 0; r < this.evalBlocks[i].rows; r++) {
        for (let k = 0; k < ld; k++) if (cols[k] >= 0) { to.push((r0 + r) * n + cols[k]); from.push(slabStart[i] + r * ld + k); }
      }
    }
    return { to: Int32Array.from(to), from: Int32Array.from(from) };
  }

  /** The lists of Jᵀλ block by block (transpose-wasm.ts): each block's free columns and their places in its slab's first row; start null where a block's columns repeat. */
  private blockColumnLists(slabStart: Int32Array): { start: Int32Array | null; slab: Int32Array; column: Int32Array } {
    const start = [0], slab: number[] = [], column: number[] = [];
    for (let i = 0; i < this.blocks.length; i++) {
      if (!this.distinctColumns[i]) return { start: null, slab: new Int32Array(0), column: new Int32Array(0) };
      const cols = this.blockCols[i];
      for (let k = 0; k < cols.length; k++) if (cols[k] >= 0) { slab.push(slabStart[i] + k); column.push(cols[k]); }
      start.push(slab.length);
    }
    return { start: Int32Array.from(start), slab: Int32Array.from(slab), column: Int32Array.from(column) };
  }

  /**
   * For each row's nonzero columns (rowColumnIndex), the entry's index in the slab, or −1 for
   * a block with repeated columns (read from J, where they were added up).
   */
  private rowSlabEntries(rowLocalBlock: Int32Array, slabStart: Int32Array): Int32Array {
    const index = new Int32Array(this.rowColumnIndex.length).fill(-1);
    for (let row = 0; row < this.count; row++) {
      const i = rowLocalBlock[row];
      if (!this.distinctColumns[i]) continue;
      const cols = this.blockCols[i], ld = cols.length, r = row - this.blockRow0[i];
      for (let e = this.rowColumnStart[row]; e < this.rowColumnStart[row + 1]; e++) {
        index[e] = slabStart[i] + r * ld + cols.indexOf(this.rowColumnIndex[e]);
      }
    }
    return index;
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
    this.scatter();
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

  /**
   * r += Jᵀλ over the active rows: each row's nonzeros in its block's columns, in row order
   * (from the slab where they are there); with every row active, a large system's block by
   * block in WebAssembly (transpose-wasm.ts: each column's terms summed in a register, in the
   * same order, a zero λ skipped alike: the same sums).
   */
  addTransposeTimes(r: Float64Array, lambda: Float64Array): void {
    if (this.transpose && this.activeCount === this.count) this.transpose.addTransposeTimes(r, lambda);
    else this.addTransposeTimesByRows(r, lambda);
  }

  /** addTransposeTimes row by row, each term into r. */
  private addTransposeTimesByRows(r: Float64Array, lambda: Float64Array): void {
    const n = this.n, J = this.J, slab = this.slab, active = this.active, start = this.rowColumnStart, columns = this.rowColumnIndex, fromSlab = this.rowSlabIndex, ma = this.activeCount;
    for (let k = 0; k < ma; k++) {
      const row = active[k], lam = lambda[row];
      if (lam === 0) continue;
      const base = row * n;
      for (let e = start[row], end = start[row + 1]; e < end; e++) {
        const c = columns[e], x = fromSlab[e];
        r[c] += (x >= 0 ? slab[x] : J[base + c]) * lam;
      }
    }
  }

  /**
   * The active rows' entries, in forEachActiveEntry's order: entry q into out[lower[q]] and
   * out[upper[q]] (a large iteration matrix's compact list and its transpose, pattern.ts).
   * The values `scatter` would have written, from the slab (`0 +`, as scatter's) or from J
   * where a block's columns repeat (which `evaluate` writes either way): J itself unwritten.
   */
  writeActiveEntries(out: Float64Array, lower: Int32Array, upper: Int32Array): void {
    const n = this.n, J = this.J, slab = this.slab, active = this.active, start = this.rowColumnStart, columns = this.rowColumnIndex, fromSlab = this.rowSlabIndex;
    if (this.allFromSlab && this.activeCount === this.count) {
      // every row active (active[k] = k, so q = e) and every entry in the slab (the car): one flat loop
      for (let e = 0, end = start[this.count]; e < end; e++) {
        const value = 0 + slab[fromSlab[e]];
        out[lower[e]] = value;
        out[upper[e]] = value;
      }
      return;
    }
    for (let k = 0, q = 0; k < this.activeCount; k++) {
      const row = active[k], base = row * n;
      for (let e = start[row], end = start[row + 1]; e < end; e++, q++) {
        const x = fromSlab[e];
        const value = x >= 0 ? 0 + slab[x] : J[base + columns[e]];
        out[lower[q]] = value;
        out[upper[q]] = value;
      }
    }
  }

  /** Each active row's nonzero columns: fn(its place among the active rows, the row, the column). */
  forEachActiveEntry(fn: (k: number, row: number, column: number) => void): void {
    const start = this.rowColumnStart, columns = this.rowColumnIndex;
    for (let k = 0; k < this.activeCount; k++) {
      const row = this.active[k];
      for (let e = start[row]; e < start[row + 1]; e++) fn(k, row, columns[e]);
    }
  }

  /**
   * The active rows of J into the bordering blocks of the N × N matrix S (rows and columns n ..),
   * whose entries there are zero. From the blocks' own storage when J is not scattered (a small
   * system's matrix, rebuilt every step: the scatter and the dense rows' zeros are a tenth of
   * its assembly): each row's nonzero columns, the values `scatter` would have written.
   */
  addToMatrix(S: Float64Array, N: number): void {
    const n = this.n;
    if (!this.denseCurrent) { this.addRowsFromBlocks(S, N); return; }
    for (let k = 0; k < this.activeCount; k++) {
      const row = this.active[k] * n;
      for (let c = 0; c < n; c++) {
        const x = this.J[row + c];
        S[(n + k) * N + c] = x;
        S[c * N + n + k] = x;
      }
    }
  }

  /** addToMatrix from the slab (J where a block's columns repeat): `0 +` as scatter's, so a −0 is written +0. */
  private addRowsFromBlocks(S: Float64Array, N: number): void {
    const n = this.n, J = this.J, slab = this.slab, active = this.active, start = this.rowColumnStart, columns = this.rowColumnIndex, fromSlab = this.rowSlabIndex;
    for (let k = 0; k < this.activeCount; k++) {
      const row = active[k], base = row * n, lower = (n + k) * N, upper = n + k;
      for (let e = start[row], end = start[row + 1]; e < end; e++) {
        const c = columns[e], x = fromSlab[e];
        const value = x >= 0 ? 0 + slab[x] : J[base + c];
        S[lower + c] = value;
        S[c * N + upper] = value;
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
