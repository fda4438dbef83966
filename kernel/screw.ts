/**
 * Screw axis of a body's instantaneous motion (MATH.md, "Screw axis of a body's motion").
 *
 * Given positions p_i and rates r_i of points on one body, fit the rigid velocity field
 *
 *     r_i ≈ v + ω × d_i,   d_i = p_i − p̄,   p̄ the centroid,
 *
 * by least squares: minimise Σ |r_i − v − ω × d_i|².
 *
 * Derivation. Write ω × d = −[d]× ω, so the residual of point i is
 * e_i = r_i − v + [d_i]× ω. Setting the gradient to zero:
 *   ∂/∂v: Σ e_i = 0                 → n v = Σ r_i + [Σ d_i]× ω = Σ r_i   (Σ d_i = 0)
 *   ∂/∂ω: Σ [d_i]×ᵀ e_i = 0         → (Σ [d_i]×ᵀ [d_i]×) ω = Σ [d_i]× (r_i − v)
 *                                      = Σ d_i × (r_i − v)  (= Σ d_i × r_i)
 * with [d]×ᵀ[d]× = |d|² I − d dᵀ. So v is the mean rate, and ω solves the 3×3
 * "inertia" system 𝓘 ω = L, 𝓘 = Σ (|d_i|² I − d_i d_iᵀ), L = Σ d_i × (r_i − v).
 *
 * Numerics. Forming 𝓘 squares the conditioning, and the eigenvalues of the scatter
 * matrix Σ d dᵀ give the singular values of the centred positions only to about
 * √ε·σ₁ ≈ 1.5e-8·σ₁, which cannot resolve the 1e-10 collinearity threshold. So both
 * small problems are solved from their rows instead: Givens rotations stream each row
 * into a 3×3 upper triangle R (no per-point storage: Rᵀ R = AᵀA exactly in exact
 * arithmetic, backward stable in floating point), and a one-sided Jacobi SVD of R
 * (linalg.ts svd3) gives singular values accurate to ~ε·σ₁.
 *   - centred positions D (n×3, rows d_iᵀ)           → σ(D) for the collinearity test;
 *   - rotational design B (3n×3, blocks −[d_i]×) with right-hand side r_i − v
 *                                                     → ω = R⁻¹ Qᵀ b, the solution of 𝓘 ω = L
 *     (BᵀB = 𝓘, Bᵀb = L), and σ(B) for the rank test.
 *
 * Then: direction ω/|ω|, point p̄ + ω × v / |ω|² (the axis point closest to p̄), pitch
 * ω·v / |ω|², angular rate |ω|.
 *
 * A bad frame gets a status, never an exception. Everything is Float64 and allocation
 * free when `out` is passed (scratch lives at module level; not re-entrant, which is fine
 * for single-threaded JS).
 */

import { hyp, norm3, svd3 } from './linalg';
import { createScrewFit, extractAxis, SCREW_TOLERANCES, set3, setAllNaN, type ScrewFit, type ScrewStatus } from './screw-axis';

// The screw of a twist, the result type and the axis queries (screw-axis.ts), re-exported:
// this module is the screw's one entry.
export {
  closestPointOnAxis, createScrewFit, distanceToAxis, orientAxisUp, SCREW_TOLERANCES, screwFromTwist,
  type ScrewFit, type ScrewStatus, type Vec3Out,
} from './screw-axis';

const EPS = 2.220446049250313e-16;

// ---------------------------------------------------------------------------------------
// Module scratch (allocation-free hot path).

/** Upper triangle of the centred positions, 3×3 row-major. */
const rD = new Float64Array(9);
/** Upper triangle of the rotational design with right-hand side column, 3×4 row-major. */
const rB = new Float64Array(12);
/** One incoming row (up to 4 entries). */
const row = new Float64Array(4);
/** SVD work: matrix (3×3 row-major, overwritten with U·Σ), right vectors, singular values. */
const svdA = new Float64Array(9);
const svdV = new Float64Array(9);
const svdS = new Float64Array(3);
const solvedOmega = new Float64Array(3);

