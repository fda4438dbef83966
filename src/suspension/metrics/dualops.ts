/**
 * Small allocating wrappers over the kernel's out-first dual operations.
 *
 * The metrics are evaluated once per accepted state (not inside a Newton loop), so
 * clarity wins over allocation here: every helper returns a fresh Dual / DualVec3 and
 * never mutates its inputs. The derivative width n is taken from the first operand. Each
 * kernel operation below writes all of its out's value and derivatives, so the out is made
 * `written` (not zeroed where its storage is reused: float-slab.ts overwrittenFloats).
 */
import {
  Dual,
  DualVec3,
  dAbs,
  dAdd,
  dAtan,
  dAtan2,
  dCos,
  dDiv,
  dMul,
  dScale,
  dSin,
  dSqrt,
  dSub,
  dvAdd,
  dvAddScaledDual,
  dvComponent,
  dvCross,
  dvDot,
  dvLength,
  dvNormalize,
  dvScale,
  dvScaleConst,
  dvSub,
} from '../../../kernel/dual';

export const RAD_TO_DEG = 180 / Math.PI;

/** A dual / dual vector of width n that an operation fills whole. */
const out1 = (n: number): Dual => new Dual(n, 0, true);
const out3 = (n: number): DualVec3 => new DualVec3(n, true);

/** A constant dual (all derivatives zero). */
export const konst = (n: number, v: number): Dual => new Dual(n, v);
/** A constant dual vector. */
export function vconst(n: number, x: number, y: number, z: number): DualVec3 {
  const out = new DualVec3(n);
  out.v[0] = x; out.v[1] = y; out.v[2] = z;
  return out;
}

/**
 * A point with value `value` and, for each tangent direction k < n, rate `rates[k]`
 * (the point's velocity along direction k). Missing rates are zero.
 */
export function dualPoint(value: ArrayLike<number>, n: number, rates: ReadonlyArray<ArrayLike<number>> = []): DualVec3 {
  const out = vconst(n, value[0], value[1], value[2]);
  for (let k = 0; k < Math.min(n, rates.length); k++) {
    for (let i = 0; i < 3; i++) out.d[i * n + k] = rates[k][i];
  }
  return out;
}

export const add = (a: Dual, b: Dual): Dual => dAdd(out1(a.n), a, b);
export const sub = (a: Dual, b: Dual): Dual => dSub(out1(a.n), a, b);
export const mul = (a: Dual, b: Dual): Dual => dMul(out1(a.n), a, b);
export const div = (a: Dual, b: Dual): Dual => dDiv(out1(a.n), a, b);
export const scale = (a: Dual, k: number): Dual => dScale(out1(a.n), a, k);
export const neg = (a: Dual): Dual => dScale(out1(a.n), a, -1);
export const sqrt = (a: Dual): Dual => dSqrt(out1(a.n), a);
export const abs = (a: Dual): Dual => dAbs(out1(a.n), a);
export const sin = (a: Dual): Dual => dSin(out1(a.n), a);
export const cos = (a: Dual): Dual => dCos(out1(a.n), a);
export const atan = (a: Dual): Dual => dAtan(out1(a.n), a);
export const atan2 = (y: Dual, x: Dual): Dual => dAtan2(out1(y.n), y, x);
/** Radians → degrees, value and derivatives. */
export const deg = (a: Dual): Dual => scale(a, RAD_TO_DEG);

export const vadd = (a: DualVec3, b: DualVec3): DualVec3 => dvAdd(out3(a.n), a, b);
export const vsub = (a: DualVec3, b: DualVec3): DualVec3 => dvSub(out3(a.n), a, b);
/** a·s, s a dual scalar. */
export const vscale = (a: DualVec3, s: Dual): DualVec3 => dvScale(out3(a.n), a, s);
/** a·k, k a plain number. */
export const vscaleK = (a: DualVec3, k: number): DualVec3 => dvScaleConst(out3(a.n), a, k);
/** a + b·s, s a dual scalar. */
export const vaddScaled = (a: DualVec3, b: DualVec3, s: Dual): DualVec3 => dvAddScaledDual(out3(a.n), a, b, s);
export const dot = (a: DualVec3, b: DualVec3): Dual => dvDot(out1(a.n), a, b);
export const cross = (a: DualVec3, b: DualVec3): DualVec3 => dvCross(out3(a.n), a, b);
export const vlength = (a: DualVec3): Dual => dvLength(out1(a.n), a);
export const unit = (a: DualVec3): DualVec3 => dvNormalize(out3(a.n), a);
export const comp = (a: DualVec3, i: number): Dual => dvComponent(out1(a.n), a, i);
/** (a + b) / 2. */
export const midpoint = (a: DualVec3, b: DualVec3): DualVec3 => vscaleK(vadd(a, b), 0.5);
/** The part of v normal to the unit vector u: v − (v·u)u. */
export const reject = (v: DualVec3, u: DualVec3): DualVec3 => vaddScaled(v, u, neg(dot(v, u)));
