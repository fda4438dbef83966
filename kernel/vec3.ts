/**
 * Float64 3-vectors in gl-matrix style: `out` first and returned, inputs read before
 * `out` is written so `out` may alias an input, and no allocation on the hot path.
 */
export type Vec3 = Float64Array;
export type ReadonlyVec3 = Readonly<ArrayLike<number>>;
/** A 3-vector as plain numbers, for what leaves the Float64 math: documents, reports, JSON, the viewer's points. */
export type Vec3Tuple = [number, number, number];

export function vec3(x = 0, y = 0, z = 0): Vec3 {
  const out = new Float64Array(3);
  out[0] = x; out[1] = y; out[2] = z;
  return out;
}
export function fromArray(a: ReadonlyVec3, offset = 0): Vec3 {
  return vec3(a[offset], a[offset + 1], a[offset + 2]);
}
export function set(out: Vec3, x: number, y: number, z: number): Vec3 {
  out[0] = x; out[1] = y; out[2] = z; return out;
}
export function copy(out: Vec3, a: ReadonlyVec3): Vec3 {
  out[0] = a[0]; out[1] = a[1]; out[2] = a[2]; return out;
}
export function add(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  out[0] = a[0] + b[0]; out[1] = a[1] + b[1]; out[2] = a[2] + b[2]; return out;
}
export function sub(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  out[0] = a[0] - b[0]; out[1] = a[1] - b[1]; out[2] = a[2] - b[2]; return out;
}
export function scale(out: Vec3, a: ReadonlyVec3, k: number): Vec3 {
  out[0] = a[0] * k; out[1] = a[1] * k; out[2] = a[2] * k; return out;
}
/** out = a + b·k */
export function scaleAndAdd(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3, k: number): Vec3 {
  out[0] = a[0] + b[0] * k; out[1] = a[1] + b[1] * k; out[2] = a[2] + b[2] * k; return out;
}
export function dot(a: ReadonlyVec3, b: ReadonlyVec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
export function cross(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  const ax = a[0], ay = a[1], az = a[2], bx = b[0], by = b[1], bz = b[2];
  out[0] = ay * bz - az * by; out[1] = az * bx - ax * bz; out[2] = ax * by - ay * bx;
  return out;
}
/** Euclidean length, without overflow or underflow for extreme components. */
export function length(a: ReadonlyVec3): number {
  return Math.hypot(a[0], a[1], a[2]);
}
/**
 * Math.hypot(x, y, z), the same bits, without the builtin's call (it boxes its arguments and
 * allocates an array: ~4× the time in a Jacobian's inner loop). V8's algorithm: NaN unless an
 * argument is infinite, the components scaled by the largest and their squares summed with
 * Kahan's compensation (test/kernel/hypot3.test.ts checks it against Math.hypot).
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  if (ax === Infinity || ay === Infinity || az === Infinity) return Infinity;
  if (x !== x || y !== y || z !== z) return NaN;
  let max = ax > ay ? ax : ay;
  if (az > max) max = az;
  if (max === 0) return 0;
  let sum = 0, compensation = 0;
  let n = ax / max, summand = n * n - compensation, next = sum + summand;
  compensation = next - sum - summand; sum = next;
  n = ay / max; summand = n * n - compensation; next = sum + summand;
  compensation = next - sum - summand; sum = next;
  n = az / max; summand = n * n - compensation; next = sum + summand;
  return Math.sqrt(next) * max;
}
/** Math.hypot(w, x, y, z), the same bits, as hypot3 (a quaternion's norm in pose.log, run for every pose of a drive's predictor every step). */
export function hypot4(w: number, x: number, y: number, z: number): number {
  const aw = Math.abs(w), ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  if (aw === Infinity || ax === Infinity || ay === Infinity || az === Infinity) return Infinity;
  if (w !== w || x !== x || y !== y || z !== z) return NaN;
  let max = aw > ax ? aw : ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max === 0) return 0;
  let sum = 0, compensation = 0;
  let n = aw / max, summand = n * n - compensation, next = sum + summand;
  compensation = next - sum - summand; sum = next;
  n = ax / max; summand = n * n - compensation; next = sum + summand;
  compensation = next - sum - summand; sum = next;
  n = ay / max; summand = n * n - compensation; next = sum + summand;
  compensation = next - sum - summand; sum = next;
  n = az / max; summand = n * n - compensation; next = sum + summand;
  return Math.sqrt(next) * max;
}
export function squaredLength(a: ReadonlyVec3): number {
  return a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
}
export function distance(a: ReadonlyVec3, b: ReadonlyVec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
/** Unit vector along a; the zero vector stays zero (callers that care check length first). */
export function normalize(out: Vec3, a: ReadonlyVec3): Vec3 {
  const l = length(a);
  const k = l > 0 ? 1 / l : 0;
  out[0] = a[0] * k; out[1] = a[1] * k; out[2] = a[2] * k;
  return out;
}
/** The rate of the unit vector a/|a| when a moves at ȧ: (ȧ − u (u·ȧ))/|a|, u = a/|a| (a ≠ 0). */
export function normalizeRate(out: Vec3, a: ReadonlyVec3, ad: ReadonlyVec3): Vec3 {
  const l = length(a);
  const ua = (a[0] * ad[0] + a[1] * ad[1] + a[2] * ad[2]) / (l * l);
  const x = (ad[0] - a[0] * ua) / l, y = (ad[1] - a[1] * ua) / l, z = (ad[2] - a[2] * ua) / l;
  out[0] = x; out[1] = y; out[2] = z;
  return out;
}
export function equals(a: ReadonlyVec3, b: ReadonlyVec3, tolerance = 0): boolean {
  return Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance && Math.abs(a[2] - b[2]) <= tolerance;
}
export function isFiniteVec(a: ReadonlyVec3): boolean {
  return Number.isFinite(a[0]) && Number.isFinite(a[1]) && Number.isFinite(a[2]);
}

/**
 * The world axis a direction runs least along, as an index 0..2, with a tie-break that
 * rounding noise cannot flip: take the first axis whose |component| no other is definitely
 * smaller than (smaller by more than `margin`). An axis along z that is a hair off in x and
 * y alike then picks x at both ends of a joint.
 */
export function leastAxis(d: ReadonlyVec3, margin = 1e-9): 0 | 1 | 2 {
  const a0 = Math.abs(d[0]), a1 = Math.abs(d[1]), a2 = Math.abs(d[2]);
  const scaleOf = Math.max(a0, a1, a2) * margin;
  const beaten = (ai: number, aj: number) => aj < ai - scaleOf; // j definitely smaller than i
  if (!beaten(a0, a1) && !beaten(a0, a2)) return 0;
  if (!beaten(a1, a0) && !beaten(a1, a2)) return 1;
  return 2;
}

/**
 * A unit vector square to unit d: the world axis d runs least along, with d's component
 * removed (Gram–Schmidt). Deterministic under noise thanks to `leastAxis`.
 */
export function across(out: Vec3, d: ReadonlyVec3): Vec3 {
  const k = leastAxis(d);
  const dk = d[k];
  const n2 = squaredLength(d);
  out[0] = (k === 0 ? 1 : 0) - d[0] * dk / n2;
  out[1] = (k === 1 ? 1 : 0) - d[1] * dk / n2;
  out[2] = (k === 2 ? 1 : 0) - d[2] * dk / n2;
  return normalize(out, out);
}

/** Two unit vectors (u, w) that with unit d make a right-handed orthonormal basis (u, w, d). */
export function basisAcross(u: Vec3, w: Vec3, d: ReadonlyVec3): void {
  across(u, d);
  cross(w, d, u);
  normalize(w, w);
}
