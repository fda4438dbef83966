import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SCREW_TOLERANCES,
  closestPointOnAxis,
  createScrewFit,
  distanceToAxis,
  fitScrewAxis,
  orientAxisUp,
  screwFromTwist,
  type ScrewFit,
} from '../../kernel/screw.ts';

// ---------------------------------------------------------------------------------------
// Helpers (plain vector math, independent of the implementation under test).

type V3 = [number, number, number];

const add = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: ArrayLike<number>, k: number): V3 => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: ArrayLike<number>): number => Math.hypot(a[0], a[1], a[2]);
const unit = (a: ArrayLike<number>): V3 => scale(a, 1 / norm(a));
const dist = (a: ArrayLike<number>, b: ArrayLike<number>): number => norm(sub(a, b));

/** Rigid motion as a screw: axis through `c` along unit `a`, rate ρ, pitch h. */
interface Screw {
  c: V3;
  a: V3;
  rate: number;
  pitch: number;
}

/** Twist (ω, velocity of the material point at the origin) of a screw. */
function twistOf(s: Screw): { omega: V3; v0: V3 } {
  const omega = scale(s.a, s.rate);
  // r(x) = ω × (x − c) + h ω  ⇒  r(0) = c × ω + h ω.
  const v0 = add(cross(s.c, omega), scale(omega, s.pitch));
  return { omega, v0 };
}

/** Pack points and their rigid rates r = v0 + ω × p. */
function rigidData(points: V3[], omega: V3, v0: V3): { pos: Float64Array; rates: Float64Array } {
  const pos = new Float64Array(points.length * 3);
  const rates = new Float64Array(points.length * 3);
  points.forEach((p, i) => {
    pos.set(p, 3 * i);
    rates.set(add(v0, cross(omega, p)), 3 * i);
  });
  return { pos, rates };
}

function centroidOf(points: V3[]): V3 {
  let c: V3 = [0, 0, 0];
  for (const p of points) c = add(c, p);
  return scale(c, 1 / points.length);
}

/** The point of the line (c, unit a) closest to q. */
function footOn(c: V3, a: V3, q: ArrayLike<number>): V3 {
  return add(c, scale(a, dot(sub(q, c), a)));
}

function maxAbs(points: V3[]): number {
  let m = 0;
  for (const p of points) m = Math.max(m, norm(p));
  return m;
}

/** Seven points shaped like a suspension upright (mm): balljoints, axle, trackrod. */
const UPRIGHT: V3[] = [
  [12, 705, 120],
  [-8, 680, 395],
  [30, 760, 135],
  [-25, 742, 370],
  [0, 740, 255],
  [0, 790, 255],
  [-130, 715, 180],
];

function expectAxisNaN(fit: ScrewFit): void {
  expect(Number.isNaN(fit.pitch)).toBe(true);
  expect(Number.isNaN(fit.angularRate)).toBe(true);
  for (let k = 0; k < 3; k++) {
    expect(Number.isNaN(fit.direction[k])).toBe(true);
    expect(Number.isNaN(fit.point[k])).toBe(true);
  }
}

// fast-check arbitraries: finite doubles in sensible ranges only.
const dbl = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
/** A coordinate in [−lim, lim]; magnitudes below 1e-9·lim become 0 (no subnormal noise). */
const coord = (lim: number) => dbl(-lim, lim).map((x) => (Math.abs(x) < 1e-9 * lim ? 0 : x));
const vec = (lim: number) => fc.tuple(coord(lim), coord(lim), coord(lim));
const unitVec = vec(1)
  .filter((v) => norm(v) > 0.2)
  .map(unit);
const screwArb: fc.Arbitrary<Screw> = fc.record({
  c: vec(500),
  a: unitVec,
  rate: fc.oneof(dbl(1e-4, 1), dbl(-1, -1e-4)),
  pitch: dbl(-50, 50),
});

/** A well-spread body: a non-degenerate triangle plus up to 9 more points, all near `centre`. */
const bodyArb: fc.Arbitrary<V3[]> = fc
  .tuple(vec(500), fc.array(vec(150), { minLength: 3, maxLength: 12 }))
  .filter(([, offs]) => {
    const e1 = sub(offs[1], offs[0]);
    const e2 = sub(offs[2], offs[0]);
    const l = Math.max(norm(e1), norm(e2));
    return l > 10 && norm(cross(e1, e2)) > 0.05 * l * l;
  })
  .map(([centre, offs]) => offs.map((o) => add(centre, o)));

