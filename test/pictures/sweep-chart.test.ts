/** From sweeps to charts: the swept quantity, the metric labels and units, gaps for what is undefined. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, parseSweep, runSweep, suspensionAssembly, sweepFromShortcut, SuspensionModel } from '../../src/index.ts';
import { CORNER_METRIC_NAMES } from '../../src/suspension/metrics/corner.ts';
import { axisTitle, metricLabel } from '../../src/pictures/labels.ts';
import { plottableMetrics, sweepAxis, sweepChart } from '../../src/pictures/sweep-chart.ts';
import { DW } from './helpers.ts';

const geometry = parseGeometry(readFileSync(DW, 'utf8'));

describe('sweepAxis', () => {
  it('is the first moving target at the values the sweep asked for', () => {
    expect(sweepAxis(sweepFromShortcut('bump', '-50:50:5'))).toEqual({ title: 'wheel travel (mm)', values: [-50, -25, 0, 25, 50], design: 0 });
    expect(sweepAxis(sweepFromShortcut('steer', '-20:20:3'))).toEqual({ title: 'rack travel (mm)', values: [-20, 0, 20], design: 0 });
    expect(sweepAxis(sweepFromShortcut('roll', '-3:3:3'))).toEqual({ title: 'roll (°)', values: [-3, 0, 3], design: 0 });
    // a sweep file whose first target is held: the first one that moves
    const file = parseSweep('version: 1\nsteps: 3\ntargets:\n  - { type: actuator_position, actuator: rack, direction: { axis: y }, hold: true }\n  - { type: point, point: wheel_center, direction: { axis: z }, mode: absolute, start: 300, stop: 330 }\n', geometry);
    const model = new SuspensionModel(suspensionAssembly(geometry));
    const design = model.evaluate();
    const axis = sweepAxis(file, design);
    expect(axis.title).toBe('wheel center z (mm)');
    expect(axis.values).toEqual([300, 315, 330]);
    // an absolute target's design value is where the point is at design
    expect(axis.design).toBe(design.positions.wheel_center[2]);
  });
});

describe('metric labels', () => {
  it('give every corner metric a label and a unit; angles in degrees, gains per mm, the axle side kept', () => {
    for (const name of CORNER_METRIC_NAMES) {
      const label = metricLabel(name);
      expect(label.label.length, name).toBeGreaterThan(0);
      expect(['°', 'mm', '%'], name).toContain(label.unit);
    }
    expect(axisTitle(metricLabel('camber'))).toBe('camber (°)');
    expect(axisTitle(metricLabel('deriv_camber_wrt_hub_z'))).toBe('camber gain (°/mm)');
    expect(axisTitle(metricLabel('deriv_damper_length_wrt_hub_z'))).toBe('motion ratio (ratio)');
    expect(axisTitle(metricLabel('left.toe_angle'))).toBe('toe, left (°)');
    expect(axisTitle(metricLabel('axle.roll_center_z'))).toBe('roll centre z (mm)');
    expect(axisTitle(metricLabel('anti_dive'))).toBe('anti-dive (%)');
  });
});

describe('sweepChart', () => {
  it('one panel per metric, one curve per sweep (the baseline dashed), gaps where a metric is null', () => {
    const model = new SuspensionModel(suspensionAssembly(geometry));
    const spec = sweepFromShortcut('bump', '-50:50:5');
    const run = runSweep(model, spec, { noSteering: true });
    run.steps[1] = { ...run.steps[1], status: 'failed', metrics: null, positions: null };
    const names = plottableMetrics(run);
    expect(names).toContain('camber');
    const series = { source: 'a.yaml', run, axis: sweepAxis(spec) };
    const chart = sweepChart([series, { ...series, source: 'b.yaml' }], ['camber', 'anti_dive']);
    expect(chart.xTitle).toBe('wheel travel (mm)');
    expect(chart.panels.map((p) => p.yTitle)).toEqual(['camber (°)', 'anti-dive (%)']);
    const [camber, antiDive] = chart.panels;
    expect(camber.curves.map((c) => [c.source, c.dashed ?? false])).toEqual([['a.yaml', false], ['b.yaml', true]]);
    expect(camber.curves[0].y.map((y) => y === null)).toEqual([false, true, false, false, false]);
    expect(camber.curves[0].y[4]).toBe((run.steps[4].metrics as Record<string, number>).camber);
    // no brake bias in this geometry: anti-dive is null everywhere, so only gaps and no design point
    expect(antiDive.curves[0].y.every((y) => y === null)).toBe(true);
  });
});
