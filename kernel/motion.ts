/**
 * Motions: residual rows that drive one coordinate, or one world coordinate of a body
 * point, as a prescribed function of time (dynamics.md "Motions"). They are driver rows like
 * a held coordinate's, with a target that moves: Φ(q, t) = (x(q) − f(t))·scale. The
 * integrator sets the time before it evaluates them and reads ∂Φ/∂t and ∂²Φ/∂t² for the
 * consistent start and the work the motion does (power = λ·∂Φ/∂t). The multiplier is the
 * actuator force: the motion applies −scale·λ along its coordinate.
 */
import type { BlockKind, ResidualBlock } from './system';
import { Dual, DualVec3, dAddConst, dvComponent, dvRigidPoint, rotationMatrix, tangentMode } from './dual';

/** f(t) with its first two derivatives: out = [f, f', f'']. */
export interface TimeFunction {
  evaluate(t: number, out: Float64Array): Float64Array;
}

/** offset + A sin(2π f t + phase), phase in radians. */
export class SineFunction implements TimeFunction {
  constructor(readonly amplitude: number, readonly frequency: number, readonly phase = 0, readonly offset = 0) {}
  evaluate(t: number, out: Float64Array): Float64Array {
    const w = 2 * Math.PI * this.frequency, arg = w * t + this.phase;
    const s = Math.sin(arg), c = Math.cos(arg);
    out[0] = this.offset + this.amplitude * s;
    out[1] = this.amplitude * w * c;
    out[2] = -this.amplitude * w * w * s;
    return out;
  }
}

/**
 * Piecewise linear through [[t, value], …], held at the ends. Its rate jumps at the rows
 * (an impulse on what it drives): give rows close together for a smooth start.
 */
export class TableFunction implements TimeFunction {
  private readonly ts: Float64Array;
  private readonly ys: Float64Array;
  private last = 0;
  constructor(rows: readonly (readonly [number, number])[]) {
    this.ts = Float64Array.from(rows.map((r) => r[0]));
    this.ys = Float64Array.from(rows.map((r) => r[1]));
  }
  evaluate(t: number, out: Float64Array): Float64Array {
    const ts = this.ts, ys = this.ys, n = ts.length;
    out[2] = 0;
    if (t <= ts[0] || t >= ts[n - 1]) { out[0] = t <= ts[0] ? ys[0] : ys[n - 1]; out[1] = 0; return out; }
    // from the last segment (a run asks in time order: a long road table is not scanned from its start each step),
    // back while t ≤ its start, then on: the same segment as a scan from 0, the first with t ≤ t_{i+1}
    let i = this.last;
    while (i > 0 && t <= ts[i]) i--;
    while (i < n - 2 && t > ts[i + 1]) i++;
    this.last = i;
    const slope = (ys[i + 1] - ys[i]) / (ts[i + 1] - ts[i]);
    out[0] = ys[i] + slope * (t - ts[i]); out[1] = slope;
    return out;
  }
}

/** A residual block whose rows depend on time. */
export interface TimeDriver extends ResidualBlock {
  /** The length one unit of the driven value stands for: the driver applies −scale·λ along it. */
  readonly scale: number;
  /** Set the time the next evaluations are at; updates rate() and acceleration(). */
  setTime(t: number): void;
  /** ∂Φ/∂t of its row at the time set. */
  rate(): number;
  /** ∂²Φ/∂t² of its row at the time set. */
  acceleration(): number;
  /** The driven value f(t) at the time set (Φ_t = −scale·f'). */
  target(): number;
}

/** Drive a scalar variable: one row (x − f(t))·scale. */
export class CoordinateMotion implements TimeDriver {
  readonly rows = 1;
  readonly kind: BlockKind = 'driver';
  readonly vars: readonly number[];
  private readonly f = new Float64Array(3);
  constructor(readonly owner: string, variable: number, readonly law: TimeFunction, readonly scale: number) {
    this.vars = [variable];
    law.evaluate(0, this.f);
  }
  setTime(t: number): void { this.law.evaluate(t, this.f); }
  rate(): number { return -this.f[1] * this.scale; }
  acceleration(): number { return -this.f[2] * this.scale; }
  /** The target at the time set. */
  target(): number { return this.f[0]; }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    residual[0] = (state[offsets[0]] - this.f[0]) * this.scale;
    if (jacobian) jacobian[0] = this.scale;
  }
}

/**
 * Drive one world coordinate (axis 0, 1, 2) of a point fixed in a body: one row
 * (R p + x)[axis] − f(t). Its Jacobian in the body-frame tangent (ω, v): ∂/∂ω = (R [p]ₓᵀ)[axis],
 * ∂/∂v = R[axis].
 */
export class PointMotion implements TimeDriver {
  readonly rows = 1;
  readonly kind: BlockKind = 'driver';
  readonly vars: readonly number[];
  readonly scale = 1;
  private readonly f = new Float64Array(3);
  private readonly R = new Float64Array(9);
  private readonly p: Float64Array;
  /** Tangent mode only: the world point and the row as duals over the body's twist (their curvature, and a moved point's rows). */
  private readonly world = new DualVec3(6);
  private readonly row = [new Dual(6)];
  constructor(readonly owner: string, variable: number, point: ArrayLike<number>, readonly axis: 0 | 1 | 2, readonly law: TimeFunction) {
    this.vars = [variable];
    this.p = Float64Array.of(point[0], point[1], point[2]);
    law.evaluate(0, this.f);
  }
  setTime(t: number): void { this.law.evaluate(t, this.f); }
  rate(): number { return -this.f[1]; }
  acceleration(): number { return -this.f[2]; }
  target(): number { return this.f[0]; }
  /** The row of the last evaluation in tangent mode as a dual (kernel/dual.ts withTangents). */
  duals(): readonly Dual[] { return this.row; }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    const o = offsets[0], R = rotationMatrix(this.R, state, o + 3), p = this.p, a = this.axis;
    const r0 = R[a * 3], r1 = R[a * 3 + 1], r2 = R[a * 3 + 2];
    residual[0] = r0 * p[0] + r1 * p[1] + r2 * p[2] + state[o + a] - this.f[0];
    // the row is a point of the part: its second derivatives are the point's (the plain path never builds them)
    if (tangentMode()) dAddConst(this.row[0], dvComponent(this.row[0], dvRigidPoint(this.world, R, state, o, p, 0), a), -this.f[0]);
    if (!jacobian) return;
    // d(R p) = R (ω × p) = R [p]ₓᵀ ω: row a of R times [p]ₓᵀ = [[0, p_z, −p_y], [−p_z, 0, p_x], [p_y, −p_x, 0]]
    jacobian[0] = -r1 * p[2] + r2 * p[1];
    jacobian[1] = r0 * p[2] - r2 * p[0];
    jacobian[2] = -r0 * p[1] + r1 * p[0];
    jacobian[3] = r0; jacobian[4] = r1; jacobian[5] = r2;
  }
}
