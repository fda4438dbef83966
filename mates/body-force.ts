/**
 * The base of the force elements of mates/forces.ts (re-exported there): a force element on
 * one or two posed bodies whose generalized forces and their derivatives by the steps and the
 * velocities come from one dual pass (see forces.ts for the conventions).
 */
import {
  Dual, DualVec3, dAddScaled, dConst, dvAdd, dvCross, dvDot, dvRigidDirection, dvRigidPoint, tvRigidVelocity, dvSub,
  rotationMatrix, narrowedScratch, tangentMode,
} from '../kernel/dual';
import type { ForceBlock } from '../kernel/forces';

// ---- the base: up to two bodies, one dual pass over steps and velocities ----

const E = [Float64Array.of(1, 0, 0), Float64Array.of(0, 1, 0), Float64Array.of(0, 0, 1)];
/** The body origin, in its own frame. */
export const ORIGIN = Float64Array.of(0, 0, 0);

/**
 * A force element on one or two pose variables. Dual columns: body k's step δ_k at
 * 6k..6k+5 and its velocity ξ_k at d + 6k..d + 6k + 5 (d = 6 × bodies). A subclass
 * computes its forces in `compute` and applies them with `apply`; results accumulate in
 * `q` (d duals) and are written out by `evaluate`. Allocation-free after construction.
 */
export abstract class BodyForceBlock implements ForceBlock {
  readonly vars: readonly number[];
  /** Tangent size of the element (6 per body). */
  readonly d: number;
  /** Dual width: steps and velocities. */
  readonly n: number;
  protected readonly q: Dual[];
  /** Dual column of body k's step (−1: not seeded: a values pass, or a body held fixed). */
  private cols: Int32Array;
  /** Dual column of body k's velocity (−1: not seeded). */
  private vcols: Int32Array;
  protected state!: Float64Array;
  protected offsets!: Int32Array;
  protected velocity!: Float64Array;
  private readonly R: Float64Array[];
  // scratch for apply
  private readonly axisW: DualVec3[];
  private readonly bodyOrigin: DualVec3;
  private readonly leverArm: DualVec3;
  private readonly moment: DualVec3;
  private readonly scratch: Dual;

  constructor(readonly owner: string, bodies: readonly number[]) {
    this.vars = bodies;
    this.d = 6 * bodies.length;
    this.n = 2 * this.d;
    this.q = Array.from({ length: this.d }, () => new Dual(this.n));
    this.cols = Int32Array.from(bodies, (_, k) => 6 * k);
    this.vcols = Int32Array.from(bodies, (_, k) => this.d + 6 * k);
    this.R = bodies.map(() => new Float64Array(9));
    this.axisW = [this.vec(), this.vec(), this.vec()];
    this.bodyOrigin = this.vec(); this.leverArm = this.vec(); this.moment = this.vec();
    this.scratch = this.dual();
  }

  protected dual(): Dual { return new Dual(this.n); }
  protected vec(): DualVec3 { return new DualVec3(this.n); }

  /**
   * The same element with width-0 scratch (n = 0): Q alone, when neither K nor C is asked
   * for (a Newton iteration that reuses its matrix, the energy budget). Every value is
   * computed by the same operations as in the full pass, so Q is bit for bit the same.
   */
  private valueTwin: BodyForceBlock | null = null;
  protected values(): this {
    if (!this.valueTwin) {
      const twin = this.twin(0, new Int32Array(this.cols.length).fill(-1));
      twin.valueTwin = twin;
      this.valueTwin = twin;
    }
    return this.valueTwin as this;
  }

  /**
   * Whether K alone may come from a narrower twin (`stiffnessTwin`): an element whose
   * derivatives all come through point, direction, velocityOf and apply opts in. Elements
   * whose duals are read after evaluate (a probe's velocity columns) keep the full pass.
   */
  protected readonly narrowable: boolean = false;
  /** The stiffness twin and the fixed bodies (bit k) it leaves out. */
  private stiffTwin: BodyForceBlock | null = null;
  private stiffFixed = -1;

