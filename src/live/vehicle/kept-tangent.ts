/**
 * The live roll gradient and load transfer of a kept vehicle model (kept.ts): the exact
 * derivative of the state at rest along the lateral acceleration, by the implicit function
 * theorem on the equilibrium, on the saddle system the solve itself used
 * (src/suspension/vehicle/kkt-newton.ts):
 *
 *   [ K − H   −Jᵀ ] [ δ  ]   [ −∂Q/∂a ]
 *   [   J      0  ] [ λ' ] = [    0   ]
 *
 * K, J and H = ∂(Jᵀλ)/∂q at the solved state and its multipliers. tangent.ts's route takes a
 * basis of the constraints' null space (a pivoted QR of the Jacobian) and H column by column
 * (~400 tangent-mode block evaluations); here the solve's last factors, made at an iterate
 * near the solution with the curvature of an earlier state, are the preconditioner of an
 * iterative refinement whose residuals use the exact operator: K assembled at the state, J
 * the solve's last rows, and H·v as one directional derivative per loaded block (the blocks'
 * Jacobian rates along v, weighted by the state's λ). It stops when a correction is below
 * 1e-12 of the answer, or stops falling under 1e-10 of it (rounding): exact to rounding, not
 * an approximation (a step contracts ~1e-3 on a drag). Where the solve left no factors (its
 * fallback route converged) or the refinement does not converge, tangent.ts's route is taken.
 */
import { JacobianRate, blockColumns } from '../../../kernel/jacobian-rate.ts';
import type { VehicleModel } from '../../suspension/vehicle/assembly.ts';
import { G } from '../../suspension/vehicle/inertia-load.ts';
import { solvedWorkspace, type Workspace } from '../../suspension/vehicle/kkt-newton.ts';
import { applyAcceleration } from '../../suspension/vehicle/loads.ts';
import { accelerationDirection, derivativeReport, stateDerivative, tangentPoses, type StateDerivative } from '../../suspension/vehicle/tangent.ts';

const MAX_STEPS = 20;
const TOLERANCE = 1e-12;
/** A correction this small that no longer falls fourfold a step is rounding. */
const ROUNDING = 1e-10;
/** The solve's λ must balance the force to this fraction of the weight (its own tolerance is 1e-10). */
const BALANCED = 1e-6;

const REST = { ax: 0, ay: 0 };

export class KeptTangent {
  private readonly rate = new JacobianRate();
  /** How the last derivative was taken: refinement steps on the solve's factors, or 0 for tangent.ts's route. */
  steps = 0;

  /** d/d(ay) of the state solved at rest (the model's last solve, at 0 g). */
  lateral(m: VehicleModel): StateDerivative {
    const ws = solvedWorkspace(m);
    const delta = ws ? this.saddle(m, ws) : null;
    if (!delta) {
      this.steps = 0;
      return stateDerivative(m, REST, accelerationDirection('ay', REST));
    }
    return derivativeReport(m, tangentPoses(m, delta, ws!.colOfVar));
  }

  /** δ (the workspace's layout) by refinement on the solve's factors; null where that cannot be had. */
  private saddle(m: VehicleModel, ws: Workspace): Float64Array | null {
    const { n, r, D, J, jIdx, jCount } = ws;
    const s = ws.factorScale, N = n + r, forces = m.dyn.forces;
    const { v0, Q, Q1, K, g, b, z, res, v, Hv } = this.buffers(n, N);
    applyAcceleration(m, { ax: 0, ay: 1 });
    forces.assemble(v0, 0, Q1, null, null);
    applyAcceleration(m, REST);
    forces.assemble(v0, 0, Q, K, null); // last: leaves the contacts' reports at the state
    // the solve's λ (μ = s R⁻¹ λ) must balance this state's force: ‖D (Q − Jᵀλ)‖
    for (let j = 0; j < n; j++) g[j] = D[j] * Q[j];
    for (let e = 0; e < jCount; e++) { const idx = jIdx[e], p = (idx / n) | 0; g[idx - p * n] -= (J[idx] * ws.mu[p]) / s; }
    let gg = 0;
    for (let j = 0; j < n; j++) gg += g[j] * g[j];
    if (!(Math.sqrt(gg) <= (BALANCED * m.totalMass * G) / 1000)) return null;
    const hard = this.loadedBlocks(m, ws);
    z.fill(0);
    for (let i = 0; i < n; i++) b[i] = -s * D[i] * (Q1[i] - Q[i]);
    let last = Infinity;
    for (let step = 1; step <= MAX_STEPS; step++) {
      // res = b − A z with A = [s D (K − H) D, −Jsᵀ; Js, 0] exact at the state (z = 0 at first)
      if (step === 1) res.set(b);
      else this.residual(m, ws, hard, K, b, z, v, Hv, res);
      ws.lu.solve(res);
      let change = 0, size = 0;
      for (let i = 0; i < N; i++) z[i] += res[i];
      for (let i = 0; i < n; i++) { change = Math.max(change, Math.abs(res[i])); size = Math.max(size, Math.abs(z[i])); }
      this.steps = step;
      if (!Number.isFinite(change) || (step > 2 && change > last)) return null; // not contracting
      if (change <= TOLERANCE * size || (change <= ROUNDING * size && change > last / 4)) {
        for (let i = 0; i < n; i++) v[i] = D[i] * z[i];
        return v.slice();
      }
      last = change;
    }
    return null;
  }

