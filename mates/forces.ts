/**
 * Force elements as the kernel's force blocks (kernel/forces.ts): springs, dampers,
 * bushings, coordinate springs, applied forces and torques, tyres. Each writes its
 * generalized forces on the pose variables it touches and their derivatives K = ∂Q/∂δ
 * (δ the bodies' retraction steps) and C = ∂Q/∂v (v their tangent velocities), both by
 * forward-mode AD: one dual pass seeded with the steps (columns 0..d) and the velocities
 * (columns d..2d), d = 6 per body. Gravity is the kernel's GravityBlock.
 *
 * Units are the caller's consistent set (the dynamic layer uses tonne, mm, s, N).
 * A generalized force is dual to the step: a world force F at world point x on a body
 * with pose (R, t) gives Q_v = Rᵀ F, Q_ω = Rᵀ ((x − t) × F + M).
 */
import {
  Dual, DualVec3, dAdd, dAddConst, dChain, dConst, dScale, dSub, dAtan2, dSqrt, dDiv, dvAddScaledDual,
  dvConst, dvCross, dvDot, dvScale, dvScaleConst, dvSub, dvLength, dvNormalize, dvComponent, dvSetComponent,
  rotationMatrix, tangentMode,
} from '../kernel/dual';
import { addPointToPoint, pointToPointDissipation, pointToPointValues } from './point-to-point-values';
import type { Law } from './law';
export type { Law } from './law';
export { LinearLaw, SineLaw, TableLaw } from './law';
import { BodyForceBlock, ORIGIN } from './body-force';
import { bushingStiffnessAtRest, type BushingAtRest } from './bushing-stiffness';
import { addBushing, bushingValues } from './bushing-values';
import { addTensionStiffness } from './tension-stiffness';
import { appliedStiffness } from './applied-stiffness';
import { appliedValues } from './applied-values';
export { BodyForceBlock } from './body-force';
import type { ForceBlock } from '../kernel/forces';

// ---- springs and dampers between two points ----

/**
 * A spring/damper's report, a class rather than an object literal: a literal { length, … }
 * shares its first map transition with every object literal whose first key is `length`
 * (`Array.from({ length })`'s, …), where that field is held boxed, so each store of a length
 * there allocated a number (~16 bytes an evaluation of each spring); a class's map is its own.
 */
class SpringReport {
  length = 0;
  rate = 0;
  tension = 0;
}

/**
 * Spring, damper or both between point `a` of body 0 and point `b` of body 1, along the
 * line joining them: tension T = spring(l) + damper(l̇) pulls the points together.
 */
export class PointToPointForce extends BodyForceBlock {
  protected override readonly narrowable = true;
  private readonly pa = this.vec(); private readonly pb = this.vec();
  private readonly va = this.vec(); private readonly vb = this.vec();
  private readonly dir = this.vec(); private readonly unit = this.vec(); private readonly rel = this.vec();
  private readonly force = this.vec();
  private readonly len = this.dual(); private readonly rate = this.dual(); private readonly tension = this.dual(); private readonly part = this.dual();
  private readonly law = new Float64Array(2);
  /** The tension of the last evaluation as a dual (its tangent in tangent mode), for the gradients. */
  get tensionDual(): Dual { return this.tension; }
  /** Length, rate and tension at the last evaluation (for reports). */
  readonly last = new SpringReport();
  /** a and b as Float64Arrays for the values without duals (mates/point-to-point-values.ts). */
  readonly localA: Float64Array;
  readonly localB: Float64Array;

  constructor(owner: string, bodyA: number, readonly a: ArrayLike<number>, bodyB: number, readonly b: ArrayLike<number>,
    readonly spring: Law | null, readonly damper: Law | null) {
    super(owner, [bodyA, bodyB]);
    this.localA = Float64Array.from(a); this.localB = Float64Array.from(b);
  }

