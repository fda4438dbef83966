/**
 * Least-squares fits of the surfaces and curves a pick can name: a plane, a sphere, a
 * surface of revolution (cylinder or cone), a circle, a line. Each returns its residual,
 * the root mean square distance of the points from what was fitted (in the points'
 * length unit), or Infinity where the points do not determine it.
 *
 * Points are packed xyz (`Float64Array`, 3 per point). The linear solves run on points
 * moved to their centroid and scaled to unit spread, so a part far from its origin fits as
 * well as one at it.
 */
import { symmetricEigen3, solveInPlace } from './small-linalg.ts';
import { basisAcross, type Vec3T } from './vectors.ts';

export interface PlaneFit { readonly kind: 'plane'; readonly origin: Vec3T; readonly normal: Vec3T; readonly residual: number }
export interface SphereFit { readonly kind: 'sphere'; readonly center: Vec3T; readonly radius: number; readonly residual: number }
/** A cylinder or a cone: `origin` on the axis at the middle of the points' extent along it; `radius` there. */
export interface RevolutionFit {
  readonly kind: 'cylinder' | 'cone';
  readonly origin: Vec3T; readonly direction: Vec3T; readonly radius: number;
  /** The cone's half angle in radians (0 for a cylinder). */
  readonly halfAngle: number;
  /** How the radius grows along `direction`: dr/dh (0 for a cylinder). */
  readonly slope: number;
  readonly residual: number;
}
export interface CircleFit { readonly center: Vec3T; readonly normal: Vec3T; readonly radius: number; readonly residual: number }
export interface LineFit { readonly origin: Vec3T; readonly direction: Vec3T; readonly residual: number }

/** Centroid and RMS spread (at least a tiny positive number) of packed points. */
export function centroidOf(points: Float64Array): { c: Vec3T; spread: number } {
  const n = points.length / 3;
  const c: Vec3T = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c[k] += points[3 * i + k] / n;
  let s = 0;
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) s += (points[3 * i + k] - c[k]) ** 2;
  return { c, spread: Math.sqrt(s / Math.max(n, 1)) || 1e-300 };
}

/** Eigenvectors (rows, ascending eigenvalues) of the scatter of packed points about their centroid. */
function scatterAxes(points: Float64Array, c: Vec3T): { values: Float64Array; vectors: Float64Array } {
  const m = new Float64Array(9);
  for (let i = 0; i < points.length; i += 3) {
    const d0 = points[i] - c[0], d1 = points[i + 1] - c[1], d2 = points[i + 2] - c[2];
    m[0] += d0 * d0; m[1] += d0 * d1; m[2] += d0 * d2; m[4] += d1 * d1; m[5] += d1 * d2; m[8] += d2 * d2;
  }
  m[3] = m[1]; m[6] = m[2]; m[7] = m[5];
  const values = new Float64Array(3), vectors = new Float64Array(9);
  symmetricEigen3(m, values, vectors);
  return { values, vectors };
}
const row = (v: Float64Array, r: number): Vec3T => [v[3 * r], v[3 * r + 1], v[3 * r + 2]];
const rms = (sumSquares: number, n: number) => Math.sqrt(sumSquares / Math.max(n, 1));

export function fitPlane(points: Float64Array): PlaneFit {
  const { c } = centroidOf(points);
  const normal = row(scatterAxes(points, c).vectors, 0);
  let s = 0;
  for (let i = 0; i < points.length; i += 3) s += ((points[i] - c[0]) * normal[0] + (points[i + 1] - c[1]) * normal[1] + (points[i + 2] - c[2]) * normal[2]) ** 2;
  return { kind: 'plane', origin: c, normal, residual: points.length >= 9 ? rms(s, points.length / 3) : Infinity };
}

export function fitLine(points: Float64Array): LineFit {
  const { c } = centroidOf(points);
  const direction = row(scatterAxes(points, c).vectors, 2);
  let s = 0;
  for (let i = 0; i < points.length; i += 3) {
    const d0 = points[i] - c[0], d1 = points[i + 1] - c[1], d2 = points[i + 2] - c[2];
    const along = d0 * direction[0] + d1 * direction[1] + d2 * direction[2];
    s += d0 * d0 + d1 * d1 + d2 * d2 - along * along;
  }
  return { origin: c, direction, residual: points.length >= 6 ? rms(Math.max(s, 0), points.length / 3) : Infinity };
}

