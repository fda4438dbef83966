/**
 * The vehicle's equilibrium by Newton on the whole constrained system at once: the pose
 * step δ and the multipliers λ of the hard rows (constraints and holds) from one sparse
 * solve of
 *
 *   [ K − H   −Jᵀ ] [ δ ]   [ −Q ]
 *   [   J      0  ] [ λ ] = [ −c ]
 *
 * (K = ∂Q/∂q of the force layer, H the constraints' curvature ∂(Jᵀλ)/∂q held from the last
 * solve, J and c the hard rows). newton.ts's reduced Newton needs a basis of the
 * constraints' null space at every iterate (a dense pivoted QR of the 144 × 121 Jacobian)
 * and a kinematic solve after every step; here the constraints are met by the same
 * Newton step as the forces, and the saddle matrix (232 unknowns for the sedan) is factored
 * in a fill-reducing order (kernel/lu-ordered.ts): the four corners couple only through
 * the body, so the factors stay nearly as sparse as the matrix.
 *
 * Redundant rows (a closed linkage's dependent rows) would make the matrix singular: the
 * independent ones are chosen once per model by a rank-revealing QR, and the converged
 * state is checked against every row. Stopping rule: every hard row within the kinematic
 * solver's tolerance and ‖D (Q − Jᵀλ)‖₂ ≤ tol with D the solver's column scales, which
 * bounds the reduced force |Nᵀ Q| newton.ts tests (N = D Z W with Z, W orthonormal and
 * J D Z = 0), so a state accepted here passes its test too.
 */
import { PivotedQR } from '../../../kernel/linalg';
import { OrderedLU } from '../../../kernel/lu-ordered';
import { RANK_TOLERANCE } from '../../../kernel/solver/solve';
import type { System, Variable } from '../../../kernel/system';
import type { VehicleModel } from './assembly';
import { curvatureAt, curvatureTensor, type CurvatureTensor } from './curvature-tensor';

export interface KktResult { converged: boolean; iterations: number; residual: number }

/** The kinematic solver's default constraint tolerance, relative to the length scale. */
const ROW_TOLERANCE = 1e-12;

/** Iterations beyond which the curvature is taken again at the solution (quadratic convergence from a state nearby takes 3–4). */
const SLOW = 5;

/**
 * A model's first solve goes without the curvature (H = 0: linear convergence, a sixth of
 * the force left a step on the sedan) until this iteration, then takes it at the iterate:
 * the rows' second derivatives cost as much as twenty iterations, and a solve from a state
 * near its solution (a drag's next frame, on a new model) is done before.
 */
const LAZY = 12;

/**
 * A step on the matrix factored at an earlier iterate (modified Newton) is taken while the
 * force left falls at least this much per step; the matrix is built and factored afresh
 * otherwise. Near the solution the iterates differ too little for the matrix to change.
 */
const REUSE = 0.05;

export interface Workspace {
  /** The system structure it fits (structureOf); a workspace is one model's (kept per model, never shared). */
  signature: string;
  version: number;
  n: number;
  /** Non-fixed variables and their first tangent slot; each variable's slot or −1. */
  vars: Variable[];
  slot: Int32Array;
  colOfVar: Int32Array;
  /** Column scales: a turn's 1/L, a shift's 1, a scalar's 1/scale. */
  D: Float64Array;
  /** Hard blocks (enabled constraints and drivers with a free variable), their rows' first index. */
  blocks: number[];
  rowStart: Int32Array;
  rows: number;
  /** Selected (independent) row per hard row, or −1; their count and row scales: the bound model's own (ModelOwn). */
  pick: Int32Array;
  r: number;
  rowScale: Float64Array;
  Q: Float64Array; K: Float64Array; c: Float64Array; J: Float64Array; mu: Float64Array;
  A: Float64Array; x: Float64Array; step: Float64Array;
  res: Float64Array; local: Float64Array;
  lu: OrderedLU;
  v0: Float64Array;
  /** The bound model's own curvature and λ; H(λ). */
  own: ModelOwn;
  H: Float64Array;
  /** The model whose solve the LU's factors are from (null: none, or another's), and their force scale. */
  factorsOf: VehicleModel | null;
  factorScale: number;
  /** Nonzeros of J (row-major index, ws.jCount of them) and of the saddle matrix (ws.aCount); g: scratch of n. */
  jIdx: Int32Array; jCount: number;
  aIdx: Int32Array; aCount: number;
  g: Float64Array;
}

const workspaces = new WeakMap<VehicleModel, Workspace>();

/**
 * The workspace of a model whose last solve here converged, with its factors and multipliers
 * (the rates of that state: src/live/vehicle/kept-tangent.ts); null otherwise. Read only.
 */
export function solvedWorkspace(m: VehicleModel): Workspace | null {
  const ws = workspaces.get(m);
  return ws && ws.factorsOf === m && ws.own.hasLambda && ws.version === m.dyn.system.version ? ws : null;
}

