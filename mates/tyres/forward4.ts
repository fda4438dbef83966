/**
 * Forward-mode derivatives along four inputs on a register file: a value is the index of a
 * register (its number and four derivatives, five floats in one buffer), so a long formula
 * makes no objects and each operation is a few multiplications. The slipping tyre's
 * derivative route: the tyre model seeded on slip angle, slip ratio, load and camber, then
 * chained into the element's columns. `reset()` rewinds the registers.
 */
import type { Arith } from './arith';

export class Forward4 implements Arith<number> {
  private buf = new Float64Array(5 * 512);
  private top = 0;

  reset(): this { this.top = 0; return this; }

  private next(): number {
    const r = this.top;
    this.top += 5;
    if (this.top > this.buf.length) { const grown = new Float64Array(this.buf.length * 2); grown.set(this.buf); this.buf = grown; }
    return r;
  }
  /** An input: value v, derivative 1 along direction k (0..3). */
  seed(v: number, k: number): number {
    const r = this.c(v);
    this.buf[r + 1 + k] = 1;
    return r;
  }
  val(a: number): number { return this.buf[a]; }
  /** ∂a/∂(input k). */
  deriv(a: number, k: number): number { return this.buf[a + 1 + k]; }

  c(v: number): number {
    const r = this.next(), b = this.buf;
    b[r] = v; b[r + 1] = 0; b[r + 2] = 0; b[r + 3] = 0; b[r + 4] = 0;
    return r;
  }
  /** f(a) with slope df: the chain rule. */
  private unary(a: number, f: number, df: number): number {
    const r = this.next(), b = this.buf;
    b[r] = f; b[r + 1] = df * b[a + 1]; b[r + 2] = df * b[a + 2]; b[r + 3] = df * b[a + 3]; b[r + 4] = df * b[a + 4];
    return r;
  }
  /** ka·a + kb·b (linear: sums and differences). */
  private combine(a: number, ka: number, bb: number, kb: number): number {
    const r = this.next(), b = this.buf;
    for (let i = 0; i < 5; i++) b[r + i] = ka * b[a + i] + kb * b[bb + i];
    return r;
  }
  add(a: number, b: number): number { return this.combine(a, 1, b, 1); }
  sub(a: number, b: number): number { return this.combine(a, 1, b, -1); }
  mul(a: number, bb: number): number {
    const r = this.next(), b = this.buf, av = b[a], bv = b[bb];
    b[r] = av * bv;
    for (let i = 1; i < 5; i++) b[r + i] = b[a + i] * bv + av * b[bb + i];
    return r;
  }
  div(a: number, bb: number): number {
    const r = this.next(), b = this.buf, bv = b[bb], q = b[a] / bv;
    b[r] = q;
    for (let i = 1; i < 5; i++) b[r + i] = (b[a + i] - q * b[bb + i]) / bv;
    return r;
  }
  sq(a: number): number { const v = this.buf[a]; return this.unary(a, v * v, 2 * v); }
  k(a: number, k: number): number { return this.unary(a, this.buf[a] * k, k); }
  plus(a: number, k: number): number { return this.unary(a, this.buf[a] + k, 1); }
  lin(k: number, m: number, a: number): number { return this.unary(a, k + m * this.buf[a], m); }
  sin(a: number): number { const v = this.buf[a]; return this.unary(a, Math.sin(v), Math.cos(v)); }
  cos(a: number): number { const v = this.buf[a]; return this.unary(a, Math.cos(v), -Math.sin(v)); }
  atan(a: number): number { const v = this.buf[a]; return this.unary(a, Math.atan(v), 1 / (1 + v * v)); }
  sqrt(a: number): number { const s = Math.sqrt(this.buf[a]); return this.unary(a, s, 0.5 / s); }
  /** Slope +1 at 0, as the kernel's dAbs. */
  abs(a: number): number { const v = this.buf[a]; return this.unary(a, Math.abs(v), v < 0 ? -1 : 1); }
  exp(a: number): number { const e = Math.exp(this.buf[a]); return this.unary(a, e, e); }
  atMostOne(a: number): number { return this.buf[a] > 1 ? this.c(1) : a; }
}
