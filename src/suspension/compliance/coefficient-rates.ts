/**
 * The K&C coefficients' gradients over the hardpoints at a state at rest (docs/compliance.md,
 * "Gradients and fit"): exact, by differentiating the implicit function theorem that gives
 * them, with the stiffness matrix's rate along each coordinate from the second derivatives
 * the sensitivity layer already has (tangent mode, kernel/dual.ts). No differences.
 *
 * A unit load g at rest (no element loaded, λ = 0) moves the state by x with
 *
 *   K x − Φ_qᵀ μ + g = 0,   Φ_q x = 0        (μ: the rows' multipliers under the load),
 *
 * and the coefficient is c = m_q x. Along a hardpoint coordinate p_k the state moves at q̇_k
 * (hardpoint-rates.ts) and every term changes; differentiating both rows (λ and its rate vanish
 * at rest, so the constraints' third derivatives λ·Φ_qqq do not enter):
 *
 *   K x' − Φ_qᵀ μ' = −(K̇ x − Φ̇_qᵀ μ + ġ),   Φ_q x' = −Φ̇_q x,
 *
 * K̇ x the force elements' stiffness rate along (q̇_k, e_k) (their duals' tangents: a bushing's
 * frames moving and turning with its pickups, a link's free length with its ends), Φ̇_q the
 * rows' Jacobian rate (the same pass as the state's rate), ġ the unit load's generalized force
 * as its point (the contact centre, re-placed at each design) and the upright move. Then
 * x' = x_p + N K_r⁻¹ Nᵀ (r + K x_p), x_p the rows' least-squares motion, and
 * c' = (m_q)˙ x + m_q x' by one evaluation in tangent mode (gradients/point-tangents.ts).
 */
import { denseTimes as times, addInto as plus } from '../../../kernel/linalg';
import type { TangentSpace } from '../../../kernel/analysis';
import { DualVec3 as DualVec3Class } from '../../../kernel/dual';
import type { PointExpr } from '../build/targets';
import { toMatrix } from '../../../kernel/quat';
import type { SensitivityModel } from '../gradients/sensitivity-model';
import type { DriverParameters, StateFactors } from '../gradients/types';
import { forEachJacobianRate } from '../gradients/jacobian';
import { pointTangentHook, withPointTangents } from '../gradients/point-tangents';
import type { CornerMetrics } from '../metrics';
import type { CompliantState } from './state';
import { KC_COEFFICIENTS, unitLoadForces, type KcCoefficients, type ReducedSolve } from './coefficients';
import { balanceMultipliers, balanceRows, forceRates, hardpointStateRates, heldMotion, multipliersOf } from './hardpoint-rates';

/** Below this (N, N·mm; per mm for a rate) a multiplier is zero: its block's curvature terms are skipped. */
const UNLOADED = 1e-12;

/** Per corner and coefficient name: d(coefficient)/d(hardpoint coordinate), in the model's parameter order. */
export type CoefficientRates = Record<keyof KcCoefficients, Float64Array>[];

/** A stiffness direction: the state's rate dq/dk and the element's own parts, ∂Q/∂k (into Q) and ∂K/∂k·x (into Kx). */
export interface StiffnessDirection { dq: Float64Array; partial(Q: Float64Array | null, x: Float64Array | null, Kx: Float64Array | null): void }

/** One direction of the gradient: the state's rate and the hardpoint coordinate moving with it (−1: none, a stiffness's). */
interface Direction { qd: Float64Array; k: number; stiffness: StiffnessDirection | null }

/**
 * The coefficients' gradients at the current settled state (at rest, under the springs'
 * preload away from design, or under wheel loads whose points' moves `loadRates` gives:
 * hardpoint-rates.ts) over the hardpoints and, given, along stiffness directions; null where
 * a block has no second derivatives or a load's point does not follow the points.
 * `qkGiven`: the state's hardpoint rates when the caller has them.
 */
