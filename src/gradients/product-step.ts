/**
 * The step of `simulate` on R³ × SO(3) (kernel/integrator/product-group.ts), as the gradient
 * run differentiates it. The scheme's own velocity is η = (ω, ẋ), ẋ in world axes; the residual,
 * the rows and the forces read body twists v = P(q) η with P = diag(I, Rᵀ), and
 * v̇ = P η̇ − (0, ω × v_b). Positions stay perturbed on the right, q ∘ exp(δ) (SE(3) twist δ).
 *
 * Per pose, at a step's end (R, body ω, v_b, and a_b = Rᵀ ẍ = v̇_b + ω × v_b):
 *   dv_b = Rᵀ dη_v + [v_b]ₓ δω                                  (dv = P dη + Vq δ)
 *   dv̇_b = Rᵀ dη̇_v + ([a_b]ₓ − [ω]ₓ[v_b]ₓ) δω + [v_b]ₓ dω − [ω]ₓRᵀ dη_v  (dv̇ = P dη̇ + Wq δ + Wη dη)
 * and the product retraction x ← x + y_v, R ← R exp(y_ω) perturbed:
 *   δ' = diag(Eᵀ, Eᵀ) δ + diag(J_r(y_ω), R'ᵀ) dy,   E = exp(y_ω), R' = R E.
 * So the step's linear system is the SE(3) one with M → M P, ∂g/∂v − C → (∂g/∂v − C) P + M Wη,
 * H − K → H − K + M Wq + (∂g/∂v − C) Vq, and these two maps in place of Ad(exp(−y)) and J_r(y).
 * Scalars are untouched (P = 1). The matrices are n × n, dense in storage, nonzero in each
 * pose's 6 × 6 block only.
 */
import { rotationMatrix } from '../../kernel/dual';
import { rightJacobian } from '../../kernel/pose';
import { productFromBody, type PoseSlots } from '../../kernel/integrator/product-group';
import type { System } from '../../kernel/system';

export class ProductMaps {
  readonly poses: PoseSlots;
  /** P, Vq, Wq and Wη at the last `at` (n × n). */
  readonly P: Float64Array;
  readonly Vq: Float64Array;
  readonly Wq: Float64Array;
  readonly We: Float64Array;
  /** M P at the last `effective`. */
  readonly Meta: Float64Array;
  private readonly mass: Float64Array;
  /** First and last + 1 tangent column of each column's block (a pose's 6, a scalar's own). */
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  private readonly t1: Float64Array;
  private readonly t2: Float64Array;
  private readonly R = new Float64Array(9);
  private readonly G36 = new Float64Array(36);
  private readonly rot = new Float64Array(6);
  private readonly ab = new Float64Array(3);
  /** η, η̇ and the scheme's a at the start of the next step (the integrator's own, rebuilt from body twists). */
  private readonly eta: Float64Array;
  private readonly etaDot: Float64Array;
  private readonly etaA: Float64Array;
  private readonly nextEta: Float64Array;
  private readonly nextEtaDot: Float64Array;

