/**
 * The solver: hard constraints c(x) = 0 (mates, joints, couplings, held coordinates, active
 * limits) and a ranked soft objective (drag pulls, the grabbed body's resistance to
 * turning, damping of every other free variable toward where it was). Each step satisfies
 * the linearised constraints and, among such steps, takes the one with the least
 * objective: a constrained Gauss–Newton/Levenberg–Marquardt, so a long lever can never turn
 * tiny constraint slack into visible motion.
 *
 * Two linear algebra paths, one iteration scheme (Newton with backtracking; drags as
 * feasible steps, see pulledNewton):
 *
 * - dense, for small groups (a suspension corner, a four-bar), exact and rank-revealing:
 *     J δ = −c on the independent rows (pivoted QR of Jᵀ: rank, redundancy for free),
 *     δ = Q [y; z],  R₁₁ᵀ y = −c_P,  z = argmin objective in the null space Z = Q[:, r:].
 * - sparse, for groups above SPARSE_MIN_UNKNOWNS unknowns (kernel/sparse.ts): J stored by
 *   row blocks, the minimum-norm step from the normal equations of the rows,
 *     (J Jᵀ + ε·diag) μ = −c,  δ = Jᵀ μ  (then iterative refinement),
 *   and a drag's step from the range-space form of the KKT system with the objective's
 *   block-diagonal Gauss–Newton Hessian H:
 *     (J H⁻¹ Jᵀ + ε·diag) λ = c − J H⁻¹ g,  δ = −H⁻¹ (g + Jᵀ λ),
 *   both factored by an envelope Cholesky in reverse Cuthill–McKee block order. The small
 *   relative ε makes redundant but consistent rows (a closed planar loop's out-of-plane
 *   rows, the Bennett linkage) harmless; conflicting rows still end "failed" (no descent).
 *
 * Groups that hold and are not pulled are skipped; a group of pure constraint blocks that
 * was found holding is remembered with the exact state values its blocks read, and is not
 * evaluated again until one of them changes (a drag in a large assembly evaluates only the
 * pulled group).
 *
 * With no objective the step is the minimum-norm Newton step: the linkage moves the least.
 * The solve never throws on numerical trouble: it returns a report.
 */
import { PivotedQR, choleskySolve } from './linalg';
import { BlockRows, NormalEquations, blockAdjacency, reverseCuthillMcKee, type RowBlockPattern } from './sparse';
import { ScalarTargetBlock, type ResidualBlock, type System, type Variable } from './system';
import { rotationMatrix } from './dual';

export interface Pull {
  /** The pose variable grabbed. */
  variable: number;
  /** The grabbed point in the body's own frame. */
  point: ArrayLike<number>;
  /** Where the pointer wants it, in world coordinates. */
  target: ArrayLike<number>;
  /** Weight of this pull (default 1). */
  weight?: number;
}

export interface SolveOptions {
  pulls?: readonly Pull[];
  /** Newton iterations per group (default 60). */
  maxIterations?: number;
  /** Constraint tolerance relative to the model length scale (default 1e-12). */
  tolerance?: number;
  /** Weight of "stay where you were" for every free variable not grabbed (default 1e-4). */
  damping?: number;
  /** Weight of the grabbed body's resistance to turning (default 1e-2). */
  turnResistance?: number;
  /** Largest scaled step per iteration, relative to the length scale (default 0.5). */
  trustRadius?: number;
  /**
   * Skip groups that already hold and are not pulled (default true). A group whose blocks
   * are all constraints (no drivers, whose targets change in place) and that held at exactly
   * the current values of the state it reads is skipped without evaluating it.
   */
  skipSatisfied?: boolean;
  /**
   * Linear algebra per group: 'dense' (pivoted QR, exact rank), 'sparse' (block-sparse
   * normal equations, envelope Cholesky) or 'auto' (default): sparse above
   * SPARSE_MIN_UNKNOWNS unknowns.
   */
  linearSolver?: 'auto' | 'dense' | 'sparse';
}

/**
 * Groups with more unknowns than this use the sparse path under linearSolver 'auto'. Measured:
 * the sparse step overtakes the dense one from about 30 unknowns (a drag's null-space
 * objective even earlier), but below this size the dense path is still well under a
 * millisecond and its rank decisions are exact, so every suspension group (the double
 * wishbone axle is 47) and the four-bars keep it; a 100-link chain (693) or a Stewart
 * platform (84) do not.
 */
export const SPARSE_MIN_UNKNOWNS = 60;

export interface SolveReport {
  status: 'solved' | 'failed';
  converged: boolean;
  /** Newton iterations, summed over groups. */
  iterations: number;
  /** Largest |row| of the hard constraints at the end (a length). */
  maxResidual: number;
  /** Owners of blocks whose rows do not hold. */
  failed: string[];
  /** Names of scalar variables that sit at a limit. */
  atLimit: string[];
  /** Independent groups in the system, and how many were actually solved. */
  groups: number;
  groupsSolved: number;
  /** Set when something numerical went wrong (NaN, stall). */
  message?: string;
}

export interface Group {
  vars: number[];
  /** First scaled-step column of each var in this group (indexed like vars). */
  cols: number[];
  n: number;
  blocks: number[];
  limited: number[];
  rowsMax: number;
  maxLocalDim: number;
  ws: Workspace | null;
}

/** A group's solver state: its linear algebra, built on first use (per system version). */
interface Workspace {
  dense: DenseLinear | null;
  sparse: SparseLinear | null;
  /** State before a Newton step, and before a drag step (a drag's restoration runs Newton inside it). */
  saved: Float64Array;
  savedDrag: Float64Array;
  /**
   * The last state at which the group was found to hold: the state slots its blocks read
   * (free and fixed variables), their values, and the largest row there. Only for groups of
   * pure constraint blocks, whose rows are functions of those values alone (drivers carry
   * targets that change in place, so their groups are always evaluated).
   */
  verifiable: boolean;
  verifiedSlots: Int32Array | null;
  verified: Float64Array;
  verifiedMax: number;
  verifiedL: number;
}

interface Structure {
  version: number;
  groups: Group[];
  groupOfVar: Int32Array;
  /** Blocks that read no free variable: checked, never solvable. */
  frozenBlocks: number[];
}

const structures = new WeakMap<System, Structure>();

/** Independent groups of free variables linked by enabled hard blocks (union-find). */
export function groupsOf(system: System): Structure {
  const cached = structures.get(system);
  if (cached && cached.version === system.version) return cached;
  const nv = system.variables.length;
  const parent = new Int32Array(nv);
  for (let i = 0; i < nv; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; }
    return i;
  };
  const frozenBlocks: number[] = [];
  for (let b = 0; b < system.blockCount; b++) {
    if (!system.blockEnabled(b)) continue;
    const blk = system.block(b);
    let first = -1;
    for (const v of blk.vars) {
      if (system.variables[v].fixed) continue;
      if (first < 0) first = v;
      else parent[find(v)] = find(first);
    }
    if (first < 0) frozenBlocks.push(b);
  }
  const groupOfVar = new Int32Array(nv).fill(-1);
  const groups: Group[] = [];
  const rootGroup = new Map<number, number>();
  for (let v = 0; v < nv; v++) {
    const variable = system.variables[v];
    if (variable.fixed) continue;
    const r = find(v);
    let gi = rootGroup.get(r);
    if (gi === undefined) {
      gi = groups.length;
      rootGroup.set(r, gi);
      groups.push({ vars: [], cols: [], n: 0, blocks: [], limited: [], rowsMax: 0, maxLocalDim: 0, ws: null });
    }
    const g = groups[gi];
    g.vars.push(v);
    g.cols.push(g.n);
    g.n += variable.dim;
    if (variable.limits) g.limited.push(v);
    groupOfVar[v] = gi;
  }
  for (let b = 0; b < system.blockCount; b++) {
    if (!system.blockEnabled(b)) continue;
    const blk = system.block(b);
    const v = blk.vars.find((x) => !system.variables[x].fixed);
    if (v === undefined) continue;
    const g = groups[groupOfVar[v]];
    g.blocks.push(b);
    g.rowsMax += blk.rows;
    g.maxLocalDim = Math.max(g.maxLocalDim, system.blockLocalDim(b) * blk.rows);
  }
  for (const g of groups) g.rowsMax += g.limited.length;
  const s: Structure = { version: system.version, groups, groupOfVar, frozenBlocks };
  structures.set(system, s);
  return s;
}

