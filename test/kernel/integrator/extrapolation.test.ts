/**
 * A small system's extrapolated Newton start (kernel/integrator/extrapolation.ts): v̇ and λ
 * through the last four accepted steps. Lagrange through four values reproduces a cubic
 * exactly, with equal steps (the binomial weights) or not; on the pendulum (R³ × SO(3)) the
 * start lands close enough that its first correction is accepted unchecked on every step the
 * check interval allows, and each such step meets the bounds its check would have applied.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StartExtrapolation } from '../../../kernel/integrator/extrapolation';
import { parseAssembly } from '../../../src/assembly/load';
import { prepareSimulation } from '../../../src/mechanics/simulate';

/** A cubic in t per entry: c0 + c1 t + c2 t² + c3 t³ with the entry's own coefficients. */
const cubic = (c: number[], i: number, t: number): number => c[4 * i] + c[4 * i + 1] * t + c[4 * i + 2] * t * t + c[4 * i + 3] * t * t * t;

describe('the extrapolated start', () => {
  it('is exact for a cubic through four steps, equal or not (v̇ and λ alike)', () => {
    const coefficient = fc.double({ min: -10, max: 10, noNaN: true });
    fc.assert(fc.property(fc.array(coefficient, { minLength: 20, maxLength: 20 }), fc.array(fc.double({ min: 0.2, max: 2, noNaN: true }), { minLength: 4, maxLength: 4 }), fc.boolean(), (c, gaps, equal) => {
      const x = new StartExtrapolation(3, 2), vdot = new Float64Array(3), lambda = new Float64Array(2);
      let t = 0.3;
      for (let k = 0; k < 4; k++) {
        for (let i = 0; i < 3; i++) vdot[i] = cubic(c, i, t);
        for (let i = 0; i < 2; i++) lambda[i] = cubic(c, 3 + i, t);
        x.record(t, vdot, lambda);
        t += equal ? 0.5 : gaps[k];
      }
      expect(x.predict(t, vdot, lambda)).toBe(true);
      for (let i = 0; i < 3; i++) expect(vdot[i]).toBeCloseTo(cubic(c, i, t), 8);
      for (let i = 0; i < 2; i++) expect(lambda[i]).toBeCloseTo(cubic(c, 3 + i, t), 8);
    }));
  });

  it('gives no start from one state, a line from two', () => {
    const x = new StartExtrapolation(1, 1), a = new Float64Array(1), b = new Float64Array(1);
    x.record(0, Float64Array.of(1), Float64Array.of(2));
    expect(x.predict(1, a, b)).toBe(false);
    x.record(1, Float64Array.of(3), Float64Array.of(2));
    expect(x.predict(2, a, b)).toBe(true);
    expect([a[0], b[0]]).toEqual([5, 2]);
  });

  it('the pendulum: 7 of 8 steps after one evaluation (the check interval\'s most), each within the bounds its check applies', () => {
    const sim = prepareSimulation(parseAssembly(readFileSync('examples/pendulum.kinemate.json', 'utf8')), { lieGroup: 'R3xSO3' });
    // the check's own evaluation, as scripts/unchecked-audit.ts makes it (integrator internals by name)
    const it = sim.integrator as unknown as {
      step(h: number): boolean; iterations: number; t: number; v: Float64Array; vdot: Float64Array; lambda: Float64Array; size: number; forces: unknown;
      tolPhi: number; tolResidual: number; modelSize(): number; scheme: { gammaP: number; betaP: number };
      constraints: { evaluate(jacobian: boolean, select: boolean): void; maxPhi(): number; activeCount: number };
      lin: { residual(...a: unknown[]): number; maxResidual(): number };
    };
    const steps = 3000;
    let single = 0, worst = 0;
    for (let k = 0; k < steps; k++) {
      expect(it.step(0.001)).toBe(true);
      if (it.iterations !== 1) continue;
      single++;
      const c = it.constraints, lin = it.lin;
      c.evaluate(true, false);
      const phi = c.maxPhi();
      const scale = lin.residual(it.forces, false, it.v, it.vdot, it.lambda, c, it.t, it.size + c.activeCount, it.scheme.gammaP / it.scheme.betaP);
      worst = Math.max(worst, phi / (it.tolPhi * it.modelSize()), lin.maxResidual() / (it.tolResidual * scale));
    }
    // the held start (v̇ and λ of the step before) left 16 of 3000 after one evaluation
    expect(single).toBeGreaterThan(0.85 * steps);
    expect(worst).toBeLessThan(1e-2);
  });
});
