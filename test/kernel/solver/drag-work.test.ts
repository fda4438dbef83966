/**
 * The work a drag frame on the sparse path leaves out (kernel/solver/sparse.ts): the drag
 * step's J H⁻¹ g multiplies only the blocks that touch the grabbed body's columns
 * (BlockRows.mulMarked), where H⁻¹ g lives, with mul's sums.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { BlockRows, type RowBlockPattern } from '../../../kernel/sparse';
import { SparseLinear } from '../../../kernel/solver/sparse';
import { solve } from '../../../kernel/solver/solve';
import * as P from '../../../kernel/pose';
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { chainDoc } from '../../../examples/mechanisms/chain';
import { rng } from '../../util/rng';

afterEach(() => { vi.restoreAllMocks(); });

/** A 30-link planar chain (the sparse path) and a drag of its tip along an arc. */
function chainDrag() {
  const model = buildModel(validateAssembly(chainDoc({ n: 30, thetaDeg: 5 })));
  const tip = model.parts.get('link30')!;
  const p = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
  const frame = (f: number) => solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target: [p[0] - 0.3 + 0.3 * Math.cos(f / 10), p[1] + 0.3 * Math.sin(f / 10), 0] }] });
  return { model, frame };
}

describe('a drag frame on the sparse path', () => {
  it('multiplies J H⁻¹ g by the grabbed body\'s blocks alone', () => {
    const { frame } = chainDrag();
    expect(frame(0).converged).toBe(true);
    const marked = vi.spyOn(BlockRows.prototype, 'mulMarked');
    const pulled = vi.spyOn(SparseLinear.prototype, 'pulledStep');
    for (let f = 1; f <= 5; f++) expect(frame(f).converged).toBe(true);
    expect(marked).toHaveBeenCalledTimes(pulled.mock.calls.length);
  });
});

/** Random block rows over n columns, some of whose entries (and of y's) are exact zeros. */
function randomRows(r: () => number, n: number): BlockRows {
  const patterns: RowBlockPattern[] = [];
  for (let k = 0; k < 12; k++) {
    const cols: number[] = [];
    for (let t = 0, w = 1 + Math.floor(r() * 6); t < w; t++) cols.push(Math.floor(r() * n));
    patterns.push({ rows: 1 + Math.floor(r() * 4), cols });
  }
  const J = new BlockRows(n, patterns);
  for (let i = 0; i < J.vals.length; i++) J.vals[i] = r() < 0.1 ? 0 : 2 * r() - 1;
  return J;
}

describe('BlockRows products', () => {
  it('mulT sums each column in row order (the sums of a row-by-row pass, bit for bit)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
      const r = rng(seed), n = 24, J = randomRows(r, n);
      const y = Float64Array.from({ length: J.m }, () => (r() < 0.2 ? 0 : 2 * r() - 1));
      const want = new Float64Array(n);
      for (let k = 0; k < J.blocks; k++) {
        const c0 = J.colPtr[k], w = J.colPtr[k + 1] - c0;
        for (let i = J.rowPtr[k], p = J.valPtr[k]; i < J.rowPtr[k + 1]; i++, p += w) {
          if (y[i] !== 0) for (let t = 0; t < w; t++) want[J.cols[c0 + t]] += J.vals[p + t] * y[i];
        }
      }
      const got = new Float64Array(n).fill(NaN);
      J.mulT(got, y);
      expect(Array.from(got)).toEqual(Array.from(want));
    }), { numRuns: 50 });
  });

  it('mulMarked is mul, bit for bit, for an x that is zero off the marked columns', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
      const r = rng(seed), n = 24, J = randomRows(r, n);
      const mark = new Int32Array(n).fill(-1), x = new Float64Array(n);
      const c0 = Math.floor(r() * (n - 6));
      for (let j = c0; j < c0 + 6; j++) { mark[j] = 0; x[j] = 2 * r() - 1; }
      const a = new Float64Array(J.m).fill(NaN), b = new Float64Array(J.m).fill(NaN);
      J.mul(a, x);
      J.mulMarked(b, x, mark);
      expect(Array.from(b)).toEqual(Array.from(a));
    }), { numRuns: 50 });
  });
});
