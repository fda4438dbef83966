/**
 * The continuation's polynomial predictor (`order`, kernel/continuation.ts): through the
 * last k + 1 accepted states it puts the next sub-step exactly on any path that is a
 * polynomial of degree k in each pose's body coordinates (here a screw motion whose angle
 * is a polynomial of the driven value) and in each scalar, at uneven steps; a lower degree
 * is off there by a power of the step.
 */
import { describe, expect, it } from 'vitest';
import { Continuation, MAX_PREDICTOR_ORDER } from '../../kernel/continuation';
import type { SolveReport } from '../../kernel/solver/solve';
import { System } from '../../kernel/system';
import { ArgumentError } from '../../kernel/errors';
import * as P from '../../kernel/pose';

const solved: SolveReport = { status: 'solved', converged: true, iterations: 1, maxResidual: 0, failed: [], atLimit: [], groups: 1, groupsSolved: 1 };
const twist = [0.3, -0.2, 0.9, 1.5, 0.4, -0.7];

/** Each sub-step's prediction error over a move through `targets`, with a corrector that puts each state on the exact path `angle(v)`. */
function predictionErrors(order: number, targets: number[], angle: (v: number) => number): number[] {
  const system = new System(1);
  const body = system.addPose('body', P.pose());
  const s = system.addScalar('s', 0);
  let v = 0;
  const exact = (value: number, out: Float64Array): void => { P.exp(out, twist.map((x) => x * angle(value))); };
  const put = (value: number): void => {
    const pose = new Float64Array(7);
    exact(value, pose);
    system.setPose(body, pose);
    system.setScalar(s, 1 - 2 * angle(value));
  };
  const errors: number[] = [];
  const want = new Float64Array(7);
  const path = new Continuation(system, (values) => { v = values[0]; }, [0], {
    order,
    branchGuard: false, // the first, unpredicted, sub-steps land far from where they start
    correct: () => {
      exact(v, want);
      errors.push(Math.max(P.poseDistance(system.getPose(body), want, 1), Math.abs(system.getScalar(s) - (1 - 2 * angle(v)))));
      put(v);
      return solved;
    },
  });
  put(0);
  path.restart([0]);
  for (const t of targets) expect(path.moveTo([t]).status).toBe('reached');
  expect(errors.length).toBe(targets.length);
  return errors;
}

describe('Continuation polynomial predictor', () => {
  const targets = [0.1, 0.25, 0.3, 0.42, 0.5, 0.53, 0.61];
  const quadratic = (v: number) => 0.2 * v + 0.5 * v * v;
  const cubic = (v: number) => 0.2 * v + 0.5 * v * v - 0.8 * v * v * v;
  it('of degree k puts each sub-step after the first k on a path of degree k, at uneven steps', () => {
    for (const e of predictionErrors(2, targets, quadratic).slice(2)) expect(e).toBeLessThan(1e-12);
    for (const e of predictionErrors(3, targets, cubic).slice(3)) expect(e).toBeLessThan(1e-12);
  });
  it('where a lower degree is off by a power of the step', () => {
    for (const e of predictionErrors(1, targets, quadratic).slice(2)) expect(e).toBeGreaterThan(1e-4);
    for (const e of predictionErrors(2, targets, cubic).slice(3)) expect(e).toBeGreaterThan(1e-5);
  });
  it('takes a degree from 1 to MAX_PREDICTOR_ORDER', () => {
    const system = new System(1);
    for (const order of [0, 1.5, MAX_PREDICTOR_ORDER + 1]) {
      expect(() => new Continuation(system, () => {}, [], { order })).toThrow(ArgumentError);
    }
  });
});
