/**
 * The start pose's derivative where the file's coordinates leave it free (docs/sensitivity.md
 * "A start the file leaves free"). The start solve (kernel/solver/solve.ts) takes minimum-norm Newton
 * steps in its scaled columns, ‖u‖² = L²|ω|² + |v|² for a pose and scale²·x² for a scalar (L the
 * length scale), from the file's pose. When that pose already satisfies the rows (the solve made
 * no move), a parameter moved by δ gives a first step u = −S⁺[Φ_p δ; 0] and later steps O(δ²),
 * so q₀' = −D⁻¹Sᵀ(S D⁻¹ Sᵀ)⁻¹[Φ_p; 0]: S the start's square-system rows (independent rows and
 * held coordinates), D that metric.
 */
import { LU } from '../../kernel/linalg';
import { GradientRefusal } from './refusal';
import type { System } from '../../kernel/system';

/** D, the start solve's column metric, in the tangent layout. */
export function startSolveMetric(system: System, layout: Int32Array, n: number): Float64Array {
  const D = new Float64Array(n), L = system.lengthScale;
  for (const v of system.variables) {
    const c0 = layout[v.id];
    if (c0 < 0) continue;
    for (let k = 0; k < v.dim; k++) D[c0 + k] = v.kind === 'pose' ? (k < 3 ? L * L : 1) : v.scale * v.scale;
  }
  return D;
}

/** x ← the minimum-norm solution of S x = b (b in x's first k entries), and its transpose, as LU's solve and solveTransposed. */
export class MinimumNormStart {
  private readonly T: LU;
  private readonly y: Float64Array;

  /** S: k × n row-major (k < n, full row rank), D: the metric's diagonal. */
  constructor(private readonly S: Float64Array, private readonly k: number, private readonly n: number, private readonly D: Float64Array) {
    const A = new Float64Array(k * k);
    for (let r = 0; r < k; r++) for (let s = 0; s <= r; s++) {
      let t = 0;
      for (let c = 0; c < n; c++) t += (S[r * n + c] * S[s * n + c]) / D[c];
      A[r * k + s] = t; A[s * k + r] = t;
    }
    this.T = new LU(k);
    if (!this.T.factor(A, k, 1e-13)) throw new GradientRefusal('the start rows are dependent');
    this.y = new Float64Array(k);
  }

  /** x (length n): in, b in its first k entries; out, D⁻¹Sᵀ T⁻¹ b. */
  solve(x: Float64Array): void {
    const { S, k, n, D, y } = this;
    for (let r = 0; r < k; r++) y[r] = x[r];
    this.T.solve(y);
    for (let c = 0; c < n; c++) { let s = 0; for (let r = 0; r < k; r++) s += S[r * n + c] * y[r]; x[c] = s / D[c]; }
  }

  /** x (length n): in, a cotangent on the solution; out, its cotangent on b in the first k entries (T is symmetric), zeros after. */
  solveTransposed(x: Float64Array): void {
    const { S, k, n, D, y } = this;
    for (let r = 0; r < k; r++) { let s = 0; for (let c = 0; c < n; c++) s += (S[r * n + c] * x[c]) / D[c]; y[r] = s; }
    this.T.solve(y);
    x.fill(0);
    for (let r = 0; r < k; r++) x[r] = y[r];
  }
}
