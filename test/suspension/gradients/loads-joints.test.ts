import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { parseLoadCase, type LoadCase, type StateLoads } from '../../../src/suspension/loads/loads';
import { SensitivityModel, sensitivitySweep, sensitivitySweepBySide, type MetricGradient } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';
import { gradientError, loadsOf, movedHardpoint } from '../moves';
import { checkLoadGradients } from './load-differences';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const mixed = parseLoadCase('left: { force: [-1500, 2500, 4000], moment: [20000, -5000, 80000] }\nright: { force: [900, 1800, 3500], moment: [-10000, 3000, -40000] }', ['left', 'right']);

/** `joint_force.<mate>.<axis>` in the sweep's loads (an axle's group prefixes the side: `left` + `joint_force.lower_ball.x` is mate left_lower_ball). */
function valueOf(l: StateLoads, group: string, metric: string): number {
  const [kind, rest] = [metric.slice(0, metric.indexOf('.')), metric.slice(metric.indexOf('.') + 1)];
  const id = rest.slice(0, rest.lastIndexOf('.')), axis = { x: 0, y: 1, z: 2 }[rest.slice(rest.lastIndexOf('.') + 1) as 'x'];
  const w = l.joints[group === '' || group === 'axle' ? id : `${group}_${id}`];
  return (kind === 'joint_force' ? w.force : w.moment)[axis];
}

