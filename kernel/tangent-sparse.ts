/**
 * The tangent of kernel/analysis.ts `tangentSpace` by a sparse route: the same q̇, from a
 * Cholesky of S = J Jᵀ in the solver's envelope storage (kernel/sparse.ts, rows in reverse
 * Cuthill–McKee order) instead of a dense pivoted QR of the whole Jacobian per state.
 *
 * It answers only where the dense route's rank decisions are clear, and returns null
 * otherwise (the caller then runs the dense QR, which decides rank):
 *  - J (row-normalised, scaled columns, as the dense route sees it) has no zero row, S
 *    factors, and S's smallest eigenvalue, estimated by inverse iteration, clears the
 *    dense rank threshold by RANK_MARGIN (so the pivoted QR would find rank m);
 *  - exactly as many targets as freedoms (nt = n − m);
 *  - g_q N is well conditioned: ‖R‖_F ‖R⁻¹‖_F (an upper bound of its condition number)
 *    is below 1/(TARGET_RANK_TOLERANCE·√k·RANK_MARGIN), so the dense target rank is nt.
 * Then the dense route says mobility n − m, target rank nt, status unique, every target
 * consistent; the rates agree with it up to rounding.
 *
 * The maths. p_t = P_N g_t = g_t − Jᵀ S⁻¹ J g_t (repeated while the normal equations'
 * rounding leaves more than rounding in the row space) is target t's gradient
 * projected on the null space N of J; ‖p_t‖ / ‖g_t‖ is its projection ratio. The columns
 * p_t are factored Q R (Gram–Schmidt, twice); Q lies in N and G Q = Rᵀ, so q̇_j = Q R⁻ᵀ e_j
 * has J q̇_j = 0 and G q̇_j = e_j. R's singular values are those of g_q N (Rᵀ R = P Pᵀ =
 * G Z Zᵀ Gᵀ). One pass of refinement on the residual of [J; G] q̇ = [0; e_j] follows.
 */
import { BlockRows, NormalEquations, blockAdjacency, reverseCuthillMcKee, type RowBlockPattern } from './sparse';
import { RANK_TOLERANCE, type Group } from './solver-groups';
import type { ResidualBlock, System } from './system';

/** Relative pivot tolerance of the dense route's QR of g_q N (the target rank). */
export const TARGET_RANK_TOLERANCE = 1e-9;
/**
 * How far above the dense route's rank thresholds the sparse route must find J and g_q N.
 * Large, because the smallest eigenvalue of S is estimated (inverse iteration from a
 * pseudo-random start overestimates it by about √m at worst in practice) and the dense
 * pivoted QR's pivots bound the smallest singular value only within √m.
 */
export const RANK_MARGIN = 1e4;
const INVERSE_ITERATIONS = 3;
/** Projection passes at most, and the row-space remainder ‖J p‖∞ / ‖g‖ that ends them. */
const PROJECTION_PASSES = 3;
const PROJECTION_TOLERANCE = 1e-14;

export interface SparseTangentResult {
  projectionRatios: number[];
  /** Per target: q̇ in scaled columns (the caller unscales, as on the dense route). */
  rates: Float64Array[];
}

interface Workspace {
  blocks: ResidualBlock[];
  offsets: Int32Array[];
  /** Per block: its local columns' compact column (−1: a fixed variable) and scale. */
  mapPtr: Int32Array;
  map: Int32Array;
  scale: Float64Array;
  J: BlockRows;
  ne: NormalEquations;
  local: Float64Array;
  localRes: Float64Array;
  /** State and length scale the factor belongs to, and whether J's rank was clear there. */
  stamp: Float64Array | null;
  stampL: number;
  clear: boolean;
  ym: Float64Array;
  xn: Float64Array;
  rn: Float64Array;
}
const workspaces = new WeakMap<Group, Workspace>();

function workspace(system: System, group: Group, colOfVar: Int32Array): Workspace {
  const cached = workspaces.get(group);
  if (cached) return cached;
  const n = group.n;
  const patternOf = (blk: ResidualBlock): RowBlockPattern => {
    const cols: number[] = [];
    for (const v of blk.vars) {
      const gc = colOfVar[v];
      if (gc >= 0) for (let d = 0; d < system.variables[v].dim; d++) cols.push(gc + d);
    }
    return { rows: blk.rows, cols };
  };
  const all = group.blocks.map((b) => patternOf(system.block(b)));
  const adjacency = blockAdjacency(all, n);
  const order = Array.from(reverseCuthillMcKee(all.length, adjacency.ptr, adjacency.adj), (k) => group.blocks[k]);
  const blocks = order.map((b) => system.block(b));
  const offsets = order.map((b) => system.blockOffsets(b));
  const J = new BlockRows(n, blocks.map(patternOf));
  const mapPtr = new Int32Array(blocks.length + 1);
  const map: number[] = [], scale: number[] = [];
  let widest = 1;
  blocks.forEach((blk, k) => {
    const c0 = J.colPtr[k], w = J.colPtr[k + 1] - c0;
    let ld = 0;
    for (const v of blk.vars) {
      const variable = system.variables[v], gc = colOfVar[v];
      ld += variable.dim;
      for (let d = 0; d < variable.dim; d++) {
        if (gc < 0) { map.push(-1); scale.push(0); continue; }
        let t = 0;
        while (t < w && J.cols[c0 + t] !== gc + d) t++;
        map.push(t);
        // 0 marks a turn column: its scale 1/L is read at evaluation (L may change)
        scale.push(variable.kind === 'pose' ? (d < 3 ? 0 : 1) : 1 / variable.scale);
      }
    }
    widest = Math.max(widest, ld * blk.rows);
    mapPtr[k + 1] = map.length;
  });
  const m = Math.max(1, J.m);
  const ws: Workspace = {
    blocks, offsets, mapPtr, map: Int32Array.from(map), scale: Float64Array.from(scale),
    J, ne: new NormalEquations(J), local: new Float64Array(widest), localRes: new Float64Array(m),
    stamp: null, stampL: NaN, clear: false,
    ym: new Float64Array(m), xn: new Float64Array(n), rn: new Float64Array(m),
  };
  workspaces.set(group, ws);
  return ws;
}

