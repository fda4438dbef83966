/**
 * When a time step's first Newton correction may be accepted without evaluating its result
 * (kernel/integrator/integrator.ts). A step is checked by evaluating the rows with their
 * Jacobian, the forces and the dynamic residual at the corrected state: about a third of a
 * step when one correction converges. A check changes no state, so a step accepted without
 * it is the very step the check would have accepted, unless the check would have failed.
 *
 * The prediction: the last checked step's first correction took its error e₀ (the larger of
 * |Φ| and the dynamic residual, each over its bound) to e₁; this step's e₀ is taken down
 * alike, linearly (e₁/e₀) and quadratically (e₁/e₀²). Both must land under MARGIN of the
 * bounds, e₀ itself must be moderate (a large start error, a kink in a road input, made the
 * contraction of the step before a poor guide: a quarter car's steps were then 1e5 over),
 * and every CHECK_EVERY-th step is checked, which keeps the contraction current and lets a
 * stale iteration matrix be found slow and refactored as before.
 *
 * CHECK_EVERY was 4; at 8 the audit that checks every step anyway (every example both Lie
 * groups over 3000 steps, the bump runs and the pendulum over 32000) finds no accepted step
 * that its check would have failed, and the largest error of an accepted one is the same as
 * at 4 (1.8e-3 of the bounds on the DW corner, 0.64 on the double pendulum on SE(3), both
 * met at 4 too): a check every 8 steps keeps the contraction as current as every 4 did.
 * Steps after one evaluation: DW corner bump 75 → 84 %, quarter car bump 72 → 77 %.
 */
const MARGIN = 0.01;
const START_MAX = 100;
const CHECK_EVERY = 8;

export class UncheckedSteps {
  private linear = Infinity;
  private quadratic = Infinity;
  /** Steps accepted in a row without a check. */
  private run = 0;

  /** Forget the last check (a new start, a failed step). */
  reset(): void { this.linear = Infinity; this.quadratic = Infinity; }

  /** A step's first correction took its error from e0 to e1 (both over their bounds). */
  observe(e0: number, e1: number): void { this.linear = e1 / e0; this.quadratic = e1 / (e0 * e0); }

  /** A checked step converged. */
  checked(): void { this.run = 0; }

  /** Whether a step whose error was e0 before its first correction is accepted after it without a check (counted when so). */
  accept(e0: number): boolean {
    if (!(this.run < CHECK_EVERY - 1 && e0 <= START_MAX && this.linear * e0 <= MARGIN && this.quadratic * e0 * e0 <= MARGIN)) return false;
    this.run++;
    return true;
  }
}
