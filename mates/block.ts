/**
 * The base of every mate's residual block: two parts' poses (columns 0..5 and 6..11 of
 * the derivative vector) and a few scalar coordinates (columns 12..), differentiated by
 * forward-mode AD. A subclass writes its rows as duals into `this.out`.
 */
import { Dual, DualVec3, dvRigidPoint, dvRigidDirection, dSeed, dConst, rotationMatrix, narrowedScratch } from '../kernel/dual';
import type { BlockKind, ResidualBlock } from '../kernel/system';

export abstract class MateBlock implements ResidualBlock {
  readonly vars: readonly number[];
  readonly n: number;
  protected readonly out: Dual[];
  protected state!: Float64Array;
  protected offsets!: Int32Array;

  /** Derivative column of each var's first component (−1: not differentiated). */
  protected cols: Int32Array;
  /**
   * Whether this is a twin (withFreeColumns, the time integrator's) that takes the block's
   * hand-written rows where it has them (mates/joint-rows.ts). The blocks themselves keep
   * the dual pass, so kinematic solves are the same numbers as before those rows existed.
   */
  protected byHand = false;

  constructor(readonly owner: string, partA: number, partB: number, scalars: readonly number[], readonly rows: number, readonly kind: BlockKind = 'constraint') {
    this.vars = [partA, partB, ...scalars];
    this.n = 12 + scalars.length;
    this.out = Array.from({ length: rows }, () => new Dual(this.n));
    this.cols = Int32Array.from(this.vars, (_, i) => (i < 2 ? 6 * i : 10 + i));
  }

  /**
   * The same rows differentiated only with respect to the vars where free[i] (a solver
   * whose fixed parts have no columns): its Jacobian is rows × Σ dim of the free vars, in
   * vars order. It shares this block's settings, with its own narrower dual scratch;
   * values and the kept derivatives are the same numbers (forward AD's columns are
   * independent), at a fraction of the work when a part is fixed.
   */
  withFreeColumns(free: readonly boolean[]): ResidualBlock {
    const cols = new Int32Array(this.vars.length);
    let n = 0;
    for (let i = 0; i < cols.length; i++) { cols[i] = free[i] ? n : -1; if (free[i]) n += i < 2 ? 6 : 1; }
    // a copy of this block's fields with fresh scratch, made by a spread and given the block's
    // prototype: twins of one class then share a map (V8 caches both steps), and every field
    // read in their code is monomorphic. (An object inheriting from this one, or one built by
    // Object.assign and made fast as a prototype, has a map of its own: the car's 37 twins had
    // 37, and each read of a field in the rows' code was megamorphic.)
    const fields: Record<string, unknown> = { ...(this as object) };
    for (const key of Object.keys(fields)) fields[key] = narrowedScratch(fields[key], n);
    fields.n = n;
    fields.cols = cols;
    fields.byHand = true;
    return Object.setPrototypeOf(fields, Object.getPrototypeOf(this));
  }

  protected dual(): Dual { return new Dual(this.n); }
  protected vec(): DualVec3 { return new DualVec3(this.n); }

  /** Rotation matrices of parts A and B, computed once per evaluation. */
  private readonly rotations = [new Float64Array(9), new Float64Array(9)];

  /** World position of a point of part A (which = 0) or B (which = 1). */
  protected point(out: DualVec3, which: 0 | 1, local: ArrayLike<number>): DualVec3 {
    return dvRigidPoint(out, this.rotations[which], this.state, this.offsets[which], local, this.cols[which]);
  }
  /** World direction of a direction of part A or B. */
  protected direction(out: DualVec3, which: 0 | 1, local: ArrayLike<number>): DualVec3 {
    return dvRigidDirection(out, this.rotations[which], local, this.cols[which]);
  }
  /** The i-th scalar coordinate as a dual. */
  protected scalar(out: Dual, i: number): Dual {
    const col = this.cols[2 + i], x = this.state[this.offsets[2 + i]];
    return col < 0 ? dConst(out, x) : dSeed(out, x, col);
  }

  protected abstract compute(): void;

  /** The rows of the last evaluation as duals (their tangents in tangent mode). */
  duals(): readonly Dual[] { return this.out; }

  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    this.state = state;
    this.offsets = offsets;
    rotationMatrix(this.rotations[0], state, offsets[0] + 3);
    rotationMatrix(this.rotations[1], state, offsets[1] + 3);
    this.compute();
    const n = this.n;
    for (let r = 0; r < this.rows; r++) {
      const o = this.out[r];
      residual[r] = o.v;
      if (jacobian) {
        const d = o.d, base = r * n;
        for (let k = 0; k < n; k++) jacobian[base + k] = d[k];
      }
    }
  }
}
