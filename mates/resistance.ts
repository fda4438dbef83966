/**
 * Resistances (pwdsim's dissipative terms, seed 002): air drag at a point and Coulomb
 * friction on a coordinate (an axle's bearing). Both only take energy out: each reports the
 * power it dissipates (≥ 0) for the energy budget, and its derivatives by forward AD like
 * every force element (mates/forces.ts). Internal units: t, mm, s, N.
 */
import { dScale, dvLength, dvScale, type Dual } from '../kernel/dual';
import type { ForceBlock } from '../kernel/forces';
import { BodyForceBlock } from './forces';

/**
 * Quadratic air drag at a point of a body: F = −k |v| v, v the point's world velocity and
 * k = ½ ρ C_d A (t/mm). Its power is k |v|³.
 */
export class DragForce extends BodyForceBlock {
  private readonly x = this.vec(); private readonly v = this.vec(); private readonly F = this.vec();
  private readonly speed: Dual = this.dual();
  readonly last = { speed: 0, force: 0 };
  constructor(owner: string, body: number, readonly at: ArrayLike<number>, readonly coefficient: number) {
    super(owner, [body]);
  }
  protected compute(): void {
    this.point(this.x, 0, this.at);
    this.velocityOf(this.v, 0, this.at);
    dvLength(this.speed, this.v);
    this.last.speed = this.speed.v;
    this.last.force = this.coefficient * this.speed.v * this.speed.v;
    // at rest |v| has no derivative, but |v|·v has (zero): leave the force out
    if (!(this.speed.v > 0)) return;
    dScale(this.speed, this.speed, -this.coefficient);
    dvScale(this.F, this.v, this.speed);
    this.apply(0, this.x, this.F, null);
  }
  dissipation(state: Float64Array, offsets: Int32Array, velocity: Float64Array): number {
    if (this.n) return this.values().dissipation(state, offsets, velocity);
    this.begin(state, offsets, velocity);
    this.velocityOf(this.v, 0, this.at);
    const s = Math.hypot(this.v.v[0], this.v.v[1], this.v.v[2]);
    return this.coefficient * s * s * s;
  }
}

/**
 * Coulomb friction on one coordinate (a bearing's torque on a joint angle, a slide's
 * friction): Q = −F·tanh(ẋ / v_reg), the sign regularised as pwdsim does so a run can start
 * from rest. F in the coordinate's force unit (N·mm per radian for an angle, N for a slide);
 * v_reg in its internal rate unit. Its power is F·tanh(ẋ/v_reg)·ẋ.
 */
export class CoordinateFrictionForce implements ForceBlock {
  readonly vars: readonly number[];
  readonly last = { rate: 0, force: 0 };
  constructor(readonly owner: string, variable: number, readonly force: number, readonly regularization: number) {
    this.vars = [variable];
  }
  evaluate(_state: Float64Array, _offsets: Int32Array, velocity: Float64Array, _t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null): void {
    const rate = velocity[0], th = Math.tanh(rate / this.regularization);
    Q[0] = -this.force * th;
    this.last.rate = rate; this.last.force = Q[0];
    if (K) K[0] = 0;
    if (C) C[0] = (-this.force * (1 - th * th)) / this.regularization;
  }
  dissipation(_state: Float64Array, _offsets: Int32Array, velocity: Float64Array): number {
    return this.force * Math.tanh(velocity[0] / this.regularization) * velocity[0];
  }
}
