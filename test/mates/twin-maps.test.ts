/**
 * The integrator's twins (MateBlock.withFreeColumns) and a force element's dual-pass twins
 * (BodyForceBlock) share one hidden class per class of block: the rows' code reads a dozen
 * fields of each twin per evaluation, and with a map per twin (the car's 37 twins had 37) every
 * such read was a megamorphic lookup. V8's own %HaveSameMap says which objects share a map;
 * the twins must also still evaluate as their block does.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { addMate, frameEntity } from '../../mates';
import { PointToPointForce } from '../../mates/forces';
import type { ResidualBlock } from '../../kernel/system';
import { rng } from '../util/rng';
import { quat, vec } from '../util/random-pose';

setFlagsFromString('--allow-natives-syntax');
// a function parsed after the flag may call V8's intrinsics
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** How many distinct maps among objects. */
function mapCount(objects: readonly object[]): number {
  const reps: object[] = [];
  for (const o of objects) if (!reps.some((r) => haveSameMap(r, o))) reps.push(o);
  return reps.length;
}

describe('twins share a map per class', () => {
  it('revolute joints and point distances: withFreeColumns twins', () => {
    const r = rng(4711);
    const system = new System(100);
    const parts = Array.from({ length: 9 }, (_, i) => system.addPose(`P${i}`, P.pose(vec(r, 200), quat(r))));
    const joints: ResidualBlock[] = [], distances: ResidualBlock[] = [];
    for (let i = 0; i + 1 < parts.length; i++) {
      const a = { part: parts[i], entity: frameEntity(vec(r), quat(r)) }, b = { part: parts[i + 1], entity: frameEntity(vec(r), quat(r)) };
      for (const bi of addMate(system, `j${i}`, { type: 'revolute', a, b }).blocks) joints.push(system.block(bi).withFreeColumns!([true, i > 0, true]));
      const pa = { part: parts[i], entity: { kind: 'point' as const, point: vec(r) } }, pb = { part: parts[i + 1], entity: { kind: 'point' as const, point: vec(r) } };
      for (const bi of addMate(system, `d${i}`, { type: 'distance', a: pa, b: pb, value: 50 }).blocks) distances.push(system.block(bi).withFreeColumns!([true, true]));
    }
    expect(joints.length).toBe(8);
    expect(distances.length).toBe(8);
    // V8's clone of an object settles on a shared map after its first uses: at most two here (one per twin before)
    expect(mapCount(joints)).toBeLessThanOrEqual(2);
    expect(mapCount(distances)).toBeLessThanOrEqual(2);
    // and a twin still evaluates its block's rows (the values: the twin's Jacobian is narrower)
    const blk = system.block(0), twin = blk.withFreeColumns!([true, true, true]);
    const r1 = new Float64Array(blk.rows), r2 = new Float64Array(blk.rows);
    blk.evaluate(system.state, system.blockOffsets(0), r1, null);
    twin.evaluate(system.state, system.blockOffsets(0), r2, null);
    expect(Array.from(r2)).toEqual(Array.from(r1));
    expect(r1.some((x) => x !== 0)).toBe(true);
  });

  it('springs: the dual pass twins of K', () => {
    const r = rng(815);
    const system = new System(100);
    const a = system.addPose('A', P.pose(vec(r, 200), quat(r))), b = system.addPose('B', P.pose(vec(r, 200), quat(r)));
    const twins: object[] = [];
    for (let i = 0; i < 8; i++) {
      const spring = new PointToPointForce(`s${i}`, a, vec(r), b, vec(r), null, null);
      // the stiffness twin of a block with both bodies free (body-force.ts stiffnessTwin)
      twins.push((spring as unknown as { stiffnessTwin(slots: Int32Array): object }).stiffnessTwin(Int32Array.from({ length: 12 }, (_, k) => k)));
    }
    expect(mapCount(twins)).toBeLessThanOrEqual(2);
  });
});