  /** Q alone is written out by hand (mates/point-to-point-values.ts): the same numbers, no dual calls. */
  override evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, slots?: Int32Array): void {
    if (!K && !C && !tangentMode()) { pointToPointValues(this, state, offsets, velocity, Q); return; }
    super.evaluate(state, offsets, velocity, t, Q, K, C, slots);
  }
  /**
   * ForceBlock.addForces: Q by hand added in place (outside tangent mode, where the duals are
   * read; this class's own evaluate only: a subclass's evaluate is not bypassed).
   */
  addForces(state: Float64Array, offsets: Int32Array, velocity: Float64Array, _t: number, slots: Int32Array, Q: Float64Array, turnA: Float64Array | null, turnB: Float64Array | null): boolean {
    if (tangentMode() || this.constructor !== PointToPointForce) return false;
    addPointToPoint(this, state, offsets, velocity, Q, slots[0], slots[6], turnA, turnB);
    return true;
  }

  /**
   * At rest (a static or compliant state): Q by hand, K in closed form (mates/tension-stiffness.ts).
   * A moving state (a simulation's step) keeps the dual pass, bit for bit as it was.
   */
  protected override closedStiffness(state: Float64Array, offsets: Int32Array, velocity: Float64Array, _t: number, Q: Float64Array, K: Float64Array, slots: Int32Array): boolean {
    if (!atRest(velocity)) return false;
    pointToPointValues(this, state, offsets, velocity, Q);
    const axial = this.spring ? this.spring.evaluate(this.last.length, this.law)[1] : 0;
    K.fill(0, 0, 144);
    addTensionStiffness(K, 12, state, this.last.tension, offsets[0], slots[0] >= 0 ? 0 : -1, this.localA, offsets[1], slots[6] >= 0 ? 6 : -1, this.localB, axial);
    return true;
  }

  protected compute(): void {
    this.point(this.pa, 0, this.a); this.point(this.pb, 1, this.b);
    dvSub(this.dir, this.pb, this.pa);
    dvLength(this.len, this.dir);
    dvNormalize(this.unit, this.dir);
    dConst(this.tension, 0);
    if (this.spring) {
      this.spring.evaluate(this.len.v, this.law);
      // the law's curvature only in tangent mode (the stiffness's rate); undefined poisons it rather than guess
      dAdd(this.tension, this.tension, dChain(this.part, this.len, this.law[0], this.law[1], tangentMode() ? this.spring.curvature?.(this.len.v) : undefined));
    }
    dConst(this.rate, 0);
    if (this.damper) {
      this.velocityOf(this.va, 0, this.a); this.velocityOf(this.vb, 1, this.b);
      dvSub(this.rel, this.vb, this.va);
      dvDot(this.rate, this.unit, this.rel);
      this.damper.evaluate(this.rate.v, this.law);
      dAdd(this.tension, this.tension, dChain(this.part, this.rate, this.law[0], this.law[1]));
    }
    this.last.length = this.len.v; this.last.rate = this.rate.v; this.last.tension = this.tension.v;
    // T u on a (toward b), −T u on b
    dvScale(this.force, this.unit, this.tension);
    this.apply(0, this.pa, this.force, null, 1);
    this.apply(1, this.pb, this.force, null, -1);
  }

  potential(state: Float64Array, offsets: Int32Array): number {
    if (this.n) return this.values().potential(state, offsets);
    if (!this.spring?.integral) return 0;
    this.begin(state, offsets, ZERO12);
    this.point(this.pa, 0, this.a); this.point(this.pb, 1, this.b);
    dvSub(this.dir, this.pb, this.pa);
    return this.spring.integral(Math.hypot(this.dir.v[0], this.dir.v[1], this.dir.v[2]));
  }

  dissipation(state: Float64Array, offsets: Int32Array, velocity: Float64Array): number {
    if (!tangentMode()) return pointToPointDissipation(this, state, offsets, velocity);
    if (this.n) return this.values().dissipation(state, offsets, velocity);
    if (!this.damper) return 0;
    this.begin(state, offsets, velocity);
    this.point(this.pa, 0, this.a); this.point(this.pb, 1, this.b);
    dvSub(this.dir, this.pb, this.pa);
    dvNormalize(this.unit, this.dir);
    this.velocityOf(this.va, 0, this.a); this.velocityOf(this.vb, 1, this.b);
    dvSub(this.rel, this.vb, this.va);
    dvDot(this.rate, this.unit, this.rel);
    return this.damper.evaluate(this.rate.v, this.law)[0] * this.rate.v;
  }
}
const ZERO12 = new Float64Array(12);

