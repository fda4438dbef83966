/**
 * A loaded compliant state's motion per hardpoint coordinate (docs/compliance.md, "Gradients
 * and fit"): the implicit function theorem on the whole equilibrium,
 *
 *   Φ(q, p) = 0,   F(q, p) = Q(q, p) − Φ_qᵀ λ = 0,
 *
 * along p_k: a particular motion q̇₀ that keeps the constraints and drivers (Φ_q q̇₀ = −Φ_p e_k,
 * least squares on [Φ_q; Nᵀ]), then the admissible correction that keeps the balance,
 * q̇ = q̇₀ + N K_r⁻¹ Nᵀ dF/ds along (q̇₀, e_k), λ held (its change is normal to the motions).
 * dF/ds is one tangent-mode pass (kernel/dual.ts) of every constraint block (its points'
 * twists from the SensitivityModel) and every force element: a bushing's two frames move
 * with their pickup and turn with their axis (the least turn u × u̇: the rates are
 * axisymmetric), a compliant link's ends move and its free length (the design length)
 * with them, a load's point with the wheel's points. No differences.
 */
import { PivotedQR } from '../../../kernel/linalg';
import { withTangents, type TangentSeeds } from '../../../kernel/dual';
import { constraintMultipliers } from '../../../kernel/multipliers';
import { tangentLayout } from '../../../kernel/forces';
import { BushingForce, PointForce, PointToPointForce, BodyTorque, LinearLaw } from '../../../mates/forces';
import type { SensitivityModel } from '../gradients/sensitivity-model';
import type { BlockParameters, DriverParameters, StateFactors } from '../gradients/types';
import { forEachJacobianRate } from '../gradients/jacobian';
import type { Geometry } from '../files';
import type { CompliantState } from './state';
import { bushingAxisEnds } from '../build/compliance';
import type { ReducedSolve } from './coefficients';

/** Per force element id: the hardpoints its bushing axis runs between (from → to), or null for a fixed axis. */
export function bushingAxes(geometry: Geometry, model: SensitivityModel, state: CompliantState): Map<string, [number, number] | null> {
  const out = new Map<string, [number, number] | null>();
  const roles = state.sm.roles.compliance;
  if (!roles) return out;
  const axle = geometry.scope === 'axle';
  for (const [id, { side, pickup }] of Object.entries(roles.bushings)) {
    const ci = geometry.corners.findIndex((c) => c.side === side);
    const spec = geometry.compliance!.corners[ci].bushings[pickup];
    const name = (n: string) => model.hardpointNames.indexOf(axle ? `${side}.${n}` : n);
    const ends = bushingAxisEnds(spec, pickup);
    out.set(id, ends && [name(ends[0]), name(ends[1])]);
  }
  return out;
}

/**
 * The state's rate per hardpoint coordinate at the current settled state, or null where a
 * force element is not one this knows (every element is a bushing, a compliant link, a load).
 * `loadRates[i]`: d(local load point)/dp of corner i, 3 × P, where the load was placed.
 */
export function hardpointStateRates(model: SensitivityModel, state: CompliantState, solver: ReducedSolve, drivers: readonly DriverParameters[],
  axes: Map<string, [number, number] | null>, loadRates: (Float64Array | null)[]): Float64Array[] | null {
  const rows = balanceRows(model, state, drivers);
  if (!rows) return null;
  const held = heldMotion(model, state, solver, rows);
  if (!held) return null;
  const { M, Phip } = held;
  const n = solver.n;
  const P = model.parameterCount;
  const lambdaOf = balanceMultipliers(state);
  const out: Float64Array[] = [];
  const rhs = new Float64Array(M);
  for (let kk = 0; kk < P; kk++) {
    for (let r = 0; r < M; r++) rhs[r] = -Phip[r * P + kk];
    const q0 = held.solve(rhs);
    const dF = balanceRate(model, state, rows, lambdaOf, q0, kk, axes, loadRates);
    if (!dF) return null;
    const corr = solver.solve(dF);
    for (let j = 0; j < n; j++) q0[j] += corr[j];
    out.push(q0);
  }
  return out;
}

/** The rows' least-squares motion: q with Φ_q q = rhs (the rows in order) and Nᵀ q = 0; Φ_p (M × P) beside it. */
export interface HeldMotion { M: number; Phip: Float64Array; solve(rhs: Float64Array): Float64Array }

