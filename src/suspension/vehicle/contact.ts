/**
 * A tyre's contact patch for the vehicle's quasi-static analyses: the vertical force of
 * the `tyre` element (stiffness × penetration of the rim circle's lowest point below the
 * road), here without the clamp at zero so that Newton sees the stiffness from the first
 * touch (a wheel that lifts is flagged by the analysis, never hidden), plus a horizontal
 * force at the contact:
 *
 *   F_h = f0 + c·N + k_h (anchor − x_h)
 *
 * f0 a constant force (a brake or drive share), c a vector times the vertical load (a
 * lateral acceleration reacted in proportion to the loads, vehicle.md), and a weak linear
 * horizontal stiffness k_h about the contact's design position, which holds the body's
 * x, y and yaw so statics and modes are never singular. The loads live in a shared
 * Float64Array the analysis sets: [f0x, f0y, cx, cy, drive, pair, mz]. `mz` is a moment
 * about the world's vertical on the wheel's upright (a tyre's aligning moment, N·mm: what the
 * steering linkage and its compliance take; the road reacts it). `pair` is a vertical
 * force pair at the contact, up on the wheel and down on the body (what a wheel rate is
 * measured with). With `drive` 1 the moment of
 * f0 about the spin axis is balanced by a torque between the wheel and the second body (an
 * inboard drive: the body reacts it); otherwise the bearing's hold reacts it into the
 * upright (an outboard brake, or a live axle's drive). Exact tangent by forward AD.
 */
import { BodyForceBlock, rimContact } from '../../../mates/forces';
import { dAddConst, dAddScaled, dScale, dvComponent, dvConst, dvScale, dvSetComponent, dvSub, dvCross, dvDot } from '../../../kernel/dual';

export class ContactPatchForce extends BodyForceBlock {
  private readonly c = this.vec(); private readonly a = this.vec(); private readonly s = this.vec(); private readonly x = this.vec();
  private readonly tmp = this.vec(); private readonly F = this.vec();
  private readonly az = this.dual(); private readonly p = this.dual(); private readonly N = this.dual(); private readonly h = this.dual();
  /** [f0x, f0y, cx, cy, drive, pair, mz]: set by the analysis between solves. */
  readonly loads = new Float64Array(7);
  private readonly mz = this.vec(); private readonly o = this.vec();
  private readonly r = this.vec(); private readonly m = this.dual(); private readonly M = this.vec();
  /** After an evaluation: penetration (mm), vertical load (N), the contact point and the horizontal force (world). */
  readonly last = { penetration: 0, force: 0, contact: new Float64Array(3), shear: new Float64Array(2) };

  constructor(owner: string, body: number, readonly centre: ArrayLike<number>, readonly axis: ArrayLike<number>,
    readonly radius: number, readonly stiffness: number, readonly horizontalStiffness: number, readonly anchor: ArrayLike<number>, readonly ground: number,
    readonly driveReaction: boolean, chassis: number) {
    super(owner, [body, chassis]);
  }

  protected compute(): void {
    this.point(this.c, 0, this.centre);
    this.direction(this.tmp, 0, this.axis);
    rimContact(this.x, this.p, this.c, this.tmp, this.radius, this.ground, this.a, this.s, this.az, this.tmp);
    dScale(this.N, this.p, this.stiffness);
    dvConst(this.F, 0, 0, 0);
    dvSetComponent(this.F, 2, this.N);
    const L = this.loads;
    for (let i = 0; i < 2; i++) {
      // h = f0 + c N + k_h (anchor − x)
      dvComponent(this.h, this.x, i);
      dScale(this.h, this.h, -this.horizontalStiffness);
      dAddConst(this.h, this.h, L[i] + this.horizontalStiffness * this.anchor[i]);
      dAddScaled(this.h, this.h, this.N, L[2 + i]);
      dvSetComponent(this.F, i, this.h);
      this.last.shear[i] = this.h.v;
    }
    this.last.penetration = this.p.v; this.last.force = this.N.v; this.last.contact.set(this.x.v);
    this.apply(0, this.x, this.F, null);
    if (L[5] !== 0) {
      // a vertical pair at the contact point: up on the wheel, down on the body
      dvConst(this.tmp, 0, 0, L[5]);
      this.apply(0, this.x, this.tmp, null, 1);
      this.apply(1, this.x, this.tmp, null, -1);
    }
    if (L[6] !== 0) {
      // a pure moment about the world's z on the upright (constant: no stiffness)
      dvConst(this.mz, 0, 0, L[6]);
      dvConst(this.o, 0, 0, 0);
      this.apply(0, this.x, this.o, this.mz, 1);
    }
    if (L[4] !== 0 && this.driveReaction) {
      // M = ((x − c) × f0)·a about the spin axis, and the torque −M a on the wheel, +M a on the body
      dvSub(this.r, this.x, this.c);
      dvConst(this.tmp, L[0], L[1], 0);
      dvCross(this.M, this.r, this.tmp);
      dvDot(this.m, this.M, this.a);
      dvScale(this.M, this.a, this.m);
      dvConst(this.tmp, 0, 0, 0);
      this.apply(0, this.x, this.tmp, this.M, -1);
      this.apply(1, this.x, this.tmp, this.M, 1);
    }
  }
}
