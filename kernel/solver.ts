/**
 * The solver: hard constraints c(x) = 0 (mates, joints, couplings, held coordinates, active
 * limits) and a ranked soft objective (drag pulls, the grabbed body's resistance to
 * turning, damping of every other free variable toward where it was). Each step satisfies
 * the linearised constraints and, among such steps, takes the one with the least
 * objective: a constrained Gauss–Newton/Levenberg–Marquardt in null-space form, so a long
 * lever can never turn tiny constraint slack into visible motion.
 *
 *   J δ = −c on the independent rows (pivoted QR of Jᵀ: rank, redundancy for free),
 *   δ = Q [y; z],  R₁₁ᵀ y = −c_P,  z = argmin objective in the null space Z = Q[:, r:].
 *
 * With no objective the step is the minimum-norm Newton step: the linkage moves the least.
 * The solve never throws on numerical trouble: it returns a report.
 */
import { PivotedQR, choleskySolve } from './linalg';
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
  /** Skip groups that already hold and are not pulled (default true). */
  skipSatisfied?: boolean;
}

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

interface Workspace {
  J: Float64Array;
  c: Float64Array;
  cTrial: Float64Array;
  local: Float64Array;
  localRes: Float64Array;
  qr: PivotedQR;
  y: Float64Array;
  u: Float64Array;
  uTrial: Float64Array;
  H: Float64Array;
  g: Float64Array;
  Hzz: Float64Array;
  rhs: Float64Array;
  saved: Float64Array;
  rowK: Float64Array;
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
  const n = g.n, m = Math.max(1, g.rowsMax);
  let stateSize = 0;
  for (const v of g.vars) stateSize += system.variables[v].kind === 'pose' ? 7 : 1;
  g.ws = {
    J: new Float64Array(m * n),
    c: new Float64Array(m),
    cTrial: new Float64Array(m),
    local: new Float64Array(Math.max(1, g.maxLocalDim)),
    localRes: new Float64Array(m),
    qr: new PivotedQR(n, m),
    y: new Float64Array(Math.max(n, m)),
    u: new Float64Array(n),
    uTrial: new Float64Array(n),
    H: new Float64Array(n * n),
    g: new Float64Array(n),
    Hzz: new Float64Array(n * n),
    rhs: new Float64Array(n),
    saved: new Float64Array(stateSize),
    rowK: new Float64Array(m),
  };
  return g.ws;
}

/** Relative tolerance on the row-normalised Jacobian below which a pivot counts as zero. */
export const RANK_TOLERANCE = 1e-9;

/**
 * Assemble the group's hard rows at the current state: c (m) and J (m × n, row-major,
 * scaled columns so every entry is dimensionless). Returns m.
 */
