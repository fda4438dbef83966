/**
 * The vertical tyre force element (re-exported by mates/forces.ts, whose conventions it
 * keeps) and the rim's lowest point it and the vehicle's contact patch share. Q alone, its
 * stored energy and damping power are written out by hand (mates/tyre-values.ts).
 */
import {
  Dual, DualVec3, dAdd, dAddConst, dScale, dvAdd, dvConst, dvCross, dvScale, dvScaleConst, dvSub, dvNormalize,
  dvComponent, dvSetComponent, tangentMode,
} from '../kernel/dual';
import { BodyForceBlock, ORIGIN } from './body-force';
import { addTyre, tyreDissipation, tyrePotential, tyreValues } from './tyre-values';

const ZERO12 = new Float64Array(12);

/**
 * The lowest point of a wheel's rim circle, x = c + r·n (duals): n is the unit direction
 * toward the ground within the wheel plane, a·a_z a − e_z normalised, from the centre c and
 * the unit spin axis a; x = c for a wheel lying flat, which has no lowest point. `s`, `az` and
 * `tmp` are scratch. The tyre element and the vehicle's contact patch share it.
 */
export function rimLowestPoint(x: DualVec3, c: DualVec3, a: DualVec3, radius: number, s: DualVec3, az: Dual, tmp: DualVec3): void {
  dvComponent(az, a, 2);
  dvScale(s, a, az);
  s.v[2] -= 1;
  const len2 = s.v[0] ** 2 + s.v[1] ** 2 + s.v[2] ** 2;
  if (len2 > 1e-24) { dvNormalize(tmp, s); dvScaleConst(tmp, tmp, radius); dvAdd(x, c, tmp); }
  else dvAdd(x, c, dvConst(tmp, 0, 0, 0));
}

/**
 * A wheel's contact with the plane z = ground (duals): from the centre c and the spin axis d
 * (any length; `a` becomes it normalised), the rim's lowest point x and the penetration
 * p = ground − x_z. `d` may be `tmp`: it is read before `tmp` is used as scratch.
 */
export function rimContact(x: DualVec3, p: Dual, c: DualVec3, d: DualVec3, radius: number, ground: number, a: DualVec3, s: DualVec3, az: Dual, tmp: DualVec3): void {
  dvNormalize(a, d);
  rimLowestPoint(x, c, a, radius, s, az, tmp);
  dvComponent(p, x, 2);
  dScale(p, p, -1); dAddConst(p, p, ground);
}

/**
 * A vertical tyre spring: the wheel (centre c, spin axis a, radius r) touches the ground
 * plane z = ground at its rim's lowest point; penetration p = ground − z_contact, force
 * max(0, k p + c ṗ) upward at the contact (none while p ≤ 0). ṗ is minus the vertical
 * velocity of the wheel's material point at the contact.
 */
export class TyreForce extends BodyForceBlock {
  // centre, unit axis and contact point (read by a slipping tyre, mates/tyres/slip-force.ts)
  protected readonly c = this.vec(); protected readonly a = this.vec(); private readonly s = this.vec(); protected readonly x = this.vec();
  /** The contact's material velocity relative to the road after `contactVelocity()`. */
  protected readonly v = this.vec();
  private readonly w = this.vec(); private readonly arm = this.vec(); private readonly tmp = this.vec();
  protected readonly F = this.vec(); private readonly az = this.dual(); private readonly pd = this.dual(); private readonly N = this.dual();
  /** The penetration after `contact()` (read by a simulation result's probe, src/suspension/gradients/simulation/results.ts). */
  protected readonly p = this.dual();
  protected readonly r = this.vec(); private readonly rz = this.dual();
  readonly last = { penetration: 0, force: 0, contact: new Float64Array(3) };
  /**
   * @param road optionally, the road under the wheel: a point of another part (body 1) whose
   *   world height plus `ground` is the surface's; the contact force acts on it too, opposite.
   */
  constructor(owner: string, body: number, readonly centre: ArrayLike<number>, readonly axis: ArrayLike<number>,
    readonly radius: number, readonly stiffness: number, readonly damping: number, readonly ground: number,
    readonly road: { body: number; point: ArrayLike<number> } | null = null) {
    super(owner, road ? [body, road.body] : [body]);
    this.centreAt = Float64Array.from(centre); this.axisAt = Float64Array.from(axis);
    this.roadAt = road ? Float64Array.from(road.point) : null;
  }
  /** centre, axis and the road's point as Float64Arrays, for the values by hand (mates/tyre-values.ts). */
  readonly centreAt: Float64Array;
  readonly axisAt: Float64Array;
  readonly roadAt: Float64Array | null;
  /**
   * Q alone written out by hand (mates/tyre-values.ts): the values pass's bits, no dual calls.
   * This class's own compute only: a subclass (a slipping tyre, a probe) keeps the dual pass.
   */
  private get byHand(): boolean { return this.constructor === TyreForce && !tangentMode(); }

