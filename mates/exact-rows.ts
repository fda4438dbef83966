/**
 * The Jacobians of the commonest rows (a ball, revolute, fastened, slider or cylindrical
 * joint; a point distance's in mates/distance-rows.ts) as the dual pass's numbers, bit for bit, without its duals. The dual pass
 * (MateBlock) carries every derivative column through every operation; most of them are
 * exact zeros there (part A's point has no derivative in B's columns). Here each nonzero
 * column is computed by the dual pass's own operations on its own operands in its order,
 * and a term that is an exact zero there is left out (x + 0 = x): the same numbers, where
 * the kinematic solver must not move by a bit. Only a zero's sign may differ, which no
 * caller can see (they add the entries into zeroed matrices). Outside tangent mode only
 * (second derivatives stay on the duals).
 *
 * Columns as MateBlock's: body k's step (ω, v) at cols[k] (−1: not differentiated), then
 * the scalars; a point p of a body with rotation R moves by R (ω × p + v) there.
 */
import type { JointRowsInput } from './joint-rows';

/** Whether exactJointJacobian covers a joint: a ball's rows, or origin + axis + angle rows with at most a slide along z_a. */
export function exactJointCovers(joint: JointRowsInput): boolean {
  const t = joint.type;
  if (t !== 'ball' && t !== 'revolute' && t !== 'fastened' && t !== 'slider' && t !== 'cylindrical') return false;
  return joint.slides[1] < 0 && joint.slides[2] < 0;
}

// the ω-derivatives of a body's world direction R a, by component (3 × 3: [i][j] = ∂(R a)_i/∂ω_j)
const dxa = new Float64Array(9), dya = new Float64Array(9), dzb = new Float64Array(9), dxb = new Float64Array(9);
const wa = new Float64Array(3), wb = new Float64Array(3), wc = new Float64Array(3), wd = new Float64Array(3), we = new Float64Array(3);
const rx = new Float64Array(7), ry = new Float64Array(7);

/** out[3i + j] = (e_j × p) rotated by R, component i: the dual seeds of a rigid point or direction. */
function seedTurns(out: Float64Array, R: Float64Array, p: ArrayLike<number>): void {
  const px = p[0], py = p[1], pz = p[2];
  for (let i = 0; i < 3; i++) {
    const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2];
    out[3 * i] = -r1 * pz + r2 * py;
    out[3 * i + 1] = r0 * pz - r2 * px;
    out[3 * i + 2] = -r0 * py + r1 * px;
  }
}

function rotated(out: Float64Array, R: Float64Array, a: ArrayLike<number>): void {
  const a0 = a[0], a1 = a[1], a2 = a[2];
  out[0] = R[0] * a0 + R[1] * a1 + R[2] * a2;
  out[1] = R[3] * a0 + R[4] * a1 + R[5] * a2;
  out[2] = R[6] * a0 + R[7] * a1 + R[8] * a2;
}

/**
 * Origin rows 0..2 (O_b − O_a) at the columns of a body: its point p's dual seeds, negated
 * for A (the dual pass's 0 − x) and as they are for B (x − 0).
 */
function originRows(jac: Float64Array, n: number, col: number, R: Float64Array, p: ArrayLike<number>, negate: boolean): void {
  const px = p[0], py = p[1], pz = p[2];
  for (let i = 0; i < 3; i++) {
    const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2], base = i * n + col;
    const s0 = -r1 * pz + r2 * py, s1 = r0 * pz - r2 * px, s2 = -r0 * py + r1 * px;
    if (negate) {
      jac[base] = 0 - s0; jac[base + 1] = 0 - s1; jac[base + 2] = 0 - s2;
      jac[base + 3] = 0 - r0; jac[base + 4] = 0 - r1; jac[base + 5] = 0 - r2;
    } else {
      jac[base] = s0; jac[base + 1] = s1; jac[base + 2] = s2;
      jac[base + 3] = r0; jac[base + 4] = r1; jac[base + 5] = r2;
    }
  }
}

/**
 * dvDot(a, b)'s derivative at one body's three ω columns, where only one factor has
 * derivatives there (dOther: its seeds, [i][j]) and `w` is the other factor's value:
 * Σ_i dOther[i][j]·w_i, summed in component order.
 */
function dotTurns(out: Float64Array, o: number, dOther: Float64Array, w: Float64Array): void {
  for (let j = 0; j < 3; j++) out[o + j] = dOther[j] * w[0] + dOther[3 + j] * w[1] + dOther[6 + j] * w[2];
}

/**
 * The Jacobian (rows × n, row-major, overwritten) of a joint that exactJointCovers, at
 * rotations RA, RB; `state` and `offsets` as the block's, `cols` its columns; `trig` the
 * angle's cos θ, sin θ (1, 0 without an angle coordinate) as jointRows computed them at this
 * state (the dual pass's cos and sin of the same θ: the same bits).
 */
