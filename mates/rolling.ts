/**
 * The rolling mate (dynamics.md): a wheel — a circle of one part — rolls without slip on a
 * curve or a plane of another part, their planes coinciding (planar rolling). It is the
 * `tangent` rows plus one no-slip row, and frees `<mate>.u`, the arc length (model units)
 * the contact has travelled along the track.
 *
 * No slip is a velocity condition (the wheel's contact point has the track's velocity).
 * For planar rolling it integrates to a position one: the arc the contact sweeps round the
 * rim equals the arc it travels along the track. So the row is holonomic: with γ the angle,
 * about the wheel's axis and in the wheel's own frame, of the direction from the centre to
 * the contact, r·(γ − γ₀) = σ·(u − u₀) — pwdsim's Ψ(c) = −(c − r·θ(c))/r seen from the
 * wheel (γ = world angle of the contact normal − wheel turn). σ = ±1 is fixed when the mate
 * is built from the authored pose (which way round the rim the contact runs as u grows).
 * The row is written r·2·tan((γ − γ_expected)/2), as the joint angle row: a length (the
 * rim's slip), slope one at the solution, one zero. Its multiplier is the traction force.
 *
 * Rows (all lengths):
 *   curve: (c − C(u))·T(u) (the contact is the foot of the centre), |c − C(u)| − r, no slip;
 *   plane: (c − o)·e − u (e the rolling direction in the plane, fixed from the authored
 *          wheel), the tangent circle–plane row σₙ n·(c − o) − r√(1 − (n·m)²), no slip.
 * The normal force is minus the multiplier of the second row (its gradient in the centre is
 * the unit normal from the track to the wheel). Out-of-plane motion (a wheel sliding along
 * its axle, tilting, steering) is left to the other mates: a car's body on a planar joint.
 */
import {
  dAdd, dAddConst, dChain, dConst, dCos, dDiv, dMul, dScale, dSin, dSqrt, dSub, dvAddScaledDual, dvConst, dvDot, dvLength, dvNormalize, dvScaleConst, dvSub,
  tangentMode, type Dual, type DualVec3,
} from '../kernel/dual';
import * as P from '../kernel/pose';
import type { System } from '../kernel/system';
import { across, cross, dot, normalize, vec3, type ReadonlyVec3, type Vec3 } from '../kernel/vec3';
import { ArcLengthCurve } from './arc-length';
import { MateBlock } from './block';
import type { Entity } from './entities';
import { MateError } from './errors';

type Circle = Extract<Entity, { kind: 'circle' }>;
type Plane = Extract<Entity, { kind: 'plane' }>;
type CurveEntity = Extract<Entity, { kind: 'curve' }>;

export interface RollingSpec {
  type: 'rolling';
  /** The wheel's circle and the track's curve or plane, in either order. */
  a: { part: number; entity: Entity };
  b: { part: number; entity: Entity };
}

/** Below this |(m × d)·T| the wheel's plane does not contain the track's direction. */
const ALIGNMENT_TOLERANCE = 1e-3;

/**
 * The wheel's side of the mate and its no-slip row. Subclasses place the contact and write
 * rows 0 and 1; `contactDirection` (centre → contact) feeds the no-slip row.
 */
export abstract class RollingBlock extends MateBlock {
  /** World contact point, unit normal (track → wheel centre) and unit tangent (growing u), at the last evaluation. */
  readonly contact = vec3();
  readonly normal = vec3();
  readonly tangent = vec3();

  protected readonly s = this.dual();
  protected readonly centre = this.vec();
  protected readonly axis = this.vec();
  private readonly ref = this.vec(); private readonly refSquare = this.vec();
  private readonly g = this.dual(); private readonly cg = this.dual(); private readonly sg = this.dual();
  private readonly dw = this.dual(); private readonly dwy = this.dual();
  private readonly x = this.dual(); private readonly y = this.dual(); private readonly t = this.dual(); private readonly rho = this.dual();
  /** Which end of the mate the wheel is (0: a, 1: b). */
  readonly wheelSide: 0 | 1;
  protected readonly trackSide: 0 | 1;

