/**
 * Joints between two frames, one table and one residual function. The second frame's
 * origin must be at the first's, moved along the first's axes by the joint's slides; its
 * z axis must lie along the first's z (2 rows across it); its x axis must be turned about
 * the first's z by the joint's angle — the tan-half-angle row
 * 2·tan((φ − θ)/2) = 2 r_b·t / (1 + r_b·u), times L: one row, slope one, a single zero.
 * A universal joint (Onshape's convention) joins two shafts, the frames' z axes, by a
 * cross whose pins are a's x axis and b's y axis: the origins meet and the pins stay
 * square (x_a·y_b = 0, one row), so two frames placed together with the same orientation
 * are assembled, shafts in line, with 2 degrees of freedom. A ball frees every turn.
 */
import { Dual, dvSub, dvScale, dvDot, dScale, dAdd, dDiv, dAddConst, dCos, dSin, dvComponent, dMul, dNeg, dConst, rotationMatrix, tangentMode } from '../kernel/dual';
import type { ReadonlyVec3 } from '../kernel/vec3';
import { MateBlock } from './block';
import { jointRows as jointRowsByHand, jointRowsKind, type JointFrame, type JointRowsInput } from './joint-rows';
export type { JointFrame } from './joint-rows';
import { exactJointCovers, exactJointJacobian } from './exact-rows';

import { JOINT_TYPES, MATE_COORDINATES, type JointType } from './vocabulary';

export type { JointType };
export type JointCoordinate = 'angle' | 'slide' | 'slideX' | 'slideY';

/** The coordinates each joint frees (its freedom with one body fixed, bar universal and ball): the vocabulary's. */
export const JOINT_COORDINATES = Object.fromEntries(JOINT_TYPES.map((type) => [type, MATE_COORDINATES[type]])) as Readonly<Record<JointType, readonly JointCoordinate[]>>;
/** Rows of each joint: origin 3, axis 2, angle 1 (universal: origin 3 + the cross's pins 1; ball: 3). */
export function jointRows(type: JointType): number {
  return type === 'ball' ? 3 : type === 'universal' ? 4 : 6;
}

export class JointBlock extends MateBlock {
  private oa = this.vec(); private ob = this.vec(); private d = this.vec();
  private xa = this.vec(); private ya = this.vec(); private za = this.vec();
  private xb = this.vec(); private yb = this.vec(); private zb = this.vec();
  private theta = this.dual(); private c = this.dual(); private s = this.dual();
  private t1 = this.dual(); private t2 = this.dual(); private num = this.dual(); private den = this.dual();
  private slide = this.dual(); private tmpV = this.vec();
  private readonly coordIndex: Partial<Record<JointCoordinate, number>> = {};
  /** The rows' input for the hand-written Jacobian (mates/joint-rows.ts) and its rotation scratch. */
  private rowsInput: JointRowsInput;
  private readonly RA = new Float64Array(9);
  private readonly RB = new Float64Array(9);
  /** cos θ, sin θ of the rows just evaluated (the exact Jacobian reads them). */
  private readonly trig = new Float64Array(2);

  constructor(owner: string, readonly type: JointType, a: number, private fa: JointFrame, b: number, private fb: JointFrame, coordinateVars: readonly number[], private L: number) {
    super(owner, a, b, coordinateVars, jointRows(type));
    JOINT_COORDINATES[type].forEach((name, i) => { this.coordIndex[name] = i; });
    this.rowsInput = this.rowsOf();
    this.exact = exactJointCovers(this.rowsInput);
  }

  /** The rows' input, its frames as Float64Arrays (a document's arrays vary in element kind, which slows every read of them). */
  private rowsOf(): JointRowsInput {
    const index = (name: JointCoordinate) => this.coordIndex[name] ?? -1;
    const frame = (f: JointFrame): JointFrame => ({ origin: Float64Array.from(f.origin), x: Float64Array.from(f.x), y: Float64Array.from(f.y), z: Float64Array.from(f.z) });
    const slides = Int32Array.of(index('slide'), index('slideX'), index('slideY'));
    return { type: this.type, fa: frame(this.fa), fb: frame(this.fb), L: this.L, angle: index('angle'), slides, kind: jointRowsKind(this.type, slides) };
  }

  /** New frames and length scale for the same joint (renewMate: a model rebuilt in place). */
  renew(fa: JointFrame, fb: JointFrame, L: number): void {
    this.fa = fa; this.fb = fb; this.L = L;
    this.rowsInput = this.rowsOf();
    this.exact = exactJointCovers(this.rowsInput);
  }

  /** Whether the dual pass's Jacobian can be had without duals (mates/exact-rows.ts). */
  private exact: boolean;

