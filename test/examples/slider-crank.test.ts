/**
 * Slider-crank, r = 1, l = 3, centred (e = 0) and offset (e = 0.5), against
 * x = r cos θ + √(l² − (r sin θ − e)²); and a slide limit met during a drive.
 */
import { describe, expect, it } from 'vitest';
import { sliderCrankDoc, sliderPosition } from '../../examples/mechanisms/slider-crank';
import { dofModel, driveModel, solveModel } from '../../src/model/operations';
import { RAD, load } from './helpers';

describe('slider-crank', () => {
  for (const e of [0, 0.5]) {
    it(`e = ${e}: one degree of freedom, and a full crank turn in 1° steps follows the closed form`, () => {
      const model = load(sliderCrankDoc({ e, crankDeg: 0 }));
      expect(solveModel(model).status).toBe('solved');
      const d = dofModel(model);
      expect(d.dof).toBe(1);
      expect(d.conflicting).toEqual([]);
      const { steps } = driveModel(model, 'jA.angle', 0, 360, 360);
      expect(steps).toHaveLength(361);
      let worst = 0;
      for (const step of steps) {
        expect(step.status).toBe('solved');
        worst = Math.max(worst, Math.abs((step.state['jS.slide'] as number) - sliderPosition(step.value * RAD, 1, 3, e)));
      }
      expect(worst).toBeLessThan(1e-9);
    });
  }

  it('a drive that runs the slider into its limit stops there and says so', () => {
    // From θ = 90° (x = √8 ≈ 2.83) down to −90°: x grows past 3.8 near θ = 32°.
    const model = load(sliderCrankDoc({ crankDeg: 90, slideLimits: [2.2, 3.8] }));
    expect(solveModel(model).status).toBe('solved');
    const { steps } = driveModel(model, 'jA.angle', 90, -90, 36);
    const last = steps[steps.length - 1];
    // every step the limit allows is solved at its value, on the closed form, within the limit
    for (const step of steps.slice(0, -1)) {
      expect(step.status).toBe('solved');
      expect(sliderPosition(step.value * RAD)).toBeLessThanOrEqual(3.8);
      expect(step.state['jA.angle']).toBeCloseTo(step.value, 9);
      expect(Math.abs((step.state['jS.slide'] as number) - sliderPosition(step.value * RAD))).toBeLessThan(1e-9);
    }
    expect(steps.length).toBeLessThan(37); // the drive stopped
    // The contract for the first step past the limit: reported failed, not solved at its value;
    // the limit named in atLimit; the state is the last good one, at the limit, still assembled.
    expect(sliderPosition(last.value * RAD)).toBeGreaterThan(3.8);
    expect(last.value).toBeCloseTo(30, 9); // x(35°) = 3.764 < 3.8 < x(30°) = 3.824
    expect(last.status).toBe('failed');
    expect(last.atLimit).toContain('jS.slide');
    const crankDeg = last.state['jA.angle'] as number;
    const slide = last.state['jS.slide'] as number;
    expect(Math.abs(crankDeg - last.value)).toBeGreaterThan(1); // not at the driven value
    expect(crankDeg).toBeGreaterThan(30);
    expect(crankDeg).toBeLessThan(35);
    // exactly at the limit (bisected to round-off; before the kernel continuation it stopped
    // up to a halved sub-step short of it), still assembled
    expect(Math.abs(slide - 3.8)).toBeLessThan(1e-9);
    expect(Math.abs(slide - sliderPosition(crankDeg * RAD))).toBeLessThan(1e-9);
    expect(last.message).toMatch(/jS\.slide is limited to \[2\.2, 3\.8\]: the drive stops at the limit, jA\.angle = 3[0-4]\.\d+ \(asked for 30\)/);
  });
});
