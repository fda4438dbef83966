/**
 * Steps accepted without the check's evaluation (kernel/integrator/unchecked.ts):
 * a step whose first Newton correction the last checked step's contraction predicts well
 * under the bounds is accepted after one evaluation instead of two. Each such step must still
 * satisfy the constraint bound (evaluated here after every step); every step took two
 * evaluations at least (a correction and its check) before, here a good share take one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load';
import { prepareSimulation } from '../../../src/mechanics/simulate';

/** The integrator's constraint bound: 1e-10 × the model's size (its length scale or farthest part origin). */
function constraintBound(system: { lengthScale: number; state: Float64Array; variables: readonly { kind: string; offset: number }[] }): number {
  let r = system.lengthScale;
  for (const v of system.variables) if (v.kind === 'pose') for (let i = 0; i < 3; i++) r = Math.max(r, Math.abs(system.state[v.offset + i]));
  return 1e-10 * r;
}

describe('steps accepted on the last check\'s contraction', () => {
  for (const [name, steps] of [['quarter-car-bump', 1500], ['dw-corner-bump', 1500]] as const) {
    it(`${name}: within the constraint bound after every step, a good share of them after one evaluation`, () => {
      const sim = prepareSimulation(parseAssembly(readFileSync(`examples/${name}.kinemate.json`, 'utf8')), { lieGroup: 'R3xSO3' });
      const it = sim.integrator, system = sim.dyn.system;
      let single = 0;
      for (let k = 0; k < steps; k++) {
        expect(it.step(0.001)).toBe(true);
        if (it.iterations === 1) single++;
        expect(it.maxResidual()).toBeLessThanOrEqual(constraintBound(system));
      }
      expect(single).toBeGreaterThan(steps / 10);
    });
  }
});
