/**
 * A sweep's per-state scratch (src/suspension/sweep/sweep.ts): the predictor's state and the
 * last good state live in buffers kept through the sweep, not a fresh snapshot or two per
 * step; a hold id is split once, not at every state's steering response. The values are the
 * same as stepping the model by hand (solve at each target from the last state).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel, type MetricValues } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { holdParts } from '../../../src/suspension/metrics/steering';

const model = () => new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8')))));

describe('a sweep keeps its per-state buffers', () => {
  it('takes a handful of snapshots for 30 steps, whatever their number, and lands where solving step by step does', () => {
    const sm = model();
    const system = sm.model.system;
    const snapshot = system.snapshot.bind(system);
    let snapshots = 0;
    system.snapshot = () => { snapshots++; return snapshot(); };
    const run = runSweep(sm, sweepFromShortcut('bump', '-30:30:30'));
    system.snapshot = snapshot;
    expect(run.steps.every((s) => s.status === 'solved')).toBe(true);
    // before: two per step (the predicted state and the last good one)
    expect(snapshots).toBeLessThan(10);
    // the last state by hand: the hub driven to the last target from design
    const byHand = model();
    byHand.resetToDesign();
    const c = byHand.corners[0];
    for (let z = -30; z <= 30; z += 60 / 29) { c.wheelCenterZ.target = c.design.wheelCenterZ + z; byHand.solveWith([c.wheelCenterZ, byHand.rackHold!]); }
    c.wheelCenterZ.target = c.design.wheelCenterZ + 30;
    byHand.solveWith([c.wheelCenterZ, byHand.rackHold!]);
    const last = run.steps[29].metrics as MetricValues, mine = byHand.evaluate().metrics as MetricValues;
    for (const k of ['camber', 'toe_angle', 'caster', 'kpi', 'half_track'] as const) expect(last[k]!).toBeCloseTo(mine[k]!, 8);
  });

  it('splits a hold id once', () => {
    const sm = model();
    const first = holdParts(sm, 0, 'lower_wishbone_angle+none');
    expect(first?.parts).toEqual(['lower_wishbone_angle']);
    expect(holdParts(sm, 0, 'lower_wishbone_angle+none')!.parts).toBe(first!.parts);
  });
});
