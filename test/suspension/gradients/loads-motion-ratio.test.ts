import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, type Geometry } from '../../../src/suspension/files';
import { parseLoadCase, type LoadCase, type StateLoads } from '../../../src/suspension/loads/loads';
import { loadGradients } from './load-differences';
import { gradientError, loadsOf, movedHardpoint } from '../moves';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const cornerCase = parseLoadCase(readFileSync('examples/suspension/loads/corner_cornering_1g.yaml', 'utf8'), ['left']);
const axleCase = parseLoadCase(readFileSync('examples/suspension/loads/cornering_1g.yaml', 'utf8'), ['left', 'right']);

/** `motion_ratio.<element>.<side>` in sweep --loads' rates (an axle's group prefixes the element: `left_spring`). */
function valueOf(l: StateLoads, group: string, metric: string): number {
  const rest = metric.slice('motion_ratio.'.length), side = rest.slice(rest.lastIndexOf('.') + 1), id = rest.slice(0, rest.lastIndexOf('.'));
  return l.rates!.motion_ratios[group === '' || group === 'axle' ? id : `${group}_${id}`][side];
}

/** Every entry against extrapolated central differences of the re-solved sweep --loads' motion ratios. */
function check(g: Geometry, at: number, lc: LoadCase, metrics: readonly string[], h: number) {
  const { model, entries } = loadGradients(g, 'bump', at, lc, metrics);
  const base = loadsOf(g, 'bump', at, lc);
  for (const { group, m, v } of entries) expect(Math.abs(v.value - valueOf(base, group, m))).toBeLessThan(1e-9);
  let worst = 0, compared = 0;
  const failures: string[] = [];
  for (const key of model.keys) {
    const diff = (d: number) => {
      const lp = loadsOf(movedHardpoint(g, key, d), 'bump', at, lc), lm = loadsOf(movedHardpoint(g, key, -d), 'bump', at, lc);
      return entries.map(({ group, m }) => (valueOf(lp, group, m) - valueOf(lm, group, m)) / (2 * d));
    };
    const dh = diff(h), dh2 = diff(h / 2);
    for (const [e, { group, m, v }] of entries.entries()) {
      const fd = (4 * dh2[e] - dh[e]) / 3;
      // a cross ratio zero by symmetry (a spring against the other hub): its differences are noise
      const err = gradientError(v.gradient[key], fd, v.gradient, 1e-9);
      worst = Math.max(worst, err);
      compared++;
      if (err > 1e-6) failures.push(`${group} ${m} ${key}: exact ${v.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, compared, entries, failures };
}

describe('gradients of the motion ratios (motion_ratio.<element>.<side>), on request', () => {
  it('pushrod corner: the coilover\'s d(length)/d(hub z), every entry', () => {
    const g = load('double_wishbone_pushrod');
    g.spring = { ...g.spring, rate: 2000 } as Geometry['spring'];
    const { worst, entries, failures } = check(g, 15, cornerCase, ['motion_ratio.spring.left'], 1e-2);
    expect(entries.length).toBe(1);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
  it('U-bar rates axle at bump 10: each spring against its own hub, grouped by side', () => {
    const g = load('double_wishbone_axle_u_bar_rates');
    const { worst, entries, failures } = check(g, 10, axleCase, ['motion_ratio.spring.left', 'motion_ratio.spring.right'], 1e-2);
    const own = entries.filter((e) => e.m.endsWith(`.${e.group}`));
    expect(own.map((e) => `${e.group}:${e.m}`).sort()).toEqual(['left:motion_ratio.spring.left', 'right:motion_ratio.spring.right']);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
});
