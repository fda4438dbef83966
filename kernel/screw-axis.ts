/**
 * The screw of a rigid motion, whatever gave it (screw.ts): its result type and statuses,
 * the tolerances of the status tests, the axis read off a twist (ω and the velocity at a
 * reference point: direction, closest point, pitch, angular rate), `screwFromTwist` for a
 * twist known exactly, and the axis' small queries (turned up, closest point, distance).
 * The least-squares fit of point rates is screw.ts.
 */
import { norm3 } from './linalg';
export type ScrewStatus =
  | 'valid'
  | 'insufficient_points'
  | 'degenerate_geometry'
  | 'rank_deficient'
  | 'non_finite'
  | 'excessive_fit_error'
  | 'near_pure_translation';

/** A writable 3-vector (Float64Array, number[], ...). */
export interface Vec3Out {
  [index: number]: number;
}

export interface ScrewFit {
  status: ScrewStatus;
  /** Number of points used (0 for a screw built from a twist). */
  count: number;
  /** Angular velocity (rad per unit of the driving parameter). NaN unless the fit was solved. */
  omega: Float64Array;
  /** Velocity of the material point at `centroid`. */
  v: Float64Array;
  /** ω/|ω| (unoriented: the sign follows ω; see orientAxisUp). NaN unless valid. */
  direction: Float64Array;
  /** Point of the axis closest to `centroid`: p̄ + ω × v / |ω|². NaN unless valid. */
  point: Float64Array;
  /** Translation along the axis per radian: ω·v / |ω|². NaN unless valid. */
  pitch: number;
  /** |ω|. NaN unless valid. */
  angularRate: number;
  /** Largest per-point residual |r_i − v − ω × d_i|. NaN unless the fit was solved. */
  maxResidual: number;
  /** sqrt(mean |r_i|²). */
  rmsRate: number;
  /** sqrt(mean |d_i|²), d_i the centred positions. */
  rmsRadius: number;
  /** Reference point: the centroid p̄ of the positions (or the twist's reference point). */
  centroid: Float64Array;
  /** Singular values of the centred position matrix, descending. */
  singularValues: Float64Array;
}

/** Tolerances of the status tests (MATH.md). */
export const SCREW_TOLERANCES = Object.freeze({
  /** Fewer points than this: insufficient_points. */
  minPoints: 3,
  /** σ₂ ≤ this × σ₁ (centred positions): degenerate_geometry. */
  collinearRelative: 1e-10,
  /** maxResidual > max(fitErrorAbsolute, fitErrorRelative × rmsRate): excessive_fit_error. */
  fitErrorRelative: 1e-5,
  fitErrorAbsolute: 1e-10,
  /** |ω| ≤ this × rmsRate / rmsRadius: near_pure_translation. */
  angularRateRelative: 1e-8,
  /** |component| ≤ this × |direction|: component negligible in orientAxisUp. */
  orientEpsilon: 1e-12,
});

// ---------------------------------------------------------------------------------------
// Helpers (shared with the fit, screw.ts).

export function set3(out: Vec3Out, x: number, y: number, z: number): void {
  out[0] = x;
  out[1] = y;
  out[2] = z;
}

function setAxisNaN(out: ScrewFit): void {
  out.direction.fill(NaN);
  out.point.fill(NaN);
  out.pitch = NaN;
  out.angularRate = NaN;
}

export function setAllNaN(out: ScrewFit): void {
  setAxisNaN(out);
  out.omega.fill(NaN);
  out.v.fill(NaN);
  out.maxResidual = NaN;
  out.rmsRate = NaN;
  out.rmsRadius = NaN;
  out.centroid.fill(NaN);
  out.singularValues.fill(NaN);
}

function finite3(a: ArrayLike<number>): boolean {
  return Number.isFinite(a[0]) && Number.isFinite(a[1]) && Number.isFinite(a[2]);
}