export function exactJointJacobian(joint: JointRowsInput, RA: Float64Array, RB: Float64Array, state: Float64Array, offsets: Int32Array, cols: Int32Array, n: number, rows: number, jac: Float64Array, trig: ArrayLike<number>): void {
  jac.fill(0, 0, rows * n);
  const cA = cols[0], cB = cols[1];
  if (cA >= 0) originRows(jac, n, cA, RA, joint.fa.origin, true);
  if (cB >= 0) originRows(jac, n, cB, RB, joint.fb.origin, false);
  if (joint.slides[0] >= 0) slideTerms(joint, RA, state, offsets, cols, n, jac);
  if (joint.type === 'ball') return;
  const { fa, fb, L } = joint;
  const xaW = wa, yaW = wb, zbW = wc, xbW = wd;
  rotated(xaW, RA, fa.x); rotated(yaW, RA, fa.y); rotated(zbW, RB, fb.z); rotated(xbW, RB, fb.x);
  if (cA >= 0) { seedTurns(dxa, RA, fa.x); seedTurns(dya, RA, fa.y); }
  if (cB >= 0) { seedTurns(dzb, RB, fb.z); seedTurns(dxb, RB, fb.x); }
  // axis rows: dvDot(zb, xa)·L and dvDot(zb, ya)·L
  if (cA >= 0) {
    dotTurns(we, 0, dxa, zbW);
    for (let j = 0; j < 3; j++) jac[3 * n + cA + j] = we[j] * L;
    dotTurns(we, 0, dya, zbW);
    for (let j = 0; j < 3; j++) jac[4 * n + cA + j] = we[j] * L;
  }
  if (cB >= 0) {
    dotTurns(we, 0, dzb, xaW);
    for (let j = 0; j < 3; j++) jac[3 * n + cB + j] = we[j] * L;
    dotTurns(we, 0, dzb, yaW);
    for (let j = 0; j < 3; j++) jac[4 * n + cB + j] = we[j] * L;
  }
  angleRow(joint, cols, n, jac, xaW, yaW, xbW, trig[0], trig[1]);
}

/**
 * The origin rows' − slide·z_a (dvScale, then dvSub): at A's ω columns − (∂z_a·slide), at
 * the slide's column − z_a (its seed times z_a); A's v columns and B's are left as they were.
 */
function slideTerms(joint: JointRowsInput, RA: Float64Array, state: Float64Array, offsets: Int32Array, cols: Int32Array, n: number, jac: Float64Array): void {
  const k = joint.slides[0], slide = state[offsets[2 + k]], cA = cols[0], cS = cols[2 + k];
  if (cA >= 0) {
    seedTurns(dzb, RA, joint.fa.z);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) jac[i * n + cA + j] = jac[i * n + cA + j] - dzb[3 * i + j] * slide;
  }
  if (cS >= 0) {
    rotated(we, RA, joint.fa.z);
    for (let i = 0; i < 3; i++) jac[i * n + cS] = 0 - we[i];
  }
}

/**
 * Row 5, 2L·rt/ru with rt = c·ry − s·rx, ru = c·rx + s·ry + 1 (rx = x_b·x_a, ry = x_b·y_a,
 * c, s of the angle coordinate or of 0), by the dual pass's dMul, dNeg, dAdd, dDiv, dScale.
 */
function angleRow(joint: JointRowsInput, cols: Int32Array, n: number, jac: Float64Array, xaW: Float64Array, yaW: Float64Array, xbW: Float64Array, c: number, s: number): void {
  const cA = cols[0], cB = cols[1], L = joint.L;
  const ai = joint.angle, cT = ai >= 0 ? cols[2 + ai] : -1;
  const rxv = xbW[0] * xaW[0] + xbW[1] * xaW[1] + xbW[2] * xaW[2];
  const ryv = xbW[0] * yaW[0] + xbW[1] * yaW[1] + xbW[2] * yaW[2];
  const numv = c * ryv + (s * rxv) * -1;
  const ruv = c * rxv + s * ryv + 1;
  const q = numv / ruv, k2 = 2 * L;
  // rx, ry at A's ω columns (0..2), B's (3..5): one factor differentiated, the other's value
  if (cA >= 0) { dotTurns(rx, 0, dxa, xbW); dotTurns(ry, 0, dya, xbW); }
  if (cB >= 0) { dotTurns(rx, 3, dxb, xaW); dotTurns(ry, 3, dxb, yaW); }
  const base = 5 * n;
  for (let j = 0; j < 6; j++) {
    const col = j < 3 ? cA : cB;
    if (col < 0) continue;
    // c, s have no derivative here: numD = ryD·c + (rxD·s)·(−1), ruD = rxD·c + ryD·s
    const numD = ry[j] * c + (rx[j] * s) * -1;
    const ruD = rx[j] * c + ry[j] * s;
    jac[base + col + (j % 3)] = ((numD - q * ruD) / ruv) * k2;
  }
  if (cT >= 0) {
    // the angle's column: cD = −sin θ, sD = cos θ (dChain of a seed), rx and ry have none
    const cD = -s, sD = c;
    const numD = cD * ryv + (sD * rxv) * -1;
    const ruD = cD * rxv + sD * ryv;
    jac[base + cT] = ((numD - q * ruD) / ruv) * k2;
  }
}
