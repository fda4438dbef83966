/**
 * kernel/integrator/rows.ts evaluating the joints and distances with each part's rotation
 * matrix made once per evaluation (ResidualBlock.evaluateTurned) and Φ written in place:
 * every block's rows and Jacobian the same numbers, bit for bit, as the block's own
 * `evaluate` (its rotations its own) gives at that state — those of a group (the distances,
 * ResidualBlock.groupTurned) too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import type { ResidualBlock } from '../../../kernel/system';
import type { ConstraintRows } from '../../../kernel/integrator/rows';

type Inside = { blocks: Int32Array; evalBlocks: ResidualBlock[]; blockJac: Float64Array[]; blockRow0: Int32Array; turnA: Int32Array };

describe('the rows with shared rotations', () => {
  for (const name of ['dw-corner-bump', 'double-pendulum']) {
    it(`${name}: each block's rows as its own evaluate, after 20 steps`, () => {
      const sim = prepareSimulation(parseAssembly(readFileSync(`examples/${name}.kinemate.json`, 'utf8')), { lieGroup: 'R3xSO3' });
      const integrator = sim.integrator;
      for (let k = 1; k <= 20; k++) expect(integrator.step(0.001, k * 0.001)).toBe(true);
      const rows = (integrator as unknown as { constraints: ConstraintRows }).constraints;
      const inside = rows as unknown as Inside, system = integrator.system;
      rows.evaluate(true, false);
      let turned = 0;
      for (let i = 0; i < inside.blocks.length; i++) {
        const block = inside.evalBlocks[i], r0 = inside.blockRow0[i], count = inside.blockRow0[i + 1] - r0;
        const res = new Float64Array(count), jac = new Float64Array(inside.blockJac[i].length).fill(NaN);
        block.evaluate(system.state, system.blockOffsets(inside.blocks[i]), res, jac);
        for (let r = 0; r < count; r++) expect(Object.is(rows.phi[r0 + r], res[r]), `block ${i} row ${r}`).toBe(true);
        jac.forEach((x, e) => expect(Object.is(inside.blockJac[i][e], x), `block ${i} J[${e}]`).toBe(true));
        if (inside.turnA[i] >= 0) turned++;
      }
      expect(turned).toBeGreaterThan(0);
      // the corner's three distances evaluated together (ResidualBlock.groupTurned), checked above with the rest
      if (name === 'dw-corner-bump') expect((rows as unknown as { groups: unknown[] }).groups.length).toBe(1);
    });
  }

  it('on R³ × SO(3) the rotations the integrator made at its last iterate are the ones the rows make (claimTurn)', () => {
    const sim = prepareSimulation(parseAssembly(readFileSync('examples/dw-corner-bump.kinemate.json', 'utf8')), { lieGroup: 'R3xSO3' });
    const integrator = sim.integrator;
    for (let k = 1; k <= 20; k++) expect(integrator.step(0.001, k * 0.001)).toBe(true);
    const rows = (integrator as unknown as { constraints: ConstraintRows }).constraints;
    const inside = rows as unknown as { claimed: Uint8Array; slab: Float64Array };
    expect(inside.claimed.some((c) => c === 1)).toBe(true);
    // the claimed turns as the step's last followProduct left them (the state has not moved since)
    rows.evaluate(true, false, true);
    const phi = rows.phi.slice(), slab = inside.slab.slice();
    rows.evaluate(true, false);
    phi.forEach((x, r) => expect(Object.is(rows.phi[r], x), `row ${r}`).toBe(true));
    slab.forEach((x, e) => expect(Object.is(inside.slab[e], x), `J entry ${e}`).toBe(true));
  });
});
