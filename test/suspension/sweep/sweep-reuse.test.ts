/**
 * A sweep's evaluation reuses its duals' storage state to state (runSweep's reusingFloats
 * scope; a DualVec3's values come from the same pool as its derivatives): a state makes a
 * handful of typed arrays, not hundreds, and what a step keeps is what a fresh evaluation
 * of that state gives, bit for bit (nothing it keeps is scratch the next state overwrites).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { evaluateState } from '../../../src/suspension/metrics/state';

const model = (name: string) => new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8')))));

const Native = Float64Array;
afterEach(() => { globalThis.Float64Array = Native; });

describe('a sweep reuses its duals’ storage', () => {
  it('makes few typed arrays per state (before: ~235 per DW corner state)', () => {
    const sm = model('double_wishbone');
    runSweep(sm, sweepFromShortcut('bump', '-10:10:5'));
    let made = 0;
    globalThis.Float64Array = new Proxy(Native, { construct(t, args, nt) { made++; return Reflect.construct(t, args, nt); } });
    runSweep(sm, sweepFromShortcut('bump', '-10:10:10'));
    const ten = made;
    runSweep(sm, sweepFromShortcut('bump', '-10:10:30'));
    globalThis.Float64Array = Native;
    const perState = (made - 2 * ten) / 20;
    expect(perState).toBeLessThan(40);
  });

  it.each(['double_wishbone', 'double_wishbone_axle_u_bar', 'multi_link', 'macpherson'])('%s: every step keeps what a fresh evaluation of its state gives', (name) => {
    const sm = model(name);
    // the same state evaluated by a second model that never ran in a scope (its caches clean)
    const other = model(name);
    const spec = sweepFromShortcut(sm.roles.scope === 'axle' ? 'roll' : 'bump', sm.roles.scope === 'axle' ? '-2:2:6' : '-30:30:6');
    const fresh: unknown[] = [];
    const run = runSweep(sm, spec, {
      onSolvedState: () => {
        other.model.system.restore(sm.model.system.snapshot());
        const f = evaluateState(other, spec.analysis.virtual_steering.suspension_hold);
        fresh.push({ positions: f.positions, metrics: f.metrics, steering: f.steering });
      },
    });
    expect(run.steps.every((s) => s.status === 'solved')).toBe(true);
    expect(run.steps.map((s) => ({ positions: s.positions, metrics: s.metrics, steering: s.steering_response }))).toEqual(fresh);
  });
});
