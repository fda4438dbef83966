/**
 * Work shared between the analyses of one solved state: the multipliers of one set of loads
 * and the mates' reactions are computed once, whoever asks first (the statics report, then
 * the rates), and never reused at another state or for other loads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { admissibleMotions, constraintMultipliers } from '../../kernel/multipliers';
import { parseAssembly } from '../../src/assembly/load';
import { buildDynamics } from '../../src/mechanics/build';
import { equilibrium } from '../../src/mechanics/equilibrium';
import { loadsHere, reactionsHere, type Wrench } from '../../src/mechanics/statics';
import { suspensionRates } from '../../src/suspension/loads/rates';

function braking() {
  const dyn = buildDynamics(parseAssembly(readFileSync('examples/dw-corner-braking.kinemate.json', 'utf8')));
  expect(equilibrium(dyn).status).toBe('solved');
  return dyn;
}

describe('one state, one set of loads: computed once', () => {
  it('constraintMultipliers gives the same result for the same state and loads, a fresh one (equal to a new system’s) when either changes', () => {
    const dyn = braking();
    const Q = loadsHere(dyn);
    const first = constraintMultipliers(dyn.system, Q);
    expect(constraintMultipliers(dyn.system, Float64Array.from(Q))).toBe(first);
    // other loads at the same state: λ scales with them
    const doubled = constraintMultipliers(dyn.system, Q.map((x) => 2 * x));
    expect(doubled).not.toBe(first);
    for (let i = 0; i < first.lambda.length; i++) expect(doubled.lambda[i]).toBeCloseTo(2 * first.lambda[i], 6);
    // another state: what a system built there computes
    const v = dyn.system.variable('upright');
    dyn.system.state[v.offset + 2] += 1;
    const moved = constraintMultipliers(dyn.system, Q);
    expect(moved).not.toBe(first);
    const other = braking();
    other.system.state.set(dyn.system.state);
    expect(Array.from(constraintMultipliers(other.system, Q).lambda)).toEqual(Array.from(moved.lambda));
  });

  it('the rates after the statics report evaluate no constraint Jacobian again, and a report changed by its reader does not change them', () => {
    const dyn = braking();
    const sys = dyn.system;
    const alone = suspensionRates(braking(), 'upright.contact', { spring: 'spring' });
    const report = reactionsHere(dyn);
    // a reader that rewrites its report (units, signs) must not reach the rates' copy
    for (const r of Object.values(report.reactions)) if ('force' in r) { (r as Wrench).force[0] = 1e9; (r as Wrench).at[1] = -1e9; }
    let constraintEvaluations = 0;
    const evaluateBlock = sys.evaluateBlock.bind(sys);
    sys.evaluateBlock = (b, res, jac) => { if (sys.block(b).kind === 'constraint') constraintEvaluations++; return evaluateBlock(b, res, jac); };
    const rates = suspensionRates(dyn, 'upright.contact', { spring: 'spring' });
    expect(constraintEvaluations).toBe(0);
    expect(rates).toEqual(alone);
  });

  it('admissibleMotions gives the same basis at the same state, a fresh one (equal to a new system’s) at another', () => {
    const dyn = braking();
    const first = admissibleMotions(dyn.system);
    expect(admissibleMotions(dyn.system)).toBe(first);
    const v = dyn.system.variable('upright');
    dyn.system.state[v.offset + 2] += 1;
    const moved = admissibleMotions(dyn.system);
    expect(moved).not.toBe(first);
    const other = braking();
    other.system.state.set(dyn.system.state);
    expect(Array.from(admissibleMotions(other.system).basis)).toEqual(Array.from(moved.basis));
  });
});