// ---------------------------------------------------------------------------------------

describe('fitScrewAxis: synthetic rigid motions', () => {
  it('recovers a pure rotation about a known axis to 1e-12', () => {
    const s: Screw = { c: [95, 610, 240], a: unit([0.12, -0.27, 0.955]), rate: 0.0085, pitch: 0 };
    const { omega, v0 } = twistOf(s);
    const { pos, rates } = rigidData(UPRIGHT, omega, v0);
    const fit = fitScrewAxis(pos, rates, UPRIGHT.length);
    const L = maxAbs(UPRIGHT);

    expect(fit.status).toBe('valid');
    expect(fit.count).toBe(7);
    const cbar = centroidOf(UPRIGHT);
    expect(dist(fit.centroid, cbar)).toBeLessThanOrEqual(1e-12 * L);
    // The reported point is the axis point closest to the centroid.
    expect(dist(fit.point, footOn(s.c, s.a, cbar))).toBeLessThanOrEqual(1e-12 * L);
    expect(distanceToAxis(fit.point, s.c, s.a)).toBeLessThanOrEqual(1e-12 * L);
    // Direction follows the sign of ω.
    expect(dist(fit.direction, s.a)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(fit.pitch)).toBeLessThanOrEqual(1e-12 * L);
    expect(Math.abs(fit.angularRate - s.rate)).toBeLessThanOrEqual(1e-12 * s.rate);
    expect(dist(fit.omega, omega)).toBeLessThanOrEqual(1e-12 * s.rate);
    expect(fit.maxResidual).toBeLessThanOrEqual(1e-12 * fit.rmsRate);
    // Points on the axis do not move (pure rotation).
    const onAxisRate = add(fit.v, cross(fit.omega, sub(fit.point, fit.centroid)));
    expect(norm(onAxisRate)).toBeLessThanOrEqual(1e-12 * fit.rmsRate);
  });

  it('recovers a pitched screw (7.5 mm/rad) to 1e-12', () => {
    const s: Screw = { c: [-40, 700, 30], a: unit([0.3, 0.1, -0.95]), rate: -0.012, pitch: 7.5 };
    const { omega, v0 } = twistOf(s);
    const { pos, rates } = rigidData(UPRIGHT, omega, v0);
    const fit = fitScrewAxis(pos, rates, UPRIGHT.length);
    const L = maxAbs(UPRIGHT);

    expect(fit.status).toBe('valid');
    const foot = footOn(s.c, s.a, fit.centroid);
    expect(dist(fit.point, foot)).toBeLessThanOrEqual(1e-12 * L);
    // Negative rate: ω points along −a.
    expect(dist(fit.direction, scale(s.a, -1))).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(fit.pitch - 7.5)).toBeLessThanOrEqual(1e-12 * L);
    expect(Math.abs(fit.angularRate - 0.012)).toBeLessThanOrEqual(1e-12 * 0.012);
    // A point on the axis slides along it at pitch × rate.
    const onAxisRate = add(fit.v, cross(fit.omega, sub(fit.point, fit.centroid)));
    expect(dist(onAxisRate, scale(fit.omega, 7.5))).toBeLessThanOrEqual(1e-12 * fit.rmsRate);
  });

  it('works from exactly three points', () => {
    const pts: V3[] = [
      [0, 0, 0],
      [100, 0, 0],
      [0, 50, 20],
    ];
    const s: Screw = { c: [10, -20, 5], a: unit([1, 2, 2]), rate: 0.3, pitch: -3 };
    const { omega, v0 } = twistOf(s);
    const { pos, rates } = rigidData(pts, omega, v0);
    const fit = fitScrewAxis(pos, rates, 3);
    expect(fit.status).toBe('valid');
    expect(distanceToAxis(fit.point, s.c, s.a)).toBeLessThanOrEqual(1e-12 * 100);
    expect(Math.abs(fit.pitch + 3)).toBeLessThanOrEqual(1e-12 * 100);
  });

  it('is unit independent: tiny and huge magnitudes give the same axis', () => {
    const s: Screw = { c: [95, 610, 240], a: unit([0.12, -0.27, 0.955]), rate: 0.0085, pitch: 4 };
    const { omega, v0 } = twistOf(s);
    const { pos, rates } = rigidData(UPRIGHT, omega, v0);
    const ref = fitScrewAxis(pos, rates, UPRIGHT.length);
    for (const k of [1e-160, 1e-3, 1e3, 1e160]) {
      const fit = fitScrewAxis(
        pos.map((x) => x * k),
        rates.map((x) => x * k),
        UPRIGHT.length,
      );
      expect(fit.status).toBe('valid');
      expect(dist(scale(fit.point, 1 / k), ref.point)).toBeLessThanOrEqual(1e-12 * 1000);
      expect(Math.abs(fit.pitch / k - ref.pitch)).toBeLessThanOrEqual(1e-12 * 1000);
      expect(Math.abs(fit.angularRate / ref.angularRate - 1)).toBeLessThanOrEqual(1e-12);
    }
  });
});

