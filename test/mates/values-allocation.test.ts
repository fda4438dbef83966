/**
 * The force elements' passes by hand allocate nothing (docs/vehicle-dynamics.md, Session 13):
 * a number read from arrays of two element kinds, or passed to or returned from a call V8
 * does not inline, is boxed, and a whole car's run asks for Q ~130 times a step. Tyres built as
 * a document builds them (their points plain arrays) and a bushing evaluated in turn, as a
 * car's force set does, on and off the road, at rest and moving; bytes a call by V8's sampling
 * heap profiler, the objects the collector took counted. Before Session 13: ~900 bytes a
 * round (the bushing's Q 779 bytes a call, a tyre's ~150). And the integrator's rows by hand
 * (Session 14: a distance row passing d and l to a helper V8 did not inline boxed them, 64 bytes
 * a round here, 5.4 kB a step of the car).
 */
import { Session } from 'node:inspector/promises';
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { BushingForce, TyreForce } from '../../mates/forces';
import { PointDistanceBlock } from '../../mates/constraints';
import { addMate, frameEntity } from '../../mates';
import { toMatrix } from '../../kernel/quat';
import type { ResidualBlock } from '../../kernel/system';

/**
 * Bytes allocated a call of f: the least over `windows` windows of `calls` calls, after `warm`
 * calls. V8 optimises f's callees on a background thread; on a loaded machine the optimised
 * code can come late, and the code before it boxes every number (a window's figure then
 * counts the tier, not the pass).
 */
async function bytesPerCall(f: () => void, warm: number, calls: number, windows: number): Promise<number> {
  for (let k = 0; k < warm; k++) f();
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    let least = Infinity;
    for (let w = 0; w < windows; w++) {
      await session.post('HeapProfiler.startSampling', { samplingInterval: 64, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      for (let k = 0; k < calls; k++) f();
      const { profile } = await session.post('HeapProfiler.stopSampling');
      let total = 0;
      const walk = (node: typeof profile.head): void => { total += node.selfSize; node.children.forEach(walk); };
      walk(profile.head);
      least = Math.min(least, total / calls);
    }
    return least;
  } finally {
    session.disconnect();
  }
}

describe('the passes by hand allocate nothing', () => {
  it('two tyres (plain-array points, one on a road part, one off the ground) and a moving bushing, in turn: under 32 bytes a round', async () => {
    const system = new System(100);
    const wheel = system.addPose('wheel', P.pose([3, -2, 290], [1, 0.02, -0.01, 0.03]));
    const road = system.addPose('road', P.pose([0, 0, 4], [1, 0, 0, 0.01]));
    const high = system.addPose('high', P.pose([0, 0, 900], [1, 0.1, 0, 0]));
    const a = system.addPose('A', P.pose([10, 20, 30], [0.9, 0.1, 0.2, 0.3]));
    const b = system.addPose('B', P.pose([12, 19, 33], [0.9, 0.12, 0.2, 0.31]));
    // points and axes as a document's arrays (mechanics/build.ts passes the file's own)
    const onRoad = new TyreForce('t1', wheel, [0, 0, 5], [0, 1, 0.01], 300, 200, 1.5, 0, { body: road, point: [0, 0, 0] });
    const off = new TyreForce('t2', high, [0, 0, 0], [0.01, 1, 0], 300, 200, 1.5, 0);
    const bushing = new BushingForce('bu', a, [1, 2, 3], [1, 0, 0, 0], b, [1, 2, 3], [1, 0, 0, 0], [8000, 1600, 1600], [2e5, 2e5, 3e5], [1, 2, 3], [40, 50, 60]);
    const offset = (v: number) => system.variables[v].offset;
    const tyreOffsets = Int32Array.of(offset(wheel), offset(road)), offOffsets = Int32Array.of(offset(high)), bushingOffsets = Int32Array.of(offset(a), offset(b));
    const v12 = Float64Array.from({ length: 12 }, (_, i) => (i % 6 < 3 ? 0.1 * (i + 1) : 20 * (i - 6)));
    const Q = new Float64Array(12), state = system.state;
    const round = () => {
      onRoad.evaluate(state, tyreOffsets, v12, 0, Q, null, null);
      off.evaluate(state, offOffsets, v12, 0, Q, null, null);
      bushing.evaluate(state, bushingOffsets, v12, 0, Q, null, null);
    };
    round();
    // the cases the rounds are meant to take: a loaded tyre, one off the ground, a deflected bushing
    expect(onRoad.last.force).toBeGreaterThan(0);
    expect(off.last.force).toBe(0);
    expect(Math.hypot(...bushing.last.force)).toBeGreaterThan(0);
    expect(await bytesPerCall(round, 30000, 10000, 6)).toBeLessThan(32);
  });

  it('the integrator\'s rows by hand (a revolute, a slider, a ball, a point distance: twins, with their Jacobians, rotations given), in turn: under 32 bytes a round', async () => {
    const system = new System(100);
    const a = system.addPose('A', P.pose([10, 20, 30], [0.9, 0.1, 0.2, 0.3]));
    const b = system.addPose('B', P.pose([12, 19, 33], [0.9, 0.12, 0.2, 0.31]));
    const twins: [ResidualBlock, Int32Array, Float64Array, Float64Array][] = [];
    const add = (block: ResidualBlock, offsets: Int32Array): void => {
      const twin = block.withFreeColumns!(block.vars.map(() => true));
      twins.push([twin, offsets, new Float64Array(block.rows), new Float64Array(block.rows * 20)]);
    };
    for (const type of ['revolute', 'slider', 'ball'] as const) {
      const handle = addMate(system, type, { type, a: { part: a, entity: frameEntity([1, 2, 3], [1, 0, 0, 0]) }, b: { part: b, entity: frameEntity([1, 2, 3], [1, 0, 0, 0]) } });
      for (const bi of handle.blocks) if (system.block(bi).evaluateTurned) add(system.block(bi), system.blockOffsets(bi));
    }
    const distance = new PointDistanceBlock('d', a, [1, 2, 3], b, [4, 5, 6], 7);
    add(distance, system.blockOffsets(system.addBlock(distance)));
    expect(twins.length).toBe(4);
    const state = system.state, RA = new Float64Array(9), RB = new Float64Array(9);
    const round = () => {
      for (const [twin, offsets, residual, jacobian] of twins) {
        toMatrix(RA, state, offsets[0] + 3); toMatrix(RB, state, offsets[1] + 3);
        twin.evaluateTurned!(state, offsets, RA, RB, residual, jacobian);
      }
    };
    expect(await bytesPerCall(round, 30000, 10000, 6)).toBeLessThan(32);
  });
});
