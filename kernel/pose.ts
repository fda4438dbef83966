/**
 * Rigid poses: a position t and a quaternion q = [w, x, y, z] (not necessarily unit).
 * A point p of the part is at R(q)·p + t. Stored flat as 7 numbers
 * [tx, ty, tz, qw, qx, qy, qz], so a whole assembly's poses live in one Float64Array.
 *
 * Steps are twists δ = (ω, v) in the body's own frame: x ⊕ δ = x ∘ exp(δ).
 */
import { Dual, dAdd, dConst, dCopy, dMul, dScale, dSeed, dSub, dCos, dSin, dSqrt, dDiv } from './dual';
import * as Q from './quat';
import { hypot3, hypot4, type ReadonlyVec3, type Vec3 } from './vec3';
import { KinemateError } from './errors';

export type Pose = Float64Array;
export type ReadonlyPose = Readonly<ArrayLike<number>>;
/** A twist (ω, v): ω the turn (rad), v the motion (length), both in the body frame. */
export type Twist = Float64Array;

export const POSE_SIZE = 7;

/** A new pose; defaults to the identity. */
export function pose(position: ReadonlyVec3 = [0, 0, 0], rotation: Readonly<ArrayLike<number>> = [1, 0, 0, 0]): Pose {
  const out = new Float64Array(7);
  out[0] = position[0]; out[1] = position[1]; out[2] = position[2];
  out[3] = rotation[0]; out[4] = rotation[1]; out[5] = rotation[2]; out[6] = rotation[3];
  return out;
}
export function identity(out: Pose): Pose {
  out.fill(0); out[3] = 1; return out;
}
export function copy(out: Pose, a: ReadonlyPose, outOff = 0, aOff = 0): Pose {
  for (let i = 0; i < 7; i++) out[outOff + i] = a[aOff + i];
  return out;
}

/** out = R(q) p + t for the pose stored at a[off..]. */
export function applyPoint(out: Vec3, a: ReadonlyPose, p: ReadonlyVec3, off = 0): Vec3 {
  rotateAt(out, a, off + 3, p);
  out[0] += a[off]; out[1] += a[off + 1]; out[2] += a[off + 2];
  return out;
}
/** out = R(q) d (directions do not translate). */
export function applyDirection(out: Vec3, a: ReadonlyPose, d: ReadonlyVec3, off = 0): Vec3 {
  return rotateAt(out, a, off + 3, d);
}
/** The point of the part that sits at world point w: R⁻¹(w − t). */
export function applyInversePoint(out: Vec3, a: ReadonlyPose, w: ReadonlyVec3, off = 0): Vec3 {
  const x = w[0] - a[off], y = w[1] - a[off + 1], z = w[2] - a[off + 2];
  scratch3[0] = x; scratch3[1] = y; scratch3[2] = z;
  return rotateInverseAt(out, a, off + 3, scratch3);
}
export function applyInverseDirection(out: Vec3, a: ReadonlyPose, d: ReadonlyVec3, off = 0): Vec3 {
  return rotateInverseAt(out, a, off + 3, d);
}

/** out = a ∘ b: apply b first, then a. (R_a R_b, R_a t_b + t_a) */
export function compose(out: Pose, a: ReadonlyPose, b: ReadonlyPose): Pose {
  const tx = b[0], ty = b[1], tz = b[2];
  scratch3[0] = tx; scratch3[1] = ty; scratch3[2] = tz;
  turnBy(scratchT, a, 3, scratch3);
  const ax = a[0], ay = a[1], az = a[2];
  const aw = a[3], aqx = a[4], aqy = a[5], aqz = a[6];
  const bw = b[3], bx = b[4], by = b[5], bz = b[6];
  out[3] = aw * bw - aqx * bx - aqy * by - aqz * bz;
  out[4] = aw * bx + aqx * bw + aqy * bz - aqz * by;
  out[5] = aw * by - aqx * bz + aqy * bw + aqz * bx;
  out[6] = aw * bz + aqx * by - aqy * bx + aqz * bw;
  out[0] = scratchT[0] + ax; out[1] = scratchT[1] + ay; out[2] = scratchT[2] + az;
  return out;
}
/** The inverse motion: (q̄, −R⁻¹ t). The quaternion keeps |q| (conjugate, not divided). */
export function invert(out: Pose, a: ReadonlyPose): Pose {
  scratch3[0] = -a[0]; scratch3[1] = -a[1]; scratch3[2] = -a[2];
  const w = a[3], x = a[4], y = a[5], z = a[6];
  out[3] = w; out[4] = -x; out[5] = -y; out[6] = -z;
  turnBy(scratchT, out, 3, scratch3);
  out[0] = scratchT[0]; out[1] = scratchT[1]; out[2] = scratchT[2];
  return out;
}

