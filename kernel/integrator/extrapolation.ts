/**
 * A small system's Newton start on R³ × SO(3) (kernel/integrator/integrator.ts): v̇ and λ at a
 * step's end extrapolated through the last accepted steps (Lagrange through up to four of them,
 * the cubic; any step sizes) instead of held at the last step's. The scheme makes v, a and the
 * increment from that v̇ (TimeScheme.predict's guess), so only where Newton starts moves, not
 * the fixed point it converges to: the pendulum's start error falls from ~1e7 bounds to
 * 1e-3…1e1, close enough for its first correction to be accepted unchecked (unchecked.ts) on
 * every step the check interval allows. A kept matrix (corners, the quarter car) is not given
 * it: generalized-α's v̇ carries a slowly damped alternating part that the extrapolation
 * magnifies (docs/dynamics.md). Nothing here allocates after the constructor.
 */
const DEPTH = 4;
/** The cubic's weights through four equal steps (newest first). */
const BINOMIAL = Float64Array.of(4, -6, 4, -1);

export class StartExtrapolation {
  /** The last DEPTH accepted steps' v̇ (n) and λ (m) side by side, newest at `head`, and their times. */
  private readonly past: Float64Array;
  private readonly times = new Float64Array(DEPTH);
  private readonly weights = new Float64Array(DEPTH);
  private head = 0;
  private count = 0;

  constructor(private readonly n: number, private readonly m: number) {
    this.past = new Float64Array(DEPTH * (n + m));
  }

  /** Forget the history (a new start). */
  reset(): void { this.count = 0; }

  /** An accepted state at time t: its v̇ (the scheme's) and λ. */
  record(t: number, vdot: Float64Array, lambda: Float64Array): void {
    const w = this.n + this.m;
    this.head = (this.head + 1) % DEPTH;
    const o = this.head * w;
    this.past.set(vdot, o);
    this.past.set(lambda, o + this.n);
    this.times[this.head] = t;
    if (this.count < DEPTH) this.count++;
  }

  /**
   * v̇ and λ at time t by Lagrange through the recorded states (vdot, lambda overwritten);
   * false, nothing written, with fewer than two (the held start is then the scheme's own).
   */
  predict(t: number, vdot: Float64Array, lambda: Float64Array): boolean {
    const k = this.count;
    if (k < 2) return false;
    const { times, weights, past, n, m } = this, head = this.head, w = n + m;
    const o0 = head * w, o1 = ((head + DEPTH - 1) % DEPTH) * w;
    const o2 = k > 2 ? ((head + DEPTH - 2) % DEPTH) * w : o0, o3 = k > 3 ? ((head + DEPTH - 3) % DEPTH) * w : o0;
    this.lagrange(t, k);
    const w0 = weights[0], w1 = weights[1], w2 = k > 2 ? weights[2] : 0, w3 = k > 3 ? weights[3] : 0;
    for (let i = 0; i < n; i++) vdot[i] = w0 * past[o0 + i] + w1 * past[o1 + i] + w2 * past[o2 + i] + w3 * past[o3 + i];
    for (let i = 0, j = n; i < m; i++, j++) lambda[i] = w0 * past[o0 + j] + w1 * past[o1 + j] + w2 * past[o2 + j] + w3 * past[o3 + j];
    return true;
  }

  /** The k newest states' Lagrange weights at t into `weights` (newest first): equal steps give the binomial ones exactly. */
  private lagrange(t: number, k: number): void {
    const times = this.times, weights = this.weights, head = this.head;
    const h = t - times[head];
    let uniform = k === DEPTH;
    for (let i = 1; i < k && uniform; i++) {
      const d = times[(head + DEPTH - i + 1) % DEPTH] - times[(head + DEPTH - i) % DEPTH];
      uniform = Math.abs(d - h) <= 1e-9 * h;
    }
    if (uniform) { weights.set(BINOMIAL); return; }
    for (let i = 0; i < k; i++) {
      const ti = times[(head - i + DEPTH) % DEPTH];
      let l = 1;
      for (let j = 0; j < k; j++) if (j !== i) { const tj = times[(head - j + DEPTH) % DEPTH]; l *= (t - tj) / (ti - tj); }
      weights[i] = l;
    }
  }
}