  /**
   * @param wheel the circle (centre, unit axis, radius) on part a (side 0) or b (side 1).
   * @param reference a unit direction of the wheel square to its axis (angles are measured from it).
   * @param rollSign σ: which way round the rim the contact runs as u grows.
   * @param phase γ₀ − σ·u₀/r: the rim angle of the contact at u = 0.
   */
  constructor(
    owner: string, a: number, b: number, wheelSide: 0 | 1, uVariable: number,
    protected readonly wheelCentre: ReadonlyVec3, protected readonly wheelAxis: ReadonlyVec3, readonly radius: number,
    private readonly reference: ReadonlyVec3, private readonly referenceSquare: ReadonlyVec3,
    readonly rollSign: number, readonly phase: number,
  ) {
    super(owner, a, b, [uVariable], 3);
    this.wheelSide = wheelSide;
    this.trackSide = (1 - wheelSide) as 0 | 1;
  }

  /** The no-slip row into `out` from the contact direction `d` (centre → contact, any length). */
  protected noSlip(out: Dual, d: DualVec3): void {
    const ws = this.wheelSide, r = this.radius;
    this.direction(this.ref, ws, this.reference);
    this.direction(this.refSquare, ws, this.referenceSquare);
    // expected rim angle of the contact: g = phase + σ u / r
    dScale(this.g, this.s, this.rollSign / r);
    dAddConst(this.g, this.g, this.phase);
    dCos(this.cg, this.g); dSin(this.sg, this.g);
    dvDot(this.dw, d, this.ref); dvDot(this.dwy, d, this.refSquare);
    // x ∝ cos(γ − g), y ∝ sin(γ − g): d in the basis turned to g
    dMul(this.x, this.cg, this.dw); dMul(this.t, this.sg, this.dwy); dAdd(this.x, this.x, this.t);
    dMul(this.y, this.cg, this.dwy); dMul(this.t, this.sg, this.dw); dSub(this.y, this.y, this.t);
    // 2 tan(Δ/2) = 2y / (ρ + x), times r: the slip of the rim
    dMul(this.rho, this.x, this.x); dMul(this.t, this.y, this.y); dAdd(this.rho, this.rho, this.t); dSqrt(this.rho, this.rho);
    dAdd(this.t, this.rho, this.x);
    dDiv(out, this.y, this.t);
    dScale(out, out, 2 * r);
  }
}

/** A wheel on a curve, the contact at arc length u. */
export class RollingOnCurveBlock extends RollingBlock {
  private readonly onCurve = this.vec(); private readonly tan = this.vec(); private readonly tan2 = this.vec();
  private readonly unitTangent = this.vec(); private readonly rel = this.vec(); private readonly toContact = this.vec();
  private readonly buf = new Float64Array(12);
  private readonly p = vec3(); private readonly dp = vec3(); private readonly ddp = vec3();
  // tangent mode: the on-curve point and tangent in track axes as duals of s, and the track's axes
  private readonly local = [this.dual(), this.dual(), this.dual()]; private readonly localTan = [this.dual(), this.dual(), this.dual()];
  private readonly axisK = this.vec();

  constructor(
    owner: string, a: number, b: number, wheelSide: 0 | 1, uVariable: number, wheel: Circle, reference: ReadonlyVec3, referenceSquare: ReadonlyVec3,
    readonly track: ArcLengthCurve, rollSign: number, phase: number,
  ) {
    super(owner, a, b, wheelSide, uVariable, wheel.center, normalize(vec3(), wheel.normal), wheel.radius, reference, referenceSquare, rollSign, phase);
  }

