/**
 * The fused retraction (kernel/pose.ts retract) and the rotation-only one of R³ × SO(3)
 * stepping (retractRotation) give bit for bit what exp and compose give: the solver and the
 * integrator's results must not move by a rounding when the hot path is rewritten.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as P from '../../kernel/pose';

const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
const twist = fc.tuple(finite(-2, 2), finite(-2, 2), finite(-2, 2), finite(-50, 50), finite(-50, 50), finite(-50, 50));
// a pose with a quaternion that need not be unit (as read from a file)
const pose = fc.tuple(finite(-500, 500), finite(-500, 500), finite(-500, 500), finite(0.2, 1), finite(-1, 1), finite(-1, 1), finite(-1, 1));

function reference(x: ArrayLike<number>, xi: ArrayLike<number>): Float64Array {
  return P.compose(new Float64Array(7), x, P.exp(new Float64Array(7), xi));
}

describe('retractions', () => {
  it('retract = compose(x, exp(δ)) bit for bit, at offsets and in place', () => {
    fc.assert(fc.property(pose, twist, (x, xi) => {
      const want = reference(x, xi);
      const out = P.retract(new Float64Array(7), x, xi);
      expect(Array.from(out)).toEqual(Array.from(want));
      // in place inside a state buffer, the step read at an offset
      const state = new Float64Array(12); state.set(x, 3);
      const steps = new Float64Array(9); steps.set(xi, 2);
      P.retract(state, state, steps, 3, 3, 2);
      expect(Array.from(state.subarray(3, 10))).toEqual(Array.from(want));
      expect([state[0], state[1], state[2], state[10], state[11]]).toEqual([0, 0, 0, 0, 0]);
    }), { numRuns: 300 });
  });

  it('retractRotation turns like a retraction by (ω, 0) and keeps the position exactly', () => {
    fc.assert(fc.property(pose, twist, (x, xi) => {
      const rotationOnly = [xi[0], xi[1], xi[2], 0, 0, 0];
      const want = reference(x, rotationOnly);
      const state = new Float64Array(9); state.set(x, 2);
      P.retractRotation(state, 2, [9, xi[0], xi[1], xi[2]], 1);
      expect(Array.from(state.subarray(5, 9))).toEqual(Array.from(want.subarray(3, 7)));
      expect(Array.from(state.subarray(2, 5))).toEqual([x[0], x[1], x[2]]);
    }), { numRuns: 300 });
  });
});