  constructor(system: System, layout: Int32Array, readonly n: number, bodies: readonly { variable: number; M: Float64Array }[]) {
    const poseVars = system.variables.filter((v) => v.kind === 'pose' && layout[v.id] >= 0);
    this.poses = { offset: Int32Array.from(poseVars, (v) => v.offset), slot: Int32Array.from(poseVars, (v) => layout[v.id]) };
    const nn = n * n;
    [this.P, this.Vq, this.Wq, this.We, this.Meta, this.mass, this.t1, this.t2] = [0, 1, 2, 3, 4, 5, 6, 7].map(() => new Float64Array(nn));
    this.lo = new Int32Array(n); this.hi = new Int32Array(n);
    for (const v of system.variables) {
      const c0 = layout[v.id];
      if (c0 < 0) continue;
      for (let k = 0; k < v.dim; k++) { this.lo[c0 + k] = c0; this.hi[c0 + k] = c0 + v.dim; }
    }
    for (const b of bodies) {
      const c0 = layout[b.variable];
      if (c0 < 0) continue;
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) this.mass[(c0 + i) * n + c0 + j] = b.M[i * 6 + j];
    }
    [this.eta, this.etaDot, this.etaA, this.nextEta, this.nextEtaDot] = [0, 1, 2, 3, 4].map(() => new Float64Array(n));
  }

  /** P, Vq, Wq, Wη at `state` with body velocities v and accelerations vdot. */
  at(state: Float64Array, v: Float64Array, vdot: Float64Array): void {
    const { n, P, Vq, Wq, We, R, ab } = this;
    P.fill(0); Vq.fill(0); Wq.fill(0); We.fill(0);
    for (let i = 0; i < n; i++) P[i * n + i] = 1;
    for (let p = 0; p < this.poses.slot.length; p++) {
      const c = this.poses.slot[p];
      rotationMatrix(R, state, this.poses.offset[p] + 3);
      const w0 = v[c], w1 = v[c + 1], w2 = v[c + 2], u0 = v[c + 3], u1 = v[c + 4], u2 = v[c + 5];
      // a_b = v̇_b + ω × v_b
      ab[0] = vdot[c + 3] + w1 * u2 - w2 * u1; ab[1] = vdot[c + 4] + w2 * u0 - w0 * u2; ab[2] = vdot[c + 5] + w0 * u1 - w1 * u0;
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        const row = (c + 3 + i) * n;
        const rt = R[j * 3 + i]; // Rᵀ
        P[row + c + 3 + j] = rt;
        // [v_b]ₓ in (v, ω) and in Wη's (v, ω); [a_b]ₓ − [ω]ₓ[v_b]ₓ in Wq's (v, ω); −[ω]ₓRᵀ in Wη's (v, v)
        const vx = skew(u0, u1, u2, i, j);
        Vq[row + c + j] = vx;
        We[row + c + j] = vx;
        let wv = 0, wr = 0;
        for (let k = 0; k < 3; k++) { const wk = skew(w0, w1, w2, i, k); wv += wk * skew(u0, u1, u2, k, j); wr += wk * R[j * 3 + k]; }
        Wq[row + c + j] = skew(ab[0], ab[1], ab[2], i, j) - wv;
        We[row + c + 3 + j] = -wr;
      }
    }
  }

  /**
   * The retraction's maps of a step y that ended at `state` (R' = R E) into Ad and Jr, pose
   * blocks only (the caller has set the scalars'): diag(Eᵀ, Eᵀ) and diag(J_r(y_ω), R'ᵀ).
   */
  stepMaps(state: Float64Array, y: Float64Array, Ad: Float64Array, Jr: Float64Array): void {
    const { n, R, G36, rot } = this;
    for (let p = 0; p < this.poses.slot.length; p++) {
      const c = this.poses.slot[p];
      for (let i = 0; i < 3; i++) { rot[i] = y[c + i]; rot[3 + i] = 0; }
      rightJacobian(G36, rot);
      // E from J_r's companion: exp(y_ω) by Rodrigues
      const E = rodrigues(y[c], y[c + 1], y[c + 2]);
      rotationMatrix(R, state, this.poses.offset[p] + 3);
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) { Ad[(c + i) * n + c + j] = 0; Jr[(c + i) * n + c + j] = 0; }
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        Ad[(c + i) * n + c + j] = E[j * 3 + i];
        Ad[(c + 3 + i) * n + c + 3 + j] = E[j * 3 + i];
        Jr[(c + i) * n + c + j] = G36[i * 6 + j];
        Jr[(c + 3 + i) * n + c + 3 + j] = R[j * 3 + i];
      }
    }
  }

  /** In place: HK ← HK + M Wq + GC Vq, GC ← GC P + M Wη; Meta ← M P (after `at`). */
  effective(HK: Float64Array, GC: Float64Array): void {
    const { t1, t2 } = this;
    t1.fill(0); t2.fill(0);
    this.timesBlock(t1, this.mass, this.Wq);
    this.timesBlock(t1, GC, this.Vq);
    this.timesBlock(t2, GC, this.P);
    this.timesBlock(t2, this.mass, this.We);
    for (let i = 0; i < t1.length; i++) { HK[i] += t1[i]; GC[i] = t2[i]; }
    this.Meta.fill(0);
    this.timesBlock(this.Meta, this.mass, this.P);
  }

  /** out += X B with B block diagonal (nonzero only within each column's block). */
  private timesBlock(out: Float64Array, X: Float64Array, B: Float64Array): void {
    const { n, lo, hi } = this;
    for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) {
      const x = X[i * n + k];
      if (x === 0) continue;
      for (let j = lo[k]; j < hi[k]; j++) out[i * n + j] += x * B[k * n + j];
    }
  }

  /**
   * out[i·os + j] += scale·(A x)[i] for each column j < cols, x[k·xs + j] (Aᵀ with `transpose`):
   * a vector is one column of stride 1; the run's columns are P of stride P.
   */
  addColumns(out: Float64Array, os: number, A: Float64Array, x: Float64Array, xs: number, cols: number, scale = 1, transpose = false): void {
    const { n, lo, hi } = this;
    for (let i = 0; i < n; i++) for (let k = lo[i]; k < hi[i]; k++) {
      const a = scale * (transpose ? A[k * n + i] : A[i * n + k]);
      if (a === 0) continue;
      for (let j = 0; j < cols; j++) out[i * os + j] += a * x[k * xs + j];
    }
  }

  /** The scheme's η, η̇ and a at the run's start (a₀ = η̇₀, as the integrator starts). */
  start(state: Float64Array, v: Float64Array, vdot: Float64Array): void {
    productFromBody(state, this.poses, v, vdot, this.eta, this.etaDot);
    this.etaA.set(this.etaDot);
  }

  /**
   * The Lie step y = h(η_n + h c1 a_n + h β a_{n+1}) of the step that just ended at `state`
   * (body v, vdot), a_{n+1} = (αf η̇_n + (1 − αf) η̇_{n+1} − αm a_n)/(1 − αm); then the step's end becomes the next start.
   */
  lieStep(y: Float64Array, h: number, state: Float64Array, v: Float64Array, vdot: Float64Array, k: { alphaM: number; alphaF: number; beta: number; c1: number }): void {
    const { eta, etaDot, etaA, nextEta, nextEtaDot } = this;
    productFromBody(state, this.poses, v, vdot, nextEta, nextEtaDot);
    for (let i = 0; i < this.n; i++) {
      const aNew = (k.alphaF * etaDot[i] + (1 - k.alphaF) * nextEtaDot[i] - k.alphaM * etaA[i]) / (1 - k.alphaM);
      y[i] = h * (eta[i] + h * k.c1 * etaA[i] + h * k.beta * aNew);
      etaA[i] = aNew;
    }
    eta.set(nextEta); etaDot.set(nextEtaDot);
  }
}

/** [a]ₓ's entry (i, j): a × x = [a]ₓ x. */
function skew(a0: number, a1: number, a2: number, i: number, j: number): number {
  if (i === j) return 0;
  const k = 3 - i - j, s = (j - i + 3) % 3 === 1 ? -1 : 1;
  const a = k === 0 ? a0 : k === 1 ? a1 : a2;
  return s * a;
}

const Ebuf = new Float64Array(9);
/** exp([w]ₓ) row-major. */
function rodrigues(w0: number, w1: number, w2: number): Float64Array {
  const th2 = w0 * w0 + w1 * w1 + w2 * w2, th = Math.sqrt(th2);
  const a = th < 1e-4 ? 1 - th2 / 6 + (th2 * th2) / 120 : Math.sin(th) / th;
  const b = th < 1e-4 ? 0.5 - th2 / 24 + (th2 * th2) / 720 : (1 - Math.cos(th)) / th2;
  const W = [0, -w2, w1, w2, 0, -w0, -w1, w0, 0];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += W[i * 3 + k] * W[k * 3 + j];
    Ebuf[i * 3 + j] = (i === j ? 1 : 0) + a * W[i * 3 + j] + b * s;
  }
  return Ebuf;
}