// Series thresholds: below φ² = 1e-2 the closed forms lose digits to cancellation, and the
// series (polynomials in φ², smooth through zero) are exact to rounding there.
const SERIES_PHI2 = 1e-2;

/** s = sin φ/(2φ), c = (cos φ − sin φ/φ)/(8φ²), cos φ, all as functions of φ². */
function expCoefficients(phi2: number, out: Float64Array): void {
  if (phi2 < SERIES_PHI2) {
    const p2 = phi2;
    out[0] = 0.5 * (1 - p2 / 6 * (1 - p2 / 20 * (1 - p2 / 42 * (1 - p2 / 72 * (1 - p2 / 110)))));
    out[1] = -1 / 24 + p2 * (1 / 240 + p2 * (-1 / 6720 + p2 * (1 / 362880 + p2 * (-1 / 31933440))));
    out[2] = 1 - p2 / 2 * (1 - p2 / 12 * (1 - p2 / 30 * (1 - p2 / 56 * (1 - p2 / 90))));
  } else {
    const phi = Math.sqrt(phi2);
    const sn = Math.sin(phi), cs = Math.cos(phi);
    out[0] = sn / (2 * phi);
    out[1] = (cs - sn / phi) / (8 * phi2);
    out[2] = cs;
  }
}
const coef = new Float64Array(3);

/**
 * The SE(3) exponential of the twist xi = [ωx, ωy, ωz, vx, vy, vz]: the screw motion that
 * turns by |ω| about ω while moving; the result's quaternion is unit.
 */
export function exp(out: Pose, xi: Readonly<ArrayLike<number>>, off = 0): Pose {
  const wx = xi[off], wy = xi[off + 1], wz = xi[off + 2];
  const vx = xi[off + 3], vy = xi[off + 4], vz = xi[off + 5];
  const phi2 = (wx * wx + wy * wy + wz * wz) / 4;
  expCoefficients(phi2, coef);
  const s = coef[0], c = coef[1], cs = coef[2];
  const wv = wx * vx + wy * vy + wz * vz;
  const a = 2 * s * cs, b = (s * s + 2 * c * cs) * wv, k = 2 * s * s;
  out[0] = a * vx + b * wx + k * (wy * vz - wz * vy);
  out[1] = a * vy + b * wy + k * (wz * vx - wx * vz);
  out[2] = a * vz + b * wz + k * (wx * vy - wy * vx);
  out[3] = cs; out[4] = s * wx; out[5] = s * wy; out[6] = s * wz;
  return out;
}

/**
 * The SE(3) logarithm: the twist of turn angle in [0, π] whose exponential is the pose.
 * Normalises q inside (the pose itself is untouched) and takes the shorter of ±q.
 */