// ---- bushings ----

/**
 * A bushing between frame A (on body 0) and frame B (on body 1): deflection d = A's axes
 * applied to (origin_B − origin_A), θ = log(R_Aᵀ R_B) in A's axes; force −K d − C ḋ on B at
 * B's origin and moment −K_r θ − C_r θ̇ (θ̇ taken as the relative angular velocity in A's
 * axes), the opposite on A at the same point.
 */
export class BushingForce extends BodyForceBlock {
  protected override readonly narrowable = true;
  private readonly fa: DualVec3[] = [this.vec(), this.vec(), this.vec()]; private readonly fb: DualVec3[] = [this.vec(), this.vec(), this.vec()];
  private readonly oa = this.vec(); private readonly ob = this.vec(); private readonly sep = this.vec();
  private readonly va = this.vec(); private readonly vb = this.vec(); private readonly wa = this.vec(); private readonly wb = this.vec();
  private readonly rel = this.vec(); private readonly tmpV = this.vec(); private readonly vee = this.vec(); private readonly F = this.vec(); private readonly M = this.vec();
  /** The world force on b and moment about its point of the last evaluation, as duals (tangents in tangent mode), for the gradients. */
  get forceDual(): DualVec3 { return this.F; }
  get momentDual(): DualVec3 { return this.M; }
  private readonly r: Dual[] = Array.from({ length: 9 }, () => this.dual());
  private readonly s = [this.dual(), this.dual(), this.dual(), this.dual(), this.dual()]; private readonly comp = [this.dual(), this.dual(), this.dual()];
  /** Translational (N/mm) and rotational (N·mm/rad) rates along A's axes, the element's own (compliance/stiffness.ts sets them in place). */
  readonly stiffness: Float64Array; readonly rotationalStiffness: Float64Array;
  /** Each frame's axes in its part (read, by identity, by the gradients that turn a frame). */
  readonly axesA: readonly Float64Array[];
  readonly axesB: readonly Float64Array[];
  /** Deflection (translation, rotation vector) and wrench on B at the last evaluation. */
  readonly last = { translation: new Float64Array(3), rotation: new Float64Array(3), force: new Float64Array(3), moment: new Float64Array(3), at: new Float64Array(3) };

  constructor(owner: string, bodyA: number, readonly originA: ArrayLike<number>, rotationA: Readonly<ArrayLike<number>>,
    bodyB: number, readonly originB: ArrayLike<number>, rotationB: Readonly<ArrayLike<number>>,
    stiffness: ArrayLike<number>, rotationalStiffness: ArrayLike<number>,
    readonly damping: ArrayLike<number>, readonly rotationalDamping: ArrayLike<number>) {
    super(owner, [bodyA, bodyB]);
    // one array kind for every bushing (a file's [8000, 1600, 1600] is of small integers, another's of doubles)
    this.stiffness = Float64Array.from(stiffness); this.rotationalStiffness = Float64Array.from(rotationalStiffness);
    // a Float64Array: rotationMatrix read a document's array here, and its reads of the state turned polymorphic (each boxed a number)
    const axes = (q: Readonly<ArrayLike<number>>): Float64Array[] => {
      const R = rotationMatrix(new Float64Array(9), Float64Array.from(q), 0);
      return [0, 1, 2].map((j) => Float64Array.of(R[j], R[3 + j], R[6 + j]));
    };
    this.axesA = axes(rotationA); this.axesB = axes(rotationB);
    this.pointA = Float64Array.from(originA); this.pointB = Float64Array.from(originB);
  }
  /** originA and originB as Float64Arrays for the values without duals (mates/bushing-values.ts). */
  readonly pointA: Float64Array;
  readonly pointB: Float64Array;

