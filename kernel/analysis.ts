/**
 * Analyses at a solved state: numerical rank, degrees of freedom (total and per variable),
 * redundant rows, a minimal conflicting set, and the tangent space with target rates.
 *
 * Rank is decided on the row-normalised Jacobian in scaled columns (every row a unit
 * vector, every column a length per length), by a pivoted QR of Jᵀ with relative pivot
 * tolerance RANK_TOLERANCE: scale-free and explicit. Never an SVD of a wide matrix
 * (MATH.md): the null space comes from the Q of Jᵀ's QR.
 */
import { PivotedQR, choleskySolve } from './linalg';
import { toMatrix } from './quat';
import { TARGET_RANK_TOLERANCE, projectTargets, sparseTangent } from './tangent-sparse';

const rateR = new Float64Array(9);
import { RANK_TOLERANCE, assembleGroup, groupsOf, solve, type Group, type SolveOptions } from './solver/solve';
import type { ResidualBlock, System } from './system';
import { ArgumentError } from './errors';

export interface FreedomReport {
  /** Free unknowns (tangent dimensions of variables that are not fixed). */
  unknowns: number;
  /** Rank of the hard rows considered. */
  rank: number;
  /** unknowns − rank. */
  dof: number;
  /** Freedom of each non-fixed variable by name: the rank of the null space restricted to it. */
  perVariable: Record<string, number>;
  /** Owners having at least one row that depends on earlier rows. */
  redundant: string[];
}

/**
 * Rank, freedom and redundancy of the permanent constraints at the current state (drivers
 * = held coordinates excluded, so the answer is the mechanism's mobility). Shares the
 * cached factorisation of the tangent space: asked at one state, both cost one QR.
 */
export function freedom(system: System): FreedomReport {
  const ws = factorConstraints(system);
  const n = ws.group.n, rank = ws.rank;
  const redundant = new Set<string>();
  const independent = new Set<number>();
  for (let k = 0; k < rank; k++) independent.add(ws.qr.perm[k]);
  // Pivoting keeps the first of equal rows, so later mates get the blame.
  for (let i = 0; i < ws.rowOwners.length; i++) if (!independent.has(i)) redundant.add(ws.rowOwners[i]);
  const perVariable: Record<string, number> = {};
  const k = n - rank;
  for (const v of system.variables) {
    if (v.fixed) continue;
    // rank of the null space restricted to this variable's columns (dim × k, column-major)
    const c0 = ws.colOfVar[v.id], dim = v.dim;
    const sub = new Float64Array(dim * k);
    for (let a = 0; a < k; a++) for (let i = 0; i < dim; i++) sub[a * dim + i] = ws.Z[a * n + c0 + i];
    perVariable[v.name] = k > 0 ? new PivotedQR(dim, k).factor(sub, dim, k, 1e-8) : 0;
  }
  return { unknowns: n, rank, dof: n - rank, perVariable, redundant: [...redundant] };
}

/**
 * A minimal set of owners whose blocks cannot hold together (deletion filter): starting
 * from every owner of the hard rows, drop each in turn and keep it dropped if the rest
 * still fail to solve. Off the drag path: one solve per owner. The state is restored.
 * Returns [] when the system solves.
 */
export function conflictingSet(system: System, options: SolveOptions = {}): string[] {
  const snapshot = system.snapshot();
  const first = solve(system, options);
  system.restore(snapshot);
  if (first.converged) return [];
  // Only owners in groups that failed can matter.
  const structure = groupsOf(system);
  const failedGroups = new Set<number>();
  for (let b = 0; b < system.blockCount; b++) {
    const blk = system.block(b);
    if (!system.blockEnabled(b) || !first.failed.includes(blk.owner)) continue;
    for (const v of blk.vars) if (structure.groupOfVar[v] >= 0) failedGroups.add(structure.groupOfVar[v]);
  }
  const candidates: string[] = [];
  for (let b = 0; b < system.blockCount; b++) {
    const blk = system.block(b);
    if (!system.blockEnabled(b) || blk.kind === 'limit') continue;
    const inFailed = blk.vars.some((v) => failedGroups.has(structure.groupOfVar[v])) || first.failed.includes(blk.owner);
    if (inFailed && !candidates.includes(blk.owner)) candidates.push(blk.owner);
  }
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const owner of candidates) {
    system.setOwnerEnabled(owner, false);
    system.restore(snapshot);
    const r = solve(system, options);
    if (r.converged) {
      system.setOwnerEnabled(owner, true); // needed for the failure
      kept.push(owner);
    } else {
      dropped.push(owner);
    }
  }
  for (const owner of dropped) system.setOwnerEnabled(owner, true);
  system.restore(snapshot);
  return kept;
}