/** Linear least squares Σ (row_i · x − rhs_i)² over rows produced by `rowOf`; null when singular. */
function leastSquares(n: number, count: number, rowOf: (i: number, r: Float64Array) => number): Float64Array | null {
  const A = new Float64Array(n * n), b = new Float64Array(n), r = new Float64Array(n);
  for (let i = 0; i < count; i++) {
    const rhs = rowOf(i, r);
    for (let j = 0; j < n; j++) {
      b[j] += r[j] * rhs;
      for (let k = 0; k < n; k++) A[j * n + k] += r[j] * r[k];
    }
  }
  return solveInPlace(n, A, b) ? b : null;
}

export function fitSphere(points: Float64Array): SphereFit {
  const n = points.length / 3;
  const { c, spread } = centroidOf(points);
  const q = (i: number, k: number) => (points[3 * i + k] - c[k]) / spread;
  const x = n >= 4 ? leastSquares(4, n, (i, r) => {
    r[0] = 2 * q(i, 0); r[1] = 2 * q(i, 1); r[2] = 2 * q(i, 2); r[3] = 1;
    return q(i, 0) ** 2 + q(i, 1) ** 2 + q(i, 2) ** 2;
  }) : null;
  if (x === null) return { kind: 'sphere', center: c, radius: 0, residual: Infinity };
  const center: Vec3T = [c[0] + spread * x[0], c[1] + spread * x[1], c[2] + spread * x[2]];
  const radius = spread * Math.sqrt(Math.max(x[3] + x[0] ** 2 + x[1] ** 2 + x[2] ** 2, 0));
  let s = 0;
  for (let i = 0; i < n; i++) s += (Math.hypot(points[3 * i] - center[0], points[3 * i + 1] - center[1], points[3 * i + 2] - center[2]) - radius) ** 2;
  return { kind: 'sphere', center, radius, residual: rms(s, n) };
}

/**
 * The circle in the plane square to `d` (through the centroid) that the points' projections
 * fit best, with their heights along `d`: scaled coordinates, Kasa's algebraic fit.
 */
function projectAcross(points: Float64Array, d: Vec3T) {
  const n = points.length / 3;
  const { c, spread } = centroidOf(points);
  const u: Vec3T = [0, 0, 0], w: Vec3T = [0, 0, 0];
  basisAcross(u, w, d);
  const xy = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const p0 = points[3 * i] - c[0], p1 = points[3 * i + 1] - c[1], p2 = points[3 * i + 2] - c[2];
    xy[3 * i] = (p0 * u[0] + p1 * u[1] + p2 * u[2]) / spread;
    xy[3 * i + 1] = (p0 * w[0] + p1 * w[1] + p2 * w[2]) / spread;
    xy[3 * i + 2] = (p0 * d[0] + p1 * d[1] + p2 * d[2]) / spread;
  }
  const toWorld = (a: number, b: number, h: number): Vec3T => [0, 1, 2].map((k) => c[k] + spread * (a * u[k] + b * w[k] + h * d[k])) as Vec3T;
  return { n, xy, spread, toWorld };
}