/** Every entry of every asked joint metric against central differences of the re-solved pipeline (at h and h/2, extrapolated, unless not `extrapolate`). */
function check(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, metrics: readonly string[], h: number, extrapolate = true) {
  const model = new SensitivityModel(g);
  const ls = new LoadSensitivity(model, lc);
  const spec = sweepFromShortcut(kind, `${at}:${at}:1`, g);
  let entries: { group: string; m: string; v: MetricGradient }[];
  if (model.sides.length > 1) {
    const extra = new AxleLoadGradients(ls);
    const got = sensitivitySweepBySide(model, spec, metrics, 'adjoint', extra).steps[0].metrics!;
    entries = Object.entries(got).flatMap(([group, ms]) => Object.entries(ms).map(([m, v]) => ({ group, m, v: v! })));
  } else {
    const got = sensitivitySweep(model, spec, metrics, 'adjoint', ls).steps[0].metrics!;
    entries = Object.entries(got).map(([m, v]) => ({ group: '', m, v: v! }));
  }
  const base = loadsOf(g, kind, at, lc);
  for (const { group, m, v } of entries) if (!(Math.abs(v.value - valueOf(base, group, m)) < 1e-8 * Math.max(100, Math.abs(v.value)))) throw new Error(`${group} ${m}: ${v.value} vs ${valueOf(base, group, m)}`);
  const zero = new Set(entries.filter(({ v }) => Math.abs(v.value) < 1e-6 && Object.values(v.gradient).every((d) => Math.abs(d) < 1e-9)).map(({ v }) => v));
  // a component of a force or moment vector: floored at 1e-3 of the largest entry of the vector's three components
  const largest = (v: MetricGradient) => Math.max(...Object.values(v.gradient).map(Math.abs));
  const vectorOf = (e: { group: string; m: string }) => `${e.group}:${e.m.slice(0, e.m.lastIndexOf('.'))}`;
  const vectorLargest = new Map(entries.map((e) => [e.v, Math.max(...entries.filter((o) => vectorOf(o) === vectorOf(e)).map((o) => largest(o.v)))]));
  let worst = 0, compared = 0;
  for (const key of model.keys) {
    const diff = (d: number) => {
      const lp = loadsOf(movedHardpoint(g, key, d), kind, at, lc), lm = loadsOf(movedHardpoint(g, key, -d), kind, at, lc);
      return entries.map(({ group, m }) => (valueOf(lp, group, m) - valueOf(lm, group, m)) / (2 * d));
    };
    // Richardson's extrapolation of central differences at h and h/2: the h² term out, so a step long enough to keep the re-solve's noise small
    const dh = diff(h), dh2 = extrapolate ? diff(h / 2) : dh;
    for (const [e, { group, m, v }] of entries.entries()) {
      const fd = extrapolate ? (4 * dh2[e] - dh[e]) / 3 : dh[e];
      // a component zero by construction (a ball joint's moment about its centre): zero gradient, differences of noise
      if (zero.has(v)) { expect(Math.abs(fd)).toBeLessThan(1e-4); continue; }
      const err = gradientError(v.gradient[key], fd, v.gradient, 1e-3 * vectorLargest.get(v)!);
      worst = Math.max(worst, err);
      compared++;
      if (err > 1e-6) throw new Error(`${group} ${m} ${key}: exact ${v.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, compared, entries, zero: zero.size };
}
const six = (id: string) => ['force', 'moment'].flatMap((k) => ['x', 'y', 'z'].map((a) => `joint_${k}.${id}.${a}`));

/**
 * The T-bar axle with preloaded torsion bars, a rated T-bar and dampers: its bar carries load in roll.
 * Its two checks below (every joint, and the one on the chassis) move the same points by the same
 * steps under the same load case: loadsOf re-solves each moved axle once for both.
 */
function ratedTBar() {
  const g = load('double_wishbone_axle_t_bar');
  g.spring = { ...g.spring, rate: 4e5, preload: 2e5 };
  g.devices = { ...g.devices!, anti_roll_rate: 3e5, damper_rate: 3 };
  return g;
}

/** Every joint's six metrics (an axle's by their group-local names), but those on a fixed part (refused). */
function allJoints(g: Geometry, lc: LoadCase, but: readonly string[] = []): string[] {
  const model = new SensitivityModel(g), ls = new LoadSensitivity(model, lc);
  const names = model.sides.length > 1 ? new AxleLoadGradients(ls).requestable : ls.requestable;
  return names.filter((m) => m.startsWith('joint_') && !but.some((id) => m.includes(`.${id}.`)));
}

describe('load gradients of the joints\' reactions (joint_force.<mate>.<axis>, joint_moment.…), on request', () => {
  it('double wishbone corner: every joint (hinges, balls, the rack slide), every entry against central differences', () => {
    const lc = parseLoadCase('left: { corner_mass: 300, cornering_g: 1.0, braking_g: 0.3 }', ['left']);
    const g = load('double_wishbone');
    const { worst, entries, zero } = check(g, 'bump', 20, lc, allJoints(g, lc), 1e-2);
    expect(entries.length).toBe(5 * 6);
    expect(zero).toBe(9); // the balls' moments about their centres, the corner rack's moments
    expect(worst).toBeLessThan(1e-6);
  });
  it('MacPherson corner under a general load: every joint (the strut\'s slide, the top mount), every entry', () => {
    const g = load('macpherson');
    const { worst, entries } = check(g, 'bump', -15, parseLoadCase('left: { force: [-1500, 2500, 4000], moment: [20000, -5000, 80000] }', ['left']), allJoints(g, mixed), 1e-2);
    expect(entries.length).toBeGreaterThanOrEqual(4 * 6);
    expect(worst).toBeLessThan(1e-6);
  });
  it('U-bar axle rolled 2°: every joint — the bar arms\' hinges (the bar\'s moment, its frames moving with the axis points), rockers, balls, the rack slide; grouped by side', () => {
    const g = load('double_wishbone_axle_u_bar_rates');
    const lc = parseLoadCase(readFileSync('examples/suspension/loads/cornering_1g.yaml', 'utf8'), ['left', 'right']);
    const { worst, entries } = check(g, 'roll', 2, lc, allJoints(g, lc), 1e-2);
    expect(entries.map((e) => `${e.group}:${e.m}`)).toContain('axle:joint_moment.rack_slide.z');
    expect(entries.map((e) => `${e.group}:${e.m}`)).toContain('right:joint_moment.arb_hinge.y');
    expect(entries.length).toBe(13 * 6);
    expect(worst).toBeLessThan(1e-6);
  });
  it('T-bar axle rolled −2° with torsion bars: every joint but the crossbar midpoint\'s plane on the chassis (a fixed part: below)', () => {
    const g = ratedTBar();
    const { worst, entries } = check(g, 'roll', -2, mixed, allJoints(g, mixed, ['t_bar_midplane']), 2e-2); // the T's pivot's gradients are small: a longer step keeps the re-solve's noise out
    expect(entries.length).toBe(12 * 6);
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
