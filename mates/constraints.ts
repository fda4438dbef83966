/**
 * Constraint mates as residual blocks. Every row is a length: directions are compared in
 * a basis across one of them (two rows, never a 3-component cross product, whose third
 * row vanishes to second order and fools a rank test) and multiplied by the model's
 * length scale L, so a turn counts as the distance it moves a point that far out.
 */
import { Dual, DualVec3, dvSub, dvDot, dvLength, dvCross, dAdd, dSub, dScale, dAddConst, dMul, dSqrt, dAtan2, dConst, dvComponent, dDiv, rotationMatrix, tangentMode } from '../kernel/dual';
import { DistanceGroup, distanceRows, type DistanceRowSource, type DistanceRowsData } from './distance-rows';
import type { TurnedGroup, TurnedMember } from '../kernel/system';
import { basisAcross, vec3, type ReadonlyVec3 } from '../kernel/vec3';
import { MateBlock } from './block';
import type { Curve } from './entities';

/** Rows = P_b − P_a (3). */
export class PointOnPointBlock extends MateBlock {
  private pa = this.vec(); private pb = this.vec(); private d = this.vec();
  constructor(owner: string, a: number, private localA: ReadonlyVec3, b: number, private localB: ReadonlyVec3) {
    super(owner, a, b, [], 3);
  }
  protected compute(): void {
    this.point(this.pa, 0, this.localA);
    this.point(this.pb, 1, this.localB);
    dvSub(this.d, this.pb, this.pa);
    for (let i = 0; i < 3; i++) dvComponent(this.out[i], this.d, i);
  }
}

/** Point of part P on a plane of part Q: n·(p − o) − offset (1 row, signed). */
export class PointOnPlaneBlock extends MateBlock {
  private p = this.vec(); private o = this.vec(); private nrm = this.vec(); private d = this.vec();
  /**
   * @param planeSide 0 when the plane is on part a, 1 when on part b.
   * @param offset signed distance to keep (0 for coincident).
   */
  constructor(owner: string, a: number, b: number, private planeSide: 0 | 1, private planeOrigin: ReadonlyVec3, private planeNormal: ReadonlyVec3, private pointLocal: ReadonlyVec3, private offset = 0) {
    super(owner, a, b, [], 1);
  }
  protected compute(): void {
    const ps = this.planeSide, qs = (1 - ps) as 0 | 1;
    this.point(this.o, ps, this.planeOrigin);
    this.direction(this.nrm, ps, this.planeNormal);
    this.point(this.p, qs, this.pointLocal);
    dvSub(this.d, this.p, this.o);
    dvDot(this.out[0], this.d, this.nrm);
    if (this.offset !== 0) dAddConst(this.out[0], this.out[0], -this.offset);
  }
}

/**
 * Point on a line (2 rows): (p − o)·u, (p − o)·w with u, w a body-fixed basis across the
 * line's direction. With `distance` > 0 instead one row: |(p − o)⊥| − distance.
 */
export class PointOnLineBlock extends MateBlock {
  private p = this.vec(); private o = this.vec(); private u = this.vec(); private w = this.vec(); private d = this.vec();
  private uLocal = vec3(); private wLocal = vec3();
  private s1 = this.dual(); private s2 = this.dual();
  constructor(owner: string, a: number, b: number, private lineSide: 0 | 1, private lineOrigin: ReadonlyVec3, lineDirection: ReadonlyVec3, private pointLocal: ReadonlyVec3, private distance: number | null = null) {
    super(owner, a, b, [], distance === null ? 2 : 1);
    basisAcross(this.uLocal, this.wLocal, lineDirection);
  }
  /** New geometry for the same block (renewMate); the row count (with or without a distance) stays. */
  renew(lineOrigin: ReadonlyVec3, lineDirection: ReadonlyVec3, pointLocal: ReadonlyVec3, distance: number | null): boolean {
    if ((distance === null) !== (this.distance === null)) return false;
    this.lineOrigin = lineOrigin; this.pointLocal = pointLocal; this.distance = distance;
    basisAcross(this.uLocal, this.wLocal, lineDirection);
    return true;
  }
  protected compute(): void {
    const ls = this.lineSide, ps = (1 - ls) as 0 | 1;
    this.point(this.o, ls, this.lineOrigin);
    this.direction(this.u, ls, this.uLocal);
    this.direction(this.w, ls, this.wLocal);
    this.point(this.p, ps, this.pointLocal);
    dvSub(this.d, this.p, this.o);
    if (this.distance === null) {
      dvDot(this.out[0], this.d, this.u);
      dvDot(this.out[1], this.d, this.w);
    } else {
      dvDot(this.s1, this.d, this.u); dMul(this.s1, this.s1, this.s1);
      dvDot(this.s2, this.d, this.w); dMul(this.s2, this.s2, this.s2);
      dAdd(this.s1, this.s1, this.s2);
      dSqrt(this.out[0], this.s1);
      dAddConst(this.out[0], this.out[0], -this.distance);
    }
  }
}