  /**
   * The same element seeded with the steps of the bodies that move alone (no velocity
   * columns, where the velocity columns would be computed and never read; none for a body
   * ForceSet's `slots` say is fixed, every body without them): K without C in a quarter of
   * the width for a bushing on the chassis. Each derivative column is computed by the same operations as
   * in the full pass, so K's entries are bit for bit the same; a fixed body's rows of Q and
   * K are left at zero (ForceSet drops them).
   */
  private stiffnessTwin(slots: Int32Array | undefined): BodyForceBlock {
    let fixed = 0;
    if (slots) for (let k = 0; k < this.cols.length; k++) if (slots[6 * k] < 0) fixed |= 1 << k;
    if (!this.stiffTwin || this.stiffFixed !== fixed) {
      const cols = new Int32Array(this.cols.length);
      let width = 0;
      for (let k = 0; k < cols.length; k++) { cols[k] = fixed & (1 << k) ? -1 : width; if (cols[k] >= 0) width += 6; }
      this.stiffTwin = this.twin(width, cols);
      this.stiffFixed = fixed;
    }
    return this.stiffTwin;
  }

  /** A copy of this element's fields with width-n scratch, seeding body k's step at cols[k] and no velocities. */
  private twin(n: number, cols: Int32Array): this {
    // a spread copy given this one's prototype (block.ts withFreeColumns: twins of one class share a map)
    const fields: Record<string, unknown> = { ...(this as object) };
    for (const key of Object.keys(fields)) fields[key] = narrowedScratch(fields[key], n);
    fields.n = n;
    fields.cols = cols;
    fields.vcols = new Int32Array(cols.length).fill(-1);
    fields.stiffTwin = null;
    return Object.setPrototypeOf(fields, Object.getPrototypeOf(this));
  }

