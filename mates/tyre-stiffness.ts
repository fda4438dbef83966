/**
 * The vertical tyre's K = ∂Q/∂δ and C = ∂Q/∂v in closed form, for a kept iteration matrix's
 * refresh (ForceBlock.refreshedDerivatives): what TyreForce's dual pass gives, without its
 * cost (~10 µs a tyre), but for the damping's velocity-dependent terms of K (zero at rest).
 *
 * Body k ∈ {w (the wheel), g (the road part)}, sign s_w = 1, s_g = −1, rotation R_k, origin
 * t_k, contact point x (the rim's lowest point: centre + ρ n, n = s/|s|, s = (a·e_z) a − e_z,
 * a the wheel's unit axis), lever ℓ_k = R_kᵀ(x − t_k). The load N = k p − c v_z acts as
 * F = N e_z at x on the wheel, −F on the road part: Q_k = s_k N h_k with
 * h_k = (ℓ_k × e_k, e_k), e_k = R_kᵀ e_z. A step (ω_j, v_j) (body axes) moves t_j by R_j v_j
 * and turns R_j by [ω_j]ₓ on the right; the contact point moves with the wheel alone,
 * ∂x/∂(ω_w, v_w) = X = [−R_w[c]ₓ + ρ (I − n nᵀ) ∂s/∂ω / |s|,  R_w] (∂a/∂ω = −R_w[â]ₓ).
 * Then, with f_k = s_k N e_k:
 *   ∂p/∂δ = g: wheel −e_zᵀX, road (q × e_g, e_g) (q the road point in its part);
 *   ∂f_k/∂ω_k = [f_k]ₓ,  ∂ℓ_k/∂(ω_k, v_k) = ([ℓ_k]ₓ, −I) (+ R_kᵀ X in the wheel's columns);
 *   K = k (s_k h_k) gᵀ + ∂f/∂δ and ∂m/∂δ = −[f_k]ₓ ∂ℓ_k + [ℓ_k]ₓ ∂f_k at fixed N;
 *   C = −c (s_k h_k) wᵀ,  w = ∂v_z/∂v: (s_j ℓ_j × e_j, s_j e_j) (exact).
 */
import { lastContact, tyreLoad, type TyreValuesInput } from './tyre-values';

const h = new Float64Array(12), g = new Float64Array(12), w = new Float64Array(12);
const X = new Float64Array(18), L = new Float64Array(6), E = new Float64Array(6), DL = new Float64Array(36);

/**
 * K and C (m × m row-major, m = 6 or 12 with a road part: written) of the tyre `e` at the
 * state and the bodies' velocities `xi`.
 */