/** Direction of B parallel to direction of A: 2 rows (d_b·u_a, d_b·w_a)·L. */
export class ParallelBlock extends MateBlock {
  private db = this.vec(); private u = this.vec(); private w = this.vec();
  private uLocal = vec3(); private wLocal = vec3();
  constructor(owner: string, a: number, dirA: ReadonlyVec3, b: number, private dirB: ReadonlyVec3, private L: number) {
    super(owner, a, b, [], 2);
    basisAcross(this.uLocal, this.wLocal, dirA);
  }
  protected compute(): void {
    this.direction(this.db, 1, this.dirB);
    this.direction(this.u, 0, this.uLocal);
    this.direction(this.w, 0, this.wLocal);
    dvDot(this.out[0], this.db, this.u); dScale(this.out[0], this.out[0], this.L);
    dvDot(this.out[1], this.db, this.w); dScale(this.out[1], this.out[1], this.L);
  }
}

/** d_a·d_b·L − cos(value)·L: perpendicular (value 90°) or any fixed angle via cosine. */
export class DirectionDotBlock extends MateBlock {
  private da = this.vec(); private db = this.vec();
  constructor(owner: string, a: number, private dirA: ReadonlyVec3, b: number, private dirB: ReadonlyVec3, private L: number, private cosine = 0) {
    super(owner, a, b, [], 1);
  }
  protected compute(): void {
    this.direction(this.da, 0, this.dirA);
    this.direction(this.db, 1, this.dirB);
    dvDot(this.out[0], this.da, this.db);
    dAddConst(this.out[0], this.out[0], -this.cosine);
    dScale(this.out[0], this.out[0], this.L);
  }
}

/**
 * The angle between two directions held at `value` (radians, strictly between 0 and π):
 * (atan2(|d_a × d_b|, d_a·d_b) − value)·L. One row of slope one, unlike a cosine row whose
 * slope vanishes near 0 and π.
 */
export class AngleBlock extends MateBlock {
  private da = this.vec(); private db = this.vec(); private c = this.vec();
  private s = this.dual(); private co = this.dual();
  constructor(owner: string, a: number, private dirA: ReadonlyVec3, b: number, private dirB: ReadonlyVec3, private L: number, private value: number) {
    super(owner, a, b, [], 1);
  }
  protected compute(): void {
    this.direction(this.da, 0, this.dirA);
    this.direction(this.db, 1, this.dirB);
    dvCross(this.c, this.da, this.db);
    dvLength(this.s, this.c);
    dvDot(this.co, this.da, this.db);
    dAtan2(this.out[0], this.s, this.co);
    dAddConst(this.out[0], this.out[0], -this.value);
    dScale(this.out[0], this.out[0], this.L);
  }
}

/** A distance block's own rows' data (mates/distance-rows.ts), a loop of one: its offsets and columns set at each call. */
function distanceRowData(localA: ReadonlyVec3, localB: ReadonlyVec3, value: number): DistanceRowsData {
  return {
    points: Float64Array.of(localA[0], localA[1], localA[2], localB[0], localB[1], localB[2]), value: Float64Array.of(value),
    turn: Int32Array.of(0, 9), offset: new Int32Array(2), phiAt: new Int32Array(1), jacAt: new Int32Array(1), cols: new Int32Array(3),
  };
}

