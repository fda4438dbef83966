/**
 * kernel/forces.ts: gravity on a moving pose is added straight into Q (GravityBlock.addWeight),
 * not written to a local block and scattered, and reads the caller's rotation matrix where given
 * (SharedTurns: the integrator's, made at the state already). Q must be the scatter's to the bit:
 * each block's values added once, in block order, to Q from +0.
 */
import { describe, expect, it } from 'vitest';
import { GravityBlock } from '../../kernel/mass';
import { ForceSet, type ForceBlock } from '../../kernel/forces';
import { System } from '../../kernel/system';
import { pose } from '../../kernel/pose';
import { toMatrix } from '../../kernel/quat';
import { rng } from '../util/rng';

function randomPose(r: () => number): Float64Array {
  const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5], s = Math.hypot(...q);
  return pose([r() * 200 - 100, r() * 200 - 100, r() * 200 - 100], q.map((x) => x / s));
}

describe('gravity added in place', () => {
  it('gives the scatter\'s Q to the bit, with its own rotations or the caller\'s', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = rng(seed);
      const system = new System(100);
      const ground = system.addPose('ground', pose(), { fixed: true });
      const a = system.addPose('a', randomPose(r)), s = system.addScalar('s', 0.3), b = system.addPose('b', randomPose(r));
      const body = (): { mass: number; centre: number[]; inertia: number[] } => ({ mass: 0.5 + r(), centre: [r() * 50, r() * 50, r() * 50], inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1] });
      const g = [r() * 100, r() * 100 - 50, -9806.65];
      /** A block on both bodies and the scalar (its Q lands on gravity's slots too: the order of the adds counts). */
      const coupling: ForceBlock = {
        owner: 'coupling', vars: [a, s, b],
        evaluate(state, offsets, _v, _t, Q) { for (let k = 0; k < 13; k++) Q[k] = Math.sin(k + state[offsets[1]]) * 1e3; },
      };
      const blocks: ForceBlock[] = [new GravityBlock('ga', a, body(), g), coupling, new GravityBlock('gb', b, body(), g), new GravityBlock('gg', ground, body(), g), new GravityBlock('ga2', a, body(), g)];
      const set = new ForceSet(system);
      for (const block of blocks) set.add(block);
      const n = set.size, zero = new Float64Array(n);
      // by hand: each block's local Q from evaluate, added at its slots in block order
      const want = new Float64Array(n), local = new Float64Array(13);
      blocks.forEach((block, i) => {
        block.evaluate(system.state, set.offsetsOf(i), new Float64Array(13), 0, local, null, null);
        set.slotsOf(i).forEach((slot, k) => { if (slot >= 0) want[slot] += local[k]; });
      });
      const Q = new Float64Array(n);
      set.assemble(zero, 0, Q, null, null);
      expect(Array.from(Q)).toEqual(Array.from(want));
      const offsets = Int32Array.of(system.variable(a).offset + 3, system.variable(b).offset + 3);
      const views = [toMatrix(new Float64Array(9), system.state, offsets[0]), toMatrix(new Float64Array(9), system.state, offsets[1])];
      const turns = { offsets, views };
      set.assemble(zero, 0, Q, null, null, false, turns);
      expect(Array.from(Q)).toEqual(Array.from(want));
      // the caller's matrices are what it reads: b's replaced by the identity moves b's slots alone
      views[1].set([1, 0, 0, 0, 1, 0, 0, 0, 1]);
      set.assemble(zero, 0, Q, null, null, false, turns);
      const bSlots = set.slotsOf(2);
      for (let i = 0; i < n; i++) {
        if (i >= bSlots[0] && i < bSlots[0] + 6) expect(Q[i]).not.toBe(want[i]);
        else expect(Q[i]).toBe(want[i]);
      }
    }
  });

  it('leaves K and C to the blocks\' own evaluation', () => {
    const system = new System(100);
    const a = system.addPose('a', randomPose(rng(3)));
    const set = new ForceSet(system);
    set.add(new GravityBlock('ga', a, { mass: 2, centre: [10, 0, 0], inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1] }, [0, 0, -9806.65]));
    const Q = new Float64Array(6), K = new Float64Array(36), local = new Float64Array(6), localK = new Float64Array(36);
    set.assemble(new Float64Array(6), 0, Q, K, null);
    set.blocks[0].evaluate(system.state, set.offsetsOf(0), new Float64Array(6), 0, local, localK, null);
    expect(Array.from(Q)).toEqual(Array.from(local).map((x) => 0 + x));
    expect(Array.from(K)).toEqual(Array.from(localK).map((x) => (x === 0 ? 0 : x)));
  });
});
