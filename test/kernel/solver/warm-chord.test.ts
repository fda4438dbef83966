/**
 * A solve that starts where the last one ended reuses the last factorisation (a chord step)
 * when its group has no freedom left (kernel/solver/newton.ts): fewer QR factorisations, the
 * same solution to the solver's tolerance; a group with freedom left never does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { System } from '../../../kernel/system';
import { solve } from '../../../kernel/solver/solve';
import { PivotedQR } from '../../../kernel/linalg';
import * as P from '../../../kernel/pose';
import { PointOnPoint } from '../toyBlocks';
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { driveModel, solveModel, modelState } from '../../../src/model/operations';
import { fourBarDoc, rockerAngle } from '../../../examples/fourbar';

afterEach(() => { vi.restoreAllMocks(); });

describe('warm chord steps', () => {
  it('a four-bar drive in 1° steps factors about once per step (twice without) and reaches the cold solves\' states', () => {
    const model = buildModel(validateAssembly(fourBarDoc(30)));
    const factor = vi.spyOn(PivotedQR.prototype, 'factor');
    const { steps } = driveModel(model, 'jA.angle', 30, 90, 60);
    // a step's own solve: one full Newton step, chord steps before and after it
    expect(factor.mock.calls.length).toBeLessThanOrEqual(1.1 * 60);
    vi.restoreAllMocks();
    for (const k of [10, 37, 60]) {
      const cold = buildModel(validateAssembly(fourBarDoc(30)));
      expect(solveModel(cold, { set: { 'jA.angle': steps[k].value } }).status).toBe('solved');
      const a = JSON.stringify(modelState(cold)), b = JSON.stringify(steps[k].state);
      const numbers = (s: string) => (s.match(/-?\d+(\.\d+)?(e[-+]?\d+)?/g) ?? []).map(Number);
      const na = numbers(a), nb = numbers(b);
      expect(na.length).toBe(nb.length);
      // lengths in mm (the four-bar's links are ~100 mm), angles in degrees: the solver's tolerance is 1e-12 of the length scale
      na.forEach((x, i) => expect(Math.abs(x - nb[i])).toBeLessThan(1e-8));
    }
  });

  it('a full turn in 1° steps converges on chord chains: under one QR per three steps, each state on the closed form', () => {
    const model = buildModel(validateAssembly(fourBarDoc(30)));
    const factor = vi.spyOn(PivotedQR.prototype, 'factor');
    const L = model.system.lengthScale;
    let worstAngle = 0, sumAngle = 0;
    for (const step of driveModel(model, 'jA.angle', 30, 390, 360).steps) {
      expect(step.status).toBe('solved');
      const q = (step.state['rocker.pose'] as { rotation: number[] }).rotation;
      const d = Math.abs(2 * Math.atan2(q[3], q[0]) - rockerAngle((step.value * Math.PI) / 180));
      const error = Math.min(d, Math.abs(d - 2 * Math.PI));
      worstAngle = Math.max(worstAngle, error);
      sumAngle += error;
    }
    expect(factor.mock.calls.length).toBeLessThan(360 / 3);
    vi.restoreAllMocks();
    // the rows hold to the tolerance (1e-12 of the length scale; the links are about one
    // length scale long, so about 1e-12 rad), and the polished chains put the rocker closer on average
    expect(model.system.residualReport(1e-9).maxResidual / L).toBeLessThan(1e-12);
    expect(worstAngle).toBeLessThan(5e-12);
    expect(sumAngle / 361).toBeLessThan(1e-13);
  });

  it('a group with freedom left takes the minimum-norm Newton path every solve: bit for bit a cold solve\'s', () => {
    // a ball joint (three free turns, rank 3 of 6) at the end of a link: its rows turn with
    // the link, so a chord on an old factorisation would step elsewhere than the new one
    const ball = (): { system: System; link: number } => {
      const system = new System(1);
      const link = system.addPose('link', P.pose([-1, 0, 0], [1, 0, 0, 0]));
      system.addBlock(new PointOnPoint('ball', -1, [0, 0, 0], link, [1, 0, 0]));
      return { system, link };
    };
    const push = ({ system, link }: { system: System; link: number }, d: number) => {
      const q = Float64Array.from(system.getPose(link));
      q[0] += d; q[1] -= 0.5 * d; q[4] += 4 * d; q[5] -= 3 * d;
      system.setPose(link, q);
      expect(solve(system).converged).toBe(true);
    };
    const warm = ball();
    push(warm, 0.001);
    const between = Float64Array.from(warm.system.getPose(warm.link));
    push(warm, 0.002); // starts where the first solve ended, its factorisation kept
    // the same second solve in a fresh system (nothing to reuse)
    const cold = ball();
    cold.system.setPose(cold.link, between);
    push(cold, 0.002);
    expect(Array.from(cold.system.getPose(cold.link))).toEqual(Array.from(warm.system.getPose(warm.link)));
    expect(Math.hypot(...P.applyPoint(new Float64Array(3), warm.system.getPose(warm.link), [1, 0, 0]))).toBeLessThan(1e-9);
  });
});
