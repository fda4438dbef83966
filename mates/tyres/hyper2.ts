/**
 * Hyper-dual numbers on a register file: a value with its derivatives along two directions
 * and their mixed second derivative, v + a ε₁ + b ε₂ + ab ε₁ε₂ (ε₁² = ε₂² = 0). The mixed
 * part of a formula is exact (no differences): the tyre's and the steady-state balances'
 * second derivatives that the understeer gradient's gradient needs (vehicle/understeer-rates.ts).
 * A value is a register's index, as Forward4's; `reset()` rewinds the registers.
 */
import type { Arith } from './arith';

export class Hyper2 implements Arith<number> {
  private buf = new Float64Array(4 * 1024);
  private top = 0;

  reset(): this { this.top = 0; return this; }

  private next(): number {
    const r = this.top;
    this.top += 4;
    if (this.top > this.buf.length) { const grown = new Float64Array(this.buf.length * 2); grown.set(this.buf); this.buf = grown; }
    return r;
  }
  /** A register with all four parts given. */
  make(v: number, a: number, b: number, ab: number): number {
    const r = this.next(), x = this.buf;
    x[r] = v; x[r + 1] = a; x[r + 2] = b; x[r + 3] = ab;
    return r;
  }
  val(a: number): number { return this.buf[a]; }
  /** ∂/∂ε₁ (k = 0), ∂/∂ε₂ (k = 1), the mixed part (k = 2). */
  part(a: number, k: 0 | 1 | 2): number { return this.buf[a + 1 + k]; }

  c(v: number): number { return this.make(v, 0, 0, 0); }
  /** f(a) from f, f′ and f″ at a's value: the chain rule to second order. */
  private unary(a: number, f: number, d1: number, d2: number): number {
    const x = this.buf, a1 = x[a + 1], a2 = x[a + 2];
    return this.make(f, d1 * a1, d1 * a2, d1 * x[a + 3] + d2 * a1 * a2);
  }
  private combine(a: number, ka: number, b: number, kb: number): number {
    const x = this.buf;
    return this.make(ka * x[a] + kb * x[b], ka * x[a + 1] + kb * x[b + 1], ka * x[a + 2] + kb * x[b + 2], ka * x[a + 3] + kb * x[b + 3]);
  }
  add(a: number, b: number): number { return this.combine(a, 1, b, 1); }
  sub(a: number, b: number): number { return this.combine(a, 1, b, -1); }
  mul(a: number, b: number): number {
    const x = this.buf;
    const av = x[a], a1 = x[a + 1], a2 = x[a + 2], a12 = x[a + 3], bv = x[b], b1 = x[b + 1], b2 = x[b + 2], b12 = x[b + 3];
    return this.make(av * bv, a1 * bv + av * b1, a2 * bv + av * b2, a12 * bv + a1 * b2 + a2 * b1 + av * b12);
  }
  div(a: number, b: number): number {
    const v = this.buf[b];
    return this.mul(a, this.unary(b, 1 / v, -1 / (v * v), 2 / (v * v * v)));
  }
  sq(a: number): number { const v = this.buf[a]; return this.unary(a, v * v, 2 * v, 2); }
  k(a: number, k: number): number { return this.unary(a, this.buf[a] * k, k, 0); }
  plus(a: number, k: number): number { return this.unary(a, this.buf[a] + k, 1, 0); }
  lin(k: number, m: number, a: number): number { return this.unary(a, k + m * this.buf[a], m, 0); }
  sin(a: number): number { const v = this.buf[a]; return this.unary(a, Math.sin(v), Math.cos(v), -Math.sin(v)); }
  cos(a: number): number { const v = this.buf[a]; return this.unary(a, Math.cos(v), -Math.sin(v), -Math.cos(v)); }
  atan(a: number): number { const v = this.buf[a], s = 1 + v * v; return this.unary(a, Math.atan(v), 1 / s, (-2 * v) / (s * s)); }
  sqrt(a: number): number { const s = Math.sqrt(this.buf[a]); return this.unary(a, s, 0.5 / s, -0.25 / (s * s * s)); }
  /** Slope +1 at 0, as Forward4's. */
  abs(a: number): number { const v = this.buf[a]; return this.unary(a, Math.abs(v), v < 0 ? -1 : 1, 0); }
  exp(a: number): number { const e = Math.exp(this.buf[a]); return this.unary(a, e, e, e); }
  atMostOne(a: number): number { return this.buf[a] > 1 ? this.c(1) : a; }
}
