/**
 * Backward Euler: v_{n+1} = v_n + h v̇_{n+1}, q_{n+1} = q_n ∘ exp(h v_{n+1}). First order and
 * numerically damped: for comparison. (The Newmark family's αm = αf = 0, γ = β = 1: a = v̇.)
 */
import type { IntegratorMethod, SchemeCoefficients, TimeScheme } from './scheme';

export class BackwardEuler implements TimeScheme {
  readonly method: IntegratorMethod = 'backward-euler';
  readonly coefficients: Readonly<SchemeCoefficients> = { alphaM: 0, alphaF: 0, gamma: 1, beta: 1, c1: 0 };
  betaP = 0;
  gammaP = 0;
  aP = 0;

  setStep(h: number): void {
    this.betaP = 1 / (h * h);
    this.gammaP = 1 / h;
    this.aP = 1 / (h * h);
  }

  predict(h: number, v: Float64Array, vdot: Float64Array, a: Float64Array, step: Float64Array, n: number, guess: Float64Array | null = null): void {
    for (let i = 0; i < n; i++) {
      const aNew = guess === null ? vdot[i] : guess[i];
      vdot[i] = aNew;
      step[i] = h * (v[i] + h * aNew);
      v[i] = v[i] + h * aNew;
      a[i] = aNew;
    }
  }
}