  /** World position of a point of body k. */
  protected point(out: DualVec3, k: number, local: ArrayLike<number>): DualVec3 {
    return dvRigidPoint(out, this.R[k], this.state, this.offsets[k], local, this.cols[k]);
  }
  /** World direction of a direction of body k. */
  protected direction(out: DualVec3, k: number, local: ArrayLike<number>): DualVec3 {
    return dvRigidDirection(out, this.R[k], local, this.cols[k]);
  }
  /**
   * World velocity of a material point of body k, R(ω × p + v) (or with `angular` its
   * world angular velocity R ω), as a dual in the steps (R turns) and the velocities.
   */
  protected velocityOf(out: DualVec3, k: number, local: ArrayLike<number>, angular = false): DualVec3 {
    const R = this.R[k], xi = this.velocity, b = 6 * k, n = this.n, col = this.cols[k], vcol = this.vcols[k];
    const w0 = xi[b], w1 = xi[b + 1], w2 = xi[b + 2];
    const p0 = local[0], p1 = local[1], p2 = local[2];
    // body-frame rate w and its ξ-derivatives: angular → ω; else ω × p + v
    const a0 = angular ? w0 : w1 * p2 - w2 * p1 + xi[b + 3];
    const a1 = angular ? w1 : w2 * p0 - w0 * p2 + xi[b + 4];
    const a2 = angular ? w2 : w0 * p1 - w1 * p0 + xi[b + 5];
    const d = out.d;
    d.fill(0);
    for (let i = 0; i < 3; i++) {
      const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2];
      out.v[i] = r0 * a0 + r1 * a1 + r2 * a2;
      if (col >= 0) {
        // ∂/∂δω_j: R (e_j × a)
        d[i * n + col] = -r1 * a2 + r2 * a1;
        d[i * n + col + 1] = r0 * a2 - r2 * a0;
        d[i * n + col + 2] = -r0 * a1 + r1 * a0;
      }
      if (vcol < 0) continue;
      if (angular) {
        d[i * n + vcol] = r0; d[i * n + vcol + 1] = r1; d[i * n + vcol + 2] = r2;
      } else {
        // ∂(ω × p)/∂ω_j = e_j × p; ∂/∂v_j = e_j
        d[i * n + vcol] = -r1 * p2 + r2 * p1;
        d[i * n + vcol + 1] = r0 * p2 - r2 * p0;
        d[i * n + vcol + 2] = -r0 * p1 + r1 * p0;
        d[i * n + vcol + 3] = r0; d[i * n + vcol + 4] = r1; d[i * n + vcol + 5] = r2;
      }
    }
    if (n > 0) tvRigidVelocity(out, R, xi, b, vcol, local, angular); // tangent mode only (full width: cols[k] = b)
    return out;
  }

  /** Add a world force F at world point x (and a world moment M) to body k's generalized force. */
  protected apply(k: number, x: DualVec3, F: DualVec3, M: DualVec3 | null, sign: 1 | -1 = 1): void {
    // the stiffness twin leaves a fixed body's rows at zero: ForceSet drops them
    if (this.n > 0 && this.cols[k] < 0) return;
    const q = this.q, b = 6 * k, tmp = this.scratch;
    for (let i = 0; i < 3; i++) this.direction(this.axisW[i], k, E[i]);
    this.point(this.bodyOrigin, k, ORIGIN);
    dvSub(this.leverArm, x, this.bodyOrigin);
    dvCross(this.moment, this.leverArm, F);
    if (M) dvAdd(this.moment, this.moment, M);
    for (let i = 0; i < 3; i++) {
      // (Rᵀ y)_i = (R e_i) · y
      dvDot(tmp, this.axisW[i], F);
      addScaled(q[b + 3 + i], tmp, sign);
      dvDot(tmp, this.axisW[i], this.moment);
      addScaled(q[b + i], tmp, sign);
    }
  }

  /** Add a generalized force directly (a dual) to local slot i. */
  protected applyLocal(i: number, value: Dual, sign: 1 | -1 = 1): void {
    addScaled(this.q[i], value, sign);
  }

  protected abstract compute(t: number): void;

  /** The generalized forces of the last evaluation as duals (their tangents in tangent mode). */
  duals(): readonly Dual[] { return this.q; }

  /**
   * `slots` (ForceSet's global slot of each local slot, −1 for a fixed variable's) lets a
   * narrowable element take K alone from its stiffness twin.
   */
  evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, slots?: Int32Array): void {
    if (!K && !C && this.n > 0) { this.values().evaluate(state, offsets, velocity, t, Q, null, null); return; }
    if (K && !C && this.narrowable && this.n > 0 && !tangentMode()) {
      if (!slots || !this.closedStiffness(state, offsets, velocity, t, Q, K, slots)) this.stiffnessTwin(slots).pass(state, offsets, velocity, t, Q, K, null);
      return;
    }
    this.pass(state, offsets, velocity, t, Q, K, C);
  }

  /**
   * K alone in closed form, where an element has one for this case (a bushing on a fixed
   * body at rest): Q as the values pass gives it, K written whole. False: not this case.
   */
  protected closedStiffness(_state: Float64Array, _offsets: Int32Array, _velocity: Float64Array, _t: number, _Q: Float64Array, _K: Float64Array, _slots: Int32Array): boolean {
    return false;
  }

  /** One pass at this width: Q, and K and C from the columns seeded (zero where a body is not). */
  private pass(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null): void {
    this.begin(state, offsets, velocity);
    this.compute(t);
    const d = this.d, cols = this.cols, vcols = this.vcols;
    for (let i = 0; i < d; i++) {
      const qi = this.q[i], qd = qi.d;
      Q[i] = qi.v;
      for (let k = 0; k < cols.length; k++) {
        const row = i * d + 6 * k, c = cols[k], vc = vcols[k];
        if (K) for (let j = 0; j < 6; j++) K[row + j] = c >= 0 ? qd[c + j] : 0;
        if (C) for (let j = 0; j < 6; j++) C[row + j] = vc >= 0 ? qd[vc + j] : 0;
      }
    }
  }

  protected begin(state: Float64Array, offsets: Int32Array, velocity: Float64Array): void {
    this.state = state; this.offsets = offsets; this.velocity = velocity;
    for (let k = 0; k < this.R.length; k++) rotationMatrix(this.R[k], state, offsets[k] + 3);
    for (const qi of this.q) dConst(qi, 0);
  }
}

function addScaled(acc: Dual, x: Dual, k: number): void {
  dAddScaled(acc, acc, x, k); // through the dual op, so tangent mode sees it
}
