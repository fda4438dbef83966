/**
 * The constraints and the one-row holds (drivers) factored together at a state: a pivoted
 * QR of their stacked Jacobian (row-normalised, scaled columns) gives the admissible motions
 * — a basis of its null space, orthonormal in scaled columns — and the multipliers of any
 * generalized force. The rows split into parts no row joins (a held rack and the wheel it
 * steers through a compliant track rod): each part is factored on its own, so a motion is an
 * exact zero off its part's coordinates (one QR of everything left round-off there, which
 * every product with the basis then carried) and the factorisations are smaller. kernel/multipliers.ts reaches the same two through the constraints' own
 * null space first (the factorisation that freedom and tangentSpace share), then a QR of the
 * holds on it; a Newton on the manifold that asks both at every iterate (the compliant
 * settle, src/suspension/compliance/tangent.ts) takes this shorter route. Where the rows are
 * dependent (a redundant mate, a hold the constraints already fix) it declines, and the
 * caller takes kernel/multipliers.ts, whose multipliers say which rows are indeterminate.
 * The workspace is kept and reused; each call's outputs are fresh arrays.
 */
import { InternalError } from './errors';
import { PivotedQR } from './linalg';
import { zeroedFloats } from './float-slab';
import type { System } from './system';
import { RANK_TOLERANCE, assembleGroup, type Group } from './solver/groups';

/** Admissible motions: `count` columns of `size` unscaled tangent entries (column-major), orthonormal in scaled columns. */
export interface HeldMotions {
  basis: Float64Array;
  count: number;
  size: number;
  layout: Int32Array;
}

/** The multipliers of the constraint rows (in row order, with their block and row) and of the holds. */
export interface HeldMultipliers {
  lambda: Float64Array;
  rowBlock: Int32Array;
  rowInBlock: Int32Array;
  driverBlocks: number[];
  driverLambda: Float64Array;
}

/** One connected set of the rows and the coordinates they reach, factored on its own. */
interface Part {
  group: Group;
  /** Column of each variable in this part (−1: another part's, or fixed). */
  colOfVar: Int32Array;
  /** Tangent slot of each of the part's columns, and its scale (1/L for a turn, 1 for a shift, 1/scale for a scalar). */
  slot: Int32Array;
  colScale: Float64Array;
  rows: number;
  /** Index of each of the part's rows in the whole list (the constraints first, then the holds). */
  rowOf: Int32Array;
  J: Float64Array;
  c: Float64Array;
  local: Float64Array;
  localRes: Float64Array;
  rowNorms: Float64Array;
  qr: PivotedQR;
  b: Float64Array;
  y: Float64Array;
  z: Float64Array;
}

interface Layout {
  version: number;
  /** Tangent size and slot of each variable. */
  n: number;
  colOfVar: Int32Array;
  /** Rows of the constraints (first) and of the holds. */
  constraintRows: number;
  rows: number;
  rowBlock: Int32Array;
  rowInBlock: Int32Array;
  driverBlocks: number[];
  parts: Part[];
}

export class HeldFactor {
  private layout: Layout | null = null;
  /** Whether the last `factor` succeeded (full row rank). */
  private ready = false;

  constructor(private readonly system: System) {}

  /**
   * Factor at the current state, each connected set of rows on its own (a held rack's rows
   * and the wheel's: their motions are exact zeros off their own coordinates). False where
   * the rows are dependent (rank below their count): nothing of this factorisation may be
   * used then.
   */
  factor(): boolean {
    const L = this.sized();
    let ok = L.rows > 0 && L.n > 0;
    for (const part of L.parts) {
      if (part.rows === 0) continue;
      const m = assembleGroup(this.system, part.group, part.colOfVar, [], part.c, part.J, part.local, part.localRes);
      const n = part.group.n, J = part.J;
      for (let i = 0; i < m; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += J[i * n + j] * J[i * n + j];
        part.rowNorms[i] = Math.sqrt(s);
        if (s > 0) { const k = 1 / Math.sqrt(s); for (let j = 0; j < n; j++) J[i * n + j] *= k; }
      }
      if (part.qr.factor(J, n, m, RANK_TOLERANCE) !== m) ok = false;
    }
    this.ready = ok;
    return ok;
  }

