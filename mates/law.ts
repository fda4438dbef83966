/**
 * The scalar laws of the force elements (forces.ts re-exports them): the Law a spring, damper
 * or time scale evaluates, apart so the point-to-point values can name it, and its linear,
 * table and sine forms.
 */
/** A scalar law x ↦ y with its slope, for tensions and time scales. */
export interface Law {
  /** y(x) into out[0], dy/dx into out[1]. */
  evaluate(x: number, out: Float64Array): Float64Array;
  /** ∫ y dx from a fixed reference (for a potential); absent when not needed. */
  integral?(x: number): number;
  /** d²y/dx² (tangent mode's second derivatives of an element: the stiffness's rate); absent where not known. */
  curvature?(x: number): number;
}

// ---- laws: scalar functions with their slope ----

/** y = slope·(x − x0) + y0. */
export class LinearLaw implements Law {
  constructor(readonly slope: number, readonly x0 = 0, readonly y0 = 0) {}
  evaluate(x: number, out: Float64Array): Float64Array {
    out[0] = this.slope * (x - this.x0) + this.y0; out[1] = this.slope; return out;
  }
  curvature(): number { return 0; }
  integral(x: number): number {
    const d = x - this.x0;
    return 0.5 * this.slope * d * d + this.y0 * d;
  }
}

/**
 * Piecewise linear through [[x, y], …] (x strictly increasing); `extend` continues the end
 * segments linearly past the ends (tension curves), else the ends are held (time scales).
 */
export class TableLaw implements Law {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  constructor(rows: readonly (readonly [number, number])[], readonly extend: boolean) {
    this.xs = Float64Array.from(rows.map((r) => r[0]));
    this.ys = Float64Array.from(rows.map((r) => r[1]));
  }
  private segment(x: number): number {
    const xs = this.xs;
    let i = 0;
    while (i < xs.length - 2 && x > xs[i + 1]) i++;
    return i;
  }
  evaluate(x: number, out: Float64Array): Float64Array {
    const xs = this.xs, ys = this.ys, n = xs.length;
    if (!this.extend && (x <= xs[0] || x >= xs[n - 1])) { out[0] = x <= xs[0] ? ys[0] : ys[n - 1]; out[1] = 0; return out; }
    const i = this.segment(x);
    const slope = (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]);
    out[0] = ys[i] + slope * (x - xs[i]); out[1] = slope;
    return out;
  }
  /** Zero on each segment (a breakpoint's kink has none). */
  curvature(): number { return 0; }
  /** ∫ from xs[0] to x of the extended curve. */
  integral(x: number): number {
    const xs = this.xs, ys = this.ys;
    let sum = 0, a = xs[0];
    const lo = new Float64Array(2), hi = new Float64Array(2);
    // whole segments below x, then the part of the last
    for (let i = 0; i < xs.length - 1 && x > a; i++) {
      const b = i === xs.length - 2 ? x : Math.min(x, xs[i + 1]);
      this.evaluate(a, lo); this.evaluate(b, hi);
      sum += 0.5 * (lo[0] + hi[0]) * (b - a);
      a = b;
    }
    if (x < xs[0]) { this.evaluate(x, lo); sum -= 0.5 * (lo[0] + ys[0]) * (xs[0] - x); }
    return sum;
  }
}

/** s0 + A sin(2π f t + phase), phase in radians. */
export class SineLaw implements Law {
  constructor(readonly amplitude: number, readonly frequency: number, readonly phase = 0, readonly offset = 0) {}
  evaluate(t: number, out: Float64Array): Float64Array {
    const w = 2 * Math.PI * this.frequency;
    out[0] = this.offset + this.amplitude * Math.sin(w * t + this.phase);
    out[1] = this.amplitude * w * Math.cos(w * t + this.phase);
    return out;
  }
}
