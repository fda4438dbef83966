/**
 * Analyses at a solved state: numerical rank, degrees of freedom (total and per variable),
 * redundant rows, a minimal conflicting set, and the tangent space with target rates.
 *
 * Rank is decided on the row-normalised Jacobian in scaled columns (every row a unit
 * vector, every column a length per length), by a pivoted QR of Jᵀ with relative pivot
 * tolerance RANK_TOLERANCE: scale-free and explicit. Never an SVD of a wide matrix
 * (MATH.md): the null space comes from the Q of Jᵀ's QR.
 */
import { PivotedQR } from './linalg';
import { zeroedFloats } from './float-slab';
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

/** Workspace of the tangent computation, rebuilt only when the system's structure changes (multipliers.ts reads it too). */
export interface TangentWorkspace {
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
  /** Scratch of tangentSpace: the targets' gradient rows, a one-row residual, the QR of their projection. */
  targetG: Float64Array;
  targetRes: Float64Array;
  targetQr: PivotedQR | null;
  /** Owner of each assembled row, in row order. */
  rowOwners: string[];
  /** The state the cached null space belongs to. */
  stamp: Float64Array | null;
  rank: number;
  /** Euclidean norm of each assembled row before normalisation (scaled columns). */
  rowNorms: Float64Array;
  /** Counts the factorisations: what is computed from one (multipliers.ts) is valid while it stays. */
  generation: number;
}
const tangentWorkspaces = new WeakMap<System, TangentWorkspace>();

function tangentWorkspace(system: System): TangentWorkspace {
  const cached = tangentWorkspaces.get(system);
  if (cached && cached.version === system.version) return cached;
  return newTangentWorkspace(system);
}

/**
 * tangentWorkspace's building, apart: the check above runs twice per state and is compiled
 * late in a sweep (one or two calls per state): kept small, its compile is cheap.
 */
function newTangentWorkspace(system: System): TangentWorkspace {
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
    targetG: new Float64Array(0), targetRes: new Float64Array(1), targetQr: null,
    rowOwners, stamp: null, rank: 0, rowNorms: new Float64Array(Math.max(1, rows)), generation: 0,
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
export function factorConstraints(system: System): TangentWorkspace {
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
    ws.generation++;
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
  // Pivoted QR of M (nt × k): rank says whether the targets fix the motion (its workspace kept)
  const mq = (tw.targetQr ??= new PivotedQR(nt, k));
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
    // q̇ (scaled) = Z α, then unscale to step coordinates (a slab's view: cheaper than a fresh array)
    const qdot = zeroedFloats(size);
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
  // kept per structure (the caller reads it before the next tangent)
  if (ws.targetG.length < nt * n) ws.targetG = new Float64Array(nt * n);
  const G = ws.targetG;
  G.fill(0, 0, nt * n);
  const res = ws.targetRes;
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