/**
 * A model's own: the rows' curvature (taken at the first state it solved), λ per hard row of
 * its last solve (none yet: H = 0), and its independent rows (pick, r: its own QR's) with their
 * scales 1/‖row‖ at the first state it solved (rowScale). Rows, scales or LU pivots taken from
 * another model of the structure (as re-built cars once shared them) changed the last bits of
 * this one's results (the sedan's understeer gradient by 1e-14 after a sedan with a moved pickup).
 */
interface ModelOwn {
  signature: string; tensor: CurvatureTensor | null; lambda: Float64Array; hasLambda: boolean;
  pick: Int32Array; rowScale: Float64Array; r: number;
}
const owns = new WeakMap<VehicleModel, ModelOwn>();

/**
 * Newton on the saddle system, the curvature H(λ) summed at each iteration's multipliers
 * (the first iteration's: the last solve's, or none); false (state left where it stopped)
 * when it does not converge in `maxIterations`.
 */
export function kktNewton(m: VehicleModel, tolerance: number, maxIterations = 25): KktResult {
  const sys = m.dyn.system;
  const ws = workspace(m);
  const { n, r, D, mu, A, x, step, H } = ws;
  const own = ws.own;
  // the curvature of an earlier solve's state, or none yet (taken when a solve without it is slow)
  const stale = own.tensor !== null;
  if (own.tensor && own.hasLambda) curvatureAt(own.tensor, own.lambda, H); else H.fill(0);
  const rowTol = ROW_TOLERANCE * sys.lengthScale;
  const N = n + r;
  // this model's last factors (a sweep's previous state, a re-solve), with their force scale: a
  // first step on them, refactored as soon as they contract the force too little (REUSE)
  let factored = ws.factorsOf === m && own.hasLambda;
  let residual = Infinity, last = Infinity, start = Infinity, s = factored ? ws.factorScale : 0;
  for (let it = 0; it <= maxIterations; it++) {
    // the force elements' stiffness only where the matrix will be rebuilt (the first iteration; else assembled below)
    m.dyn.forces.assemble(ws.v0, 0, ws.Q, factored ? null : ws.K, null);
    const cmax = evaluateRows(sys, ws);
    if (it === 0) {
      if (s === 0) s = forceScale(ws);
      // μ = s R⁻¹ λ: the last solve's multipliers, or none
      for (let row = 0; row < ws.rows; row++) { const p = ws.pick[row]; if (p >= 0) mu[p] = ws.own.hasLambda ? (s * ws.own.lambda[row]) / ws.rowScale[p] : 0; }
    }
    last = residual;
    residual = forceResidual(ws, s);
    if (it > 0 || ws.own.hasLambda) {
      if (residual <= tolerance && cmax <= rowTol) {
        // a slow convergence says the rows' curvature was taken far from here: take it again
        if (stale && it > SLOW) own.tensor = curvatureTensor(sys, ws.blocks, ws.rowStart, ws.colOfVar, n);
        return { converged: true, iterations: it, residual };
      }
      if (!(residual < 1e6 * Math.max(start, tolerance))) break; // diverging (or NaN)
      if (it === 1) start = residual;
    }
    // a fresh matrix unless the last step contracted the force well
    if (!factored || !(residual <= REUSE * last)) {
      if (factored) m.dyn.forces.assemble(ws.v0, 0, ws.Q, ws.K, null);
      if (it >= LAZY && !own.tensor) own.tensor = curvatureTensor(sys, ws.blocks, ws.rowStart, ws.colOfVar, n);
      if (it > 0 && own.tensor) curvatureAt(own.tensor, own.lambda, H);
      if (!buildSaddle(ws, s) || !ws.lu.factor(A, N, 1e-15, ws.aIdx, ws.aCount)) { ws.factorsOf = null; break; }
      factored = true; ws.factorsOf = m; ws.factorScale = s;
    }
    // the increments: [δ; Δμ] from the force left, −s (D Q − Ĵᵀ μ), and the rows' −R c
    for (let i = 0; i < n; i++) x[i] = -s * ws.g[i];
    for (let a = 0; a < r; a++) x[n + a] = -ws.c[a];
    ws.lu.solve(x);
    for (let i = 0; i < r; i++) mu[i] += x[n + i];
    for (let row = 0; row < ws.rows; row++) { const p = ws.pick[row]; ws.own.lambda[row] = p < 0 ? 0 : (ws.rowScale[p] * mu[p]) / s; }
    ws.own.hasLambda = true;
    for (let j = 0; j < n; j++) step[j] = D[j] * x[j];
    for (let v = 0; v < ws.vars.length; v++) sys.retractVariable(ws.vars[v], step, ws.slot[v]);
  }
  return { converged: false, iterations: maxIterations, residual };
}

