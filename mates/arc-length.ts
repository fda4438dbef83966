/**
 * A curve measured by arc length. Curve is parameterised by vertex index (vertex i at
 * u = i); the rolling mate's contact coordinate is the distance the contact has travelled
 * along the curve (model units), so it needs s(u) = ∫₀ᵘ |C'(t)| dt and its inverse.
 *
 * s(u) is a table of cumulative lengths at eighths of a span (5-point Gauss–Legendre on
 * each eighth, built once) plus the same rule on the pieces from the nearest knot to u, so
 * ds/du = |C'(u)| to quadrature accuracy everywhere and the rolling rows' derivative
 * du/ds = 1/|C'(u)| is consistent with their values. u(s) is Newton on s(u) from the table.
 * A closed curve repeats its lap; an open one continues its end spans past its ends, as
 * Curve.evaluate does. Evaluating allocates nothing.
 */
import type { Curve } from './entities';

/** Knots per span: curvature of a Catmull–Rom span varies, eighths keep the rule exact to ~1e-12. */
const PIECES = 8;
// 5-point Gauss–Legendre on [0, 1]: nodes and weights
const GL_X = [0.04691007703066800, 0.23076534494715845, 0.5, 0.76923465505284155, 0.95308992296933200];
const GL_W = [0.11846344252809454, 0.23931433524968324, 0.28444444444444444, 0.23931433524968324, 0.11846344252809454];
/** Pieces beyond this many eighths past a knot (far outside an open curve) are integrated coarsely. */
const MAX_PIECES = 64;

export class ArcLengthCurve {
  /** Length of the open curve from its first to its last vertex, or of one lap of a closed one. */
  readonly length: number;
  /** Spans: count − 1 open, count closed. */
  readonly spans: number;
  /** Cumulative arc length at u = k / PIECES, k = 0 … spans·PIECES. */
  private readonly knots: Float64Array;
  private readonly buf = new Float64Array(9);
  /** Smallest speed |C'| seen while building the table (zero: a repeated vertex, no tangent there). */
  readonly minimumSpeed: number;

  constructor(readonly curve: Curve) {
    this.spans = curve.closed ? curve.count : curve.count - 1;
    const n = this.spans * PIECES;
    this.knots = new Float64Array(n + 1);
    let minimumSpeed = Infinity;
    for (let k = 0; k < n; k++) {
      const a = k / PIECES, b = (k + 1) / PIECES;
      this.knots[k + 1] = this.knots[k] + this.integrate(a, b);
      for (let j = 0; j <= 2; j++) minimumSpeed = Math.min(minimumSpeed, this.speed(a + (j / 2) * (b - a)));
    }
    this.length = this.knots[n];
    this.minimumSpeed = minimumSpeed;
  }

  /** |C'(u)|: model units of length per unit of u. */
  speed(u: number): number {
    const e = this.curve.evaluate(this.buf, u);
    return Math.hypot(e[3], e[4], e[5]);
  }

  /** ∫ₐᵇ |C'| by the 5-point rule on [a, b] (one piece). */
  private integrate(a: number, b: number): number {
    const h = b - a;
    let sum = 0;
    for (let i = 0; i < 5; i++) sum += GL_W[i] * this.speed(a + GL_X[i] * h);
    return sum * h;
  }

  /** Arc length at parameter u (any u: closed curves count laps, open ones continue their end spans). */
  arcLength(u: number): number {
    if (this.curve.closed) {
      const laps = Math.floor(u / this.spans);
      return laps * this.length + this.withinLap(u - laps * this.spans);
    }
    return this.withinLap(u);
  }

  /** s(u) from the knot nearest below u (clamped to the table), integrating the rest in eighths. */
  private withinLap(u: number): number {
    const last = this.spans * PIECES - 1;
    const k = Math.max(0, Math.min(last, Math.floor(u * PIECES)));
    const a = k / PIECES;
    const pieces = Math.min(MAX_PIECES, Math.max(1, Math.ceil(Math.abs(u - a) * PIECES)));
    const h = (u - a) / pieces;
    let s = this.knots[k];
    for (let p = 0; p < pieces; p++) s += this.integrate(a + p * h, a + (p + 1) * h);
    return s;
  }

  /**
   * The parameter u at arc length s: Newton on arcLength(u) = s from the table (a few steps,
   * to rounding). Closed curves wrap; open ones continue past their ends.
   */
  parameterAt(s: number): number {
    let laps = 0, r = s;
    if (this.curve.closed) {
      laps = Math.floor(s / this.length);
      r = s - laps * this.length;
    }
    // the eighth holding r (binary search), then a linear guess inside it
    const knots = this.knots, n = this.spans * PIECES;
    let lo = 0, hi = n;
    if (r <= 0) hi = 1;
    else if (r >= knots[n]) lo = n - 1;
    else {
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (knots[mid] <= r) lo = mid; else hi = mid;
      }
    }
    const span = knots[lo + 1] - knots[lo];
    let u = (lo + (span > 0 ? (r - knots[lo]) / span : 0)) / PIECES;
    for (let it = 0; it < 30; it++) {
      const speed = this.speed(u);
      if (!(speed > 0)) break;
      const step = (this.withinLap(u) - r) / speed;
      u -= step;
      if (Math.abs(step) <= 1e-15 * (1 + Math.abs(u))) break;
    }
    return u + laps * this.spans;
  }
}