// ---------------------------------------------------------------------------------------
// Small numeric helpers.

/**
 * Rotate `row[0..cols)` into the upper triangle `r` (3 × cols, row-major) by Givens
 * rotations, so that afterwards rᵀr has gained rowᵀrow. Columns 0..2 are eliminated;
 * any further column (a right-hand side) is carried along.
 */
function givensAccumulate(r: Float64Array, cols: number): void {
  for (let k = 0; k < 3; k++) {
    const a = row[k];
    if (a === 0) continue;
    const kk = k * cols + k;
    const rkk = r[kk];
    const h = hyp(rkk, a);
    const c = rkk / h;
    const s = a / h;
    r[kk] = h;
    row[k] = 0;
    for (let j = k + 1; j < cols; j++) {
      const rj = r[k * cols + j];
      const aj = row[j];
      r[k * cols + j] = c * rj + s * aj;
      row[j] = c * aj - s * rj;
    }
  }
}

/**
 * Least-squares rigid-body fit of the point rates and extraction of its screw axis.
 *
 * `positions` and `rates` are packed xyz triples; the first `count` points are used
 * (a fractional count is floored; reading past the end of an array reads `undefined`
 * and yields 'non_finite'). Never throws on numeric input.
 *
 * Statuses, tested in this order:
 *  - insufficient_points: count < 3;
 *  - non_finite: count or a used input not finite;
 *  - degenerate_geometry: σ₂ ≤ 1e-10·σ₁ for the centred positions (collinear/coincident);
 *  - rank_deficient: σ_min ≤ 3n·ε·σ_max for the rotational design matrix B (numerical
 *    rank of the 3n×6 problem below six; the translational block is always full rank);
 *  - non_finite: an intermediate or result overflowed;
 *  - excessive_fit_error: maxResidual > max(1e-10, 1e-5·rmsRate);
 *  - near_pure_translation: |ω| ≤ 1e-8·rmsRate/rmsRadius.
 *
 * Fields on failure: the axis outputs (direction, point, pitch, angularRate) are NaN for
 * every status but 'valid'. Diagnostics that were computed before the failing test are
 * kept (centroid, rmsRate, rmsRadius and singularValues from the geometry test on; v
 * from the geometry test on; omega and maxResidual for excessive_fit_error and
 * near_pure_translation); everything not reached is NaN. A 'non_finite' status leaves
 * every numeric field NaN.
 */
export function fitScrewAxis(
  positions: ArrayLike<number>,
  rates: ArrayLike<number>,
  count: number,
  out: ScrewFit = createScrewFit(),
): ScrewFit {
  setAllNaN(out);
  out.count = 0;
  const n = usedCount(count, out);
  if (n < 0) return out;
  if (!means(positions, rates, n)) return failed(out, 'non_finite', false);
  accumulateRows(positions, rates, n);
  if (!fitGeometry(out, n)) return out;
  if (!solveOmega(out, n)) return out;
  const maxResidual = largestResidual(positions, rates, n);
  if (!Number.isFinite(maxResidual)) return failed(out, 'non_finite', true);
  set3(out.omega, solvedOmega[0], solvedOmega[1], solvedOmega[2]);
  out.maxResidual = maxResidual;
  return classify(out);
}

// The steps of fitScrewAxis, in order. Each reads the scratch the one before it left
// (module level, as above) and says whether the fit goes on; a step that ends it has set
// the status.

/** The centroid, mean rate and RMS rate of the last `means` pass: cx cy cz vx vy vz rmsRate. */
const mean = new Float64Array(7);

/** Ends the fit with `status`; `clear` empties every field first (a result that overflowed). */
function failed(out: ScrewFit, status: ScrewStatus, clear: boolean): ScrewFit {
  if (clear) setAllNaN(out);
  out.status = status;
  return out;
}

/** The number of points to use, or −1 with the status set (too few, or not finite). */
function usedCount(count: number, out: ScrewFit): number {
  if (Number.isNaN(count)) {
    out.status = 'non_finite';
    return -1;
  }
  if (!(count >= SCREW_TOLERANCES.minPoints)) {
    out.status = 'insufficient_points';
    out.count = count > 0 ? Math.floor(count) : 0;
    return -1;
  }
  if (!Number.isFinite(count)) {
    out.status = 'non_finite';
    return -1;
  }
  const n = Math.floor(count);
  out.count = n;
  return n;
}