function workspace(g: Group, system: System): Workspace {
  if (g.ws) return g.ws;
  let stateSize = 0;
  for (const v of g.vars) stateSize += system.variables[v].kind === 'pose' ? 7 : 1;
  let verifiable = true;
  for (const b of g.blocks) if (system.block(b).kind !== 'constraint') verifiable = false;
  g.ws = {
    dense: null, sparse: null, saved: new Float64Array(stateSize), savedDrag: new Float64Array(stateSize),
    verifiable, verifiedSlots: null, verified: new Float64Array(0), verifiedMax: NaN, verifiedL: NaN,
  };
  return g.ws;
}

/** Whether the group's state slots still hold exactly the values at which it was last found to hold. */
function stillHolds(system: System, ws: Workspace, tol: number): boolean {
  const slots = ws.verifiedSlots;
  if (!slots || !(ws.verifiedMax <= tol) || ws.verifiedL !== system.lengthScale) return false;
  const state = system.state, values = ws.verified;
  for (let i = 0; i < slots.length; i++) if (state[slots[i]] !== values[i]) return false;
  return true;
}
/** Record that the group holds here (largest row maxResidual). */
function recordHolds(system: System, g: Group, ws: Workspace, maxResidual: number): void {
  if (!ws.verifiable) return;
  if (!ws.verifiedSlots) {
    const slots = new Set<number>();
    for (const b of g.blocks) {
      for (const v of system.block(b).vars) {
        const variable = system.variables[v];
        const size = variable.kind === 'pose' ? 7 : 1;
        for (let i = 0; i < size; i++) slots.add(variable.offset + i);
      }
    }
    ws.verifiedSlots = Int32Array.from(slots);
    ws.verified = new Float64Array(slots.size);
  }
  const slots = ws.verifiedSlots, state = system.state;
  for (let i = 0; i < slots.length; i++) ws.verified[i] = state[slots[i]];
  ws.verifiedMax = maxResidual;
  ws.verifiedL = system.lengthScale;
}

/** Relative tolerance on the row-normalised Jacobian below which a pivot counts as zero. */
export const RANK_TOLERANCE = 1e-9;

/**
 * Assemble the group's hard rows at the current state: c (m) and J (m × n, row-major,
 * scaled columns so every entry is dimensionless). Returns m.
 */
export function assembleGroup(system: System, g: Group, colOfVar: Int32Array, limits: readonly ScalarTargetBlock[], c: Float64Array, J: Float64Array | null, local: Float64Array, localRes: Float64Array): number {
  let row = 0;
  for (const b of g.blocks) row = assembleDenseBlock(system, g.n, colOfVar, system.block(b), system.blockOffsets(b), row, c, J, local, localRes);
  for (const lim of limits) {
    limitOffset[0] = system.variables[lim.vars[0]].offset;
    row = assembleDenseBlock(system, g.n, colOfVar, lim, limitOffset, row, c, J, local, localRes);
  }
  return row;
}
const limitOffset = new Int32Array(1);

function assembleDenseBlock(system: System, n: number, colOfVar: Int32Array, blk: ResidualBlock, offsets: Int32Array, row: number, c: Float64Array, J: Float64Array | null, local: Float64Array, localRes: Float64Array): number {
  blk.evaluate(system.state, offsets, localRes, J ? local : null);
  const rows = blk.rows;
  for (let r = 0; r < rows; r++) c[row + r] = localRes[r];
  if (J) {
    const vars = blk.vars;
    let ld = 0;
    for (let i = 0; i < vars.length; i++) ld += system.variables[vars[i]].dim;
    J.fill(0, row * n, (row + rows) * n);
    let lc = 0;
    for (let i = 0; i < vars.length; i++) {
      const vid = vars[i];
      const variable = system.variables[vid];
      const gc = colOfVar[vid];
      if (gc >= 0) {
        if (variable.kind === 'pose') {
          const L = system.lengthScale;
          for (let r = 0; r < rows; r++) {
            const src = r * ld + lc, dst = (row + r) * n + gc;
            J[dst] += local[src] / L; J[dst + 1] += local[src + 1] / L; J[dst + 2] += local[src + 2] / L;
            J[dst + 3] += local[src + 3]; J[dst + 4] += local[src + 4]; J[dst + 5] += local[src + 5];
          }
        } else {
          const k = 1 / variable.scale;
          for (let r = 0; r < rows; r++) J[(row + r) * n + gc] += local[r * ld + lc] * k;
        }
      }
      lc += variable.dim;
    }
  }
  return row + rows;
}

function columnMap(system: System, g: Group): Int32Array {
  const map = new Int32Array(system.variables.length).fill(-1);
  for (let i = 0; i < g.vars.length; i++) map[g.vars[i]] = g.cols[i];
  return map;
}

const colMaps = new WeakMap<Group, Int32Array>();
function colMapOf(system: System, g: Group): Int32Array {
  let m = colMaps.get(g);
  if (!m) { m = columnMap(system, g); colMaps.set(g, m); }
  return m;
}

/**
 * Solve every group that needs it. Never throws on numerical trouble; see SolveReport.
 */
export function solve(system: System, options: SolveOptions = {}): SolveReport {
  const structure = groupsOf(system);
  const L = system.lengthScale;
  const tol = (options.tolerance ?? 1e-12) * L;
  const pulls = options.pulls ?? [];
  let iterations = 0, groupsSolved = 0;
  let message: string | undefined;
  const atLimit: string[] = [];
  let groupMax = 0;
  for (let gi = 0; gi < structure.groups.length; gi++) {
    const g = structure.groups[gi];
    let groupPulls = NO_PULLS;
    for (const p of pulls) if (structure.groupOfVar[p.variable] === gi) { groupPulls = pulls.filter((q) => structure.groupOfVar[q.variable] === gi); break; }
    const result = solveGroup(system, g, groupPulls, options, tol);
    if (!(result.maxResidual <= groupMax)) groupMax = result.maxResidual;
    iterations += result.iterations;
    if (result.solved) groupsSolved++;
    if (result.message && !message) message = result.message;
    for (const name of result.atLimit) atLimit.push(name);
  }
  // Each group knows its own largest row; only blocks that read no free variable remain.
  let maxResidual = groupMax;
  for (const b of structure.frozenBlocks) {
    const blk = system.block(b);
    if (blk.kind === 'limit') continue;
    if (frozenBuf.length < blk.rows) frozenBuf = new Float64Array(blk.rows);
    system.evaluateBlock(b, frozenBuf, null);
    const mx = maxAbs(frozenBuf, blk.rows);
    if (!(mx <= maxResidual)) maxResidual = mx;
  }
  // Name the failing owners only when something fails (an extra pass over the blocks).
  const report = maxResidual <= tol * 10 ? { maxResidual, failed: [] as string[] } : system.residualReport(tol * 10);
  let converged = report.failed.length === 0 && Number.isFinite(report.maxResidual);
  // A coordinate held past its own limit: the hold and the limit cannot both be kept.
  const pastLimits = system.heldPastLimits(0);
  if (pastLimits !== null) {
    converged = false;
    for (const name of pastLimits) {
      if (!atLimit.includes(name)) atLimit.push(name);
      if (!report.failed.includes(`hold:${name}`)) report.failed.push(`hold:${name}`);
    }
    message = `${pastLimits.join(', ')} held past ${pastLimits.length > 1 ? 'their limits' : 'its limit'}`;
  }
  if (!converged && !message) message = Number.isFinite(report.maxResidual) ? 'constraints do not hold' : 'non-finite residual';
  const out: SolveReport = {
    status: converged ? 'solved' : 'failed',
    converged,
    iterations,
    maxResidual: report.maxResidual,
    failed: report.failed,
    atLimit,
    groups: structure.groups.length,
    groupsSolved,
  };
  if (message && !converged) out.message = message;
  return out;
}