export function assembleGroup(system: System, g: Group, colOfVar: Int32Array, limits: readonly ScalarTargetBlock[], c: Float64Array, J: Float64Array | null, local: Float64Array, localRes: Float64Array): number {
  const n = g.n;
  let row = 0;
  const state = system.state;
  const addBlock = (blk: ResidualBlock, offsets: Int32Array) => {
    blk.evaluate(state, offsets, localRes, J ? local : null);
    const rows = blk.rows;
    for (let r = 0; r < rows; r++) c[row + r] = localRes[r];
    if (J) {
      let ld = 0;
      for (const v of blk.vars) ld += system.variables[v].dim;
      for (let r = 0; r < rows; r++) J.fill(0, (row + r) * n, (row + r + 1) * n);
      let lc = 0;
      for (const vid of blk.vars) {
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
    row += rows;
  };
  for (const b of g.blocks) addBlock(system.block(b), system.blockOffsets(b));
  for (const lim of limits) addBlock(lim, new Int32Array([system.variables[lim.vars[0]].offset]));
  return row;
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
    const groupPulls = pulls.length === 0 ? NO_PULLS : pulls.filter((p) => structure.groupOfVar[p.variable] === gi);
    const result = solveGroup(system, g, groupPulls, options, tol);
    if (!(result.maxResidual <= groupMax)) groupMax = result.maxResidual;
    iterations += result.iterations;
    if (result.solved) groupsSolved++;
    if (result.message && !message) message = result.message;
    atLimit.push(...result.atLimit);
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
  const converged = report.failed.length === 0 && Number.isFinite(report.maxResidual);
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
let frozenBuf = new Float64Array(16);

function solveGroup(system: System, g: Group, pulls: readonly Pull[], options: SolveOptions, tol: number): GroupResult {
  const ws = workspace(g, system);
  const colOfVar = colMapOf(system, g);
  const skip = options.skipSatisfied ?? true;
  const limits: ScalarTargetBlock[] = [];
  // Release nothing we carry over: each solve starts with no active limit; a limit that
  // the motion pushes past is clamped and the group re-solved (the active set).
  let m = assembleGroup(system, g, colOfVar, limits, ws.c, null, ws.local, ws.localRes);
  if (skip && pulls.length === 0 && maxAbs(ws.c, m) <= tol && !limitViolated(system, g, tol)) {
    return { iterations: 0, solved: false, atLimit: atLimitNames(system, g, tol), maxResidual: maxAbs(ws.c, m) };
  }
  let iterations = 0;
  let message: string | undefined;
  for (let pass = 0; pass <= g.limited.length; pass++) {
    const r = pulls.length > 0 ? pulledNewton(system, g, pulls, options, tol, limits, colOfVar) : newton(system, g, NO_PULLS, options, tol, limits, colOfVar);
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
  }
  m = assembleGroup(system, g, colOfVar, limits, ws.c, null, ws.local, ws.localRes);
  // the hard rows of the blocks come first; active limit rows after them are the active set's own
  const out: GroupResult = { iterations, solved: true, atLimit: atLimitNames(system, g, tol), maxResidual: maxAbs(ws.c, m - limits.length) };
  if (message) out.message = message;
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

const pullPoint = new Float64Array(3);
const pullR = new Float64Array(9);

/**
 * The soft objective of one step u (scaled columns): ½Σ|pull residuals|² + ½Σ w_k² u_k²,
 * with w the turn resistance on a grabbed body's turn and the damping on every other
 * free column. Damping acts on the step, not on the distance from the start, so it ranks
 * the motions (the linkage moves the least it must) without biasing where a pull ends:
 * at convergence u = 0 and only the pulls remain. Returns the pulls' value at the current
 * state; with H and grad, fills the Gauss–Newton Hessian and gradient at u = 0.
 */
function objective(system: System, g: Group, pulls: readonly Pull[], options: SolveOptions, colOfVar: Int32Array, H: Float64Array | null, grad: Float64Array | null): number {
  const n = g.n, L = system.lengthScale;
  const damping = options.damping ?? 1e-4, turn = options.turnResistance ?? 1e-2;
  let value = 0;
  if (H && grad) {
    H.fill(0, 0, n * n); grad.fill(0, 0, n);
    for (let i = 0; i < g.vars.length; i++) {
      const v = g.vars[i], c0 = g.cols[i], dim = system.variables[v].dim;
      const isGrabbed = pulls.some((p) => p.variable === v);
      for (let k = 0; k < dim; k++) {
        const w = isGrabbed ? (k < 3 ? turn : 0) : damping;
        H[(c0 + k) * n + c0 + k] += w * w;
      }
    }
  }
  for (const p of pulls) {
    const variable = system.variables[p.variable];
    const col = colOfVar[p.variable];
    const w = p.weight ?? 1;
    const off = variable.offset;
    rotationMatrix(pullR, system.state, off + 3);
    const R = pullR, lp = p.point;
    for (let i = 0; i < 3; i++) pullPoint[i] = R[3 * i] * lp[0] + R[3 * i + 1] * lp[1] + R[3 * i + 2] * lp[2] + system.state[off + i];
    const f0 = w * (pullPoint[0] - p.target[0]), f1 = w * (pullPoint[1] - p.target[1]), f2 = w * (pullPoint[2] - p.target[2]);
    value += 0.5 * (f0 * f0 + f1 * f1 + f2 * f2);
    if (!(H && grad) || col < 0) continue;
    // A (3×6, scaled): ∂P/∂ω_j / L = R(e_j × p)/L, ∂P/∂v_j = R e_j; all times w.
    const A = pullA;
    for (let i = 0; i < 3; i++) {
      const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2];
      A[i * 6] = w * (-r1 * lp[2] + r2 * lp[1]) / L;
      A[i * 6 + 1] = w * (r0 * lp[2] - r2 * lp[0]) / L;
      A[i * 6 + 2] = w * (-r0 * lp[1] + r1 * lp[0]) / L;
      A[i * 6 + 3] = w * r0; A[i * 6 + 4] = w * r1; A[i * 6 + 5] = w * r2;
    }
    const f = [f0, f1, f2];
    for (let a = 0; a < 6; a++) {
      let s = 0;
      for (let i = 0; i < 3; i++) s += A[i * 6 + a] * f[i];
      grad[col + a] += s;
      for (let b = 0; b < 6; b++) {
        let h = 0;
        for (let i = 0; i < 3; i++) h += A[i * 6 + a] * A[i * 6 + b];
        H[(col + a) * n + col + b] += h;
      }
    }
  }
  return value;
}
const pullA = new Float64Array(18);

interface NewtonResult { converged: boolean; iterations: number; message?: string }

function newton(system: System, g: Group, pulls: readonly Pull[], options: SolveOptions, tol: number, limits: readonly ScalarTargetBlock[], colOfVar: Int32Array): NewtonResult {
  const ws = workspace(g, system);
  const n = g.n, L = system.lengthScale;
  const maxIterations = options.maxIterations ?? 60;
  const trust = (options.trustRadius ?? 0.5) * L;
  const hasObjective = pulls.length > 0;
  const stepTol = 1e-9 * L;
  const { J, c, cTrial, qr, y, u, uTrial, H, g: grad, Hzz, rhs, saved } = ws;
  let lastStep = Infinity;
  for (let it = 0; it <= maxIterations; it++) {
    const m = assembleGroup(system, g, colOfVar, limits, c, J, ws.local, ws.localRes);
    const cInf = maxAbs(c, m);
    if (Number.isNaN(cInf)) return { converged: false, iterations: it, message: 'non-finite residual' };
    if (cInf <= tol && (!hasObjective || lastStep <= stepTol)) return { converged: true, iterations: it };
    if (it === maxIterations) break;
    // Row-normalise (rank decisions are then scale-free) and factor Jᵀ.
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += J[i * n + j] * J[i * n + j];
      const k = s > 0 ? 1 / Math.sqrt(s) : 1;
      ws.rowK[i] = k;
      if (k !== 1) { for (let j = 0; j < n; j++) J[i * n + j] *= k; c[i] *= k; }
    }
    const r = qr.factor(J, n, m, RANK_TOLERANCE);
    for (let k = 0; k < r; k++) rhs[k] = -c[qr.perm[k]];
    qr.solveRt(y, rhs);
    u.fill(0);
    for (let k = 0; k < r; k++) u[k] = y[k];
    if (hasObjective && r < n) {
      objective(system, g, pulls, options, colOfVar, H, grad);
      // H̃ = Qᵀ H Q, g̃ = Qᵀ g; solve H̃_zz z = −(g̃_z + H̃_zy y).
      for (let j = 0; j < n; j++) qr.applyQt(H, j * n); // columns of H (H symmetric, row = column)
      transposeInPlace(H, n);
      for (let j = 0; j < n; j++) qr.applyQt(H, j * n);
      qr.applyQt(grad);
      const k = n - r;
      for (let a = 0; a < k; a++) {
        let s = grad[r + a];
        for (let b = 0; b < r; b++) s += H[(r + a) * n + b] * y[b];
        rhs[a] = -s;
        for (let b = 0; b < k; b++) Hzz[a * k + b] = H[(r + a) * n + r + b];
      }
      if (choleskySolve(Hzz, rhs, k)) for (let a = 0; a < k; a++) u[r + a] = rhs[a];
    }
    qr.applyQ(u);
    // Trust region: no step moves any point of the model more than about `trust`.
    let uInf = 0;
    for (let j = 0; j < n; j++) uInf = Math.max(uInf, Math.abs(u[j]));
    if (!Number.isFinite(uInf)) return { converged: false, iterations: it, message: 'non-finite step' };
    if (uInf > trust) { const k = trust / uInf; for (let j = 0; j < n; j++) u[j] *= k; uInf = trust; }
    // Backtracking on the constraint norm (and the objective once the constraints hold).
    const phi0 = norm2(c, m); // row-normalised; trial residuals are normalised alike
    const obj0 = hasObjective ? objective(system, g, pulls, options, colOfVar, null, null) : 0;
    saveState(system, g, saved);
    let alpha = 1, accepted = false;
    for (let attempt = 0; attempt < 16; attempt++) {
      for (let j = 0; j < n; j++) uTrial[j] = u[j] * alpha;
      applyStep(system, g, uTrial);
      const mt = assembleGroup(system, g, colOfVar, limits, cTrial, null, ws.local, ws.localRes);
      let phi1 = 0;
      for (let i = 0; i < mt; i++) { const x = cTrial[i] * ws.rowK[i]; phi1 += x * x; }
      phi1 = Math.sqrt(phi1);
      if (Number.isFinite(phi1)) {
        if (phi1 < phi0 * (1 - 1e-4 * alpha) || phi1 <= tol) { accepted = true; }
        else if (hasObjective && phi1 <= Math.max(phi0, 1e3 * tol)) {
          const obj1 = objective(system, g, pulls, options, colOfVar, null, null);
          if (obj1 < obj0) accepted = true;
        }
      }
      if (accepted) break;
      restoreState(system, g, saved);
      alpha /= 2;
    }
    if (!accepted) return { converged: false, iterations: it + 1, message: 'step rejected: no descent (a singular position, or constraints that conflict)' };
    lastStep = uInf * alpha;
  }
  return { converged: false, iterations: maxIterations, message: `no convergence in ${maxIterations} iterations` };
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
function pulledNewton(system: System, g: Group, pulls: readonly Pull[], options: SolveOptions, tol: number, limits: readonly ScalarTargetBlock[], colOfVar: Int32Array): NewtonResult {
  const ws = workspace(g, system);
  const n = g.n, L = system.lengthScale;
  const maxIterations = options.maxIterations ?? 60;
  const trust = (options.trustRadius ?? 0.5) * L;
  const stepTol = 1e-10 * L;
  const restoreOptions: SolveOptions = { ...options, maxIterations: 20 };
  let iterations = 0;
  // Start feasible.
  const first = newton(system, g, NO_PULLS, restoreOptions, tol, limits, colOfVar);
  iterations += first.iterations;
  if (!first.converged) return { converged: false, iterations, message: first.message ?? 'constraints do not hold' };
  const { J, c, qr, y, u, uTrial, H, g: grad, Hzz, rhs, saved } = ws;
  for (let it = 0; it < maxIterations; it++) {
    const m = assembleGroup(system, g, colOfVar, limits, c, J, ws.local, ws.localRes);
    for (let i = 0; i < m; i++) {
      let s2 = 0;
      for (let j = 0; j < n; j++) s2 += J[i * n + j] * J[i * n + j];
      const k = s2 > 0 ? 1 / Math.sqrt(s2) : 1;
      if (k !== 1) { for (let j = 0; j < n; j++) J[i * n + j] *= k; c[i] *= k; }
    }
    const r = qr.factor(J, n, m, RANK_TOLERANCE);
    if (r >= n) return { converged: true, iterations }; // nothing left to move
    for (let k = 0; k < r; k++) rhs[k] = -c[qr.perm[k]];
    qr.solveRt(y, rhs);
    u.fill(0);
    for (let k = 0; k < r; k++) u[k] = y[k];
    const obj0 = objective(system, g, pulls, options, colOfVar, H, grad);
    for (let j = 0; j < n; j++) qr.applyQt(H, j * n);
    transposeInPlace(H, n);
    for (let j = 0; j < n; j++) qr.applyQt(H, j * n);
    qr.applyQt(grad);
    const kz = n - r;
    for (let a = 0; a < kz; a++) {
      let s2 = grad[r + a];
      for (let b = 0; b < r; b++) s2 += H[(r + a) * n + b] * y[b];
      rhs[a] = -s2;
      for (let b = 0; b < kz; b++) Hzz[a * kz + b] = H[(r + a) * n + r + b];
    }
    if (!choleskySolve(Hzz, rhs, kz)) return { converged: true, iterations };
    for (let a = 0; a < kz; a++) u[r + a] = rhs[a];
    qr.applyQ(u);
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
      const back = newton(system, g, NO_PULLS, restoreOptions, tol, limits, colOfVar);
      iterations += back.iterations;
      if (back.converged) {
        const obj1 = objective(system, g, pulls, options, colOfVar, null, null);
        if (obj1 < obj0 || (obj1 <= obj0 && alpha * uInf <= 1e3 * stepTol)) { accepted = true; break; }
      }
      restoreState(system, g, saved);
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

function transposeInPlace(A: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) { const t = A[i * n + j]; A[i * n + j] = A[j * n + i]; A[j * n + i] = t; }
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
