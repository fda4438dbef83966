/**
 * What holds the body's x, y and yaw in the quasi-static analyses: a horizontal spring and
 * a yaw spring between the body's centre of mass and its design place in the world. Rolling
 * tyres resist none of these quasi-statically (a slip angle, not a displacement, makes their
 * side force), and the horizontal loads the analyses apply balance the d'Alembert loads
 * (vehicle.md), so this carries only what is left (a yaw moment of the proportional
 * reaction: `last` holds it), and statics and modes are never singular.
 * `preload`: a force and yaw moment (world) on the body at the same point, set by the steady
 * state to what its balances hold but its loads leave out (the drive the speed needs, the
 * aligning moments' yaw), so the springs carry nothing there and no figure of the turn
 * depends on their (artificial) stiffness. Exact tangent by forward AD.
 */
import { BodyForceBlock } from '../../../mates/forces';
import { dAtan2, dScale, dvComponent, dvConst, dvSetComponent, dAddConst } from '../../../kernel/dual';

const EX = Float64Array.of(1, 0, 0);

export class BodyDatum extends BodyForceBlock {
  private readonly x = this.vec(); private readonly e = this.vec(); private readonly F = this.vec(); private readonly M = this.vec();
  private readonly h = this.dual(); private readonly ex = this.dual(); private readonly ey = this.dual(); private readonly yaw = this.dual();
  /** After an evaluation: [Fx, Fy] (N) and Mz (N·mm) on the body, the preload's included. */
  readonly last = { force: new Float64Array(2), moment: 0 };

  /**
   * centre: the body's point (its frame); anchor and yaw: where it is held (world) and the heading;
   * preload: [Fx, Fy] (N) and Mz (N·mm), world, added at the point (a copy shares its model's).
   */
  constructor(body: number, readonly centre: ArrayLike<number>, readonly anchor: ArrayLike<number>, readonly yaw0: number, readonly stiffness: number, readonly yawStiffness: number,
    readonly preload = new Float64Array(3)) {
    super('datum', [body]);
  }

  protected compute(): void {
    this.point(this.x, 0, this.centre);
    dvConst(this.F, 0, 0, 0);
    for (let i = 0; i < 2; i++) {
      dvComponent(this.h, this.x, i);
      dAddConst(this.h, this.h, -this.anchor[i]);
      dScale(this.h, this.h, -this.stiffness);
      dAddConst(this.h, this.h, this.preload[i]);
      dvSetComponent(this.F, i, this.h);
      this.last.force[i] = this.h.v;
    }
    this.direction(this.e, 0, EX);
    dvComponent(this.ex, this.e, 0); dvComponent(this.ey, this.e, 1);
    dAtan2(this.yaw, this.ey, this.ex);
    dAddConst(this.yaw, this.yaw, -this.yaw0);
    dScale(this.yaw, this.yaw, -this.yawStiffness);
    dAddConst(this.yaw, this.yaw, this.preload[2]);
    dvConst(this.M, 0, 0, 0);
    dvSetComponent(this.M, 2, this.yaw);
    this.last.moment = this.yaw.v;
    this.apply(0, this.x, this.F, this.M);
  }
}
