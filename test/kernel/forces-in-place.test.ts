/**
 * kernel/forces.ts: for Q alone the springs, bushings and tyres add their Q straight into the
 * set's and read their velocities from the set's (ForceBlock.addForces) where every slot of
 * theirs is free, rather than through a gathered velocity, a local Q and its scatter. Q must be
 * the scatter's to the bit: each block's values added once, in block order, to Q from +0;
 * blocks on a fixed part keep the scatter.
 */
import { describe, expect, it } from 'vitest';
import { GravityBlock } from '../../kernel/mass';
import { ForceSet, type ForceBlock } from '../../kernel/forces';
import { System } from '../../kernel/system';
import { pose } from '../../kernel/pose';
import { toMatrix } from '../../kernel/quat';
import { BushingForce, LinearLaw, PointToPointForce, TyreForce } from '../../mates/forces';
import { rng } from '../util/rng';

function randomPose(r: () => number, z: number): Float64Array {
  const q = [1, (r() - 0.5) * 0.2, (r() - 0.5) * 0.2, (r() - 0.5) * 0.2], s = Math.hypot(...q);
  return pose([r() * 200 - 100, r() * 200 - 100, z], q.map((x) => x / s));
}

/** Every element kind on moving parts (direct), and on a fixed one (scattered), with gravity and a block sharing their slots. */
function model(seed: number): { system: System; set: ForceSet; blocks: ForceBlock[] } {
  const r = rng(seed), vec = (k: number) => [r() * k - k / 2, r() * k - k / 2, r() * k - k / 2];
  const system = new System(100);
  const ground = system.addPose('ground', pose(), { fixed: true });
  const chassis = system.addPose('chassis', randomPose(r, 400)), arm = system.addPose('arm', randomPose(r, 200));
  const wheel = system.addPose('wheel', randomPose(r, 290)), road = system.addPose('road', randomPose(r, 0));
  const s = system.addScalar('s', 0.3);
  const frame = [1, 0, 0, 0];
  const law = () => new LinearLaw(50 + r() * 50, 100 + r() * 100, r() * 10);
  const blocks: ForceBlock[] = [
    new GravityBlock('g', chassis, { mass: 1, centre: vec(50), inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1] }, [0, 0, -9806.65]),
    new PointToPointForce('spring', chassis, vec(50), arm, vec(50), law(), law()),
    new BushingForce('bushing', chassis, vec(50), frame, arm, vec(50), frame, [800, 900, 1000], [5e5, 6e5, 7e5], [2, 3, 4], [50, 60, 70]),
    // on the road (its contact below the road's point), and on the plane z = 0 off the ground
    new TyreForce('tyre', wheel, vec(5), [0, 1, 0.01], 300, 200, 1.5, 0, { body: road, point: [0, 0, 20] }),
    new TyreForce('lifted', wheel, vec(5), [0, 1, 0], 250, 200, 1.5, -100),
    // a block on the same slots and the scalar: the order of the adds counts
    { owner: 'coupling', vars: [chassis, s, wheel], evaluate(state, offsets, v, _t, Q) { for (let k = 0; k < 13; k++) Q[k] = Math.sin(k + state[offsets[1]] + v[k]) * 1e3; } },
    new PointToPointForce('to ground', ground, vec(50), arm, vec(50), law(), law()),
    new TyreForce('on a fixed road', wheel, vec(5), [0, 1, 0], 300, 200, 1.5, 0, { body: ground, point: [0, 0, 0] }),
    new BushingForce('moving', arm, vec(50), frame, wheel, vec(50), frame, [800, 900, 1000], [5e5, 6e5, 7e5], [2, 3, 4], [50, 60, 70]),
  ];
  const set = new ForceSet(system);
  for (const block of blocks) set.add(block);
  return { system, set, blocks };
}

/** By hand: each block's own Q from evaluate at its gathered velocities, added at its slots in block order. */
function scattered(system: System, set: ForceSet, blocks: ForceBlock[], velocity: Float64Array): Float64Array {
  const want = new Float64Array(set.size), local = new Float64Array(13), v = new Float64Array(13);
  blocks.forEach((block, i) => {
    const slots = set.slotsOf(i);
    slots.forEach((slot, k) => { v[k] = slot < 0 ? 0 : velocity[slot]; });
    block.evaluate(system.state, set.offsetsOf(i), v, 0, local, null, null);
    slots.forEach((slot, k) => { if (slot >= 0) want[slot] += local[k]; });
  });
  return want;
}