/** ‖D (Q − Jᵀλ)‖₂ with λ of the last solve (μ = s R⁻¹ λ in the scaled rows), over J's nonzeros. */
function forceResidual(ws: Workspace, s: number): number {
  const { n, D, Q, J, mu, g, jIdx } = ws;
  for (let j = 0; j < n; j++) g[j] = D[j] * Q[j];
  for (let e = 0; e < ws.jCount; e++) { const idx = jIdx[e], p = (idx / n) | 0; g[idx - p * n] -= (J[idx] * mu[p]) / s; }
  let sum = 0;
  for (let j = 0; j < n; j++) sum += g[j] * g[j];
  return Math.sqrt(sum);
}

/** The force rows' scale: 1 / max |D (K − H) D|, so that they meet the unit-size constraint rows. */
function forceScale(ws: Workspace): number {
  const { n, K, H, D } = ws;
  let big = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) big = Math.max(big, Math.abs((K[i * n + j] - H[i * n + j]) * D[i] * D[j]));
  return big > 0 ? 1 / big : 1;
}

/**
 * The saddle matrix [s D(K − H)D, −(RJD)ᵀ; RJD, 0] into ws.A, listing its nonzeros (ws.aIdx)
 * for the refactor; the last build's entries are zeroed first, so A is whole for a pivoting
 * factor too. False for a non-finite entry.
 */
function buildSaddle(ws: Workspace, s: number): boolean {
  const { n, r, D, K, H, J, A, aIdx, jIdx } = ws;
  const N = n + r;
  for (let e = 0; e < ws.aCount; e++) A[aIdx[e]] = 0;
  let nz = 0, finite = true;
  for (let i = 0; i < n; i++) {
    const si = s * D[i];
    for (let j = 0; j < n; j++) {
      const k = K[i * n + j] - H[i * n + j];
      if (k === 0) continue;
      const idx = i * N + j;
      A[idx] = si * k * D[j]; aIdx[nz++] = idx;
      if (!Number.isFinite(k)) finite = false;
    }
  }
  for (let e = 0; e < ws.jCount; e++) {
    const idx = jIdx[e], a = (idx / n) | 0, j = idx - a * n, v = J[idx];
    const lower = (n + a) * N + j, upper = j * N + n + a;
    A[lower] = v; A[upper] = -v; aIdx[nz++] = lower; aIdx[nz++] = upper;
  }
  ws.aCount = nz;
  return finite;
}

/** The selected rows' residuals and scaled Jacobian (R c, R J D) into ws.c and ws.J; returns the largest |row| over all hard rows. */
function evaluateRows(sys: System, ws: Workspace): number {
  const { n, D, c, J, pick, rowScale, res, local, jIdx } = ws;
  for (let e = 0; e < ws.jCount; e++) J[jIdx[e]] = 0;
  let cmax = 0, nz = 0;
  for (let bi = 0; bi < ws.blocks.length; bi++) {
    const b = ws.blocks[bi], blk = sys.block(b), ld = sys.blockLocalDim(b), r0 = ws.rowStart[bi];
    sys.evaluateBlock(b, res, local);
    for (let row = 0; row < blk.rows; row++) {
      const a = Math.abs(res[row]);
      if (!(a <= cmax)) cmax = Number.isNaN(a) ? Infinity : a;
      const p = pick[r0 + row];
      if (p < 0) continue;
      const sc = rowScale[p];
      c[p] = sc * res[row];
      let lc = 0;
      for (const vid of blk.vars) {
        const v = sys.variables[vid], col = ws.colOfVar[vid];
        if (col >= 0) {
          for (let k = 0; k < v.dim; k++) {
            const x = sc * local[row * ld + lc + k] * D[col + k];
            if (x !== 0) { J[p * n + col + k] = x; jIdx[nz++] = p * n + col + k; }
          }
        }
        lc += v.dim;
      }
    }
  }
  ws.jCount = nz;
  return cmax;
}

