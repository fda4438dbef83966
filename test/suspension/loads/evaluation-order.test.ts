/**
 * A state's results do not depend on what was evaluated before them at that state: the
 * sparse tangent (kernel/tangent-sparse.ts) keeps one null-space basis per set of targets.
 * It used to keep the first caller's, so an axle's loads and rates read after the sweep's
 * steering response differed in the last bits from the same loads read alone (the U-bar
 * rates axle's motion ratios by ~1e-15, its zero-by-symmetry cross ratios by ~1e-17).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep, type SweepOptions } from '../../../src/suspension/sweep/sweep';
import { steeringTangent } from '../../../src/suspension/metrics/steering';
import { SweepLoads, parseLoadCase, type StateLoads } from '../../../src/suspension/loads/loads';

const axle = parseGeometry(readFileSync('examples/suspension/double_wishbone_axle_u_bar_rates.yaml', 'utf8'));
const cornering = parseLoadCase(readFileSync('examples/suspension/loads/cornering_1g.yaml', 'utf8'), ['left', 'right']);

/** The sweep's one state bumped 10 mm: its loads and its derivative tangent's rates, after `before` ran there. */
function atState(g: Geometry, options: SweepOptions, before: (sm: SuspensionModel) => void = () => {}) {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const loads = new SweepLoads(sm, cornering);
  let out: { loads: StateLoads; rates: Float64Array[]; state: Float64Array } | null = null;
  runSweep(sm, sweepFromShortcut('bump', '10:10:1', g), {
    ...options,
    onSolvedState: () => {
      before(sm);
      const rates = sm.derivativeTangent().rates.map((r) => Float64Array.from(r!));
      out = { loads: loads.evaluate(), rates, state: sm.model.system.snapshot() };
    },
  });
  return out!;
}

describe('results at a state, whatever was evaluated there before', () => {
  it('the U-bar rates axle\'s loads and rates are the same bit for bit with and without the sweep\'s metrics and steering response', () => {
    const full = atState(axle, {}), bare = atState(axle, { metrics: () => ({}) });
    // the same solved state (so any difference is the evaluation's)
    expect(Array.from(bare.state)).toEqual(Array.from(full.state));
    expect(bare.loads).toEqual(full.loads);
    expect(bare.loads.rates!.motion_ratios).toEqual(full.loads.rates!.motion_ratios);
    expect(Math.abs(full.loads.rates!.motion_ratios.left_spring.left)).toBeGreaterThan(0.01);
  });
  it('the derivative tangent is the same bit for bit after a steering tangent at the same state (the sparse route: an axle)', () => {
    const alone = atState(axle, { metrics: () => ({}) });
    const after = atState(axle, { metrics: () => ({}) }, (sm) => { expect(steeringTangent(sm).status).toBe('unique'); });
    expect(alone.rates.length).toBe(3);
    for (const [j, r] of alone.rates.entries()) expect(Array.from(after.rates[j])).toEqual(Array.from(r));
  });
});