/**
 * Assemble J (scaled columns, rows normalised), factor S = J Jᵀ, and decide whether its rank
 * is clearly full. Cached per state: a state's tangents share one factor.
 */
function factorAt(system: System, ws: Workspace): boolean {
  const used = system.snapshotLength, state = system.state, L = system.lengthScale;
  let same = ws.stamp !== null && ws.stamp.length === used && ws.stampL === L;
  for (let i = 0; same && i < used; i++) if (ws.stamp![i] !== state[i]) same = false;
  if (same) return ws.clear;
  if (!ws.stamp || ws.stamp.length !== used) ws.stamp = new Float64Array(used);
  for (let i = 0; i < used; i++) ws.stamp[i] = state[i];
  ws.stampL = L;
  ws.clear = assembleAndFactor(system, ws);
  return ws.clear;
}

function assembleAndFactor(system: System, ws: Workspace): boolean {
  const J = ws.J, vals = J.vals, state = system.state, local = ws.local, localRes = ws.localRes;
  const invL = 1 / system.lengthScale;
  for (let k = 0; k < ws.blocks.length; k++) {
    const blk = ws.blocks[k];
    blk.evaluate(state, ws.offsets[k], localRes, local);
    const rows = J.rowPtr[k + 1] - J.rowPtr[k];
    const w = J.colPtr[k + 1] - J.colPtr[k], base = J.valPtr[k];
    vals.fill(0, base, base + rows * w);
    const m0 = ws.mapPtr[k], ld = ws.mapPtr[k + 1] - m0;
    for (let lc = 0; lc < ld; lc++) {
      const t = ws.map[m0 + lc];
      if (t < 0) continue;
      const s = ws.scale[m0 + lc] || invL;
      for (let r = 0; r < rows; r++) vals[base + r * w + t] += local[r * ld + lc] * s;
    }
    // rows normalised, as the dense route's rank decision sees them; a zero row is rank lost
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      for (let t = 0; t < w; t++) sum += vals[base + r * w + t] ** 2;
      if (!(sum > 0)) return false;
      const f = 1 / Math.sqrt(sum);
      for (let t = 0; t < w; t++) vals[base + r * w + t] *= f;
    }
  }
  const m = J.m;
  if (m === 0) return true;
  ws.ne.assemble(null);
  if (!ws.ne.factor(0)) return false;
  // λ_min(S) by inverse iteration from a fixed pseudo-random start (no structure of the
  // mechanism, such as left–right symmetry, can make it orthogonal to the weakest mode)
  const x = ws.ym;
  let seed = 12345;
  for (let i = 0; i < m; i++) { seed = (seed * 16807) % 2147483647; x[i] = seed / 2147483647 - 0.5; }
  let lambda = Infinity;
  for (let it = 0; it < INVERSE_ITERATIONS; it++) {
    let norm = 0;
    for (let i = 0; i < m; i++) norm += x[i] * x[i];
    norm = Math.sqrt(norm);
    for (let i = 0; i < m; i++) x[i] /= norm;
    ws.ne.solve(x);
    let grown = 0;
    for (let i = 0; i < m; i++) grown += x[i] * x[i];
    lambda = 1 / Math.sqrt(grown);
  }
  const sigma = RANK_MARGIN * RANK_TOLERANCE * Math.sqrt(m);
  return lambda >= sigma * sigma;
}

/**
 * v ← v − Jᵀ S⁻¹ J v (length n): the null-space part of v. Repeated while J v is above
 * rounding of ‖g‖ (the normal equations' error is κ(S)·ε; one pass is enough unless S is
 * poorly conditioned).
 */
