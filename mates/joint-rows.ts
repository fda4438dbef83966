/**
 * A joint's rows (mates/joints.ts) and their Jacobian written out by hand: the same rows as
 * JointBlock's dual pass, with the derivatives of rigid points and directions in closed
 * form. The dual pass costs a few dozen vector operations over every seeded column; this
 * is a few hundred flops and no calls, which matters where the rows are evaluated every
 * Newton iteration of every time step (kernel/integrator/integrator.ts). Values are computed by the
 * same operations in the same order as the dual pass (bit for bit); derivatives agree to
 * round-off (test/mates/joint-rows.test.ts). Tangent mode (second derivatives) stays on
 * the dual pass.
 *
 * Body k's columns (cols[k] ≥ 0) are its step (ω, v) in its own frame: a point p moves by
 * R(ω × p + v), a direction a by R(ω × a); so ∂(R_a â · R_b b̂)/∂ω_a = â × (R_aᵀ R_b b̂).
 */
import type { ReadonlyVec3 } from '../kernel/vec3';

/** A joint's frame on one part: its origin and axes (joints.ts builds them; the rows read them). */
export interface JointFrame {
  origin: ReadonlyVec3;
  x: ReadonlyVec3;
  y: ReadonlyVec3;
  z: ReadonlyVec3;
}

/** What the rows need of the joint: its frames, length scale and coordinate slots (−1: absent). */
export interface JointRowsInput {
  readonly type: string;
  readonly fa: JointFrame;
  readonly fb: JointFrame;
  readonly L: number;
  /** Index among the block's scalars of the angle, slide, slideX, slideY coordinates (−1: none). */
  readonly angle: number;
  readonly slides: Int32Array;
}

// scratch (module level: the evaluation is not re-entrant)
const xa = new Float64Array(3), ya = new Float64Array(3), za = new Float64Array(3);
const xb = new Float64Array(3), yb = new Float64Array(3), zb = new Float64Array(3);
const d = new Float64Array(3), pe = new Float64Array(3);
const slideValue = new Float64Array(3);
const SLIDE_AXES = [za, xa, ya];

function direction(out: Float64Array, R: Float64Array, a: ArrayLike<number>): void {
  const a0 = a[0], a1 = a[1], a2 = a[2];
  out[0] = R[0] * a0 + R[1] * a1 + R[2] * a2;
  out[1] = R[3] * a0 + R[4] * a1 + R[5] * a2;
  out[2] = R[6] * a0 + R[7] * a1 + R[8] * a2;
}

/**
 * The joint's rows into residual (and their Jacobian, rows × n row-major, into jacobian)
 * at poses with rotation matrices RA, RB; `cols` as MateBlock's (A, B, then the scalars).
 * `trig`, when given, receives the angle row's cos θ, sin θ (exactJointJacobian reads them
 * rather than calling cos and sin again).
 */