/** |P_b − P_a| − value (1 row). */
export class PointDistanceBlock extends MateBlock {
  private pa = this.vec(); private pb = this.vec(); private d = this.vec();
  /** The rows without duals' data (mates/distance-rows.ts), a loop of one: the points as one Float64Array (a document's arrays vary in element kind). */
  private one: DistanceRowsData;
  constructor(owner: string, a: number, private localA: ReadonlyVec3, b: number, private localB: ReadonlyVec3, private value: number) {
    super(owner, a, b, [], 1);
    this.one = distanceRowData(localA, localB, value);
  }
  /** New points and length for the same block (renewMate). */
  renew(localA: ReadonlyVec3, localB: ReadonlyVec3, value: number): void {
    this.localA = localA; this.localB = localB; this.value = value;
    this.one = distanceRowData(localA, localB, value);
  }
  /** Both parts' rotations, A's then B's (RA, RB: views). */
  private readonly R = new Float64Array(18);
  private readonly RA = this.R.subarray(0, 9);
  private readonly RB = this.R.subarray(9, 18);
  /** The rows of `one` at rotations R: this block's offsets and columns (a twin's own) set first. */
  private rowByHand(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    const one = this.one;
    one.offset[0] = offsets[0]; one.offset[1] = offsets[1];
    one.cols[0] = this.cols[0]; one.cols[1] = this.cols[1]; one.cols[2] = this.n;
    distanceRows(1, one, this.R, state, residual, jacobian);
  }
  /** Outside tangent mode: the dual pass's numbers without the duals (mates/distance-rows.ts). */
  override evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    if (tangentMode()) { super.evaluate(state, offsets, residual, jacobian); return; }
    rotationMatrix(this.RA, state, offsets[0] + 3);
    rotationMatrix(this.RB, state, offsets[1] + 3);
    this.rowByHand(state, offsets, residual, jacobian);
  }
  /** `evaluate` with the parts' rotation matrices given (ResidualBlock.evaluateTurned). */
  evaluateTurned(state: Float64Array, offsets: Int32Array, RA: Float64Array, RB: Float64Array, residual: Float64Array, jacobian: Float64Array | null): void {
    if (tangentMode()) { super.evaluate(state, offsets, residual, jacobian); return; }
    this.RA.set(RA); this.RB.set(RB);
    this.rowByHand(state, offsets, residual, jacobian);
  }
  /** The integrator's distances in one loop (ResidualBlock.groupTurned): every member a PointDistanceBlock. */
  groupTurned(members: readonly TurnedMember[]): TurnedGroup | null {
    const sources: DistanceRowSource[] = [];
    for (const m of members) {
      if (!(m.block instanceof PointDistanceBlock)) return null;
      const b = m.block;
      sources.push({ points: b.one.points, value: b.one.value[0], cols: b.cols, n: b.n });
    }
    return new DistanceGroup(members, sources);
  }
  /** The dual pass's row and Jacobian (the reference the exact ones are tested against). */
  evaluateByDuals(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    super.evaluate(state, offsets, residual, jacobian);
  }
  protected compute(): void {
    this.point(this.pa, 0, this.localA);
    this.point(this.pb, 1, this.localB);
    dvSub(this.d, this.pb, this.pa);
    dvLength(this.out[0], this.d);
    dAddConst(this.out[0], this.out[0], -this.value);
  }
}

/**
 * A circle (roller rim) of one part tangent to a plane of the other, on the side it was
 * authored: σ·n·(c − o) − r·√(1 − (n·m)²) = 0, with m the circle's normal. The square
 * root is the reach of the rim toward the plane.
 */
export class CirclePlaneTangentBlock extends MateBlock {
  private c = this.vec(); private m = this.vec(); private o = this.vec(); private nrm = this.vec(); private d = this.vec();
  private s = this.dual(); private t = this.dual();
  constructor(owner: string, a: number, b: number, private circleSide: 0 | 1, private center: ReadonlyVec3, private circleNormal: ReadonlyVec3, private radius: number, private planeOrigin: ReadonlyVec3, private planeNormal: ReadonlyVec3, private sign: number) {
    super(owner, a, b, [], 1);
  }
  protected compute(): void {
    const cs = this.circleSide, ps = (1 - cs) as 0 | 1;
    this.point(this.c, cs, this.center);
    this.direction(this.m, cs, this.circleNormal);
    this.point(this.o, ps, this.planeOrigin);
    this.direction(this.nrm, ps, this.planeNormal);
    dvSub(this.d, this.c, this.o);
    dvDot(this.s, this.d, this.nrm);
    dScale(this.s, this.s, this.sign);
    dvDot(this.t, this.nrm, this.m);
    dMul(this.t, this.t, this.t);
    dScale(this.t, this.t, -1);
    dAddConst(this.t, this.t, 1);
    // guard the root at exactly 0 (circle parallel to the plane): reach is then 0
    if (this.t.v <= 0) dConst(this.t, 0); else dSqrt(this.t, this.t);
    dScale(this.t, this.t, this.radius);
    dSub(this.out[0], this.s, this.t);
  }
}