export function coefficientHardpointRates(model: SensitivityModel, state: CompliantState, solver: ReducedSolve, drivers: readonly DriverParameters[],
  axes: Map<string, [number, number] | null>, loadRates: (Float64Array | null)[], qkGiven: Float64Array[] | null = null,
  stiffnesses: readonly StiffnessDirection[] = []): { points: CoefficientRates; stiffness: CoefficientRates } | null {
  const { n, layout } = solver;
  const P = model.parameterCount;
  const system = state.dyn.system;
  const nc = state.sm.corners.length;
  const qk = qkGiven ?? hardpointStateRates(model, state, solver, drivers, axes, loadRates);
  const rows = balanceRows(model, state, drivers);
  const held = rows && heldMotion(model, state, solver, rows);
  if (!qk || !rows || !held) return null;
  const dirs: Direction[] = [...qk.map((qd, k) => ({ qd, k, stiffness: null })), ...stiffnesses.map((st) => ({ qd: st.dq, k: -1, stiffness: st }))];
  // the state's multipliers and its exact stiffness K − H (H = λ·Φ_qq, zero at rest)
  const { KH } = state.tangent.exact();
  const lambda = balanceMultipliers(state);
  const stiff = (v: Float64Array): Float64Array => times(KH, v, n);
  const g = unitLoadForces(state, layout, n);
  const xs = g.map((gu) => solver.solve(gu));
  const mus = xs.map((x, u) => multipliersOf(state, plus(stiff(x), g[u])));
  const points = loadPointRates(model, state, dirs, layout);
  const factors = { rows, layout } as StateFactors;
  const blockAt = blockStarts(rows);
  const table = (size: number): CoefficientRates => state.sm.corners.map(() => Object.fromEntries(Object.keys(KC_COEFFICIENTS).map((c) => [c, new Float64Array(size)])) as Record<keyof KcCoefficients, Float64Array>);
  const out = { points: table(P), stiffness: table(stiffnesses.length) };
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: xs, layout, size: n };
  for (let j = 0; j < dirs.length; j++) {
    const { qd, k, stiffness: st } = dirs[j];
    const rates = directionRates({ model, state, factors, blockAt, axes, loadRates, lambda, mus, xs, M: held.M }, qd, k, st);
    if (!rates) return null;
    const { r, rowRates } = rates;
    const dirDots = xs.map((_, u) => {
      addLoadRate(r[u], g[u], qd, points, j, state, layout, Math.floor(u / 3), system.state);
      const xp = held.solve(rowRates[u]);
      const corr = solver.solve(plus(stiff(xp), r[u]));
      for (let i = 0; i < n; i++) xp[i] += corr[i];
      return xp;
    });
    const hook = pointTangentHook(model, layout, qd, k, xs, dirDots);
    const corners = withPointTangents(state.sm, hook, () => state.sm.evaluate({ rates: space }).corners);
    const into = st ? out.stiffness : out.points, at = st ? j - P : j;
    for (let ci = 0; ci < nc; ci++) {
      const view = tangentView(corners[ci]);
      for (const [name, c] of Object.entries(KC_COEFFICIENTS) as [keyof KcCoefficients, (typeof KC_COEFFICIENTS)[keyof KcCoefficients]][]) {
        const col = 3 * ci + c.load;
        const x = c.read(corners[ci], col, xs.length);
        const dx = view ? c.read(view, col, xs.length) : NaN;
        into[ci][name][at] = c.inverse ? -dx / (x * x) : c.scale * dx;
      }
    }
  }
  return out;
}

/** Each row block's index by its first row in the stacked rows. */
export function blockStarts(rows: StateFactors['rows']): Map<number, number> {
  const at = new Map<number, number>();
  let row0 = 0;
  for (const row of rows) { at.set(row0, row.index); row0 += row.block.rows; }
  return at;
}

/** What one settled state's direction rates read (see directionRates); M: the held rows' count. */
export interface DirectionContext {
  model: SensitivityModel; state: CompliantState; factors: StateFactors; blockAt: Map<number, number>;
  axes: Map<string, [number, number] | null>; loadRates: (Float64Array | null)[];
  lambda: Map<number, number[]>; mus: readonly Map<number, number[]>[]; xs: readonly Float64Array[]; M: number;
}

/**
 * Along one direction (q̇, e_k) of a settled state, for responses x_u with multipliers μ_u:
 * G = dQ/ds − Φ̇_qᵀ λ (the elements' force rate, a stiffness's own part beside), r_u = K̇ x_u −
 * Φ̇_qᵀ μ_u − Ḣ x_u, and rowRates_u = −Φ̇_q x_u (for the held motion); null where a block has no
 * Jacobian rate or second level.
 */