/** [Φ_q; Nᵀ] factored at the current state (null where it is rank-deficient) and Φ_p from the rows' parameter maps. */
export function heldMotion(model: SensitivityModel, state: CompliantState, solver: ReducedSolve, rows: StateFactors['rows']): HeldMotion | null {
  const { n, layout, N, k } = solver;
  const system = state.dyn.system;
  const P = model.parameterCount;
  const M = rows.reduce((s, r) => s + r.block.rows, 0);
  // [Φ_q; Nᵀ] (column-major, M + k rows) and Φ_p (M × P)
  const A = new Float64Array((M + k) * n), Phip = new Float64Array(M * P);
  let r0 = 0;
  for (const { block, params, index } of rows) {
    const ld = system.blockLocalDim(index);
    const res = new Float64Array(block.rows), jac = new Float64Array(block.rows * ld);
    system.evaluateBlock(index, res, jac);
    const cols: number[] = [];
    for (const vid of block.vars) for (let c = 0; c < system.variables[vid].dim; c++) cols.push(layout[vid] >= 0 ? layout[vid] + c : -1);
    for (let r = 0; r < block.rows; r++) {
      for (let c = 0; c < ld; c++) if (cols[c] >= 0) A[cols[c] * (M + k) + r0 + r] += jac[r * ld + c];
      for (let kk = 0; kk < P; kk++) {
        let s = params.constant ? params.constant[r * P + kk] : 0;
        for (let c = 0; c < ld; c++) s += jac[r * ld + c] * params.twist[c * P + kk];
        Phip[(r0 + r) * P + kk] = s;
      }
    }
    r0 += block.rows;
  }
  for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) A[j * (M + k) + M + a] = N[a * n + j];
  const qr = new PivotedQR(M + k, n);
  if (qr.factor(A, M + k, n, 1e-12) < n) return null;
  const b = new Float64Array(M + k), x = new Float64Array(n);
  return {
    M, Phip,
    solve(rhs) {
      b.fill(0);
      b.set(rhs.subarray(0, M));
      qr.applyQt(b);
      qr.solveR(x, b);
      const q = new Float64Array(n);
      for (let a = 0; a < n; a++) q[qr.perm[a]] = x[a];
      return q;
    },
  };
}

/** The constraint and driver blocks with their parameter maps; null where a block has none. */
export function balanceRows(model: SensitivityModel, state: CompliantState, drivers: readonly DriverParameters[]): StateFactors['rows'] | null {
  const system = state.dyn.system;
  // the rows: constraint blocks (the model's twists) and the drivers
  const rows: StateFactors['rows'] = [];
  for (let b = 0; b < system.blockCount; b++) {
    if (!system.blockEnabled(b)) continue;
    const blk = system.block(b);
    if (blk.kind === 'limit') continue;
    const params: BlockParameters | undefined = model.blockParameters(blk) ?? drivers.find((d) => d.block === blk)?.params;
    if (!params) return null;
    rows.push({ block: blk, params, index: b });
  }
  return rows;
}

/** λ of the balance Φ_qᵀλ = Q at the state (loads included), per block index: a constraint's rows, a driver's one. */
export function balanceMultipliers(state: CompliantState): Map<number, number[]> {
  const { dyn } = state;
  const n = dyn.forces.size;
  const Q = new Float64Array(n);
  dyn.forces.assemble(new Float64Array(n), 0, Q, null, null);
  return multipliersOf(state, Q);
}

/** λ with Φ_qᵀλ = f (least squares) for a generalized force f (tangent layout), per block index. */
export function multipliersOf(state: CompliantState, f: Float64Array): Map<number, number[]> {
  const mult = constraintMultipliers(state.dyn.system, f);
  const lambdaOf = new Map<number, number[]>();
  for (let r = 0; r < mult.lambda.length; r++) { const list = lambdaOf.get(mult.rowBlock[r]) ?? []; list[mult.rowInBlock[r]] = mult.lambda[r]; lambdaOf.set(mult.rowBlock[r], list); }
  mult.driverBlocks.forEach((b, d) => lambdaOf.set(b, [mult.driverLambda[d]]));
  return lambdaOf;
}