export function log(out: Twist, a: ReadonlyPose): Twist {
  let w = a[3], x = a[4], y = a[5], z = a[6];
  // hypot4/hypot3: Math.hypot's bits without the builtin's boxed arguments (an allocation a call)
  const n = hypot4(w, x, y, z);
  w /= n; x /= n; y /= n; z /= n;
  if (w < 0) { w = -w; x = -x; y = -y; z = -z; }
  const sv = hypot3(x, y, z);
  const phi = Math.atan2(sv, w);
  // ω = (2φ / sin φ)·q_v; for tiny sin φ use the series of 2φ/sin φ in terms of sin φ / w.
  const f = sv < 1e-6 ? (2 / w) * (1 - (sv * sv) / (3 * w * w)) : (2 * phi) / sv;
  const wx = f * x, wy = f * y, wz = f * z;
  const theta2 = wx * wx + wy * wy + wz * wz;
  // V⁻¹ = I − ½[ω]× + β[ω]×², β = (1 − (θ/2)cot(θ/2))/θ²
  let beta: number;
  if (theta2 < 1e-4) {
    beta = 1 / 12 + theta2 * (1 / 720 + theta2 * (1 / 30240 + theta2 / 1209600));
  } else {
    const theta = Math.sqrt(theta2);
    const half = theta / 2;
    beta = (1 - (half * Math.cos(half)) / Math.sin(half)) / theta2;
  }
  const tx = a[0], ty = a[1], tz = a[2];
  // ω × t and ω × (ω × t)
  const c1x = wy * tz - wz * ty, c1y = wz * tx - wx * tz, c1z = wx * ty - wy * tx;
  const c2x = wy * c1z - wz * c1y, c2y = wz * c1x - wx * c1z, c2z = wx * c1y - wy * c1x;
  out[0] = wx; out[1] = wy; out[2] = wz;
  out[3] = tx - 0.5 * c1x + beta * c2x;
  out[4] = ty - 0.5 * c1y + beta * c2y;
  out[5] = tz - 0.5 * c1z + beta * c2z;
  return out;
}

/**
 * x ⊕ δ = x ∘ exp(δ), written into out (may alias x). exp and compose fused, with their
 * arithmetic in the same order (bit for bit what compose(out, x, exp(δ)) gives), reading x
 * in place: the solver and the integrator retract every moving pose on every iteration.
 */
export function retract(out: Pose, x: ReadonlyPose, xi: Readonly<ArrayLike<number>>, outOff = 0, xOff = 0, xiOff = 0): Pose {
  const e = exp(scratchStep, xi, xiOff);
  turnBy(scratchT, x, xOff + 3, e);
  const ax = x[xOff], ay = x[xOff + 1], az = x[xOff + 2];
  const aw = x[xOff + 3], aqx = x[xOff + 4], aqy = x[xOff + 5], aqz = x[xOff + 6];
  const bw = e[3], bx = e[4], by = e[5], bz = e[6];
  out[outOff + 3] = aw * bw - aqx * bx - aqy * by - aqz * bz;
  out[outOff + 4] = aw * bx + aqx * bw + aqy * bz - aqz * by;
  out[outOff + 5] = aw * by - aqx * bz + aqy * bw + aqz * bx;
  out[outOff + 6] = aw * bz + aqx * by - aqy * bx + aqz * bw;
  out[outOff] = scratchT[0] + ax; out[outOff + 1] = scratchT[1] + ay; out[outOff + 2] = scratchT[2] + az;
  return out;
}

/**
 * The rotation part of a retraction, in place: q ← q · exp(ω) for the pose at state[off..]
 * and ω at w[wOff..]; the position is kept (R³ × SO(3) stepping, kernel/integrator).
 */
export function retractRotation(state: Float64Array, off: number, w: Readonly<ArrayLike<number>>, wOff = 0): void {
  const wx = w[wOff], wy = w[wOff + 1], wz = w[wOff + 2];
  // expCoefficients' s and cos φ alone (its c is the translation's), the same operations
  const phi2 = (wx * wx + wy * wy + wz * wz) / 4;
  let s: number, bw: number;
  if (phi2 < SERIES_PHI2) {
    s = 0.5 * (1 - phi2 / 6 * (1 - phi2 / 20 * (1 - phi2 / 42 * (1 - phi2 / 72 * (1 - phi2 / 110)))));
    bw = 1 - phi2 / 2 * (1 - phi2 / 12 * (1 - phi2 / 30 * (1 - phi2 / 56 * (1 - phi2 / 90))));
  } else {
    const phi = Math.sqrt(phi2);
    s = Math.sin(phi) / (2 * phi);
    bw = Math.cos(phi);
  }
  const bx = s * wx, by = s * wy, bz = s * wz;
  const aw = state[off + 3], aqx = state[off + 4], aqy = state[off + 5], aqz = state[off + 6];
  state[off + 3] = aw * bw - aqx * bx - aqy * by - aqz * bz;
  state[off + 4] = aw * bx + aqx * bw + aqy * bz - aqz * by;
  state[off + 5] = aw * by - aqx * bz + aqy * bw + aqz * bx;
  state[off + 6] = aw * bz + aqx * by - aqy * bx + aqz * bw;
}

