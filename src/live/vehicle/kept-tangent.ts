/**
 * The live roll gradient and load transfer of a kept vehicle model (kept.ts): the exact
 * derivative of the state at rest along the lateral acceleration (tangent.ts, K_r α = Nᵀ ∂Q/∂a),
 * without differentiating every constraint block column by column at every frame.
 *
 * tangent.ts's exactReduced takes the constraints' curvature H = ∂(Φ_qᵀ λ)/∂q column by
 * column (~400 tangent-mode block evaluations, most of its time). A drag moves the state
 * and λ a little per frame, so the H of an earlier frame is kept: K_r is made with it,
 * and the answer is brought to the exact K_r's by iterative refinement, each residual
 * taking the exact H·v as one directional derivative per loaded block (the blocks'
 * Jacobian rates along v, weighted by this state's λ). The refinement stops when a
 * correction is below 1e-12 of the answer or stops falling below 1e-11 of it (rounding):
 * exact to rounding, not an approximation (one step contracts ~1e-4 on a drag). When
 * it contracts slowly (the kept H is far from this state's), H is taken afresh.
 */
import { JacobianRate, blockColumns } from '../../../kernel/jacobian-rate.ts';
import { LU } from '../../../kernel/linalg.ts';
import { constraintMultipliers } from '../../../kernel/multipliers.ts';
import type { VehicleModel } from '../../suspension/vehicle/assembly.ts';
import { applyAcceleration } from '../../suspension/vehicle/loads.ts';
import { VehicleSingularError } from '../../suspension/vehicle/errors.ts';
import { derivativeReport, exactReduced, tangentPoses, type StateDerivative } from '../../suspension/vehicle/tangent.ts';

/** Refinement steps beyond which the kept curvature is taken afresh (next frame). */
const SLOW = 6;
const MAX_STEPS = 30;
const TOLERANCE = 1e-12;
/** A correction this small that no longer falls fourfold a step is rounding. */
const ROUNDING = 1e-11;

export class KeptTangent {
  private H: Float64Array | null = null;
  private readonly rate = new JacobianRate();
  /** Refinement steps of the last derivative (0: the curvature was taken afresh). */
  steps = 0;

  /** Forget the kept curvature (another vehicle, or a model built afresh). */
  reset(): void { this.H = null; }

  /** d/d(ay) of the state solved at rest (loads of 0 g on the model). */
  lateral(m: VehicleModel): StateDerivative {
    const rest = { ax: 0, ay: 0 };
    const n = m.dyn.forces.size;
    const v0 = new Float64Array(n), Q0 = new Float64Array(n), Q1 = new Float64Array(n);
    applyAcceleration(m, { ax: 0, ay: 1 });
    m.dyn.forces.assemble(v0, 0, Q1, null, null);
    applyAcceleration(m, rest);
    m.dyn.forces.assemble(v0, 0, Q0, null, null); // leaves the contacts' reports at the state
    const kept = this.H !== null && this.H.length === n * n ? this.H : null;
    const red = exactReduced(m, kept);
    const { N, k, Kr } = red;
    const g = new Float64Array(k);
    for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < n; j++) s += N[a * n + j] * (Q1[j] - Q0[j]); g[a] = s; }
    const lu = new LU(k);
    if (!lu.factor(Kr, k, 0)) throw new VehicleSingularError('', 'the vehicle\'s reduced stiffness is singular: a motion nothing holds');
    const alpha = g.slice();
    lu.solve(alpha);
    this.steps = 0;
    if (kept) {
      const converged = this.refine(m, red, kept, Q0, g, alpha, lu);
      if (!converged) return this.fresh(m);
      if (this.steps > SLOW) this.H = null;
    } else this.H = red.H;
    applyAcceleration(m, rest);
    return derivativeReport(m, tangentPoses(m, this.delta(N, alpha, k, n), red.layout));
  }

  /** Without the kept curvature: exactReduced's own, kept for the next frames. */
  private fresh(m: VehicleModel): StateDerivative {
    this.H = null;
    return this.lateral(m);
  }

  private delta(N: Float64Array, alpha: Float64Array, k: number, n: number): Float64Array {
    const d = new Float64Array(n);
    for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) d[j] += N[a * n + j] * alpha[a];
    return d;
  }

  /**
   * α ← α + K̃_r⁻¹ (g − K_r α) with K̃_r the kept curvature's reduced stiffness (factored in
   * `lu`) and K_r α = K̃_r α + Nᵀ (H − H̃) N α, H N α exact; true when it converged.
   */
  private refine(m: VehicleModel, red: ReturnType<typeof exactReduced>, kept: Float64Array, Q: Float64Array, g: Float64Array, alpha: Float64Array, lu: LU): boolean {
    const sys = m.dyn.system, { N, k, Kr, layout } = red, n = red.size;
    const mult = constraintMultipliers(sys, Q);
    // λ per loaded block with rows nonlinear in their coordinates
    const blocks = new Map<number, Float64Array>();
    for (let i = 0; i < mult.lambda.length; i++) {
      const b = mult.rowBlock[i];
      if (!sys.block(b).duals || mult.lambda[i] === 0) continue;
      if (!blocks.has(b)) blocks.set(b, new Float64Array(sys.block(b).rows));
      blocks.get(b)![mult.rowInBlock[i]] = mult.lambda[i];
    }
    const cols = new Map<number, number[]>();
    for (const b of blocks.keys()) cols.set(b, blockColumns(sys, b, layout));
    const r = new Float64Array(k), Hv = new Float64Array(n);
    let big = 0, last = Infinity;
    for (let a = 0; a < k; a++) big = Math.max(big, Math.abs(alpha[a]));
    for (let step = 1; step <= MAX_STEPS; step++) {
      const v = this.delta(N, alpha, k, n);
      // (H − H̃) v: H v by the blocks' Jacobian rates along v, H̃ v dense
      Hv.fill(0);
      for (const [b, lb] of blocks) {
        const c = cols.get(b)!, blk = sys.block(b);
        const rows = this.rate.of(sys, b, c, v, new Float64Array(blk.rows), new Float64Array(blk.rows * c.length));
        for (let row = 0; row < blk.rows; row++) {
          const t = rows[row].t;
          if (!t || lb[row] === 0) continue;
          for (let j = 0; j < c.length; j++) if (c[j] >= 0) Hv[c[j]] += lb[row] * t.d[j];
        }
      }
      for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += kept[i * n + j] * v[j]; Hv[i] -= s; }
      for (let a = 0; a < k; a++) {
        let s = g[a];
        for (let b = 0; b < k; b++) s -= Kr[a * k + b] * alpha[b];
        for (let j = 0; j < n; j++) s -= N[a * n + j] * Hv[j];
        r[a] = s;
      }
      lu.solve(r);
      let change = 0;
      for (let a = 0; a < k; a++) { alpha[a] += r[a]; change = Math.max(change, Math.abs(r[a])); }
      this.steps = step;
      if (!(change <= 1e3 * big)) return false; // diverging (or NaN)
      // done at the tolerance, or where the corrections stop falling (rounding's floor, ~1e-13 here)
      if (change <= TOLERANCE * big || (change <= ROUNDING * big && change > last / 4)) return true;
      last = change;
    }
    return false;
  }
}
