/**
 * Eccentric circle cam (R = 1, e = 0.3, 72 samples, closed smooth spline) with an in-line
 * roller follower (r = 0.25): the lift against y = e sin θ + √((R + r)² − e² cos² θ), through
 * more than a full turn (the foot parameter must run across the curve's seam).
 */
import { describe, expect, it } from 'vitest';
import { CAM, camDoc, followerLift, profileError } from '../../examples/mechanisms/cam';
import { dofModel, driveModel, solveModel } from '../../src/model/operations';
import { RAD, load } from './helpers';

describe('cam with a roller follower', () => {
  it('the sampled spline profile is within 1.4e-6 of the exact circle', () => {
    const err = profileError();
    console.log(`cam profile: 72-point Catmull–Rom spline strays ${err.toExponential(3)} from the circle (36 points: ${profileError(36).toExponential(3)})`);
    expect(err).toBeLessThan(1.4e-6);
    expect(err).toBeGreaterThan(1e-7); // a real approximation: the closed form below is only this good
    // fourth order in the spacing: half the samples, about sixteen times the error
    expect(profileError(36) / err).toBeGreaterThan(12);
    expect(profileError(36) / err).toBeLessThan(20);
  });

  it('one degree of freedom', () => {
    const model = load(camDoc(0));
    expect(solveModel(model).status).toBe('solved');
    const d = dofModel(model);
    expect(d.dof).toBe(1);
    expect(d.conflicting).toEqual([]);
  });

  it('driven 400° in 1° steps: the lift follows the closed form within the spline error, the foot wraps', () => {
    const model = load(camDoc(0));
    const bound = 1.5 * profileError();
    const { steps } = driveModel(model, 'jCam.angle', 0, 400, 400);
    expect(steps).toHaveLength(401);
    // Where the roller touches the exact circle, in the cam's frame: along the line from the
    // cam's centre to the roller's centre; sample i sits at 5°·i, so u ≈ that angle / 5°.
    const contactAngle = (theta: number) => {
      const c = [CAM.e * Math.cos(theta), CAM.e * Math.sin(theta)];
      return Math.atan2(followerLift(theta) - c[1], -c[0]) - theta; // unwrapped: continuous in θ
    };
    const spacing = (2 * Math.PI) / CAM.samples;
    const u0 = steps[0].state['contact.u'] as number;
    let worst = 0, worstU = 0, previousU: number | null = null;
    for (const step of steps) {
      expect(step.status).toBe('solved');
      worst = Math.max(worst, Math.abs((step.state['jF.slide'] as number) - followerLift(step.value * RAD)));
      const u = step.state['contact.u'] as number;
      worstU = Math.max(worstU, Math.abs(u - u0 - (contactAngle(step.value * RAD) - contactAngle(0)) / spacing));
      if (previousU !== null) {
        // the contact runs clockwise round the cam as the cam turns counter-clockwise: u falls,
        // by about one sample per 5°, smoothly (no stop and no jump at the seam u = 0 ≡ 72)
        expect(u - previousU).toBeLessThan(0);
        expect(u - previousU).toBeGreaterThan(-0.5);
      }
      previousU = u;
    }
    console.log(`cam: worst lift error ${worst.toExponential(3)} (bound ${bound.toExponential(3)}); foot parameter within ${worstU.toExponential(2)} of the contact angle / 5°`);
    expect(worst).toBeLessThan(bound);
    // the foot tracks the contact point round and round: past the seam, unwrapped
    expect(worstU).toBeLessThan(1e-3);
    expect(steps[400].state['contact.u'] as number).toBeLessThan(-50);
  });
});
