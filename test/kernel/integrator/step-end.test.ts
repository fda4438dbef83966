/**
 * The forces at the end of a step accepted without its check (kernel/integrator/step-end.ts):
 * the blocks named as read between steps (prepareSimulation names the tyres, whose `last` gives
 * simulate's touch-down events) are evaluated at such a step's end state; the others are left
 * alone, their next evaluation being the next step's residual.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import { PointToPointForce, TyreForce } from '../../../mates/forces';

describe('an unchecked step\'s end', () => {
  it('the quarter car over a bump: the named element evaluated at the end state after every step, the other once per Newton iteration', () => {
    const sim = prepareSimulation(parseAssembly(readFileSync('examples/quarter-car-bump.kinemate.json', 'utf8')), { lieGroup: 'R3xSO3' });
    const { integrator: it, dyn } = sim;
    const spring = dyn.elements.find((e) => e.id === 'spring')!, tyre = dyn.elements.find((e) => e.id === 'tyre')!;
    // the tyre here is a spring to the road: named as a reader would name a tyre element
    it.stepEnd.readAfterStep(dyn.forces, [tyre.index]);
    const block = tyre.block as PointToPointForce;
    let calls = 0;
    // its Q by evaluate, or added in place by the set (ForceBlock.addForces)
    const evaluate = spring.block.evaluate.bind(spring.block), addForces = spring.block.addForces!.bind(spring.block);
    spring.block.evaluate = (...args) => { calls++; evaluate(...args); };
    spring.block.addForces = (...args) => { calls++; return addForces(...args); };
    const fresh = new Float64Array(dyn.forces.slotsOf(tyre.index).length);
    let unchecked = 0;
    for (let k = 1; k <= 300; k++) {
      calls = 0;
      expect(it.step(0.001, k * 0.001)).toBe(true);
      // one evaluation per iteration (its residual), none more at an unchecked step's end
      expect(calls).toBe(it.iterations);
      if (it.iterations === 1) unchecked++;
      const { length, tension } = block.last;
      dyn.forces.evaluateBlock(tyre.index, it.v, it.t, fresh);
      expect(length).toBe(block.last.length);
      expect(tension).toBe(block.last.tension);
    }
    expect(unchecked).toBeGreaterThan(50);
  });

  it('prepareSimulation names the tyre elements', () => {
    const sim = prepareSimulation(parseAssembly(readFileSync('examples/quarter-car.kinemate.json', 'utf8')), { lieGroup: 'R3xSO3' });
    const tyres = sim.dyn.elements.filter((e) => e.block instanceof TyreForce).map((e) => e.index);
    expect(tyres.length).toBe(1);
    expect(Array.from((sim.integrator.stepEnd as unknown as { blocks: Int32Array }).blocks)).toEqual(tyres);
  });
});
