/**
 * The arithmetic a tyre formula is written in, so one text serves plain numbers (fast:
 * a curve, a value-only force) and the kernel's dual numbers (DualTape: exact derivatives).
 * Every operation returns a new value; `val` reads a value's number (for branches).
 */
export interface Arith<T> {
  c(v: number): T;
  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  div(a: T, b: T): T;
  sq(a: T): T;
  /** a·k, k a plain number. */
  k(a: T, k: number): T;
  /** a + k, k a plain number. */
  plus(a: T, k: number): T;
  /** k + m·a for plain k, m. */
  lin(k: number, m: number, a: T): T;
  sin(a: T): T;
  cos(a: T): T;
  atan(a: T): T;
  sqrt(a: T): T;
  abs(a: T): T;
  exp(a: T): T;
  /** min(a, 1). */
  atMostOne(a: T): T;
  val(a: T): number;
}

/** Plain numbers. */
export class NumberArith implements Arith<number> {
  c(v: number): number { return v; }
  add(a: number, b: number): number { return a + b; }
  sub(a: number, b: number): number { return a - b; }
  mul(a: number, b: number): number { return a * b; }
  div(a: number, b: number): number { return a / b; }
  sq(a: number): number { return a * a; }
  k(a: number, k: number): number { return a * k; }
  plus(a: number, k: number): number { return a + k; }
  lin(k: number, m: number, a: number): number { return k + m * a; }
  sin(a: number): number { return Math.sin(a); }
  cos(a: number): number { return Math.cos(a); }
  atan(a: number): number { return Math.atan(a); }
  sqrt(a: number): number { return Math.sqrt(a); }
  abs(a: number): number { return Math.abs(a); }
  exp(a: number): number { return Math.exp(a); }
  atMostOne(a: number): number { return a > 1 ? 1 : a; }
  val(a: number): number { return a; }
}

export const NUMBERS = new NumberArith();
