import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetKept } from '../moves';
import { parseGeometry } from '../../../src/suspension/files';
import { parseLoadCase } from '../../../src/suspension/loads/loads';
import { checkLoadGradients } from './load-differences';
import { allJoints, checkJointGradients } from './joint-differences';
import { checkLinkGradients } from './link-differences';
import { SensitivityModel } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const mixed = parseLoadCase('left: { force: [-1500, 2500, 4000], moment: [20000, -5000, 80000] }\nright: { force: [900, 1800, 3500], moment: [-10000, 3000, -40000] }', ['left', 'right']);

const six = (id: string) => ['force', 'moment'].flatMap((k) => ['x', 'y', 'z'].map((a) => `joint_${k}.${id}.${a}`));

/**
 * The T-bar axle with preloaded torsion bars, a rated T-bar and dampers: its bar carries load in roll.
 * Its checks below (every joint, its links, its own force and moment, the joint on the chassis) move the same points by the same
 * steps under the same load case: loadsOf re-solves each moved axle once for all of them.
 */
function ratedTBar() {
  const g = load('double_wishbone_axle_t_bar');
  g.spring = { ...g.spring, rate: 4e5, preload: 2e5 };
  g.devices = { ...g.devices!, anti_roll_rate: 3e5, damper_rate: 3 };
  return g;
}

describe('load gradients of the joints\' reactions (joint_force.<mate>.<axis>, joint_moment.…), on request', () => {
  it('double wishbone corner: every joint (hinges, balls, the rack slide), every entry against central differences', () => {
    const lc = parseLoadCase('left: { corner_mass: 300, cornering_g: 1.0, braking_g: 0.3 }', ['left']);
    const g = load('double_wishbone');
    // central differences at ±1e-2 alone: worst 4.9e-8 (extrapolated with ±5e-3: 1.2e-7, the shorter step's noise)
    const { worst, entries, zero } = checkJointGradients(g, 'bump', 20, lc, allJoints(g, lc), 1e-2, false);
    expect(entries.length).toBe(5 * 6);
    expect(zero).toBe(9); // the balls' moments about their centres, the corner rack's moments
    expect(worst).toBeLessThan(1e-6);
  });
  it('MacPherson corner under a general load: every joint (the strut\'s slide, the top mount), every entry', () => {
    const g = load('macpherson');
    // central differences at ±1e-2 alone: worst 3.7e-8 (extrapolated with ±5e-3: 9.2e-8)
    const { worst, entries } = checkJointGradients(g, 'bump', -15, parseLoadCase('left: { force: [-1500, 2500, 4000], moment: [20000, -5000, 80000] }', ['left']), allJoints(g, mixed), 1e-2, false);
    expect(entries.length).toBeGreaterThanOrEqual(4 * 6);
    expect(worst).toBeLessThan(1e-6);
  });
  it('T-bar axle rolled −2° with torsion bars: every joint but the crossbar midpoint\'s plane on the chassis (a fixed part: below)', () => {
    const g = ratedTBar();
    const { worst, entries } = checkJointGradients(g, 'roll', -2, mixed, allJoints(g, mixed, ['t_bar_midplane']), 2e-2); // the T's pivot's gradients are small: a longer step keeps the re-solve's noise out
    expect(entries.length).toBe(12 * 6);
    expect(worst).toBeLessThan(1e-6);
  });
});

// The rated T-bar's link forces (every entry against differences at ±1e-2 mm) live here beside its
// joints, whose Richardson differences move the same points by ±1e-2 mm under the same load case:
// loadsOf re-solves those moved axles once for both.
describe('load gradients on an axle, grouped by side: the rated T-bar\'s links', () => {
  it('T-bar axle with preloaded torsion bars on the rockers, a rated T-bar and dampers, rolled −2° under a general load', () => {
    const g = ratedTBar();
    // differences over ±1e-2 mm: the re-solve's noise is ~1e-8 N/mm at ±1e-3 (the difference's h² term stays below 1e-9 N/mm)
    const { worst, got } = checkLinkGradients(g, 'roll', -2, mixed, 1e-2);
    expect(worst).toBeLessThan(1e-6);
    expect(Math.abs(got.right['link_force.pushrod']!.gradient['center.arb_t_bar_pivot.x'])).toBeGreaterThan(1e-3);
  });
});

// The rated T-bar's own force and moment live here too, at the same state and steps as its joints and
// under the same load case: loadsOf re-solves the moved axles once for all of them.
describe('load gradients of the rated T-bar\'s force and moment (element_force.<id>.<axis>, element_moment.…), on request', () => {
  it('rolled −2° under a general load: every entry, its frames moving with the pivot and droplink ends', () => {
    const g = ratedTBar();
    const names = new AxleLoadGradients(new LoadSensitivity(new SensitivityModel(g), mixed)).requestable.filter((m) => m.startsWith('element_force.') || m.startsWith('element_moment.'));
    expect(names.length).toBe(6);
    // ±2e-2 and ±1e-2 mm, extrapolated, as its joints
    const { worst, compared, entries, zero, failures } = checkLoadGradients(g, 'roll', -2, mixed, names, 2e-2);
    if (process.env.SHOW) console.log(`T-bar element: worst ${worst}, compared ${compared}, zero ${zero}`, entries.map((e) => [e.m, e.v.value, Math.max(...Object.values(e.v.gradient).map(Math.abs))]));
    expect(failures).toEqual([]);
    expect(entries.map((e) => e.group)).toEqual(new Array(6).fill('axle'));
    // the bar carries load in roll
    expect(Math.max(...entries.filter((e) => e.m.startsWith('element_moment.')).map((e) => Math.abs(e.v.value)))).toBeGreaterThan(1e4);
    // the bar's force is zero with a zero gradient (its differences checked to be noise); its moment's y and z are zero here but move with the points
    expect(zero).toBe(3);
    expect(compared).toBe(3 * 111);
    expect(worst).toBeLessThan(1e-6);
  });
});

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
