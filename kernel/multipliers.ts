/**
 * What the constraints carry at a solved state, on the factorisation of analysis.ts
 * (`factorConstraints`): the multipliers λ of Φ_qᵀ λ = Q (statics: the reactions of the
 * applied loads), and the admissible motions, a basis of the constraints' null space with
 * the drivers held (the reduced coordinates of mechanics/reduced.ts).
 */
import { PivotedQR, choleskySolve } from './linalg';
import type { System } from './system';
import { factorConstraints, type TangentWorkspace } from './analysis';

// ---- Constraint multipliers (statics): Φ_qᵀ λ = Q on analysis.ts's factorisation ----

export interface Multipliers {
  /** λ of every assembled constraint row, in row order (a length row's λ is a force). */
  lambda: Float64Array;
  /** Block index and row within it of each assembled row. */
  rowBlock: Int32Array;
  rowInBlock: Int32Array;
  /** Rows whose λ the null space of Φ_qᵀ can change (redundant constraints): 1, else 0. */
  indeterminate: Uint8Array;
  /** A basis of that null space in λ (one row-length vector per redundant row, stacked): adding any combination leaves Φ_qᵀλ unchanged. */
  nullLambda: Float64Array[];
  /** Enabled driver blocks (holds and drivers) of one row, and their λ. */
  driverBlocks: number[];
  driverLambda: Float64Array;
  /** The part of Q no constraint or driver balances, in tangent coordinates (size): the unbalanced free motion. */
  unbalanced: Float64Array;
  /** Global tangent slot of each variable (−1 fixed) and the tangent size. */
  layout: Int32Array;
  size: number;
}

/**
 * Lagrange multipliers of the hard rows at a solved state: Φ_qᵀ λ = Q (Q a generalized
 * force in tangent coordinates, as kernel/forces.ts assembles it), the permanent
 * constraints and the one-row drivers (holds) together. Reuses the cached QR of the
 * constraint Jacobian (the one freedom and tangentSpace use): the null space Z takes the
 * drivers (Zᵀ G_dᵀ λ_d = Zᵀ Q, least squares), what is left of Q in Z is `unbalanced`, and
 * the constraint rows get the minimum-norm λ (row-normalised), with `indeterminate`
 * marking the rows a redundant set leaves open. No second factorisation of Φ_q.
 */
export function constraintMultipliers(system: System, Q: ArrayLike<number>): Multipliers {
  const ws = factorConstraints(system);
  // a state's loads are often asked for twice (its reactions, then its rates): same
  // factorisation and the same Q give the same multipliers
  const last = lastMultipliers.get(ws);
  if (last && last.generation === ws.generation && sameValues(last.Q, Q)) return last.result;
  const result = computeMultipliers(system, ws, Q);
  lastMultipliers.set(ws, { generation: ws.generation, Q: Float64Array.from(Q as ArrayLike<number>), result });
  return result;
}

/** The last multipliers of each factorisation, with the Q they balance (callers only read a result). */
const lastMultipliers = new WeakMap<TangentWorkspace, { generation: number; Q: Float64Array; result: Multipliers }>();

function sameValues(a: Float64Array, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  // bit for bit: equal and the same sign of zero (NaN never matches: no reuse then)
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || (a[i] === 0 && 1 / a[i] !== 1 / b[i])) return false;
  return true;
}