/**
 * The SE(3) exponential in dual numbers: rotation (4) and position (3) of exp(ξ) where each
 * component of ξ = (ω, v) is a dual. Branches on φ² (never on |ω| > 0), so derivatives are
 * right through the identity: the series are polynomials in φ².
 */
export function expDual(outRotation: Dual[], outPosition: Dual[], xi: readonly Dual[]): void {
  const n = xi[0].n;
  const t = dualScratch(n);
  const [phi2, s, c, cs, tmp, wv, a, b, k] = t;
  const w = xi.slice(0, 3), v = xi.slice(3, 6);
  dMul(phi2, w[0], w[0]); dAdd(phi2, phi2, dMul(tmp, w[1], w[1])); dAdd(phi2, phi2, dMul(tmp, w[2], w[2]));
  dScale(phi2, phi2, 0.25);
  if (phi2.v < SERIES_PHI2) {
    // Horner in φ² for s, c and cos φ.
    horner(s, phi2, [0.5, -1 / 12, 1 / 240, -1 / 10080, 1 / 725760, -1 / 79833600], tmp);
    horner(c, phi2, [-1 / 24, 1 / 240, -1 / 6720, 1 / 362880, -1 / 31933440], tmp);
    horner(cs, phi2, [1, -1 / 2, 1 / 24, -1 / 720, 1 / 40320, -1 / 3628800], tmp);
  } else {
    const phi = t[9], sn = t[10];
    dSqrt(phi, phi2);
    dSin(sn, phi); dCos(cs, phi);
    dDiv(s, sn, dScale(tmp, phi, 2));
    dDiv(tmp, sn, phi); dSub(tmp, cs, tmp);
    dDiv(c, tmp, dScale(t[11], phi2, 8));
  }
  dMul(wv, w[0], v[0]); dAdd(wv, wv, dMul(tmp, w[1], v[1])); dAdd(wv, wv, dMul(tmp, w[2], v[2]));
  dMul(a, s, cs); dScale(a, a, 2);
  dMul(b, c, cs); dScale(b, b, 2); dAdd(b, b, dMul(tmp, s, s)); dMul(b, b, wv);
  dMul(k, s, s); dScale(k, k, 2);
  const cr = t[12];
  for (let i = 0; i < 3; i++) {
    const j = (i + 1) % 3, l = (i + 2) % 3;
    // (ω × v)_i = ω_j v_l − ω_l v_j
    dMul(cr, w[j], v[l]); dSub(cr, cr, dMul(tmp, w[l], v[j]));
    const o = outPosition[i];
    dMul(o, a, v[i]);
    dAdd(o, o, dMul(tmp, b, w[i]));
    dAdd(o, o, dMul(tmp, k, cr));
  }
  dCopy(outRotation[0], cs);
  for (let i = 0; i < 3; i++) dMul(outRotation[i + 1], s, w[i]);
}

function horner(out: Dual, x: Dual, coefficients: number[], tmp: Dual): Dual {
  dConst(out, coefficients[coefficients.length - 1]);
  for (let i = coefficients.length - 2; i >= 0; i--) {
    dMul(tmp, out, x);
    dConst(out, coefficients[i]);
    dAdd(out, out, tmp);
  }
  return out;
}

const dualScratchByN = new Map<number, Dual[]>();
function dualScratch(n: number): Dual[] {
  let s = dualScratchByN.get(n);
  if (!s) {
    s = Array.from({ length: 16 }, () => new Dual(n));
    dualScratchByN.set(n, s);
  }
  return s;
}

/**
 * The right Jacobian of SE(3) at ξ, row-major 6×6 in (ω, v) order: the differential of
 * the retraction, exp(ξ + ε) ≈ exp(ξ) ∘ exp(J_r(ξ) ε). Computed exactly by forward-mode AD
 * of `expDual` (the body-frame velocity of ε ↦ exp(ξ + ε)), with no series to maintain.
 */