  protected compute(): void {
    const ts = this.trackSide, n = this.n, col = this.cols[2];
    this.scalar(this.s, 0);
    // the curve at u(s): pose derivatives as any body-fixed point, plus d/ds = C'(u)·du/ds
    const u = this.track.parameterAt(this.s.v);
    const e = this.track.curve.evaluate(this.buf, u);
    for (let i = 0; i < 3; i++) { this.p[i] = e[i]; this.dp[i] = e[3 + i]; this.ddp[i] = e[6 + i]; }
    const duds = 1 / Math.hypot(e[3], e[4], e[5]);
    if (tangentMode()) this.curveAlongS(e, duds);
    else {
      this.point(this.onCurve, ts, this.p);
      this.direction(this.tan, ts, this.dp);
      this.direction(this.tan2, ts, this.ddp);
      for (let i = 0; i < 3 && col >= 0; i++) {
        this.onCurve.d[i * n + col] += this.tan.v[i] * duds;
        this.tan.d[i * n + col] += this.tan2.v[i] * duds;
      }
    }
    dvNormalize(this.unitTangent, this.tan);
    this.point(this.centre, this.wheelSide, this.wheelCentre);
    dvSub(this.rel, this.centre, this.onCurve);
    dvDot(this.out[0], this.rel, this.unitTangent);
    dvLength(this.out[1], this.rel);
    dAddConst(this.out[1], this.out[1], -this.radius);
    dvScaleConst(this.toContact, this.rel, -1);
    this.noSlip(this.out[2], this.toContact);
    const l = this.out[1].v + this.radius;
    for (let i = 0; i < 3; i++) {
      this.contact[i] = this.onCurve.v[i];
      this.normal[i] = this.rel.v[i] / l;
      this.tangent[i] = this.unitTangent.v[i];
    }
  }

  /**
   * The same on-curve point and tangent built from ops that carry tangents (tangent mode only:
   * the hand-written s column above has no second derivatives). In track axes L(s) = C(u(s))
   * and T(s) = C'(u(s)), with σ = du/ds = 1/|C'| and σ' = dσ/ds = −(C'·C'')σ⁴:
   *   L' = C'σ,  L'' = C''σ² + C'σ',  T' = C''σ,  T'' = C'''σ² + C''σ';
   * each component is a scalar function of s (dChain with its slope and curvature), and the
   * world vectors are the track's origin plus Σ L_k·(R e_k) and Σ T_k·(R e_k), so the track's
   * pose motion is carried by the posed axes' own tangents.
   */
  private curveAlongS(e: Float64Array, sigma: number): void {
    const ts = this.trackSide;
    const sigmaS = -(e[3] * e[6] + e[4] * e[7] + e[5] * e[8]) * sigma ** 4;
    this.point(this.onCurve, ts, ZERO);
    dvConst(this.tan, 0, 0, 0);
    for (let k = 0; k < 3; k++) {
      dChain(this.local[k], this.s, e[k], e[3 + k] * sigma, e[6 + k] * sigma * sigma + e[3 + k] * sigmaS);
      dChain(this.localTan[k], this.s, e[3 + k], e[6 + k] * sigma, e[9 + k] * sigma * sigma + e[6 + k] * sigmaS);
      this.direction(this.axisK, ts, AXES[k]);
      dvAddScaledDual(this.onCurve, this.onCurve, this.axisK, this.local[k]);
      dvAddScaledDual(this.tan, this.tan, this.axisK, this.localTan[k]);
    }
  }
}

const ZERO: ReadonlyVec3 = [0, 0, 0];
const AXES: readonly ReadonlyVec3[] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

/** A wheel on a plane, rolling along the direction e the authored wheel faces; u = (c − o)·e. */
export class RollingOnPlaneBlock extends RollingBlock {
  private readonly origin = this.vec(); private readonly nrm = this.vec(); private readonly along = this.vec();
  private readonly rel = this.vec(); private readonly toContact = this.vec();
  private readonly h = this.dual(); private readonly reach = this.dual();
  private readonly down = vec3();

