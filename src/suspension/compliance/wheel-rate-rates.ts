/**
 * The compliant wheel rate's gradients (docs/compliance.md, "Gradients and fit":
 * `kc.wheel_rate`, the `vertical` event's rate at a settled state of a bump sweep, whose wheel
 * pads are its drivers): exact, over the hardpoints and the stiffnesses, never differences.
 *
 * The pad moving by s moves the settled state by x with
 *
 *   (K − H) x − Φ_qᵀ μ = 0,   Φ_q x = e_pad        (μ: the rows' multipliers' rate),
 *
 * and the rate is W = −μ_pad (the pad's row pulls the wheel down as its multiplier grows;
 * wheel-rate.ts gives the same number by the pad's compliance on the other rows' motions). Along a direction — a hardpoint coordinate p_k (the state at q̇_k) or a
 * stiffness (its dq, its ∂K/∂k x) — differentiating both rows as coefficient-rates.ts does for
 * a unit load:
 *
 *   (K − H) x′ − Φ_qᵀ μ′ + r = 0,   r = K̇ x − Ḣ x − Φ̇_qᵀ μ,   Φ_q x′ = −Φ̇_q x,
 *
 * so x′ = x_p + N K_r⁻¹ Nᵀ (r + (K − H) x_p) and μ′ from Φ_qᵀ μ′ = (K − H) x′ + r: W′ = −μ′_pad.
 * K̇ x by the elements' duals (hardpoint-rates.ts forceRates), Φ̇_q by the rows' (the pads'
 * included), Ḣ x = λ̇·Φ_qq x + λ·(Φ_qqq[x, q̇] + Φ_qqp[x, e_k]) by the second tangent level
 * (coefficient-rates.ts curvatureRates).
 */
import { denseTimes as times, addInto as plus } from '../../../kernel/linalg';
import type { SensitivityModel } from '../gradients/sensitivity-model';
import type { DriverParameters, StateFactors } from '../gradients/types';
import type { ReducedSolve } from './coefficients';
import { blockStarts, directionRates, type StiffnessDirection } from './coefficient-rates';
import { balanceMultipliers, balanceRows, heldMotion, multipliersOf } from './hardpoint-rates';
import type { CompliantState } from './state';

/** The pad's driver of a side: the bump sweep's wheel centre height target. */
export const padOwner = (side: string): string => `target:${side}:wheel_center_z`;

/** Per corner: the rate (N/mm) and its rates over the hardpoints (null: not asked, or not followed) and the stiffness directions. */
export interface WheelRateRates { value: number; points: Float64Array | null; stiffness: Float64Array }

/**
 * Each corner's compliant wheel rate at the current settled state with its gradients; null for
 * a corner whose pad is not a driver of the state (a sweep other than bump) or where the
 * rows or a block's second derivatives are missing. `qk`: the state's hardpoint rates (null:
 * the stiffnesses only).
 */
export function wheelRateRates(model: SensitivityModel, state: CompliantState, solver: ReducedSolve, drivers: readonly DriverParameters[],
  axes: Map<string, [number, number] | null>, loadRates: (Float64Array | null)[], qk: Float64Array[] | null,
  stiffnesses: readonly StiffnessDirection[]): (WheelRateRates | null)[] {
  const { n, layout } = solver;
  const none = state.sm.corners.map(() => null);
  const rows = balanceRows(model, state, drivers);
  const held = rows && heldMotion(model, state, solver, rows);
  if (!rows || !held) return none;
  // each pad's row among the rows, and its block
  const pads = state.sm.corners.map((c) => {
    let at = 0;
    for (const r of rows) {
      if (r.block.owner === padOwner(c.roles.side)) return { at, block: r.index };
      at += r.block.rows;
    }
    return null;
  });
  const live = pads.flatMap((p) => (p ? [p] : []));
  if (!live.length) return none;
  const { KH } = state.tangent.exact();
  const stiff = (v: Float64Array): Float64Array => times(KH, v, n);
  const lambda = balanceMultipliers(state);
  const xs = live.map((p) => {
    const e = new Float64Array(held.M);
    e[p.at] = 1;
    const xp = held.solve(e);
    return plus(solver.solve(stiff(xp)), xp);
  });
  const mus = xs.map((x) => multipliersOf(state, stiff(x)));
  const values = live.map((p, u) => -mus[u].get(p.block)![0]);
  const P = qk ? qk.length : 0;
  const dirs = [...(qk ?? []).map((qd, k) => ({ qd, k, st: null as StiffnessDirection | null })), ...stiffnesses.map((st) => ({ qd: st.dq, k: -1, st }))];
  const factors = { rows, layout } as StateFactors;
  const blockAt = blockStarts(rows);
  const rates = live.map(() => new Float64Array(dirs.length));
  for (let j = 0; j < dirs.length; j++) {
    const { qd, k, st } = dirs[j];
    const dr = directionRates({ model, state, factors, blockAt, axes, loadRates, lambda, mus, xs, M: held.M }, qd, k, st);
    if (!dr) return none;
    const { r, rowRates } = dr;
    xs.forEach((_, u) => {
      const xp = held.solve(rowRates[u]);
      const x1 = plus(solver.solve(plus(stiff(xp), r[u])), xp);
      rates[u][j] = -multipliersOf(state, plus(stiff(x1), r[u])).get(live[u].block)![0];
    });
  }
  let u = 0;
  return pads.map((p) => {
    if (!p) return null;
    const i = u++;
    return { value: values[i], points: qk ? rates[i].slice(0, P) : null, stiffness: rates[i].slice(P) };
  });
}