/** A cylinder (`cone` false) or a cone about direction `d` (unit): centre, radius law and residual. */
export function fitRevolutionAbout(points: Float64Array, d: Vec3T, cone: boolean): RevolutionFit {
  const { n, xy, spread, toWorld } = projectAcross(points, d);
  // x² + y² = 2ax + 2by + k(h), k a polynomial in h (constant for a cylinder); a cone's
  // points on only two circles (one ring of facets) leave h² undetermined: then linear
  const centreFit = (unknowns: number) => n >= unknowns + 1 ? leastSquares(unknowns, n, (i, r) => {
    const x = xy[3 * i], y = xy[3 * i + 1], h = xy[3 * i + 2];
    r[0] = 2 * x; r[1] = 2 * y; r[2] = 1;
    if (unknowns > 3) r[3] = h;
    if (unknowns > 4) r[4] = h * h;
    return x * x + y * y;
  }) : null;
  const sol = cone ? centreFit(5) ?? centreFit(4) : centreFit(3);
  const failed: RevolutionFit = { kind: cone ? 'cone' : 'cylinder', origin: toWorld(0, 0, 0), direction: d, radius: 0, halfAngle: 0, slope: 0, residual: Infinity };
  if (sol === null) return failed;
  const [a, b] = sol;
  // radial distance as a straight line in height: r = r0 + t h (t = 0 for a cylinder)
  let sh = 0, sr = 0, shh = 0, shr = 0, hMin = Infinity, hMax = -Infinity;
  const rho = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const h = xy[3 * i + 2];
    rho[i] = Math.hypot(xy[3 * i] - a, xy[3 * i + 1] - b);
    sh += h; sr += rho[i]; shh += h * h; shr += h * rho[i];
    hMin = Math.min(hMin, h); hMax = Math.max(hMax, h);
  }
  const det = n * shh - sh * sh;
  const t = cone && det > 1e-12 * n * n ? (n * shr - sh * sr) / det : 0;
  const r0 = (sr - t * sh) / n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (rho[i] - r0 - t * xy[3 * i + 2]) ** 2;
  const hMid = (hMin + hMax) / 2;
  const residual = spread * rms(s, n) / Math.sqrt(1 + t * t);
  return {
    kind: cone ? 'cone' : 'cylinder', origin: toWorld(a, b, hMid), direction: d,
    radius: spread * (r0 + t * hMid), halfAngle: Math.atan(Math.abs(t)), slope: t,
    residual: Number.isFinite(residual) ? residual : Infinity,
  };
}

/**
 * A cylinder and a cone fitted to a region: the direction from the facets' normals (a
 * cylinder's are square to its axis, a cone's make one angle with it: the normals' scatter
 * about the origin, resp. about their mean, is least along the axis), the rest from the
 * vertices. `normals` are unit facet normals with their areas as `weights`.
 */
export function fitRevolution(points: Float64Array, normals: Float64Array, weights: Float64Array): [RevolutionFit, RevolutionFit] {
  const m = new Float64Array(9), mean = [0, 0, 0];
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    total += w;
    for (let j = 0; j < 3; j++) {
      mean[j] += w * normals[3 * i + j];
      for (let k = 0; k < 3; k++) m[3 * j + k] += w * normals[3 * i + j] * normals[3 * i + k];
    }
  }
  const values = new Float64Array(3), vectors = new Float64Array(9);
  symmetricEigen3(m, values, vectors);
  const cylinder = fitRevolutionAbout(points, row(vectors, 0), false);
  const centred = m.map((v, idx) => v - (total > 0 ? mean[Math.floor(idx / 3)] * mean[idx % 3] / total : 0));
  symmetricEigen3(centred, values, vectors);
  return [cylinder, fitRevolutionAbout(points, row(vectors, 0), true)];
}

export function fitCircle(points: Float64Array): CircleFit {
  const plane = fitPlane(points);
  const fit = fitRevolutionAbout(points, plane.normal, false);
  let s = 0;
  const n = points.length / 3;
  for (let i = 0; i < n; i++) {
    const d0 = points[3 * i] - fit.origin[0], d1 = points[3 * i + 1] - fit.origin[1], d2 = points[3 * i + 2] - fit.origin[2];
    const h = d0 * plane.normal[0] + d1 * plane.normal[1] + d2 * plane.normal[2];
    const rho = Math.sqrt(Math.max(d0 * d0 + d1 * d1 + d2 * d2 - h * h, 0));
    s += h * h + (rho - fit.radius) ** 2;
  }
  return { center: fit.origin, normal: plane.normal, radius: fit.radius, residual: n >= 3 ? rms(s, n) : Infinity };
}