  /**
   * Q alone is written out by hand (mates/bushing-values.ts): the values pass's numbers, no
   * dual calls (a settle's Newton states, a run's iterations on a kept matrix). It reads the
   * element's own frames and rates each time (the compliance gradients set the rates in place).
   */
  override evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, slots?: Int32Array): void {
    if (!K && !C && !tangentMode()) { bushingValues(this, state, offsets, Q, atRest(velocity) ? null : velocity); return; }
    super.evaluate(state, offsets, velocity, t, Q, K, C, slots);
  }
  /** ForceBlock.addForces: Q by hand added in place (outside tangent mode; this class's own evaluate only), moving where a slot's velocity is not 0. */
  addForces(state: Float64Array, offsets: Int32Array, velocity: Float64Array, _t: number, slots: Int32Array, Q: Float64Array, turnA: Float64Array | null, turnB: Float64Array | null): boolean {
    if (tangentMode() || this.constructor !== BushingForce) return false;
    let moving = false;
    for (let i = 0; i < 12; i++) if (velocity[slots[i]] !== 0) { moving = true; break; }
    addBushing(this, state, offsets, Q, slots[0], slots[6], moving ? velocity : null, turnA, turnB);
    return true;
  }

  /** Deflections as duals: sep (A axes) into this.comp via d, θ into vee. */
  private deflect(): void {
    for (let i = 0; i < 3; i++) { this.direction(this.fa[i], 0, this.axesA[i]); this.direction(this.fb[i], 1, this.axesB[i]); }
    this.point(this.oa, 0, this.originA); this.point(this.ob, 1, this.originB);
    dvSub(this.sep, this.ob, this.oa);
    // relative rotation R_rel[i][j] = a_i · b_j
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) dvDot(this.r[3 * i + j], this.fa[i], this.fb[j]);
    const r = this.r, [s0, s1, s2, s3, s4] = this.s;
    // vee(R − Rᵀ) = 2 sin φ · axis
    dvSetComponent(this.vee, 0, dSub(s0, r[7], r[5]));
    dvSetComponent(this.vee, 1, dSub(s0, r[2], r[6]));
    dvSetComponent(this.vee, 2, dSub(s0, r[3], r[1]));
    // sin²φ = |vee|²/4, cos φ = (tr − 1)/2; θ = vee · φ/(2 sin φ)
    dvDot(s1, this.vee, this.vee); dScale(s1, s1, 0.25);
    dAdd(s2, r[0], r[4]); dAdd(s2, s2, r[8]); dAddConst(s2, s2, -1); dScale(s2, s2, 0.5);
    if (s1.v < 1e-4 && s2.v > 0) {
      // φ/sin φ = 1 + s²/6 + 3s⁴/40 + 5s⁶/112 (s = sin φ): smooth at rest, where the closed form is 0/0;
      // its curvature too, for tangent mode (the stiffness's rate at rest: compliance/coefficient-rates.ts)
      const x = s1.v;
      dChain(s3, s1, 0.5 * (1 + x / 6 + (3 * x * x) / 40 + (5 * x * x * x) / 112), 0.5 * (1 / 6 + (6 * x) / 40 + (15 * x * x) / 112), 0.5 * (6 / 40 + (30 * x) / 112));
    } else {
      dSqrt(s4, s1);
      dAtan2(s3, s4, s2);
      dDiv(s3, s3, s4); dScale(s3, s3, 0.5);
    }
    dvScale(this.vee, this.vee, s3);
  }

  protected compute(): void {
    this.deflect();
    const velocity = this.velocity;
    let moving = false;
    for (let i = 0; i < 12; i++) if (velocity[i] !== 0) { moving = true; break; }
    dvConst(this.F, 0, 0, 0); dvConst(this.M, 0, 0, 0);
    const c = this.comp[0], rate = this.comp[1], tmp = this.comp[2];
    if (moving) {
      this.velocityOf(this.va, 0, this.originA); this.velocityOf(this.vb, 1, this.originB);
      this.velocityOf(this.wa, 0, ORIGIN, true); this.velocityOf(this.wb, 1, ORIGIN, true);
      // ḋ = A-axes of (v_B − v_A − ω_A × sep)
      dvSub(this.rel, this.vb, this.va);
      dvCross(this.tmpV, this.wa, this.sep);
      dvSub(this.rel, this.rel, this.tmpV);
    }
    for (let i = 0; i < 3; i++) {
      // force component along A's axis i: −k d_i − c ḋ_i
      dvDot(c, this.fa[i], this.sep);
      dScale(c, c, -this.stiffness[i]);
      if (moving && this.damping[i] !== 0) { dvDot(rate, this.fa[i], this.rel); dAdd(c, c, dScale(rate, rate, -this.damping[i])); }
      dvAddScaledDual(this.F, this.F, this.fa[i], c);
      this.last.translation[i] = dvDotValue(this.fa[i], this.sep);
      // moment component: −k_r θ_i − c_r θ̇_i
      dvComponent(c, this.vee, i);
      this.last.rotation[i] = c.v;
      dScale(c, c, -this.rotationalStiffness[i]);
      if (moving && this.rotationalDamping[i] !== 0) {
        dvSub(this.tmpV, this.wb, this.wa);
        dvDot(tmp, this.fa[i], this.tmpV);
        dAdd(c, c, dScale(tmp, tmp, -this.rotationalDamping[i]));
      }
      dvAddScaledDual(this.M, this.M, this.fa[i], c);
    }
    this.last.force.set(this.F.v); this.last.moment.set(this.M.v); this.last.at.set(this.ob.v);
    this.apply(1, this.ob, this.F, this.M, 1);
    this.apply(0, this.ob, this.F, this.M, -1);
  }

  /** On a fixed frame A at rest: K in closed form (mates/bushing-stiffness.ts), Q from the values pass. */
  protected override closedStiffness(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array, slots: Int32Array): boolean {
    if (slots[0] >= 0 || slots[6] < 0) return false;
    if (!atRest(velocity)) return false;
    bushingValues(this, state, offsets, Q);
    const at = (this.atRest ??= {
      RA: new Float64Array(9), RB: new Float64Array(9), p: this.originB, axesA: this.axesA, axesB: this.axesB,
      stiffness: this.stiffness, rotationalStiffness: this.rotationalStiffness,
      force: this.last.force, moment: this.last.moment, rotation: this.last.rotation,
    });
    rotationMatrix(at.RA, state, offsets[0] + 3);
    rotationMatrix(at.RB, state, offsets[1] + 3);
    bushingStiffnessAtRest(at, K);
    return true;
  }
  private atRest: BushingAtRest | null = null;

  potential(state: Float64Array, offsets: Int32Array): number {
    if (this.n) return this.values().potential(state, offsets);
    this.begin(state, offsets, ZERO12);
    this.deflect();
    let e = 0;
    for (let i = 0; i < 3; i++) {
      const d = dvDotValue(this.fa[i], this.sep), th = this.vee.v[i];
      e += 0.5 * (this.stiffness[i] * d * d + this.rotationalStiffness[i] * th * th);
    }
    return e;
  }
}

