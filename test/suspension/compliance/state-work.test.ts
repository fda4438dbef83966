/**
 * The work of one compliant state (the bench case dw_corner_kc_state_ms: settle from the
 * rigid pose, metrics, loads, coefficients), counted rather than timed: one exact reduction
 * and one factorisation of the constraints per Newton state, each K_r factored once (the
 * polishing step's factorisation serves the coefficients), and the coefficients read from
 * the wheel frame alone give the full evaluation's numbers bit for bit.
 */
import { describe, expect, it, vi } from 'vitest';
import { ForceSet } from '../../../kernel/forces.ts';
import { elementReports, reactionsHere } from '../../../src/mechanics/statics.ts';
import { KC_COEFFICIENTS, coefficientInputs, kcCoefficients, loadResponses, type KcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import type { TangentSpace } from '../../../kernel/analysis.ts';
import { dwCompliance, example, stateAt } from './helpers.ts';

const MACPHERSON = `${example('macpherson.yaml')}compliance:
  bushings:
    strut_top: { radial: 3000, axial: 1200 }
    lower_wishbone_inboard_front: { radial: 8000, axial: 1500 }
  links:
    trackrod: 20000
`;

describe('one compliant state', () => {
  it('the DW corner under 3 kN: one exact reduction and one constraint factorisation per Newton state, each K_r factored once', () => {
    const s = stateAt(example('double_wishbone_compliant.yaml'));
    const counts = s.state.tangent.counts;
    s.state.setLoad(0, { force: [0, 3000, 0], moment: [0, 0, 0], at: 'contact_patch' });
    for (let round = 0; round < 2; round++) {
      s.sm.model.system.restore(s.rigid);
      const before = { ...counts };
      const r = s.state.settle();
      expect(r.status).toBe('solved');
      // Newton's states, then the converged one the polishing step starts from
      const states = r.equilibrium.newtonIterations + 1;
      expect(states).toBeGreaterThanOrEqual(2);
      expect(counts.exact - before.exact).toBe(states);
      expect(counts.heldFactors - before.heldFactors).toBe(states);
      expect(counts.reducedFactors - before.reducedFactors).toBe(1);
      s.sm.evaluate({ derivatives: false });
      s.state.loads();
      const coefficients = kcCoefficients(s.state)[0];
      expect(coefficients?.toe_per_fy).toBeTypeOf('number');
      // the coefficients take the polishing step's reduction and factorisation
      expect(counts.exact - before.exact).toBe(states);
      expect(counts.reducedFactors - before.reducedFactors).toBe(1);
      expect(counts.heldFactors - before.heldFactors).toBe(states);
    }
  });

  it('the loads report evaluates each force element once: its element reports read the pass that assembled Q', () => {
    const s = stateAt(example('double_wishbone_compliant.yaml'));
    s.state.setLoad(0, { force: [0, 3000, 0], moment: [0, 0, 0], at: 'contact_patch' });
    expect(s.state.settle().status).toBe('solved');
    const assemble = vi.spyOn(ForceSet.prototype, 'assemble'), evaluateBlock = vi.spyOn(ForceSet.prototype, 'evaluateBlock');
    let loads;
    try {
      loads = s.state.loads();
      expect(assemble).toHaveBeenCalledTimes(1);
      expect(evaluateBlock).toHaveBeenCalledTimes(0);
      // the statics report likewise; a report whose count is stale evaluates every element
      reactionsHere(s.state.dyn);
      expect(assemble).toHaveBeenCalledTimes(2);
      expect(evaluateBlock).toHaveBeenCalledTimes(0);
      elementReports(s.state.dyn, 0, undefined, s.state.dyn.forces.evaluations - 1);
      expect(evaluateBlock).toHaveBeenCalledTimes(s.state.dyn.elements.length);
    } finally {
      assemble.mockRestore(); evaluateBlock.mockRestore();
    }
    // the same numbers as each element evaluated on its own at the state (the reports as they were made)
    const fresh = elementReports(s.state.dyn);
    for (const [id, { pickup }] of Object.entries(s.sm.roles.compliance!.bushings)) expect((loads.bushings as Record<string, unknown>)[pickup], id).toEqual(fresh[id]);
    for (const id of Object.keys(s.sm.roles.compliance!.links)) expect(loads.links[id], id).toBe((fresh[id] as { tension: number }).tension);
    expect(Object.keys(loads.bushings!).length).toBeGreaterThan(0);
  });

  for (const [name, text] of [['the DW corner', example('double_wishbone.yaml') + dwCompliance()], ['a MacPherson corner on a strut-top mount', MACPHERSON]] as const) {
    it(`${name}: the coefficients from the wheel frame alone are the full evaluation's, bit for bit`, () => {
      const s = stateAt(text, 10);
      s.state.setLoad(0, { force: [-800, 1500, 0], moment: [0, 0, 20000], at: 'contact_patch' });
      expect(s.state.settle().status).toBe('solved');
      const response = loadResponses(s.state)!;
      const tangent: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: response.rates, layout: response.layout, size: response.size };
      const nr = response.rates.length;
      const full = s.sm.evaluate({ rates: tangent }).corners[0];
      const narrow = coefficientInputs(s.state, tangent)[0];
      for (const [key, c] of Object.entries(KC_COEFFICIENTS) as [keyof KcCoefficients, (typeof KC_COEFFICIENTS)[keyof KcCoefficients]][]) {
        for (let load = 0; load < 3; load++) expect(c.read(narrow, load, nr), `${key} along load ${load}`).toBe(c.read(full, load, nr));
      }
      // and kcCoefficients reads them so: no full evaluation of the corner's metrics
      let evaluations = 0;
      const evaluate = s.sm.evaluate.bind(s.sm);
      s.sm.evaluate = (extras) => { evaluations++; return evaluate(extras); };
      expect(kcCoefficients(s.state)[0]!.toe_per_fy).toBe(KC_COEFFICIENTS.toe_per_fy.read(full, 0, nr) * 1e3);
      expect(evaluations).toBe(0);
    });
  }
});
