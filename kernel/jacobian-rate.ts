/**
 * The rate of a block's Jacobian along a direction of the state, by tangent mode
 * (dual.ts withTangents): ∂J_rc/∂q · d for every row r and local column c. It is the one
 * primitive of the constraints' curvature λ·Φ_qq, which the simulation gradients
 * (src/gradients/linearisation.ts), the loads' rates (src/mechanics/curvature.ts), the K&C
 * settle (compliance/tangent.ts) and the vehicle's Newton (vehicle/tangent.ts,
 * curvature-tensor.ts) each sum their own way.
 */
import { withSecondTangents, withTangents, type TangentSeeds } from './dual';
import type { Dual } from './dual-number';
import type { System } from './system';

/** Block b's local columns in a tangent layout: the layout's slot of each variable plus its index, −1 for a fixed variable's. */
export function blockColumns(system: System, b: number, layout: ArrayLike<number>): number[] {
  const cols: number[] = [];
  for (const v of system.block(b).vars) {
    const c0 = layout[v];
    for (let i = 0; i < system.variables[v].dim; i++) cols.push(c0 >= 0 ? c0 + i : -1);
  }
  return cols;
}

/**
 * Rates of blocks' Jacobians along directions. `of` gives a system's block b's rows with their rates
 * along `dir` (a tangent-layout vector; `cols` from blockColumns): rows[r].t.d[c] is
 * ∂J_rc/∂q · dir, a null `t` a row linear in its coordinates. `res` and `jac` are scratch of
 * the block's size; the block must have duals. The seeds and the evaluation are made once,
 * not per call (a gradient run calls it per column, block and step).
 */
export class JacobianRate {
  private cols: ArrayLike<number> = [];
  private dir: Float64Array = new Float64Array(0);
  private readonly seeds: TangentSeeds = {
    pose: (col) => (this.cols[col] >= 0 ? this.dir.subarray(this.cols[col], this.cols[col] + 6) : null),
    local: () => null,
    scalar: (col) => (this.cols[col] >= 0 ? this.dir[this.cols[col]] : 0),
  };

  // the call's block, read by `evaluate` (made once, like the seeds: no closure per pass)
  private system: System | null = null;
  private block = 0;
  private res: Float64Array = new Float64Array(0);
  private jac: Float64Array = new Float64Array(0);
  private readonly evaluate = (): readonly Dual[] => {
    const system = this.system!;
    system.evaluateBlock(this.block, this.res, this.jac);
    return system.block(this.block).duals!();
  };

  of(system: System, b: number, cols: ArrayLike<number>, dir: Float64Array, res: Float64Array, jac: Float64Array): readonly Dual[] {
    this.system = system; this.block = b; this.res = res; this.jac = jac;
    this.cols = cols;
    this.dir = dir;
    return withTangents(this.seeds, this.evaluate);
  }

  /**
   * `of` at the second tangent level (kernel/dual.ts withSecondTangents): rows[r].t along
   * `dir` as `of` gives it, rows[r].t2 along `second` (any seeds: a state direction with
   * moving geometry), and rows[r].t.t2.d[c] = d/dr (∂J_rc/∂q · dir), the state at
   * q∘exp(r·second) with dir held in its body frames — the constraints' third derivatives
   * that a loaded state's curvature λ·Φ_qq takes as it moves.
   */
  mixed(system: System, b: number, cols: ArrayLike<number>, dir: Float64Array, second: TangentSeeds, res: Float64Array, jac: Float64Array): readonly Dual[] {
    this.system = system; this.block = b; this.res = res; this.jac = jac;
    this.cols = cols;
    this.dir = dir;
    return withSecondTangents(this.seeds, second, this.evaluate);
  }
}
