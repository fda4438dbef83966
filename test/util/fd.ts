/**
 * Central differences through each variable's retraction: the independent route every
 * analytic or AD Jacobian is checked against (in tests only; never in the product).
 */
import type { System } from '../../kernel/system';

export function finiteDifferenceJacobian(system: System, blockIndex: number, h = 1e-6): { analytic: Float64Array; numeric: Float64Array; rows: number; cols: number } {
  const blk = system.block(blockIndex);
  const rows = blk.rows;
  let cols = 0;
  for (const v of blk.vars) cols += system.variables[v].dim;
  const analytic = new Float64Array(rows * cols);
  const res = new Float64Array(rows);
  system.evaluateBlock(blockIndex, res, analytic);
  const numeric = new Float64Array(rows * cols);
  const plus = new Float64Array(rows), minus = new Float64Array(rows);
  const snapshot = system.snapshot();
  let lc = 0;
  for (const vid of blk.vars) {
    const v = system.variables[vid];
    for (let k = 0; k < v.dim; k++) {
      const step = new Float64Array(v.dim);
      step[k] = h;
      system.retractVariable(v, step, 0);
      system.evaluateBlock(blockIndex, plus, null);
      system.restore(snapshot);
      step[k] = -h;
      system.retractVariable(v, step, 0);
      system.evaluateBlock(blockIndex, minus, null);
      system.restore(snapshot);
      for (let r = 0; r < rows; r++) numeric[r * cols + lc + k] = (plus[r] - minus[r]) / (2 * h);
    }
    lc += v.dim;
  }
  return { analytic, numeric, rows, cols };
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}