  /** Rows and Jacobian by hand in a twin (MateBlock.byHand), outside tangent mode (where the duals are read); elsewhere the dual pass's numbers, computed without duals where exactJointCovers. */
  override evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    if (tangentMode() || (!this.byHand && !this.exact)) { super.evaluate(state, offsets, residual, jacobian); return; }
    rotationMatrix(this.RA, state, offsets[0] + 3);
    rotationMatrix(this.RB, state, offsets[1] + 3);
    if (this.byHand) { jointRowsByHand(this.rowsInput, this.RA, this.RB, state, offsets, this.cols, this.n, this.rows, residual, jacobian); return; }
    // the dual pass's numbers without the duals (mates/exact-rows.ts): values by the rows by hand (hingeRows and
    // ballRows: the same bits as jointRowsGeneral, test/mates/hinge-rows.test.ts; a third less time than the general
    // code's, whose directions go through scratch arrays: 0.49 -> 0.34 us the four-bar's four joints, session 16)
    jointRowsByHand(this.rowsInput, this.RA, this.RB, state, offsets, this.cols, this.n, this.rows, residual, null, this.trig);
    if (jacobian) exactJointJacobian(this.rowsInput, this.RA, this.RB, state, offsets, this.cols, this.n, this.rows, jacobian, this.trig);
  }

  /** `evaluate` with the parts' rotation matrices given (ResidualBlock.evaluateTurned): the rows by hand in a twin. */
  evaluateTurned(state: Float64Array, offsets: Int32Array, RA: Float64Array, RB: Float64Array, residual: Float64Array, jacobian: Float64Array | null): void {
    if (tangentMode() || !this.byHand) { this.evaluate(state, offsets, residual, jacobian); return; }
    jointRowsByHand(this.rowsInput, RA, RB, state, offsets, this.cols, this.n, this.rows, residual, jacobian);
  }

  /** The dual pass's rows and Jacobian (the reference the hand-written ones are tested against). */
  evaluateByDuals(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    super.evaluate(state, offsets, residual, jacobian);
  }

  protected compute(): void {
    const type = this.type;
    this.point(this.oa, 0, this.fa.origin);
    this.point(this.ob, 1, this.fb.origin);
    dvSub(this.d, this.ob, this.oa);
    if (type !== 'ball') {
      this.direction(this.xa, 0, this.fa.x);
      this.direction(this.ya, 0, this.fa.y);
      this.direction(this.za, 0, this.fa.z);
      this.direction(this.zb, 1, this.fb.z);
    }
    // Origin rows: O_b − O_a − Σ slide·axis_a
    this.subtractSlide('slide', this.za);
    this.subtractSlide('slideX', this.xa);
    this.subtractSlide('slideY', this.ya);
    for (let i = 0; i < 3; i++) dvComponent(this.out[i], this.d, i);
    if (type === 'ball') return;
    if (type === 'universal') {
      // the cross: pin x_a square to pin y_b
      this.direction(this.yb, 1, this.fb.y);
      dvDot(this.out[3], this.xa, this.yb);
      dScale(this.out[3], this.out[3], this.L);
      return;
    }
    // Axis rows: z_b across z_a, in a's own (x, y)
    dvDot(this.out[3], this.zb, this.xa); dScale(this.out[3], this.out[3], this.L);
    dvDot(this.out[4], this.zb, this.ya); dScale(this.out[4], this.out[4], this.L);
    // Angle row: u = cosθ x_a + sinθ y_a, t = −sinθ x_a + cosθ y_a, r_b = x_b
    this.direction(this.xb, 1, this.fb.x);
    const ai = this.coordIndex.angle;
    if (ai === undefined) dConst(this.theta, 0); else this.scalar(this.theta, ai);
    dCos(this.c, this.theta); dSin(this.s, this.theta);
    const rx = this.t1, ry = this.t2;
    dvDot(rx, this.xb, this.xa); // r_b·x_a
    dvDot(ry, this.xb, this.ya); // r_b·y_a
    // r_b·t = −s·rx + c·ry ; r_b·u = c·rx + s·ry
    dMul(this.num, this.c, ry); dMul(this.den, this.s, rx); dNeg(this.den, this.den); dAdd(this.num, this.num, this.den);
    const rt = this.num;
    const ru = this.den;
    dMul(ru, this.c, rx);
    const tmp = this.slide;
    dMul(tmp, this.s, ry);
    dAdd(ru, ru, tmp);
    dAddConst(ru, ru, 1);
    dDiv(this.out[5], rt, ru);
    dScale(this.out[5], this.out[5], 2 * this.L);
  }

  private subtractSlide(name: JointCoordinate, axis: ReturnType<MateBlock['vec']>): void {
    const i = this.coordIndex[name];
    if (i === undefined) return;
    this.scalar(this.slide, i);
    // d −= slide · axis (both duals; through the dual ops so tangent mode sees it)
    dvScale(this.tmpV, axis, this.slide);
    dvSub(this.d, this.d, this.tmpV);
  }
}

/** The coordinates a joint's frames stand at for given world frames: angle (rad) and slides. */
export function measureJoint(type: JointType, fa: JointFrame, fb: JointFrame): Record<JointCoordinate, number> {
  const d = [fb.origin[0] - fa.origin[0], fb.origin[1] - fa.origin[1], fb.origin[2] - fa.origin[2]];
  const dot = (a: ReadonlyVec3, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return {
    angle: Math.atan2(dot(fb.x, fa.y), dot(fb.x, fa.x)),
    slide: type === 'slider' || type === 'cylindrical' ? dot(fa.z, d) : 0,
    slideX: type === 'pinslot' || type === 'planar' ? dot(fa.x, d) : 0,
    slideY: type === 'planar' ? dot(fa.y, d) : 0,
  };
}

export { Dual };