interface GroupResult { iterations: number; solved: boolean; atLimit: string[]; maxResidual: number; message?: string }
const NO_PULLS: readonly Pull[] = [];
const NO_NAMES: string[] = [];
let frozenBuf = new Float64Array(16);

/** The group's linear algebra for this solve: sparse above the threshold (or when asked). */
function linearOf(system: System, g: Group, options: SolveOptions): Linear {
  const ws = workspace(g, system);
  const mode = options.linearSolver ?? 'auto';
  const sparse = mode === 'sparse' || (mode === 'auto' && g.n > SPARSE_MIN_UNKNOWNS);
  if (sparse) return ws.sparse ??= new SparseLinear(system, g, colMapOf(system, g));
  return ws.dense ??= new DenseLinear(system, g, colMapOf(system, g));
}

function solveGroup(system: System, g: Group, pulls: readonly Pull[], options: SolveOptions, tol: number): GroupResult {
  const ws = workspace(g, system);
  const lin = linearOf(system, g, options);
  const skip = options.skipSatisfied ?? true;
  const limits: ScalarTargetBlock[] = [];
  // A group that held at exactly this state still holds: no evaluation needed.
  if (skip && pulls.length === 0 && stillHolds(system, ws, tol) && !limitViolated(system, g, tol)) {
    return { iterations: 0, solved: false, atLimit: g.limited.length ? atLimitNames(system, g, tol) : NO_NAMES, maxResidual: ws.verifiedMax };
  }
  // Release nothing we carry over: each solve starts with no active limit; a limit that
  // the motion pushes past is clamped and the group re-solved (the active set).
  lin.setLimits(limits);
  // The Jacobian comes along when the group will surely be solved (pulled), or cheaply (small).
  let m = lin.assemble(pulls.length > 0 || !lin.sparse);
  if (skip && pulls.length === 0 && maxAbs(lin.c, m) <= tol && !limitViolated(system, g, tol)) {
    const maxResidual = maxAbs(lin.c, m);
    recordHolds(system, g, ws, maxResidual);
    return { iterations: 0, solved: false, atLimit: g.limited.length ? atLimitNames(system, g, tol) : NO_NAMES, maxResidual };
  }
  let iterations = 0;
  let message: string | undefined;
  for (let pass = 0; pass <= g.limited.length; pass++) {
    const r = pulls.length > 0 ? pulledNewton(system, g, lin, ws, pulls, options, tol) : newton(system, g, lin, ws.saved, options, tol);
    iterations += r.iterations;
    if (!r.converged) { message = r.message; break; }
    // Active set: clamp every coordinate that went past a limit and solve again.
    let added = false;
    for (const v of g.limited) {
      const variable = system.variables[v];
      const [lo, hi] = variable.limits!;
      const x = system.state[variable.offset];
      const slack = tol / variable.scale;
      const bound = x < lo - slack ? lo : x > hi + slack ? hi : null;
      if (bound === null || limits.some((l) => l.vars[0] === v)) continue;
      system.state[variable.offset] = bound;
      limits.push(new ScalarTargetBlock(`limit:${variable.name}`, v, bound, variable.scale, 'limit'));
      added = true;
    }
    if (!added) break;
    lin.fresh = false;
    lin.setLimits(limits);
  }
  m = lin.fresh ? lin.m : lin.assemble(false);
  // the hard rows of the blocks come first; active limit rows after them are the active set's own
  const out: GroupResult = { iterations, solved: true, atLimit: g.limited.length ? atLimitNames(system, g, tol) : NO_NAMES, maxResidual: maxAbs(lin.c, m - limits.length) };
  if (message) out.message = message;
  else if (limits.length === 0 && out.maxResidual <= tol) recordHolds(system, g, ws, out.maxResidual);
  return out;
}

function limitViolated(system: System, g: Group, tol: number): boolean {
  for (const v of g.limited) {
    const variable = system.variables[v];
    const [lo, hi] = variable.limits!;
    const x = system.state[variable.offset];
    const slack = tol / variable.scale;
    if (x < lo - slack || x > hi + slack) return true;
  }
  return false;
}
function atLimitNames(system: System, g: Group, tol: number): string[] {
  const names: string[] = [];
  for (const v of g.limited) {
    const variable = system.variables[v];
    const [lo, hi] = variable.limits!;
    const x = system.state[variable.offset];
    const slack = 10 * tol / variable.scale;
    if (Math.abs(x - lo) <= slack || Math.abs(x - hi) <= slack) names.push(variable.name);
  }
  return names;
}

function maxAbs(a: Float64Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.abs(a[i]);
    if (!(x <= m)) m = Number.isNaN(x) ? NaN : x;
    if (Number.isNaN(m)) return NaN;
  }
  return m;
}
function norm2(a: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}

// ---------------------------------------------------------------------------------------
// The objective: pulls, turn resistance, damping

const pullPoint = new Float64Array(3);
const pullR = new Float64Array(9);
const pullF = new Float64Array(3);
const pullA = new Float64Array(18);

/**
 * One pull at the current state: its weighted residual f (3, into pullF) and, with
 * `jacobian`, A = ∂f/∂u (3×6 row-major, scaled columns, into pullA):
 * ∂P/∂ω_j / L = R(e_j × p)/L, ∂P/∂v_j = R e_j; all times w. Returns ½|f|².
 */
function pullTerms(system: System, p: Pull, jacobian: boolean): number {
  const variable = system.variables[p.variable];
  const w = p.weight ?? 1;
  const off = variable.offset, L = system.lengthScale;
  rotationMatrix(pullR, system.state, off + 3);
  const R = pullR, lp = p.point;
  for (let i = 0; i < 3; i++) pullPoint[i] = R[3 * i] * lp[0] + R[3 * i + 1] * lp[1] + R[3 * i + 2] * lp[2] + system.state[off + i];
  const f0 = w * (pullPoint[0] - p.target[0]), f1 = w * (pullPoint[1] - p.target[1]), f2 = w * (pullPoint[2] - p.target[2]);
  pullF[0] = f0; pullF[1] = f1; pullF[2] = f2;
  if (jacobian) {
    const A = pullA;
    for (let i = 0; i < 3; i++) {
      const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2];
      A[i * 6] = w * (-r1 * lp[2] + r2 * lp[1]) / L;
      A[i * 6 + 1] = w * (r0 * lp[2] - r2 * lp[0]) / L;
      A[i * 6 + 2] = w * (-r0 * lp[1] + r1 * lp[0]) / L;
      A[i * 6 + 3] = w * r0; A[i * 6 + 4] = w * r1; A[i * 6 + 5] = w * r2;
    }
  }
  return 0.5 * (f0 * f0 + f1 * f1 + f2 * f2);
}

/** The pulls' value ½Σ|pull residuals|² at the current state. */
function pullValue(system: System, pulls: readonly Pull[]): number {
  let value = 0;
  for (const p of pulls) value += pullTerms(system, p, false);
  return value;
}

/** Add the pull's Gauss–Newton terms AᵀA and Aᵀf (after pullTerms) at (col, col) of H (leading dimension ld) and grad. */
function addPullTerms(H: Float64Array, ld: number, hOff: number, grad: Float64Array, gOff: number): void {
  const A = pullA, f = pullF;
  for (let a = 0; a < 6; a++) {
    grad[gOff + a] += A[a] * f[0] + A[6 + a] * f[1] + A[12 + a] * f[2];
    for (let b = 0; b < 6; b++) H[hOff + a * ld + b] += A[a] * A[b] + A[6 + a] * A[6 + b] + A[12 + a] * A[12 + b];
  }
}