  override evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, slots?: Int32Array): void {
    if (!K && !C && this.byHand) { tyreValues(this, state, offsets, velocity, Q); return; }
    super.evaluate(state, offsets, velocity, t, Q, K, C, slots);
  }
  /** ForceBlock.addForces: Q by hand added in place (this class's own compute, outside tangent mode). */
  addForces(state: Float64Array, offsets: Int32Array, velocity: Float64Array, _t: number, slots: Int32Array, Q: Float64Array, turnW: Float64Array | null, turnR: Float64Array | null): boolean {
    if (!this.byHand) return false;
    addTyre(this, state, offsets, velocity, Q, slots[0], this.roadAt ? slots[6] : -1, turnW, turnR);
    return true;
  }

  /** Contact point and penetration as duals. */
  protected contact(): void {
    this.point(this.c, 0, this.centre);
    this.direction(this.tmp, 0, this.axis);
    rimContact(this.x, this.p, this.c, this.tmp, this.radius, this.ground, this.a, this.s, this.az, this.tmp);
    if (this.road) { this.point(this.r, 1, this.road.point); dvComponent(this.rz, this.r, 2); dAdd(this.p, this.p, this.rz); }
    this.last.penetration = this.p.v; this.last.contact.set(this.x.v);
  }
  /** The material velocity of the wheel at the contact x, less the road's there, into `v` (after `contact()`). */
  protected contactVelocity(): void {
    // R v + ω_w × (x − origin)
    this.velocityOf(this.v, 0, ORIGIN);
    this.velocityOf(this.w, 0, ORIGIN, true);
    this.point(this.tmp, 0, ORIGIN);
    dvSub(this.arm, this.x, this.tmp);
    dvCross(this.tmp, this.w, this.arm);
    dvAdd(this.v, this.v, this.tmp);
    if (this.road) {
      // less the road's material velocity there: v_r + ω_r × (x − r)
      this.velocityOf(this.w, 1, this.road.point);
      dvSub(this.v, this.v, this.w);
      this.velocityOf(this.w, 1, ORIGIN, true);
      dvSub(this.arm, this.x, this.r);
      dvCross(this.tmp, this.w, this.arm);
      dvSub(this.v, this.v, this.tmp);
    }
  }
  /** The vertical load k p + c ṗ as a dual after `contact()`, or null without contact (recorded in `last.force`). */
  protected normalLoad(): Dual | null {
    this.last.force = 0;
    if (!(this.p.v > 0)) return null;
    dScale(this.N, this.p, this.stiffness);
    if (this.damping !== 0) {
      this.contactVelocity();
      dvComponent(this.pd, this.v, 2);
      dAdd(this.N, this.N, dScale(this.pd, this.pd, -this.damping));
    }
    if (!(this.N.v > 0)) return null;
    this.last.force = this.N.v;
    return this.N;
  }
  protected compute(): void {
    this.contact();
    const N = this.normalLoad();
    if (!N) return;
    dvConst(this.F, 0, 0, 0);
    dvSetComponent(this.F, 2, N);
    this.apply(0, this.x, this.F, null);
    if (this.road) this.apply(1, this.x, this.F, null, -1);
  }
  potential(state: Float64Array, offsets: Int32Array): number {
    if (this.byHand) return tyrePotential(this, state, offsets);
    if (this.n) return this.values().potential(state, offsets);
    this.begin(state, offsets, ZERO12);
    this.contact();
    return this.p.v > 0 ? 0.5 * this.stiffness * this.p.v * this.p.v : 0;
  }
  /**
   * Power its damping takes: −(N − k p)·v_z with v_z the contact's vertical velocity (c v_z²
   * while N > 0; k p v_z ≥ 0 while the clamp at N = 0 holds), so that the stored energy
   * ½ k p², this and the work on the wheel balance.
   */
  dissipation(state: Float64Array, offsets: Int32Array, velocity: Float64Array): number {
    if (this.byHand) return tyreDissipation(this, state, offsets, velocity);
    if (this.n) return this.values().dissipation(state, offsets, velocity);
    if (this.damping === 0) return 0;
    this.begin(state, offsets, velocity);
    this.compute();
    if (!(this.p.v > 0)) return 0;
    const vz = -this.pd.v / this.damping; // pd was scaled by −c in compute
    return -(this.last.force - this.stiffness * this.p.v) * vz;
  }
}