export type TangentStatus = 'unique' | 'not_unique' | 'inconsistent';

export interface TangentSpace {
  /** Dimension of the null space of the permanent constraints (the mechanism's mobility). */
  mobility: number;
  /** Rank of (g_q N): how many independent motions the targets control. */
  targetRank: number;
  status: TangentStatus;
  /** ‖g_i N‖ / ‖g_i‖ per target: near zero means the target barely moves with the mechanism. */
  projectionRatios: number[];
  /**
   * For each target j: the tangent q̇ (unscaled step coordinates: pose (ω, v) per the
   * layout, scalars in their own units per unit of target j's row) with unit rate of
   * target j and zero rate of every other; null when that is impossible (inconsistent).
   * Empty when the status is not_unique.
   */
  rates: (Float64Array | null)[];
  /** Global tangent column of each variable (−1 for fixed ones). */
  layout: Int32Array;
  /** Length of a tangent vector. */
  size: number;
  /** Which factorisation answered: the sparse one where the rank was clear, else the dense QR. */
  route?: 'sparse' | 'dense';
}

export interface TangentOptions {
  /**
   * 'auto' (default): the sparse route above SPARSE_TANGENT_MIN_UNKNOWNS unknowns, the dense
   * QR where it cannot decide or below; 'sparse': try it at any size; 'dense': the QR only.
   */
  route?: 'auto' | 'sparse' | 'dense';
}

/** Above this many unknowns the tangent tries the sparse route first (below, one dense QR is cheaper). */
export const SPARSE_TANGENT_MIN_UNKNOWNS = 40;

/** Workspace of the tangent computation, rebuilt only when the system's structure changes. */
interface TangentWorkspace {
  version: number;
  group: Group;
  colOfVar: Int32Array;
  layout: Int32Array;
  size: number;
  J: Float64Array;
  c: Float64Array;
  local: Float64Array;
  localRes: Float64Array;
  qr: PivotedQR;
  Z: Float64Array;
  targetLocal: Float64Array;
  targetOffsets: Int32Array;
  /** Owner of each assembled row, in row order. */
  rowOwners: string[];
  /** The state the cached null space belongs to. */
  stamp: Float64Array | null;
  rank: number;
  /** Euclidean norm of each assembled row before normalisation (scaled columns). */
  rowNorms: Float64Array;
}
const tangentWorkspaces = new WeakMap<System, TangentWorkspace>();

function tangentWorkspace(system: System): TangentWorkspace {
  const cached = tangentWorkspaces.get(system);
  if (cached && cached.version === system.version) return cached;
  const vars: number[] = [], cols: number[] = [];
  const colOfVar = new Int32Array(system.variables.length).fill(-1);
  let n = 0;
  for (const v of system.variables) if (!v.fixed) { vars.push(v.id); cols.push(n); colOfVar[v.id] = n; n += v.dim; }
  const blocks: number[] = [];
  const rowOwners: string[] = [];
  let rows = 0, maxLocal = 0;
  for (let b = 0; b < system.blockCount; b++) {
    if (!system.blockEnabled(b) || system.block(b).kind !== 'constraint') continue;
    const blk = system.block(b);
    if (!blk.vars.some((v) => !system.variables[v].fixed)) continue;
    blocks.push(b);
    for (let r = 0; r < blk.rows; r++) rowOwners.push(blk.owner);
    rows += blk.rows;
    maxLocal = Math.max(maxLocal, system.blockLocalDim(b) * blk.rows);
  }
  const group: Group = { vars, cols, n, blocks, limited: [], rowsMax: rows, maxLocalDim: maxLocal, ws: null };
  const ws: TangentWorkspace = {
    version: system.version, group, colOfVar, layout: colOfVar, size: n,
    J: new Float64Array(Math.max(1, rows * n)), c: new Float64Array(Math.max(1, rows)),
    local: new Float64Array(Math.max(1, maxLocal)), localRes: new Float64Array(Math.max(1, rows)),
    qr: new PivotedQR(n, rows), Z: new Float64Array(n * n),
    targetLocal: new Float64Array(64), targetOffsets: new Int32Array(8),
    rowOwners, stamp: null, rank: 0, rowNorms: new Float64Array(Math.max(1, rows)),
  };
  tangentWorkspaces.set(system, ws);
  return ws;
}

/**
 * The permanent constraints' Jacobian factored at the current state (row-normalised, scaled
 * columns): rank, pivots and null space. The null space depends only on the state, so
 * everything asked at one state — freedom, derivatives, the steering response — shares one
 * factorisation.
 */