export function rightJacobian(out: Float64Array, xi: Readonly<ArrayLike<number>>): Float64Array {
  const inputs = jacInputs, rot = jacRot, pos = jacPos;
  for (let i = 0; i < 6; i++) dSeed(inputs[i], xi[i], i);
  expDual(rot, pos, inputs);
  const w = rot[0].v, x = rot[1].v, y = rot[2].v, z = rot[3].v;
  for (let k = 0; k < 6; k++) {
    // body angular velocity: 2·vec(q̄ · ∂q) for unit q
    const dw = rot[0].d[k], dx = rot[1].d[k], dy = rot[2].d[k], dz = rot[3].d[k];
    const bx = w * dx - x * dw - y * dz + z * dy;
    const by = w * dy + x * dz - y * dw - z * dx;
    const bz = w * dz - x * dy + y * dx - z * dw;
    out[0 * 6 + k] = 2 * bx; out[1 * 6 + k] = 2 * by; out[2 * 6 + k] = 2 * bz;
    // body linear velocity: R⁻¹ ∂t
    scratch3[0] = pos[0].d[k]; scratch3[1] = pos[1].d[k]; scratch3[2] = pos[2].d[k];
    jacQ[0] = w; jacQ[1] = x; jacQ[2] = y; jacQ[3] = z;
    Q.rotateInverse(scratchT, jacQ, scratch3);
    out[3 * 6 + k] = scratchT[0]; out[4 * 6 + k] = scratchT[1]; out[5 * 6 + k] = scratchT[2];
  }
  return out;
}
const jacInputs = Array.from({ length: 6 }, () => new Dual(6));
const jacRot = Array.from({ length: 4 }, () => new Dual(6));
const jacPos = Array.from({ length: 3 }, () => new Dual(6));
const jacQ = new Float64Array(4);

/** Distance between two poses as a length: position gap plus turn angle × scale. */
export function poseDistance(a: ReadonlyPose, b: ReadonlyPose, scale: number, aOff = 0, bOff = 0): number {
  const dp = Math.hypot(a[aOff] - b[bOff], a[aOff + 1] - b[bOff + 1], a[aOff + 2] - b[bOff + 2]);
  scratchQa[0] = a[aOff + 3]; scratchQa[1] = a[aOff + 4]; scratchQa[2] = a[aOff + 5]; scratchQa[3] = a[aOff + 6];
  scratchQb[0] = b[bOff + 3]; scratchQb[1] = b[bOff + 4]; scratchQb[2] = b[bOff + 5]; scratchQb[3] = b[bOff + 6];
  return dp + Q.angleBetween(scratchQa, scratchQb) * scale;
}
const scratchQa = new Float64Array(4), scratchQb = new Float64Array(4);

// ---- Euler angles: for showing a pose to a person, never for solving ----

/**
 * Yaw–pitch–roll in degrees with R = Rz(yaw)·Ry(pitch)·Rx(roll) (the vehicle convention).
 */
export function toEulerDegrees(a: ReadonlyPose, off = 0): { roll: number; pitch: number; yaw: number } {
  const m = new Float64Array(9);
  Q.toMatrix(m, a, off + 3);
  const pitch = Math.asin(Math.max(-1, Math.min(1, -m[6])));
  const roll = Math.atan2(m[7], m[8]);
  const yaw = Math.atan2(m[3], m[0]);
  const deg = 180 / Math.PI;
  return { roll: roll * deg, pitch: pitch * deg, yaw: yaw * deg };
}
export function fromEulerDegrees(out: Pose, roll: number, pitch: number, yaw: number, position: ReadonlyVec3 = [0, 0, 0]): Pose {
  const r = (roll * Math.PI) / 360, p = (pitch * Math.PI) / 360, y = (yaw * Math.PI) / 360;
  const cr = Math.cos(r), sr = Math.sin(r), cp = Math.cos(p), sp = Math.sin(p), cy = Math.cos(y), sy = Math.sin(y);
  out[0] = position[0]; out[1] = position[1]; out[2] = position[2];
  out[3] = cy * cp * cr + sy * sp * sr;
  out[4] = cy * cp * sr - sy * sp * cr;
  out[5] = cy * sp * cr + sy * cp * sr;
  out[6] = sy * cp * cr - cy * sp * sr;
  return out;
}