/** Pass 1: finiteness, centroid, mean rate, RMS rate (scaled sum of squares) into `mean`; false on a value not finite. */
function means(positions: ArrayLike<number>, rates: ArrayLike<number>, n: number): boolean {
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let svx = 0;
  let svy = 0;
  let svz = 0;
  let rateScale = 0;
  let rateSsq = 1;
  for (let i = 0; i < n; i++) {
    const b = 3 * i;
    const px = positions[b];
    const py = positions[b + 1];
    const pz = positions[b + 2];
    const rx = rates[b];
    const ry = rates[b + 1];
    const rz = rates[b + 2];
    if (
      !Number.isFinite(px) ||
      !Number.isFinite(py) ||
      !Number.isFinite(pz) ||
      !Number.isFinite(rx) ||
      !Number.isFinite(ry) ||
      !Number.isFinite(rz)
    ) {
      return false;
    }
    sx += px;
    sy += py;
    sz += pz;
    svx += rx;
    svy += ry;
    svz += rz;
    // LAPACK-style scaled accumulation of Σ r², immune to over/underflow.
    for (let k = 0; k < 3; k++) {
      const a = Math.abs(k === 0 ? rx : k === 1 ? ry : rz);
      if (a === 0) continue;
      if (a > rateScale) {
        const q = rateScale / a;
        rateSsq = 1 + rateSsq * q * q;
        rateScale = a;
      } else {
        const q = a / rateScale;
        rateSsq += q * q;
      }
    }
  }
  mean[0] = sx / n;
  mean[1] = sy / n;
  mean[2] = sz / n;
  mean[3] = svx / n;
  mean[4] = svy / n;
  mean[5] = svz / n;
  mean[6] = rateScale === 0 ? 0 : rateScale * Math.sqrt(rateSsq / n);
  for (let k = 0; k < 7; k++) if (!Number.isFinite(mean[k])) return false;
  return true;
}

/** Pass 2: stream the centred positions into `rD` and the rotational design into `rB`. */
function accumulateRows(positions: ArrayLike<number>, rates: ArrayLike<number>, n: number): void {
  const cx = mean[0], cy = mean[1], cz = mean[2], vx = mean[3], vy = mean[4], vz = mean[5];
  rD.fill(0);
  rB.fill(0);
  for (let i = 0; i < n; i++) {
    const b = 3 * i;
    const dx = positions[b] - cx;
    const dy = positions[b + 1] - cy;
    const dz = positions[b + 2] - cz;
    const ex = rates[b] - vx;
    const ey = rates[b + 1] - vy;
    const ez = rates[b + 2] - vz;
    row[0] = dx;
    row[1] = dy;
    row[2] = dz;
    givensAccumulate(rD, 3);
    // Rows of −[d]× (ω × d = −[d]× ω) with right-hand side r − v.
    row[0] = 0;
    row[1] = dz;
    row[2] = -dy;
    row[3] = ex;
    givensAccumulate(rB, 4);
    row[0] = -dz;
    row[1] = 0;
    row[2] = dx;
    row[3] = ey;
    givensAccumulate(rB, 4);
    row[0] = dy;
    row[1] = -dx;
    row[2] = 0;
    row[3] = ez;
    givensAccumulate(rB, 4);
  }
}

/** Geometry: singular values of the centred positions, the diagnostics, the collinearity test. */
function fitGeometry(out: ScrewFit, n: number): boolean {
  svdA.set(rD);
  svd3(svdA, svdV, svdS);
  const s0 = svdS[0];
  const s1 = svdS[1];
  const s2 = svdS[2];
  const rmsRadius = norm3(s0, s1, s2) / Math.sqrt(n);
  if (!Number.isFinite(s0) || !Number.isFinite(rmsRadius)) {
    out.status = 'non_finite';
    return false;
  }
  set3(out.centroid, mean[0], mean[1], mean[2]);
  set3(out.v, mean[3], mean[4], mean[5]);
  set3(out.singularValues, s0, s1, s2);
  out.rmsRate = mean[6];
  out.rmsRadius = rmsRadius;
  if (s1 <= SCREW_TOLERANCES.collinearRelative * s0) {
    out.status = 'degenerate_geometry';
    return false;
  }
  return true;
}

