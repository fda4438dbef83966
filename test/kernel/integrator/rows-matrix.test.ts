/**
 * The constraint rows written into an iteration matrix from the blocks' own Jacobians
 * (kernel/integrator/rows.ts addToMatrix without a scatter of the dense J: a small system's
 * matrix, rebuilt every step): the same matrix, bit for bit, as from the scattered J.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import type { ConstraintRows } from '../../../kernel/integrator/rows';

describe('the rows of an iteration matrix from the blocks\' Jacobians', () => {
  for (const name of ['pendulum', 'double-pendulum', 'rolling-disc-incline', 'dw-corner-bump']) {
    it(`${name}: the same entries as from the scattered Jacobian, after 20 steps`, () => {
      const sim = prepareSimulation(parseAssembly(readFileSync(`examples/${name}.kinemate.json`, 'utf8')), { lieGroup: 'R3xSO3' });
      const integrator = sim.integrator;
      for (let k = 1; k <= 20; k++) expect(integrator.step(0.001, k * 0.001)).toBe(true);
      const rows = (integrator as unknown as { constraints: ConstraintRows }).constraints;
      const N = integrator.size + rows.activeCount;
      // a step's evaluation leaves J unscattered: the rows come from the blocks'
      rows.evaluate(true, false);
      const fromBlocks = new Float64Array(N * N);
      rows.addToMatrix(fromBlocks, N);
      rows.scatter();
      const fromJ = new Float64Array(N * N);
      rows.addToMatrix(fromJ, N);
      let nonzero = 0;
      fromJ.forEach((x, i) => { expect(Object.is(fromBlocks[i], x), `entry ${i}`).toBe(true); if (x !== 0) nonzero++; });
      expect(nonzero).toBeGreaterThan(2 * rows.activeCount);
    });
  }
});