// ---- File form: kept exactly as read ----

export class PoseFormatError extends KinemateError {
  override name = 'PoseFormatError';
}

export interface PoseJSON {
  position: [number, number, number];
  rotation: [number, number, number, number];
}

/**
 * Read `{ position: [x, y, z], rotation: [w, x, y, z] }` exactly as given (no
 * normalisation, so writing it back gives the same numbers bit for bit). Refuses a
 * non-finite number and the zero quaternion, naming `path`.
 */
export function poseFromJSON(value: unknown, path = 'pose'): Pose {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PoseFormatError(path, 'expected an object { position: [x, y, z], rotation: [w, x, y, z] }');
  }
  const v = value as Record<string, unknown>;
  const position = readNumbers(v.position, 3, `${path}.position`);
  const rotation = readNumbers(v.rotation, 4, `${path}.rotation`);
  if (rotation.every((r) => r === 0)) {
    throw new PoseFormatError(`${path}.rotation`, 'the zero quaternion is not a rotation');
  }
  return pose(position, rotation);
}
/** The file form of a pose: the stored numbers, unchanged. */
export function poseToJSON(a: ReadonlyPose, off = 0): PoseJSON {
  return {
    position: [a[off], a[off + 1], a[off + 2]],
    rotation: [a[off + 3], a[off + 4], a[off + 5], a[off + 6]],
  };
}
function readNumbers(value: unknown, count: number, path: string): number[] {
  if (!Array.isArray(value) || value.length !== count) {
    throw new PoseFormatError(path, `expected an array of ${count} numbers`);
  }
  return value.map((x, i) => {
    if (typeof x !== 'number') throw new PoseFormatError(`${path}[${i}]`, `expected a number, got ${JSON.stringify(x) ?? String(x)}`);
    if (!Number.isFinite(x)) throw new PoseFormatError(`${path}[${i}]`, `expected a finite number, got ${x}`);
    return x;
  });
}
/** Refuse a zero quaternion where a rotation is needed (with a message saying so). */
export function assertRotation(q: Readonly<ArrayLike<number>>, what = 'rotation'): void {
  const n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (!(n > 0) || !Number.isFinite(n)) {
    throw new PoseFormatError(what, `${n === 0 ? 'the zero quaternion is not a rotation' : 'the quaternion is not finite'}`);
  }
}

// A pose's rotation is its quaternion at offset 3: the quaternion routines do the work.
function rotateAt(out: Vec3, a: ReadonlyPose, qOff: number, v: ReadonlyVec3): Vec3 {
  return Q.rotate(out, a, v, qOff);
}
/**
 * R(q) v into out for the quaternion at a[qOff..]: Q.rotate's arithmetic, for compose, invert
 * and retract, whose arguments are state and scratch Float64Arrays. Not Q.rotate itself: V8
 * inlines a function with its own type feedback, and Q.rotate's also holds the document's
 * plain arrays (applyPoint), so its loads were polymorphic there and boxed every number read
 * (80 bytes a retraction of garbage, and slower arithmetic: docs/solver-warm-up.md, session 16).
 */
function turnBy(out: Float64Array, a: ReadonlyPose, qOff: number, v: Float64Array): void {
  const w = a[qOff], x = a[qOff + 1], y = a[qOff + 2], z = a[qOff + 3];
  const s = 2 / (w * w + x * x + y * y + z * z);
  const vx = v[0], vy = v[1], vz = v[2];
  const tx = s * (y * vz - z * vy), ty = s * (z * vx - x * vz), tz = s * (x * vy - y * vx);
  out[0] = vx + w * tx + (y * tz - z * ty);
  out[1] = vy + w * ty + (z * tx - x * tz);
  out[2] = vz + w * tz + (x * ty - y * tx);
}
function rotateInverseAt(out: Vec3, a: ReadonlyPose, qOff: number, v: ReadonlyVec3): Vec3 {
  return Q.rotateInverse(out, a, v, qOff);
}

const scratch3 = new Float64Array(3);
const scratchT = new Float64Array(3);
const scratchStep = new Float64Array(7);

