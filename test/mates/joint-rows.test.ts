/**
 * mates/joint-rows.ts (a joint's rows and Jacobian by hand) against JointBlock's dual pass,
 * an independent route: every joint type with every kind of end, random (non-unit) poses and
 * scattered coordinates, in the integrator's twins (MateBlock.withFreeColumns: full width
 * and a part's columns dropped), which take the rows by hand. Values bit for bit,
 * derivatives to round-off. The dual pass's rows against central differences are in
 * jacobian.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import { JOINT_TYPES, jointAccepts } from '../../mates';
import { JointBlock } from '../../mates/joints';
import type { ResidualBlock } from '../../kernel/system';
import { rng } from '../util/rng';
import { JOINT_END_KINDS, joinRandomParts } from './random-joint';

describe('joint rows by hand vs the dual pass', () => {
  const kinds = JOINT_END_KINDS;
  for (const type of JOINT_TYPES) {
    it(type, () => {
      let checked = 0;
      for (const ka of kinds.filter((k) => jointAccepts(type, k))) {
        for (const kb of kinds.filter((k) => jointAccepts(type, k))) {
          for (let k = 0; k < 6; k++) {
            const r = rng(9100 + 37 * k + type.length * 11 + ka.length * 5 + kb.length);
            const system = new System(2.5);
            const handle = joinRandomParts(system, r, type, ka, kb, 2, 0.9);
            for (const bi of handle.blocks) {
              const block = system.block(bi);
              if (!(block instanceof JointBlock)) continue;
              const offsets = system.blockOffsets(bi);
              // the integrator's twins (they take the rows by hand): full width, then each
              // part's columns dropped, then both (the coordinates' columns only)
              const variants: [ResidualBlock, JointBlock][] = [];
              for (const free of [[true, true], [false, true], [true, false], [false, false]]) {
                const mask = block.vars.map((_, i) => (i < 2 ? free[i] : true));
                variants.push([block.withFreeColumns(mask), block.withFreeColumns(mask) as JointBlock]);
              }
              for (const [fast, reference] of variants) {
                const width = (fast as unknown as { n: number }).n, rows = block.rows;
                const res1 = new Float64Array(rows), res2 = new Float64Array(rows);
                const jac1 = new Float64Array(rows * width).fill(NaN), jac2 = new Float64Array(rows * width);
                fast.evaluate(system.state, offsets, res1, jac1);
                reference.evaluateByDuals(system.state, offsets, res2, jac2);
                expect(Array.from(res1), `${type} ${ka}–${kb} #${k} values`).toEqual(Array.from(res2));
                let scale = 1;
                for (const x of jac2) scale = Math.max(scale, Math.abs(x));
                for (let i = 0; i < jac1.length; i++) expect(Math.abs(jac1[i] - jac2[i]), `${type} ${ka}–${kb} #${k} J[${i}]`).toBeLessThanOrEqual(1e-13 * scale);
                // values alone: the same numbers
                const res3 = new Float64Array(rows);
                fast.evaluate(system.state, offsets, res3, null);
                expect(Array.from(res3)).toEqual(Array.from(res1));
                checked++;
              }
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});