  constructor(
    owner: string, a: number, b: number, wheelSide: 0 | 1, uVariable: number, wheel: Circle, reference: ReadonlyVec3, referenceSquare: ReadonlyVec3,
    private readonly plane: { origin: ReadonlyVec3; normal: ReadonlyVec3; direction: ReadonlyVec3 }, private readonly side: number,
    rollSign: number, phase: number,
  ) {
    super(owner, a, b, wheelSide, uVariable, wheel.center, normalize(vec3(), wheel.normal), wheel.radius, reference, referenceSquare, rollSign, phase);
  }

  protected compute(): void {
    const ts = this.trackSide, ws = this.wheelSide;
    this.scalar(this.s, 0);
    this.point(this.origin, ts, this.plane.origin);
    this.direction(this.nrm, ts, this.plane.normal);
    this.direction(this.along, ts, this.plane.direction);
    this.point(this.centre, ws, this.wheelCentre);
    this.direction(this.axis, ws, this.wheelAxis);
    dvSub(this.rel, this.centre, this.origin);
    dvDot(this.out[0], this.rel, this.along);
    dSub(this.out[0], this.out[0], this.s);
    // σₙ n·(c − o) − r·√(1 − (n·m)²): the centre's height over the rim's reach toward the plane
    dvDot(this.h, this.rel, this.nrm);
    dScale(this.h, this.h, this.side);
    dvDot(this.reach, this.nrm, this.axis);
    dMul(this.reach, this.reach, this.reach);
    dScale(this.reach, this.reach, -1);
    dAddConst(this.reach, this.reach, 1);
    if (this.reach.v <= 0) dConst(this.reach, 0); else dSqrt(this.reach, this.reach);
    dScale(this.reach, this.reach, this.radius);
    dSub(this.out[1], this.h, this.reach);
    // the contact lies straight "down" (toward the plane) from the centre, within the wheel's plane
    dvScaleConst(this.toContact, this.nrm, -this.side);
    this.noSlip(this.out[2], this.toContact);
    // report: the rim's lowest point
    const m = this.axis.v, nv = this.nrm.v, nm = dot(nv, m), down = this.down;
    for (let i = 0; i < 3; i++) down[i] = -this.side * (nv[i] - nm * m[i]);
    const dl = Math.hypot(down[0], down[1], down[2]) || 1;
    for (let i = 0; i < 3; i++) {
      this.contact[i] = this.centre.v[i] + (this.radius * down[i]) / dl;
      this.normal[i] = this.side * nv[i];
      this.tangent[i] = this.along.v[i];
    }
  }
}

export interface RollingMate {
  /** The contact's arc-length coordinate. */
  u: number;
  block: RollingBlock;
}

/**
 * Build a rolling mate from the authored poses: the contact is the foot of the wheel's
 * centre on the track (or `initial` when given, in model units: the solve then rolls the
 * wheel there), the rim angle of the contact at the authored pose fixes the no-slip row's
 * phase. Throws a MateError when the wheel cannot roll on that track.
 */