function computeMultipliers(system: System, ws: TangentWorkspace, Q: ArrayLike<number>): Multipliers {
  const n = ws.group.n, rank = ws.rank, qr = ws.qr;
  const m = ws.rowOwners.length;
  // row → block bookkeeping
  const rowBlock = new Int32Array(m), rowInBlock = new Int32Array(m);
  let row = 0;
  for (const b of ws.group.blocks) for (let r = 0; r < system.block(b).rows; r++) { rowBlock[row] = b; rowInBlock[row] = r; row++; }
  // b = D Q in scaled columns (a turn's column is per length scale, a scalar's per its scale)
  const colScale = columnScales(system, ws);
  const b = new Float64Array(n);
  for (let j = 0; j < n; j++) b[j] = Q[j] * colScale[j];
  const { blocks: driverBlocks, G } = driverRows(system, ws, colScale);
  const nd = driverBlocks.length;
  // null-space components: z = Zᵀ b (k), A2 = Zᵀ Gᵀ (k × nd, column-major for the QR)
  const k = n - rank, Z = ws.Z;
  const z = new Float64Array(k), A2 = new Float64Array(k * nd);
  for (let a = 0; a < k; a++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Z[a * n + j] * b[j];
    z[a] = s;
    for (let d = 0; d < nd; d++) {
      let t = 0;
      for (let j = 0; j < n; j++) t += Z[a * n + j] * G[d * n + j];
      A2[d * k + a] = t;
    }
  }
  const driverLambda = new Float64Array(nd);
  if (k > 0 && nd > 0) {
    const dq = new PivotedQR(k, nd);
    const r2 = dq.factor(A2, k, nd, 1e-10);
    const rhs = z.slice();
    dq.applyQt(rhs);
    const x = new Float64Array(nd);
    dq.solveR(x, rhs);
    for (let i = 0; i < r2; i++) driverLambda[dq.perm[i]] = x[i];
  }
  // what the drivers leave in the null space is unbalanced
  const bc = b.slice();
  for (let d = 0; d < nd; d++) for (let j = 0; j < n; j++) bc[j] -= G[d * n + j] * driverLambda[d];
  const unbalancedScaled = new Float64Array(n);
  for (let a = 0; a < k; a++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Z[a * n + j] * bc[j];
    for (let j = 0; j < n; j++) unbalancedScaled[j] += s * Z[a * n + j];
  }
  const unbalanced = new Float64Array(n);
  for (let j = 0; j < n; j++) unbalanced[j] = unbalancedScaled[j] / colScale[j];
  // constraint rows: R y = (Qᵀ bc)[0..rank), y = Pᵀ μ, minimum norm over the redundant columns
  const lambda = new Float64Array(m), indeterminate = new Uint8Array(m);
  const nullLambda: Float64Array[] = [];
  if (rank > 0) {
    const c = bc.slice();
    qr.applyQt(c);
    const yB = new Float64Array(rank);
    qr.solveR(yB, c);
    const extra = m - rank;
    const y = new Float64Array(m);
    if (extra > 0) {
      // X = R11⁻¹ R12 (rank × extra), column by column
      const X = new Float64Array(rank * extra), col = new Float64Array(rank), xcol = new Float64Array(rank);
      for (let j = 0; j < extra; j++) {
        for (let i = 0; i < rank; i++) col[i] = qr.r(i, rank + j);
        qr.solveR(xcol, col);
        for (let i = 0; i < rank; i++) X[i * extra + j] = xcol[i];
      }
      // z = (XᵀX + I)⁻¹ (−Xᵀ y_B); y = [y_B + X z; −z]
      const A = new Float64Array(extra * extra), zz = new Float64Array(extra);
      for (let p = 0; p < extra; p++) {
        for (let q = 0; q < extra; q++) {
          let s = p === q ? 1 : 0;
          for (let i = 0; i < rank; i++) s += X[i * extra + p] * X[i * extra + q];
          A[p * extra + q] = s;
        }
        let t = 0;
        for (let i = 0; i < rank; i++) t -= X[i * extra + p] * yB[i];
        zz[p] = t;
      }
      choleskySolve(A, zz, extra);
      let xmax = 0;
      for (let i = 0; i < X.length; i++) xmax = Math.max(xmax, Math.abs(X[i]));
      for (let i = 0; i < rank; i++) {
        let s = yB[i];
        let open = false;
        for (let j = 0; j < extra; j++) { s += X[i * extra + j] * zz[j]; if (Math.abs(X[i * extra + j]) > 1e-9 * Math.max(1, xmax)) open = true; }
        y[i] = s;
        if (open) indeterminate[qr.perm[i]] = 1;
      }
      for (let j = 0; j < extra; j++) { y[rank + j] = -zz[j]; indeterminate[qr.perm[rank + j]] = 1; }
      // null vectors of R: [−X e_j; e_j] in pivoted μ, as λ in row order
      for (let j = 0; j < extra; j++) {
        const v = new Float64Array(m);
        for (let i = 0; i < rank; i++) { const orig = qr.perm[i]; v[orig] = ws.rowNorms[orig] > 0 ? -X[i * extra + j] / ws.rowNorms[orig] : 0; }
        const orig = qr.perm[rank + j];
        v[orig] = ws.rowNorms[orig] > 0 ? 1 / ws.rowNorms[orig] : 0;
        nullLambda.push(v);
      }
    } else {
      for (let i = 0; i < rank; i++) y[i] = yB[i];
    }
    // μ = P y, λ = μ / ‖row‖ (the QR saw row-normalised rows)
    for (let i = 0; i < m; i++) {
      const orig = qr.perm[i];
      const norm = ws.rowNorms[orig];
      lambda[orig] = norm > 0 ? y[i] / norm : 0;
    }
  }
  return { lambda, rowBlock, rowInBlock, indeterminate, nullLambda, driverBlocks, driverLambda, unbalanced, layout: ws.layout, size: ws.size };
}

