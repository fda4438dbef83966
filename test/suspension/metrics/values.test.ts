import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { metricValues } from '../../../src/suspension/metrics/values';

const model = (file: string) => new SuspensionModel(suspensionAssembly(parseGeometry(readFileSync(`examples/suspension/${file}.yaml`, 'utf8'))));
const NAMES = ['camber', 'toe_angle', 'steer_angle', 'wheel_travel', 'caster', 'kpi'];

describe('metricValues: chosen metrics without the full evaluation', () => {
  it.each(['double_wishbone', 'macpherson', 'multi_link', 'trailing_arm', 'double_wishbone_camber_shim'])('%s: the same numbers as the full evaluation at every step of a bump and a steer', (file) => {
    const sm = model(file);
    const values = metricValues(sm, NAMES);
    expect(values).not.toBeNull();
    let compared = 0;
    for (const sweep of [sweepFromShortcut('bump', '-80:80:9'), ...(sm.rackHold ? [sweepFromShortcut('steer', '-30:30:5')] : [])]) {
      runSweep(sm, sweep, {
        valuesOnly: true,
        onSolvedState: (step) => {
          const full = step.metrics as Record<string, number | null>;
          const mine = values!();
          for (const name of NAMES) {
            // Object.is: equal to the last bit, and null where the full evaluation has null
            expect(Object.is(mine[name], full[name] ?? null), `${file} ${name} step ${step.index}: ${mine[name]} vs ${full[name]}`).toBe(true);
            compared++;
          }
        },
      });
    }
    expect(compared).toBeGreaterThanOrEqual(9 * NAMES.length);
  });
  it('a sweep given these values writes the same rows as one that evaluates in full', () => {
    const sweep = sweepFromShortcut('bump', '-60:60:7');
    const full = runSweep(model('double_wishbone'), sweep, { valuesOnly: true });
    const sm = model('double_wishbone');
    const fast = runSweep(sm, sweep, { metrics: metricValues(sm, ['camber', 'kpi'])! });
    expect(fast.steps.map((s) => [s.status, s.drivers.wheel_center_z, (s.metrics as Record<string, number>).camber, (s.metrics as Record<string, number>).kpi]))
      .toEqual(full.steps.map((s) => [s.status, s.drivers.wheel_center_z, (s.metrics as Record<string, number>).camber, (s.metrics as Record<string, number>).kpi]));
    expect(fast.steps.every((s) => s.positions === null)).toBe(true);
  });
  it('declines what it does not compute: other metrics, axles, corners with devices', () => {
    expect(metricValues(model('double_wishbone'), ['camber', 'half_track'])).toBeNull();
    expect(metricValues(model('double_wishbone_axle'), ['camber'])).toBeNull();
    expect(metricValues(model('double_wishbone_pushrod'), ['camber'])).toBeNull();
  });
});