/** Rotation: SVD of the rotational triangle, rank test, then ω = V Σ⁻¹ Uᵀ z into `solvedOmega`. */
function solveOmega(out: ScrewFit, n: number): boolean {
  for (let i = 0; i < 3; i++) {
    svdA[3 * i] = rB[4 * i];
    svdA[3 * i + 1] = rB[4 * i + 1];
    svdA[3 * i + 2] = rB[4 * i + 2];
  }
  const z0 = rB[3];
  const z1 = rB[7];
  const z2 = rB[11];
  svd3(svdA, svdV, svdS);
  const bMax = svdS[0];
  const bMin = svdS[2];
  if (!Number.isFinite(bMax)) {
    out.status = 'non_finite';
    return false;
  }
  if (!(bMin > 3 * n * EPS * bMax)) {
    out.status = 'rank_deficient';
    return false;
  }
  solvedOmega.fill(0);
  for (let k = 0; k < 3; k++) {
    const sk = svdS[k];
    // svdA column k is σ_k u_k: (u_k·z)/σ_k = (column·z)/σ_k².
    const proj = ((svdA[k] / sk) * z0 + (svdA[3 + k] / sk) * z1 + (svdA[6 + k] / sk) * z2) / sk;
    solvedOmega[0] += svdV[k] * proj;
    solvedOmega[1] += svdV[3 + k] * proj;
    solvedOmega[2] += svdV[6 + k] * proj;
  }
  if (!Number.isFinite(solvedOmega[0]) || !Number.isFinite(solvedOmega[1]) || !Number.isFinite(solvedOmega[2])) {
    failed(out, 'non_finite', true);
    return false;
  }
  return true;
}

/** Pass 3: the largest residual |r − v − ω × d| of the fit; NaN when one is not finite. */
function largestResidual(positions: ArrayLike<number>, rates: ArrayLike<number>, n: number): number {
  const cx = mean[0], cy = mean[1], cz = mean[2], vx = mean[3], vy = mean[4], vz = mean[5];
  const wx = solvedOmega[0], wy = solvedOmega[1], wz = solvedOmega[2];
  let maxResidual = 0;
  let residualFinite = true;
  for (let i = 0; i < n; i++) {
    const b = 3 * i;
    const dx = positions[b] - cx;
    const dy = positions[b + 1] - cy;
    const dz = positions[b + 2] - cz;
    const ex = rates[b] - vx - (wy * dz - wz * dy);
    const ey = rates[b + 1] - vy - (wz * dx - wx * dz);
    const ez = rates[b + 2] - vz - (wx * dy - wy * dx);
    const e = norm3(ex, ey, ez);
    if (!Number.isFinite(e)) residualFinite = false;
    else if (e > maxResidual) maxResidual = e;
  }
  return residualFinite ? maxResidual : NaN;
}

/** The last tests on a solved fit (fit error, pure translation) and the axis itself. */
function classify(out: ScrewFit): ScrewFit {
  const fitLimit = Math.max(
    SCREW_TOLERANCES.fitErrorAbsolute,
    SCREW_TOLERANCES.fitErrorRelative * out.rmsRate,
  );
  if (out.maxResidual > fitLimit) {
    out.status = 'excessive_fit_error';
    return out;
  }
  const rate = norm3(out.omega[0], out.omega[1], out.omega[2]);
  if (rate <= (SCREW_TOLERANCES.angularRateRelative * out.rmsRate) / out.rmsRadius) {
    out.status = 'near_pure_translation';
    return out;
  }
  if (!extractAxis(out)) return failed(out, 'non_finite', true);
  out.status = 'valid';
  return out;
}
