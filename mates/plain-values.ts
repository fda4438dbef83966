/**
 * The values of the dual-number body-point operations in plain numbers, for the force
 * elements written out by hand (bushing-values.ts, tyre-values.ts): each by the same
 * floating-point operations in the same order as the dual op's value, so the hand-written
 * passes keep the dual pass's bits.
 */

/** out = R p + t (dvRigidPoint's value), t the body's position at state[off]. */
export function place(out: Float64Array, R: Float64Array, state: ArrayLike<number>, off: number, p: ArrayLike<number>): void {
  const px = p[0], py = p[1], pz = p[2];
  out[0] = R[0] * px + R[1] * py + R[2] * pz + state[off];
  out[1] = R[3] * px + R[4] * py + R[5] * pz + state[off + 1];
  out[2] = R[6] * px + R[7] * py + R[8] * pz + state[off + 2];
}

/** out[at..at+2] = R d (dvRigidDirection's value). */
export function turn(out: Float64Array, at: number, R: Float64Array, d: ArrayLike<number>): void {
  const px = d[0], py = d[1], pz = d[2];
  out[at] = R[0] * px + R[1] * py + R[2] * pz;
  out[at + 1] = R[3] * px + R[4] * py + R[5] * pz;
  out[at + 2] = R[6] * px + R[7] * py + R[8] * pz;
}

/** BodyForceBlock.velocityOf's value: R(ω × p + v) of a material point p of the body whose twist starts at xi[b], or R ω (`angular`). */
export function velocityOf(out: Float64Array, R: Float64Array, xi: Float64Array, b: number, p: ArrayLike<number>, angular: boolean): void {
  const w0 = xi[b], w1 = xi[b + 1], w2 = xi[b + 2];
  const p0 = p[0], p1 = p[1], p2 = p[2];
  const a0 = angular ? w0 : w1 * p2 - w2 * p1 + xi[b + 3];
  const a1 = angular ? w1 : w2 * p0 - w0 * p2 + xi[b + 4];
  const a2 = angular ? w2 : w0 * p1 - w1 * p0 + xi[b + 5];
  for (let i = 0; i < 3; i++) out[i] = R[3 * i] * a0 + R[3 * i + 1] * a1 + R[3 * i + 2] * a2;
}

/**
 * u[3] = |u[0..2]| by hypot3's (Math.hypot's) bits, its algorithm written here with no call:
 * a number passed to or returned from a function V8 does not inline is boxed (an allocation),
 * and in the passes by hand hypot3 often was not (the tyre's contact, the distance rows: a
 * few hundred bytes an evaluation). u is read and written in place, nothing is passed.
 */
export function hypotInto(u: Float64Array): void {
  const x = u[0], y = u[1], z = u[2];
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  if (ax === Infinity || ay === Infinity || az === Infinity) { u[3] = Infinity; return; }
  if (x !== x || y !== y || z !== z) { u[3] = NaN; return; }
  let max = ax > ay ? ax : ay;
  if (az > max) max = az;
  if (max === 0) { u[3] = 0; return; }
  let sum = 0, compensation = 0;
  let n = ax / max, summand = n * n - compensation, next = sum + summand;
  compensation = next - sum - summand; sum = next;
  n = ay / max; summand = n * n - compensation; next = sum + summand;
  compensation = next - sum - summand; sum = next;
  n = az / max; summand = n * n - compensation; next = sum + summand;
  u[3] = Math.sqrt(next) * max;
}
