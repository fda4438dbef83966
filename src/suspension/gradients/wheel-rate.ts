/**
 * Gradients of `sweep --loads`' wheel rates (`rates.wheel_rate.<side>`, SweepLoads.rates),
 * offered on request as `wheel_rate.<side>` (docs/sensitivity.md "Wheel rates"). The rate is
 * W = vᵀ S v, v the side's hub motion (A v = e_hub, the other hubs and the rack held) and
 * S v = −K v + (λ·Φ_qq) v, K the elements' stiffness and λ the multipliers of their forces
 * (the springs' load runs through the joints). Along a hardpoint coordinate p_k (the state
 * moving at q̇_k):
 *
 *   W' = v'ᵀ S v + vᵀ S v' + vᵀ (−K̇ v + Ḣ v),   v' = −A⁻¹ (dA/ds) v,
 *   Ḣ v = λ'·Φ_qq v + λ·(Φ_qqq[v, q̇_k] + Φ_qqp[v, e_k]),   Aᵀ λ' = Q̇ − (dA/ds)ᵀ λ,
 *
 * K̇ v and Q̇ from the elements' duals in tangent mode along (q̇_k, e_k) (their ends moving as
 * hardpoints, a free length regenerated from them), λ·Φ_qqq by the duals' second tangent level
 * (gradients/jacobian.ts MixedPass). Exact, no differences. Two-point springs and dampers only:
 * a torsion bar's or an anti-roll bar's stiffness rate is not written yet (null then).
 */
import { withTangents, type TangentSeeds } from '../../../kernel/dual';
import { constraintMultipliers } from '../../../kernel/multipliers';
import type { TangentSpace } from '../../../kernel/analysis';
import { LinearLaw, type PointToPointForce } from '../../../mates/forces';
import { addConstraintCurvature } from '../../mechanics/curvature';
import type { DynamicsModel } from '../../mechanics/build';
import { forEachJacobianRate } from './jacobian';
import { freeLengthRate } from './free-length';
import { driverRowsOf, jacobianRateTimesVector, solve } from './roll-centre';
import type { DriverParameters, MetricGradient, SensitivityContext, StateFactors } from './types';

export const WHEEL_RATE = 'wheel_rate.';

/** `wheel_rate.<side>` for each corner side. */
export function wheelRateNames(sides: readonly string[]): string[] {
  return sides.map((s) => `${WHEEL_RATE}${s}`);
}

/** A two-point element as the load gradients keep it: `slope` ≠ 0 where its free length follows its ends (ja, jb: their hardpoints). */
export interface WheelRateElement { index: number; block: PointToPointForce; slope: number; ja: number; jb: number }

/**
 * The asked wheel rates and their gradients at the state; null each where the hubs do not
 * drive it, a block has no second derivatives or `supported` is false (another element kind).
 */
export function wheelRateGradients(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace, dyn: DynamicsModel,
  elements: readonly WheelRateElement[], supported: boolean, names: readonly string[]): Record<string, MetricGradient | null> {
  const sides = model.sides, P = model.parameterCount, n = f.n;
  const asked = sides.map((s, j) => ({ name: `${WHEEL_RATE}${s}`, j })).filter((a) => names.includes(a.name));
  const out: Record<string, MetricGradient | null> = {};
  if (!asked.length) return out;
  const rows = driverRowsOf(model, f, drivers);
  if (!rows || !supported || f.M !== n) { for (const a of asked) out[a.name] = null; return out; }
  const system = model.sm.model.system;
  const v = asked.map((a) => { const e = new Float64Array(f.M); e[rows.hub[a.j]] = 1; return solve(f, e); });
  // the elements' forces and stiffness, and the multipliers that carry them (as SweepLoads.rates)
  const Q = new Float64Array(n), K = new Float64Array(n * n);
  dyn.forces.assemble(new Float64Array(n), 0, Q, K, null);
  const mult = constraintMultipliers(system, Q);
  const lambda = transposedSolve(f, Q);
  const S = (x: Float64Array): Float64Array => {
    const y = addConstraintCurvature(system, mult, x, 1, n, f.layout, new Float64Array(n));
    for (let r = 0; r < n; r++) { let s = 0; for (let c = 0; c < n; c++) s += K[r * n + c] * x[c]; y[r] -= s; }
    return y;
  };
  const Sv = v.map(S);
  const grads = asked.map(() => new Float64Array(P));
  const dAv = new Float64Array(f.M);
  const blockRows: [number, number, number][] = [];
  let r0 = 0;
  for (const row of f.rows) { blockRows.push([row.index, r0, row.block.rows]); r0 += row.block.rows; }
  for (let k = 0; k < P; k++) {
    const qd = rates.rates[k]!;
    // Q̇ and K̇ v along (q̇_k, e_k); then λ' from Aᵀλ' = Q̇ − (dA/ds)ᵀλ
    const Qd = new Float64Array(n), Kdv = v.map(() => new Float64Array(n));
    elementRates(model, dyn, elements, qd, k, v, Qd, Kdv);
    const missing = forEachJacobianRate(model, f, qd, k, (at, duals, cols) => {
      duals.forEach((d, r) => { const l = lambda[at + r]; if (l && d.t) for (let c = 0; c < cols.length; c++) if (cols[c] >= 0) Qd[cols[c]] -= l * d.t.d[c]; });
    });
    if (missing) { for (const a of asked) out[a.name] = null; return out; }
    const lambdaDot = transposedSolve(f, Qd);
    // the blocks whose curvature moves: a multiplier or its rate not zero
    const loaded = new Set(blockRows.filter(([, at, m]) => lambda.subarray(at, at + m).some((x) => x !== 0) || lambdaDot.subarray(at, at + m).some((x) => x !== 0)).map(([b]) => b));
    for (let i = 0; i < v.length; i++) {
      const vi = v[i];
      if (!jacobianRateTimesVector(model, f, qd, k, vi, dAv)) { for (const a of asked) out[a.name] = null; return out; }
      const vd = solve(f, dAv);
      for (let c = 0; c < n; c++) vd[c] = -vd[c];
      // Ṡ v = −K̇ v + Ḣ v
      const Sd = Kdv[i];
      for (let c = 0; c < n; c++) Sd[c] = -Sd[c];
      const gone = forEachJacobianRate(model, f, qd, k, (at, duals, cols) => {
        duals.forEach((d, r) => {
          const t = d.t;
          if (!t) return;
          const l = lambda[at + r], l1 = lambdaDot[at + r], m = t.t2;
          for (let c = 0; c < cols.length; c++) if (cols[c] >= 0) Sd[cols[c]] += l1 * t.d[c] + (m ? l * m.d[c] : 0);
        });
      }, { inner: vi, want: (b) => loaded.has(b) });
      if (gone) { for (const a of asked) out[a.name] = null; return out; }
      const Svd = S(vd);
      grads[i][k] = dot(vd, Sv[i]) + dot(vi, Svd) + dot(vi, Sd);
    }
  }
  asked.forEach((a, i) => { out[a.name] = { value: dot(v[i], Sv[i]), gradient: Object.fromEntries(model.keys.map((key, k) => [key, grads[i][k]])) }; });
  return out;
}

