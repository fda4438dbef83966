/**
 * The Bennett linkage a = 1, α = 30°, b = √3, β = 60° (a/sin α = b/sin β = 2): one degree of
 * freedom from redundant but consistent loop rows, and the closure identity
 * tan(θ₁/2)·tan(θ₂/2) = sin((β+α)/2)/sin((β−α)/2) with θ₃ = 2π − θ₁, θ₄ = 2π − θ₂, under the
 * Denavit–Hartenberg convention documented in examples/mechanisms/bennett.ts.
 */
import { describe, expect, it } from 'vitest';
import { BENNETT, bennettDoc, bennettFrames, bennettK } from '../../examples/mechanisms/bennett';
import { norm, rotate, sub } from '../../examples/mechanisms/geometry';
import { dofModel, driveModel, solveModel } from '../../src/model/operations';
import { RAD, degDiff, load } from './helpers';

describe('Bennett linkage', () => {
  it('meets the Bennett condition, and its generator closes the loop', () => {
    const { a, alpha, b, beta } = BENNETT;
    expect(a / Math.sin(alpha)).toBeCloseTo(b / Math.sin(beta), 14);
    expect(bennettK()).toBeCloseTo(Math.sin(45 * RAD) / Math.sin(15 * RAD), 14);
    for (const deg of [10, 60, 135, 200, 330]) {
      const { F } = bennettFrames(deg * RAD);
      expect(norm(F[4].t)).toBeLessThan(1e-14);
      expect(norm(sub(rotate(F[4].q, [1, 0, 0]), [1, 0, 0]))).toBeLessThan(1e-14);
      expect(norm(sub(rotate(F[4].q, [0, 0, 1]), [0, 0, 1]))).toBeLessThan(1e-14);
    }
  });

  it('has one degree of freedom: redundant but consistent, solved, no conflict', () => {
    const model = load(bennettDoc(60));
    const solved = solveModel(model);
    expect(solved.status).toBe('solved');
    const d = dofModel(model);
    expect(d.dof).toBe(1);
    expect(d.redundant.length).toBeGreaterThan(0);
    expect(d.conflicting).toEqual([]);
  });

  it('driven a full turn of θ₁ in 1° steps keeps tan(θ₁/2)·tan(θ₂/2) = K, θ₃ = −θ₁, θ₄ = −θ₂', () => {
    const model = load(bennettDoc(60));
    const K = bennettK();
    const { steps } = driveModel(model, 'j1.angle', 60, 420, 360);
    expect(steps).toHaveLength(361);
    let worst = 0, tanChecked = 0;
    for (const step of steps) {
      expect(step.status).toBe('solved');
      const [t1, t2, t3, t4] = [1, 2, 3, 4].map((i) => (step.state[`j${i}.angle`] as number) * RAD);
      // the identity without its infinities: sin(θ₁/2) sin(θ₂/2) = K cos(θ₁/2) cos(θ₂/2)
      worst = Math.max(worst, Math.abs(Math.sin(t1 / 2) * Math.sin(t2 / 2) - K * Math.cos(t1 / 2) * Math.cos(t2 / 2)));
      const c1 = Math.cos(t1 / 2), c2 = Math.cos(t2 / 2);
      if (Math.abs(c1) > 0.1 && Math.abs(c2) > 0.1) {
        expect(Math.tan(t1 / 2) * Math.tan(t2 / 2)).toBeCloseTo(K, 8);
        tanChecked++;
      }
      expect(degDiff(t3 / RAD, -t1 / RAD)).toBeLessThan(1e-6);
      expect(degDiff(t4 / RAD, -t2 / RAD)).toBeLessThan(1e-6);
    }
    expect(worst).toBeLessThan(1e-9);
    expect(tanChecked).toBeGreaterThan(250);
    // the other sign (−K) would be the identity under a left-handed θ: not this convention
    const t1 = (steps[0].state['j1.angle'] as number) * RAD, t2 = (steps[0].state['j2.angle'] as number) * RAD;
    expect(Math.tan(t1 / 2) * Math.tan(t2 / 2)).toBeGreaterThan(0);
  });
});