function project(ws: Workspace, v: Float64Array, gNorm: number): void {
  const J = ws.J, y = ws.ym, w = ws.xn, m = J.m;
  for (let pass = 0; pass < PROJECTION_PASSES; pass++) {
    J.mul(y, v);
    if (pass > 0) {
      let largest = 0;
      for (let i = 0; i < m; i++) largest = Math.max(largest, Math.abs(y[i]));
      if (largest <= PROJECTION_TOLERANCE * gNorm) return;
    }
    ws.ne.solve(y);
    J.mulT(w, y);
    for (let j = 0; j < J.n; j++) v[j] -= w[j];
  }
}

/**
 * The tangent rates with unit rate of each target and zero rate of the others, or null when
 * the rank is not clear here (the dense route decides). `G` holds the targets' gradient
 * rows in scaled columns (nt × n, row-major), as analysis.ts assembles them.
 */
export function sparseTangent(system: System, group: Group, colOfVar: Int32Array, G: Float64Array, nt: number): SparseTangentResult | null {
  const n = group.n;
  const ws = workspace(system, group, colOfVar);
  const m = ws.J.m, k = n - m;
  if (nt !== k || nt === 0) return null;
  if (!factorAt(system, ws)) return null;
  // projections p_t (kept as the Q columns after Gram–Schmidt)
  const Q = new Float64Array(nt * n), R = new Float64Array(nt * nt);
  const projectionRatios: number[] = [];
  for (let t = 0; t < nt; t++) {
    const p = Q.subarray(t * n, (t + 1) * n);
    let gn = 0;
    for (let j = 0; j < n; j++) { p[j] = G[t * n + j]; gn += p[j] * p[j]; }
    project(ws, p, Math.sqrt(gn));
    let pn = 0;
    for (let j = 0; j < n; j++) pn += p[j] * p[j];
    projectionRatios.push(gn > 0 ? Math.sqrt(pn / gn) : 0);
    // Gram–Schmidt against the earlier columns, twice
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < t; s++) {
        const q = Q.subarray(s * n, (s + 1) * n);
        let h = 0;
        for (let j = 0; j < n; j++) h += q[j] * p[j];
        R[s * nt + t] += h;
        for (let j = 0; j < n; j++) p[j] -= h * q[j];
      }
    }
    let norm = 0;
    for (let j = 0; j < n; j++) norm += p[j] * p[j];
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return null;
    R[t * nt + t] = norm;
    for (let j = 0; j < n; j++) p[j] /= norm;
  }
  // condition of g_q N: ‖R‖_F ‖R⁻¹‖_F, with R⁻¹ column by column (upper triangular)
  const Rinv = new Float64Array(nt * nt);
  let rF = 0, riF = 0;
  for (let i = 0; i < nt * nt; i++) rF += R[i] * R[i];
  for (let c = 0; c < nt; c++) {
    for (let i = c; i >= 0; i--) {
      let s = i === c ? 1 : 0;
      for (let l = i + 1; l <= c; l++) s -= R[i * nt + l] * Rinv[l * nt + c];
      Rinv[i * nt + c] = s / R[i * nt + i];
    }
  }
  for (let i = 0; i < nt * nt; i++) riF += Rinv[i] * Rinv[i];
  if (!(Math.sqrt(rF * riF) * TARGET_RANK_TOLERANCE * Math.sqrt(k) * RANK_MARGIN < 1)) return null;
  // q̇_j = Q R⁻ᵀ e_j, then one refinement pass on [J; G] q̇ = [0; e_j]
  const rates: Float64Array[] = [];
  const a = new Float64Array(nt), rg = new Float64Array(nt), delta = new Float64Array(n);
  const J = ws.J, rJ = ws.rn;
  for (let jt = 0; jt < nt; jt++) {
    const qdot = new Float64Array(n);
    for (let s = 0; s < nt; s++) a[s] = Rinv[jt * nt + s]; // (R⁻ᵀ)[s, jt] = R⁻¹[jt, s]
    addQ(qdot, Q, a, n, nt);
    // correction δ = Jᵀ S⁻¹ r_J + Q R⁻ᵀ (r_G − G Jᵀ S⁻¹ r_J)
    J.mul(rJ, qdot);
    for (let i = 0; i < m; i++) rJ[i] = -rJ[i];
    ws.ne.solve(rJ);
    J.mulT(delta, rJ);
    for (let t = 0; t < nt; t++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += G[t * n + j] * (qdot[j] + delta[j]);
      rg[t] = (t === jt ? 1 : 0) - s;
    }
    for (let s = 0; s < nt; s++) {
      let sum = 0;
      for (let t = 0; t < nt; t++) sum += Rinv[t * nt + s] * rg[t];
      a[s] = sum;
    }
    for (let j = 0; j < n; j++) qdot[j] += delta[j];
    addQ(qdot, Q, a, n, nt);
    rates.push(qdot);
  }
  return { projectionRatios, rates };
}

/** out += Q a (Q: nt columns of length n). */
function addQ(out: Float64Array, Q: Float64Array, a: Float64Array, n: number, nt: number): void {
  for (let s = 0; s < nt; s++) {
    const as = a[s];
    if (as === 0) continue;
    for (let j = 0; j < n; j++) out[j] += Q[s * n + j] * as;
  }
}