/**
 * Gauss–Newton on the vertices' distances from a cylinder, from a first fit: the facet
 * normals give the direction only to the noise of one facet's tilt, the vertices pin it
 * down. Unknowns: the axis point across the axis (2), the direction's tilt (2), the
 * radius; the Jacobian is analytic (∂ρ/∂c = −ê, ∂ρ/∂tilt = −(q·d)(ê·u), ∂ρ/∂r = −1).
 */
export function refineCylinder(points: Float64Array, first: RevolutionFit, iterations = 4): RevolutionFit {
  if (!Number.isFinite(first.residual)) return first;
  let c: Vec3T = [...first.origin], d: Vec3T = [...first.direction], r = first.radius;
  const n = points.length / 3;
  const u: Vec3T = [0, 0, 0], w: Vec3T = [0, 0, 0];
  for (let it = 0; it < iterations; it++) {
    basisAcross(u, w, d);
    const x = leastSquares(5, n, (i, row) => {
      const q = [points[3 * i] - c[0], points[3 * i + 1] - c[1], points[3 * i + 2] - c[2]];
      const h = q[0] * d[0] + q[1] * d[1] + q[2] * d[2];
      const e = [q[0] - h * d[0], q[1] - h * d[1], q[2] - h * d[2]];
      const rho = Math.hypot(e[0], e[1], e[2]) || 1e-300;
      const eu = (e[0] * u[0] + e[1] * u[1] + e[2] * u[2]) / rho, ew = (e[0] * w[0] + e[1] * w[1] + e[2] * w[2]) / rho;
      row[0] = -eu; row[1] = -ew; row[2] = -h * eu; row[3] = -h * ew; row[4] = -1;
      return -(rho - r); // J δ = −f
    });
    if (x === null) break;
    c = [0, 1, 2].map((k) => c[k] + x[0] * u[k] + x[1] * w[k]) as Vec3T;
    const dn = [0, 1, 2].map((k) => d[k] + x[2] * u[k] + x[3] * w[k]);
    const l = Math.hypot(dn[0], dn[1], dn[2]);
    d = [dn[0] / l, dn[1] / l, dn[2] / l];
    r += x[4];
  }
  // the origin at the middle of the points' extent along the axis, the residual as fitted
  let lo = Infinity, hi = -Infinity, s = 0;
  for (let i = 0; i < n; i++) {
    const q = [points[3 * i] - c[0], points[3 * i + 1] - c[1], points[3 * i + 2] - c[2]];
    const h = q[0] * d[0] + q[1] * d[1] + q[2] * d[2];
    lo = Math.min(lo, h); hi = Math.max(hi, h);
    s += (Math.sqrt(Math.max(q[0] ** 2 + q[1] ** 2 + q[2] ** 2 - h * h, 0)) - r) ** 2;
  }
  const residual = rms(s, n);
  if (!(residual <= first.residual)) return first;
  const mid = (lo + hi) / 2;
  return { ...first, origin: [c[0] + mid * d[0], c[1] + mid * d[1], c[2] + mid * d[2]], direction: d, radius: r, residual };
}

/**
 * Whether facets face away from a sphere's centre as a sphere's would: the RMS sine of
 * the angle between each facet's normal and the line from the centre through its first
 * vertex is under 0.5 (30°). Two circles of a cylinder lie on a sphere too; their facets
 * do not face its centre.
 */
export function facesCentre(center: Vec3T, facetPoints: Float64Array, normals: Float64Array): boolean {
  let s = 0;
  const n = normals.length / 3;
  for (let i = 0; i < n; i++) {
    const v = [facetPoints[3 * i] - center[0], facetPoints[3 * i + 1] - center[1], facetPoints[3 * i + 2] - center[2]];
    const l = Math.hypot(v[0], v[1], v[2]) || 1;
    const cx = (v[1] * normals[3 * i + 2] - v[2] * normals[3 * i + 1]) / l;
    const cy = (v[2] * normals[3 * i] - v[0] * normals[3 * i + 2]) / l;
    const cz = (v[0] * normals[3 * i + 1] - v[1] * normals[3 * i]) / l;
    s += cx * cx + cy * cy + cz * cz;
  }
  return n > 0 && s / n < 0.25;
}