export function directionRates(c: DirectionContext, qd: Float64Array, k: number, st: StiffnessDirection | null):
  { G: Float64Array; r: Float64Array[]; rowRates: Float64Array[] } | null {
  const { model, state, factors, blockAt, lambda, mus, xs } = c, n = qd.length;
  const G = new Float64Array(n);
  const r = xs.map(() => new Float64Array(n));
  if (!forceRates(model, state, qd, k, c.axes, c.loadRates, G, { xs, out: r })) return null;
  if (st) { st.partial(G, null, null); xs.forEach((x, u) => st.partial(null, x, r[u])); }
  const rowRates = xs.map(() => new Float64Array(c.M));
  const missing = forEachJacobianRate(model, factors, qd, k, (at, duals, cols) => {
    const block = blockAt.get(at)!;
    const lam = lambda.get(block);
    duals.forEach((d, i) => {
      if (!d.t) return;
      const l = lam?.[i] ?? 0;
      if (l) for (let j = 0; j < cols.length; j++) if (cols[j] >= 0) G[cols[j]] -= l * d.t.d[j];
      xs.forEach((x, u) => {
        const mu = mus[u].get(block)?.[i] ?? 0;
        let s = 0;
        for (let j = 0; j < cols.length; j++) if (cols[j] >= 0) { s += d.t!.d[j] * x[cols[j]]; r[u][cols[j]] -= mu * d.t!.d[j]; }
        rowRates[u][at + i] = -s;
      });
    });
  });
  if (missing) return null;
  // the multipliers' rate (Φ_qᵀ λ̇ = dQ/ds − Φ̇_qᵀ λ), then −Ḣx into r
  if (!curvatureRates(model, factors, qd, k, xs, lambda, multipliersOf(state, G), r)) return null;
  return { G, r, rowRates };
}

/**
 * r_u −= Ḣ x_u, the rows' curvature rate along (q̇_k, e_k) on each response x_u:
 * λ̇·Φ_qq x_u + λ·(Φ_qqq[x_u, q̇_k] + Φ_qqp[x_u, e_k]) — one pass of the second tangent level
 * per response and block with a multiplier or its rate (gradients/jacobian.ts MixedPass).
 * False where such a block has no second level.
 */
export function curvatureRates(model: SensitivityModel, factors: StateFactors, qd: Float64Array, k: number, xs: readonly Float64Array[],
  lambda: Map<number, number[]>, rate: Map<number, number[]>, r: Float64Array[]): boolean {
  const loaded = new Set<number>();
  for (const m of [lambda, rate]) for (const [b, list] of m) if (list.some((x) => Math.abs(x) > UNLOADED)) loaded.add(b);
  if (loaded.size === 0) return true;
  const blockAt = blockStarts(factors.rows);
  return xs.every((x, u) => !forEachJacobianRate(model, factors, qd, k, (at, duals, cols) => {
    const block = blockAt.get(at)!;
    const lam = lambda.get(block), dl = rate.get(block);
    duals.forEach((d, i) => {
      const t = d.t, l = lam?.[i] ?? 0, l1 = dl?.[i] ?? 0;
      if (!t) return;
      const m = t.t2;
      for (let c = 0; c < cols.length; c++) if (cols[c] >= 0) r[u][cols[c]] -= l1 * t.d[c] + (m ? l * m.d[c] : 0);
    });
  }, { inner: x, want: (b) => loaded.has(b) }));
}

/** The corner's points and metrics the coefficients read, by their tangents (null where one has none). */
function tangentView(cm: CornerMetrics): CornerMetrics | null {
  const toe = cm.metrics.toe_angle?.t, camber = cm.metrics.camber?.t;
  const contact = cm.points.wheel_contact_centre.t, centre = cm.points.wheel_center.t;
  if (!toe || !camber || !contact || !centre) return null;
  return { ...cm, metrics: { ...cm.metrics, toe_angle: toe, camber }, points: { ...cm.points, wheel_contact_centre: contact, wheel_center: centre } };
}

