/**
 * A bushing's stiffness K = ∂Q/∂δ in closed form for the case a compliant suspension asks
 * for at every Newton iterate: frame A on a fixed body (the chassis), the part at rest. Only
 * the part's 6 × 6 block is not dropped. With F, M the world force and moment on the part
 * (at its frame's origin o_B = R_B p + t_B), S = Σ k_i a_i a_iᵀ (A's world axes a_i), its
 * body-frame force f = R_Bᵀ F and moment m = R_Bᵀ M, and θ = log(R_rel) the rotation in A's
 * axes (R_rel = Aᵀ R_Aᵀ R_B B, A and B the frames' axes in their parts):
 *
 *   ∂f/∂ω = [f]ₓ + S_b [p]ₓ,   ∂f/∂v = −S_b               (S_b = R_Bᵀ S R_B)
 *   ∂Q_ω/∂ω = [p]ₓ ∂f/∂ω + [m]ₓ − R_Bᵀ R_A A diag(k_r) J_r⁻¹(θ) Bᵀ,   ∂Q_ω/∂v = [p]ₓ ∂f/∂v
 *
 * (a turn ω of the part turns R_rel by exp([Bᵀω]ₓ) on the right: dθ = J_r⁻¹(θ) Bᵀ ω, the
 * inverse right Jacobian of SO(3)). The forward-AD pass it replaces gives the same matrix to
 * round-off (test/mechanics/forces.test.ts); Q comes from the values pass, bit for bit.
 */

/** Inputs at the state: rotation matrices, the part's origin point, the frames' axes, the rates, and the values pass's results. */
export interface BushingAtRest {
  RA: Float64Array;
  RB: Float64Array;
  /** The part's frame origin in the part. */
  p: ArrayLike<number>;
  axesA: readonly ArrayLike<number>[];
  axesB: readonly ArrayLike<number>[];
  stiffness: ArrayLike<number>;
  rotationalStiffness: ArrayLike<number>;
  /** World force and moment on the part, and θ in A's axes (the values pass's `last`). */
  force: ArrayLike<number>;
  moment: ArrayLike<number>;
  rotation: ArrayLike<number>;
}

const fa = new Float64Array(9), fbB = new Float64Array(9), S = new Float64Array(9), Sb = new Float64Array(9), J = new Float64Array(9);
const fvw = new Float64Array(9), tmp = new Float64Array(9), Rot = new Float64Array(9);
// the skew matrices and body-axis vectors, written in place (no arrays per call)
const fX = new Float64Array(9), pX = new Float64Array(9), mX = new Float64Array(9), T = new Float64Array(9);
const f = new Float64Array(3), m = new Float64Array(3);

