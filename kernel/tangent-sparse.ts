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
 *  - g_q N is well conditioned: ‖T‖_F ‖T⁻¹‖_F of its QR (an upper bound of its condition
 *    number) is below 1/(TARGET_RANK_TOLERANCE·√k·RANK_MARGIN), so the dense target rank is nt.
 * Then the dense route says mobility n − m, target rank nt, status unique, every target
 * consistent; the rates agree with it up to rounding.
 *
 * The maths. P_N g = g − Jᵀ S⁻¹ J g projects a vector on the null space N of J. Once per
 * state, the first caller's target gradients projected on N (which span N when the
 * targets fix the motion) are orthonormalised into a basis Z of N, cached with the factor.
 * Then, as on the dense route, M = G Zᵀ (k × k), the projection ratio of target t is
 * ‖M_t‖ / ‖g_t‖, and q̇_j = Zᵀ M⁻¹ e_j: J q̇_j = 0 and G q̇_j = e_j. M's singular values are
 * those of g_q N in any orthonormal basis.
 */
import { BlockRows, NormalEquations, blockAdjacency, reverseCuthillMcKee } from './sparse';
import { blockColumnMaps, blockPattern } from './block-columns';
import { RANK_TOLERANCE, type Group } from './solver/groups';
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
const INVERSE_ITERATIONS = 2;
/** Projection passes at most, and the largest |J z| of a unit basis vector z that ends them. */
const PROJECTION_PASSES = 4;
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
  /**
   * Orthonormal bases of N at that state (k rows of n), each with the target gradients it
   * was built from (k rows of n, in `canonicalRows` order): a tangent's rates depend on its
   * basis to rounding, so each set of targets keeps its own, whatever was asked before it.
   */
  bases: { G: Float64Array; Z: Float64Array }[];
  /** canonicalRows' order of the last call's k rows (grown as needed: no allocation per state). */
  rows: Int32Array;
  ym: Float64Array;
  xn: Float64Array;
}
const workspaces = new WeakMap<Group, Workspace>();