export function tyreDerivatives(e: TyreValuesInput, state: Float64Array, offsets: ArrayLike<number>, xi: Float64Array, K: Float64Array, C: Float64Array): void {
  const N = tyreLoad(e, state, offsets, xi), bodies = e.road ? 2 : 1, m = 6 * bodies;
  if (!(N > 0)) { K.fill(0, 0, m * m); C.fill(0, 0, m * m); return; }
  const { RW, RR, x, a, s } = lastContact;
  // X = ∂x/∂(ω_w, v_w), 3 × 6 row-major
  const cen = e.centre, ax = e.axis;
  const an = Math.sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]), h0 = ax[0] / an, h1 = ax[1] / an, h2 = ax[2] / an;
  for (let i = 0; i < 3; i++) {
    const r0 = RW[3 * i], r1 = RW[3 * i + 1], r2 = RW[3 * i + 2];
    // −R[c]ₓ, row i: (r1 c2 − r2 c1, r2 c0 − r0 c2, r0 c1 − r1 c0) negated
    X[6 * i] = -(r1 * cen[2] - r2 * cen[1]);
    X[6 * i + 1] = -(r2 * cen[0] - r0 * cen[2]);
    X[6 * i + 2] = -(r0 * cen[1] - r1 * cen[0]);
    X[6 * i + 3] = r0; X[6 * i + 4] = r1; X[6 * i + 5] = r2;
  }
  const s2 = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
  if (s2 > 1e-24) {
    const sl = Math.sqrt(s2), n0 = s[0] / sl, n1 = s[1] / sl, n2 = s[2] / sl, az = a[2], f = e.radius / sl;
    // ∂a/∂ω = −R[â]ₓ (3 × 3), then ∂s = ∂a a_z + a ∂a_z, ∂n = (I − n nᵀ) ∂s / |s|
    for (let j = 0; j < 3; j++) {
      // column j of −R[â]ₓ: −R (â × e_j)
      const c0 = j === 0 ? 0 : j === 1 ? -h2 : h1;
      const c1 = j === 0 ? h2 : j === 1 ? 0 : -h0;
      const c2 = j === 0 ? -h1 : j === 1 ? h0 : 0;
      const d0 = -(RW[0] * c0 + RW[1] * c1 + RW[2] * c2);
      const d1 = -(RW[3] * c0 + RW[4] * c1 + RW[5] * c2);
      const d2 = -(RW[6] * c0 + RW[7] * c1 + RW[8] * c2);
      const t0 = d0 * az + a[0] * d2, t1 = d1 * az + a[1] * d2, t2 = d2 * az + a[2] * d2;
      const dot = n0 * t0 + n1 * t1 + n2 * t2;
      X[j] += f * (t0 - n0 * dot);
      X[6 + j] += f * (t1 - n1 * dot);
      X[12 + j] += f * (t2 - n2 * dot);
    }
  }
  for (let b = 0; b < bodies; b++) {
    const R = b === 0 ? RW : RR, off = offsets[b], o = 6 * b, sign = b === 0 ? 1 : -1;
    // ℓ = Rᵀ(x − t), e = Rᵀ e_z (R's third row)
    const x0 = x[0] - state[off], x1 = x[1] - state[off + 1], x2 = x[2] - state[off + 2];
    for (let i = 0; i < 3; i++) { L[3 * b + i] = R[i] * x0 + R[3 + i] * x1 + R[6 + i] * x2; E[3 * b + i] = R[6 + i]; }
    const l0 = L[3 * b], l1 = L[3 * b + 1], l2 = L[3 * b + 2], e0 = E[3 * b], e1 = E[3 * b + 1], e2 = E[3 * b + 2];
    // h = s (ℓ × e, e); w = s (ℓ × e, e) too (∂v_z/∂v, the contact's velocity wheel less road)
    h[o] = w[o] = sign * (l1 * e2 - l2 * e1);
    h[o + 1] = w[o + 1] = sign * (l2 * e0 - l0 * e2);
    h[o + 2] = w[o + 2] = sign * (l0 * e1 - l1 * e0);
    h[o + 3] = w[o + 3] = sign * e0; h[o + 4] = w[o + 4] = sign * e1; h[o + 5] = w[o + 5] = sign * e2;
  }
  // g = ∂p/∂δ: p = −x_z + ground + r_z
  for (let j = 0; j < 6; j++) g[j] = -X[12 + j];
  if (e.road) {
    const q = e.road.point, e0 = RR[6], e1 = RR[7], e2 = RR[8];
    g[6] = q[1] * e2 - q[2] * e1; g[7] = q[2] * e0 - q[0] * e2; g[8] = q[0] * e1 - q[1] * e0;
    g[9] = e0; g[10] = e1; g[11] = e2;
  }
  const k = e.stiffness, c = e.damping;
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) { K[i * m + j] = k * h[i] * g[j]; C[i * m + j] = -c * h[i] * w[j]; }
  // at fixed N: each body's f_k = s_k N e_k turns with it (∂f/∂ω_k = [f]ₓ), and its lever ℓ_k moves
  for (let b = 0; b < bodies; b++) {
    const R = b === 0 ? RW : RR, o = 6 * b, sN = (b === 0 ? 1 : -1) * N;
    const f0 = sN * E[3 * b], f1 = sN * E[3 * b + 1], f2 = sN * E[3 * b + 2];
    const l0 = L[3 * b], l1 = L[3 * b + 1], l2 = L[3 * b + 2];
    // ∂ℓ (3 × m): own ω columns [ℓ]ₓ, own v columns −I, the wheel's columns + Rᵀ X
    DL.fill(0, 0, 36);
    DL[o + 1] = -l2; DL[o + 2] = l1; DL[12 + o] = l2; DL[12 + o + 2] = -l0; DL[24 + o] = -l1; DL[24 + o + 1] = l0;
    DL[o + 3] = -1; DL[12 + o + 4] = -1; DL[24 + o + 5] = -1;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 6; j++) DL[12 * i + j] += R[i] * X[j] + R[3 + i] * X[6 + j] + R[6 + i] * X[12 + j];
    // moment rows += −[f]ₓ ∂ℓ = ∂ℓ × f, column by column
    for (let j = 0; j < m; j++) {
      const d0 = DL[j], d1 = DL[12 + j], d2 = DL[24 + j];
      K[o * m + j] += d1 * f2 - d2 * f1;
      K[(o + 1) * m + j] += d2 * f0 - d0 * f2;
      K[(o + 2) * m + j] += d0 * f1 - d1 * f0;
    }
    // force rows' own ω columns += [f]ₓ; moment rows' += [ℓ]ₓ [f]ₓ (= f ℓᵀ − (ℓ·f) I)
    const lf = l0 * f0 + l1 * f1 + l2 * f2;
    const F0 = o + 3, M0 = o;
    K[F0 * m + o + 1] -= f2; K[F0 * m + o + 2] += f1;
    K[(F0 + 1) * m + o] += f2; K[(F0 + 1) * m + o + 2] -= f0;
    K[(F0 + 2) * m + o] -= f1; K[(F0 + 2) * m + o + 1] += f0;
    for (let i = 0; i < 3; i++) {
      const fi = i === 0 ? f0 : i === 1 ? f1 : f2, row = (M0 + i) * m + o;
      K[row] += fi * l0; K[row + 1] += fi * l1; K[row + 2] += fi * l2;
      K[row + i] -= lf;
    }
  }
}
