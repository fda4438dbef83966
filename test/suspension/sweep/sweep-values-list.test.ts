/**
 * Issue 27 item 4: the reference tool's sweep files may list a target's positions
 * (`values: [0, 5, 10, …]`) instead of start, stop and steps, as its T-bar axle's bump and
 * roll sweeps do (test/suspension/fixtures, copied as they are). On main both were refused
 * (`steps: missing number; targets[0]: needs hold: true or start and stop`). They are read:
 * one state per listed value, the lists' length the steps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGeometry, parseSweep, sweepValues } from '../../../src/suspension/files/index.ts';
import { runMain, REPO } from '../../cli/helpers.ts';

const T_BAR = join(REPO, 'examples/suspension/double_wishbone_axle_t_bar.yaml');
const ROLL = join(REPO, 'test/suspension/fixtures/axle_t_bar_roll_sweep.yaml');
const BUMP = join(REPO, 'test/suspension/fixtures/axle_t_bar_bump_sweep.yaml');
const geometry = parseGeometry(readFileSync(T_BAR, 'utf8'), T_BAR);
/** 0 → 50 → 0 → −50 every 5 mm: the reference files' left wheel. */
const UP_DOWN = [...Array.from({ length: 11 }, (_, i) => 5 * i), ...Array.from({ length: 10 }, (_, i) => 45 - 5 * i), ...Array.from({ length: 10 }, (_, i) => -5 - 5 * i)];

interface SweepJson { sweeps: { sweep: { steps: { status: string; drivers: Record<string, number>; metrics: Record<string, Record<string, number>> }[] } } }

async function sweepOf(args: string[]): Promise<SweepJson['sweeps']['sweep']['steps']> {
  const run = await runMain(['sweep', T_BAR, ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as SweepJson).sweeps.sweep.steps;
}

describe('sweep files that list their values', () => {
  it('the reference roll sweep reads as 31 states, each target at its listed value', () => {
    const spec = parseSweep(readFileSync(ROLL, 'utf8'), geometry, ROLL);
    expect(spec.steps).toBe(31);
    expect(sweepValues(spec.targets[0], spec.steps)).toEqual(UP_DOWN);
    expect(sweepValues(spec.targets[1], spec.steps)).toEqual(UP_DOWN.map((v) => 0 - v));
    expect(sweepValues(spec.targets[2], spec.steps)).toEqual(new Array(31).fill(0));
  });

  it('kinemate sweep runs the reference roll sweep: the wheels travel as listed, opposite', async () => {
    const steps = await sweepOf(['--sweep', ROLL]);
    expect(steps).toHaveLength(31);
    steps.forEach((step, i) => {
      expect(step.status).toBe('solved');
      expect(step.metrics.left.wheel_travel).toBeCloseTo(UP_DOWN[i], 9);
      expect(step.metrics.right.wheel_travel).toBeCloseTo(-UP_DOWN[i], 9);
      expect(step.drivers.rack_displacement).toBe(0);
    });
  });

  it('kinemate sweep runs the reference bump sweep (targets without a type name their point): both wheels as listed, the track rod held', async () => {
    const steps = await sweepOf(['--sweep', BUMP]);
    expect(steps).toHaveLength(31);
    steps.forEach((step, i) => {
      expect(step.status).toBe('solved');
      for (const side of ['left', 'right']) expect(step.metrics[side].wheel_travel).toBeCloseTo(UP_DOWN[i], 9);
      expect(step.drivers.left_trackrod_inboard_y).toBe(steps[0].drivers.left_trackrod_inboard_y);
    });
  });

  it('a list of evenly spaced values gives exactly what start, stop and steps give', () => {
    const ranged = parseSweep('version: 1\nsteps: 11\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, start: -50, stop: 50 }\n  - { type: actuator_position, actuator: rack, direction: { axis: y }, hold: true }\n', geometry);
    const valued = parseSweep('version: 1\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, values: [-50, -40, -30, -20, -10, 0, 10, 20, 30, 40, 50] }\n  - { type: actuator_position, actuator: rack, direction: { axis: y }, hold: true }\n', geometry);
    expect(valued.steps).toBe(ranged.steps);
    for (let k = 0; k < 2; k++) expect(sweepValues(valued.targets[k], valued.steps)).toEqual(sweepValues(ranged.targets[k], ranged.steps));
  });

  it('lists that disagree, or a list beside a range or a hold, are refused with the path', () => {
    const target = (extra: string) => `{ type: point, point: wheel_center, direction: { axis: z }, ${extra} }`;
    const problems = (text: string) => {
      try {
        parseSweep(text, geometry, 's.yaml');
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(problems(`version: 1\nsteps: 3\ntargets: [${target('values: [0, 1]')}]`)).toBe('steps: 3 states, but the targets list 2 values each (leave steps out, or make them agree)');
    expect(problems(`version: 1\ntargets: [${target('side: left, values: [0, 1]')}, ${target('side: right, values: [0, 1, 2]')}]`)).toBe('targets: every target\'s values must have one entry per step: the lists have 2 or 3 entries');
    expect(problems(`version: 1\nsteps: 2\ntargets: [${target('values: [0, 1], start: 0, stop: 1')}]`)).toBe('targets[0]: both values and start/stop: give the positions as a list or as a range, not both');
    expect(problems(`version: 1\ntargets: [${target('hold: true, values: [0, 1]')}]`)).toMatch(/^steps: missing number\ntargets\[0\]: both hold: true and values: a target either holds or moves$/);
    expect(problems(`version: 1\ntargets: [${target('values: []')}]`)).toMatch(/targets\[0\]\.values: an empty list: give one value per step/);
    expect(problems(`version: 1\ntargets: [${target('values: [0, "5", .nan]')}]`)).toMatch(/targets\[0\]\.values\[1\]: expected a number, got the string "5"\ntargets\[0\]\.values\[2\]: not a finite number/);
    // a range still needs steps, even beside a list (as in the reference format)
    expect(problems(`version: 1\ntargets: [${target('side: left, values: [0, 1]')}, ${target('side: right, start: 0, stop: 1')}]`)).toBe('steps: missing number');
    expect(problems(`version: 1\nsteps: 2\ntargets: [${target('side: left, values: [0, 1]')}, ${target('side: right, start: 0, stop: 1')}]`)).toBe('accepted');
  });
});
