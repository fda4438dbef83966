/**
 * ConstraintRows.writeActiveEntries (a large iteration matrix's bordering blocks, pattern.ts):
 * its flat loop (every row active, every entry in the slab) writes what the row-by-row loop
 * writes, bit for bit, and both are the scattered J's entries.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import type { ConstraintRows } from '../../../kernel/integrator/rows';

describe('the active rows\' entries for a compact matrix', () => {
  for (const name of ['dw-corner-bump', 'double-pendulum', 'quarter-car-bump']) {
    it(`${name}: the flat loop, the row loop and the scattered J agree`, () => {
      const sim = prepareSimulation(parseAssembly(readFileSync(`examples/${name}.kinemate.json`, 'utf8')), { lieGroup: 'R3xSO3' });
      const integrator = sim.integrator;
      for (let k = 1; k <= 10; k++) expect(integrator.step(0.001, k * 0.001)).toBe(true);
      const rows = integrator as unknown as { constraints: ConstraintRows };
      const c = rows.constraints, flags = c as unknown as { allFromSlab: boolean };
      c.evaluate(true, false);
      const expected: number[] = [];
      const n = integrator.size;
      // the scattered J's entries in the order written (scatter writes them as 0 + the slab's)
      const J = c.J.slice();
      c.scatter();
      c.forEachActiveEntry((_k, row, col) => { expected.push(c.J[row * n + col]); });
      c.J.set(J);
      const total = expected.length, lower = Int32Array.from({ length: total }, (_, q) => 2 * q), upper = Int32Array.from({ length: total }, (_, q) => 2 * (total - 1 - q) + 1);
      const write = (flat: boolean): Float64Array => {
        const out = new Float64Array(2 * total).fill(NaN), kept = flags.allFromSlab;
        if (!flat) flags.allFromSlab = false;
        c.writeActiveEntries(out, lower, upper);
        flags.allFromSlab = kept;
        return out;
      };
      const rowLoop = write(false), flat = write(true);
      // the flat loop is taken (every row active, no block repeating a column)
      expect(c.activeCount).toBe(c.count);
      expect(flags.allFromSlab).toBe(true);
      for (let q = 0; q < total; q++) {
        expect(Object.is(rowLoop[lower[q]], expected[q]) && Object.is(rowLoop[upper[q]], expected[q]), `row loop, entry ${q}`).toBe(true);
        expect(Object.is(flat[lower[q]], expected[q]) && Object.is(flat[upper[q]], expected[q]), `flat loop, entry ${q}`).toBe(true);
      }
    });
  }
});
