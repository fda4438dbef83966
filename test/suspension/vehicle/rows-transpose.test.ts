/**
 * Jᵀλ block by block (kernel/integrator/rows.ts addTransposeTimes for a large set of rows,
 * every row active and every block's columns distinct: the whole car's 139): each column's
 * sum kept over a block's rows, in row order, so the same sums, bit for bit, as adding each
 * row's terms in row order from the dense J (the row loop's order).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation } from '../../../src/suspension/vehicle/simulate';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import type { ConstraintRows } from '../../../kernel/integrator/rows';
import { rng } from '../../util/rng';
import { readVehicle, SEDAN } from './vehicle-sources';

describe('Jᵀλ of the car\'s rows by blocks', () => {
  it('is the row-by-row sum of the dense J, bit for bit, over a random road', () => {
    const spec = readVehicle();
    const road = 'road:\n  left: { iso8608: { class: D, seed: 1, speed_kmh: 60, length_m: 20 } }\n  right: { iso8608: { class: D, seed: 2, speed_kmh: 60, length_m: 20 } }\n';
    const text = `${readFileSync(SEDAN, 'utf8')}${road}`;
    const integrator = prepareSimulation(prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec)).dyn, { lieGroup: 'R3xSO3' }).integrator;
    const c = (integrator as unknown as { constraints: ConstraintRows }).constraints;
    const byBlocks = (c as unknown as { byBlockStart: Int32Array | null }).byBlockStart;
    expect(byBlocks).not.toBeNull();
    expect(c.activeCount).toBe(c.count);
    expect(c.count).toBeGreaterThan(100);
    const n = integrator.size, m = c.count, r = rng(7);
    for (let k = 1; k <= 30; k++) {
      expect(integrator.step(0.001, k * 0.001)).toBe(true);
      if (k % 10 !== 0) continue;
      c.evaluate(true, false);
      // the step's λ, every fifth row's zero (skipped), or none (a block's rows all nonzero: its unrolled sums), and a start r of mixed signs
      for (const zeros of [true, false]) {
      const lambda = Float64Array.from(integrator.lambda, (x, i) => (zeros && i % 5 === 2 ? 0 : (x === 0 ? 1 : x) * (1 + r())));
      expect(lambda.every((x) => x !== 0)).toBe(!zeros);
      const start = Float64Array.from({ length: n }, () => r() - 0.5);
      const got = start.slice();
      c.addTransposeTimes(got, lambda);
      c.scatter();
      const expected = start.slice();
      for (let row = 0; row < m; row++) {
        if (lambda[row] === 0) continue;
        for (let col = 0; col < n; col++) { const x = c.J[row * n + col]; if (x !== 0) expected[col] += x * lambda[row]; }
      }
      let changed = 0;
      expected.forEach((x, i) => { expect(Object.is(got[i], x), `column ${i}`).toBe(true); if (x !== start[i]) changed++; });
      expect(changed).toBeGreaterThan(n / 2);
      }
    }
  });
});
