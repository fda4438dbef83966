/**
 * The adjoint route (dynamics.md): dm/dp = ∂m/∂p − μᵀ Φ_p with Φ_qᵀ μ = ∂m/∂qᵀ. The metrics
 * read the state only through the poses of a few parts (a corner's: its upright's), so ∂m/∂q
 * is zero outside those parts' columns S, and μ = Σ_{a∈S} ∂m/∂q_a · μ_a with one transposed
 * solve Φ_qᵀ μ_a = e_a per column a of S, whatever the number of metrics. Each μ_aᵀ(−Φ_p) is
 * row a of q̇ = −Φ_q⁻¹ Φ_p: so the metrics are evaluated once, as duals over the P parameters,
 * along those rows (the other rows zero, never read) with each point's own move added (the
 * direct route's evaluation, |S| transposed solves in place of its P forward ones).
 * S is found by the evaluation itself: the parts whose points it seeds; one that was not in S
 * is added and the state evaluated again (the first state of a structure, or a metric that
 * starts reading a part). Its scratch is kept per state size.
 */
import type { TangentSpace } from '../../../kernel/analysis';
import type { DualEvaluation } from './evaluate-along';
import type { SensitivityContext, StateFactors } from './types';

type Scratch = ReturnType<typeof adjointScratch>;

export class AdjointSolver {
  private ws: Scratch | null = null;
  /** The variables whose rows of q̇ are computed (S), for the state layout they were found with. */
  private read: { layout: Int32Array; vars: number[] } | null = null;

  /**
   * The first-order metrics' evaluation at the factored state as duals over the P parameters
   * (column k: dm/dp_k), and the tangent it ran along (column k: the rows S of q̇ for p_k).
   */
  evaluate(ctx: SensitivityContext, f: StateFactors, P: number): { space: TangentSpace; ev: DualEvaluation } {
    const { M, n, layout } = f;
    const vars = ctx.sm.model.system.variables.length;
    const ws = this.ws?.n === n && this.ws.M === M && this.ws.P === P && this.ws.seen.length === vars ? this.ws : (this.ws = adjointScratch(n, M, P, vars));
    if (!this.read || !sameLayout(this.read.layout, layout)) {
      ws.rates.forEach((r) => r.fill(0));
      // the rack coordinate: an axle's rack_displacement reads its row (first-order-duals.ts)
      const steer = ctx.sm.steering, axle = ctx.sm.roles.scope === 'axle';
      this.read = { layout: layout.slice(), vars: axle && steer >= 0 && layout[steer] >= 0 ? [steer] : [] };
    }
    const read = this.read;
    const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: ws.rates, layout, size: n };
    const variables = ctx.sm.model.system.variables;
    for (const v of read.vars) this.stateRows(f, v, variables[v].dim, P);
    for (;;) {
      ws.seen.fill(0);
      // the first-order duals read the corners' and axle's duals only: no values made
      const ev = ctx.evaluateAlong(space, 0, ws.seen, true);
      let grown = false;
      for (let v = 0; v < ws.seen.length; v++) {
        if (!ws.seen[v] || layout[v] < 0 || read.vars.includes(v)) continue;
        read.vars.push(v);
        this.stateRows(f, v, variables[v].dim, P);
        grown = true;
      }
      if (!grown) return { space, ev };
    }
  }

  /** Rows of q̇ for variable v's columns: one transposed solve each, times −Φ_p. */
  private stateRows(f: StateFactors, v: number, dim: number, P: number): void {
    const { solver, B, M, spans, layout } = f;
    const { mu, rates } = this.ws!;
    const { start, at } = spans;
    const c0 = layout[v];
    for (let a = c0; a < c0 + dim; a++) {
      solver.unitTransposed(mu, a);
      // q̇_a per parameter = μᵀ (−Φ_p) (B holds −Φ_p), over the rows where B can be nonzero
      for (let k = 0; k < P; k++) {
        let s = 0;
        const col = k * M;
        for (let e = start[k]; e < start[k + 1]; e += 2) for (let r = at[e]; r < at[e + 1]; r++) s += mu[r] * B[col + r];
        rates[k][a] = s;
      }
    }
  }
}

function sameLayout(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function adjointScratch(n: number, M: number, P: number, variables: number) {
  const rates: Float64Array[] = [];
  for (let k = 0; k < P; k++) rates.push(new Float64Array(n));
  return { n, M, P, rates, mu: new Float64Array(M), seen: new Uint8Array(variables) };
}