/** dF/ds along (q̇₀, e_k), F = Q − Φ_qᵀλ with λ held: −(dΦ_q/ds)ᵀλ by tangent mode, then the force elements' rates. */
export function balanceRate(model: SensitivityModel, state: CompliantState, rows: StateFactors['rows'], lambdaOf: Map<number, number[]>, q0: Float64Array, kk: number,
  axes: Map<string, [number, number] | null>, loadRates: (Float64Array | null)[]): Float64Array | null {
  const { layout, size: n } = tangentLayout(state.dyn.system);
  const factors = { rows, layout } as StateFactors;
  const dF = new Float64Array(n);
  const rateRows = new Map<number, number>();
  let row0 = 0;
  for (const r of rows) { rateRows.set(row0, r.index); row0 += r.block.rows; }
  const missing = forEachJacobianRate(model, factors, q0, kk, (at, duals, cols) => {
    const lam = lambdaOf.get(rateRows.get(at)!) ?? [];
    duals.forEach((d, r) => {
      const l = lam[r] ?? 0;
      if (!l || !d.t) return;
      for (let c = 0; c < cols.length; c++) if (cols[c] >= 0) dF[cols[c]] -= l * d.t.d[c];
    });
  });
  if (missing) return null;
  return forceRates(model, state, q0, kk, axes, loadRates, dF) ? dF : null;
}

/** With `xs`: (dK/ds)·x for each x, added into the matching `out` (the stiffness matrix's rate along the same direction). */
export interface StiffnessRates { xs: readonly Float64Array[]; out: Float64Array[] }

/**
 * dQ/ds of every force element along (q̇₀, e_k) (k < 0: the state's motion alone), added into dF, and with `stiff` the rate of
 * its stiffness times each x (the tangents of the force duals' derivatives); false where an
 * element is not known here.
 */
