/**
 * The constraints and the one-row holds (drivers) factored together at a state: one pivoted
 * QR of their stacked Jacobian (row-normalised, scaled columns) gives the admissible motions
 * — a basis of its null space, orthonormal in scaled columns — and the multipliers of any
 * generalized force. kernel/multipliers.ts reaches the same two through the constraints' own
 * null space first (the factorisation that freedom and tangentSpace share), then a QR of the
 * holds on it; a Newton on the manifold that asks both at every iterate (the compliant
 * settle, src/suspension/compliance/tangent.ts) takes this shorter route. Where the rows are
 * dependent (a redundant mate, a hold the constraints already fix) it declines, and the
 * caller takes kernel/multipliers.ts, whose multipliers say which rows are indeterminate.
 * The workspace is kept and reused; each call's outputs are fresh arrays.
 */
import { InternalError } from './errors';
import { PivotedQR } from './linalg';
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

interface Layout {
  version: number;
  group: Group;
  colOfVar: Int32Array;
  /** Scaled column per unscaled tangent slot: 1/L for a turn, 1 for a shift, 1/scale for a scalar. */
  colScale: Float64Array;
  /** Rows of the constraints (first) and of the holds. */
  constraintRows: number;
  rows: number;
  rowBlock: Int32Array;
  rowInBlock: Int32Array;
  driverBlocks: number[];
  J: Float64Array;
  c: Float64Array;
  local: Float64Array;
  localRes: Float64Array;
  rowNorms: Float64Array;
  qr: PivotedQR;
  b: Float64Array;
  y: Float64Array;
}

export class HeldFactor {
  private layout: Layout | null = null;
  /** Whether the last `factor` succeeded (full row rank). */
  private ready = false;

  constructor(private readonly system: System) {}

  /**
   * Factor at the current state. False where the rows are dependent (rank below their count):
   * nothing of this factorisation may be used then.
   */
  factor(): boolean {
    const L = this.sized();
    const m = assembleGroup(this.system, L.group, L.colOfVar, [], L.c, L.J, L.local, L.localRes);
    const n = L.group.n, J = L.J;
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += J[i * n + j] * J[i * n + j];
      L.rowNorms[i] = Math.sqrt(s);
      if (s > 0) { const k = 1 / Math.sqrt(s); for (let j = 0; j < n; j++) J[i * n + j] *= k; }
    }
    this.ready = m > 0 && n > 0 && L.qr.factor(J, n, m, RANK_TOLERANCE) === m;
    return this.ready;
  }

  /** The admissible motions at the factored state. */
  motions(): HeldMotions {
    const L = this.factored(), n = L.group.n, k = n - L.rows;
    const basis = L.qr.nullSpace(new Float64Array(n * k));
    const s = L.colScale;
    // δ = D u: a scaled step back to tangent units (turns ÷ L, scalars ÷ scale)
    for (let c = 0; c < k; c++) for (let j = 0; j < n; j++) basis[c * n + j] *= s[j];
    return { basis, count: k, size: n, layout: L.colOfVar };
  }

  /**
   * The multipliers of Φ_qᵀ λ + G_dᵀ λ_d = Q at the factored state (Q a generalized force
   * in tangent coordinates), least squares in scaled columns: the same λ as
   * kernel/multipliers.ts where the rows are independent.
   */
  multipliers(Q: ArrayLike<number>): HeldMultipliers {
    const L = this.factored(), n = L.group.n, m = L.rows, qr = L.qr, b = L.b, y = L.y;
    for (let j = 0; j < n; j++) b[j] = Q[j] * L.colScale[j];
    qr.applyQt(b);
    qr.solveR(y, b);
    const lambda = new Float64Array(L.constraintRows), driverLambda = new Float64Array(m - L.constraintRows);
    // μ = P y, λ = μ / ‖row‖ (the QR saw row-normalised rows)
    for (let i = 0; i < m; i++) {
      const row = qr.perm[i], norm = L.rowNorms[row], value = norm > 0 ? y[i] / norm : 0;
      if (row < L.constraintRows) lambda[row] = value;
      else driverLambda[row - L.constraintRows] = value;
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
    const vars: number[] = [], cols: number[] = [];
    const colOfVar = new Int32Array(system.variables.length).fill(-1);
    let n = 0;
    for (const v of system.variables) if (!v.fixed) { vars.push(v.id); cols.push(n); colOfVar[v.id] = n; n += v.dim; }
    const L = system.lengthScale, colScale = new Float64Array(n);
    for (const v of system.variables) {
      const c0 = colOfVar[v.id];
      if (c0 < 0) continue;
      if (v.kind === 'pose') { colScale.fill(1 / L, c0, c0 + 3); colScale.fill(1, c0 + 3, c0 + 6); } else colScale[c0] = 1 / v.scale;
    }
    // the constraints' rows as analysis.ts assembles them, then the enabled one-row holds as multipliers.ts's
    const constraints: number[] = [], driverBlocks: number[] = [];
    for (let b = 0; b < system.blockCount; b++) {
      const blk = system.block(b);
      if (!system.blockEnabled(b) || !blk.vars.some((v) => !system.variables[v].fixed)) continue;
      if (blk.kind === 'constraint') constraints.push(b);
      else if (blk.kind === 'driver' && blk.rows === 1) driverBlocks.push(b);
    }
    const blocks = [...constraints, ...driverBlocks];
    let rows = 0, constraintRows = 0, maxLocal = 0;
    const rowBlock: number[] = [], rowInBlock: number[] = [];
    for (const b of blocks) {
      const blk = system.block(b);
      for (let r = 0; r < blk.rows; r++) { rowBlock.push(b); rowInBlock.push(r); }
      rows += blk.rows;
      if (blk.kind === 'constraint') constraintRows += blk.rows;
      maxLocal = Math.max(maxLocal, system.blockLocalDim(b) * blk.rows);
    }
    const group: Group = { vars, cols, n, blocks, limited: [], rowsMax: rows, maxLocalDim: maxLocal, ws: null };
    this.layout = {
      version: system.version, group, colOfVar, colScale, constraintRows, rows,
      rowBlock: Int32Array.from(rowBlock.slice(0, constraintRows)), rowInBlock: Int32Array.from(rowInBlock.slice(0, constraintRows)), driverBlocks,
      J: new Float64Array(Math.max(1, rows * n)), c: new Float64Array(Math.max(1, rows)),
      local: new Float64Array(Math.max(1, maxLocal)), localRes: new Float64Array(Math.max(1, rows)),
      rowNorms: new Float64Array(Math.max(1, rows)), qr: new PivotedQR(n, rows),
      b: new Float64Array(Math.max(1, n)), y: new Float64Array(Math.max(1, rows)),
    };
    this.ready = false;
    return this.layout;
  }
}
