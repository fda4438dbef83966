import { expect } from 'vitest';
import { sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import type { LoadCase, StateLoads } from '../../../src/suspension/loads/loads';
import { SensitivityModel, sensitivitySweep, sensitivitySweepBySide, type MetricGradient } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';
import { gradientError, loadsOf, movedHardpoint } from '../moves';

/**
 * A load metric's value in `kinemate sweep --loads`' output: `rack_force`, `link_force.<link>`,
 * `joint_force.<mate>.<axis>`, `joint_moment.…`, a bar's `element_force.<id>.<axis>`,
 * `element_moment.…`; an axle's group prefixes the side (`left` + `link_force.trackrod` is link
 * `left_trackrod`).
 */
export function loadValue(l: StateLoads, group: string, metric: string): number {
  if (metric === 'rack_force') return l.rack_force!;
  const kind = metric.slice(0, metric.indexOf('.')), rest = metric.slice(metric.indexOf('.') + 1);
  const full = (id: string) => (group === '' || group === 'axle' ? id : `${group}_${id}`);
  if (kind === 'link_force') return l.links[full(rest)];
  const id = rest.slice(0, rest.lastIndexOf('.')), axis = { x: 0, y: 1, z: 2 }[rest.slice(rest.lastIndexOf('.') + 1) as 'x'];
  const w = kind.startsWith('element_') ? (l.elements[full(id)] as { force: number[]; moment: number[] }) : l.joints[full(id)];
  return (kind === 'joint_force' || kind === 'element_force' ? w.force : w.moment)[axis];
}

export interface LoadEntry { group: string; m: string; v: MetricGradient }

/** The exact load gradients of `metrics` at one state (a corner's group is ''). */
export function loadGradients(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, metrics: readonly string[]): { model: SensitivityModel; entries: LoadEntry[] } {
  const model = new SensitivityModel(g);
  const ls = new LoadSensitivity(model, lc);
  const spec = sweepFromShortcut(kind, `${at}:${at}:1`, g);
  if (model.sides.length > 1) {
    const got = sensitivitySweepBySide(model, spec, metrics, 'adjoint', new AxleLoadGradients(ls)).steps[0].metrics!;
    return { model, entries: Object.entries(got).flatMap(([group, ms]) => Object.entries(ms).map(([m, v]) => ({ group, m, v: v! }))) };
  }
  const got = sensitivitySweep(model, spec, metrics, 'adjoint', ls).steps[0].metrics!;
  return { model, entries: Object.entries(got).map(([m, v]) => ({ group: '', m, v: v! })) };
}

/**
 * Every entry against central differences of the whole re-solved `sweep --loads` route at h
 * and h/2, extrapolated (Richardson: the h² term out, so a step long enough to keep the
 * re-solve's noise small). A force or moment component's error is floored at 1e-3 of the
 * largest entry of its vector's three components (a joint's or a bar's force or moment); a metric that is zero with a zero gradient
 * (by construction) has its differences checked to be below `zeroTol`. `extrapolate: false`: the
 * central difference at h alone, where that was measured well inside the bar (half the re-solves).
 */
export function checkLoadGradients(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, metrics: readonly string[], h: number, opts: { keys?: readonly string[]; zeroTol?: number; tol?: number; extrapolate?: boolean } = {}) {
  const extrapolate = opts.extrapolate ?? true;
  const { model, entries } = loadGradients(g, kind, at, lc, metrics);
  const base = loadsOf(g, kind, at, lc);
  for (const { group, m, v } of entries) expect(Math.abs(v.value - loadValue(base, group, m))).toBeLessThan(1e-8 * Math.max(100, Math.abs(v.value)));
  const zero = new Set(entries.filter(({ v }) => Math.abs(v.value) < 1e-6 && Object.values(v.gradient).every((d) => Math.abs(d) < 1e-9)).map(({ v }) => v));
  const largest = (v: MetricGradient) => Math.max(...Object.values(v.gradient).map(Math.abs));
  const vectorOf = (e: LoadEntry) => (e.m.startsWith('joint_') || e.m.startsWith('element_') ? `${e.group}:${e.m.slice(0, e.m.lastIndexOf('.'))}` : `${e.group}:${e.m}`);
  const vectorLargest = new Map(entries.map((e) => [e.v, Math.max(...entries.filter((o) => vectorOf(o) === vectorOf(e)).map((o) => largest(o.v)))]));
  let worst = 0, compared = 0;
  const failures: string[] = [];
  for (const key of opts.keys ?? model.keys) {
    const diff = (d: number) => {
      const lp = loadsOf(movedHardpoint(g, key, d), kind, at, lc), lm = loadsOf(movedHardpoint(g, key, -d), kind, at, lc);
      return entries.map(({ group, m }) => (loadValue(lp, group, m) - loadValue(lm, group, m)) / (2 * d));
    };
    const dh = diff(h), dh2 = extrapolate ? diff(h / 2) : dh;
    for (const [e, { group, m, v }] of entries.entries()) {
      const fd = extrapolate ? (4 * dh2[e] - dh[e]) / 3 : dh[e];
      if (zero.has(v)) { if (!(Math.abs(fd) < (opts.zeroTol ?? 1e-4))) failures.push(`${group} ${m} ${key}: zero, differences ${fd}`); continue; }
      const err = gradientError(v.gradient[key], fd, v.gradient, 1e-3 * vectorLargest.get(v)!);
      worst = Math.max(worst, err);
      compared++;
      if (err > (opts.tol ?? 1e-6)) failures.push(`${group} ${m} ${key}: exact ${v.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, compared, entries, zero: zero.size, failures };
}