export function forceRates(model: SensitivityModel, state: CompliantState, q0: Float64Array, k: number, axes: Map<string, [number, number] | null>,
  loadRates: (Float64Array | null)[], dF: Float64Array, stiff: StiffnessRates | null = null): boolean {
  const dyn = state.dyn;
  const system = dyn.system;
  const P = model.parameterCount;
  const { layout } = tangentLayout(system);
  const lr = new Float64Array(3);
  // every force block: the file's elements and the wheel loads the compliant state added (not among the elements)
  const ids = new Map(dyn.elements.map((el) => [el.index, el.id]));
  for (let index = 0; index < dyn.forces.blocks.length; index++) {
    const e = { index, id: ids.get(index) ?? '', block: dyn.forces.blocks[index] };
    const block = e.block;
    const vars = block.vars;
    const pointRate = (p: ArrayLike<number>, body: number): ArrayLike<number> | null => {
      if (k < 0) return null; // a direction that moves no point
      if (block instanceof PointForce) {
        const ci = state.sm.corners.findIndex((c) => c.upright === vars[0]);
        const rate = loadRates[ci];
        if (!rate) return null; // refused below when the load is not zero
        return [0, 0, 0, rate[k], rate[P + k], rate[2 * P + k]];
      }
      model.localRate(lr, vars[body], p, k);
      return lr[0] || lr[1] || lr[2] ? [0, 0, 0, lr[0], lr[1], lr[2]] : null;
    };
    let turn: number[] | null = null;
    if (block instanceof BushingForce) {
      const ax = axes.get(e.id);
      if (ax === undefined) return false;
      if (ax) {
        const a = block.axesA[0];
        const [from, to] = ax;
        const d = [0, 0, 0];
        if (to >= 0 && Math.floor(k / 3) === to) d[k % 3] += 1;
        if (from >= 0 && Math.floor(k / 3) === from) d[k % 3] -= 1;
        // |d| of the design axis: the two pickups' distance
        const len = axisLength(model, ax);
        turn = [(a[1] * d[2] - a[2] * d[1]) / len, (a[2] * d[0] - a[0] * d[2]) / len, (a[0] * d[1] - a[1] * d[0]) / len];
      }
    } else if (!(block instanceof PointToPointForce || block instanceof PointForce || block instanceof BodyTorque)) return false;
    if (!block.duals) return false;
    // a load whose point's move with the points is not known: no gradient rather than a wrong one
    if (k >= 0 && block instanceof PointForce && Array.from(block.vector).some((x) => x !== 0) && !loadRates[state.sm.corners.findIndex((c) => c.upright === vars[0])]) return false;
    const seeds: TangentSeeds = {
      pose: (col) => { const v = vars[col / 6]; return layout[v] >= 0 ? q0.subarray(layout[v], layout[v] + 6) : null; },
      local: (col, p, isPoint) => {
        const body = col / 6;
        if (block instanceof BushingForce) {
          if (isPoint) return p === block.originA || p === block.originB ? pointRate(p, body) : null;
          const isAxis = (body === 0 ? block.axesA : block.axesB).includes(p as Float64Array);
          return isAxis && turn ? [turn[0], turn[1], turn[2], 0, 0, 0] : null;
        }
        if (block instanceof PointToPointForce) return isPoint && (p === block.a || p === block.b) ? pointRate(p, body) : null;
        if (block instanceof PointForce) return isPoint && p === block.at ? pointRate(p, body) : null;
        return null;
      },
      scalar: () => 0,
    };
    const m = dyn.forces.slotsOf(e.index).length;
    const lq = new Float64Array(m), lk = new Float64Array(m * m);
    const duals = withTangents(seeds, () => { block.evaluate(system.state, dyn.forces.offsetsOf(e.index), new Float64Array(m), 0, lq, lk, null); return block.duals!(); });
    const slots = dyn.forces.slotsOf(e.index);
    for (let i = 0; i < m; i++) if (slots[i] >= 0 && duals[i].t) dF[slots[i]] += duals[i].t!.v;
    if (stiff) addTimes(stiff, slots, (i, j) => duals[i].t?.d[j] ?? 0, 1);
    // a compliant link's free length is its design length: it moves with its ends
    if (k >= 0 && block instanceof PointToPointForce && block.spring instanceof LinearLaw) {
      const ja = model.hardpointAt(block.a), jb = model.hardpointAt(block.b);
      const dl = [block.b[0] - block.a[0], block.b[1] - block.a[1], block.b[2] - block.a[2]];
      const l = Math.hypot(dl[0], dl[1], dl[2]);
      let dx0 = 0;
      // only where the free length is the design length (a compliant link; a coilover without free_length): it follows the ends
      const regenerated = Math.abs((block.spring as LinearLaw).x0 - l) <= 1e-9 * Math.max(1, l);
      if (jb === Math.floor(k / 3)) dx0 += dl[k % 3] / l;
      if (ja === Math.floor(k / 3)) dx0 -= dl[k % 3] / l;
      if (dx0 !== 0 && regenerated) {
        const law = block.spring as { slope: number; y0: number };
        const [slope, y0] = [law.slope, law.y0];
        const uq = new Float64Array(m), uk = new Float64Array(m * m);
        // the law k (l − x₀) with x₀ moved: a constant tension −k·dx₀, whose force and stiffness are the unit tension's scaled
        try { law.slope = 0; law.y0 = 1; block.evaluate(system.state, dyn.forces.offsetsOf(e.index), new Float64Array(m), 0, uq, uk, null); } finally { law.slope = slope; law.y0 = y0; }
        for (let i = 0; i < m; i++) if (slots[i] >= 0) dF[slots[i]] -= slope * dx0 * uq[i];
        if (stiff) addTimes(stiff, slots, (i, j) => uk[i * m + j], -slope * dx0);
      }
    }
  }
  return true;
}

/** out_u[slot i] += scale · Σ_j K̇(i, j) x_u[slot j] for each x_u, over the element's slots (−1: a fixed part). */
function addTimes(stiff: StiffnessRates, slots: ArrayLike<number>, rate: (i: number, j: number) => number, scale: number): void {
  const m = slots.length;
  stiff.xs.forEach((x, u) => {
    const out = stiff.out[u];
    for (let i = 0; i < m; i++) {
      if (slots[i] < 0) continue;
      let s = 0;
      for (let j = 0; j < m; j++) if (slots[j] >= 0) s += rate(i, j) * x[slots[j]];
      out[slots[i]] += scale * s;
    }
  });
}

function axisLength(model: SensitivityModel, [from, to]: [number, number]): number {
  const a = model.hardpointPosition(from), b = model.hardpointPosition(to);
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}
