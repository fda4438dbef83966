/**
 * The predictor's chart (kernel/predictor-chart.ts): each accepted state's poses in body
 * coordinates about a reference that moves on after a turn of REBASE_TURN. Through any
 * number of such moves, a degree-k predictor stays exact on a path of degree k in body
 * coordinates (a screw motion whose angle is a polynomial of the driven value), at uneven
 * steps and over several turns; and the chart keeps the four-bar drive's corrector short.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Continuation } from '../../kernel/continuation';
import { REBASE_TURN } from '../../kernel/predictor-chart';
import type { SolveReport } from '../../kernel/solver/solve';
import { DenseLinear } from '../../kernel/solver/dense';
import { PivotedQR } from '../../kernel/linalg';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { validateAssembly } from '../../src/assembly';
import { buildModel } from '../../src/model/build';
import { driveModel } from '../../src/model/operations';
import { fourBarDoc } from '../../examples/fourbar';

afterEach(() => { vi.restoreAllMocks(); });

const solved: SolveReport = { status: 'solved', converged: true, iterations: 1, maxResidual: 0, failed: [], atLimit: [], groups: 1, groupsSolved: 1 };
const twist = [0.3, -0.2, 0.9, 1.5, 0.4, -0.7];

/** Each sub-step's prediction error along the exact path exp(angle(v)·twist) (and a scalar 1 − 2·angle(v)). */
function predictionErrors(order: number, targets: number[], angle: (v: number) => number): number[] {
  const system = new System(1);
  const body = system.addPose('body', P.pose());
  const s = system.addScalar('s', 0);
  let v = 0;
  const want = new Float64Array(7);
  const put = (value: number): void => {
    P.exp(want, twist.map((x) => x * angle(value)));
    system.setPose(body, want);
    system.setScalar(s, 1 - 2 * angle(value));
  };
  const errors: number[] = [];
  const path = new Continuation(system, (values) => { v = values[0]; }, [0], {
    order,
    branchGuard: false,
    correct: () => {
      const got = Float64Array.from(system.getPose(body)), scalar = system.getScalar(s);
      put(v);
      errors.push(Math.max(P.poseDistance(got, want, 1), Math.abs(scalar - (1 - 2 * angle(v)))));
      return solved;
    },
  });
  put(0);
  path.restart([0]);
  for (const t of targets) expect(path.moveTo([t]).status).toBe('reached');
  return errors;
}

describe('predictor chart', () => {
  // uneven steps over several turns of the screw (|ω| ≈ 0.97 rad per unit of angle)
  const targets: number[] = [];
  for (let t = 0, i = 0; t < 12; i++) { t += 0.05 + 0.04 * ((i * 7) % 5) / 4; targets.push(t); }
  const cubic = (v: number) => 0.9 * v + 0.05 * v * v - 0.02 * v * v * v;
  const sextic = (v: number) => cubic(v) + 1e-5 * v ** 6;

  it('moves its reference many times on a long motion and stays exact on paths of the predictor\'s degree', () => {
    expect(Math.abs(cubic(12)) * 0.97).toBeGreaterThan(20 * REBASE_TURN); // the reference moves on at least 20 times
    for (const e of predictionErrors(3, targets, cubic).slice(3)) expect(e).toBeLessThan(1e-9);
    for (const e of predictionErrors(6, targets, sextic).slice(6)) expect(e).toBeLessThan(1e-9);
  });

  it('where a lower degree is off', () => {
    expect(Math.max(...predictionErrors(2, targets, cubic).slice(3))).toBeGreaterThan(1e-6);
  });

  it('keeps a four-bar drive in 1° steps to under 3.5 row evaluations and 0.2 factorisations a step (4.55 and 0.24 at degree 3)', () => {
    const model = buildModel(validateAssembly(fourBarDoc(30)));
    const rows = vi.spyOn(DenseLinear.prototype, 'assemble');
    const trials = vi.spyOn(DenseLinear.prototype, 'assembleTrial');
    const factor = vi.spyOn(PivotedQR.prototype, 'factor');
    const { steps } = driveModel(model, 'jA.angle', 30, 390, 360);
    expect(steps.every((s) => s.status === 'solved')).toBe(true);
    expect((rows.mock.calls.length + trials.mock.calls.length) / 361).toBeLessThan(3.5);
    expect(factor.mock.calls.length / 361).toBeLessThan(0.2);
  });
});
