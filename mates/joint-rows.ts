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
  for (let s = 0; s < 3; s++) {
    const k = joint.slides[s];
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

  // The origin rows' body columns are written whole (rigidPointRows); the rest is zeroed here
  // by a loop (the builtin fill's call was the rows' costliest line): the scalars' columns of
  // the origin rows, then the rows after them
  const cA = cols[0], cB = cols[1];
  for (let k = 2; k < cols.length; k++) {
    const c = cols[k];
    if (c >= 0) { jacobian[c] = 0; jacobian[n + c] = 0; jacobian[2 * n + c] = 0; }
  }
  for (let e = 3 * n, end = rows * n; e < end; e++) jacobian[e] = 0;
  // origin rows
  if (cA >= 0) {
    // −R_a (ω × p_e + v), p_e = p_a + Σ slide·axis (local): the slid origin
    pe[0] = pa[0]; pe[1] = pa[1]; pe[2] = pa[2];
    for (let k = 0; k < 3; k++) {
      if (joint.slides[k] < 0) continue;
      const local = k === 0 ? fa.z : k === 1 ? fa.x : fa.y, x = slideValue[k];
      pe[0] += x * local[0]; pe[1] += x * local[1]; pe[2] += x * local[2];
    }
    rigidPointRows(jacobian, n, cA, RA, pe, -1);
  }
  if (cB >= 0) rigidPointRows(jacobian, n, cB, RB, pb, 1);
  for (let k = 0; k < 3; k++) {
    const j = joint.slides[k];
    if (j < 0 || cols[2 + j] < 0) continue;
    const axis = SLIDE_AXES[k], col = cols[2 + j];
    for (let i = 0; i < 3; i++) jacobian[i * n + col] = -axis[i];
  }
  if (ball) return;
  if (type === 'universal') {
    factor[0] = L;
    dotRow(jacobian, 3 * n, RA, fa.x, cA, yb, RB, fb.y, cB, xa);
    return;
  }
  // axis rows L ∂(z_b·x_a), L ∂(z_b·y_a); the angle row's ∂(x_b·x_a), ∂(x_b·y_a): each body's
  // gradients share two products Rᵀw (A: R_aᵀ z_b, R_aᵀ x_b; B: R_bᵀ x_a, R_bᵀ y_a), each made once
  // (dotRow made each of them twice), then added entry by entry in dotRow's order
  if (cA >= 0) { turnBack(uzA, RA, zb); turnBack(uxA, RA, xb); }
  if (cB >= 0) { turnBack(uxB, RB, xa); turnBack(uyB, RB, ya); }
  factor[0] = L;
  if (cA >= 0) { addCross(jacobian, 3 * n + cA, fa.x, uzA); addCross(jacobian, 4 * n + cA, fa.y, uzA); }
  if (cB >= 0) { addCross(jacobian, 3 * n + cB, fb.z, uxB); addCross(jacobian, 4 * n + cB, fb.z, uyB); }
  // angle row f = 2L rt/ru: rt = c·ry − s·rx, ru = 1 + c·rx + s·ry
  const k2 = (2 * L) / ru;
  const dfdrx = k2 * (-s - q * c), dfdry = k2 * (c - q * s);
  factor[0] = dfdrx;
  if (cA >= 0) addCross(jacobian, 5 * n + cA, fa.x, uxA);
  if (cB >= 0) addCross(jacobian, 5 * n + cB, fb.x, uxB);
  factor[0] = dfdry;
  if (cA >= 0) addCross(jacobian, 5 * n + cA, fa.y, uxA);
  if (cB >= 0) addCross(jacobian, 5 * n + cB, fb.x, uyB);
  if (joint.angle >= 0 && cols[2 + joint.angle] >= 0) {
    jacobian[5 * n + cols[2 + joint.angle]] += k2 * ((-s * ry - c * rx) - q * (c * ry - s * rx));
  }
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

const uzA = new Float64Array(3), uxA = new Float64Array(3), uxB = new Float64Array(3), uyB = new Float64Array(3);

/** out = Rᵀ w (addTurnGradient's u). */
function turnBack(out: Float64Array, R: Float64Array, w: Float64Array): void {
  const w0 = w[0], w1 = w[1], w2 = w[2];
  out[0] = R[0] * w0 + R[3] * w1 + R[6] * w2;
  out[1] = R[1] * w0 + R[4] * w1 + R[7] * w2;
  out[2] = R[2] * w0 + R[5] * w1 + R[8] * w2;
}

/** jac[at + j] += k · (local × u)[j], k = factor[0], u = Rᵀ w (turnBack): addTurnGradient's sums. */
function addCross(jac: Float64Array, at: number, local: ArrayLike<number>, u: Float64Array): void {
  const k = factor[0], u0 = u[0], u1 = u[1], u2 = u[2];
  const l0 = local[0], l1 = local[1], l2 = local[2];
  jac[at] += k * (l1 * u2 - l2 * u1);
  jac[at + 1] += k * (l2 * u0 - l0 * u2);
  jac[at + 2] += k * (l0 * u1 - l1 * u0);
}

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