/**
 * World point C and tangent C' of a curve on part `side` at the foot parameter u (a dual
 * seeded in its own column): pose derivatives as for any body-fixed point and direction,
 * plus the u-derivatives R·C'(u) and R·C''(u), so the Jacobian is exact.
 */
function curveDual(block: CurveUser, outP: DualVec3, outT: DualVec3, side: 0 | 1, curve: Curve, u: Dual): void {
  const buf = block.curveBuf, t2 = block.curveT2;
  curve.evaluate(buf, u.v);
  block.pointOf(outP, side, buf.subarray(0, 3));
  block.directionOf(outT, side, buf.subarray(3, 6));
  block.directionOf(t2, side, buf.subarray(6, 9));
  const n = outP.n;
  for (let i = 0; i < 3; i++) {
    const ti = outT.v[i], t2i = t2.v[i];
    for (let k = 0; k < n; k++) {
      const uk = u.d[k];
      if (uk === 0) continue;
      outP.d[i * n + k] += ti * uk;
      outT.d[i * n + k] += t2i * uk;
    }
  }
}

interface CurveUser {
  curveBuf: Float64Array;
  curveT2: DualVec3;
  pointOf(o: DualVec3, s: 0 | 1, l: ArrayLike<number>): DualVec3;
  directionOf(o: DualVec3, s: 0 | 1, l: ArrayLike<number>): DualVec3;
}

abstract class CurveBlock extends MateBlock implements CurveUser {
  curveBuf = new Float64Array(9);
  curveT2 = this.vec();
  pointOf(o: DualVec3, s: 0 | 1, l: ArrayLike<number>): DualVec3 { return this.point(o, s, l); }
  directionOf(o: DualVec3, s: 0 | 1, l: ArrayLike<number>): DualVec3 { return this.direction(o, s, l); }
}

/**
 * A point of one part on a curve of the other, at a foot parameter u that is a state
 * coordinate: rows p − C(u) (3). The foot runs continuously along the whole curve; a
 * closed curve wraps (u grows past the seam), an open one is limited to its ends.
 */
export class PathBlock extends CurveBlock {
  private p = this.vec(); private c = this.vec(); private t = this.vec(); private d = this.vec();
  private u = this.dual();
  constructor(owner: string, a: number, b: number, private curveSide: 0 | 1, private curve: Curve, private pointLocal: ReadonlyVec3, uVar: number) {
    super(owner, a, b, [uVar], 3);
  }
  protected compute(): void {
    const cs = this.curveSide, ps = (1 - cs) as 0 | 1;
    this.scalar(this.u, 0);
    curveDual(this, this.c, this.t, cs, this.curve, this.u);
    this.point(this.p, ps, this.pointLocal);
    dvSub(this.d, this.p, this.c);
    for (let i = 0; i < 3; i++) dvComponent(this.out[i], this.d, i);
  }
}

/**
 * A circle (roller) of one part tangent to a curve of the other (a cam), with the contact's
 * foot parameter u as a state coordinate: the foot is where the centre's offset is square
 * to the curve, (c − C(u))·C'(u)/|C'(u)| = 0, and the centre is a radius from it,
 * |c − C(u)| − r = 0.
 */
export class CircleCurveTangentBlock extends CurveBlock {
  private cen = this.vec(); private c = this.vec(); private t = this.vec(); private d = this.vec();
  private u = this.dual(); private len = this.dual();
  constructor(owner: string, a: number, b: number, private curveSide: 0 | 1, private curve: Curve, private center: ReadonlyVec3, private radius: number, uVar: number) {
    super(owner, a, b, [uVar], 2);
  }
  protected compute(): void {
    const cs = this.curveSide, ps = (1 - cs) as 0 | 1;
    this.scalar(this.u, 0);
    curveDual(this, this.c, this.t, cs, this.curve, this.u);
    this.point(this.cen, ps, this.center);
    dvSub(this.d, this.cen, this.c);
    dvLength(this.len, this.t);
    dvDot(this.out[0], this.d, this.t);
    dDiv(this.out[0], this.out[0], this.len);
    dvLength(this.out[1], this.d);
    dAddConst(this.out[1], this.out[1], -this.radius);
  }
}
