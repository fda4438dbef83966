/**
 * When the sparse path renews a stale factorisation before it fails (kernel/solver/sparse.ts,
 * a drag's modified Newton). A step solved on a stale factor is refined against the current
 * Jacobian; a fresh enough factor needs one refinement pass (its first correction under
 * 1e-3 of the step), an aged one two or more. Each pass (J u, a factor solve, Jᵀ λ) of a
 * 100-link chain costs about a third of renewing the factor, so an aged factor is renewed
 * at the next step of its kind, where that pays: while a renewed factor's first step still
 * took one pass (the motion is slow against the factor's ageing). Where it did not (a fast
 * drag ages any factor within a step), renewing would only add factorisations, and an aged
 * factor is renewed only after RENEW_BACKOFF steps on it.
 */

/** Steps on one factor before an aged factor is renewed where renewing did not pay last time. */
export const RENEW_BACKOFF = 32;

export class FactorAge {
  /** Steps solved on the factor since it was made. */
  private steps = 0;
  /** Whether the first step on the last factor made was done in one pass. */
  private paid = true;

  /** A new factor was made. */
  renewed(): void {
    this.steps = 0;
  }

  /** A step was solved on the stale factor in `passes` refinement passes: whether to renew the factor before the next. */
  used(passes: number): boolean {
    this.steps++;
    if (this.steps === 1) this.paid = passes <= 1;
    return passes > 1 && (this.paid || this.steps >= RENEW_BACKOFF);
  }
}
