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

  it('a smooth run is checked every eighth step: more than 3 of 4 steps after one evaluation, each within the bound', () => {
    // the four-bar under gravity: every step's first correction lands far inside the bounds, so the
    // share of unchecked steps is what the check interval allows (at most 3 of 4 with a check every 4)
    const sim = prepareSimulation(parseAssembly(readFileSync('examples/four-bar.kinemate.json', 'utf8')), { lieGroup: 'R3xSO3' });
    const it = sim.integrator, system = sim.dyn.system;
    const steps = 800;
    let single = 0;
    for (let k = 0; k < steps; k++) {
      expect(it.step(0.001)).toBe(true);
      if (it.iterations === 1) single++;
      expect(it.maxResidual()).toBeLessThanOrEqual(constraintBound(system));
    }
    expect(single).toBeGreaterThan(0.8 * steps);
  });
});
