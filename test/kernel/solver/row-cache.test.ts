/**
 * The sparse path's cache of its last evaluation (kernel/solver/row-cache.ts) keeps no copy:
 * it points at the buffers the evaluation wrote until something writes over them in place.
 * It must never hand back rows that were scaled or overwritten since.
 */
import { describe, expect, it, vi, afterEach } from 'vitest';
import { RowCache } from '../../../kernel/solver/row-cache';
import { solve, groupsOf } from '../../../kernel/solver/solve';
import * as P from '../../../kernel/pose';
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { chainDoc } from '../../../examples/mechanisms/chain';
import type { SparseLinear } from '../../../kernel/solver/sparse';

afterEach(() => { vi.restoreAllMocks(); });

describe('RowCache', () => {
  const state = Float64Array.of(1, 2, 3, 4);
  const slots = Int32Array.of(0, 2);

  it('answers at exactly the stored state, and from the buffers it was given', () => {
    const cache = new RowCache(slots);
    const c = Float64Array.of(0.5, -0.25), vals = Float64Array.of(1, 2, 3);
    cache.store(state, 1, c, 2, vals);
    expect(cache.holds(state, 1, true)).toBe(true);
    expect(cache.holds(state, 2, true)).toBe(false); // another length scale
    const moved = Float64Array.from(state); moved[2] += 1e-15;
    expect(cache.holds(moved, 1, true)).toBe(false);
    moved[2] = state[2]; moved[1] += 1; // a slot no block reads
    expect(cache.holds(moved, 1, true)).toBe(true);
    // into other buffers: the same numbers; into its own: nothing to do
    const c2 = new Float64Array(2), vals2 = new Float64Array(3);
    expect(cache.restore(c2, vals2)).toBe(2);
    expect(Array.from(c2)).toEqual([0.5, -0.25]);
    expect(Array.from(vals2)).toEqual([1, 2, 3]);
  });

  it('rows without J answer no request for J', () => {
    const cache = new RowCache(slots);
    cache.store(state, 1, Float64Array.of(1), 1, null);
    expect(cache.holds(state, 1, false)).toBe(true);
    expect(cache.holds(state, 1, true)).toBe(false);
  });

  it('forgets the evaluation when a buffer holding it is written in place, and follows a restore', () => {
    const cache = new RowCache(slots);
    const c = Float64Array.of(0.5), vals = Float64Array.of(1, 2);
    cache.store(state, 1, c, 1, vals);
    cache.touched(new Float64Array(1)); // another buffer: no matter
    expect(cache.holds(state, 1, true)).toBe(true);
    cache.touched(vals);
    expect(cache.holds(state, 1, false)).toBe(false);
    // after a restore into other buffers, those are the ones it watches
    cache.store(state, 1, c, 1, vals);
    const c2 = new Float64Array(1), vals2 = new Float64Array(2);
    cache.restore(c2, vals2);
    cache.touched(c); // the old buffer may be reused freely
    expect(cache.holds(state, 1, true)).toBe(true);
    cache.touched(c2);
    expect(cache.holds(state, 1, true)).toBe(false);
  });
});

describe('the sparse path with the cache', () => {
  it('keeps the raw rows through a normalisation, and evaluates again once they are written over', () => {
    const model = buildModel(validateAssembly(chainDoc({ n: 30, thetaDeg: 5 })));
    const tip = model.parts.get('link30')!;
    const p = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
    expect(solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target: [p[0] - 0.1, p[1] + 0.1, 0] }] }).converged).toBe(true);
    const g = groupsOf(model.system).groups[0];
    const lin = g.ws!.sparse as SparseLinear;
    const evaluate = vi.spyOn(model.system.block(g.blocks[0]), 'evaluate');
    const m = lin.assemble(true);
    expect(evaluate).not.toHaveBeenCalled(); // the frame ended here
    const raw = Float64Array.from(lin.c.subarray(0, m)), rawJ = Float64Array.from(lin.rows.vals);
    lin.normalise(); // scaled rows in the other buffers, swapped in
    expect(lin.rows.vals).not.toEqual(rawJ);
    lin.assemble(true); // the raw rows are still kept: no evaluation
    expect(evaluate).not.toHaveBeenCalled();
    expect(lin.c.subarray(0, m)).toEqual(raw);
    expect(lin.rows.vals).toEqual(rawJ);
    // normalised twice: the second writes over the buffers holding the raw rows
    lin.normalise();
    lin.normalise();
    lin.assemble(true);
    expect(evaluate).toHaveBeenCalledTimes(1);
    expect(lin.c.subarray(0, m)).toEqual(raw);
    expect(lin.rows.vals).toEqual(rawJ);
    // a trial at the same state (the other slot) is answered without evaluating, with the same numbers
    expect(lin.assembleTrial(true)).toBe(m);
    expect(evaluate).toHaveBeenCalledTimes(1);
    expect(lin.cTrial.subarray(0, m)).toEqual(raw);
  });
});
