/**
 * The number types of kernel/dual.ts (import them from there): a dual scalar and a dual
 * 3-vector, a value and its derivatives, and in tangent mode the derivative of both along one
 * outer direction (at the second level, along a second one too, and the mixed); what tangent mode's seeds say; and the scratch of a block's narrower twin.
 */
import { overwrittenFloats, scratchFloats } from './float-slab';

export class Dual {
  v = 0;
  readonly d: Float64Array;
  /** Tangent mode only (withTangents): the derivative of (v, d) along one outer direction. */
  t: Dual | null = null;
  /** The second level only (withSecondTangents): the derivative of (v, d) along the second direction; on `t`, the mixed one. */
  t2: Dual | null = null;
  /** `written`: the caller overwrites every derivative before reading one (a dual operation's out), so reused storage need not be zeroed. */
  constructor(readonly n: number, value = 0, written = false) {
    this.d = written ? overwrittenFloats(n) : scratchFloats(n);
    this.v = value;
  }
}

/**
 * A dual 3-vector: values v[0..2] and derivatives d[i·n + k] = ∂v_i/∂x_k.
 */
export class DualVec3 {
  /** From the scratch pool like `d` (zeroed): inside a reusingFloats scope a state's vectors reuse the last state's. */
  readonly v = scratchFloats(3);
  readonly d: Float64Array;
  /** Tangent mode only: the derivative of (v, d) along one outer direction. */
  t: DualVec3 | null = null;
  /** The second level only: the derivative of (v, d) along the second direction; on `t`, the mixed one. */
  t2: DualVec3 | null = null;
  /** `written`: as Dual's. */
  constructor(readonly n: number, written = false) {
    this.d = written ? overwrittenFloats(3 * n) : scratchFloats(3 * n);
  }
}

/**
 * A fresh dual scratch of width n in place of x (a Dual, a DualVec3, or an array of them);
 * anything else is returned as is. For a block's narrower twin (fewer seeded columns, or
 * none: values only).
 */
export function narrowedScratch(x: unknown, n: number): unknown {
  if (x instanceof Dual) return new Dual(n);
  if (x instanceof DualVec3) return new DualVec3(n);
  if (Array.isArray(x) && x.length > 0 && x.every((y) => y instanceof Dual || y instanceof DualVec3)) return x.map((y) => narrowedScratch(y, n));
  return x;
}

/** Where the outer direction moves the inputs of one block evaluation, by seed column. */
export interface TangentSeeds {
  /** The state's motion of the pose seeded at columns col..col+5: a body twist (ω, v), or null. */
  pose(col: number): ArrayLike<number> | null;
  /**
   * The motion of the local geometry `p` (a point, or a direction) read through those
   * columns: a twist (ω, v) in the part's frame, or null.
   */
  local(col: number, p: ArrayLike<number>, isPoint: boolean): ArrayLike<number> | null;
  /** The rate of the scalar seeded at column col. */
  scalar(col: number): number;
}

