import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGeometry, type Geometry } from '../../../src/suspension/files';
import { parseLoadCase, type LoadCase, type StateLoads } from '../../../src/suspension/loads/loads';
import { SensitivityModel } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';
import { allJoints, checkJointGradients } from './joint-differences';
import { checkLoadGradients, loadGradients } from './load-differences';
import { gradientError, loadsOf, movedHardpoint, forgetKept } from '../moves';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const cornerCase = parseLoadCase(readFileSync('examples/suspension/loads/corner_cornering_1g.yaml', 'utf8'), ['left']);
const axleCase = parseLoadCase(readFileSync('examples/suspension/loads/cornering_1g.yaml', 'utf8'), ['left', 'right']);

/** `element_tension.<id>` / `hold_force.<hold>` in sweep --loads' output (an axle's group prefixes the side: `left_spring`, `left:wheel_center_z`). */
function valueOf(l: StateLoads, group: string, metric: string): number {
  const dot = metric.indexOf('.'), kind = metric.slice(0, dot), id = metric.slice(dot + 1);
  const side = group === '' || group === 'axle' ? '' : group;
  if (kind === 'element_tension') return (l.elements[side ? `${side}_${id}` : id] as { tension: number }).tension;
  if (kind === 'hold_force') return l.holds[side ? `${side}:${id}` : id];
  if (kind === 'element_force' || kind === 'element_moment') {
    const bar = l.elements[id.slice(0, id.lastIndexOf('.'))] as { force: number[]; moment: number[] };
    return (kind === 'element_force' ? bar.force : bar.moment)[{ x: 0, y: 1, z: 2 }[id.slice(id.lastIndexOf('.') + 1) as 'x']];
  }
  throw new Error(`not a metric here: ${metric}`);
}

/** The names offered on request of the kinds here. */
function offered(g: Geometry, lc: LoadCase): string[] {
  const model = new SensitivityModel(g), ls = new LoadSensitivity(model, lc);
  const names = model.sides.length > 1 ? new AxleLoadGradients(ls).requestable : ls.requestable;
  return names.filter((m) => m.startsWith('element_tension.') || m.startsWith('hold_force.') || m.startsWith('element_force.') || m.startsWith('element_moment.'));
}

/**
 * Every entry against central differences of the whole re-solved sweep --loads route at h and
 * h/2, extrapolated (or, not `extrapolate`, at h alone: where that was measured well inside the
 * bar); returns the failures (none expected) and the worst error. `rates`: the moved axles' loads
 * kept with their rates, for a motion-ratio check at the same state and steps (checkRatios).
 */