function factorConstraints(system: System): TangentWorkspace {
  const ws = tangentWorkspace(system);
  const { group, n } = { group: ws.group, n: ws.group.n };
  const used = system.snapshotLength;
  let same = ws.stamp !== null && ws.stamp.length === used;
  for (let i = 0; same && i < used; i++) if (ws.stamp![i] !== system.state[i]) same = false;
  if (!same) {
    const m = assembleGroup(system, group, ws.colOfVar, [], ws.c, ws.J, ws.local, ws.localRes);
    // Row-normalise so the rank decision is scale-free.
    const J = ws.J;
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += J[i * n + j] * J[i * n + j];
      ws.rowNorms[i] = Math.sqrt(s);
      if (s > 0) { const k = 1 / Math.sqrt(s); for (let j = 0; j < n; j++) J[i * n + j] *= k; }
    }
    const qr = ws.qr;
    ws.rank = m > 0 && n > 0 ? qr.factor(J, n, m, RANK_TOLERANCE) : 0;
    if (ws.rank > 0) qr.nullSpace(ws.Z);
    else { ws.Z.fill(0); for (let i = 0; i < n; i++) ws.Z[i * n + i] = 1; }
    if (!ws.stamp || ws.stamp.length !== used) ws.stamp = new Float64Array(used);
    for (let i = 0; i < used; i++) ws.stamp[i] = system.state[i];
  }
  return ws;
}

/**
 * The tangent space at the current (solved) state. `targets` are one-row blocks g_i(q)
 * (a driver, a hold, any measured quantity); the permanent constraints are the enabled
 * 'constraint' blocks. Solves (g_q N) α = e_j for each j and returns q̇ = N α, or says
 * why it cannot: not unique (targets do not fix the motion), inconsistent (they conflict).
 * The rate of target j's row is 1 in the row's own units (a length, for a length row).
 * Workspaces are cached per system structure, so a sweep allocates little per state.
 * Large mechanisms first try the sparse route (kernel/tangent-sparse.ts: a Cholesky of
 * J Jᵀ, no dense QR), which answers only where the rank decisions below are clear.
 */
export function tangentSpace(system: System, targets: readonly ResidualBlock[], options: TangentOptions = {}): TangentSpace {
  const tw = tangentWorkspace(system);
  const n = tw.group.n;
  const nt = targets.length;
  const G = targetGradients(system, tw, targets);
  const route = options.route ?? 'auto';
  if (route === 'sparse' || (route === 'auto' && n > SPARSE_TANGENT_MIN_UNKNOWNS)) {
    const fast = sparseTangent(system, tw.group, tw.colOfVar, G, nt);
    if (fast) {
      for (const qdot of fast.rates) unscaleRates(system, tw.layout, qdot);
      return { mobility: nt, targetRank: nt, status: 'unique', projectionRatios: fast.projectionRatios, rates: fast.rates, layout: tw.layout, size: tw.size, route: 'sparse' };
    }
  }
  const ws = factorConstraints(system);
  const rank = ws.rank;
  const k = n - rank;
  const Z = ws.Z;
  // M = G Z (nt × k), stored column-major for the QR: M[a*nt + t]
  const M = new Float64Array(nt * k);
  const projectionRatios = projectTargets(G, nt, Z, k, n, M, 1, nt);
  const layout = ws.layout, size = ws.size;
  // Pivoted QR of M (nt × k): rank says whether the targets fix the motion.
  const mq = new PivotedQR(nt, k);
  const targetRank = nt > 0 && k > 0 ? mq.factor(M, nt, k, TARGET_RANK_TOLERANCE) : 0;
  if (targetRank < k) return { mobility: k, targetRank, status: 'not_unique', projectionRatios, rates: [], layout, size, route: 'dense' };
  const rates: (Float64Array | null)[] = [];
  let consistent = true;
  const e = new Float64Array(nt), x = new Float64Array(k), alpha = new Float64Array(k);
  for (let j = 0; j < nt; j++) {
    e.fill(0); e[j] = 1;
    mq.applyQt(e);
    // residual of the least-squares solve: components k.. of Qᵀe
    let resid = 0;
    for (let i = k; i < nt; i++) resid = Math.max(resid, Math.abs(e[i]));
    if (resid > 1e-8) { rates.push(null); consistent = false; continue; }
    mq.solveR(x, e);
    for (let a = 0; a < k; a++) alpha[mq.perm[a]] = x[a];
    // q̇ (scaled) = Z α, then unscale to step coordinates.
    const qdot = new Float64Array(size);
    for (let a = 0; a < k; a++) {
      const al = alpha[a];
      if (al === 0) continue;
      const base = a * n;
      for (let jcol = 0; jcol < n; jcol++) qdot[jcol] += Z[base + jcol] * al;
    }
    unscaleRates(system, layout, qdot);
    rates.push(qdot);
  }
  return { mobility: k, targetRank, status: consistent ? 'unique' : 'inconsistent', projectionRatios, rates, layout, size, route: 'dense' };
}

