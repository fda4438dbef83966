/**
 * Dual-number arithmetic written as expressions: each operation returns a fresh dual from a
 * pool that `reset()` rewinds, so a long formula (the Magic Formula) reads as formulas do
 * and allocates nothing once the pool has grown to the formula's length. Width 0 gives plain
 * numbers through the same code; width n gives exact derivatives along n seeded inputs, and
 * in the kernel's tangent mode their second derivatives along one direction (every
 * operation goes through kernel/dual.ts, curvature included).
 */
import type { Arith } from './arith';
import {
  Dual, dAbs, dAdd, dAddConst, dAtan, dChain, dConst, dCopy, dCos, dDiv, dMul, dScale, dSin, dSqrt, dSub,
} from '../../kernel/dual';

export class DualTape implements Arith<Dual> {
  private readonly pool: Dual[] = [];
  private used = 0;
  constructor(readonly n: number) {}

  /** Rewinds the pool: every dual handed out before is reused from here on. */
  reset(): this { this.used = 0; return this; }

  private next(): Dual {
    let d = this.pool[this.used];
    if (!d) { d = new Dual(this.n); this.pool.push(d); }
    this.used++;
    return d;
  }

  c(v: number): Dual { return dConst(this.next(), v); }
  copy(a: Dual): Dual { return dCopy(this.next(), a); }
  add(a: Dual, b: Dual): Dual { return dAdd(this.next(), a, b); }
  sub(a: Dual, b: Dual): Dual { return dSub(this.next(), a, b); }
  mul(a: Dual, b: Dual): Dual { return dMul(this.next(), a, b); }
  div(a: Dual, b: Dual): Dual { return dDiv(this.next(), a, b); }
  sq(a: Dual): Dual { return dMul(this.next(), a, a); }
  /** a·k, k a plain number. */
  k(a: Dual, k: number): Dual { return dScale(this.next(), a, k); }
  /** a + k, k a plain number. */
  plus(a: Dual, k: number): Dual { return dAddConst(this.next(), a, k); }
  /** k + m·a for plain k, m (the many `p1 + p2·dfz` of the formula). */
  lin(k: number, m: number, a: Dual): Dual { return dAddConst(this.next(), dScale(this.next(), a, m), k); }
  sin(a: Dual): Dual { return dSin(this.next(), a); }
  cos(a: Dual): Dual { return dCos(this.next(), a); }
  atan(a: Dual): Dual { return dAtan(this.next(), a); }
  sqrt(a: Dual): Dual { return dSqrt(this.next(), a); }
  abs(a: Dual): Dual { return dAbs(this.next(), a); }
  exp(a: Dual): Dual { const e = Math.exp(a.v); return dChain(this.next(), a, e, e, e); }
  /** min(a, 1): the curvature factors' limit E ≤ 1. */
  atMostOne(a: Dual): Dual { return a.v > 1 ? this.c(1) : a; }
  val(a: Dual): number { return a.v; }
}

/** sgn with sgn(0) = 1 (as the formula's ε-guards take it). */
export function sgn(x: number): number {
  return x < 0 ? -1 : 1;
}
