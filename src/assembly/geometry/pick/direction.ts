/**
 * A direction chosen from data, made the same however the noise fell (seed 004: "a
 * reference direction is not left to noise").
 *
 * The rule, in two steps:
 * 1. Components smaller than the fit's own uncertainty τ (times the length) are set to
 *    exactly zero and the rest renormalised: an axis fitted along z from a noisy mesh is
 *    exactly (0, 0, ±1), so the joint's reference direction (`across`: the world axis the
 *    axis runs least along, first on a tie) is x at both ends, not x or y as the noise fell.
 *    τ is clamped to [1e-9, 1e-2]: the turn this makes is within what the fit can tell.
 * 2. The sign: where the data orients it (a plane's normal points out of the material, by
 *    the facets' winding) that orientation; else the largest component is positive (the
 *    first of those within τ of the largest). Not "the first non-zero one": an axis in the
 *    y–z plane turned by a hair has a tiny x that the clean fit keeps and the noisy fit
 *    zeroes, and its sign would decide; the largest component is far from zero.
 * Noise can flip neither step unless a component lies within the noise of τ itself (or two
 * largest components of opposite sign tie within it: a sign rule for an undirected axis
 * must break somewhere, and a diagonal is rarer in parts than a coordinate plane).
 */
import type { Vec3T } from './vectors.ts';

export const MIN_DIRECTION_TOLERANCE = 1e-9;
export const MAX_DIRECTION_TOLERANCE = 1e-2;

/** The tolerance τ for a fit with this residual over a region this wide: 3 · residual / extent, clamped. */
export function directionTolerance(residual: number, extent: number): number {
  const t = extent > 0 && Number.isFinite(residual) ? (3 * residual) / extent : MAX_DIRECTION_TOLERANCE;
  return Math.min(MAX_DIRECTION_TOLERANCE, Math.max(MIN_DIRECTION_TOLERANCE, t));
}

/**
 * The canonical unit direction of `d` (any length) under the rule above. `orient`, where
 * given, picks the sign: the result has a non-negative dot product with it (when that dot
 * product is not ~0; else the component rule decides).
 */
export function canonicalDirection(d: Readonly<Vec3T>, tolerance: number, orient?: Readonly<Vec3T>): Vec3T {
  const len = Math.hypot(d[0], d[1], d[2]);
  const out: Vec3T = [d[0] / len, d[1] / len, d[2] / len];
  const tau = Math.min(MAX_DIRECTION_TOLERANCE, Math.max(MIN_DIRECTION_TOLERANCE, tolerance));
  for (let k = 0; k < 3; k++) if (Math.abs(out[k]) < tau) out[k] = 0;
  const l2 = Math.hypot(out[0], out[1], out[2]);
  for (let k = 0; k < 3; k++) out[k] /= l2;
  let sign = 0;
  if (orient) {
    const o = out[0] * orient[0] + out[1] * orient[1] + out[2] * orient[2];
    const ol = Math.hypot(orient[0], orient[1], orient[2]);
    if (Math.abs(o) > 1e-6 * ol) sign = Math.sign(o);
  }
  if (sign === 0) sign = Math.sign(out[largestComponent(out, tau)]) || 1;
  for (let k = 0; k < 3; k++) out[k] = sign * out[k] + 0; // + 0: no −0 in a saved file
  return out;
}

/** The index of the largest-magnitude component; the first of those within `tau` of it. */
function largestComponent(v: Readonly<Vec3T>, tau: number): number {
  const top = Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2]));
  for (let k = 0; k < 3; k++) if (Math.abs(v[k]) >= top - tau) return k;
  return 0;
}
