/**
 * The joints' reactions (joint_force.<mate>.<axis>, joint_moment.…) against central differences
 * of the re-solved pipeline: loads-joints.test.ts's checks, and the U-bar axle's in
 * loads-elements.test.ts (which re-solves the same moved axles for its tensions).
 */
import { expect } from 'vitest';
import { sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import type { LoadCase, StateLoads } from '../../../src/suspension/loads/loads';
import { SensitivityModel, sensitivitySweep, sensitivitySweepBySide, type MetricGradient } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';
import { gradientError, loadsOf, movedHardpoint } from '../moves';

/** `joint_force.<mate>.<axis>` in the sweep's loads (an axle's group prefixes the side: `left` + `joint_force.lower_ball.x` is mate left_lower_ball). */
export function jointValue(l: StateLoads, group: string, metric: string): number {
  const [kind, rest] = [metric.slice(0, metric.indexOf('.')), metric.slice(metric.indexOf('.') + 1)];
  const id = rest.slice(0, rest.lastIndexOf('.')), axis = { x: 0, y: 1, z: 2 }[rest.slice(rest.lastIndexOf('.') + 1) as 'x'];
  const w = l.joints[group === '' || group === 'axle' ? id : `${group}_${id}`];
  return (kind === 'joint_force' ? w.force : w.moment)[axis];
}

/** Every entry of every asked joint metric against central differences of the re-solved pipeline (at h and h/2, extrapolated, unless not `extrapolate`). */
export function checkJointGradients(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, metrics: readonly string[], h: number, extrapolate = true) {
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
  for (const { group, m, v } of entries) if (!(Math.abs(v.value - jointValue(base, group, m)) < 1e-8 * Math.max(100, Math.abs(v.value)))) throw new Error(`${group} ${m}: ${v.value} vs ${jointValue(base, group, m)}`);
  const zero = new Set(entries.filter(({ v }) => Math.abs(v.value) < 1e-6 && Object.values(v.gradient).every((d) => Math.abs(d) < 1e-9)).map(({ v }) => v));
  // a component of a force or moment vector: floored at 1e-3 of the largest entry of the vector's three components
  const largest = (v: MetricGradient) => Math.max(...Object.values(v.gradient).map(Math.abs));
  const vectorOf = (e: { group: string; m: string }) => `${e.group}:${e.m.slice(0, e.m.lastIndexOf('.'))}`;
  const vectorLargest = new Map(entries.map((e) => [e.v, Math.max(...entries.filter((o) => vectorOf(o) === vectorOf(e)).map((o) => largest(o.v)))]));
  let worst = 0, compared = 0;
  for (const key of model.keys) {
    const diff = (d: number) => {
      const lp = loadsOf(movedHardpoint(g, key, d), kind, at, lc), lm = loadsOf(movedHardpoint(g, key, -d), kind, at, lc);
      return entries.map(({ group, m }) => (jointValue(lp, group, m) - jointValue(lm, group, m)) / (2 * d));
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

/** Every joint's six metrics (an axle's by their group-local names), but those on a fixed part (refused). */
export function allJoints(g: Geometry, lc: LoadCase, but: readonly string[] = []): string[] {
  const model = new SensitivityModel(g), ls = new LoadSensitivity(model, lc);
  const names = model.sides.length > 1 ? new AxleLoadGradients(ls).requestable : ls.requestable;
  return names.filter((m) => m.startsWith('joint_') && !but.some((id) => m.includes(`.${id}.`)));
}