describe('force elements added in place', () => {
  it('give the scatter\'s Q to the bit, moving and at rest', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { system, set, blocks } = model(seed);
      const r = rng(100 + seed), n = set.size;
      for (const velocity of [new Float64Array(n), Float64Array.from({ length: n }, () => r() - 0.5)]) {
        const want = scattered(system, set, blocks, velocity);
        const Q = new Float64Array(n).fill(NaN);
        set.assemble(velocity, 0, Q, null, null);
        for (let i = 0; i < n; i++) expect(Object.is(Q[i], want[i]), `seed ${seed} slot ${i}: ${Q[i]} against ${want[i]}`).toBe(true);
        // the scatter's values are not all zero: the elements pushed
        expect(want.some((x, i) => x !== 0 && i >= 6)).toBe(true);
      }
    }
  });

  it('read the caller\'s rotations where given (SharedTurns), with the same Q', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const { system, set, blocks } = model(seed);
      const r = rng(200 + seed), n = set.size, velocity = Float64Array.from({ length: n }, () => r() - 0.5);
      const moving = system.variables.filter((v) => v.kind === 'pose' && !v.fixed);
      const offsets = Int32Array.from(moving, (v) => v.offset + 3);
      const views = moving.map((v) => toMatrix(new Float64Array(9), system.state, v.offset + 3));
      const want = scattered(system, set, blocks, velocity), Q = new Float64Array(n);
      set.assemble(velocity, 0, Q, null, null, false, { offsets, views });
      for (let i = 0; i < n; i++) expect(Object.is(Q[i], want[i]), `seed ${seed} slot ${i}`).toBe(true);
      // the arm's matrix replaced by the identity: the spring's and the bushings' slots on the arm move, the road's and the chassis' gravity do not
      views[moving.findIndex((v) => v.name === 'arm')].set([1, 0, 0, 0, 1, 0, 0, 0, 1]);
      set.assemble(velocity, 0, Q, null, null, false, { offsets, views });
      const arm = set.slotsOf(1)[6], road = set.slotsOf(3)[6];
      expect(Q.subarray(arm, arm + 6).some((x, k) => x !== want[arm + k])).toBe(true);
      for (let k = 0; k < 6; k++) expect(Q[road + k]).toBe(want[road + k]);
    }
  });

  it('take the direct route only where every slot of theirs is free, and not for K and C', () => {
    const { system, set, blocks } = model(3);
    const n = set.size, velocity = new Float64Array(n).fill(0.1), Q = new Float64Array(n);
    const calls = blocks.map(() => 0);
    blocks.forEach((block, i) => {
      const evaluate = block.evaluate.bind(block);
      block.evaluate = (...args) => { calls[i]++; evaluate(...args); };
    });
    set.assemble(velocity, 0, Q, null, null);
    // gravity adds its weight, springs/bushings/tyres on free parts add theirs: only the coupling and the fixed parts' elements evaluate
    expect(calls).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 0]);
    set.assemble(velocity, 0, Q, new Float64Array(n * n), new Float64Array(n * n));
    expect(calls).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 1]);
    // the road's tyre pushes, the lifted one does not
    expect((blocks[3] as TyreForce).last.force).toBeGreaterThan(0);
    expect((blocks[4] as TyreForce).last.force).toBe(0);
    expect(system.variables.length).toBe(6);
  });

  it('leave a subclass\'s own evaluate to the set (its Q by its own code)', () => {
    const system = new System(100);
    const a = system.addPose('a', randomPose(rng(5), 100)), b = system.addPose('b', randomPose(rng(6), 300));
    class Doubled extends PointToPointForce {
      override evaluate(state: Float64Array, offsets: Int32Array, v: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null): void {
        super.evaluate(state, offsets, v, t, Q, K, C);
        for (let k = 0; k < 12; k++) Q[k] *= 2;
      }
    }
    const plain = new PointToPointForce('plain', a, [1, 2, 3], b, [4, 5, 6], new LinearLaw(80, 150), null);
    const doubled = new Doubled('doubled', a, [1, 2, 3], b, [4, 5, 6], new LinearLaw(80, 150), null);
    const Q = (block: ForceBlock): Float64Array => {
      const set = new ForceSet(system), out = new Float64Array(12);
      set.add(block);
      set.assemble(new Float64Array(12), 0, out, null, null);
      return out;
    };
    const once = Q(plain), twice = Q(doubled);
    expect(once.some((x) => x !== 0)).toBe(true);
    twice.forEach((x, k) => expect(x).toBe(2 * once[k]));
  });
});