/** A model's workspace (its own, never another model's): layout, scales, hard blocks, its rows and their scales (at its first solved state), its LU. */
function workspace(m: VehicleModel): Workspace {
  const sys = m.dyn.system;
  const cached = workspaces.get(m);
  if (cached && cached.version === sys.version) return cached;
  const { vars, slots, colOfVar, n } = layoutOf(sys);
  const blocks: number[] = [], starts: number[] = [];
  let rows = 0, maxLocal = 1, maxRows = 1;
  for (let b = 0; b < sys.blockCount; b++) {
    const blk = sys.block(b);
    if (!sys.blockEnabled(b) || (blk.kind !== 'constraint' && blk.kind !== 'driver')) continue;
    if (!blk.vars.some((v) => !sys.variables[v].fixed)) continue;
    blocks.push(b); starts.push(rows); rows += blk.rows;
    maxLocal = Math.max(maxLocal, sys.blockLocalDim(b) * blk.rows); maxRows = Math.max(maxRows, blk.rows);
  }
  const signature = structureOf(sys, blocks, m.dyn.forces.size);
  let own = owns.get(m), first = false;
  if (!own || own.signature !== signature) {
    // all rows picked at unit scales until chooseRows below
    own = { signature, tensor: null, lambda: new Float64Array(rows), hasLambda: false, pick: new Int32Array(rows).map((_, i) => i), rowScale: new Float64Array(rows).fill(1), r: rows };
    owns.set(m, own); first = true;
  }
  // every model its own arrays, row choice and LU order and pivots: a model's solves must not depend on
  // what was solved before it (another car's pivots or rows moved results in their last bits)
  const ws: Workspace = {
    signature, version: sys.version, n, vars, slot: Int32Array.from(slots), D: scalesOf(sys, vars, slots, n), blocks, rowStart: Int32Array.from(starts), rows,
    pick: own.pick, r: own.r, rowScale: own.rowScale,
    Q: new Float64Array(n), K: new Float64Array(n * n), c: new Float64Array(rows), J: new Float64Array(rows * n), mu: new Float64Array(rows),
    A: new Float64Array(0), x: new Float64Array(0), step: new Float64Array(n), res: new Float64Array(maxRows), local: new Float64Array(maxLocal),
    lu: new OrderedLU(1), v0: new Float64Array(n), colOfVar, // sized below, once the rows are chosen
    own, H: new Float64Array(n * n),
    jIdx: new Int32Array(rows * n), jCount: 0, aIdx: new Int32Array(0), aCount: 0, g: new Float64Array(n),
    factorsOf: null, factorScale: 0,
  };
  if (first) { chooseRows(sys, ws); own.r = ws.r; }
  const N = n + ws.r;
  if (ws.x.length !== N) {
    ws.A = new Float64Array(N * N); ws.x = new Float64Array(N); ws.aIdx = new Int32Array(N * N); ws.aCount = 0;
    ws.lu = new OrderedLU(N, true); ws.factorsOf = null;
  }
  workspaces.set(m, ws);
  return ws;
}

function layoutOf(sys: System): { vars: Variable[]; slots: number[]; colOfVar: Int32Array; n: number } {
  const vars: Variable[] = [], slots: number[] = [];
  const colOfVar = new Int32Array(sys.variables.length).fill(-1);
  let n = 0;
  for (const v of sys.variables) if (!v.fixed) { vars.push(v); slots.push(n); colOfVar[v.id] = n; n += v.dim; }
  return { vars, slots, colOfVar, n };
}

/** The solver's column scales: a turn's 1/L, a shift's 1, a scalar's 1/scale. */
function scalesOf(sys: System, vars: readonly Variable[], slots: readonly number[], n: number): Float64Array {
  const D = new Float64Array(n), L = sys.lengthScale;
  vars.forEach((v, i) => {
    const c0 = slots[i];
    if (v.kind === 'pose') { D[c0] = D[c0 + 1] = D[c0 + 2] = 1 / L; D[c0 + 3] = D[c0 + 4] = D[c0 + 5] = 1; } else D[c0] = 1 / v.scale;
  });
  return D;
}

/** What makes two systems' workspaces interchangeable: variables, hard blocks (owner, kind, rows, variables) and the force layout. */
function structureOf(sys: System, blocks: readonly number[], forceSize: number): string {
  const parts: string[] = [String(forceSize)];
  for (const v of sys.variables) parts.push(`${v.kind}${v.fixed ? 'F' : ''}`);
  for (const b of blocks) { const blk = sys.block(b); parts.push(`${blk.owner}:${blk.kind}:${blk.rows}:${blk.vars.join(',')}`); }
  return parts.join('|');
}

/** Keep the independent hard rows (pivoted QR of the row-normalised Jacobian's transpose) and their scales 1/‖row‖. */
function chooseRows(sys: System, ws: Workspace): void {
  const { n, rows } = ws;
  evaluateRows(sys, ws); // all rows picked, unit scales
  const norms = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let t = 0;
    for (let j = 0; j < n; j++) t += ws.J[i * n + j] ** 2;
    norms[i] = Math.sqrt(t);
    if (t > 0) for (let j = 0; j < n; j++) ws.J[i * n + j] /= norms[i];
  }
  const qr = new PivotedQR(n, rows);
  const rank = qr.factor(ws.J, n, rows, RANK_TOLERANCE);
  const chosen = Array.from(qr.perm.subarray(0, rank)).sort((a, b) => a - b);
  ws.pick.fill(-1);
  chosen.forEach((row, p) => { ws.pick[row] = p; ws.rowScale[p] = norms[row] > 0 ? 1 / norms[row] : 1; });
  ws.r = rank;
}