/** The bodies' velocities zero (n entries, 12 for two bodies): the values pass takes no damping term. */
function atRest(velocity: Float64Array, n = 12): boolean {
  for (let i = 0; i < n; i++) if (velocity[i] !== 0) return false;
  return true;
}

function dvDotValue(a: DualVec3, b: DualVec3): number {
  return a.v[0] * b.v[0] + a.v[1] * b.v[1] + a.v[2] * b.v[2];
}

// ---- applied forces and torques ----

/** A force at a point of a body: world axes, or the body's (turning with it); times a scale of time. */
export class PointForce extends BodyForceBlock {
  protected override readonly narrowable = true;
  private readonly x = this.vec(); private readonly F = this.vec();
  private readonly s = new Float64Array(2);
  /** World point and force at the last evaluation. */
  readonly last = { at: new Float64Array(3), force: new Float64Array(3) };
  constructor(owner: string, body: number, readonly at: ArrayLike<number>, readonly vector: ArrayLike<number>, readonly inBodyAxes: boolean, readonly scale: Law | null) {
    super(owner, [body]);
  }
  protected compute(t: number): void {
    const k = this.scale ? this.scale.evaluate(t, this.s)[0] : 1;
    this.point(this.x, 0, this.at);
    if (this.inBodyAxes) { this.direction(this.F, 0, this.vector); dvScaleConst(this.F, this.F, k); }
    else dvConst(this.F, this.vector[0] * k, this.vector[1] * k, this.vector[2] * k);
    this.last.at.set(this.x.v); this.last.force.set(this.F.v);
    this.apply(0, this.x, this.F, null);
  }

