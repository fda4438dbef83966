/**
 * A drag on the sparse path (kernel/solver/sparse.ts): each frame starts where the last
 * ended, so its first evaluation is a copy of the last (RowCache), and its steps are solved
 * on the last factorisation of their kind, refined against the current Jacobian (a
 * modified Newton): S is factored again only when that converges slowly. The frames land
 * where fresh factorisations put them, to the refinement's tolerance.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NormalEquations } from '../../../kernel/sparse';
import { solve, groupsOf } from '../../../kernel/solver/solve';
import * as P from '../../../kernel/pose';
import { validateAssembly } from '../../../src/assembly';
import { buildModel, type Model } from '../../../src/model/build';
import { chainDoc } from '../../../examples/mechanisms/chain';
import type { SparseLinear } from '../../../kernel/solver/sparse';

afterEach(() => { vi.restoreAllMocks(); });

/** A 30-link planar chain (209 unknowns: the sparse path) and a drag of its tip along an arc. */
function chainDrag() {
  const model = buildModel(validateAssembly(chainDoc({ n: 30, thetaDeg: 5 })));
  const tip = model.parts.get('link30')!;
  const p = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
  const frame = (f: number) => solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target: [p[0] - 0.3 + 0.3 * Math.cos(f / 10), p[1] + 0.3 * Math.sin(f / 10), 0] }] });
  return { model, frame };
}
const sparseOf = (model: Model): SparseLinear => groupsOf(model.system).groups[0].ws!.sparse as SparseLinear;

describe('drags on the sparse path', () => {
  it('evaluate the blocks again only where the state moved', () => {
    const { model, frame } = chainDrag();
    expect(frame(1).converged).toBe(true);
    const lin = sparseOf(model);
    const g = groupsOf(model.system).groups[0];
    const block = model.system.block(g.blocks[0]);
    const evaluate = vi.spyOn(block, 'evaluate');
    const c0 = Float64Array.from(lin.c.subarray(0, lin.assemble(true)));
    expect(evaluate).not.toHaveBeenCalled(); // the frame ended here: a copy
    expect(Array.from(lin.c.subarray(0, c0.length))).toEqual(Array.from(c0));
    const v = g.vars[3], offset = model.system.variables[v].offset;
    model.system.state[offset] += 1e-6;
    lin.assemble(false);
    expect(evaluate).toHaveBeenCalledTimes(1);
    model.system.state[offset] -= 1e-6;
  });

  it('factor S a few times over 20 frames, and land where fresh factorisations do', () => {
    const a = chainDrag(), b = chainDrag();
    expect(a.frame(1).converged).toBe(true);
    expect(b.frame(1).converged).toBe(true);
    // b: every step on a new factorisation, as before the reuse
    Object.defineProperty(sparseOf(b.model), 'reuseFactors', { get: () => false, set: () => {} });
    const factor = vi.spyOn(NormalEquations.prototype, 'factor');
    let fresh = 0;
    for (let f = 2; f <= 21; f++) {
      const ra = a.frame(f);
      const before = factor.mock.calls.length;
      const rb = b.frame(f);
      fresh += factor.mock.calls.length - before;
      expect(ra.converged && rb.converged).toBe(true);
      expect(ra.maxResidual).toBeLessThan(1e-12 * a.model.system.lengthScale);
    }
    const reused = factor.mock.calls.length - fresh;
    expect(fresh).toBeGreaterThanOrEqual(3 * 20); // three drag steps and a restoring Newton step a frame
    expect(reused).toBeLessThanOrEqual(5);
    let diff = 0;
    const sa = a.model.system.state, sb = b.model.system.state;
    for (let i = 0; i < sa.length; i++) diff = Math.max(diff, Math.abs(sa[i] - sb[i]));
    // a drag stops where its step is under 1e-10 of the length scale; the frames agree to that
    expect(diff).toBeLessThan(1e-10 * a.model.system.lengthScale);
  });
});
