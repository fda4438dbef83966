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
  /** Which code writes the rows (jointRowsKind of the type and slides): read once a call, not the type's strings and the slides. */
  readonly kind: number;
}

/** hingeRows' joints (origin, axis and angle rows, at most a slide along z_a) 0, a ball 1, the others 2 (jointRowsGeneral). */
export function jointRowsKind(type: string, slides: Int32Array): number {
  if (type === 'ball') return 1;
  return type !== 'universal' && slides[1] < 0 && slides[2] < 0 ? 0 : 2;
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
  const kind = joint.kind;
  if (kind === 0) hingeRows(joint, RA, RB, state, offsets, cols, n, residual, jacobian, trig);
  else if (kind === 1) ballRows(joint, RA, RB, state, offsets, cols, n, residual, jacobian);
  else jointRowsGeneral(joint, RA, RB, state, offsets, cols, n, rows, residual, jacobian, trig);
}

/** jointRows by its general code, every joint type (the reference hingeRows is tested against, bit for bit). */
export function jointRowsGeneral(
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
  // the slides' coordinate slots, read once (a revolute has none)
  const slides = joint.slides, slid = slides[0] >= 0 || slides[1] >= 0 || slides[2] >= 0;
  if (!ball) {
    // z_a is read only by a slide along it
    direction(xa, RA, fa.x); direction(ya, RA, fa.y); if (slides[0] >= 0) direction(za, RA, fa.z); direction(zb, RB, fb.z);
  }
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

/**
 * Rows 0..2 at body columns col: sign · R (ω × p + v), written (0 + x: the sum into a zeroed row
 * it was, the same bits); 0 − x for sign −1, which is 0 + (−1 · x) to the bit without the product.
 */
function rigidPointRows(jac: Float64Array, n: number, col: number, R: Float64Array, p: Float64Array | ArrayLike<number>, sign: number): void {
  const px = p[0], py = p[1], pz = p[2];
  for (let i = 0; i < 3; i++) {
    const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2], base = i * n + col;
    const s0 = -r1 * pz + r2 * py, s1 = r0 * pz - r2 * px, s2 = -r0 * py + r1 * px;
    if (sign < 0) {
      jac[base] = 0 - s0; jac[base + 1] = 0 - s1; jac[base + 2] = 0 - s2;
      jac[base + 3] = 0 - r0; jac[base + 4] = 0 - r1; jac[base + 5] = 0 - r2;
    } else {
      jac[base] = 0 + s0; jac[base + 1] = 0 + s1; jac[base + 2] = 0 + s2;
      jac[base + 3] = 0 + r0; jac[base + 4] = 0 + r1; jac[base + 5] = 0 + r2;
    }
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

/**
 * jointRows for a joint of origin, axis and angle rows with at most a slide along z_a (a
 * revolute, slider, cylindrical or fastened joint), every entry by the same operations in the
 * same order as jointRowsGeneral, written in one function: jointRows' helpers (rigidPointRows, turnRows) were not
 * inlined by V8 (its budget spent on jointRows), and the world directions went through scratch
 * arrays; here they stay in registers. The car's twelve revolutes are most of its rows' time.
 */
function hingeRows(
  joint: JointRowsInput, RA: Float64Array, RB: Float64Array, state: Float64Array, offsets: Int32Array,
  cols: Int32Array, n: number, residual: Float64Array, jacobian: Float64Array | null, trig: Float64Array | null,
): void {
  const fa = joint.fa, fb = joint.fb, L = joint.L, pa = fa.origin, pb = fb.origin, oA = offsets[0], oB = offsets[1];
  const pa0 = pa[0], pa1 = pa[1], pa2 = pa[2], pb0 = pb[0], pb1 = pb[1], pb2 = pb[2];
  const A0 = RA[0], A1 = RA[1], A2 = RA[2], A3 = RA[3], A4 = RA[4], A5 = RA[5], A6 = RA[6], A7 = RA[7], A8 = RA[8];
  const B0 = RB[0], B1 = RB[1], B2 = RB[2], B3 = RB[3], B4 = RB[4], B5 = RB[5], B6 = RB[6], B7 = RB[7], B8 = RB[8];
  // origin rows: O_b − O_a − slide·z_a
  let d0 = (B0 * pb0 + B1 * pb1 + B2 * pb2 + state[oB]) - (A0 * pa0 + A1 * pa1 + A2 * pa2 + state[oA]);
  let d1 = (B3 * pb0 + B4 * pb1 + B5 * pb2 + state[oB + 1]) - (A3 * pa0 + A4 * pa1 + A5 * pa2 + state[oA + 1]);
  let d2 = (B6 * pb0 + B7 * pb1 + B8 * pb2 + state[oB + 2]) - (A6 * pa0 + A7 * pa1 + A8 * pa2 + state[oA + 2]);
  const slide = joint.slides[0], lza = fa.z;
  // the slid origin on A (local: p_a + slide·z_a), and z_a in the world, where there is a slide
  let pe0 = pa0, pe1 = pa1, pe2 = pa2, za0 = 0, za1 = 0, za2 = 0;
  if (slide >= 0) {
    const x = state[offsets[2 + slide]], az0 = lza[0], az1 = lza[1], az2 = lza[2];
    za0 = A0 * az0 + A1 * az1 + A2 * az2; za1 = A3 * az0 + A4 * az1 + A5 * az2; za2 = A6 * az0 + A7 * az1 + A8 * az2;
    d0 = d0 - za0 * x; d1 = d1 - za1 * x; d2 = d2 - za2 * x;
    pe0 = pa0 + x * az0; pe1 = pa1 + x * az1; pe2 = pa2 + x * az2;
  }
  residual[0] = d0; residual[1] = d1; residual[2] = d2;
  // world directions x_a, y_a (R_a), z_b, x_b (R_b)
  const lxa = fa.x, lya = fa.y, lzb = fb.z, lxb = fb.x;
  const ax0 = lxa[0], ax1 = lxa[1], ax2 = lxa[2], ay0 = lya[0], ay1 = lya[1], ay2 = lya[2];
  const bz0 = lzb[0], bz1 = lzb[1], bz2 = lzb[2], bx0 = lxb[0], bx1 = lxb[1], bx2 = lxb[2];
  const xa0 = A0 * ax0 + A1 * ax1 + A2 * ax2, xa1 = A3 * ax0 + A4 * ax1 + A5 * ax2, xa2 = A6 * ax0 + A7 * ax1 + A8 * ax2;
  const ya0 = A0 * ay0 + A1 * ay1 + A2 * ay2, ya1 = A3 * ay0 + A4 * ay1 + A5 * ay2, ya2 = A6 * ay0 + A7 * ay1 + A8 * ay2;
  const zb0 = B0 * bz0 + B1 * bz1 + B2 * bz2, zb1 = B3 * bz0 + B4 * bz1 + B5 * bz2, zb2 = B6 * bz0 + B7 * bz1 + B8 * bz2;
  residual[3] = (zb0 * xa0 + zb1 * xa1 + zb2 * xa2) * L;
  residual[4] = (zb0 * ya0 + zb1 * ya1 + zb2 * ya2) * L;
  const xb0 = B0 * bx0 + B1 * bx1 + B2 * bx2, xb1 = B3 * bx0 + B4 * bx1 + B5 * bx2, xb2 = B6 * bx0 + B7 * bx1 + B8 * bx2;
  let c = 1, s = 0;
  if (joint.angle >= 0) { const theta = state[offsets[2 + joint.angle]]; c = Math.cos(theta); s = Math.sin(theta); }
  if (trig) { trig[0] = c; trig[1] = s; }
  const rx = xb0 * xa0 + xb1 * xa1 + xb2 * xa2, ry = xb0 * ya0 + xb1 * ya1 + xb2 * ya2;
  const rt = c * ry + -(s * rx), ru = c * rx + s * ry + 1, q = rt / ru;
  residual[5] = q * (2 * L);
  if (!jacobian) return;
  const jac = jacobian, cA = cols[0], cB = cols[1], angle = joint.angle;
  // the scalars' columns (distinct, MateBlock's): the slide's and the angle's are written whole
  // at the end; any other (none of these types has one) zeroed here
  const cS = slide >= 0 ? cols[2 + slide] : -1, cT = angle >= 0 ? cols[2 + angle] : -1;
  if (cols.length > 2 + (slide >= 0 ? 1 : 0) + (angle >= 0 ? 1 : 0)) for (let k = 2; k < cols.length; k++) {
    const col = cols[k];
    if (col >= 0 && k !== 2 + slide && k !== 2 + angle) for (let e = col, end = 6 * n; e < end; e += n) jac[e] = 0;
  }
  const k2 = (2 * L) / ru, fx = k2 * (-s - q * c), fy = k2 * (c - q * s);
  if (cA >= 0) {
    // rows 0..2: −R_a (ω × p_a + v) (rigidPointRows, sign −1)
    jac[cA] = 0 - (-A1 * pe2 + A2 * pe1); jac[cA + 1] = 0 - (A0 * pe2 - A2 * pe0); jac[cA + 2] = 0 - (-A0 * pe1 + A1 * pe0);
    jac[cA + 3] = 0 - A0; jac[cA + 4] = 0 - A1; jac[cA + 5] = 0 - A2;
    let e = n + cA;
    jac[e] = 0 - (-A4 * pe2 + A5 * pe1); jac[e + 1] = 0 - (A3 * pe2 - A5 * pe0); jac[e + 2] = 0 - (-A3 * pe1 + A4 * pe0);
    jac[e + 3] = 0 - A3; jac[e + 4] = 0 - A4; jac[e + 5] = 0 - A5;
    e += n;
    jac[e] = 0 - (-A7 * pe2 + A8 * pe1); jac[e + 1] = 0 - (A6 * pe2 - A8 * pe0); jac[e + 2] = 0 - (-A6 * pe1 + A7 * pe0);
    jac[e + 3] = 0 - A6; jac[e + 4] = 0 - A7; jac[e + 5] = 0 - A8;
    // rows 3..5 (turnRows, A): u = R_aᵀ z_b, t = R_aᵀ x_b; rows 3, 4 on u with x_a, y_a; row 5: fx x_a × t + fy y_a × t
    const u0 = A0 * zb0 + A3 * zb1 + A6 * zb2, u1 = A1 * zb0 + A4 * zb1 + A7 * zb2, u2 = A2 * zb0 + A5 * zb1 + A8 * zb2;
    const t0 = A0 * xb0 + A3 * xb1 + A6 * xb2, t1 = A1 * xb0 + A4 * xb1 + A7 * xb2, t2 = A2 * xb0 + A5 * xb1 + A8 * xb2;
    e += n;
    jac[e] = 0 + L * (ax1 * u2 - ax2 * u1); jac[e + 1] = 0 + L * (ax2 * u0 - ax0 * u2); jac[e + 2] = 0 + L * (ax0 * u1 - ax1 * u0);
    jac[e + 3] = 0; jac[e + 4] = 0; jac[e + 5] = 0;
    e += n;
    jac[e] = 0 + L * (ay1 * u2 - ay2 * u1); jac[e + 1] = 0 + L * (ay2 * u0 - ay0 * u2); jac[e + 2] = 0 + L * (ay0 * u1 - ay1 * u0);
    jac[e + 3] = 0; jac[e + 4] = 0; jac[e + 5] = 0;
    e += n;
    jac[e] = (0 + fx * (ax1 * t2 - ax2 * t1)) + fy * (ay1 * t2 - ay2 * t1);
    jac[e + 1] = (0 + fx * (ax2 * t0 - ax0 * t2)) + fy * (ay2 * t0 - ay0 * t2);
    jac[e + 2] = (0 + fx * (ax0 * t1 - ax1 * t0)) + fy * (ay0 * t1 - ay1 * t0);
    jac[e + 3] = 0; jac[e + 4] = 0; jac[e + 5] = 0;
  }
  if (cB >= 0) {
    // rows 0..2: R_b (ω × p_b + v) (rigidPointRows, sign 1)
    jac[cB] = 0 + (-B1 * pb2 + B2 * pb1); jac[cB + 1] = 0 + (B0 * pb2 - B2 * pb0); jac[cB + 2] = 0 + (-B0 * pb1 + B1 * pb0);
    jac[cB + 3] = 0 + B0; jac[cB + 4] = 0 + B1; jac[cB + 5] = 0 + B2;
    let e = n + cB;
    jac[e] = 0 + (-B4 * pb2 + B5 * pb1); jac[e + 1] = 0 + (B3 * pb2 - B5 * pb0); jac[e + 2] = 0 + (-B3 * pb1 + B4 * pb0);
    jac[e + 3] = 0 + B3; jac[e + 4] = 0 + B4; jac[e + 5] = 0 + B5;
    e += n;
    jac[e] = 0 + (-B7 * pb2 + B8 * pb1); jac[e + 1] = 0 + (B6 * pb2 - B8 * pb0); jac[e + 2] = 0 + (-B6 * pb1 + B7 * pb0);
    jac[e + 3] = 0 + B6; jac[e + 4] = 0 + B7; jac[e + 5] = 0 + B8;
    // rows 3..5 (turnRows, B): u = R_bᵀ x_a, t = R_bᵀ y_a; row 3 z_b × u, row 4 z_b × t, row 5 fx x_b × u + fy x_b × t
    const u0 = B0 * xa0 + B3 * xa1 + B6 * xa2, u1 = B1 * xa0 + B4 * xa1 + B7 * xa2, u2 = B2 * xa0 + B5 * xa1 + B8 * xa2;
    const t0 = B0 * ya0 + B3 * ya1 + B6 * ya2, t1 = B1 * ya0 + B4 * ya1 + B7 * ya2, t2 = B2 * ya0 + B5 * ya1 + B8 * ya2;
    e += n;
    jac[e] = 0 + L * (bz1 * u2 - bz2 * u1); jac[e + 1] = 0 + L * (bz2 * u0 - bz0 * u2); jac[e + 2] = 0 + L * (bz0 * u1 - bz1 * u0);
    jac[e + 3] = 0; jac[e + 4] = 0; jac[e + 5] = 0;
    e += n;
    jac[e] = 0 + L * (bz1 * t2 - bz2 * t1); jac[e + 1] = 0 + L * (bz2 * t0 - bz0 * t2); jac[e + 2] = 0 + L * (bz0 * t1 - bz1 * t0);
    jac[e + 3] = 0; jac[e + 4] = 0; jac[e + 5] = 0;
    e += n;
    jac[e] = (0 + fx * (bx1 * u2 - bx2 * u1)) + fy * (bx1 * t2 - bx2 * t1);
    jac[e + 1] = (0 + fx * (bx2 * u0 - bx0 * u2)) + fy * (bx2 * t0 - bx0 * t2);
    jac[e + 2] = (0 + fx * (bx0 * u1 - bx1 * u0)) + fy * (bx0 * t1 - bx1 * t0);
    jac[e + 3] = 0; jac[e + 4] = 0; jac[e + 5] = 0;
  }
  // the slide's column: −z_a in the origin rows; the angle's: its row's entry (0 + …, the sum
  // into the zeroed column jointRowsGeneral makes)
  if (cS >= 0) {
    jac[cS] = -za0; jac[n + cS] = -za1; jac[2 * n + cS] = -za2;
    jac[3 * n + cS] = 0; jac[4 * n + cS] = 0; jac[5 * n + cS] = 0;
  }
  if (cT >= 0) {
    jac[cT] = 0; jac[n + cT] = 0; jac[2 * n + cT] = 0; jac[3 * n + cT] = 0; jac[4 * n + cT] = 0;
    jac[5 * n + cT] = 0 + k2 * ((-s * ry - c * rx) - q * (c * ry - s * rx));
  }
}

/** jointRows for a ball (origin rows 0..2), as jointRowsGeneral computes them, in one function (hingeRows' reasons). */
function ballRows(
  joint: JointRowsInput, RA: Float64Array, RB: Float64Array, state: Float64Array, offsets: Int32Array,
  cols: Int32Array, n: number, residual: Float64Array, jacobian: Float64Array | null,
): void {
  const pa = joint.fa.origin, pb = joint.fb.origin, oA = offsets[0], oB = offsets[1];
  const pa0 = pa[0], pa1 = pa[1], pa2 = pa[2], pb0 = pb[0], pb1 = pb[1], pb2 = pb[2];
  const A0 = RA[0], A1 = RA[1], A2 = RA[2], A3 = RA[3], A4 = RA[4], A5 = RA[5], A6 = RA[6], A7 = RA[7], A8 = RA[8];
  const B0 = RB[0], B1 = RB[1], B2 = RB[2], B3 = RB[3], B4 = RB[4], B5 = RB[5], B6 = RB[6], B7 = RB[7], B8 = RB[8];
  residual[0] = (B0 * pb0 + B1 * pb1 + B2 * pb2 + state[oB]) - (A0 * pa0 + A1 * pa1 + A2 * pa2 + state[oA]);
  residual[1] = (B3 * pb0 + B4 * pb1 + B5 * pb2 + state[oB + 1]) - (A3 * pa0 + A4 * pa1 + A5 * pa2 + state[oA + 1]);
  residual[2] = (B6 * pb0 + B7 * pb1 + B8 * pb2 + state[oB + 2]) - (A6 * pa0 + A7 * pa1 + A8 * pa2 + state[oA + 2]);
  if (!jacobian) return;
  const jac = jacobian, cA = cols[0], cB = cols[1];
  // (a ball has no scalar columns; were one given, it is zeroed as jointRowsGeneral does)
  for (let k = 2; k < cols.length; k++) {
    const col = cols[k];
    if (col >= 0) for (let e = col, end = 3 * n; e < end; e += n) jac[e] = 0;
  }
  if (cA >= 0) {
    jac[cA] = 0 - (-A1 * pa2 + A2 * pa1); jac[cA + 1] = 0 - (A0 * pa2 - A2 * pa0); jac[cA + 2] = 0 - (-A0 * pa1 + A1 * pa0);
    jac[cA + 3] = 0 - A0; jac[cA + 4] = 0 - A1; jac[cA + 5] = 0 - A2;
    let e = n + cA;
    jac[e] = 0 - (-A4 * pa2 + A5 * pa1); jac[e + 1] = 0 - (A3 * pa2 - A5 * pa0); jac[e + 2] = 0 - (-A3 * pa1 + A4 * pa0);
    jac[e + 3] = 0 - A3; jac[e + 4] = 0 - A4; jac[e + 5] = 0 - A5;
    e += n;
    jac[e] = 0 - (-A7 * pa2 + A8 * pa1); jac[e + 1] = 0 - (A6 * pa2 - A8 * pa0); jac[e + 2] = 0 - (-A6 * pa1 + A7 * pa0);
    jac[e + 3] = 0 - A6; jac[e + 4] = 0 - A7; jac[e + 5] = 0 - A8;
  }
  if (cB >= 0) {
    jac[cB] = 0 + (-B1 * pb2 + B2 * pb1); jac[cB + 1] = 0 + (B0 * pb2 - B2 * pb0); jac[cB + 2] = 0 + (-B0 * pb1 + B1 * pb0);
    jac[cB + 3] = 0 + B0; jac[cB + 4] = 0 + B1; jac[cB + 5] = 0 + B2;
    let e = n + cB;
    jac[e] = 0 + (-B4 * pb2 + B5 * pb1); jac[e + 1] = 0 + (B3 * pb2 - B5 * pb0); jac[e + 2] = 0 + (-B3 * pb1 + B4 * pb0);
    jac[e + 3] = 0 + B3; jac[e + 4] = 0 + B4; jac[e + 5] = 0 + B5;
    e += n;
    jac[e] = 0 + (-B7 * pb2 + B8 * pb1); jac[e + 1] = 0 + (B6 * pb2 - B8 * pb0); jac[e + 2] = 0 + (-B6 * pb1 + B7 * pb0);
    jac[e + 3] = 0 + B6; jac[e + 4] = 0 + B7; jac[e + 5] = 0 + B8;
  }
}