export function jointRows(
  joint: JointRowsInput, RA: Float64Array, RB: Float64Array, state: Float64Array, offsets: Int32Array,
  cols: Int32Array, n: number, rows: number, residual: Float64Array, jacobian: Float64Array | null,
  trig: Float64Array | null = null,
): void {
  const { type, fa, fb, L } = joint;
  const pa = fa.origin, pb = fb.origin, oA = offsets[0], oB = offsets[1];
  // origin rows: O_b − O_a − Σ slide·axis_a (the dual pass's order of operations)
  const pa0 = pa[0], pa1 = pa[1], pa2 = pa[2], pb0 = pb[0], pb1 = pb[1], pb2 = pb[2];
  for (let i = 0; i < 3; i++) {
    const oa = RA[3 * i] * pa0 + RA[3 * i + 1] * pa1 + RA[3 * i + 2] * pa2 + state[oA + i];
    const ob = RB[3 * i] * pb0 + RB[3 * i + 1] * pb1 + RB[3 * i + 2] * pb2 + state[oB + i];
    d[i] = ob - oa;
  }
  const ball = type === 'ball';
  if (!ball) {
    direction(xa, RA, fa.x); direction(ya, RA, fa.y); direction(za, RA, fa.z); direction(zb, RB, fb.z);
  }
  // the slides' coordinate slots, read once (a revolute has none)
  const slides = joint.slides, slid = slides[0] >= 0 || slides[1] >= 0 || slides[2] >= 0;
  if (slid) for (let s = 0; s < 3; s++) {
    const k = slides[s];
    if (k < 0) continue;
    const x = (slideValue[s] = state[offsets[2 + k]]), axis = SLIDE_AXES[s];
    for (let i = 0; i < 3; i++) d[i] = d[i] - axis[i] * x;
  }
  residual[0] = d[0]; residual[1] = d[1]; residual[2] = d[2];
  let c = 1, s = 0, rx = 0, ry = 0, rt = 0, ru = 1, q = 0;
  if (type === 'universal') {
    direction(yb, RB, fb.y);
    residual[3] = (xa[0] * yb[0] + xa[1] * yb[1] + xa[2] * yb[2]) * L;
  } else if (!ball) {
    residual[3] = (zb[0] * xa[0] + zb[1] * xa[1] + zb[2] * xa[2]) * L;
    residual[4] = (zb[0] * ya[0] + zb[1] * ya[1] + zb[2] * ya[2]) * L;
    direction(xb, RB, fb.x);
    // no angle coordinate: θ = 0 (cos, sin exactly 1, 0)
    if (joint.angle >= 0) { const theta = state[offsets[2 + joint.angle]]; c = Math.cos(theta); s = Math.sin(theta); }
    if (trig) { trig[0] = c; trig[1] = s; }
    rx = xb[0] * xa[0] + xb[1] * xa[1] + xb[2] * xa[2];
    ry = xb[0] * ya[0] + xb[1] * ya[1] + xb[2] * ya[2];
    rt = c * ry + -(s * rx);
    ru = c * rx + s * ry + 1;
    q = rt / ru;
    residual[5] = q * (2 * L);
  }
  if (!jacobian) return;

  // The body columns are written whole (rigidPointRows, turnRows); the scalars' columns are
  // zeroed here by a loop (the builtin fill's call was the rows' costliest line), the slides'
  // and the angle's entries written after
  const cA = cols[0], cB = cols[1];
  for (let k = 2; k < cols.length; k++) {
    const c = cols[k];
    if (c >= 0) for (let e = c, end = rows * n; e < end; e += n) jacobian[e] = 0;
  }
  // origin rows
  if (cA >= 0) {
    // −R_a (ω × p_e + v), p_e = p_a + Σ slide·axis (local): the slid origin
    pe[0] = pa[0]; pe[1] = pa[1]; pe[2] = pa[2];
    if (slid) for (let k = 0; k < 3; k++) {
      if (slides[k] < 0) continue;
      const local = k === 0 ? fa.z : k === 1 ? fa.x : fa.y, x = slideValue[k];
      pe[0] += x * local[0]; pe[1] += x * local[1]; pe[2] += x * local[2];
    }
    rigidPointRows(jacobian, n, cA, RA, pe, -1);
  }
  if (cB >= 0) rigidPointRows(jacobian, n, cB, RB, pb, 1);
  if (slid) for (let k = 0; k < 3; k++) {
    const j = slides[k];
    if (j < 0 || cols[2 + j] < 0) continue;
    const axis = SLIDE_AXES[k], col = cols[2 + j];
    for (let i = 0; i < 3; i++) jacobian[i * n + col] = -axis[i];
  }
  if (ball) return;
  if (type === 'universal') {
    for (let e = 3 * n, end = 4 * n; e < end; e++) jacobian[e] = 0;
    factor[0] = L;
    dotRow(jacobian, 3 * n, RA, fa.x, cA, yb, RB, fb.y, cB, xa);
    return;
  }
  // the angle row f = 2L rt/ru (rt = c·ry − s·rx, ru = 1 + c·rx + s·ry): its factors by array (numbers passed to turnRows would be boxed)
  const k2 = (2 * L) / ru;
  angleFactors[0] = L; angleFactors[1] = k2 * (-s - q * c); angleFactors[2] = k2 * (c - q * s);
  if (cA >= 0) turnRows(jacobian, n, cA, RA, zb, xb, fa.x, fa.y, fa.x, fa.y, 0);
  if (cB >= 0) turnRows(jacobian, n, cB, RB, xa, ya, fb.z, fb.z, fb.x, fb.x, 1);
  if (joint.angle >= 0 && cols[2 + joint.angle] >= 0) {
    jacobian[5 * n + cols[2 + joint.angle]] += k2 * ((-s * ry - c * rx) - q * (c * ry - s * rx));
  }
}

/** L, ∂f/∂rx, ∂f/∂ry of the angle row (turnRows' factors). */
const angleFactors = new Float64Array(3);

/**
 * Rows 3..5 at one body's columns col (ω, then v: zero), written whole. The axis rows
 * L ∂(z_b·x_a), L ∂(z_b·y_a) and the angle row's ∂f/∂rx ∂(x_b·x_a) + ∂f/∂ry ∂(x_b·y_a): with
 * u = Rᵀw, the ω-gradient of (R l)·w is l × u. For A (which 0): u = R_aᵀ z_b (rows 3, 4:
 * l = x_a, y_a), u' = R_aᵀ x_b (row 5: x_a, y_a); for B (1): u = R_bᵀ x_a (row 3: z_b, row 5's
 * rx: x_b), u' = R_bᵀ y_a (row 4: z_b, row 5's ry: x_b). Each entry as the sum into a zeroed row
 * it was (0 + …), in its order: the same bits.
 */