describe('fitScrewAxis: least-squares derivation', () => {
  it('solves the normal equations Σ[d]×ᵀ[d]× ω = Σ d × (r − v) with v the mean rate (non-rigid data)', () => {
    fc.assert(
      fc.property(bodyArb, fc.array(vec(10), { minLength: 12, maxLength: 12 }), (pts, rawRates) => {
        const n = pts.length;
        const pos = new Float64Array(pts.flat());
        const rates = new Float64Array(rawRates.slice(0, n).flat());
        const fit = fitScrewAxis(pos, rates, n);
        fc.pre(fit.status === 'valid' || fit.status === 'excessive_fit_error' || fit.status === 'near_pure_translation');
        let meanRate: V3 = [0, 0, 0];
        for (let i = 0; i < n; i++) meanRate = add(meanRate, rawRates[i]);
        meanRate = scale(meanRate, 1 / n);
        const rateScale = Math.max(1e-300, ...rawRates.slice(0, n).map(norm));
        expect(dist(fit.v, meanRate)).toBeLessThanOrEqual(1e-12 * rateScale);
        // Residual of the normal equations, relative to the size of their terms.
        const cbar = centroidOf(pts);
        let lhs: V3 = [0, 0, 0];
        let rhs: V3 = [0, 0, 0];
        let size = 0;
        for (let i = 0; i < n; i++) {
          const d = sub(pts[i], cbar);
          // [d]×ᵀ[d]× ω = |d|² ω − d (d·ω)
          lhs = add(lhs, sub(scale(fit.omega, dot(d, d)), scale(d, dot(d, fit.omega))));
          rhs = add(rhs, cross(d, sub(rawRates[i], fit.v)));
          size += dot(d, d) * norm(fit.omega) + norm(d) * norm(sub(rawRates[i], fit.v));
        }
        expect(dist(lhs, rhs)).toBeLessThanOrEqual(1e-11 * size);
      }),
      { numRuns: 200 },
    );
  });
});

