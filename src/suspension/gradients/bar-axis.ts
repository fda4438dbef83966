/**
 * The rate of an anti-roll bar's frame (device-load-rates.ts) when its axis points along −x,
 * where Builder.frame's quaternion (1 + u_x, 0, −u_z, u_y) vanishes: exactly there the
 * builder takes a half turn about z; an axis leaving −x towards ±z gets a half turn about y
 * instead, towards y one about z again — its spin about the axis jumps with the direction the
 * axis leaves by, so the frame itself has no rate there.
 *
 * The bar's loads have one all the same: both of its frames (on the two arms, or the chassis
 * and the T) are built from the same axis, and its bushing's moment, −k θ_x about a's x axis
 * with θ the relative rotation's vector in a's axes, does not change when both frames spin
 * alike about x (θ turns about x with them, its x part and the x axis stay). So any spin
 * rate gives the same Q̇; the least turn of the frame the builder made, ω = u × u̇, is the
 * one used: each axis e_i moves at ω × e_i (x = u at u̇).
 */

/** Builder.frame's axes (columns of its rotation) for a unit x axis u, its branch included. */
export function builderAxes(u: readonly number[]): number[][] {
  let q = [1 + u[0], 0, -u[2], u[1]];
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  q = n < 1e-12 ? [0, 0, 0, 1] : q.map((c) => c / n);
  const [w, x, y, z] = q;
  // kernel/quat.ts toMatrix of a unit quaternion, by columns
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
    [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
    [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)],
  ];
}

/** Rates of the builder's axes for the unit axis u moving at u̇ (u̇ ⊥ u), turned the least: ω = u × u̇. */
export function leastTurnAxesRate(u: readonly number[], ud: ArrayLike<number>): number[][] {
  const cross = (a: ArrayLike<number>, b: ArrayLike<number>) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const omega = cross(u, ud);
  return builderAxes(u).map((e) => cross(omega, e));
}
