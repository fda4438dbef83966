/**
 * Where a residual block's local Jacobian columns land in a sparse row-block Jacobian: the
 * pattern of the compact columns a block touches, and per block the map from its local
 * columns to its stored columns with each column's scale. Shared by the sparse solver and
 * the sparse tangent, which lay out their Jacobians alike.
 */
import type { BlockRows, RowBlockPattern } from './sparse';
import type { ResidualBlock, System } from './system';

/** The compact columns (colOfVar: −1 for a fixed variable) a block's rows touch. */
export function blockPattern(system: System, colOfVar: ArrayLike<number>, blk: ResidualBlock): RowBlockPattern {
  const cols: number[] = [];
  for (const v of blk.vars) {
    const gc = colOfVar[v];
    if (gc >= 0) for (let d = 0; d < system.variables[v].dim; d++) cols.push(gc + d);
  }
  return { rows: blk.rows, cols };
}

export interface BlockColumnMaps {
  /** Per block k: its entries in map/scale are mapPtr[k] … mapPtr[k + 1]. */
  mapPtr: Int32Array;
  /** A local column's place among its block's stored columns (−1: a fixed variable). */
  map: Int32Array;
  /** A local column's scale (0 for a fixed variable). */
  scale: Float64Array;
  /** The largest local Jacobian of a block (rows × local columns). */
  widest: number;
}

/**
 * The column maps of `blocks` in `J`. A pose's turn columns get `turnScale` (1/L, or 0
 * where the caller reads 1/L at evaluation because L may change), its shift columns 1, any
 * other variable 1/scale.
 */
export function blockColumnMaps(system: System, colOfVar: ArrayLike<number>, blocks: readonly ResidualBlock[], J: BlockRows, turnScale: number): BlockColumnMaps {
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
        scale.push(variable.kind === 'pose' ? (d < 3 ? turnScale : 1) : 1 / variable.scale);
      }
    }
    widest = Math.max(widest, ld * blk.rows);
    mapPtr[k + 1] = map.length;
  });
  return { mapPtr, map: Int32Array.from(map), scale: Float64Array.from(scale), widest };
}