/** Scaled column per unscaled tangent slot: 1/L for a turn, 1 for a shift, 1/scale for a scalar. */
function columnScales(system: System, ws: TangentWorkspace): Float64Array {
  const L = system.lengthScale, colScale = new Float64Array(ws.group.n);
  for (const v of system.variables) {
    const c0 = ws.colOfVar[v.id];
    if (c0 < 0) continue;
    if (v.kind === 'pose') { colScale[c0] = colScale[c0 + 1] = colScale[c0 + 2] = 1 / L; colScale[c0 + 3] = colScale[c0 + 4] = colScale[c0 + 5] = 1; }
    else colScale[c0] = 1 / v.scale;
  }
  return colScale;
}

/** The enabled one-row driver blocks (holds) and their rows in scaled columns (nd × n). */
function driverRows(system: System, ws: TangentWorkspace, colScale: Float64Array): { blocks: number[]; G: Float64Array } {
  const n = ws.group.n;
  const blocks: number[] = [];
  for (let i = 0; i < system.blockCount; i++) {
    const blk = system.block(i);
    if (system.blockEnabled(i) && blk.kind === 'driver' && blk.rows === 1 && blk.vars.some((v) => !system.variables[v].fixed)) blocks.push(i);
  }
  const G = new Float64Array(blocks.length * n);
  blocks.forEach((i, d) => {
    const blk = system.block(i);
    const local = new Float64Array(system.blockLocalDim(i)), res = new Float64Array(1);
    system.evaluateBlock(i, res, local);
    let lc = 0;
    for (const vid of blk.vars) {
      const v = system.variables[vid], c0 = ws.colOfVar[vid];
      if (c0 >= 0) for (let k = 0; k < v.dim; k++) G[d * n + c0 + k] += local[lc + k] * colScale[c0 + k];
      lc += v.dim;
    }
  });
  return { blocks, G };
}

/**
 * A basis of the motions the constraints and the drivers (holds) allow at the current
 * state: `count` columns of `size` unscaled tangent entries (column-major), orthonormal in
 * scaled columns. From the cached null space Z of the constraints and a small QR of
 * (drivers · Z): no second factorisation of the Jacobian. Kept per factorisation: callers
 * read the result, never write it.
 */
export function admissibleMotions(system: System): Motions {
  const ws = factorConstraints(system);
  // asked again at one state (a load case's rates after its reactions, each load step's
  // reduction): the same factorisation gives the same motions (the holds' rows are read at
  // the state the generation stamps; enabling one changes the structure, so the workspace)
  const last = lastMotions.get(ws);
  if (last && last.generation === ws.generation) return last.result;
  const result = computeMotions(system, ws);
  lastMotions.set(ws, { generation: ws.generation, result });
  return result;
}

/** A basis of the admissible motions: shared by every caller at one factorisation, so read only. */
export interface Motions { basis: Float64Array; count: number; size: number; layout: Int32Array }

const lastMotions = new WeakMap<TangentWorkspace, { generation: number; result: Motions }>();

function computeMotions(system: System, ws: TangentWorkspace): Motions {
  const n = ws.group.n, k = n - ws.rank, Z = ws.Z;
  const colScale = columnScales(system, ws);
  const { blocks, G } = driverRows(system, ws, colScale);
  const nd = blocks.length;
  let W: Float64Array, k2: number;
  if (nd === 0 || k === 0) { k2 = k; W = new Float64Array(k * k); for (let i = 0; i < k; i++) W[i * k + i] = 1; }
  else {
    // B = G Z (nd × k, row-major) is Bᵀ column-major: its QR's complement is the null space of B
    const B = new Float64Array(nd * k);
    for (let d = 0; d < nd; d++) for (let a = 0; a < k; a++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += G[d * n + j] * Z[a * n + j];
      B[d * k + a] = s;
    }
    const qr = new PivotedQR(k, nd);
    const r = qr.factor(B, k, nd, 1e-10);
    k2 = k - r;
    W = r > 0 ? qr.nullSpace() : (() => { const w = new Float64Array(k * k); for (let i = 0; i < k; i++) w[i * k + i] = 1; return w; })();
  }
  const basis = new Float64Array(n * k2);
  for (let c = 0; c < k2; c++) for (let a = 0; a < k; a++) {
    const w = W[c * k + a];
    if (w === 0) continue;
    for (let j = 0; j < n; j++) basis[c * n + j] += Z[a * n + j] * w;
  }
  // δ = D u: a scaled step back to tangent units (turns ÷ L, scalars ÷ scale)
  for (let c = 0; c < k2; c++) for (let j = 0; j < n; j++) basis[c * n + j] *= colScale[j];
  return { basis, count: k2, size: n, layout: ws.layout };
}