/** Q̇ (into Qd) and K̇ v (into Kdv, per v) of the two-point elements along (q̇, e_k): their own duals in tangent mode, and a regenerated free length's move. */
function elementRates(model: SensitivityContext, dyn: DynamicsModel, elements: readonly WheelRateElement[], qd: Float64Array, k: number, v: readonly Float64Array[], Qd: Float64Array, Kdv: Float64Array[]): void {
  const forces = dyn.forces, sys = dyn.system;
  const unitMove = (j: number) => {
    if (j < 0 || k < 3 * j || k >= 3 * j + 3) return null;
    const t = new Float64Array(6); t[3 + k - 3 * j] = 1; return t;
  };
  for (const e of elements) {
    const slots = forces.slotsOf(e.index), blk = e.block, m = slots.length;
    const seeds: TangentSeeds = {
      pose: (col) => (col < m && slots[col] >= 0 ? qd.subarray(slots[col], slots[col] + 6) : null),
      local: (col, p, isPoint) => (!isPoint ? null : col === 0 && p === blk.a ? unitMove(e.ja) : col === 6 && p === blk.b ? unitMove(e.jb) : null),
      scalar: () => 0,
    };
    const lq = new Float64Array(m), lk = new Float64Array(m * m);
    const duals = withTangents(seeds, () => { blk.evaluate(sys.state, forces.offsetsOf(e.index), new Float64Array(m), 0, lq, lk, null); return blk.duals(); });
    for (let i = 0; i < m; i++) {
      const t = duals[i].t;
      if (slots[i] < 0 || !t) continue;
      Qd[slots[i]] += t.v;
      v.forEach((x, u) => { let s = 0; for (let j = 0; j < m; j++) if (slots[j] >= 0) s += t.d[j] * x[slots[j]]; Kdv[u][slots[i]] += s; });
    }
    if (e.slope === 0) continue;
    // the free length is the ends' distance: the law k (l − x₀) with x₀ moved is a constant tension −k·dx₀ (the unit tension's force and stiffness, scaled)
    const dFree = freeLengthRate(blk, e.ja, e.jb, k);
    if (dFree === 0 || !(blk.spring instanceof LinearLaw)) continue;
    const law = blk.spring as { slope: number; y0: number };
    const [slope, y0] = [law.slope, law.y0];
    const uq = new Float64Array(m), uk = new Float64Array(m * m);
    try { law.slope = 0; law.y0 = 1; blk.evaluate(sys.state, forces.offsetsOf(e.index), new Float64Array(m), 0, uq, uk, null); } finally { law.slope = slope; law.y0 = y0; }
    const dT = -e.slope * dFree;
    for (let i = 0; i < m; i++) {
      if (slots[i] < 0) continue;
      Qd[slots[i]] += dT * uq[i];
      v.forEach((x, u) => { let s = 0; for (let j = 0; j < m; j++) if (slots[j] >= 0) s += uk[i * m + j] * x[slots[j]]; Kdv[u][slots[i]] += dT * s; });
    }
  }
}

/** λ with Aᵀλ = y on the state's factorisation (y by tangent column, unscaled). */
function transposedSolve(f: StateFactors, y: ArrayLike<number>): Float64Array {
  return f.solver.solveTransposed(new Float64Array(f.M), y);
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