describe('fitScrewAxis: invariances (fast-check)', () => {
  it('translating all points translates the axis and changes nothing else', () => {
    fc.assert(
      fc.property(bodyArb, screwArb, vec(1000), (pts, s, shift) => {
        const { omega, v0 } = twistOf(s);
        const a = rigidData(pts, omega, v0);
        const moved = a.pos.map((x, i) => x + shift[i % 3]);
        const f1 = fitScrewAxis(a.pos, a.rates, pts.length);
        const f2 = fitScrewAxis(moved, a.rates, pts.length);
        expect(f1.status).toBe('valid');
        expect(f2.status).toBe('valid');
        const L = maxAbs(pts) + norm(shift) + norm(s.c) + Math.abs(s.pitch);
        expect(dist(sub(f2.point, shift), f1.point)).toBeLessThanOrEqual(1e-9 * L);
        expect(dist(sub(f2.centroid, shift), f1.centroid)).toBeLessThanOrEqual(1e-12 * L);
        expect(dist(f2.direction, f1.direction)).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(f2.pitch - f1.pitch)).toBeLessThanOrEqual(1e-9 * L);
        expect(Math.abs(f2.angularRate - f1.angularRate)).toBeLessThanOrEqual(1e-9 * f1.angularRate);
        // And the first fit is the generating screw.
        expect(distanceToAxis(f1.point, s.c, s.a)).toBeLessThanOrEqual(1e-9 * L);
        expect(Math.abs(dot(f1.direction, s.a))).toBeGreaterThanOrEqual(1 - 1e-12);
        expect(Math.abs(f1.pitch - s.pitch)).toBeLessThanOrEqual(1e-9 * L);
      }),
      { numRuns: 300 },
    );
  });

  it('scaling all rates scales the angular rate and leaves axis and pitch unchanged', () => {
    const kArb = fc.oneof(dbl(1e-3, 1e3), dbl(-1e3, -1e-3));
    fc.assert(
      fc.property(bodyArb, screwArb, kArb, (pts, s, k) => {
        const { omega, v0 } = twistOf(s);
        const a = rigidData(pts, omega, v0);
        const f1 = fitScrewAxis(a.pos, a.rates, pts.length);
        const f2 = fitScrewAxis(
          a.pos,
          a.rates.map((x) => x * k),
          pts.length,
        );
        expect(f1.status).toBe('valid');
        expect(f2.status).toBe('valid');
        const L = maxAbs(pts) + norm(s.c) + Math.abs(s.pitch);
        expect(dist(f2.point, f1.point)).toBeLessThanOrEqual(1e-9 * L);
        expect(Math.abs(f2.pitch - f1.pitch)).toBeLessThanOrEqual(1e-9 * L);
        expect(Math.abs(f2.angularRate / (Math.abs(k) * f1.angularRate) - 1)).toBeLessThanOrEqual(1e-9);
        // Reversing the motion reverses ω, not the axis.
        expect(dist(f2.direction, scale(f1.direction, Math.sign(k)))).toBeLessThanOrEqual(1e-9);
        const o1 = orientAxisUp(f1.direction, new Float64Array(3));
        const o2 = orientAxisUp(f2.direction, new Float64Array(3));
        expect(dist(o1, o2)).toBeLessThanOrEqual(1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with screwFromTwist for the same motion', () => {
    fc.assert(
      fc.property(bodyArb, screwArb, (pts, s) => {
        const { omega, v0 } = twistOf(s);
        const a = rigidData(pts, omega, v0);
        const fit = fitScrewAxis(a.pos, a.rates, pts.length);
        const tw = screwFromTwist(omega, v0, createScrewFit(), fit.centroid);
        expect(fit.status).toBe('valid');
        expect(tw.status).toBe('valid');
        const L = maxAbs(pts) + norm(s.c) + Math.abs(s.pitch);
        const R = Math.abs(s.rate);
        expect(dist(fit.omega, tw.omega)).toBeLessThanOrEqual(1e-9 * R);
        expect(dist(fit.v, tw.v)).toBeLessThanOrEqual(1e-9 * R * L);
        expect(dist(fit.point, tw.point)).toBeLessThanOrEqual(1e-9 * L);
        expect(dist(fit.direction, tw.direction)).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(fit.pitch - tw.pitch)).toBeLessThanOrEqual(1e-9 * L);
        expect(Math.abs(fit.angularRate - tw.angularRate)).toBeLessThanOrEqual(1e-9 * R);
        // screwFromTwist alone recovers the generating screw.
        expect(distanceToAxis(tw.point, s.c, s.a)).toBeLessThanOrEqual(1e-12 * L);
        expect(Math.abs(tw.pitch - s.pitch)).toBeLessThanOrEqual(1e-12 * L);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fitScrewAxis: statuses', () => {
  const s: Screw = { c: [95, 610, 240], a: unit([0.12, -0.27, 0.955]), rate: 0.0085, pitch: 2 };
  const { omega, v0 } = twistOf(s);

  it('fewer than three points: insufficient_points', () => {
    const { pos, rates } = rigidData(UPRIGHT.slice(0, 2), omega, v0);
    for (const count of [2, 1, 0, -4, 2.9, -Infinity]) {
      const fit = fitScrewAxis(pos, rates, count);
      expect(fit.status).toBe('insufficient_points');
      expectAxisNaN(fit);
      expect(Number.isNaN(fit.omega[0])).toBe(true);
    }
  });

  it('collinear or coincident points: degenerate_geometry', () => {
    fc.assert(
      fc.property(
        vec(100),
        unitVec,
        fc.array(dbl(-50, 50), { minLength: 1, maxLength: 9 }),
        (base, dir, ts) => {
          const line: V3[] = [-10, 0, 10, ...ts].map((t) => add(base, scale(dir, t)));
          const { pos, rates } = rigidData(line, omega, v0);
          const fit = fitScrewAxis(pos, rates, line.length);
          expect(fit.status).toBe('degenerate_geometry');
          expect(fit.singularValues[1]).toBeLessThanOrEqual(1e-10 * fit.singularValues[0]);
          expectAxisNaN(fit);
        },
      ),
      { numRuns: 200 },
    );
    const same: V3[] = [
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ];
    const { pos, rates } = rigidData(same, omega, v0);
    expect(fitScrewAxis(pos, rates, 4).status).toBe('degenerate_geometry');
  });

  it('the collinearity test is relative to σ₁: a 1e-9-thin set is not degenerate, 1e-11 is', () => {
    const thin = (h: number): V3[] => [
      [-100, 0, 0],
      [-50, h, 0],
      [0, -h, 0],
      [50, h, 0],
      [100, -h, 0],
      [75, 0, 0],
    ];
    const rot: V3 = [0, 0, 0.01];
    const fat = rigidData(thin(1e-9 * 80), rot, [1, 2, 3]);
    const f1 = fitScrewAxis(fat.pos, fat.rates, 6);
    expect(f1.singularValues[1] / f1.singularValues[0]).toBeGreaterThan(1e-10);
    expect(f1.status).not.toBe('degenerate_geometry');
    const slim = rigidData(thin(1e-11 * 80), rot, [1, 2, 3]);
    const f2 = fitScrewAxis(slim.pos, slim.rates, 6);
    expect(f2.status).toBe('degenerate_geometry');
  });

  it('a pure translation: near_pure_translation (with ω ≈ 0 and v the translation)', () => {
    fc.assert(
      fc.property(bodyArb, vec(100).filter((t) => norm(t) > 1e-6), (pts, t) => {
        const { pos, rates } = rigidData(pts, [0, 0, 0], t);
        const fit = fitScrewAxis(pos, rates, pts.length);
        expect(fit.status).toBe('near_pure_translation');
        expectAxisNaN(fit);
        expect(dist(fit.v, t)).toBeLessThanOrEqual(1e-12 * norm(t));
        expect(norm(fit.omega)).toBeLessThanOrEqual((1e-8 * fit.rmsRate) / fit.rmsRadius);
      }),
      { numRuns: 200 },
    );
    // All rates zero is a (null) translation too.
    const still = rigidData(UPRIGHT, [0, 0, 0], [0, 0, 0]);
    expect(fitScrewAxis(still.pos, still.rates, 7).status).toBe('near_pure_translation');
    // The threshold |ω| ≤ 1e-8 · RMS rate / RMS radius, with both RMS computed here.
    const cbar = centroidOf(UPRIGHT);
    const rmsRadius = Math.sqrt(UPRIGHT.reduce((acc, p) => acc + dot(sub(p, cbar), sub(p, cbar)), 0) / 7);
    const statusAt = (factor: number): string => {
      // Rotation about z through the centroid plus a translation of 1 along x.
      const shifted = UPRIGHT.map((p) => sub(p, cbar));
      const w = (factor * 1) / rmsRadius; // RMS rate ≈ 1: the rotation part is tiny.
      const m = rigidData(shifted, [0, 0, w], [1, 0, 0]);
      const fit = fitScrewAxis(m.pos, m.rates, 7);
      const rmsRate = Math.sqrt(m.rates.reduce((acc, x) => acc + x * x, 0) / 7);
      expect(Math.abs(fit.rmsRate / rmsRate - 1)).toBeLessThanOrEqual(1e-14);
      expect(Math.abs(fit.rmsRadius / rmsRadius - 1)).toBeLessThanOrEqual(1e-14);
      return fit.status;
    };
    expect(statusAt(0.5e-8)).toBe('near_pure_translation');
    expect(statusAt(0.9e-8)).toBe('near_pure_translation');
    expect(statusAt(1.1e-8)).toBe('valid');
    expect(statusAt(1e-6)).toBe('valid');
  });

  it('a NaN or infinity in any input: non_finite', () => {
    const { pos, rates } = rigidData(UPRIGHT, omega, v0);
    for (const bad of [NaN, Infinity, -Infinity]) {
      for (let i = 0; i < pos.length; i++) {
        const p = pos.slice();
        p[i] = bad;
        const f1 = fitScrewAxis(p, rates, 7);
        expect(f1.status).toBe('non_finite');
        expectAxisNaN(f1);
        const r = rates.slice();
        r[i] = bad;
        expect(fitScrewAxis(pos, r, 7).status).toBe('non_finite');
      }
    }
    expect(fitScrewAxis(pos, rates, NaN).status).toBe('non_finite');
    expect(fitScrewAxis(pos, rates, Infinity).status).toBe('non_finite');
    // Asking for more points than the arrays hold reads undefined: non_finite, no throw.
    expect(fitScrewAxis(pos, rates, 8).status).toBe('non_finite');
    expect(fitScrewAxis([], [], 5).status).toBe('non_finite');
  });

  it('finite inputs that overflow: non_finite, not a wrong status', () => {
    const big = rigidData(UPRIGHT, omega, v0);
    const pos = big.pos.map((x, i) => (i % 3 === 0 ? 1.5e308 : x));
    expect(fitScrewAxis(pos, big.rates, 7).status).toBe('non_finite');
    const rates = big.rates.map((x, i) => (i % 3 === 1 ? 1.7e308 : x));
    expect(fitScrewAxis(big.pos, rates, 7).status).toBe('non_finite');
  });

  it('a non-rigid perturbation: excessive_fit_error (a rounding-sized one stays valid)', () => {
    const { pos, rates } = rigidData(UPRIGHT, omega, v0);
    const ref = fitScrewAxis(pos, rates, 7);
    expect(ref.status).toBe('valid');
    // Stretch point 3 away from the centroid.
    const radial = unit(sub(UPRIGHT[3], centroidOf(UPRIGHT)));
    const stretched = (eps: number): Float64Array => {
      const r = rates.slice();
      for (let k = 0; k < 3; k++) r[9 + k] += eps * ref.rmsRate * radial[k];
      return r;
    };
    const bad = fitScrewAxis(pos, stretched(1e-3), 7);
    expect(bad.status).toBe('excessive_fit_error');
    expectAxisNaN(bad);
    expect(bad.maxResidual).toBeGreaterThan(1e-5 * bad.rmsRate);
    expect(Number.isFinite(bad.omega[0])).toBe(true);
    const ok = fitScrewAxis(pos, stretched(1e-8), 7);
    expect(ok.status).toBe('valid');
    expect(ok.maxResidual).toBeGreaterThan(0);

    fc.assert(
      fc.property(
        bodyArb.filter((p) => p.length >= 6),
        screwArb,
        fc.nat(),
        dbl(1e-2, 1),
        (pts, sc, which, eps) => {
          const tw = twistOf(sc);
          const a = rigidData(pts, tw.omega, tw.v0);
          const fit0 = fitScrewAxis(a.pos, a.rates, pts.length);
          const i = which % pts.length;
          const dir = unit(sub(pts[i], centroidOf(pts)));
          fc.pre(norm(sub(pts[i], centroidOf(pts))) > 1e-3 * fit0.rmsRadius);
          for (let k = 0; k < 3; k++) a.rates[3 * i + k] += eps * fit0.rmsRate * dir[k];
          const fit = fitScrewAxis(a.pos, a.rates, pts.length);
          expect(fit.status).toBe('excessive_fit_error');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rank_deficient: the rotational design loses rank (σ_min ≤ 3n·ε·σ_max) yet is not collinear', () => {
    // A million points on a strip 1e-7 thin and 2000 long: σ₂/σ₁ ≈ 3e-10 > 1e-10, while
    // 3n·ε ≈ 6.7e-10, so least squares over 3e6 rows cannot resolve the rotation about x.
    const n = 1_000_000;
    const h = 3e-10 * Math.sqrt(1000 * 1000 / 3);
    const pts = new Float64Array(3 * n);
    const rates = new Float64Array(3 * n);
    const rot: V3 = [0, 0, 0.01];
    for (let i = 0; i < n; i++) {
      const x = -1000 + (2000 * i) / (n - 1);
      const y = i % 2 === 0 ? h : -h;
      pts[3 * i] = x;
      pts[3 * i + 1] = y;
      const r = cross(rot, [x, y, 0]);
      rates.set(r, 3 * i);
    }
    const fit = fitScrewAxis(pts, rates, n);
    expect(fit.singularValues[1] / fit.singularValues[0]).toBeGreaterThan(SCREW_TOLERANCES.collinearRelative);
    expect(fit.status).toBe('rank_deficient');
    expectAxisNaN(fit);
    expect(Number.isNaN(fit.omega[0])).toBe(true);
    // The same strip with a thousand points is solvable.
    const few = fitScrewAxis(pts.subarray(0, 3000), rates.subarray(0, 3000), 1000);
    expect(few.status).not.toBe('rank_deficient');
  });
});

describe('fitScrewAxis: out parameter', () => {
  it('reuses `out` and resets every field between calls', () => {
    const s: Screw = { c: [95, 610, 240], a: unit([0.12, -0.27, 0.955]), rate: 0.0085, pitch: 2 };
    const { omega, v0 } = twistOf(s);
    const { pos, rates } = rigidData(UPRIGHT, omega, v0);
    const out = createScrewFit();
    const omegaArr = out.omega;
    expect(fitScrewAxis(pos, rates, 7, out)).toBe(out);
    expect(out.status).toBe('valid');
    expect(out.omega).toBe(omegaArr);
    const validPoint = Array.from(out.point);
    fitScrewAxis(pos, rates, 2, out);
    expect(out.status).toBe('insufficient_points');
    expectAxisNaN(out);
    expect(Number.isNaN(out.centroid[0]) && Number.isNaN(out.rmsRate) && Number.isNaN(out.maxResidual)).toBe(true);
    fitScrewAxis(pos, rates, 7, out);
    expect(out.status).toBe('valid');
    expect(Array.from(out.point)).toEqual(validPoint);
  });
});

describe('screwFromTwist', () => {
  it('gives the axis, pitch and rate of a known twist, the point closest to the reference', () => {
    const s: Screw = { c: [10, 20, 30], a: unit([0, 0.6, 0.8]), rate: 2, pitch: 7.5 };
    const { omega, v0 } = twistOf(s);
    const atOrigin = screwFromTwist(omega, v0);
    expect(atOrigin.status).toBe('valid');
    expect(dist(atOrigin.point, footOn(s.c, s.a, [0, 0, 0]))).toBeLessThanOrEqual(1e-13 * 50);
    expect(Math.abs(atOrigin.pitch - 7.5)).toBeLessThanOrEqual(1e-13 * 50);
    expect(atOrigin.angularRate).toBeCloseTo(2, 14);
    expect(dist(atOrigin.direction, s.a)).toBeLessThanOrEqual(1e-15);
    expect(atOrigin.maxResidual).toBe(0);
    const ref: V3 = [-5, 7, 100];
    const atRef = screwFromTwist(omega, v0, createScrewFit(), ref);
    expect(Array.from(atRef.centroid)).toEqual(ref);
    expect(dist(atRef.v, add(v0, cross(omega, ref)))).toBe(0);
    expect(dist(atRef.point, footOn(s.c, s.a, ref))).toBeLessThanOrEqual(1e-13 * 150);
    expect(distanceToAxis(atOrigin.point, atRef.point, atRef.direction)).toBeLessThanOrEqual(1e-13 * 150);
  });

  it('zero rotation is near_pure_translation, non-finite input is non_finite', () => {
    const t = screwFromTwist([0, 0, 0], [1, 2, 3]);
    expect(t.status).toBe('near_pure_translation');
    expectAxisNaN(t);
    expect(Array.from(t.v)).toEqual([1, 2, 3]);
    expect(screwFromTwist([NaN, 0, 1], [1, 2, 3]).status).toBe('non_finite');
    expect(screwFromTwist([0, 0, 1], [1, Infinity, 3]).status).toBe('non_finite');
    expect(screwFromTwist([0, 0, 1], [1, 2, 3], undefined, [0, NaN, 0]).status).toBe('non_finite');
    // Overflowing point: |ω| tiny against v.
    expect(screwFromTwist([1e-300, 0, 0], [0, 1e300, 0]).status).toBe('non_finite');
  });

  it('may write into an out whose fields alias its inputs', () => {
    const out = screwFromTwist([0, 0, 1], [1, 0, 0]);
    const again = screwFromTwist(out.omega, [1, 0, 0], out);
    expect(again.status).toBe('valid');
    expect(Array.from(again.omega)).toEqual([0, 0, 1]);
    expect(Array.from(again.point)).toEqual([0, 1, 0]);
  });
});

describe('orientAxisUp', () => {
  const cases: [V3, V3][] = [
    [[0, 0, -1], [0, 0, 1]],
    [[0, 0, 1], [0, 0, 1]],
    [[0.3, -0.4, -0.866], [-0.3, 0.4, 0.866]],
    [[-0.3, 0.4, 0.866], [-0.3, 0.4, 0.866]],
    // Horizontal: +x decides.
    [[-1, 0, 0], [1, 0, 0]],
    [[-0.6, 0.8, 0], [0.6, -0.8, 0]],
    [[-0.6, -0.8, 1e-13], [0.6, 0.8, -1e-13]],
    [[0.6, -0.8, -1e-12], [0.6, -0.8, -1e-12]],
    // z just above the tolerance still decides.
    [[-0.6, -0.8, -2e-12], [0.6, 0.8, 2e-12]],
    // Along y: +y decides.
    [[0, -1, 0], [0, 1, 0]],
    [[1e-13, -1, -1e-13], [-1e-13, 1, 1e-13]],
    [[0, 1, 0], [0, 1, 0]],
  ];
  it.each(cases)('%j → %j', (input, expected) => {
    const out = orientAxisUp(input, new Float64Array(3));
    expect(Array.from(out)).toEqual(expected);
  });

  it('works in place, is idempotent, and leaves zero and NaN alone', () => {
    const d = new Float64Array([0.1, 0.2, -0.97]);
    expect(orientAxisUp(d, d)).toBe(d);
    expect(Array.from(d)).toEqual([-0.1, -0.2, 0.97]);
    orientAxisUp(d, d);
    expect(Array.from(d)).toEqual([-0.1, -0.2, 0.97]);
    expect(Array.from(orientAxisUp([0, 0, 0], [9, 9, 9]))).toEqual([0, 0, 0]);
    expect(orientAxisUp([NaN, 1, -1], [0, 0, 0]).every((x, i) => (i === 0 ? Number.isNaN(x) : x === [NaN, 1, -1][i]))).toBe(true);
    fc.assert(
      fc.property(unitVec, (u) => {
        const o = orientAxisUp(u, [0, 0, 0]);
        const flipped = orientAxisUp(scale(u, -1), [0, 0, 0]);
        expect(o).toEqual(flipped);
        expect(Math.abs(dot(o, u))).toBe(dot(u, u));
      }),
    );
  });
});

describe('axis helpers', () => {
  it('closestPointOnAxis and distanceToAxis, with a non-unit direction', () => {
    const p: V3 = [3, 4, 10];
    const a: V3 = [1, 1, 1];
    const d: V3 = [0, 0, 5];
    expect(Array.from(closestPointOnAxis(p, a, d, new Float64Array(3)))).toEqual([1, 1, 10]);
    expect(distanceToAxis(p, a, d)).toBeCloseTo(Math.hypot(2, 3), 14);
    expect(distanceToAxis([1, 1, -7], a, d)).toBe(0);
    expect(Number.isNaN(distanceToAxis(p, a, [0, 0, 0]))).toBe(true);
    expect(Number.isNaN(closestPointOnAxis(p, a, [0, 0, 0], [0, 0, 0])[0])).toBe(true);
    fc.assert(
      fc.property(vec(1000), vec(1000), unitVec, dbl(1e-3, 1e3), (q, c, u, k) => {
        const foot = closestPointOnAxis(q, c, scale(u, k), new Float64Array(3));
        const L = norm(q) + norm(c) + 1;
        expect(distanceToAxis(foot, c, u)).toBeLessThanOrEqual(1e-12 * L);
        expect(Math.abs(dot(sub(q, foot), u))).toBeLessThanOrEqual(1e-12 * L);
        expect(Math.abs(distanceToAxis(q, c, scale(u, k)) - dist(q, foot))).toBeLessThanOrEqual(1e-12 * L);
      }),
    );
  });
});