/**
 * From ω, the velocity v of the reference point (out.centroid) and the reference point
 * itself, fill direction, point, pitch and angular rate. Returns false if ω vanishes
 * (no finite axis) or a result is not finite.
 */
export function extractAxis(out: ScrewFit): boolean {
  const w = out.omega;
  const v = out.v;
  const c = out.centroid;
  // Scale ω first so that |ω|² cannot under- or overflow.
  const m = Math.max(Math.abs(w[0]), Math.abs(w[1]), Math.abs(w[2]));
  if (!(m > 0) || !Number.isFinite(m)) return false;
  const wx = w[0] / m;
  const wy = w[1] / m;
  const wz = w[2] / m;
  const n2 = wx * wx + wy * wy + wz * wz; // in [1, 3]
  const n = Math.sqrt(n2);
  const rate = m * n;
  const inv = 1 / (n2 * m); // ω/|ω|² = (ŵ/m) / (|ŵ|²) with ŵ = ω/m
  const px = c[0] + (wy * v[2] - wz * v[1]) * inv;
  const py = c[1] + (wz * v[0] - wx * v[2]) * inv;
  const pz = c[2] + (wx * v[1] - wy * v[0]) * inv;
  const pitch = (wx * v[0] + wy * v[1] + wz * v[2]) * inv;
  if (
    !Number.isFinite(rate) ||
    !Number.isFinite(px) ||
    !Number.isFinite(py) ||
    !Number.isFinite(pz) ||
    !Number.isFinite(pitch)
  ) {
    return false;
  }
  set3(out.direction, wx / n, wy / n, wz / n);
  set3(out.point, px, py, pz);
  out.pitch = pitch;
  out.angularRate = rate;
  return true;
}

// ---------------------------------------------------------------------------------------
// Public API.

/** A fresh result object (all NaN, status 'insufficient_points'); reuse it as `out`. */
export function createScrewFit(): ScrewFit {
  const fit: ScrewFit = {
    status: 'insufficient_points',
    count: 0,
    omega: new Float64Array(3),
    v: new Float64Array(3),
    direction: new Float64Array(3),
    point: new Float64Array(3),
    pitch: NaN,
    angularRate: NaN,
    maxResidual: NaN,
    rmsRate: NaN,
    rmsRadius: NaN,
    centroid: new Float64Array(3),
    singularValues: new Float64Array(3),
  };
  setAllNaN(fit);
  return fit;
}

/**
 * The screw of a known rigid twist: angular velocity `omega` and `vAtOrigin`, the
 * velocity of the material point at the world origin (a point x moves at
 * vAtOrigin + ω × x). Outputs are expressed at `reference` (default the origin): `v` is
 * the velocity there, `centroid` is set to it and `point` is the axis point closest to
 * it, so passing a fit's centroid makes the two results directly comparable.
 *
 * Statuses: 'non_finite' (an input not finite, or a result overflowed),
 * 'near_pure_translation' (ω exactly zero: no finite axis), else 'valid'. maxResidual is
 * 0 (an exact twist); rmsRate, rmsRadius and singularValues are NaN (no points).
 */