function turnRows(jac: Float64Array, n: number, col: number, R: Float64Array, w: Float64Array, w2: Float64Array,
  l3: ArrayLike<number>, l4: ArrayLike<number>, l5x: ArrayLike<number>, l5y: ArrayLike<number>, which: number): void {
  const L = angleFactors[0], fx = angleFactors[1], fy = angleFactors[2];
  const w0 = w[0], w1 = w[1], w22 = w[2], v0 = w2[0], v1 = w2[1], v2 = w2[2];
  const u0 = R[0] * w0 + R[3] * w1 + R[6] * w22, u1 = R[1] * w0 + R[4] * w1 + R[7] * w22, u2 = R[2] * w0 + R[5] * w1 + R[8] * w22;
  const t0 = R[0] * v0 + R[3] * v1 + R[6] * v2, t1 = R[1] * v0 + R[4] * v1 + R[7] * v2, t2 = R[2] * v0 + R[5] * v1 + R[8] * v2;
  // A: rows 3, 4 on u, row 5 on u' (both terms); B: row 3 and row 5's rx term on u, row 4 and ry's on u'
  const a0 = l3[0], a1 = l3[1], a2 = l3[2], b0 = l4[0], b1 = l4[1], b2 = l4[2];
  const x0 = l5x[0], x1 = l5x[1], x2 = l5x[2], y0 = l5y[0], y1 = l5y[1], y2 = l5y[2];
  const r3 = 3 * n + col, r4 = 4 * n + col, r5 = 5 * n + col;
  jac[r3] = 0 + L * (a1 * u2 - a2 * u1);
  jac[r3 + 1] = 0 + L * (a2 * u0 - a0 * u2);
  jac[r3 + 2] = 0 + L * (a0 * u1 - a1 * u0);
  // row 4 on u for A, u' for B; row 5's x term the other one; its y term on u' for both
  const p0 = which === 0 ? u0 : t0, p1 = which === 0 ? u1 : t1, p2 = which === 0 ? u2 : t2;
  const q0 = which === 0 ? t0 : u0, q1 = which === 0 ? t1 : u1, q2 = which === 0 ? t2 : u2;
  jac[r4] = 0 + L * (b1 * p2 - b2 * p1);
  jac[r4 + 1] = 0 + L * (b2 * p0 - b0 * p2);
  jac[r4 + 2] = 0 + L * (b0 * p1 - b1 * p0);
  jac[r5] = (0 + fx * (x1 * q2 - x2 * q1)) + fy * (y1 * t2 - y2 * t1);
  jac[r5 + 1] = (0 + fx * (x2 * q0 - x0 * q2)) + fy * (y2 * t0 - y0 * t2);
  jac[r5 + 2] = (0 + fx * (x0 * q1 - x1 * q0)) + fy * (y0 * t1 - y1 * t0);
  for (let r = r3 + 3; r < r3 + 6; r++) jac[r] = 0;
  for (let r = r4 + 3; r < r4 + 6; r++) jac[r] = 0;
  for (let r = r5 + 3; r < r5 + 6; r++) jac[r] = 0;
}

/** Rows 0..2 at body columns col: sign · R (ω × p + v), written (0 + x: the sum into a zeroed row it was, the same bits). */
function rigidPointRows(jac: Float64Array, n: number, col: number, R: Float64Array, p: Float64Array | ArrayLike<number>, sign: number): void {
  const px = p[0], py = p[1], pz = p[2];
  for (let i = 0; i < 3; i++) {
    const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2], base = i * n + col;
    jac[base] = 0 + sign * (-r1 * pz + r2 * py);
    jac[base + 1] = 0 + sign * (r0 * pz - r2 * px);
    jac[base + 2] = 0 + sign * (-r0 * py + r1 * px);
    jac[base + 3] = 0 + sign * r0;
    jac[base + 4] = 0 + sign * r1;
    jac[base + 5] = 0 + sign * r2;
  }
}

/**
 * Row at base += k ∂(a·b)/∂(ω_A, ω_B), a = R_A aLocal (world aWorld), b = R_B bLocal (world
 * bWorld), k = factor[0]: a number passed to a function V8 does not inline is boxed (an
 * allocation a call), an array's element is not.
 */
function dotRow(jac: Float64Array, base: number,
  RA: Float64Array, aLocal: ArrayLike<number>, cA: number, bWorld: Float64Array,
  RB: Float64Array, bLocal: ArrayLike<number>, cB: number, aWorld: Float64Array): void {
  if (cA >= 0) addTurnGradient(jac, base + cA, RA, aLocal, bWorld);
  if (cB >= 0) addTurnGradient(jac, base + cB, RB, bLocal, aWorld);
}
const factor = new Float64Array(1);

/** jac[at + j] += k · (local × (Rᵀ w))[j], k = factor[0], local × (Rᵀ w) being the ω-gradient of (R local)·w. */
function addTurnGradient(jac: Float64Array, at: number, R: Float64Array, local: ArrayLike<number>, w: Float64Array): void {
  const k = factor[0], w0 = w[0], w1 = w[1], w2 = w[2];
  const u0 = R[0] * w0 + R[3] * w1 + R[6] * w2;
  const u1 = R[1] * w0 + R[4] * w1 + R[7] * w2;
  const u2 = R[2] * w0 + R[5] * w1 + R[8] * w2;
  const l0 = local[0], l1 = local[1], l2 = local[2];
  jac[at] += k * (l1 * u2 - l2 * u1);
  jac[at + 1] += k * (l2 * u0 - l0 * u2);
  jac[at + 2] += k * (l0 * u1 - l1 * u0);
}
