/**
 * The Jacobians of the commonest rows (a ball, revolute, fastened, slider or cylindrical
 * joint; a point distance) as the dual pass's numbers, bit for bit, without its duals. The dual pass
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
import { hypotInto } from './plain-values';

/** Whether exactJointJacobian covers a joint: a ball's rows, or origin + axis + angle rows with at most a slide along z_a. */
export function exactJointCovers(joint: JointRowsInput): boolean {
  const t = joint.type;
  if (t !== 'ball' && t !== 'revolute' && t !== 'fastened' && t !== 'slider' && t !== 'cylindrical') return false;
  return joint.slides[1] < 0 && joint.slides[2] < 0;
}

// the ω-derivatives of a body's world direction R a, by component (3 × 3: [i][j] = ∂(R a)_i/∂ω_j)
const dxa = new Float64Array(9), dya = new Float64Array(9), dzb = new Float64Array(9), dxb = new Float64Array(9);
const wa = new Float64Array(3), wb = new Float64Array(3), wc = new Float64Array(3), wd = new Float64Array(3), we = new Float64Array(3);
const rx = new Float64Array(7), ry = new Float64Array(7), dl = new Float64Array(4);

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

/**
 * |P_b − P_a|, one row (residual[0]; the caller adds −value, as the dual pass's dAddConst:
 * a value passed here was boxed where V8 inlines the caller but not this) and its Jacobian
 * (1 × n, overwritten when given): the dual pass's dvRigidPoint, dvSub, dvLength.
 */
export function exactDistanceRow(RA: Float64Array, RB: Float64Array, state: Float64Array, offsets: Int32Array, localA: ArrayLike<number>, localB: ArrayLike<number>, cols: Int32Array, n: number, residual: Float64Array, jac: Float64Array | null): void {
  const oA = offsets[0], oB = offsets[1];
  const ax = localA[0], ay = localA[1], az = localA[2], bx = localB[0], by = localB[1], bz = localB[2];
  const pa0 = RA[0] * ax + RA[1] * ay + RA[2] * az + state[oA];
  const pa1 = RA[3] * ax + RA[4] * ay + RA[5] * az + state[oA + 1];
  const pa2 = RA[6] * ax + RA[7] * ay + RA[8] * az + state[oA + 2];
  const pb0 = RB[0] * bx + RB[1] * by + RB[2] * bz + state[oB];
  const pb1 = RB[3] * bx + RB[4] * by + RB[5] * bz + state[oB + 1];
  const pb2 = RB[6] * bx + RB[7] * by + RB[8] * bz + state[oB + 2];
  const d0 = pb0 - pa0, d1 = pb1 - pa1, d2 = pb2 - pa2;
  // |d| by hypot3's bits, passed in an array (hypot3 was not inlined here: its number boxed, 16 bytes a row)
  dl[0] = d0; dl[1] = d1; dl[2] = d2;
  hypotInto(dl);
  const l = dl[3];
  residual[0] = l;
  if (!jac) return;
  const cA = cols[0], cB = cols[1];
  // both bodies' six columns, all of the row, are written below: the fill only where one is fixed (a builtin call: ~1.5 % of the rows' time)
  if (cA < 0 || cB < 0 || n !== 12) jac.fill(0, 0, n);
  // d and l from dl (numbers passed to distanceColumns, which V8 does not inline, would be boxed)
  if (cA >= 0) distanceColumns(jac, cA, RA, localA, true);
  if (cB >= 0) distanceColumns(jac, cB, RB, localB, false);
}

/**
 * (d · dD)/l at one body's six columns (d, l: dl's), dD its point's seeds (negated for A: 0 − x): the ω
 * columns' seeds as seedTurns makes them, here in registers (no round trip through its array).
 */
function distanceColumns(jac: Float64Array, col: number, R: Float64Array, p: ArrayLike<number>, negate: boolean): void {
  const d0 = dl[0], d1 = dl[1], d2 = dl[2], l = dl[3];
  const px = p[0], py = p[1], pz = p[2];
  const r0 = R[0], r1 = R[1], r2 = R[2], r3 = R[3], r4 = R[4], r5 = R[5], r6 = R[6], r7 = R[7], r8 = R[8];
  // component i's seed in ω column j: aj (i = 0), bj (1), cj (2)
  let a0 = -r1 * pz + r2 * py, a1 = r0 * pz - r2 * px, a2 = -r0 * py + r1 * px;
  let b0 = -r4 * pz + r5 * py, b1 = r3 * pz - r5 * px, b2 = -r3 * py + r4 * px;
  let c0 = -r7 * pz + r8 * py, c1 = r6 * pz - r8 * px, c2 = -r6 * py + r7 * px;
  // v column j: R's column j
  let e0 = r0, e1 = r1, e2 = r2, f0 = r3, f1 = r4, f2 = r5, g0 = r6, g1 = r7, g2 = r8;
  if (negate) {
    a0 = 0 - a0; a1 = 0 - a1; a2 = 0 - a2; b0 = 0 - b0; b1 = 0 - b1; b2 = 0 - b2; c0 = 0 - c0; c1 = 0 - c1; c2 = 0 - c2;
    e0 = 0 - e0; e1 = 0 - e1; e2 = 0 - e2; f0 = 0 - f0; f1 = 0 - f1; f2 = 0 - f2; g0 = 0 - g0; g1 = 0 - g1; g2 = 0 - g2;
  }
  jac[col] = (d0 * a0 + d1 * b0 + d2 * c0) / l;
  jac[col + 1] = (d0 * a1 + d1 * b1 + d2 * c1) / l;
  jac[col + 2] = (d0 * a2 + d1 * b2 + d2 * c2) / l;
  jac[col + 3] = (d0 * e0 + d1 * f0 + d2 * g0) / l;
  jac[col + 4] = (d0 * e1 + d1 * f1 + d2 * g1) / l;
  jac[col + 5] = (d0 * e2 + d1 * f2 + d2 * g2) / l;
}
