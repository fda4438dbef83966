/**
 * Gradients of an axle's *_virtual metrics (per side) and of a corner's under a hold of
 * several rows: the steering motion q̇_r − Σ c_j q̇_hj with H c = b solved in tangent
 * arithmetic (virtual-sensitivity.ts), checked against central differences of
 * `kinemate sweep`'s own *_virtual values, re-solved with each point moved.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetKept } from '../moves';
import { parseGeometry } from '../../../src/suspension/files';
import type { MetricGradient } from '../../../src/suspension/gradients/model';
import { VIRTUAL_METRICS } from '../../../src/suspension/gradients/virtual';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { checkVirtual as check, exactGradients, sweepValues } from './virtual-differences';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

describe('gradients of an axle\'s *_virtual metrics (shared rack, two hubs)', () => {
  // beside other checks at their states, each moved axle solved once for both (virtual-differences.ts): the steered
  // axle with the rack at +8 mm (devices.test.ts), at +20 mm (roll-centre.test.ts) and rolled 2° (axle-roll.test.ts),
  // the U-bar axle at −10 mm (bar-axles.test.ts), the multi-link axle at +10 mm (instant-axis.test.ts)
  it('the contact-patch hold on an axle (the road plane tangent to both wheels moves with the points), steered +8 mm', () => {
    expect(check(load('double_wishbone_axle_steering'), 'steer', 8, 'contact_patch')).toBeLessThan(2e-4);
  });
  it('the wheel-centre-height hold on the steered axle at +15 mm', () => {
    expect(check(load('double_wishbone_axle_steering'), 'bump', 15, 'wheel_center_height')).toBeLessThan(2e-4);
  });
  it('a mirrored axle has mirrored gradients: x and z alike, y opposite', () => {
    const g = load('double_wishbone_axle');
    const grads = exactGradients(g, 'bump', 25);
    for (const m of VIRTUAL_METRICS) {
      const l = grads.left[m]!, r = grads.right[m]!;
      expect(r.value).toBeCloseTo(l.value, 8);
      const largest = Math.max(...Object.values(l.gradient).map(Math.abs));
      expect(largest).toBeGreaterThan(0);
      for (const [key, d] of Object.entries(l.gradient)) {
        const [group, name, ax] = key.split('.');
        const mirror = group === 'left' ? `right.${name}.${ax}` : group === 'right' ? `left.${name}.${ax}` : null;
        if (!mirror) continue;
        expect(Math.abs(r.gradient[mirror] - (ax === 'y' ? -d : d)), `${m} ${key}`).toBeLessThan(1e-7 * largest);
      }
    }
  });
  it('kinemate sensitivity prints them per side on an axle, only when asked for', async () => {
    const file = 'examples/suspension/double_wishbone_axle_steering.yaml';
    const io = memoryIO();
    expect(await main(['sensitivity', file, '--at', 'bump=20', '--metric', 'kpi_virtual'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, Record<string, MetricGradient>> }[] }> };
    const printed = out.sweeps['bump=20'].steps[0].metrics;
    expect(Object.keys(printed)).toEqual(['left', 'right']);
    const lib = exactGradients(load('double_wishbone_axle_steering'), 'bump', 20);
    for (const side of ['left', 'right']) {
      expect(Object.keys(printed[side])).toEqual(['kpi_virtual']);
      expect(printed[side].kpi_virtual.value).toBeCloseTo(lib[side].kpi_virtual!.value, 9);
      expect(printed[side].kpi_virtual.gradient['center.x'] ?? 0).toBe(0);
    }
    const all = memoryIO();
    expect(await main(['sensitivity', file, '--at', 'bump=20'], all)).toBe(0);
    expect(all.written.stdout).not.toContain('_virtual');
    // an unsteered axle has no steering response: null per side, as kinemate sweep prints them
    const unsteered = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/solid_axle_panhard.yaml', '--metric', 'kpi_virtual'], unsteered)).toBe(0);
    expect((JSON.parse(unsteered.written.stdout) as typeof out).sweeps.bump.steps[0].metrics).toEqual({ left: { kpi_virtual: null }, right: { kpi_virtual: null } });
  });
});

describe('a hold of several rows: the least-squares share', () => {
  it('double wishbone corner under lower_wishbone_angle+upper_wishbone_angle (redundant, consistent) at +10 mm', () => {
    expect(check(load('double_wishbone'), 'bump', 10, 'lower_wishbone_angle+upper_wishbone_angle')).toBeLessThan(2e-4);
  });
  it('steered axle under both wishbone angles per side (four rows, two hubs) with the rack at +8 mm', () => {
    expect(check(load('double_wishbone_axle_steering'), 'steer', 8, 'lower_wishbone_angle+upper_wishbone_angle')).toBeLessThan(2e-4);
  });
  it('rows that disagree (the lower wishbone angle with the wheel-centre height, the contact patch with it): null, as kinemate sweep\'s; rows that agree at one state: a value, as kinemate sweep\'s', () => {
    const g = load('double_wishbone');
    for (const hold of ['lower_wishbone_angle+wheel_center_height', 'contact_patch+wheel_center_height']) {
      const values = sweepValues(g, 'bump', 10, hold)[''];
      const sens = exactGradients(g, 'bump', 10, hold)[''];
      for (const m of VIRTUAL_METRICS) {
        expect(values[m], `${hold} ${m}`).toBeNull();
        expect(sens[m], `${hold} ${m}`).toBeNull();
      }
    }
    // where the contact patch barely moves along the rack (the multi-link at design), those two
    // rows agree to the steering tangent's tolerance: a value in both
    const ml = load('multi_link');
    const hold = 'contact_patch+wheel_center_height';
    const values = sweepValues(ml, 'bump', 0, hold)[''], sens = exactGradients(ml, 'bump', 0, hold)[''];
    for (const m of VIRTUAL_METRICS) expect(sens[m]!.value, m).toBeCloseTo(values[m]!, 7);
    expect(sweepValues(ml, 'bump', 10, hold)[''].kpi_virtual).toBeNull();
    expect(exactGradients(ml, 'bump', 10, hold)[''].kpi_virtual).toBeNull();
  });
});
