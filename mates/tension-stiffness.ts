/**
 * The stiffness of a tension T between two material points, in closed form: a two-force
 * link's reaction held fixed (src/mechanics/reduced.ts), and a two-point spring at rest whose
 * tension changes with the length at the rate k = dT/dl (PointToPointForce's K without C).
 * It is the derivative the element's dual pass gives (the same K to rounding), without the
 * pass: a state's reduction held one pass per link, a compliant state one per spring.
 *
 * Body k ∈ {a, b}, rotation R_k, material point p_k (body axes), x_k = t_k + R_k p_k,
 * d = x_b − x_a, u = d/|d|. Body a takes F = T u at x_a, body b −F at x_b; the generalized
 * force of body k is (p_k × f_k, f_k) with f_k = s_k R_kᵀ F (s_a = 1, s_b = −1). A step
 * (ω_j, v_j) of body j (body axes) moves x_j by R_j(v_j − [p_j]ₓ ω_j) and turns f_k by
 * [f_k]ₓ ω_k, and F by P δd with P = (T/|d|)(I − u uᵀ) + k u uᵀ. So with B_kj = s_k σ_j R_kᵀ P R_j
 * (σ_a = −1, σ_b = 1):
 *   ∂f_k/∂v_j = B_kj,   ∂f_k/∂ω_j = −B_kj [p_j]ₓ + δ_kj [f_k]ₓ,   ∂m_k/∂· = [p_k]ₓ ∂f_k/∂·.
 */
import { rotationMatrix } from '../kernel/dual';

const Ra = new Float64Array(9), Rb = new Float64Array(9), P = new Float64Array(9);
const xa = new Float64Array(3), xb = new Float64Array(3), u = new Float64Array(3);
const fk = new Float64Array(3), RP = new Float64Array(9), B = new Float64Array(9), Bw = new Float64Array(9);

/**
 * K += ∂Q/∂δ of the tension T between point `pa` of the pose at `offA` (tangent slot `ca`,
 * −1 when fixed) and `pb` of the pose at `offB` (slot `cb`), the tension changing with the
 * length at the rate `axial` (0: held constant); K is n × n row-major.
 */
export function addTensionStiffness(
  K: Float64Array, n: number, state: Float64Array, T: number,
  offA: number, ca: number, pa: ArrayLike<number>, offB: number, cb: number, pb: ArrayLike<number>, axial = 0,
): void {
  rotationMatrix(Ra, state, offA + 3);
  rotationMatrix(Rb, state, offB + 3);
  worldPoint(xa, Ra, state, offA, pa);
  worldPoint(xb, Rb, state, offB, pb);
  const d0 = xb[0] - xa[0], d1 = xb[1] - xa[1], d2 = xb[2] - xa[2];
  const l = Math.hypot(d0, d1, d2);
  u[0] = d0 / l; u[1] = d1 / l; u[2] = d2 / l;
  const k = T / l;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) P[3 * i + j] = k * ((i === j ? 1 : 0) - u[i] * u[j]);
  if (axial !== 0) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) P[3 * i + j] += axial * u[i] * u[j];
  for (let body = 0; body < 2; body++) {
    const c = body === 0 ? ca : cb;
    if (c < 0) continue;
    const R = body === 0 ? Ra : Rb, p = body === 0 ? pa : pb, s = body === 0 ? 1 : -1;
    // f_k = s Rᵀ T u; RP = s Rᵀ P
    for (let i = 0; i < 3; i++) {
      fk[i] = s * T * (R[i] * u[0] + R[3 + i] * u[1] + R[6 + i] * u[2]);
      for (let j = 0; j < 3; j++) RP[3 * i + j] = s * (R[i] * P[j] + R[3 + i] * P[3 + j] + R[6 + i] * P[6 + j]);
    }
    for (let other = 0; other < 2; other++) {
      const cj = other === 0 ? ca : cb;
      if (cj < 0) continue;
      const Rj = other === 0 ? Ra : Rb, pj = other === 0 ? pa : pb, sigma = other === 0 ? -1 : 1;
      // B = σ RP R_j; Bw = −B [p_j]ₓ (+ [f_k]ₓ on the body's own columns)
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        B[3 * i + j] = sigma * (RP[3 * i] * Rj[j] + RP[3 * i + 1] * Rj[3 + j] + RP[3 * i + 2] * Rj[6 + j]);
      }
      for (let i = 0; i < 3; i++) {
        const b0 = B[3 * i], b1 = B[3 * i + 1], b2 = B[3 * i + 2];
        // row i of B [p]ₓ: [p]ₓ = [[0, −p2, p1], [p2, 0, −p0], [−p1, p0, 0]]
        Bw[3 * i] = -(b1 * pj[2] - b2 * pj[1]);
        Bw[3 * i + 1] = -(b2 * pj[0] - b0 * pj[2]);
        Bw[3 * i + 2] = -(b0 * pj[1] - b1 * pj[0]);
      }
      if (other === body) {
        // [f]ₓ
        Bw[1] -= fk[2]; Bw[2] += fk[1];
        Bw[3] += fk[2]; Bw[5] -= fk[0];
        Bw[6] -= fk[1]; Bw[7] += fk[0];
      }
      // force rows: [Bw | B]; moment rows: [p]ₓ [Bw | B], row i: p_{i+1} M_{i+2,·} − p_{i+2} M_{i+1,·}
      for (let i = 0; i < 3; i++) {
        const rowF = (c + 3 + i) * n + cj, rowM = (c + i) * n + cj;
        const i1 = i === 2 ? 0 : i + 1, i2 = i === 0 ? 2 : i - 1, q1 = p[i1], q2 = p[i2];
        for (let j = 0; j < 3; j++) {
          K[rowF + j] += Bw[3 * i + j];
          K[rowF + 3 + j] += B[3 * i + j];
          K[rowM + j] += q1 * Bw[3 * i2 + j] - q2 * Bw[3 * i1 + j];
          K[rowM + 3 + j] += q1 * B[3 * i2 + j] - q2 * B[3 * i1 + j];
        }
      }
    }
  }
}

function worldPoint(out: Float64Array, R: Float64Array, state: Float64Array, off: number, p: ArrayLike<number>): void {
  for (let i = 0; i < 3; i++) out[i] = R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2] + state[off + i];
}
