/**
 * The integrator's methods, each a class behind TimeScheme (kernel/integrator/scheme.ts):
 * their coefficients against the closed forms, their predictor exact for a constant
 * acceleration in a vector space, and a Newton correction keeping the scheme's relations.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GeneralizedAlpha } from '../../../kernel/integrator/generalized-alpha';
import { BackwardEuler } from '../../../kernel/integrator/backward-euler';
import { correct } from '../../../kernel/integrator/scheme';

describe('integrator schemes', () => {
  it('generalized-α with ρ∞ = 1 is the trapezoidal rule (αm = αf = γ = ½, β = ¼); ρ∞ = 0 damps the most', () => {
    expect(new GeneralizedAlpha(1).coefficients).toEqual({ alphaM: 0.5, alphaF: 0.5, gamma: 0.5, beta: 0.25, c1: 0.25 });
    const c = new GeneralizedAlpha(0).coefficients;
    expect(c.alphaM).toBe(-1); expect(c.alphaF).toBe(0); expect(c.gamma).toBe(1.5); expect(c.beta).toBe(1);
    expect(() => new GeneralizedAlpha(1.5)).toThrow(/rhoInf/);
  });

  it('a constant acceleration: generalized-α moves by h v + ½ h² a, backward Euler by h v + h² a; both reach v + h a', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: 1e-4, max: 0.1, noNaN: true }), (rho, v0, acc, h) => {
      for (const [scheme, k] of [[new GeneralizedAlpha(rho), 0.5], [new BackwardEuler(), 1]] as const) {
        const v = Float64Array.of(v0), vdot = Float64Array.of(acc), a = Float64Array.of(acc), step = new Float64Array(1);
        scheme.predict(h, v, vdot, a, step, 1);
        const tol = 1e-12 * (Math.abs(v0) + Math.abs(acc) + 1);
        expect(Math.abs(step[0] - (h * v0 + k * h * h * acc))).toBeLessThanOrEqual(tol);
        expect(Math.abs(v[0] - (v0 + h * acc))).toBeLessThanOrEqual(tol);
        expect(Math.abs(a[0] - acc)).toBeLessThanOrEqual(1e-14 * (Math.abs(acc) + 1e-300));
      }
    }));
  });

  it('a correction dx of h Δq moves v by γ\' dx, v̇ by β\' dx and a by a\' dx, the ratios of the step\'s relations', () => {
    const h = 1e-3;
    for (const scheme of [new GeneralizedAlpha(0.7), new BackwardEuler()]) {
      const { alphaM: am, alphaF: af, gamma, beta } = scheme.coefficients;
      scheme.setStep(h);
      // h Δq = … + h² β a_{n+1}: d(a) = dx / (h² β); v = … + h γ a_{n+1}; (1 − αm) a = (1 − αf) v̇ + …
      expect(scheme.aP).toBeCloseTo(1 / (h * h * beta), 6);
      expect(scheme.gammaP).toBeCloseTo(gamma * h * scheme.aP, 6);
      expect(scheme.betaP).toBeCloseTo(((1 - am) / (1 - af)) * scheme.aP, 6);
      const v = Float64Array.of(1, 2), vdot = Float64Array.of(3, 4), a = Float64Array.of(5, 6);
      correct(scheme, Float64Array.of(1e-6, -2e-6), v, vdot, a, 2);
      expect(v[1] - 2).toBeCloseTo(-2e-6 * scheme.gammaP, 12);
      expect(vdot[0] - 3).toBeCloseTo(1e-6 * scheme.betaP, 6);
      expect(a[1] - 6).toBeCloseTo(-2e-6 * scheme.aP, 6);
    }
  });
});