/** Target gradient rows in scaled columns (nt × n, row-major; not normalised: unit rate is in the row's units). */
function targetGradients(system: System, ws: TangentWorkspace, targets: readonly ResidualBlock[]): Float64Array {
  const n = ws.group.n, L = system.lengthScale, nt = targets.length;
  const G = new Float64Array(nt * n);
  const res = new Float64Array(1);
  for (let t = 0; t < nt; t++) {
    const blk = targets[t];
    if (blk.rows !== 1) throw new ArgumentError(`target ${blk.owner}`, `a target must be one row, got ${blk.rows}`);
    let ld = 0;
    for (const v of blk.vars) ld += system.variables[v].dim;
    if (ws.targetLocal.length < ld) ws.targetLocal = new Float64Array(ld);
    if (ws.targetOffsets.length < blk.vars.length) ws.targetOffsets = new Int32Array(blk.vars.length);
    for (let i = 0; i < blk.vars.length; i++) ws.targetOffsets[i] = system.variables[blk.vars[i]].offset;
    const local = ws.targetLocal;
    blk.evaluate(system.state, ws.targetOffsets, res, local);
    let lc = 0;
    for (const vid of blk.vars) {
      const variable = system.variables[vid];
      const gc = ws.colOfVar[vid];
      if (gc >= 0) for (let c = 0; c < variable.dim; c++) {
        const scale = variable.kind === 'pose' ? (c < 3 ? 1 / L : 1) : 1 / variable.scale;
        G[t * n + gc + c] += local[lc + c] * scale;
      }
      lc += variable.dim;
    }
  }
  return G;
}

/** A scaled tangent back to step coordinates (turns ÷ L, scalars ÷ scale), in place. */
function unscaleRates(system: System, layout: Int32Array, qdot: Float64Array): void {
  const L = system.lengthScale;
  for (const v of system.variables) {
    if (v.fixed) continue;
    const c0 = layout[v.id];
    if (v.kind === 'pose') { qdot[c0] /= L; qdot[c0 + 1] /= L; qdot[c0 + 2] /= L; }
    else qdot[c0] /= v.scale;
  }
}

/**
 * Velocity of a material point of a posed body along a tangent q̇: R(ω × p + v), with
 * (ω, v) the body's components of q̇. Zero for a fixed body.
 */
export function pointRate(out: Float64Array, system: System, tangent: TangentSpace, rates: Float64Array, variable: number, localPoint: ArrayLike<number>): Float64Array {
  const v = system.variables[variable];
  const c0 = tangent.layout[variable];
  if (c0 < 0) { out[0] = out[1] = out[2] = 0; return out; }
  return rotatedPointRate(out, toMatrix(rateR, system.state, v.offset + 3), rates, c0, localPoint);
}

/** pointRate with the body's rotation matrix R given (row-major) and its tangent column c0 ≥ 0: for many rates of one point. */
export function rotatedPointRate(out: Float64Array, R: ArrayLike<number>, rates: Float64Array, c0: number, localPoint: ArrayLike<number>): Float64Array {
  const w0 = rates[c0], w1 = rates[c0 + 1], w2 = rates[c0 + 2];
  const p0 = localPoint[0], p1 = localPoint[1], p2 = localPoint[2];
  const b0 = w1 * p2 - w2 * p1 + rates[c0 + 3];
  const b1 = w2 * p0 - w0 * p2 + rates[c0 + 4];
  const b2 = w0 * p1 - w1 * p0 + rates[c0 + 5];
  out[0] = R[0] * b0 + R[1] * b1 + R[2] * b2;
  out[1] = R[3] * b0 + R[4] * b1 + R[5] * b2;
  out[2] = R[6] * b0 + R[7] * b1 + R[8] * b2;
  return out;
}


// ---- Constraint multipliers (statics): Φ_qᵀ λ = Q on the factorisation above ----

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
 * (drivers · Z): no second factorisation of the Jacobian.
 */
export function admissibleMotions(system: System): { basis: Float64Array; count: number; size: number; layout: Int32Array } {
  const ws = factorConstraints(system);
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
