/**
 * A drag's stale factorisations on the sparse path (kernel/solver/factor-age.ts): a step
 * that needed a second refinement pass renews its factor for the next step, where the
 * renewed factor's first step took one pass (a slow drag); a fast drag, where any factor is
 * aged within a step, backs off. A slow drag of a long chain then solves each step in
 * about one pass, and lands where fresh factorisations put it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FactorAge, RENEW_BACKOFF } from '../../../kernel/solver/factor-age';
import { NormalEquations } from '../../../kernel/sparse';
import { solve, groupsOf } from '../../../kernel/solver/solve';
import type { SparseLinear } from '../../../kernel/solver/sparse';
import * as P from '../../../kernel/pose';
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { chainDoc } from '../../../examples/mechanisms/chain';

afterEach(() => { vi.restoreAllMocks(); });

describe('factor age', () => {
  it('renews an aged factor while renewing pays, else after RENEW_BACKOFF steps', () => {
    const paid = new FactorAge();
    expect(paid.used(1)).toBe(false); // the first step on it: one pass
    expect(paid.used(1)).toBe(false);
    expect(paid.used(2)).toBe(true); // aged
    paid.renewed();
    expect(paid.used(2)).toBe(false); // aged at once: renewing did not pay
    for (let s = 2; s < RENEW_BACKOFF; s++) expect(paid.used(2)).toBe(false);
    expect(paid.used(2)).toBe(true);
  });

  it('a slow drag of a 60-link chain: about one refinement pass a step, and the state fresh factorisations settle on', () => {
    const model = buildModel(validateAssembly(chainDoc({ n: 60, thetaDeg: 6 })));
    const tip = model.parts.get('link60')!;
    const p = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
    const frame = (f: number) => solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target: [p[0] - 0.3 + 0.3 * Math.cos(f / 20), p[1] + 0.3 * Math.sin(f / 20), 0] }] });
    for (let f = 0; f <= 6; f++) expect(frame(f).converged).toBe(true);
    const solves = vi.spyOn(NormalEquations.prototype, 'solve');
    const factors = vi.spyOn(NormalEquations.prototype, 'factor');
    for (let f = 7; f <= 30; f++) expect(frame(f).converged).toBe(true);
    // two drag steps and a restoring Newton step a frame, each a solve and its passes: 9 at two passes
    expect(solves.mock.calls.length / 24).toBeLessThan(7);
    expect(factors.mock.calls.length / 24).toBeLessThan(0.5);
    // the last frame again, every step on a fresh factorisation: it had settled there
    const sparse = groupsOf(model.system).groups[0].ws!.sparse as SparseLinear;
    Object.defineProperty(sparse, 'reuseFactors', { get: () => false, set: () => {} });
    const before = model.system.snapshot();
    expect(frame(30).converged).toBe(true);
    const after = model.system.snapshot();
    let diff = 0;
    for (let i = 0; i < before.length; i++) diff = Math.max(diff, Math.abs(before[i] - after[i]));
    expect(diff).toBeLessThan(1e-10 * model.system.lengthScale);
  });
});
