/**
 * A time-stepping method behind the integrator's Newton loop (kernel/integrator/integrator.ts):
 * what it predicts at the start of a step and how its variables move with a Newton correction.
 * The loop itself (rows, forces, the iteration matrix, halving) knows no method.
 *
 * Every method here is of the Newmark family on the Lie group: a step's increment
 * hΔq = h (v_n + h c1 a_n + h β a_{n+1}) and v_{n+1} = v_n + h (1 − γ) a_n + h γ a_{n+1},
 * with v̇ and a tied by (1 − αm) a_{n+1} + αm a_n = (1 − αf) v̇_{n+1} + αf v̇_n. The unknown is
 * hΔq (with λ): a correction dx of it moves v by γ' dx, v̇ by β' dx and a by a' dx.
 */
export type IntegratorMethod = 'generalized-alpha' | 'backward-euler';

export interface SchemeCoefficients { alphaM: number; alphaF: number; gamma: number; beta: number; c1: number }

export interface TimeScheme {
  readonly method: IntegratorMethod;
  readonly coefficients: Readonly<SchemeCoefficients>;
  /** The ratios of a step of size h (see `setStep`): v̇, v and a per unit of hΔq. */
  readonly betaP: number;
  readonly gammaP: number;
  readonly aP: number;
  /** Set β', γ', a' for a step of size h. */
  setStep(h: number): void;
  /**
   * The predictor: from v, v̇, a at the step's start (length n) and a guess of v̇_{n+1}
   * (`guess`; null: v̇_{n+1} = v̇_n), writes the increment hΔq into `step` and v, v̇, a at the
   * step's end in place (v̇ is kept when there is no guess).
   */
  predict(h: number, v: Float64Array, vdot: Float64Array, a: Float64Array, step: Float64Array, n: number, guess?: Float64Array | null): void;
}

/** The Newton correction dx of hΔq applied to v, v̇ and a (the ratios as last set). */
export function correct(scheme: TimeScheme, dx: Float64Array, v: Float64Array, vdot: Float64Array, a: Float64Array, n: number): void {
  const { gammaP, betaP, aP } = scheme;
  for (let i = 0; i < n; i++) {
    const d = dx[i];
    v[i] += gammaP * d;
    vdot[i] += betaP * d;
    a[i] += aP * d;
  }
}