function workspace(system: System, group: Group, colOfVar: Int32Array): Workspace {
  const cached = workspaces.get(group);
  if (cached) return cached;
  const n = group.n;
  const patternOf = (blk: ResidualBlock) => blockPattern(system, colOfVar, blk);
  const all = group.blocks.map((b) => patternOf(system.block(b)));
  const adjacency = blockAdjacency(all, n);
  const order = Array.from(reverseCuthillMcKee(all.length, adjacency.ptr, adjacency.adj), (k) => group.blocks[k]);
  const blocks = order.map((b) => system.block(b));
  const offsets = order.map((b) => system.blockOffsets(b));
  const J = new BlockRows(n, blocks.map(patternOf));
  // 0 marks a turn column: its scale 1/L is read at evaluation (L may change)
  const { mapPtr, map, scale, widest } = blockColumnMaps(system, colOfVar, blocks, J, 0);
  const m = Math.max(1, J.m);
  const ws: Workspace = {
    blocks, offsets, mapPtr, map, scale,
    J, ne: new NormalEquations(J), local: new Float64Array(widest), localRes: new Float64Array(m),
    stamp: null, stampL: NaN, clear: false, bases: [], rows: new Int32Array(8),
    ym: new Float64Array(m), xn: new Float64Array(n),
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
  ws.bases.length = 0;
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

/** v ← v − Jᵀ S⁻¹ J v (length n), `passes` times: the null-space part of v. */
function project(ws: Workspace, v: Float64Array, passes: number): void {
  const J = ws.J, y = ws.ym, w = ws.xn;
  for (let pass = 0; pass < passes; pass++) {
    J.mul(y, v);
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
  const Z = nullBasis(ws, G, n, k);
  if (!Z) return null;
  // M = G Zᵀ (k × k): each target's gradient in the basis; its norm over ‖g‖ is the ratio
  const M = new Float64Array(k * k);
  const projectionRatios = projectTargets(G, k, Z, k, n, M, k, 1);
  // M = U T (Gram–Schmidt on M's columns, twice), so M⁻¹ e_j = T⁻¹ (row j of U)
  const U = new Float64Array(k * k), T = new Float64Array(k * k);
  if (!gramSchmidtColumns(M, k, U, T)) return null;
  // condition of g_q N: ‖T‖_F ‖T⁻¹‖_F bounds σ_max/σ_min (T upper triangular)
  const Tinv = new Float64Array(k * k);
  let tF = 0, tiF = 0;
  for (let i = 0; i < k * k; i++) tF += T[i] * T[i];
  for (let c = 0; c < k; c++) {
    for (let i = c; i >= 0; i--) {
      let sum = i === c ? 1 : 0;
      for (let l = i + 1; l <= c; l++) sum -= T[i * k + l] * Tinv[l * k + c];
      Tinv[i * k + c] = sum / T[i * k + i];
    }
  }
  for (let i = 0; i < k * k; i++) tiF += Tinv[i] * Tinv[i];
  if (!(Math.sqrt(tF * tiF) * TARGET_RANK_TOLERANCE * Math.sqrt(k) * RANK_MARGIN < 1)) return null;
  // q̇_j = Zᵀ α_j with α_j = T⁻¹ Uᵀ e_j
  const rates: Float64Array[] = [];
  const alpha = new Float64Array(k);
  for (let jt = 0; jt < k; jt++) {
    for (let i = 0; i < k; i++) {
      let sum = 0;
      for (let l = i; l < k; l++) sum += Tinv[i * k + l] * U[jt * k + l];
      alpha[i] = sum;
    }
    const qdot = new Float64Array(n);
    for (let a = 0; a < k; a++) {
      const al = alpha[a];
      if (al !== 0) for (let j = 0; j < n; j++) qdot[j] += Z[a * n + j] * al;
    }
    rates.push(qdot);
  }
  return { projectionRatios, rates };
}

/**
 * An orthonormal basis of N (k rows of length n) at the factored state, built from these
 * targets' gradients projected on N (which span N when the targets fix the motion), taken in
 * a fixed order (`canonicalRows`), and cached with the factor for the same set of targets (a
 * sweep's state asks two: the derivatives' and the steering response's, so an axle's fully
 * evaluated state builds two bases). A basis built from other rows spans the same N but gives rates that differ
 * in the last bits, so the first caller's basis made a tangent depend on what was evaluated
 * before it at the state (the loads' rates after or without the sweep's steering response).
 * Two passes leave the basis on N to rounding (one leaves the normal equations' κ(S)·ε); a
 * poorly conditioned S shows as ‖J z‖ above rounding: then all again, one more pass each.
 * Null when the projections do not span N.
 */
function nullBasis(ws: Workspace, G: Float64Array, n: number, k: number): Float64Array | null {
  if (ws.rows.length < k) ws.rows = new Int32Array(2 * k);
  const rows = canonicalRows(ws.rows, G, n, k);
  for (const b of ws.bases) if (sameRows(b.G, G, rows, n, k)) return b.Z;
  const Gc = new Float64Array(k * n);
  for (let t = 0; t < k; t++) Gc.set(G.subarray(rows[t] * n, (rows[t] + 1) * n), t * n);
  const Z = new Float64Array(k * n), R = new Float64Array(k * k);
  for (let passes = 2; passes <= PROJECTION_PASSES; passes++) {
    if (!projectAndFactor(ws, Gc, n, k, passes, Z, R)) return null;
    if (offNullSpace(ws, Z, n, k) <= PROJECTION_TOLERANCE) {
      if (ws.bases.length === MAX_BASES) ws.bases.shift();
      ws.bases.push({ G: Gc, Z });
      return Z;
    }
  }
  return null;
}

/** Bases kept per state: the sets of targets a state is asked for (a sweep's one or two, a few more elsewhere). */
const MAX_BASES = 4;

/**
 * The order the basis takes G's k rows in (into `rows`), whatever order the caller listed its
 * targets in: by their first non-zero column, then their first differing value (equal rows in
 * either order give the same basis). A sweep's derivative targets (hubs, then rack) keep their
 * order. A stable insertion sort: k is a handful, and it runs at every tangent asked.
 */
function canonicalRows(rows: Int32Array, G: Float64Array, n: number, k: number): Int32Array {
  for (let t = 0; t < k; t++) {
    let i = t;
    while (i > 0 && rowOrder(G, n, rows[i - 1], t) > 0) { rows[i] = rows[i - 1]; i--; }
    rows[i] = t;
  }
  return rows;
}

/** Negative when G's row a goes before row b (its first differing entry non-zero where b's is zero, or smaller), 0 when equal. */
function rowOrder(G: Float64Array, n: number, a: number, b: number): number {
  for (let j = 0; j < n; j++) {
    const x = G[a * n + j], y = G[b * n + j];
    if (x !== y) return x === 0 ? 1 : y === 0 ? -1 : x - y;
  }
  return 0;
}

/** Whether `kept` (k rows of n) are G's rows in the order `rows`, bit for bit. */
function sameRows(kept: Float64Array, G: Float64Array, rows: Int32Array, n: number, k: number): boolean {
  if (kept.length !== k * n) return false;
  for (let t = 0; t < k; t++) {
    const from = rows[t] * n, to = t * n;
    for (let j = 0; j < n; j++) if (kept[to + j] !== G[from + j]) return false;
  }
  return true;
}

/** M = U T for a k × k row-major M: U orthonormal columns, T upper triangular. False if singular. */
function gramSchmidtColumns(M: Float64Array, k: number, U: Float64Array, T: Float64Array): boolean {
  for (let c = 0; c < k; c++) {
    for (let i = 0; i < k; i++) U[i * k + c] = M[i * k + c];
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < c; s++) {
        let h = 0;
        for (let i = 0; i < k; i++) h += U[i * k + s] * U[i * k + c];
        T[s * k + c] += h;
        for (let i = 0; i < k; i++) U[i * k + c] -= h * U[i * k + s];
      }
    }
    let norm = 0;
    for (let i = 0; i < k; i++) norm += U[i * k + c] * U[i * k + c];
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return false;
    T[c * k + c] = norm;
    for (let i = 0; i < k; i++) U[i * k + c] /= norm;
  }
  return true;
}

/**
 * p_t = P_N g_t (`passes` projections each) and their Q R (Gram–Schmidt, twice), Q in
 * place of the p_t. False when a projection vanishes.
 */
function projectAndFactor(ws: Workspace, G: Float64Array, n: number, nt: number, passes: number, Q: Float64Array, R: Float64Array): boolean {
  R.fill(0);
  for (let t = 0; t < nt; t++) {
    const p = Q.subarray(t * n, (t + 1) * n);
    for (let j = 0; j < n; j++) p[j] = G[t * n + j];
    project(ws, p, passes);
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < t; s++) {
        const q0 = s * n;
        let h = 0;
        for (let j = 0; j < n; j++) h += Q[q0 + j] * p[j];
        R[s * nt + t] += h;
        for (let j = 0; j < n; j++) p[j] -= h * Q[q0 + j];
      }
    }
    let norm = 0;
    for (let j = 0; j < n; j++) norm += p[j] * p[j];
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return false;
    R[t * nt + t] = norm;
    for (let j = 0; j < n; j++) p[j] /= norm;
  }
  return true;
}

