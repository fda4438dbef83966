/**
 * Measured quantities as one-row blocks: a coordinate of a (possibly derived) point, and
 * the length between two points. They serve as sweep drivers (kind 'driver', with a
 * settable target), as holds of the steering response, and as tangent targets.
 *
 * A point here is a weighted sum of part points (one term for a point on a part; two for a
 * point on a rod's centreline between a chassis point and an upright point).
 */
import { Dual, DualVec3, dvPosePoint, dvLength, dvSub, dvComponent, dvConst, dvAddScaled } from '../../../kernel/dual';
import type { BlockKind, ResidualBlock } from '../../../kernel/system';

export interface PointTerm {
  variable: number;
  local: Float64Array;
  weight: number;
}
export type PointExpr = readonly PointTerm[];

/** Evaluate a point expression as a dual over the block's variables (6 columns each). */
class PointEvaluator {
  private tmp: DualVec3;
  constructor(readonly n: number) {
    this.tmp = new DualVec3(n);
  }
  evaluate(out: DualVec3, expr: PointExpr, vars: readonly number[], state: Float64Array, offsets: Int32Array): DualVec3 {
    dvConst(out, 0, 0, 0);
    for (const t of expr) {
      const slot = vars.indexOf(t.variable);
      dvPosePoint(this.tmp, state, offsets[slot], t.local, slot * 6);
      dvAddScaled(out, out, this.tmp, t.weight);
    }
    return out;
  }
}

function varsOf(...exprs: PointExpr[]): number[] {
  const vars: number[] = [];
  for (const e of exprs) for (const t of e) if (!vars.includes(t.variable)) vars.push(t.variable);
  return vars;
}

/** A point's world coordinate along x, y or z, minus `target`. */
export class PointCoordinateBlock implements ResidualBlock {
  readonly rows = 1;
  readonly vars: number[];
  private ev: PointEvaluator;
  private p: DualVec3;
  private s: Dual;
  constructor(readonly owner: string, readonly expr: PointExpr, readonly axis: 0 | 1 | 2, public target = 0, readonly kind: BlockKind = 'driver') {
    this.vars = varsOf(expr);
    const n = this.vars.length * 6;
    this.ev = new PointEvaluator(n);
    this.p = new DualVec3(n);
    this.s = new Dual(n);
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    this.ev.evaluate(this.p, this.expr, this.vars, state, offsets);
    dvComponent(this.s, this.p, this.axis);
    residual[0] = this.s.v - this.target;
    if (jacobian) jacobian.set(this.s.d);
  }
  /** The row of the last evaluation as a dual. */
  duals(): readonly Dual[] { return [this.s]; }
}

/** |B − A| − target. */
export class LengthBlock implements ResidualBlock {
  readonly rows = 1;
  readonly vars: number[];
  private ev: PointEvaluator;
  private a: DualVec3; private b: DualVec3; private d: DualVec3;
  private s: Dual;
  constructor(readonly owner: string, readonly exprA: PointExpr, readonly exprB: PointExpr, public target = 0, readonly kind: BlockKind = 'driver') {
    this.vars = varsOf(exprA, exprB);
    const n = this.vars.length * 6;
    this.ev = new PointEvaluator(n);
    this.a = new DualVec3(n); this.b = new DualVec3(n); this.d = new DualVec3(n);
    this.s = new Dual(n);
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    this.ev.evaluate(this.a, this.exprA, this.vars, state, offsets);
    this.ev.evaluate(this.b, this.exprB, this.vars, state, offsets);
    dvSub(this.d, this.b, this.a);
    dvLength(this.s, this.d);
    residual[0] = this.s.v - this.target;
    if (jacobian) jacobian.set(this.s.d);
  }
  /** The row of the last evaluation as a dual. */
  duals(): readonly Dual[] { return [this.s]; }
}