  /** The admissible motions at the factored state: each part's null space, in part order, zero off its coordinates. */
  motions(): HeldMotions {
    const L = this.factored(), n = L.n, k = n - L.rows;
    // a slab view (float-slab.ts): a Newton on the manifold asks for a basis at every iterate
    const basis = zeroedFloats(n * k);
    let col = 0;
    for (const part of L.parts) {
      const np = part.group.n, kp = np - part.rows;
      if (kp === 0) continue;
      const z = part.rows > 0 ? part.qr.nullSpace(part.z) : identity(part.z, np);
      // δ = D u: a scaled step back to tangent units (turns ÷ L, scalars ÷ scale)
      for (let c = 0; c < kp; c++, col++) for (let j = 0; j < np; j++) basis[col * n + part.slot[j]] = z[c * np + j] * part.colScale[j];
    }
    return { basis, count: k, size: n, layout: L.colOfVar };
  }

  /**
   * The multipliers of Φ_qᵀ λ + G_dᵀ λ_d = Q at the factored state (Q a generalized force
   * in tangent coordinates), least squares in scaled columns: the same λ as
   * kernel/multipliers.ts where the rows are independent.
   */
  multipliers(Q: ArrayLike<number>): HeldMultipliers {
    const L = this.factored();
    const lambda = zeroedFloats(L.constraintRows), driverLambda = zeroedFloats(L.rows - L.constraintRows);
    for (const part of L.parts) {
      if (part.rows === 0) continue;
      const n = part.group.n, qr = part.qr, b = part.b, y = part.y;
      for (let j = 0; j < n; j++) b[j] = Q[part.slot[j]] * part.colScale[j];
      qr.applyQt(b);
      qr.solveR(y, b);
      // μ = P y, λ = μ / ‖row‖ (the QR saw row-normalised rows)
      for (let i = 0; i < part.rows; i++) {
        const row = qr.perm[i], norm = part.rowNorms[row], value = norm > 0 ? y[i] / norm : 0, r = part.rowOf[row];
        if (r < L.constraintRows) lambda[r] = value;
        else driverLambda[r - L.constraintRows] = value;
      }
    }
    return { lambda, rowBlock: L.rowBlock, rowInBlock: L.rowInBlock, driverBlocks: L.driverBlocks, driverLambda };
  }

  private factored(): Layout {
    if (!this.ready || !this.layout || this.layout.version !== this.system.version) throw new InternalError('HeldFactor: read before a factorisation of full rank at this structure');
    return this.layout;
  }

  /** The rows and columns for the system's current structure (rebuilt when it changes). */
  private sized(): Layout {
    const system = this.system;
    if (this.layout && this.layout.version === system.version) return this.layout;
    const colOfVar = new Int32Array(system.variables.length).fill(-1);
    let n = 0;
    for (const v of system.variables) if (!v.fixed) { colOfVar[v.id] = n; n += v.dim; }
    // the constraints' rows as analysis.ts assembles them, then the enabled one-row holds as multipliers.ts's
    const constraints: number[] = [], driverBlocks: number[] = [];
    for (let b = 0; b < system.blockCount; b++) {
      const blk = system.block(b);
      if (!system.blockEnabled(b) || !blk.vars.some((v) => !system.variables[v].fixed)) continue;
      if (blk.kind === 'constraint') constraints.push(b);
      else if (blk.kind === 'driver' && blk.rows === 1) driverBlocks.push(b);
    }
    const blocks = [...constraints, ...driverBlocks];
    const rowBlock: number[] = [], rowInBlock: number[] = [], firstRow: number[] = [];
    let constraintRows = 0;
    for (const b of blocks) {
      const blk = system.block(b);
      firstRow.push(rowBlock.length);
      for (let r = 0; r < blk.rows; r++) { rowBlock.push(b); rowInBlock.push(r); }
      if (blk.kind === 'constraint') constraintRows += blk.rows;
    }
    const parts = connectedParts(system, blocks).map((p) => this.part(p.vars, p.blocks.map((i) => blocks[i]), p.blocks.map((i) => firstRow[i]), colOfVar));
    this.layout = {
      version: system.version, n, colOfVar, constraintRows, rows: rowBlock.length,
      rowBlock: Int32Array.from(rowBlock.slice(0, constraintRows)), rowInBlock: Int32Array.from(rowInBlock.slice(0, constraintRows)), driverBlocks, parts,
    };
    this.ready = false;
    return this.layout;
  }

