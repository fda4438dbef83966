/**
 * Arithmetic on values that carry their derivative along one hardpoint coordinate (the
 * tangent pass of the second-order sensitivities: virtual-sensitivity.ts,
 * instant-axis-sensitivity.ts), and the pass's point duals read as such values.
 */
import { DualVec3 } from '../../../kernel/dual';

/** A value with its derivative along one hardpoint coordinate. */
export interface T { v: number; t: number }
export type V = [T, T, T];
export const tt = (v: number, t: number): T => ({ v, t });
export const add = (a: T, b: T): T => tt(a.v + b.v, a.t + b.t);
export const sub = (a: T, b: T): T => tt(a.v - b.v, a.t - b.t);
export const mul = (a: T, b: T): T => tt(a.v * b.v, a.t * b.v + a.v * b.t);
export const div = (a: T, b: T): T => tt(a.v / b.v, (a.t * b.v - a.v * b.t) / (b.v * b.v));
export const vadd = (a: V, b: V): V => [add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2])];
export const vsub = (a: V, b: V): V => [sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2])];
export const vscale = (a: V, k: T): V => [mul(a[0], k), mul(a[1], k), mul(a[2], k)];
export const vdiv = (a: V, k: T): V => [div(a[0], k), div(a[1], k), div(a[2], k)];
export const dot = (a: V, b: V): T => add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
export const cross = (a: V, b: V): V => [
  sub(mul(a[1], b[2]), mul(a[2], b[1])), sub(mul(a[2], b[0]), mul(a[0], b[2])), sub(mul(a[0], b[1]), mul(a[1], b[0])),
];
export const sqrtT = (a: T): T => { const s = Math.sqrt(a.v); return tt(s, a.t / (2 * s)); };

/** Position of a pass's point dual with its tangent. */
export const position = (p: DualVec3): V => [0, 1, 2].map((i) => tt(p.v[i], p.t ? p.t.v[i] : 0)) as V;
/** Its rate along direction j with its tangent. */
export const rateOf = (p: DualVec3, j: number): V => [0, 1, 2].map((i) => tt(p.d[i * p.n + j], p.t ? p.t.d[i * p.n + j] : 0)) as V;

/** A line as width-n duals whose tangents carry the derivative (for the metrics in tangent mode). */
export function tangentVec(n: number, a: V): DualVec3 {
  const out = new DualVec3(n);
  out.t = new DualVec3(n);
  for (let i = 0; i < 3; i++) { out.v[i] = a[i].v; out.t.v[i] = a[i].t; }
  return out;
}
