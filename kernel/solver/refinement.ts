/**
 * When the sparse path's iterative refinement of a step is done (kernel/solver/sparse.ts):
 * the passes it may take, on a fresh factor and on a stale one, and the verdict after each.
 */
/**
 * Iterative refinement of a sparse step: at most this many passes, and no more once a
 * correction is below 1e-6 of the step (each pass shrinks the error by about the relative
 * size of the first correction, so what remains is then below 1e-12 of the step).
 */
export const REFINE_PASSES = 4;
export const REFINE_TOLERANCE = 1e-6;
/**
 * A drag's modified Newton (reuseFactors): a step is first solved with the last
 * factorisation of its kind, refined against the current J (so the step is the same one
 * to the refinement's tolerance), in at most STALE_PASSES passes, each correction at most
 * STALE_CONTRACTION of the one before (of the step, for the first), and done once the
 * next correction at that rate would be under the refinement's tolerance; otherwise S is
 * factored anew. Across a drag frame's iterations, and from one frame to the next, the
 * state moves little and S with it.
 */
export const STALE_PASSES = 6;
export const STALE_CONTRACTION = 0.1;
// (A factor that needs two passes is renewed before it fails where that pays: factor-age.ts.)
/**
 * (A refinement loop counts its passes at the top of each, not in the loop's update: one
 * pass usually ends a step, so an update there ran first at the first step that needed two,
 * after V8 had optimised the loop without its type feedback, and sent the code back to the
 * interpreter mid-drag.)
 *
 * After a refinement pass that changed u by du (largest entry; uMax: u's), the last pass's
 * du being `last`: 1 when u is converged, −1 when a stale factor contracts too slowly to be
 * worth keeping, 0 to go on.
 */
export function refinementVerdict(du: number, uMax: number, last: number, stale: boolean): 1 | 0 | -1 {
  // every test computed first, whichever decides: a test first made mid-drag (a stale
  // factor's, after V8 optimised the refinement on fresh ones) deoptimised its caller
  const done = !(du > REFINE_TOLERANCE * uMax);
  const slow = !(du <= STALE_CONTRACTION * Math.min(last, uMax));
  // the next correction, at this pass's contraction (the first's: against the step), would be under the tolerance
  const next = du * (du / Math.min(last, uMax)) <= REFINE_TOLERANCE * uMax;
  if (done) return 1;
  if (!stale) return 0;
  if (slow) return -1;
  return next ? 1 : 0;
}