  /** Q alone by hand (mates/applied-values.ts): the values pass's bits, no dual calls. */
  override evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, slots?: Int32Array): void {
    if (!K && !C && !tangentMode()) { appliedValues(this, state, offsets[0], t, Q, this.last.force, this.last.at); return; }
    super.evaluate(state, offsets, velocity, t, Q, K, C, slots);
  }

  /** At rest: Q by hand, K in closed form (mates/applied-stiffness.ts); a moving state keeps the dual pass. */
  protected override closedStiffness(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array, slots: Int32Array): boolean {
    if (!atRest(velocity, 6)) return false;
    appliedValues(this, state, offsets[0], t, Q, this.last.force, this.last.at);
    if (this.inBodyAxes || slots[0] < 0) K.fill(0, 0, 36);
    else appliedStiffness(K, state, offsets[0], this.last.force, this.at);
    return true;
  }
}

/** A torque on a body: world axes or the body's; times a scale of time. */
export class BodyTorque extends BodyForceBlock {
  protected override readonly narrowable = true;
  private readonly x = this.vec(); private readonly F = this.vec(); private readonly M = this.vec();
  private readonly s = new Float64Array(2);
  /** World torque at the last evaluation. */
  readonly last = { moment: new Float64Array(3) };
  constructor(owner: string, body: number, readonly vector: ArrayLike<number>, readonly inBodyAxes: boolean, readonly scale: Law | null) {
    super(owner, [body]);
  }
  protected compute(t: number): void {
    const k = this.scale ? this.scale.evaluate(t, this.s)[0] : 1;
    this.point(this.x, 0, ORIGIN);
    dvConst(this.F, 0, 0, 0);
    if (this.inBodyAxes) { this.direction(this.M, 0, this.vector); dvScaleConst(this.M, this.M, k); }
    else dvConst(this.M, this.vector[0] * k, this.vector[1] * k, this.vector[2] * k);
    this.last.moment.set(this.M.v);
    this.apply(0, this.x, this.F, this.M);
  }

  /** Q alone by hand (mates/applied-values.ts): the values pass's bits, no dual calls. */
  override evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, slots?: Int32Array): void {
    if (!K && !C && !tangentMode()) { appliedValues(this, state, offsets[0], t, Q, this.last.moment, null); return; }
    super.evaluate(state, offsets, velocity, t, Q, K, C, slots);
  }

  /** At rest: Q by hand, K in closed form (mates/applied-stiffness.ts); a moving state keeps the dual pass. */
  protected override closedStiffness(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array, slots: Int32Array): boolean {
    if (!atRest(velocity, 6)) return false;
    appliedValues(this, state, offsets[0], t, Q, this.last.moment, null);
    if (this.inBodyAxes || slots[0] < 0) K.fill(0, 0, 36);
    else appliedStiffness(K, state, offsets[0], this.last.moment, null);
    return true;
  }
}

// ---- tyre (mates/tyre-force.ts) ----

export { TyreForce, rimLowestPoint, rimContact } from './tyre-force';

// ---- a spring on a coordinate ----

/** −k (x − free) − c ẋ on one scalar coordinate (k, c per the coordinate's internal unit). */
export class CoordinateSpringForce implements ForceBlock {
  readonly vars: readonly number[];
  readonly last = { value: 0, force: 0 };
  /** `free` may be moved between solves (a vehicle's steering spring follows the held steering travel). */
  constructor(readonly owner: string, variable: number, readonly stiffness: number, public free: number, readonly damping: number) {
    this.vars = [variable];
  }
  evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, _t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null): void {
    const x = state[offsets[0]];
    Q[0] = -this.stiffness * (x - this.free) - this.damping * velocity[0];
    this.last.value = x; this.last.force = Q[0];
    if (K) K[0] = -this.stiffness;
    if (C) C[0] = -this.damping;
  }
  potential(state: Float64Array, offsets: Int32Array): number {
    const d = state[offsets[0]] - this.free;
    return 0.5 * this.stiffness * d * d;
  }
  dissipation(_state: Float64Array, _offsets: Int32Array, velocity: Float64Array): number {
    return this.damping * velocity[0] * velocity[0];
  }
}
