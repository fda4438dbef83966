/**
 * Generalized-α on the Lie group (Arnold and Brüls), second order: αm = (2ρ∞ − 1)/(ρ∞ + 1),
 * αf = ρ∞/(ρ∞ + 1), γ = ½ + αf − αm, β = ¼(γ + ½)². ρ∞ = 1: no numerical damping.
 */
import { ArgumentError } from '../errors';
import type { IntegratorMethod, SchemeCoefficients, TimeScheme } from './scheme';

export class GeneralizedAlpha implements TimeScheme {
  readonly method: IntegratorMethod = 'generalized-alpha';
  readonly coefficients: Readonly<SchemeCoefficients>;
  betaP = 0;
  gammaP = 0;
  aP = 0;

  /** `rhoInf`: the spectral radius at infinite frequency, in [0, 1]. */
  constructor(rhoInf: number) {
    if (!(rhoInf >= 0 && rhoInf <= 1)) throw new ArgumentError('rhoInf', `expected a number in [0, 1], got ${rhoInf}`);
    const alphaM = (2 * rhoInf - 1) / (rhoInf + 1);
    const alphaF = rhoInf / (rhoInf + 1);
    const gamma = 0.5 + alphaF - alphaM;
    const beta = 0.25 * (gamma + 0.5) ** 2;
    this.coefficients = { alphaM, alphaF, gamma, beta, c1: 0.5 - beta };
  }

  /** The h of the ratios as last set (a run's steps are mostly of one size: nothing to set again). */
  private stepSize = NaN;

  setStep(h: number): void {
    if (h === this.stepSize) return;
    this.stepSize = h;
    const { alphaM: am, alphaF: af, gamma, beta } = this.coefficients;
    this.betaP = (1 - am) / (h * h * beta * (1 - af));
    this.gammaP = gamma / (h * beta);
    this.aP = 1 / (h * h * beta);
  }

  predict(h: number, v: Float64Array, vdot: Float64Array, a: Float64Array, step: Float64Array, n: number, guess: Float64Array | null = null): void {
    const { alphaM: am, alphaF: af, gamma, beta, c1 } = this.coefficients;
    for (let i = 0; i < n; i++) {
      const next = guess === null ? vdot[i] : guess[i];
      const aNew = (af * vdot[i] - am * a[i] + (1 - af) * next) / (1 - am);
      vdot[i] = next;
      step[i] = h * (v[i] + h * c1 * a[i] + h * beta * aNew);
      v[i] = v[i] + h * (1 - gamma) * a[i] + h * gamma * aNew;
      a[i] = aNew;
    }
  }
}