  /** A part's columns (its variables in order), rows (its blocks in order) and workspace. */
  private part(vars: number[], blocks: number[], firstRows: number[], slotOfVar: Int32Array): Part {
    const system = this.system, L = system.lengthScale;
    const colOfVar = new Int32Array(system.variables.length).fill(-1), cols: number[] = [], slot: number[] = [], scale: number[] = [];
    let n = 0;
    for (const id of vars) {
      const v = system.variables[id];
      colOfVar[id] = n; cols.push(n);
      for (let i = 0; i < v.dim; i++) { slot.push(slotOfVar[id] + i); scale.push(v.kind === 'pose' ? (i < 3 ? 1 / L : 1) : 1 / v.scale); }
      n += v.dim;
    }
    let rows = 0, maxLocal = 0;
    const rowOf: number[] = [];
    blocks.forEach((b, i) => {
      const blk = system.block(b);
      for (let r = 0; r < blk.rows; r++) rowOf.push(firstRows[i] + r);
      rows += blk.rows;
      maxLocal = Math.max(maxLocal, system.blockLocalDim(b) * blk.rows);
    });
    const group: Group = { vars, cols, n, blocks, limited: [], rowsMax: rows, maxLocalDim: maxLocal, ws: null };
    return {
      group, colOfVar, slot: Int32Array.from(slot), colScale: Float64Array.from(scale), rows, rowOf: Int32Array.from(rowOf),
      J: new Float64Array(Math.max(1, rows * n)), c: new Float64Array(Math.max(1, rows)),
      local: new Float64Array(Math.max(1, maxLocal)), localRes: new Float64Array(Math.max(1, rows)),
      rowNorms: new Float64Array(Math.max(1, rows)), qr: new PivotedQR(n, rows),
      b: new Float64Array(Math.max(1, n)), y: new Float64Array(Math.max(1, rows)), z: new Float64Array(Math.max(1, n * (n - rows))),
    };
  }
}

/**
 * The free variables split by the rows that join them (union–find over the blocks): each
 * part's variables ascending and its blocks (indices into `blocks`) in order; parts by their
 * first variable. A variable no row reaches is a part of its own.
 */
function connectedParts(system: System, blocks: readonly number[]): { vars: number[]; blocks: number[] }[] {
  const parent = system.variables.map((v) => v.id);
  const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
  for (const b of blocks) {
    let first = -1;
    for (const v of system.block(b).vars) {
      if (system.variables[v].fixed) continue;
      if (first < 0) first = find(v);
      else { const r = find(v); if (r !== first) parent[Math.max(r, first)] = Math.min(r, first); first = Math.min(r, first); }
    }
  }
  const byRoot = new Map<number, { vars: number[]; blocks: number[] }>();
  for (const v of system.variables) {
    if (v.fixed) continue;
    const root = find(v.id);
    let p = byRoot.get(root);
    if (!p) byRoot.set(root, (p = { vars: [], blocks: [] }));
    p.vars.push(v.id);
  }
  blocks.forEach((b, i) => {
    const v = system.block(b).vars.find((x) => !system.variables[x].fixed)!;
    byRoot.get(find(v))!.blocks.push(i);
  });
  return [...byRoot.values()];
}

/** The n × n identity, column-major, into out. */
function identity(out: Float64Array, n: number): Float64Array {
  out.fill(0, 0, n * n);
  for (let j = 0; j < n; j++) out[j * n + j] = 1;
  return out;
}
