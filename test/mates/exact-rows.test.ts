/**
 * mates/exact-rows.ts (the dual pass's Jacobians without duals) against the dual pass
 * itself: ball, revolute, fastened, slider and cylindrical joints with every kind of end, and point distances
 * (full width and with a part's columns dropped), at random non-unit poses and scattered
 * coordinates. Values and every derivative the same numbers (=== : a zero's sign aside),
 * which keeps the kinematic solver's results unchanged to the bit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { addMate, jointAccepts } from '../../mates';
import { JointBlock } from '../../mates/joints';
import { PointDistanceBlock } from '../../mates/constraints';
import { rng } from '../util/rng';
import { JOINT_END_KINDS, joinRandomParts, randomEnd } from './random-joint';
import { between, quat, vec } from '../util/random-pose';

type ByDuals = { evaluateByDuals(s: Float64Array, o: Int32Array, r: Float64Array, j: Float64Array | null): void; evaluate(s: Float64Array, o: Int32Array, r: Float64Array, j: Float64Array | null): void; n: number; rows: number };

/** Compare a block's evaluate with its dual pass entry by entry; returns the entries compared. */
function sameAsDuals(block: ByDuals, system: System, offsets: Int32Array, label: string): number {
  const { rows, n } = block;
  const res1 = new Float64Array(rows), res2 = new Float64Array(rows);
  const jac1 = new Float64Array(rows * n).fill(NaN), jac2 = new Float64Array(rows * n);
  block.evaluate(system.state, offsets, res1, jac1);
  block.evaluateByDuals(system.state, offsets, res2, jac2);
  for (let i = 0; i < rows; i++) expect(res1[i] === res2[i], `${label} row ${i}: ${res1[i]} vs ${res2[i]}`).toBe(true);
  let nonzero = 0;
  for (let i = 0; i < jac1.length; i++) {
    expect(jac1[i] === jac2[i], `${label} J[${i}]: ${jac1[i]} vs ${jac2[i]}`).toBe(true);
    if (jac2[i] !== 0) nonzero++;
  }
  const res3 = new Float64Array(rows);
  block.evaluate(system.state, offsets, res3, null);
  expect(Array.from(res3)).toEqual(Array.from(res1));
  return nonzero;
}

describe('exact rows vs the dual pass, bit for bit', () => {
  const kinds = JOINT_END_KINDS;
  for (const type of ['ball', 'revolute', 'fastened', 'slider', 'cylindrical'] as const) {
    it(type, () => {
      let nonzero = 0;
      for (const ka of kinds.filter((k) => jointAccepts(type, k))) {
        for (const kb of kinds.filter((k) => jointAccepts(type, k))) {
          for (let k = 0; k < 8; k++) {
            const r = rng(7300 + 41 * k + type.length * 13 + ka.length * 7 + kb.length);
            const system = new System(between(r, 0.5, 300));
            const handle = joinRandomParts(system, r, type, ka, kb, 200, 2.5);
            for (const bi of handle.blocks) {
              const block = system.block(bi);
              if (block instanceof JointBlock) nonzero += sameAsDuals(block as unknown as ByDuals, system, system.blockOffsets(bi), `${type} ${ka}–${kb} #${k}`);
            }
          }
        }
      }
      expect(nonzero).toBeGreaterThan(0);
    });
  }

  it('point distance, full width and with a part fixed', () => {
    let nonzero = 0;
    for (let k = 0; k < 40; k++) {
      const r = rng(8800 + k);
      const system = new System(between(r, 0.5, 300));
      const a = system.addPose('A', P.pose(vec(r, 400), quat(r)));
      const b = system.addPose('B', P.pose(vec(r, 400), quat(r)));
      const block = new PointDistanceBlock('d', a, vec(r, 50), b, vec(r, 50), between(r, 1, 100));
      const bi = system.addBlock(block);
      nonzero += sameAsDuals(block as unknown as ByDuals, system, system.blockOffsets(bi), `distance #${k}`);
      for (const free of [[false, true], [true, false]]) {
        const twin = block.withFreeColumns(free) as unknown as ByDuals;
        nonzero += sameAsDuals(twin, system, system.blockOffsets(bi), `distance #${k} free ${free}`);
      }
    }
    expect(nonzero).toBeGreaterThan(0);
  });
});

describe('a revolute joint\'s rows and exact Jacobian', () => {
  afterEach(() => { vi.restoreAllMocks(); });
  it('take cos θ and sin θ once per evaluation (the Jacobian reuses the rows\')', () => {
    const r = rng(9100);
    const system = new System(10);
    const a = system.addPose('A', P.pose(vec(r, 20), quat(r)));
    const b = system.addPose('B', P.pose(vec(r, 20), quat(r)));
    const handle = addMate(system, 'j', { type: 'revolute', a: { part: a, entity: randomEnd(r, 'frame') }, b: { part: b, entity: randomEnd(r, 'frame') } });
    for (const v of Object.values(handle.coordinates)) system.setScalar(v, 0.7);
    const bi = handle.blocks.find((k) => system.block(k) instanceof JointBlock)!;
    const block = system.block(bi) as unknown as ByDuals;
    const res = new Float64Array(block.rows), jac = new Float64Array(block.rows * block.n);
    const cos = vi.spyOn(Math, 'cos'), sin = vi.spyOn(Math, 'sin');
    block.evaluate(system.state, system.blockOffsets(bi), res, jac);
    expect(cos).toHaveBeenCalledTimes(1); // were 3: the rows', the Jacobian's, its angle column's
    expect(sin).toHaveBeenCalledTimes(1);
  });
});