/** Writes the part's block (local slots 6..11, of 12) into K (12 × 12, row-major) and zeroes the rest. */
export function bushingStiffnessAtRest(b: BushingAtRest, K: Float64Array): void {
  K.fill(0, 0, 144);
  const { RA, RB, p } = b;
  // A's world axes a_i (rows of fa), and B's axes in the part (rows of fbB)
  for (let i = 0; i < 3; i++) {
    const a = b.axesA[i], e = b.axesB[i];
    for (let r = 0; r < 3; r++) { fa[3 * i + r] = RA[3 * r] * a[0] + RA[3 * r + 1] * a[1] + RA[3 * r + 2] * a[2]; fbB[3 * i + r] = e[r]; }
  }
  // S = Σ k_i a_i a_iᵀ (world), S_b = R_Bᵀ S R_B
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
    let s = 0;
    for (let i = 0; i < 3; i++) s += b.stiffness[i] * fa[3 * i + r] * fa[3 * i + c];
    S[3 * r + c] = s;
  }
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) { let s = 0; for (let k = 0; k < 3; k++) s += S[3 * r + k] * RB[3 * k + c]; tmp[3 * r + c] = s; }
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) { let s = 0; for (let k = 0; k < 3; k++) s += RB[3 * k + r] * tmp[3 * k + c]; Sb[3 * r + c] = s; }
  bodyAxes(f, RB, b.force); bodyAxes(m, RB, b.moment);
  const fx = f[0], fy = f[1], fz = f[2], px = p[0], py = p[1], pz = p[2];
  // ∂f/∂ω = [f]ₓ + S_b [p]ₓ (fvw), ∂f/∂v = −S_b
  skew(fX, fx, fy, fz); skew(pX, px, py, pz);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
    let s = fX[3 * r + c];
    for (let k = 0; k < 3; k++) s += Sb[3 * r + k] * pX[3 * k + c];
    fvw[3 * r + c] = s;
    K[(9 + r) * 12 + 6 + c] = s;
    K[(9 + r) * 12 + 9 + c] = -Sb[3 * r + c];
  }
  rotationalTerm(b);
  // moment rows: [p]ₓ ∂f/∂(ω, v), plus [m]ₓ − (the rotational term in Rot) on ω
  skew(mX, m[0], m[1], m[2]);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
    let w = mX[3 * r + c] - Rot[3 * r + c], v = 0;
    for (let k = 0; k < 3; k++) { w += pX[3 * r + k] * fvw[3 * k + c]; v -= pX[3 * r + k] * Sb[3 * k + c]; }
    K[(6 + r) * 12 + 6 + c] = w;
    K[(6 + r) * 12 + 9 + c] = v;
  }
}

function bodyAxes(out: Float64Array, R: Float64Array, y: ArrayLike<number>): void {
  for (let i = 0; i < 3; i++) out[i] = R[i] * y[0] + R[3 + i] * y[1] + R[6 + i] * y[2];
}

/** out = [x]ₓ (row-major). */
function skew(out: Float64Array, x: number, y: number, z: number): void {
  out[0] = 0; out[1] = -z; out[2] = y;
  out[3] = z; out[4] = 0; out[5] = -x;
  out[6] = -y; out[7] = x; out[8] = 0;
}

/** Rot = R_Bᵀ (Σ_i k_r,i a_i e_iᵀ) J_r⁻¹(θ) Bᵀ: the moment's rate on a turn of the part, in its axes. */
function rotationalTerm(b: BushingAtRest): void {
  const th = b.rotation, phi2 = th[0] * th[0] + th[1] * th[1] + th[2] * th[2], phi = Math.sqrt(phi2);
  // J_r⁻¹ = I + ½[θ]ₓ + c [θ]ₓ², c = 1/φ² − (1 + cos φ)/(2 φ sin φ) (its series near 0)
  const c = phi < 0.1 ? 1 / 12 + phi2 / 720 + (phi2 * phi2) / 30240 + (phi2 * phi2 * phi2) / 1209600 : 1 / phi2 - (1 + Math.cos(phi)) / (2 * phi * Math.sin(phi));
  skew(T, th[0], th[1], th[2]);
  for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) {
    let t2 = 0;
    for (let k = 0; k < 3; k++) t2 += T[3 * r + k] * T[3 * k + q];
    J[3 * r + q] = (r === q ? 1 : 0) + 0.5 * T[3 * r + q] + c * t2;
  }
  // W = diag(k_r) J_r⁻¹ Bᵀ (rows i: A's axis i; columns: the part's ω), Bᵀ[j][c] = axesB[j][c]
  for (let i = 0; i < 3; i++) for (let q = 0; q < 3; q++) {
    let s = 0;
    for (let j = 0; j < 3; j++) s += J[3 * i + j] * fbB[3 * j + q];
    tmp[3 * i + q] = b.rotationalStiffness[i] * s;
  }
  // Rot = R_Bᵀ Σ_i a_i W[i, ·]
  for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) {
    let s = 0;
    for (let i = 0; i < 3; i++) s += (b.RB[r] * fa[3 * i] + b.RB[3 + r] * fa[3 * i + 1] + b.RB[6 + r] * fa[3 * i + 2]) * tmp[3 * i + q];
    Rot[3 * r + q] = s;
  }
}