/**
 * Each corner's unit-load point's world rate per direction (3 × D): it is placed at each state
 * (state.ts placeLoads), at the wheel centre w or the contact centre c = w + r·n,
 * n = d/|d|, d = (s_z s_x, s_z s_y, s_z² − 1) down the wheel plane, s the unit axle
 * (loads.ts contactCentre) — so it moves with the state and the points as those do.
 */
function loadPointRates(model: SensitivityModel, state: CompliantState, dirs: readonly Direction[], layout: Int32Array): Float64Array[] {
  const P = dirs.length;
  const sm = state.sm;
  return sm.corners.map((c, ci) => {
    const out = new Float64Array(3 * P);
    const a = sm.pointValue(c.axle[0]), b = sm.pointValue(c.axle[1]);
    const e = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], el = Math.hypot(e[0], e[1], e[2]);
    const s = e.map((x) => x / el);
    const d = [s[2] * s[0], s[2] * s[1], s[2] * s[2] - 1], dl = Math.hypot(d[0], d[1], d[2]);
    const nrm = d.map((x) => x / dl);
    const atCentre = state.slots[ci].at === 'wheel_center';
    for (let j = 0; j < P; j++) {
      // each point's world rate: the point hook with no motions (its value's tangent)
      const hook = pointTangentHook(model, layout, dirs[j].qd, dirs[j].k, [], []);
      const rate = (terms: PointExpr) => { const pt = new DualVec3Class(0); for (const t of terms) hook(pt, t, 0); return pt.t ? pt.t.v : new Float64Array(3); };
      const w = rate([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }]);
      const de = ((ra, rb) => [rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]])(rate(c.axle[0]), rate(c.axle[1]));
      const along = s[0] * de[0] + s[1] * de[1] + s[2] * de[2];
      const ds = de.map((x, i) => (x - s[i] * along) / el);
      const dd = [ds[2] * s[0] + s[2] * ds[0], ds[2] * s[1] + s[2] * ds[1], 2 * s[2] * ds[2]];
      const dn = nrm[0] * dd[0] + nrm[1] * dd[1] + nrm[2] * dd[2];
      for (let i = 0; i < 3; i++) out[i * P + j] = w[i] + (atCentre ? 0 : (c.tireRadius * (dd[i] - nrm[i] * dn)) / dl);
    }
    return out;
  });
}

/**
 * ġ of a unit world load (F, M) at a point a of the upright (body components g_ω = Rᵀ((a − o) × F + M),
 * g_v = RᵀF), the upright moving at (ω, v) and a at ȧ: ġ_v = −ω × g_v, ġ_ω = −ω × g_ω + Rᵀ((ȧ − R v) × F).
 */
function addLoadRate(r: Float64Array, g: Float64Array, qk: Float64Array, points: Float64Array[], k: number, state: CompliantState, layout: Int32Array, corner: number, q: Float64Array): void {
  const up = state.sm.corners[corner].upright;
  const c0 = layout[up];
  if (c0 < 0) return;
  const R = toMatrix(new Float64Array(9), q, state.dyn.system.variables[up].offset + 3);
  const P = points[corner].length / 3;
  const w = [qk[c0], qk[c0 + 1], qk[c0 + 2]], v = [qk[c0 + 3], qk[c0 + 4], qk[c0 + 5]];
  // the world force: R g_v
  const gv = [g[c0 + 3], g[c0 + 4], g[c0 + 5]], gw = [g[c0], g[c0 + 1], g[c0 + 2]];
  const F = [0, 1, 2].map((i) => R[3 * i] * gv[0] + R[3 * i + 1] * gv[1] + R[3 * i + 2] * gv[2]);
  const Rv = [0, 1, 2].map((i) => R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2]);
  const da = [0, 1, 2].map((i) => points[corner][i * P + k] - Rv[i]);
  const m = cross(da, F);
  const Rtm = [0, 1, 2].map((i) => R[i] * m[0] + R[3 + i] * m[1] + R[6 + i] * m[2]);
  const wv = cross(w, gv), ww = cross(w, gw);
  for (let i = 0; i < 3; i++) { r[c0 + 3 + i] -= wv[i]; r[c0 + i] += Rtm[i] - ww[i]; }
}

function cross(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

