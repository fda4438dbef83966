/**
 * The moving start's velocities, differentiated (src/gradients/run.ts; docs/sensitivity.md).
 * The integrator's consistent start (kernel/integrator/integrator.ts `start`) projects the file's velocities
 * v̂ onto the velocity constraints in the metric W (a specified slot weighs 1e10 more):
 *   v = v̂ − W⁻¹Jᵀe,   J v + r = 0,   i.e.   K [v; e] = [W v̂; −r],   K = [W Jᵀ; J 0].
 * When a hardpoint p moves the rows, J moves (J' = ∂J/∂q q₀' + ∂J/∂p), and so may v̂ (a part's
 * pose velocity is given in world axes: v̂ = Rᵀw in its body axes). Differentiated,
 *   K [v'; e'] = [W v̂' − J'ᵀe; −J'v],
 * with J'ᵀe = He q₀' + (∂Jᵀ/∂p)e (He = ∂(Jᵀe)/∂q) and J'v = Wv q₀' + (∂J/∂p)v (Wv = ∂(Jv)/∂q),
 * both from the constraint blocks in tangent mode. The rate r of a motion at t = 0 does not
 * depend on p. K is solved scaled by W^−½ (the weights span 1e10; the integrator's normal
 * equations J W⁻¹ Jᵀ would lose those digits here). The adjoint route takes the same tangent per
 * parameter (one solve each, at the start only) rather than K's transpose: with given rates the
 * two parted by up to 1e-8 of an entry, W v̂' and J'ᵀe being 1e10 times the result where they
 * meet (sensitivity.ts startColumns).
 */
import { LU } from '../../kernel/linalg';
import { GradientRefusal } from './refusal';
import type { DynamicsModel } from '../mechanics/build';
import { readVelocities } from '../mechanics/simulate';

export class StartVelocity {
  /** The projection's multipliers e (K [v; e] = [W v̂; J v]: the rates need not be known). */
  readonly e: Float64Array;
  private readonly K: LU;
  /** K's symmetric scaling: W^−½ on the velocity rows, 1 on the constraint rows. */
  private readonly s: Float64Array;
  private readonly x: Float64Array;
  private He = new Float64Array(0);
  private Wv = new Float64Array(0);

  /**
   * J (m × n, the start's rows), W's diagonal, the file's velocities v̂ and the projected v
   * (tangent size) and Vhat (n × n): ∂v̂/∂q; then `curvature` gives He and Wv (they need e).
   */
  constructor(
    private readonly n: number,
    private readonly m: number,
    private readonly J: Float64Array,
    private readonly W: Float64Array,
    vhat: Float64Array,
    v: Float64Array,
    private readonly Vhat: Float64Array,
  ) {
    const N = n + m, A = new Float64Array(N * N);
    this.s = new Float64Array(N).fill(1);
    for (let c = 0; c < n; c++) this.s[c] = 1 / Math.sqrt(W[c]);
    const s = this.s;
    for (let c = 0; c < n; c++) A[c * N + c] = 1;
    for (let r = 0; r < m; r++) for (let c = 0; c < n; c++) { const x = J[r * n + c] * s[c]; A[(n + r) * N + c] = x; A[c * N + n + r] = x; }
    // a row left out as redundant (all zero here: sensitivity.ts masks it) keeps e = 0
    for (let r = 0; r < m; r++) { let any = false; for (let c = 0; c < n; c++) if (J[r * n + c] !== 0) { any = true; break; } if (!any) A[(n + r) * N + n + r] = 1; }
    this.K = new LU(N);
    if (!this.K.factor(A, N, 1e-300)) throw new GradientRefusal('the start\'s velocity projection is singular');
    this.x = new Float64Array(N);
    const x = this.x;
    for (let c = 0; c < n; c++) x[c] = W[c] * vhat[c];
    for (let r = 0; r < m; r++) { let t = 0; for (let c = 0; c < n; c++) t += J[r * n + c] * v[c]; x[n + r] = t; }
    this.solveK(x);
    this.e = Float64Array.from(x.subarray(n));
  }

  /** x ← K⁻¹x (K symmetric: its own transpose), through the scaled factors. */
  private solveK(x: Float64Array): void {
    const s = this.s;
    for (let i = 0; i < x.length; i++) x[i] *= s[i];
    this.K.solve(x);
    for (let i = 0; i < x.length; i++) x[i] *= s[i];
  }

  /** He = ∂(Jᵀe)/∂q (n × n) and Wv = ∂(Jv)/∂q (m × n) at the start (copied). */
  curvature(He: Float64Array, Wv: Float64Array): void {
    this.He = Float64Array.from(He);
    this.Wv = Float64Array.from(Wv);
  }

  /** v' into `out` for q₀' (tangent), the parameter's own (∂Jᵀ/∂p)e (n) and (∂J/∂p)v (m). */
  tangent(q0: Float64Array, jpe: Float64Array, jpv: Float64Array, out: Float64Array): void {
    const { n, m, W, He, Wv, Vhat } = this, x = this.x;
    for (let i = 0; i < n; i++) {
      let s = 0, h = jpe[i];
      for (let l = 0; l < n; l++) { s += Vhat[i * n + l] * q0[l]; h += He[i * n + l] * q0[l]; }
      x[i] = W[i] * s - h;
    }
    for (let r = 0; r < m; r++) {
      let s = jpv[r];
      for (let c = 0; c < n; c++) s += Wv[r * n + c] * q0[c];
      x[n + r] = -s;
    }
    this.solveK(x);
    for (let c = 0; c < n; c++) out[c] = x[c];
  }
}

/**
 * The start projection's metric W (as kernel/integrator/integrator.ts `start` weighs it), the file's
 * velocities v̂ read at the current (start) state and ∂v̂/∂q: a part's pose velocity is given in
 * world axes, so in body axes v̂ = Rᵀw turns with the part, d(Rᵀw) = (Rᵀw) × δω.
 */
export function startMetric(dyn: DynamicsModel, layout: Int32Array, n: number): { W: Float64Array; vhat: Float64Array; Vhat: Float64Array } {
  const { v0, given } = readVelocities(dyn, layout, n);
  const { system } = dyn, L = system.lengthScale;
  const W = new Float64Array(n), Vhat = new Float64Array(n * n);
  for (const v of system.variables) {
    const c0 = layout[v.id];
    if (c0 < 0) continue;
    for (let k = 0; k < v.dim; k++) {
      const d = v.kind === 'pose' ? (k < 3 ? L * L : 1) : v.scale * v.scale;
      W[c0 + k] = given[c0 + k] ? d * 1e10 : d;
    }
    if (v.kind !== 'pose' || !given[c0]) continue;
    for (const o of [0, 3]) {
      const a = [v0[c0 + o], v0[c0 + o + 1], v0[c0 + o + 2]];
      const X = [0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0]; // a × δω = [a]ₓ δω
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) Vhat[(c0 + o + i) * n + c0 + j] = X[i * 3 + j];
    }
  }
  return { W, vhat: v0, Vhat };
}
