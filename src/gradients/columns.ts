/**
 * The forward columns of a gradient run: per parameter j, column j of the position tangent
 * δ (q perturbed on the right), of the scheme's velocity, its rate and a (stride P). On
 * R³ × SO(3) the velocity columns are the scheme's own η', η̇', a'; `svB` then holds the body
 * twists' v' = P η' + Vq δ, which the results read (on SE(3) it is `sv` itself).
 */
import type { ProductMaps } from './product-step';

export interface Columns { sq: Float64Array; sv: Float64Array; svd: Float64Array; sa: Float64Array; svB: Float64Array }

export function allocateColumns(n: number, P: number, pm: ProductMaps | null): Columns {
  const sq = new Float64Array(n * P), sv = new Float64Array(n * P), svd = new Float64Array(n * P), sa = new Float64Array(n * P);
  return { sq, sv, svd, sa, svB: pm ? new Float64Array(n * P) : sv };
}
