/**
 * The constraints' curvature per row, so that H(λ) = Σ_r λ_r ∂²Φ_r/∂q² can be summed again
 * for every new λ. tangent.ts's constraintCurvature differentiates (both by kernel/jacobian-rate.ts) the blocks at one λ
 * (~400 tangent-mode block evaluations, most of a solve's time); the vehicle's Newton
 * (kkt-newton.ts) changes λ at every iteration — the loads of an acceleration move it far
 * more than the pose moves the rows' second derivatives — so it keeps the rows' own second
 * derivatives, taken once at a state, and weights them with each iteration's λ: ~30k
 * multiply-adds instead of the block evaluations, and Newton's quadratic rate back but for
 * the pose's small change since.
 */
import { JacobianRate, blockColumns } from '../../../kernel/jacobian-rate';
import type { System } from '../../../kernel/system';

interface BlockCurvature {
  /** Hard-row index of the block's first row (the caller's numbering). */
  row0: number;
  rows: number;
  /** Global tangent slot of each local column, −1 for a fixed variable's. */
  cols: Int32Array;
  /** T[(r · ld + j) · ld + c] = ∂J_rj/∂q_c, J the block's local Jacobian. */
  T: Float64Array;
}

export interface CurvatureTensor { n: number; blocks: BlockCurvature[] }

/**
 * Each block's rows' second derivatives at the current state. `blocks` are the hard blocks
 * with their first row's index, `colOfVar` the tangent slot of each variable (−1 fixed).
 */
export function curvatureTensor(sys: System, blocks: readonly number[], rowStart: Int32Array, colOfVar: Int32Array, n: number): CurvatureTensor {
  const out: BlockCurvature[] = [];
  const dir = new Float64Array(n), rate = new JacobianRate();
  blocks.forEach((b, bi) => {
    const blk = sys.block(b);
    if (!blk.duals) return; // rows linear in their coordinates
    const cols = blockColumns(sys, b, colOfVar);
    const ld = cols.length, res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * ld);
    const T = new Float64Array(blk.rows * ld * ld);
    cols.forEach((c, lc) => {
      if (c < 0) return;
      dir.fill(0); dir[c] = 1;
      const rows = rate.of(sys, b, cols, dir, res, jac);
      for (let r = 0; r < blk.rows; r++) {
        const t = rows[r].t;
        if (!t) continue;
        for (let j = 0; j < ld; j++) T[(r * ld + j) * ld + lc] = t.d[j];
      }
    });
    out.push({ row0: rowStart[bi], rows: blk.rows, cols: Int32Array.from(cols), T });
  });
  return { n, blocks: out };
}

/** H = Σ_r λ_r ∂²Φ_r/∂q² (n × n row-major, overwritten), λ per hard row. */
export function curvatureAt(t: CurvatureTensor, lambda: Float64Array, H: Float64Array): void {
  const n = t.n;
  H.fill(0, 0, n * n);
  for (const bc of t.blocks) {
    const { cols, T } = bc, ld = cols.length;
    for (let r = 0; r < bc.rows; r++) {
      const l = lambda[bc.row0 + r];
      if (l === 0) continue;
      for (let j = 0; j < ld; j++) {
        const gj = cols[j];
        if (gj < 0) continue;
        const base = (r * ld + j) * ld, hr = gj * n;
        for (let c = 0; c < ld; c++) { const x = T[base + c]; if (x !== 0 && cols[c] >= 0) H[hr + cols[c]] += l * x; }
      }
    }
  }
}