/** Largest |J q| over the unit columns q of Q (rows of J are unit: rounding is about 1e-16). */
function offNullSpace(ws: Workspace, Q: Float64Array, n: number, nt: number): number {
  const J = ws.J, y = ws.ym;
  let largest = 0;
  for (let t = 0; t < nt; t++) {
    J.mul(y, Q.subarray(t * n, (t + 1) * n));
    for (let i = 0; i < J.m; i++) largest = Math.max(largest, Math.abs(y[i]));
  }
  return largest;
}

/**
 * The target gradients in a null-space basis: M[t·st + a·sa] = g_t · z_a (G: nt rows, Z: k
 * rows, both n wide, row-major), and per target the share of ‖g_t‖ the basis sees (0 for a
 * zero gradient). Both tangent routes measure their targets this way.
 */
export function projectTargets(G: Float64Array, nt: number, Z: Float64Array, k: number, n: number, M: Float64Array, st: number, sa: number): number[] {
  const ratios: number[] = [];
  for (let t = 0; t < nt; t++) {
    let gn = 0, pn = 0;
    for (let j = 0; j < n; j++) gn += G[t * n + j] * G[t * n + j];
    for (let a = 0; a < k; a++) {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += G[t * n + j] * Z[a * n + j];
      M[t * st + a * sa] = sum;
      pn += sum * sum;
    }
    ratios.push(gn > 0 ? Math.sqrt(pn / gn) : 0);
  }
  return ratios;
}
