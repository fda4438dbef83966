/**
 * The constraint forces' geometric stiffness, exact: (λ·Φ_qq) d for each direction d, the
 * rate of the constraint force Φ_qᵀλ (λ held) as the state moves along d — every mate's and
 * driver's row curvature, by tangent mode (kernel/dual.ts withTangents: each block's
 * Jacobian rate along d). A loaded state's wheel stiffness (loads.ts rates) takes it; it
 * took each reaction as a dead wrench before (exact for point rows, not for moment rows).
 * The K&C coefficients' reduced stiffness computes the same, with closed forms for point
 * rows, in compliance/tangent.ts.
 */
import { JacobianRate, blockColumns } from '../../kernel/jacobian-rate';
import type { Multipliers } from '../../kernel/multipliers';
import type { System } from '../../kernel/system';

/**
 * out += scale · (λ·Φ_qq) D: n × m, row-major (entry i·m + j), for the m directions D
 * (column j at D[j·n..]), in the tangent layout `layout` of n entries. Rows whose λ is zero,
 * and blocks without duals (rows linear in their coordinates), add nothing.
 */
export function addConstraintCurvature(system: System, mult: Multipliers, D: Float64Array, m: number, n: number, layout: Int32Array, out: Float64Array, scale = 1): Float64Array {
  const byBlock = new Map<number, { row: number; lambda: number }[]>();
  const add = (block: number, row: number, lambda: number) => { if (lambda !== 0) { const list = byBlock.get(block) ?? []; list.push({ row, lambda }); byBlock.set(block, list); } };
  for (let r = 0; r < mult.lambda.length; r++) add(mult.rowBlock[r], mult.rowInBlock[r], mult.lambda[r]);
  mult.driverBlocks.forEach((b, d) => add(b, 0, mult.driverLambda[d]));
  const rate = new JacobianRate();
  for (const [b, list] of byBlock) {
    const blk = system.block(b);
    if (!blk.duals) continue;
    const cols = blockColumns(system, b, layout);
    const ld = system.blockLocalDim(b);
    const res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * ld);
    for (let j = 0; j < m; j++) {
      const duals = rate.of(system, b, cols, D.subarray(j * n, (j + 1) * n), res, jac);
      for (const { row, lambda } of list) {
        const t = duals[row].t;
        if (t) for (let c = 0; c < ld; c++) if (cols[c] >= 0) out[cols[c] * m + j] += scale * lambda * t.d[c];
      }
    }
  }
  return out;
}