function check(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, metrics: readonly string[], h: number, { extrapolate = true, rates = false } = {}) {
  const { model, entries } = loadGradients(g, kind, at, lc, metrics);
  const base = loadsOf(g, kind, at, lc, rates);
  for (const { group, m, v } of entries) expect(Math.abs(v.value - valueOf(base, group, m))).toBeLessThan(1e-8 * Math.max(100, Math.abs(v.value)));
  // a force or moment component: floored at 1e-3 of the largest entry of its vector's three components
  const largest = (m: string) => Math.max(1, ...entries.filter((o) => o.m.startsWith(m.slice(0, m.lastIndexOf('.') + 1))).flatMap((o) => Object.values(o.v.gradient).map(Math.abs)));
  const floors = entries.map(({ m }) => (m.startsWith('element_force.') || m.startsWith('element_moment.') ? 1e-3 * largest(m) : 1e-3));
  let worst = 0, compared = 0;
  const failures: string[] = [];
  for (const key of model.keys) {
    const diff = (d: number) => {
      const lp = loadsOf(movedHardpoint(g, key, d), kind, at, lc, rates), lm = loadsOf(movedHardpoint(g, key, -d), kind, at, lc, rates);
      return entries.map(({ group, m }) => (valueOf(lp, group, m) - valueOf(lm, group, m)) / (2 * d));
    };
    const dh = diff(h), dh2 = extrapolate ? diff(h / 2) : dh;
    for (const [e, { group, m, v }] of entries.entries()) {
      const fd = extrapolate ? (4 * dh2[e] - dh[e]) / 3 : dh[e];
      const err = gradientError(v.gradient[key], fd, v.gradient, floors[e]);
      worst = Math.max(worst, err);
      compared++;
      if (err > 1e-6) failures.push(`${group} ${m} ${key}: exact ${v.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, compared, entries, failures };
}

describe('load gradients of element tensions and hold forces (element_tension.<id>, hold_force.<hold>), on request', () => {
  it('double wishbone corner (no spring) at 1 g cornering: the wheel hold and the rack hold, every entry', () => {
    const g = load('double_wishbone');
    const names = offered(g, cornerCase);
    expect(names.filter((m) => m.startsWith('hold_force.'))).toEqual(['hold_force.left:wheel_center_z', 'hold_force.rack']);
    // central differences at ±1e-2 alone: worst 2.3e-8 (extrapolated with ±5e-3: 3.9e-8, the noise of the shorter step)
    const { worst, entries, failures, compared } = check(g, 'bump', 20, cornerCase, names, 1e-2, { extrapolate: false });
    expect(entries.length).toBe(2);
    expect(failures).toEqual([]);
    expect(compared).toBe(2 * new SensitivityModel(g).keys.length);
    expect(worst).toBeLessThan(1e-6);
  });
  it('pushrod corner with a preloaded coilover (free length from its ends): the spring\'s tension and the holds, every entry', () => {
    const g = load('double_wishbone_pushrod');
    g.spring = { ...g.spring, rate: 2000, preload: 3000 } as Geometry['spring'];
    const names = offered(g, cornerCase);
    expect(names).toContain('element_tension.spring');
    const { worst, entries, failures } = check(g, 'bump', 15, cornerCase, names, 1e-2);
    expect(entries.length).toBe(3);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
  it('U-bar rates axle, bumped 10 and rolled 2°: both springs\' tensions and every hold, grouped by side', () => {
    const g = load('double_wishbone_axle_u_bar_rates');
    const names = offered(g, axleCase);
    expect(names).toEqual(expect.arrayContaining(['element_tension.spring', 'hold_force.wheel_center_z', 'hold_force.roll', 'hold_force.rack']));
    // at bump 10: central differences at ±5e-3 alone, worst 2.3e-7 (extrapolated from ±1e-2 and ±5e-3: 2.9e-7); the
    // moved axles kept with their rates, whose motion ratios are checked at the same steps below (checkRatios)
    const bump = check(g, 'bump', 10, axleCase, ['element_tension.spring', 'hold_force.wheel_center_z', 'hold_force.rack'], 5e-3, { extrapolate: false, rates: true });
    expect(bump.entries.map((e) => `${e.group}:${e.m}`).sort()).toEqual(['axle:hold_force.rack', 'left:element_tension.spring', 'left:hold_force.wheel_center_z', 'right:element_tension.spring', 'right:hold_force.wheel_center_z']);
    expect(bump.failures).toEqual([]);
    const roll = check(g, 'roll', 2, axleCase, ['element_tension.spring', 'hold_force.roll', 'hold_force.rack'], 1e-2);
    expect(roll.entries.length).toBe(5);
    expect(roll.failures).toEqual([]);
    expect(Math.max(bump.worst, roll.worst)).toBeLessThan(1e-6);
  }, 300_000); // 666 re-solved axles: over the default minute on a loaded machine
  it('U-bar rates axle rolled 2°: the bar\'s force and moment on its b part (its frames moving with the axis points), every entry', () => {
    const g = load('double_wishbone_axle_u_bar_rates');
    const names = offered(g, axleCase).filter((m) => m.startsWith('element_force.') || m.startsWith('element_moment.'));
    expect(names.length).toBe(6);
    const { worst, entries, failures } = check(g, 'roll', 2, axleCase, names, 1e-2);
    expect(entries.map((e) => e.group)).toEqual(new Array(6).fill('axle'));
    expect(Math.abs(entries.find((e) => e.m === 'element_moment.arb.y')!.v.value)).toBeGreaterThan(1e5);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
});

// The U-bar axle's joints live here beside its tensions and its bar's force: rolled 2° under the same
// load case, by the same steps, so loadsOf re-solves each moved axle once for all three (444 re-solves).
describe('load gradients of the joints\' reactions on the U-bar axle (joint_force.<mate>.<axis>, joint_moment.…), on request', () => {
  it('U-bar axle rolled 2°: every joint — the bar arms\' hinges (the bar\'s moment, its frames moving with the axis points), rockers, balls, the rack slide; grouped by side', () => {
    const g = load('double_wishbone_axle_u_bar_rates');
    const { worst, entries } = checkJointGradients(g, 'roll', 2, axleCase, allJoints(g, axleCase), 1e-2);
    expect(entries.map((e) => `${e.group}:${e.m}`)).toContain('axle:joint_moment.rack_slide.z');
    expect(entries.map((e) => `${e.group}:${e.m}`)).toContain('right:joint_moment.arb_hinge.y');
    expect(entries.length).toBe(13 * 6);
    expect(worst).toBeLessThan(1e-6);
  });
});

// The U-bar axle's link forces live here too: rolled 2° under the same load case, by its tensions' Richardson pair
// above (±1e-2 and ±5e-3 mm), so loadsOf re-solves each moved axle once for them as well. (Central differences
// at ±1e-2 alone miss the rack force's entries by up to 1.9e-5; loads-axle.test.ts checked them at ±1e-3.)
describe('load gradients of the U-bar axle\'s links (link_force.<link>, rack_force), grouped by side', () => {
  it('U-bar axle with rated coilovers (free length regenerated) and a rated bar, rolled 2°: every entry of every link force and the rack force', () => {
    const g = load('double_wishbone_axle_u_bar_rates');
    const model = new SensitivityModel(g);
    const names = new AxleLoadGradients(new LoadSensitivity(model, axleCase)).names;
    const { worst, compared, entries, failures } = checkLoadGradients(g, 'roll', 2, axleCase, names, 1e-2);
    if (process.env.SHOW) console.log(`U-bar links, Richardson over ±1e-2 and ±5e-3: worst ${worst}`);
    expect(failures).toEqual([]);
    expect(entries.map((e) => `${e.group}:${e.m}`).sort()).toEqual(['axle:rack_force', ...['left', 'right'].flatMap((s) => ['droplink', 'pushrod', 'trackrod'].map((l) => `${s}:link_force.${l}`))]);
    expect(compared).toBe(7 * model.keys.length);
    expect(worst).toBeLessThan(1e-6);
    // the bar carries load in roll, and its axis points move it
    const droplink = entries.find((e) => e.group === 'left' && e.m === 'link_force.droplink')!.v;
    expect(Math.abs(droplink.value)).toBeGreaterThan(100);
    expect(Math.abs(droplink.gradient['center.arb_u_bar_axis_a.z'])).toBeGreaterThan(1);
  });
});

// The motion ratios' gradients live here beside the tensions': the U-bar axle's checks at bump 10 move the
// same points by the same steps (±5e-3) under the same load case, so loadsOf re-solves each moved axle once for both.

/** `motion_ratio.<element>.<side>` in sweep --loads' rates (an axle's group prefixes the element: `left_spring`). */
function ratioOf(l: StateLoads, group: string, metric: string): number {
  const rest = metric.slice('motion_ratio.'.length), side = rest.slice(rest.lastIndexOf('.') + 1), id = rest.slice(0, rest.lastIndexOf('.'));
  return l.rates!.motion_ratios[group === '' || group === 'axle' ? id : `${group}_${id}`][side];
}

/** Every entry against central differences of the re-solved sweep --loads' motion ratios at ±h (their noise ~1e-17 over 2h). */
function checkRatios(g: Geometry, at: number, lc: LoadCase, metrics: readonly string[], h: number) {
  const { model, entries } = loadGradients(g, 'bump', at, lc, metrics);
  const base = loadsOf(g, 'bump', at, lc, true);
  for (const { group, m, v } of entries) expect(Math.abs(v.value - ratioOf(base, group, m))).toBeLessThan(1e-9);
  // a cross ratio zero by symmetry (a spring against the other hub), its gradient zero too: its
  // differences are the re-solves' rounding (the ratio's ~1e-17 over 2h), checked to stay there
  const zero = new Set(entries.filter(({ v }) => Math.abs(v.value) < 1e-12 && Object.values(v.gradient).every((d) => Math.abs(d) < 1e-15)).map(({ v }) => v));
  let worst = 0, compared = 0;
  const failures: string[] = [];
  for (const key of model.keys) {
    const lp = loadsOf(movedHardpoint(g, key, h), 'bump', at, lc, true), lm = loadsOf(movedHardpoint(g, key, -h), 'bump', at, lc, true);
    for (const { group, m, v } of entries) {
      const fd = (ratioOf(lp, group, m) - ratioOf(lm, group, m)) / (2 * h);
      if (zero.has(v)) { if (!(Math.abs(fd) < 1e-13)) failures.push(`${group} ${m} ${key}: zero, differences ${fd}`); continue; }
      const err = gradientError(v.gradient[key], fd, v.gradient, 1e-9);
      worst = Math.max(worst, err);
      compared++;
      if (err > 1e-6) failures.push(`${group} ${m} ${key}: exact ${v.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, compared, entries, zero: zero.size, failures };
}

describe('gradients of the motion ratios (motion_ratio.<element>.<side>), on request', () => {
  it('pushrod corner: the coilover\'s d(length)/d(hub z), every entry', () => {
    const g = load('double_wishbone_pushrod');
    g.spring = { ...g.spring, rate: 2000 } as Geometry['spring'];
    // ±5e-3: worst 4.6e-8 (extrapolated from ±1e-2 and ±5e-3 as before: 5.2e-8)
    const { worst, entries, failures } = checkRatios(g, 15, cornerCase, ['motion_ratio.spring.left'], 5e-3);
    expect(entries.length).toBe(1);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
  it('U-bar rates axle at bump 10: each spring against its own hub, grouped by side', () => {
    const g = load('double_wishbone_axle_u_bar_rates');
    // ±5e-3 (the tensions' re-solves above): worst 1.7e-7 (extrapolated from ±1e-2 and ±5e-3 as before: 7.0e-8)
    const { worst, entries, failures, zero } = checkRatios(g, 10, axleCase, ['motion_ratio.spring.left', 'motion_ratio.spring.right'], 5e-3);
    const own = entries.filter((e) => e.m.endsWith(`.${e.group}`));
    expect(own.map((e) => `${e.group}:${e.m}`).sort()).toEqual(['left:motion_ratio.spring.left', 'right:motion_ratio.spring.right']);
    // the two cross ratios, and only they, are zero
    expect(zero).toBe(2);
    expect(own.every(({ v }) => Math.abs(v.value) > 0.01)).toBe(true);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
});
