/**
 * The rate of the constraint Jacobian along one direction of the square system: the state
 * moving at q̇ while parameter k (a hardpoint coordinate) moves at unit rate. Each nonlinear
 * block is evaluated once in tangent mode (kernel/dual.ts), so the tangent `t` of each row's
 * dual is d(row of Φ_q)/ds. k < 0: the state alone moves (no point). Shared by the roll-centre, derivative-metric and load gradients,
 * which all need second derivatives of the same rows.
 */
import { withSecondTangents, withTangents, type TangentSeeds } from '../../../kernel/dual';
import { ScalarTargetBlock, type ResidualBlock } from '../../../kernel/system';
import { CouplingBlock } from '../../../mates/couplings';
import type { SensitivityContext, StateFactors } from './types';

/** A block's rows as duals (blocks written with kernel/dual.ts); `t`: the tangent in tangent mode (under a mixed pass, `t.t2` its rate along the second direction). */
export type RowDuals = readonly { v: number; t: { d: Float64Array; t2?: { d: Float64Array } | null } | null }[];

/**
 * The second tangent level (kernel/dual.ts withSecondTangents): each visited block's rows carry
 * `t` along the state direction `inner` (held in the parts' frames) and `t.t2`, its rate along
 * (q̇, e_k) — the constraints' third derivatives. Only blocks `want` names (by system index) are
 * evaluated; a block whose rate is its own (rowRate) has none and is returned as missing.
 */
export interface MixedPass { inner: Float64Array; want(blockIndex: number): boolean }

/**
 * visit(rowsAt, rows, colGlobal) per nonlinear block: its first row in the system, its rows'
 * duals (`t` carries the rate), and the system column of each local column (−1: fixed).
 * Linear rows (couplings, scalar targets) keep a constant Jacobian and are skipped. Returns
 * the first block that has no second derivatives (nothing visited after it), or null.
 */
export function forEachJacobianRate(model: SensitivityContext, f: StateFactors, qd: Float64Array, k: number, visit: (rowsAt: number, rows: RowDuals, colGlobal: readonly number[]) => void,
  mixed?: MixedPass): ResidualBlock | null {
  const sys = model.sm.model.system;
  const P = model.parameterCount;
  let res = new Float64Array(0), jac = new Float64Array(0);
  let r0 = 0;
  for (const { block, params, index } of f.rows) {
    const rowsAt = r0;
    r0 += block.rows;
    if (block instanceof CouplingBlock || block instanceof ScalarTargetBlock) continue;
    const duals = block.duals;
    if (mixed && !mixed.want(index)) continue;
    if (!duals && !params.rowRate) return block;
    const colGlobal: number[] = [];
    for (const vid of block.vars) {
      const v = sys.variables[vid];
      for (let c = 0; c < v.dim; c++) colGlobal.push(f.layout[vid] >= 0 ? f.layout[vid] + c : -1);
    }
    // a row whose map is not a part twist (a length with an end on a rod) brings its own
    if (params.rowRate) {
      if (mixed || k < 0) return block; // its own rate has no second level, nor a direction that moves no point
      visit(rowsAt, params.rowRate(f.layout, qd, k), colGlobal);
      continue;
    }
    const ld = colGlobal.length;
    const seeds: TangentSeeds = {
      pose: (col) => (colGlobal[col] >= 0 ? qd.subarray(colGlobal[col], colGlobal[col] + 6) : null),
      local: (col) => {
        if (k < 0) return null;
        const t = new Float64Array(6);
        for (let i = 0; i < 6; i++) t[i] = params.twist[(col + i) * P + k];
        return t;
      },
      scalar: (col) => (colGlobal[col] >= 0 ? qd[colGlobal[col]] : 0),
    };
    if (res.length < block.rows) res = new Float64Array(block.rows);
    if (jac.length < block.rows * ld) jac = new Float64Array(block.rows * ld);
    const evaluate = () => { sys.evaluateBlock(index, res, jac); return duals!.call(block); };
    if (!mixed) { visit(rowsAt, withTangents(seeds, evaluate), colGlobal); continue; }
    const x = mixed.inner;
    const inner: TangentSeeds = {
      pose: (col) => (colGlobal[col] >= 0 ? x.subarray(colGlobal[col], colGlobal[col] + 6) : null),
      local: () => null,
      scalar: (col) => (colGlobal[col] >= 0 ? x[colGlobal[col]] : 0),
    };
    visit(rowsAt, withSecondTangents(inner, seeds, evaluate), colGlobal);
  }
  return null;
}
