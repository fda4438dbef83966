/**
 * A drag frame ends once its next step, at the rate its last two full steps contracted,
 * would be under the step tolerance (kernel/solver/newton.ts): the step that would only
 * confirm it (a factor solve and its refinement on the sparse path) is not taken. The
 * frame still ends where the pull is settled: solved again with the same pull, the state
 * moves by less than the step tolerance.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { solve, groupsOf } from '../../../kernel/solver/solve';
import { SparseLinear } from '../../../kernel/solver/sparse';
import { DenseLinear } from '../../../kernel/solver/dense';
import * as P from '../../../kernel/pose';
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { chainDoc } from '../../../examples/mechanisms/chain';
import { fourBarDoc } from '../../../examples/fourbar';
import type { Pull } from '../../../kernel/solver/options';
import type { System } from '../../../kernel/system';

afterEach(() => { vi.restoreAllMocks(); });

/** The largest change of any state number between two snapshots. */
function moved(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/**
 * Frames of a drag of `body`'s point (1, 0, 0) along an arc of radius 0.3, 1/40 rad a frame
 * (a pointer moving a few pixels a frame); drag steps per frame, and the most a repeat of a
 * frame moves the state.
 */
function dragFrames(system: System, body: number, linear: typeof SparseLinear | typeof DenseLinear, frames: number) {
  const p = P.applyPoint(new Float64Array(3), system.getPose(body), [1, 0, 0]);
  const pull = (f: number): Pull[] => [{ variable: body, point: [1, 0, 0], target: [p[0] - 0.3 + 0.3 * Math.cos(f / 40), p[1] + 0.3 * Math.sin(f / 40), 0] }];
  expect(solve(system, { pulls: pull(0) }).converged).toBe(true);
  const steps = vi.spyOn(linear.prototype, 'pulledStep');
  let repeatMoved = 0;
  for (let f = 1; f <= frames; f++) {
    const report = solve(system, { pulls: pull(f) });
    expect(report.converged).toBe(true);
    expect(report.maxResidual).toBeLessThan(1e-12 * system.lengthScale);
    if (f % 5 === 0) {
      // the same pull again: the frame had settled it
      const before = system.snapshot();
      const calls = steps.mock.calls.length;
      expect(solve(system, { pulls: pull(f) }).converged).toBe(true);
      repeatMoved = Math.max(repeatMoved, moved(before, system.snapshot()));
      steps.mock.calls.length = calls; // a repeat's steps are not the frames'
    }
  }
  return { stepsPerFrame: steps.mock.calls.length / frames, repeatMoved };
}

describe('drag frames', () => {
  it('on the sparse path (a 30-link chain): two drag steps a frame, not three, and the pull settled', () => {
    const model = buildModel(validateAssembly(chainDoc({ n: 30, thetaDeg: 5 })));
    const system = model.system;
    expect(groupsOf(system).groups[0].n).toBeGreaterThan(60); // the sparse path
    const { stepsPerFrame, repeatMoved } = dragFrames(system, model.parts.get('link30')!, SparseLinear, 20);
    expect(stepsPerFrame).toBeLessThanOrEqual(2);
    expect(repeatMoved).toBeLessThan(1e-10 * system.lengthScale);
  });

  it('on the dense path (a four-bar\'s coupler, whose steps contract about a hundredfold each): the pull settled', () => {
    const model = buildModel(validateAssembly({ ...fourBarDoc(30), held: [] }));
    const system = model.system;
    const { stepsPerFrame, repeatMoved } = dragFrames(system, model.parts.get('coupler')!, DenseLinear, 20);
    expect(stepsPerFrame).toBeGreaterThan(2); // a linear rate: the rule must not stop these early
    expect(repeatMoved).toBeLessThan(1e-10 * system.lengthScale);
  });
});