export function screwFromTwist(
  omega: ArrayLike<number>,
  vAtOrigin: ArrayLike<number>,
  out: ScrewFit = createScrewFit(),
  reference?: ArrayLike<number>,
): ScrewFit {
  // Read everything first: the inputs may alias fields of `out`.
  const wx = omega[0];
  const wy = omega[1];
  const wz = omega[2];
  const ux = vAtOrigin[0];
  const uy = vAtOrigin[1];
  const uz = vAtOrigin[2];
  const cx = reference ? reference[0] : 0;
  const cy = reference ? reference[1] : 0;
  const cz = reference ? reference[2] : 0;
  setAllNaN(out);
  out.count = 0;
  if (
    !Number.isFinite(wx) ||
    !Number.isFinite(wy) ||
    !Number.isFinite(wz) ||
    !Number.isFinite(ux) ||
    !Number.isFinite(uy) ||
    !Number.isFinite(uz) ||
    !Number.isFinite(cx) ||
    !Number.isFinite(cy) ||
    !Number.isFinite(cz)
  ) {
    out.status = 'non_finite';
    return out;
  }
  const vx = ux + (wy * cz - wz * cy);
  const vy = uy + (wz * cx - wx * cz);
  const vz = uz + (wx * cy - wy * cx);
  if (!Number.isFinite(vx) || !Number.isFinite(vy) || !Number.isFinite(vz)) {
    out.status = 'non_finite';
    return out;
  }
  set3(out.omega, wx, wy, wz);
  set3(out.v, vx, vy, vz);
  set3(out.centroid, cx, cy, cz);
  out.maxResidual = 0;
  if (wx === 0 && wy === 0 && wz === 0) {
    out.status = 'near_pure_translation';
    return out;
  }
  if (!extractAxis(out)) {
    setAllNaN(out);
    out.status = 'non_finite';
    return out;
  }
  out.status = 'valid';
  return out;
}

/**
 * Turn an unsigned axis direction to point up: +z; if z is negligible
 * (|z| ≤ 1e-12·|direction|, i.e. 1e-12 for a unit vector) then +x; then +y.
 * Writes `out` (may alias `direction`) and returns it; zero components come out as +0.
 * A zero or non-finite direction is copied unchanged.
 */
export function orientAxisUp<T extends Vec3Out>(direction: ArrayLike<number>, out: T): T {
  const x = direction[0];
  const y = direction[1];
  const z = direction[2];
  const eps = SCREW_TOLERANCES.orientEpsilon * norm3(x, y, z);
  let flip = false;
  if (Math.abs(z) > eps) flip = z < 0;
  else if (Math.abs(x) > eps) flip = x < 0;
  else if (Math.abs(y) > eps) flip = y < 0;
  // 0 − x rather than −x, and x + 0: a zero component always comes out as +0.
  if (flip) set3(out, 0 - x, 0 - y, 0 - z);
  else set3(out, x + 0, y + 0, z + 0);
  return out;
}

/**
 * The point of the line (axisPoint, axisDirection) closest to `point`. The direction
 * need not be unit; a zero direction gives NaN. Writes `out` (may alias an input).
 */
export function closestPointOnAxis<T extends Vec3Out>(
  point: ArrayLike<number>,
  axisPoint: ArrayLike<number>,
  axisDirection: ArrayLike<number>,
  out: T,
): T {
  const ax = axisPoint[0];
  const ay = axisPoint[1];
  const az = axisPoint[2];
  const dx = axisDirection[0];
  const dy = axisDirection[1];
  const dz = axisDirection[2];
  const m = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
  const ux = dx / m;
  const uy = dy / m;
  const uz = dz / m;
  const t = ((point[0] - ax) * ux + (point[1] - ay) * uy + (point[2] - az) * uz) / (ux * ux + uy * uy + uz * uz);
  set3(out, ax + t * ux, ay + t * uy, az + t * uz);
  return out;
}

/** Distance from `point` to the line (axisPoint, axisDirection); direction need not be unit. */
export function distanceToAxis(
  point: ArrayLike<number>,
  axisPoint: ArrayLike<number>,
  axisDirection: ArrayLike<number>,
): number {
  const dx = axisDirection[0];
  const dy = axisDirection[1];
  const dz = axisDirection[2];
  const m = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
  const ux = dx / m;
  const uy = dy / m;
  const uz = dz / m;
  const ex = point[0] - axisPoint[0];
  const ey = point[1] - axisPoint[1];
  const ez = point[2] - axisPoint[2];
  const cx = ey * uz - ez * uy;
  const cy = ez * ux - ex * uz;
  const cz = ex * uy - ey * ux;
  return norm3(cx, cy, cz) / norm3(ux, uy, uz);
}
