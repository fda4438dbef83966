import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files';
import { parseLoadCase } from '../../../src/suspension/loads/loads';
import { checkLoadGradients } from './load-differences';

const six = (id: string) => ['force', 'moment'].flatMap((k) => ['x', 'y', 'z'].map((a) => `joint_${k}.${id}.${a}`));
const mixed = parseLoadCase('left: { force: [-1500, 2500, 4000], moment: [20000, -5000, 80000] }\nright: { force: [900, 1800, 3500], moment: [-10000, 3000, -40000] }', ['left', 'right']);

/** The T-bar axle with preloaded torsion bars, a rated T-bar and dampers: its bar carries load in roll. */
function ratedTBar() {
  const g = parseGeometry(readFileSync('examples/suspension/double_wishbone_axle_t_bar.yaml', 'utf8'));
  g.spring = { ...g.spring, rate: 4e5, preload: 2e5 };
  g.devices = { ...g.devices!, anti_roll_rate: 3e5, damper_rate: 3 };
  return g;
}

describe('load gradients of a joint on a fixed part (the T-bar crossbar midpoint\'s plane on the chassis)', () => {
  it('rolled −2° under a general load: every entry of the wrench on the chassis against central differences of the re-solved sweep --loads', () => {
    // ±2e-2 and ±1e-2 mm, extrapolated: the T-bar's gradients are small and the re-solve's noise is ~1e-8 N/mm at ±1e-3
    const { worst, compared, entries, zero, failures } = checkLoadGradients(ratedTBar(), 'roll', -2, mixed, six('t_bar_midplane'), 2e-2);
    expect(failures).toEqual([]);
    expect(entries.map((e) => `${e.group}:${e.m}`)).toEqual(six('t_bar_midplane').map((m) => `axle:${m}`));
    // the plane takes a force along its normal (y) only; about its origin, moments about x and z
    expect(zero).toBe(3);
    const at = (m: string) => entries.find((e) => e.m === m)!.v;
    expect(Math.abs(at('joint_force.t_bar_midplane.y').value)).toBeGreaterThan(10);
    expect(Math.abs(at('joint_moment.t_bar_midplane.x').value)).toBeGreaterThan(1e3);
    expect(Math.abs(at('joint_moment.t_bar_midplane.x').gradient['left.lower_wishbone_inboard_front.z'])).toBeGreaterThan(1);
    expect(compared).toBe(3 * 111);
    expect(worst).toBeLessThan(1e-6);
  });
});