  /** Scratch of the refinement, kept between frames (sizes n and N = n + rows). */
  private scratch: { n: number; N: number; v0: Float64Array; Q: Float64Array; Q1: Float64Array; K: Float64Array; g: Float64Array; b: Float64Array; z: Float64Array; res: Float64Array; v: Float64Array; Hv: Float64Array } | null = null;

  private buffers(n: number, N: number): NonNullable<KeptTangent['scratch']> {
    const s = this.scratch;
    if (s && s.n === n && s.N === N) return s;
    const f = (k: number) => new Float64Array(k);
    return (this.scratch = { n, N, v0: f(n), Q: f(n), Q1: f(n), K: f(n * n), g: f(n), b: f(N), z: f(N), res: f(N), v: f(n), Hv: f(n) });
  }

  /** res = b − A z, A the saddle matrix exact at the state (v, Hv: scratch of n). */
  private residual(m: VehicleModel, ws: Workspace, hard: ReturnType<KeptTangent['loadedBlocks']>, K: Float64Array, b: Float64Array, z: Float64Array, v: Float64Array, Hv: Float64Array, res: Float64Array): void {
    const { n, r, D, J, jIdx, jCount } = ws, s = ws.factorScale;
    for (let i = 0; i < n; i++) v[i] = D[i] * z[i];
    this.curvatureTimes(m, hard, v, Hv);
    for (let i = 0; i < n; i++) {
      let t = 0;
      const row = i * n;
      for (let j = 0; j < n; j++) t += K[row + j] * v[j];
      res[i] = b[i] - s * D[i] * (t - Hv[i]);
    }
    for (let p = 0; p < r; p++) res[n + p] = 0;
    for (let e = 0; e < jCount; e++) {
      const idx = jIdx[e], p = (idx / n) | 0, j = idx - p * n;
      res[j] += J[idx] * z[n + p];
      res[n + p] -= J[idx] * z[j];
    }
  }

  /** The hard blocks whose rows are nonlinear in their coordinates and loaded: each with its columns and λ. */
  private loadedBlocks(m: VehicleModel, ws: Workspace): { b: number; cols: number[]; lambda: Float64Array; res: Float64Array; jac: Float64Array }[] {
    const sys = m.dyn.system, out = [];
    for (let bi = 0; bi < ws.blocks.length; bi++) {
      const b = ws.blocks[bi], blk = sys.block(b);
      if (!blk.duals) continue;
      const lambda = ws.own.lambda.slice(ws.rowStart[bi], ws.rowStart[bi] + blk.rows);
      if (lambda.every((x) => x === 0)) continue;
      const cols = blockColumns(sys, b, ws.colOfVar);
      out.push({ b, cols, lambda, res: new Float64Array(blk.rows), jac: new Float64Array(blk.rows * cols.length) });
    }
    return out;
  }

  /** H v = Σ_r λ_r (∂J_r/∂q · v), by each block's Jacobian rate along v. */
  private curvatureTimes(m: VehicleModel, hard: ReturnType<KeptTangent['loadedBlocks']>, v: Float64Array, Hv: Float64Array): void {
    Hv.fill(0);
    for (const { b, cols, lambda, res, jac } of hard) {
      const rows = this.rate.of(m.dyn.system, b, cols, v, res, jac);
      for (let row = 0; row < lambda.length; row++) {
        const t = rows[row].t;
        if (!t || lambda[row] === 0) continue;
        for (let j = 0; j < cols.length; j++) if (cols[j] >= 0) Hv[cols[j]] += lambda[row] * t.d[j];
      }
    }
  }
}