export function addRolling(system: System, id: string, spec: RollingSpec, initial?: number): RollingMate {
  const { a, b } = spec;
  const wheelSide: 0 | 1 = a.entity.kind === 'circle' ? 0 : 1;
  const wheelEnd = wheelSide === 0 ? a : b, trackEnd = wheelSide === 0 ? b : a;
  if (wheelEnd.entity.kind !== 'circle' || (trackEnd.entity.kind !== 'curve' && trackEnd.entity.kind !== 'plane')) {
    throw new MateError(id, `rolling joins a circle (the wheel) to a curve or a plane (the track), not ${a.entity.kind}–${b.entity.kind}`);
  }
  const wheel = wheelEnd.entity;
  if (!(wheel.radius > 0)) throw new MateError(id, `the wheel's radius must be positive, got ${wheel.radius}`);
  const wheelPose = system.getPose(wheelEnd.part), trackPose = system.getPose(trackEnd.part);
  // the wheel in world axes at the authored pose
  const mLocal = normalize(vec3(), wheel.normal);
  const wLocal = across(vec3(), mLocal);
  const wyLocal = cross(vec3(), mLocal, wLocal);
  const c = P.applyPoint(vec3(), wheelPose, wheel.center);
  const m = P.applyDirection(vec3(), wheelPose, mLocal);
  const w = P.applyDirection(vec3(), wheelPose, wLocal), wy = P.applyDirection(vec3(), wheelPose, wyLocal);
  const phaseOf = (d: Vec3, along: Vec3, s0: number): { sign: number; phase: number } => {
    const dn = normalize(vec3(), d), tn = normalize(vec3(), along);
    const turn = dot(cross(vec3(), m, dn), tn);
    if (!(Math.abs(turn) > ALIGNMENT_TOLERANCE)) {
      throw new MateError(id, `the wheel's plane does not contain the track's direction at the contact (a rolling wheel's axis must lie across the track)`);
    }
    const sign = turn > 0 ? 1 : -1;
    const gamma = Math.atan2(dot(d, wy), dot(d, w));
    return { sign, phase: gamma - (sign * s0) / wheel.radius };
  };
  const a0 = a.part, b0 = b.part;
  if (trackEnd.entity.kind === 'curve') {
    const track = new ArcLengthCurve((trackEnd.entity as CurveEntity).curve);
    if (!(track.length > 0) || !(track.minimumSpeed > 1e-9 * track.length)) {
      throw new MateError(id, `the track curve has repeated points or a cusp; a wheel needs a tangent everywhere on it`);
    }
    const local = P.applyInversePoint(vec3(), trackPose, c);
    const u0 = track.curve.nearestParameter(local);
    const s0 = track.arcLength(u0);
    const e = track.curve.evaluate(new Float64Array(9), u0);
    const foot = P.applyPoint(vec3(), trackPose, [e[0], e[1], e[2]]);
    const along = P.applyDirection(vec3(), trackPose, [e[3], e[4], e[5]]);
    const { sign, phase } = phaseOf(vec3(foot[0] - c[0], foot[1] - c[1], foot[2] - c[2]), along, s0);
    const u = system.addScalar(`${id}.u`, initial ?? s0, { scale: 1, limits: track.curve.closed ? null : [0, track.length] });
    const block = new RollingOnCurveBlock(id, a0, b0, wheelSide, u, wheel, wLocal, wyLocal, track, sign, phase);
    return { u, block };
  }
  const plane = trackEnd.entity as Plane;
  const nLocal = normalize(vec3(), plane.normal);
  const n = P.applyDirection(vec3(), trackPose, nLocal), o = P.applyPoint(vec3(), trackPose, plane.origin);
  const rel = vec3(c[0] - o[0], c[1] - o[1], c[2] - o[2]);
  const side = dot(rel, n) < 0 ? -1 : 1;
  const eWorld = cross(vec3(), n, m);
  if (!(Math.hypot(eWorld[0], eWorld[1], eWorld[2]) > ALIGNMENT_TOLERANCE)) {
    throw new MateError(id, `the wheel's axis is square to the plane (the wheel lies flat); it cannot roll on it`);
  }
  // the rolling direction in the plane's own frame, exactly in the plane
  const eLocal = P.applyInverseDirection(vec3(), trackPose, normalize(eWorld, eWorld));
  const k = dot(eLocal, nLocal);
  for (let i = 0; i < 3; i++) eLocal[i] -= k * nLocal[i];
  normalize(eLocal, eLocal);
  const eNow = P.applyDirection(vec3(), trackPose, eLocal);
  const s0 = dot(rel, eNow);
  const { sign, phase } = phaseOf(vec3(-side * n[0], -side * n[1], -side * n[2]), eNow, s0);
  const u = system.addScalar(`${id}.u`, initial ?? s0, { scale: 1, limits: null });
  const block = new RollingOnPlaneBlock(id, a0, b0, wheelSide, u, wheel, wLocal, wyLocal, { origin: plane.origin, normal: nLocal, direction: eLocal }, side, sign, phase);
  return { u, block };
}
