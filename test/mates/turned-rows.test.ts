/**
 * ResidualBlock.evaluateTurned of the joints and point distances (the integrator's rows give
 * each part's rotation matrix, made once per evaluation): the same numbers as `evaluate`,
 * bit for bit (a zero's sign too), for every joint type, full width and with a part's columns
 * dropped; and the matrices given are the ones read (another rotation moves the rows).
 */
import { describe, expect, it } from 'vitest';
import { System, type ResidualBlock } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { toMatrix } from '../../kernel/quat';
import { JOINT_TYPES, jointAccepts } from '../../mates';
import { PointDistanceBlock } from '../../mates/constraints';
import { rng } from '../util/rng';
import { JOINT_END_KINDS, joinRandomParts } from './random-joint';
import { between, quat, vec } from '../util/random-pose';

/** evaluateTurned against evaluate at the system's state; returns how many rows a wrong rotation moved. */
function sameAsEvaluate(block: ResidualBlock, system: System, offsets: Int32Array, label: string): number {
  const rows = block.rows, n = (block as unknown as { n: number }).n;
  const RA = toMatrix(new Float64Array(9), system.state, offsets[0] + 3), RB = toMatrix(new Float64Array(9), system.state, offsets[1] + 3);
  const res1 = new Float64Array(rows), res2 = new Float64Array(rows);
  const jac1 = new Float64Array(rows * n).fill(NaN), jac2 = new Float64Array(rows * n).fill(NaN);
  block.evaluateTurned!(system.state, offsets, RA, RB, res1, jac1);
  block.evaluate(system.state, offsets, res2, jac2);
  for (let i = 0; i < rows; i++) expect(Object.is(res1[i], res2[i]), `${label} row ${i}`).toBe(true);
  for (let i = 0; i < jac1.length; i++) expect(Object.is(jac1[i], jac2[i]), `${label} J[${i}]: ${jac1[i]} vs ${jac2[i]}`).toBe(true);
  // B's rotation swapped for A's: the rows read the matrices given
  block.evaluateTurned!(system.state, offsets, RA, RA, res1, null);
  let moved = 0;
  for (let i = 0; i < rows; i++) if (res1[i] !== res2[i]) moved++;
  return moved;
}

const twins = (block: ResidualBlock): ResidualBlock[] =>
  [[true, true], [false, true], [true, false]].map((free) => block.withFreeColumns!(block.vars.map((_, i) => (i < 2 ? free[i] : true))));

describe('rows with the parts\' rotations given', () => {
  const kinds = JOINT_END_KINDS;
  for (const type of JOINT_TYPES) {
    it(type, () => {
      let moved = 0;
      for (const ka of kinds.filter((k) => jointAccepts(type, k))) for (const kb of kinds.filter((k) => jointAccepts(type, k))) {
        for (let k = 0; k < 3; k++) {
          const r = rng(5100 + 31 * k + type.length * 7 + ka.length * 3 + kb.length);
          const system = new System(between(r, 0.5, 300));
          const handle = joinRandomParts(system, r, type, ka, kb, 200, 2.5);
          for (const bi of handle.blocks) {
            const block = system.block(bi);
            if (!block.evaluateTurned) continue;
            for (const twin of [block, ...twins(block)]) moved += sameAsEvaluate(twin, system, system.blockOffsets(bi), `${type} ${ka}–${kb} #${k}`);
          }
        }
      }
      expect(moved).toBeGreaterThan(0);
    });
  }

  it('point distance', () => {
    let moved = 0;
    for (let k = 0; k < 20; k++) {
      const r = rng(6600 + k);
      const system = new System(between(r, 0.5, 300));
      const a = system.addPose('A', P.pose(vec(r, 400), quat(r)));
      const b = system.addPose('B', P.pose(vec(r, 400), quat(r)));
      const block = new PointDistanceBlock('d', a, vec(r, 50), b, vec(r, 50), between(r, 1, 100));
      const bi = system.addBlock(block);
      for (const twin of [block, ...twins(block)]) moved += sameAsEvaluate(twin, system, system.blockOffsets(bi), `distance #${k}`);
    }
    expect(moved).toBeGreaterThan(0);
  });
});