/**
 * The soft objective of one step u (scaled columns): ½Σ|pull residuals|² + ½Σ w_k² u_k²,
 * with w the turn resistance on a grabbed body's turn and the damping on every other
 * free column. Damping acts on the step, not on the distance from the start, so it ranks
 * the motions (the linkage moves the least it must) without biasing where a pull ends:
 * at convergence u = 0 and only the pulls remain. Fills the dense Gauss–Newton Hessian
 * and gradient at u = 0; returns the pulls' value at the current state.
 */
function objective(system: System, g: Group, pulls: readonly Pull[], options: SolveOptions, colOfVar: Int32Array, H: Float64Array, grad: Float64Array): number {
  const n = g.n;
  const damping = options.damping ?? 1e-4, turn = options.turnResistance ?? 1e-2;
  H.fill(0, 0, n * n); grad.fill(0, 0, n);
  for (let i = 0; i < g.vars.length; i++) {
    const v = g.vars[i], c0 = g.cols[i], dim = system.variables[v].dim;
    const isGrabbed = pulls.some((p) => p.variable === v);
    for (let k = 0; k < dim; k++) {
      const w = isGrabbed ? (k < 3 ? turn : 0) : damping;
      H[(c0 + k) * n + c0 + k] += w * w;
    }
  }
  let value = 0;
  for (const p of pulls) {
    const col = colOfVar[p.variable];
    value += pullTerms(system, p, col >= 0);
    if (col >= 0) addPullTerms(H, n, col * n + col, grad, col);
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// Linear algebra paths

/**
 * What the iterations need from a path. Two slots of rows (c and J): the current one and a
 * trial one; a line search evaluates trials (Jacobian included: a mate computes it anyway)
 * and an accepted trial becomes current, so the next iteration needs no evaluation.
 */
interface Linear {
  readonly sparse: boolean;
  /** Rows of the current slot, in this path's row order (block rows first, then limits). */
  m: number;
  c: Float64Array;
  cTrial: Float64Array;
  /** Row scale factors of the last normalisation (rows of the current slot). */
  rowK: Float64Array;
  u: Float64Array;
  uTrial: Float64Array;
  /** The current slot holds the raw rows at the current state (with J when hasJ). */
  fresh: boolean;
  hasJ: boolean;
  setLimits(limits: readonly ScalarTargetBlock[]): void;
  /** Evaluate the current slot at the current state; returns m. */
  assemble(withJ: boolean): number;
  /** Evaluate the trial slot (c and J) at the current state; returns its row count. */
  assembleTrial(): number;
  /** The trial slot becomes the current one (the state is where it was evaluated). */
  acceptTrial(): void;
  /** Scale each row of the current J and c to unit length (rowK); the slot is no longer raw. */
  normalise(): void;
  /** The minimum-norm Newton step J u = −c (rows normalised). False on non-finite numbers. */
  newtonStep(u: Float64Array): boolean;
  /**
   * A chord step: the last Newton step's factorisation (and row scales) applied to the
   * current raw residual, u = J_last⁺(−c). False when there is none to reuse (another row
   * set since, or a path that keeps no factorisation).
   */
  chordStep(u: Float64Array): boolean;
  /**
   * The drag step: the linearised constraints with the least objective (rows normalised).
   * 'still': nothing can move (full rank, or the objective has no descent in the null
   * space); 'nan': non-finite numbers.
   */
  pulledStep(u: Float64Array, pulls: readonly Pull[], options: SolveOptions): 'step' | 'still' | 'nan';
}

/** Scale rows of row-major J (m × n) and c to unit length, recording the factors. */
function normaliseDense(J: Float64Array, c: Float64Array, rowK: Float64Array, m: number, n: number): void {
  for (let i = 0; i < m; i++) {
    let s = 0;
    const base = i * n;
    for (let j = 0; j < n; j++) s += J[base + j] * J[base + j];
    const k = s > 0 ? 1 / Math.sqrt(s) : 1;
    rowK[i] = k;
    if (k !== 1) { for (let j = 0; j < n; j++) J[base + j] *= k; c[i] *= k; }
  }
}

class DenseLinear implements Linear {
  readonly sparse = false;
  m = 0;
  c: Float64Array;
  cTrial: Float64Array;
  rowK: Float64Array;
  u: Float64Array;
  uTrial: Float64Array;
  fresh = false;
  hasJ = false;
  private J: Float64Array;
  private JTrial: Float64Array;
  private trialRows = 0;
  private limits: readonly ScalarTargetBlock[] = [];
  private readonly local: Float64Array;
  private readonly localRes: Float64Array;
  private readonly qr: PivotedQR;
  private readonly y: Float64Array;
  private readonly rhs: Float64Array;
  private H: Float64Array | null = null;
  private grad: Float64Array | null = null;
  private Hzz: Float64Array | null = null;
  private Z: Float64Array | null = null;
  private HZ: Float64Array | null = null;
  private ur: Float64Array | null = null;

  constructor(private readonly system: System, private readonly g: Group, private readonly colOfVar: Int32Array) {
    const n = g.n, m = Math.max(1, g.rowsMax);
    this.J = new Float64Array(m * n);
    this.JTrial = new Float64Array(m * n);
    this.c = new Float64Array(m);
    this.cTrial = new Float64Array(m);
    this.rowK = new Float64Array(m);
    this.local = new Float64Array(Math.max(1, g.maxLocalDim));
    this.localRes = new Float64Array(m);
    this.qr = new PivotedQR(n, m);
    this.y = new Float64Array(Math.max(n, m));
    this.rhs = new Float64Array(Math.max(n, m));
    this.u = new Float64Array(n);
    this.uTrial = new Float64Array(n);
  }

  setLimits(limits: readonly ScalarTargetBlock[]): void {
    this.limits = limits;
    this.fresh = false;
    this.factoredRows = -1;
  }
  /** Rows of the factorisation in `qr` (−1: none to reuse). */
  private factoredRows = -1;
  assemble(withJ: boolean): number {
    this.m = assembleGroup(this.system, this.g, this.colOfVar, this.limits, this.c, withJ ? this.J : null, this.local, this.localRes);
    this.fresh = true;
    this.hasJ = withJ;
    return this.m;
  }
  assembleTrial(): number {
    this.trialRows = assembleGroup(this.system, this.g, this.colOfVar, this.limits, this.cTrial, this.JTrial, this.local, this.localRes);
    return this.trialRows;
  }
  acceptTrial(): void {
    const c = this.c; this.c = this.cTrial; this.cTrial = c;
    const J = this.J; this.J = this.JTrial; this.JTrial = J;
    this.m = this.trialRows;
    this.fresh = true;
    this.hasJ = true;
  }
  normalise(): void {
    normaliseDense(this.J, this.c, this.rowK, this.m, this.g.n);
    this.fresh = false;
  }
  /** Factor Jᵀ and set u = Q [y; 0] with R₁₁ᵀ y = −c_P. Returns the rank. */
  private rangeStep(u: Float64Array): number {
    const { qr, rhs, y, c } = this;
    const r = qr.factor(this.J, this.g.n, this.m, RANK_TOLERANCE);
    this.factoredRows = this.m;
    for (let k = 0; k < r; k++) rhs[k] = -c[qr.perm[k]];
    qr.solveRt(y, rhs);
    u.fill(0);
    for (let k = 0; k < r; k++) u[k] = y[k];
    return r;
  }
  newtonStep(u: Float64Array): boolean {
    this.rangeStep(u);
    this.qr.applyQ(u);
    return true; // a non-finite step is caught by the caller
  }
  chordStep(u: Float64Array): boolean {
    const { qr, rhs, y, c, rowK } = this;
    if (this.factoredRows !== this.m) return false;
    const r = qr.rank;
    for (let k = 0; k < r; k++) { const i = qr.perm[k]; rhs[k] = -c[i] * rowK[i]; }
    qr.solveRt(y, rhs);
    u.fill(0);
    for (let k = 0; k < r; k++) u[k] = y[k];
    qr.applyQ(u);
    return true;
  }
  pulledStep(u: Float64Array, pulls: readonly Pull[], options: SolveOptions): 'step' | 'still' | 'nan' {
    const n = this.g.n, qr = this.qr, rhs = this.rhs;
    const r = this.rangeStep(u);
    if (r >= n) return 'still'; // nothing left to move
    const kz = n - r;
    const H = this.H ??= new Float64Array(n * n);
    const grad = this.grad ??= new Float64Array(n);
    const Z = this.Z ??= new Float64Array(n * n);
    const HZ = this.HZ ??= new Float64Array(n * n);
    const Hzz = this.Hzz ??= new Float64Array(n * n);
    const ur = this.ur ??= new Float64Array(n);
    objective(this.system, this.g, pulls, options, this.colOfVar, H, grad);
    // The null space Z = Q[:, r:] and the range part of the step ur = Q [y; 0]; then
    // (Zᵀ H Z) z = −Zᵀ (g + H ur), the objective's step in the null space.
    for (let a = 0; a < kz; a++) {
      Z.fill(0, a * n, a * n + n);
      Z[a * n + r + a] = 1;
      qr.applyQ(Z, a * n);
    }
    ur.set(u.subarray(0, n));
    qr.applyQ(ur);
    for (let i = 0; i < n; i++) {
      let s = grad[i];
      const hi = i * n;
      for (let j = 0; j < n; j++) { const h = H[hi + j]; if (h !== 0) s += h * ur[j]; }
      grad[i] = s; // g + H ur
    }
    for (let b = 0; b < kz; b++) {
      const zb = b * n;
      for (let i = 0; i < n; i++) {
        let s = 0;
        const hi = i * n;
        for (let j = 0; j < n; j++) { const h = H[hi + j]; if (h !== 0) s += h * Z[zb + j]; }
        HZ[zb + i] = s;
      }
    }
    for (let a = 0; a < kz; a++) {
      const za = a * n;
      let s = 0;
      for (let i = 0; i < n; i++) s += Z[za + i] * grad[i];
      rhs[a] = -s;
      for (let b = 0; b <= a; b++) {
        const zb = b * n;
        let h = 0;
        for (let i = 0; i < n; i++) h += Z[za + i] * HZ[zb + i];
        Hzz[a * kz + b] = h; Hzz[b * kz + a] = h;
      }
    }
    if (!choleskySolve(Hzz, rhs, kz)) return 'still';
    for (let a = 0; a < kz; a++) u[r + a] = rhs[a];
    qr.applyQ(u);
    return 'step';
  }
}

/**
 * Relative Tikhonov term of the sparse normal equations (times each row's diagonal). Small,
 * because a drag's S = J H⁻¹ Jᵀ mixes the damping's 1e8 (1/1e-4²) with the grabbed body's
 * O(1) in one row: a direction only the grabbed body can serve has an eigenvalue some 1e8
 * below that row's diagonal, and ε·diag must stay well under it (1e-13 · 1e8 = 1e-5, then
 * taken out by refinement). Redundant rows meet the floor instead of a zero pivot.
 */
export const SPARSE_REGULARISATION = 1e-13;
/**
 * Iterative refinement of a sparse step: at most this many passes, and no more once a
 * correction is below 1e-6 of the step (each pass shrinks the error by about the relative
 * size of the first correction, so what remains is then below 1e-12 of the step).
 */
const REFINE_PASSES = 4;
const REFINE_TOLERANCE = 1e-6;
/** Smallest damping weight the sparse drag step uses (its Hessian must be invertible). */
const SPARSE_MIN_WEIGHT = 1e-8;

/** The sparse pattern of a group with a given set of active limits (limits last). */
interface SparsePattern {
  /** Limited variables of the limit rows appended after the blocks, in order. */
  limitVars: number[];
  blocks: ResidualBlock[];
  offsets: Int32Array[];
  /** Per block: start of its local-column map (ld entries: compact column or −1, and scale). */
  mapPtr: Int32Array;
  map: Int32Array;
  scale: Float64Array;
  J: BlockRows;
  ne: NormalEquations;
  /** The trial slot's values, and W = J H⁻¹ for drags. */
  valsTrial: Float64Array;
  W: Float64Array | null;
}

class SparseLinear implements Linear {
  readonly sparse = true;
  m = 0;
  c: Float64Array;
  cTrial: Float64Array;
  rowK: Float64Array;
  u: Float64Array;
  uTrial: Float64Array;
  fresh = false;
  hasJ = false;
  private readonly base: SparsePattern;
  private pattern: SparsePattern;
  private readonly withLimits = new Map<string, SparsePattern>();
  private readonly order: number[];
  private readonly local: Float64Array;
  private readonly localRes: Float64Array;
  private readonly lam: Float64Array;
  private readonly res: Float64Array;
  private readonly tmp: Float64Array;
  // drag objective: H⁻¹ by columns (diagonal) or by grabbed pose (6 × 6)
  private readonly hInv: Float64Array;
  private readonly grabOf: Int32Array;
  private readonly hg: Float64Array;
  private colScale: Float64Array;
  private grabVars: number[] = [];
  private grabCol = new Int32Array(4);
  private grabH = new Float64Array(4 * 36);
  private grabHinv = new Float64Array(4 * 36);
  private grabGrad = new Float64Array(4 * 6);

  constructor(private readonly system: System, private readonly g: Group, private readonly colOfVar: Int32Array) {
    const n = g.n, m = Math.max(1, g.rowsMax);
    this.c = new Float64Array(m);
    this.cTrial = new Float64Array(m);
    this.rowK = new Float64Array(m);
    this.lam = new Float64Array(m);
    this.res = new Float64Array(m);
    this.local = new Float64Array(Math.max(1, g.maxLocalDim));
    this.localRes = new Float64Array(m);
    this.u = new Float64Array(n);
    this.uTrial = new Float64Array(n);
    this.tmp = new Float64Array(n);
    this.hInv = new Float64Array(n);
    this.grabOf = new Int32Array(n).fill(-1);
    this.hg = new Float64Array(n);
    let widest = 1;
    for (const b of g.blocks) widest = Math.max(widest, system.blockLocalDim(b));
    this.colScale = new Float64Array(widest);
    // Fill-reducing order of the blocks: reverse Cuthill–McKee on blocks sharing a column.
    const patterns = g.blocks.map((b) => this.patternOf(system.block(b)));
    const adjacency = blockAdjacency(patterns, n);
    this.order = Array.from(reverseCuthillMcKee(patterns.length, adjacency.ptr, adjacency.adj), (k) => g.blocks[k]);
    this.base = this.build([]);
    this.pattern = this.base;
  }

  private patternOf(blk: ResidualBlock): RowBlockPattern {
    const cols: number[] = [];
    for (const v of blk.vars) {
      const gc = this.colOfVar[v];
      if (gc >= 0) for (let k = 0; k < this.system.variables[v].dim; k++) cols.push(gc + k);
    }
    return { rows: blk.rows, cols };
  }

  private build(limitVars: number[]): SparsePattern {
    const system = this.system, L = system.lengthScale;
    const blocks: ResidualBlock[] = [], offsets: Int32Array[] = [];
    for (const b of this.order) { blocks.push(system.block(b)); offsets.push(system.blockOffsets(b)); }
    for (const v of limitVars) {
      const variable = system.variables[v];
      blocks.push(new ScalarTargetBlock(`limit:${variable.name}`, v, 0, variable.scale, 'limit'));
      offsets.push(Int32Array.of(variable.offset));
    }
    const patterns = blocks.map((blk) => this.patternOf(blk));
    const J = new BlockRows(this.g.n, patterns);
    const mapPtr = new Int32Array(blocks.length + 1);
    const mapList: number[] = [], scaleList: number[] = [];
    blocks.forEach((blk, k) => {
      const c0 = J.colPtr[k], w = J.colPtr[k + 1] - c0;
      for (const v of blk.vars) {
        const variable = system.variables[v];
        const gc = this.colOfVar[v];
        for (let d = 0; d < variable.dim; d++) {
          if (gc < 0) { mapList.push(-1); scaleList.push(0); continue; }
          let t = 0;
          while (t < w && J.cols[c0 + t] !== gc + d) t++;
          mapList.push(t);
          scaleList.push(variable.kind === 'pose' ? (d < 3 ? 1 / L : 1) : 1 / variable.scale);
        }
      }
      mapPtr[k + 1] = mapList.length;
    });
    return {
      limitVars, blocks, offsets, mapPtr, map: Int32Array.from(mapList), scale: Float64Array.from(scaleList),
      J, ne: new NormalEquations(J), valsTrial: new Float64Array(J.vals.length), W: null,
    };
  }

  /** The current pattern's BlockRows (tests and checks). */
  get rows(): BlockRows {
    return this.pattern.J;
  }

  setLimits(limits: readonly ScalarTargetBlock[]): void {
    this.fresh = false;
    if (limits.length === 0) { this.pattern = this.base; return; }
    const vars = limits.map((l) => l.vars[0]);
    const key = vars.join(',');
    let p = this.withLimits.get(key);
    if (!p) {
      if (this.withLimits.size >= 16) this.withLimits.clear(); // active sets seen lately, not all ever
      p = this.build(vars);
      this.withLimits.set(key, p);
    }
    // targets: the limit blocks of the pattern stand for these
    for (let i = 0; i < limits.length; i++) (p.blocks[p.blocks.length - limits.length + i] as ScalarTargetBlock).target = limits[i].target;
    this.pattern = p;
  }

  private evaluate(c: Float64Array, vals: Float64Array | null): number {
    const p = this.pattern, J = p.J, state = this.system.state;
    const local = this.local, localRes = this.localRes;
    for (let k = 0; k < p.blocks.length; k++) {
      const blk = p.blocks[k];
      blk.evaluate(state, p.offsets[k], localRes, vals ? local : null);
      const row0 = J.rowPtr[k], rows = J.rowPtr[k + 1] - row0;
      for (let r = 0; r < rows; r++) c[row0 + r] = localRes[r];
      if (!vals) continue;
      const w = J.colPtr[k + 1] - J.colPtr[k], base = J.valPtr[k];
      vals.fill(0, base, base + rows * w);
      const m0 = p.mapPtr[k], ld = p.mapPtr[k + 1] - m0;
      for (let lc = 0; lc < ld; lc++) {
        const t = p.map[m0 + lc];
        if (t < 0) continue;
        const s = p.scale[m0 + lc];
        for (let r = 0; r < rows; r++) vals[base + r * w + t] += local[r * ld + lc] * s;
      }
    }
    return J.m;
  }

  assemble(withJ: boolean): number {
    this.m = this.evaluate(this.c, withJ ? this.pattern.J.vals : null);
    this.fresh = true;
    this.hasJ = withJ;
    return this.m;
  }
  assembleTrial(): number {
    return this.evaluate(this.cTrial, this.pattern.valsTrial);
  }
  acceptTrial(): void {
    const p = this.pattern;
    const c = this.c; this.c = this.cTrial; this.cTrial = c;
    const v = p.J.vals; p.J.vals = p.valsTrial; p.valsTrial = v;
    this.m = p.J.m;
    this.fresh = true;
    this.hasJ = true;
  }
  normalise(): void {
    const J = this.pattern.J, vals = J.vals, c = this.c, rowK = this.rowK;
    for (let k = 0; k < J.blocks; k++) {
      const w = J.colPtr[k + 1] - J.colPtr[k];
      let p = J.valPtr[k];
      for (let i = J.rowPtr[k]; i < J.rowPtr[k + 1]; i++, p += w) {
        let s = 0;
        for (let t = 0; t < w; t++) s += vals[p + t] * vals[p + t];
        const f = s > 0 ? 1 / Math.sqrt(s) : 1;
        rowK[i] = f;
        if (f !== 1) { for (let t = 0; t < w; t++) vals[p + t] *= f; c[i] *= f; }
      }
    }
    this.fresh = false;
  }

  chordStep(): boolean {
    return false; // the normal equations' factor is of the last J, which is overwritten
  }

  newtonStep(u: Float64Array): boolean {
    const { J, ne } = this.pattern;
    const m = J.m, c = this.c, lam = this.lam, res = this.res;
    ne.assemble(null);
    if (!ne.factor(SPARSE_REGULARISATION)) return false;
    // u = Jᵀ μ with (J Jᵀ + ε) μ = −c
    for (let i = 0; i < m; i++) lam[i] = -c[i];
    ne.solve(lam);
    J.mulT(u, lam);
    // iterative refinement takes the regularisation's bias out of the step: du = Jᵀ S⁻¹ (−c − J u)
    const n = this.g.n, tmp = this.tmp;
    for (let pass = 0; pass < REFINE_PASSES; pass++) {
      J.mul(res, u);
      for (let i = 0; i < m; i++) res[i] = -c[i] - res[i];
      ne.solve(res);
      J.mulT(tmp, res);
      let du = 0, uMax = 0;
      for (let j = 0; j < n; j++) { u[j] += tmp[j]; du = Math.max(du, Math.abs(tmp[j])); uMax = Math.max(uMax, Math.abs(u[j])); }
      if (!(du > REFINE_TOLERANCE * uMax)) break;
    }
    return true;
  }

  /**
   * The objective's block-diagonal Gauss–Newton Hessian, inverted: damping on every column
   * not grabbed (diagonal), and each grabbed body's 6 × 6 (turn resistance and its pulls);
   * the gradient lives on the grabbed bodies only.
   */
  private prepareObjective(pulls: readonly Pull[], options: SolveOptions): void {
    const system = this.system, n = this.g.n;
    const damping = Math.max(options.damping ?? 1e-4, SPARSE_MIN_WEIGHT), turn = Math.max(options.turnResistance ?? 1e-2, SPARSE_MIN_WEIGHT);
    this.hInv.fill(1 / (damping * damping));
    for (let j = 0; j < n; j++) if (this.grabOf[j] >= 0) this.grabOf[j] = -1;
    this.grabVars.length = 0;
    for (const p of pulls) {
      const col = this.colOfVar[p.variable];
      if (col < 0) continue;
      const variable = system.variables[p.variable];
      if (variable.kind !== 'pose') { this.hInv[col] = 1 / (turn * turn); continue; }
      let gi = this.grabVars.indexOf(p.variable);
      if (gi < 0) {
        gi = this.grabVars.length;
        this.grabVars.push(p.variable);
        if (this.grabCol.length <= gi) this.growGrabbed(2 * gi + 2);
        this.grabCol[gi] = col;
        this.grabH.fill(0, gi * 36, gi * 36 + 36);
        this.grabGrad.fill(0, gi * 6, gi * 6 + 6);
        for (let k = 0; k < 3; k++) this.grabH[gi * 36 + k * 7] = turn * turn;
        for (let k = 0; k < 6; k++) this.grabOf[col + k] = gi;
      }
      pullTerms(system, p, true);
      addPullTerms(this.grabH, 6, gi * 36, this.grabGrad, gi * 6);
    }
    for (let gi = 0; gi < this.grabVars.length; gi++) {
      if (!invert6(this.grabHinv, gi * 36, this.grabH, gi * 36)) {
        // a pull with no weight: damp the body like any other
        for (let k = 0; k < 6; k++) this.grabH[gi * 36 + k * 7] += damping * damping;
        invert6(this.grabHinv, gi * 36, this.grabH, gi * 36);
      }
    }
  }
  private growGrabbed(size: number): void {
    const col = new Int32Array(size); col.set(this.grabCol); this.grabCol = col;
    const H = new Float64Array(size * 36); H.set(this.grabH); this.grabH = H;
    const Hi = new Float64Array(size * 36); Hi.set(this.grabHinv); this.grabHinv = Hi;
    const gr = new Float64Array(size * 6); gr.set(this.grabGrad); this.grabGrad = gr;
  }
  /** out ← H⁻¹ x (length n). */
  private applyHinv(out: Float64Array, x: Float64Array): void {
    const n = this.g.n, hInv = this.hInv, grabOf = this.grabOf;
    for (let j = 0; j < n; j++) out[j] = grabOf[j] >= 0 ? 0 : x[j] * hInv[j];
    for (let gi = 0; gi < this.grabVars.length; gi++) {
      const c0 = this.grabCol[gi], Hi = this.grabHinv, b = gi * 36;
      for (let a = 0; a < 6; a++) {
        let s = 0;
        for (let q = 0; q < 6; q++) s += Hi[b + a * 6 + q] * x[c0 + q];
        out[c0 + a] = s;
      }
    }
  }

  pulledStep(u: Float64Array, pulls: readonly Pull[], options: SolveOptions): 'step' | 'still' | 'nan' {
    const p = this.pattern, J = p.J, ne = p.ne;
    const m = J.m, n = this.g.n, c = this.c, lam = this.lam, res = this.res, tmp = this.tmp, hg = this.hg;
    this.prepareObjective(pulls, options);
    // W = J H⁻¹, block by block (H⁻¹ is diagonal or 6 × 6 within one body's columns)
    const W = p.W ??= new Float64Array(J.vals.length);
    const vals = J.vals, cols = J.cols, colPtr = J.colPtr, rowPtr = J.rowPtr, valPtr = J.valPtr;
    const hInv = this.hInv, grabOf = this.grabOf, Hi = this.grabHinv, grabCol = this.grabCol, colScale = this.colScale;
    for (let k = 0; k < J.blocks; k++) {
      const c0 = colPtr[k], w = colPtr[k + 1] - c0, rows = rowPtr[k + 1] - rowPtr[k], q0 = valPtr[k];
      let grabbed = false;
      for (let t = 0; t < w; t++) {
        const col = cols[c0 + t];
        colScale[t] = hInv[col];
        if (grabOf[col] >= 0) grabbed = true;
      }
      if (!grabbed) {
        for (let r = 0, q = q0; r < rows; r++, q += w) for (let t = 0; t < w; t++) W[q + t] = vals[q + t] * colScale[t];
        continue;
      }
      for (let r = 0, q = q0; r < rows; r++, q += w) {
        for (let t = 0; t < w; t++) {
          const col = cols[c0 + t], gi = grabOf[col];
          if (gi < 0) { W[q + t] = vals[q + t] * colScale[t]; continue; }
          // (J H⁻¹)[i, col] = Σ_s J[i, s] H⁻¹[s, col] over the body's 6 columns
          const off = col - grabCol[gi], t0 = q + t - off, b = gi * 36 + off;
          let sum = 0;
          for (let s6 = 0; s6 < 6; s6++) sum += vals[t0 + s6] * Hi[b + s6 * 6];
          W[q + t] = sum;
        }
      }
    }
    ne.assemble(W);
    if (!ne.factor(SPARSE_REGULARISATION)) return 'nan';
    // gradient (grabbed columns) and H⁻¹ g
    tmp.fill(0);
    for (let gi = 0; gi < this.grabVars.length; gi++) for (let a = 0; a < 6; a++) tmp[this.grabCol[gi] + a] = this.grabGrad[gi * 6 + a];
    this.applyHinv(hg, tmp);
    // (J H⁻¹ Jᵀ + ε) λ = c − J H⁻¹ g ; u = −H⁻¹ (g + Jᵀ λ)
    J.mul(lam, hg);
    for (let i = 0; i < m; i++) lam[i] = c[i] - lam[i];
    ne.solve(lam);
    J.mulT(u, lam);
    for (let j = 0; j < n; j++) u[j] += tmp[j];
    this.applyHinv(tmp, u);
    for (let j = 0; j < n; j++) u[j] = -tmp[j];
    // refinement on the constraints: J du = −c − J u with du = −H⁻¹ Jᵀ dλ keeps u = −H⁻¹(g + Jᵀλ')
    for (let pass = 0; pass < REFINE_PASSES; pass++) {
      J.mul(res, u);
      for (let i = 0; i < m; i++) res[i] = c[i] + res[i];
      ne.solve(res);
      J.mulT(tmp, res);
      this.applyHinv(hg, tmp);
      let du = 0, uMax = 0;
      for (let j = 0; j < n; j++) { u[j] -= hg[j]; du = Math.max(du, Math.abs(hg[j])); uMax = Math.max(uMax, Math.abs(u[j])); }
      if (!(du > REFINE_TOLERANCE * uMax)) break;
    }
    return Number.isFinite(norm2(u, n)) ? 'step' : 'nan';
  }
}

/** out = A⁻¹ for a symmetric positive-definite 6 × 6 (row-major at offsets). False if not positive definite. */
function invert6(out: Float64Array, o: number, A: Float64Array, a: number): boolean {
  const Lf = inv6L;
  for (let i = 0; i < 36; i++) Lf[i] = A[a + i];
  let maxDiag = 0;
  for (let i = 0; i < 6; i++) maxDiag = Math.max(maxDiag, Lf[i * 7]);
  for (let j = 0; j < 6; j++) {
    let d = Lf[j * 7];
    for (let k = 0; k < j; k++) d -= Lf[j * 6 + k] * Lf[j * 6 + k];
    if (!(d > 1e-14 * maxDiag)) return false;
    d = Math.sqrt(d);
    Lf[j * 7] = d;
    for (let i = j + 1; i < 6; i++) {
      let s = Lf[i * 6 + j];
      for (let k = 0; k < j; k++) s -= Lf[i * 6 + k] * Lf[j * 6 + k];
      Lf[i * 6 + j] = s / d;
    }
  }
  for (let col = 0; col < 6; col++) {
    const x = inv6x;
    for (let i = 0; i < 6; i++) {
      let s = i === col ? 1 : 0;
      for (let k = 0; k < i; k++) s -= Lf[i * 6 + k] * x[k];
      x[i] = s / Lf[i * 7];
    }
    for (let i = 5; i >= 0; i--) {
      let s = x[i];
      for (let k = i + 1; k < 6; k++) s -= Lf[k * 6 + i] * x[k];
      x[i] = s / Lf[i * 7];
    }
    for (let i = 0; i < 6; i++) out[o + i * 6 + col] = x[i];
  }
  return true;
}
const inv6L = new Float64Array(36);
const inv6x = new Float64Array(6);

// ---------------------------------------------------------------------------------------
// Iterations

interface NewtonResult { converged: boolean; iterations: number; message?: string }

/** Plain constrained Newton: the minimum-norm step onto the constraints, with backtracking. */
function newton(system: System, g: Group, lin: Linear, saved: Float64Array, options: SolveOptions, tol: number): NewtonResult {
  const n = g.n, L = system.lengthScale;
  const maxIterations = options.maxIterations ?? 60;
  const trust = (options.trustRadius ?? 0.5) * L;
  // After a full Newton step that cut the residual a hundredfold (the quadratic regime,
  // where the Jacobian barely changed), the next step reuses its factorisation (a chord
  // step: no new QR). It must cut the residual at least fourfold in one go, or the
  // iteration takes a full Newton step after all
  let chordable = false;
  for (let it = 0; it <= maxIterations; it++) {
    const m = lin.fresh && lin.hasJ ? lin.m : lin.assemble(true);
    const cInf = maxAbs(lin.c, m);
    if (Number.isNaN(cInf)) return { converged: false, iterations: it, message: 'non-finite residual' };
    if (cInf <= tol) return { converged: true, iterations: it };
    if (it === maxIterations) break;
    const u = lin.u, uTrial = lin.uTrial, rowK = lin.rowK;
    if (chordable) {
      chordable = false;
      if (lin.chordStep(u) && chordTrial(system, g, lin, saved, u, m, tol)) continue;
    }
    // Row-normalise (rank decisions are then scale-free), then the step.
    lin.normalise();
    if (!lin.newtonStep(u)) return { converged: false, iterations: it, message: 'non-finite step' };
    // Trust region: no step moves any point of the model more than about `trust`.
    let uInf = 0;
    for (let j = 0; j < n; j++) uInf = Math.max(uInf, Math.abs(u[j]));
    if (!Number.isFinite(uInf)) return { converged: false, iterations: it, message: 'non-finite step' };
    if (uInf > trust) { const k = trust / uInf; for (let j = 0; j < n; j++) u[j] *= k; uInf = trust; }
    // Backtracking on the constraint norm.
    const phi0 = norm2(lin.c, m); // row-normalised; trial residuals are normalised alike
    saveState(system, g, saved);
    let alpha = 1, accepted = false, phi1 = Infinity;
    for (let attempt = 0; attempt < 16; attempt++) {
      for (let j = 0; j < n; j++) uTrial[j] = u[j] * alpha;
      applyStep(system, g, uTrial);
      const mt = lin.assembleTrial();
      const cTrial = lin.cTrial;
      phi1 = 0;
      for (let i = 0; i < mt; i++) { const x = cTrial[i] * rowK[i]; phi1 += x * x; }
      phi1 = Math.sqrt(phi1);
      if (Number.isFinite(phi1) && (phi1 < phi0 * (1 - 1e-4 * alpha) || phi1 <= tol)) { accepted = true; break; }
      restoreState(system, g, saved);
      alpha /= 2;
    }
    if (!accepted) return { converged: false, iterations: it + 1, message: 'step rejected: no descent (a singular position, or constraints that conflict)' };
    lin.acceptTrial();
    // (and only after a small step, for a last correction far below the model's size: the
    // Jacobian moved by ~|step|/L, so the chord step's drift along the free directions,
    // ~|step|·|correction|/L, is far below the tolerance and the solution reached is the
    // minimum-norm Newton's)
    chordable = alpha === 1 && uInf < 1e-3 * L && phi1 < 1e-2 * phi0 && phi1 < 1e-6 * L;
  }
  return { converged: false, iterations: maxIterations, message: `no convergence in ${maxIterations} iterations` };
}

/**
 * Try the chord step `u` (full length): accepted, and the trial made current, when it cuts
 * the row-scaled residual at least fourfold (or to the tolerance); otherwise the state is
 * put back and false returned.
 */
function chordTrial(system: System, g: Group, lin: Linear, saved: Float64Array, u: Float64Array, m: number, tol: number): boolean {
  const rowK = lin.rowK, c = lin.c;
  let phi0 = 0;
  for (let i = 0; i < m; i++) { const x = c[i] * rowK[i]; phi0 += x * x; }
  phi0 = Math.sqrt(phi0);
  saveState(system, g, saved);
  applyStep(system, g, u);
  const mt = lin.assembleTrial();
  let phi1 = 0;
  if (mt === m) {
    const cTrial = lin.cTrial;
    for (let i = 0; i < mt; i++) { const x = cTrial[i] * rowK[i]; phi1 += x * x; }
    phi1 = Math.sqrt(phi1);
    if (Number.isFinite(phi1) && (phi1 <= 0.25 * phi0 || phi1 <= tol)) { lin.acceptTrial(); return true; }
  }
  // the current slot still holds the raw rows at the restored state: a full step follows
  restoreState(system, g, saved);
  return false;
}

/**
 * A drag: feasible steps. Each outer iteration takes the step toward the pulls (in the
 * null space of the constraints, with the ranked damping), then restores the constraints by
 * plain Newton (minimum-norm, quadratic), and accepts the move only if the pulls' objective
 * fell; otherwise it halves the step. Iterates stay on the constraint manifold, so the
 * second-order constraint error a tangent step makes along a linkage never blocks the
 * drag, and a failed frame leaves the last feasible state. A pull the linkage cannot
 * follow further (past its reach) ends converged at the nearest reachable state.
 */
function pulledNewton(system: System, g: Group, lin: Linear, ws: Workspace, pulls: readonly Pull[], options: SolveOptions, tol: number): NewtonResult {
  const n = g.n, L = system.lengthScale;
  const maxIterations = options.maxIterations ?? 60;
  const trust = (options.trustRadius ?? 0.5) * L;
  const stepTol = 1e-10 * L;
  const restoreOptions: SolveOptions = { ...options, maxIterations: 20 };
  let iterations = 0;
  // Start feasible.
  const saved = ws.savedDrag;
  const first = newton(system, g, lin, ws.saved, restoreOptions, tol);
  iterations += first.iterations;
  if (!first.converged) return { converged: false, iterations, message: first.message ?? 'constraints do not hold' };
  for (let it = 0; it < maxIterations; it++) {
    if (!(lin.fresh && lin.hasJ)) lin.assemble(true);
    lin.normalise();
    const u = lin.u, uTrial = lin.uTrial;
    const step = lin.pulledStep(u, pulls, options);
    if (step === 'still') return { converged: true, iterations };
    if (step === 'nan') return { converged: false, iterations, message: 'non-finite step' };
    const obj0 = pullValue(system, pulls);
    let uInf = 0;
    for (let j = 0; j < n; j++) uInf = Math.max(uInf, Math.abs(u[j]));
    if (!Number.isFinite(uInf)) return { converged: false, iterations, message: 'non-finite step' };
    if (uInf <= stepTol) return { converged: true, iterations };
    if (uInf > trust) { const k = trust / uInf; for (let j = 0; j < n; j++) u[j] *= k; uInf = trust; }
    saveState(system, g, saved);
    let alpha = 1, accepted = false;
    for (let attempt = 0; attempt < 30; attempt++) {
      for (let j = 0; j < n; j++) uTrial[j] = u[j] * alpha;
      applyStep(system, g, uTrial);
      lin.fresh = false;
      const back = newton(system, g, lin, ws.saved, restoreOptions, tol);
      iterations += back.iterations;
      if (back.converged) {
        const obj1 = pullValue(system, pulls);
        if (obj1 < obj0 || (obj1 <= obj0 && alpha * uInf <= 1e3 * stepTol)) { accepted = true; break; }
      }
      restoreState(system, g, saved);
      lin.fresh = false;
      alpha /= 2;
      if (alpha * uInf <= stepTol) break;
    }
    iterations++;
    // No better feasible point along the step: the pull is as satisfied as it can be
    // (at the reach of the linkage, or converged).
    if (!accepted) return { converged: true, iterations };
    if (alpha * uInf <= stepTol) return { converged: true, iterations };
  }
  return { converged: true, iterations, message: `pull not settled in ${maxIterations} iterations` };
}

function saveState(system: System, g: Group, saved: Float64Array): void {
  let k = 0;
  for (const v of g.vars) {
    const variable = system.variables[v];
    const size = variable.kind === 'pose' ? 7 : 1;
    for (let i = 0; i < size; i++) saved[k++] = system.state[variable.offset + i];
  }
}
function restoreState(system: System, g: Group, saved: Float64Array): void {
  let k = 0;
  for (const v of g.vars) {
    const variable = system.variables[v];
    const size = variable.kind === 'pose' ? 7 : 1;
    for (let i = 0; i < size; i++) system.state[variable.offset + i] = saved[k++];
  }
}
const stepBuf = new Float64Array(6);
/** Apply a scaled step u (group columns) through each variable's retraction. */
function applyStep(system: System, g: Group, u: Float64Array): void {
  const L = system.lengthScale;
  for (let i = 0; i < g.vars.length; i++) {
    const variable: Variable = system.variables[g.vars[i]];
    const c0 = g.cols[i];
    if (variable.kind === 'pose') {
      stepBuf[0] = u[c0] / L; stepBuf[1] = u[c0 + 1] / L; stepBuf[2] = u[c0 + 2] / L;
      stepBuf[3] = u[c0 + 3]; stepBuf[4] = u[c0 + 4]; stepBuf[5] = u[c0 + 5];
      system.retractVariable(variable, stepBuf, 0);
    } else {
      system.state[variable.offset] += u[c0] / variable.scale;
    }
  }
}
