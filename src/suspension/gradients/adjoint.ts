/**
 * The adjoint route (dynamics.md): one transposed solve per metric on the state's factors,
 * Φ_qᵀ μ = ∂m/∂qᵀ, then dm/dp = ∂m/∂p − μᵀ Φ_p. Its scratch is kept per state size.
 */
import { zeroedFloats } from '../../../kernel/float-slab';
import type { TangentSpace } from '../../../kernel/analysis';
import type { Dual } from '../../../kernel/dual';
import type { StateFactors } from './types';

type Scratch = ReturnType<typeof adjointScratch>;

export class AdjointSolver {
  /** Scratch of one state size: the unit seeds (n state columns, then P nulls), b, z, μ. */
  private ws: Scratch | null = null;

  /**
   * The tangent to evaluate the metrics along: columns 0..n unit state rates (∂m/∂q); n..n+P
   * the points' own moves (∂m/∂p, added by explicitPointRate; their state rates are null, i.e. zero).
   */
  tangent(f: StateFactors, P: number): TangentSpace {
    const { M, n, layout } = f;
    const ws = this.ws?.n === n && this.ws.M === M ? this.ws : (this.ws = adjointScratch(n, M, P));
    return { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: ws.unit, layout, size: n };
  }

  /** Each finite metric's value and dm/dp into `out`, from its duals along {@link tangent}. */
  addGradients(f: StateFactors, duals: Map<string, Dual>, P: number, out: Map<string, { value: number; g: Float64Array }>): void {
    const { qr, B, M, n, colScale, spans } = f;
    const { b, z, mu } = this.ws!;
    const perm = qr.perm;
    const { start, at } = spans;
    for (const [key, m] of duals) {
      if (!Number.isFinite(m.v)) continue;
      // Φ_qᵀ μ = ∂m/∂qᵀ on the state's factorisation (columns scaled and pivoted)
      const d = m.d;
      for (let a = 0; a < n; a++) b[a] = d[perm[a]] * colScale[perm[a]];
      qr.solveRt(z, b);
      mu.fill(0);
      mu.set(z);
      qr.applyQ(mu);
      // dm/dp = ∂m/∂p − μᵀ Φ_p (B holds −Φ_p), over the rows where B can be nonzero
      const g = zeroedFloats(P);
      for (let k = 0; k < P; k++) {
        let s = 0;
        const col = k * M;
        for (let e = start[k]; e < start[k + 1]; e += 2) for (let r = at[e]; r < at[e + 1]; r++) s += mu[r] * B[col + r];
        g[k] = d[n + k] + s;
      }
      out.set(key, { value: m.v, g });
    }
  }
}

function adjointScratch(n: number, M: number, P: number) {
  const unit: (Float64Array | null)[] = [];
  for (let j = 0; j < n; j++) { const e = new Float64Array(n); e[j] = 1; unit.push(e); }
  for (let k = 0; k < P; k++) unit.push(null);
  return { n, M, unit, b: new Float64Array(n), z: new Float64Array(n), mu: new Float64Array(M), g: new Float64Array(P) };
}
