/**
 * Small residual blocks for kernel tests (the real mates live in mates/): a point of one
 * body on a point of another (or of the world), and a body axis parallel to another's.
 * Written with the kernel's dual numbers, as a mate would be.
 */
import { DualVec3, Dual, dvPosePoint, dvPoseDirection, dvConstFrom, dvSub, dvDotConst, dvDot } from '../../kernel/dual';
import { type ResidualBlock, type BlockKind, type System } from '../../kernel/system';
import { basisAcross, vec3 } from '../../kernel/vec3';
import * as P from '../../kernel/pose';

/** P_b − P_a (3 rows); a = −1 means the world. */
export class PointOnPoint implements ResidualBlock {
  readonly rows = 3;
  readonly vars: number[];
  private pa: DualVec3; private pb: DualVec3; private diff: DualVec3;
  constructor(readonly owner: string, private a: number, private localA: number[], private b: number, private localB: number[], readonly kind: BlockKind = 'constraint') {
    this.vars = a >= 0 ? [a, b] : [b];
    const n = this.vars.length * 6;
    this.pa = new DualVec3(n); this.pb = new DualVec3(n); this.diff = new DualVec3(n);
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    const n = this.vars.length * 6;
    if (this.a >= 0) {
      dvPosePoint(this.pa, state, offsets[0], this.localA, 0);
      dvPosePoint(this.pb, state, offsets[1], this.localB, 6);
    } else {
      dvConstFrom(this.pa, this.localA);
      dvPosePoint(this.pb, state, offsets[0], this.localB, 0);
    }
    dvSub(this.diff, this.pb, this.pa);
    for (let r = 0; r < 3; r++) {
      residual[r] = this.diff.v[r];
      if (jacobian) for (let k = 0; k < n; k++) jacobian[r * n + k] = this.diff.d[r * n + k];
    }
  }
}

/** Body b's local direction db parallel to world direction dw: 2 rows across dw, times L. */
export class AxisParallelToWorld implements ResidualBlock {
  readonly rows = 2;
  readonly vars: number[];
  private d = new DualVec3(6); private s = new Dual(6);
  private u = vec3(); private w = vec3();
  constructor(readonly owner: string, b: number, private db: number[], dw: number[], private L: number, readonly kind: BlockKind = 'constraint') {
    this.vars = [b];
    basisAcross(this.u, this.w, dw);
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    dvPoseDirection(this.d, state, offsets[0], this.db, 0);
    dvDotConst(this.s, this.d, this.u);
    residual[0] = this.s.v * this.L;
    if (jacobian) for (let k = 0; k < 6; k++) jacobian[k] = this.s.d[k] * this.L;
    dvDotConst(this.s, this.d, this.w);
    residual[1] = this.s.v * this.L;
    if (jacobian) for (let k = 0; k < 6; k++) jacobian[6 + k] = this.s.d[k] * this.L;
  }
}

/** One coordinate of a body point as a one-row target block (for tangents). */
export class PointCoordinate implements ResidualBlock {
  readonly rows = 1;
  readonly vars: number[];
  readonly kind = 'driver' as const;
  private p = new DualVec3(6); private s = new Dual(6);
  constructor(readonly owner: string, b: number, private local: number[], private direction: number[]) {
    this.vars = [b];
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    dvPosePoint(this.p, state, offsets[0], this.local, 0);
    dvDotConst(this.s, this.p, this.direction);
    residual[0] = this.s.v;
    if (jacobian) jacobian.set(this.s.d);
  }
}

/** A body hinged to the world at `pivot` about world z, point (len,0,0) along its x. */
export function hingedLink(system: System, name: string, pivot: number[], angle: number): number {
  const q = [Math.cos(angle / 2), 0, 0, Math.sin(angle / 2)];
  const id = system.addPose(name, P.pose(pivot, q));
  system.addBlock(new PointOnPoint(`${name}.pin`, -1, pivot, id, [0, 0, 0]));
  system.addBlock(new AxisParallelToWorld(`${name}.axis`, id, [0, 0, 1], [0, 0, 1], system.lengthScale));
  return id;
}

export { dvDot };
