/**
 * The device checks' comparisons (devices.test.ts, bar-axles.test.ts): gradients of `kinemate
 * sensitivity` against central differences of `kinemate sweep`'s values with the geometry moved,
 * rebuilt and re-solved (moves.ts sweptMetrics: each moved geometry solved once per state for
 * every check in a worker), and the adjoint route against the direct one.
 */
import { expect } from 'vitest';
import { gradientError, movedHardpoint, sweptMetrics } from '../moves';
import { sweepFromShortcut, type Geometry, type SweepSpec } from '../../../src/suspension/files';
import { SensitivityModel, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';

export type Values = Record<string, Record<string, number | null>>;

/**
 * `kinemate sweep`'s metrics at the spec's first state, grouped as the sensitivity groups them
 * (kept: the checks of different metrics of one axle at one state, its steering, its hub rates
 * and its *_virtual, re-solve each moved geometry once).
 */
export function valuesOf(g: Geometry, spec: (g: Geometry) => SweepSpec): Values {
  return sweptMetrics(g, spec(g)) as unknown as Values;
}

/** `kinemate sensitivity`'s gradients at the spec's first state, grouped by side. */
export function gradientsOf(g: Geometry, spec: (g: Geometry) => SweepSpec, metrics: string[], mode: 'adjoint' | 'direct' = 'adjoint'): SideMetrics {
  const step = sensitivitySweepBySide(new SensitivityModel(g), spec(g), metrics, mode).steps[0];
  expect(step.status).toBe('solved');
  return step.metrics!;
}

/**
 * Every entry of every named metric (`<group>.<name>`) against central differences over ±h.
 * Relative error against the difference, floored at 1e-3 of the metric's largest entry (an
 * entry near zero has only the re-solve's noise to compare with). h = 1e-2 mm: at 1e-3 the
 * re-solve's noise (about 1e-10 in the metric) alone is 1e-6 of the smaller entries, while
 * the truncation at 1e-2 stays under 1e-7 (measured on the U-bar's arb_twist). The value is
 * checked against the sweep's to `digits` decimals (an instant centre's swing arm is ~5e4 mm: 6).
 * Returns the worst.
 */
export function checkAgainstDifferences(g: Geometry, spec: (g: Geometry) => SweepSpec, names: string[], tol: number, h = 1e-2, digits = 9): { worst: number; grads: SideMetrics } {
  const metrics = [...new Set(names.map((n) => n.split('.')[1]))];
  const grads = gradientsOf(g, spec, metrics);
  const base = valuesOf(g, spec);
  let worst = 0;
  const keys = Object.keys(grads[names[0].split('.')[0]][metrics[0]]!.gradient);
  const moved = keys.map((key) => [key, valuesOf(movedHardpoint(g, key, h), spec), valuesOf(movedHardpoint(g, key, -h), spec)] as const);
  for (const name of names) {
    const [group, m] = name.split('.');
    const exact = grads[group][m];
    expect(exact, name).not.toBeNull();
    expect(exact!.value).toBeCloseTo(base[group][m] as number, digits);
    const largest = Math.max(...Object.values(exact!.gradient).map(Math.abs));
    expect(largest, `${name} has a gradient`).toBeGreaterThan(0);
    for (const [key, mp, mm] of moved) {
      const fd = ((mp[group][m] as number) - (mm[group][m] as number)) / (2 * h);
      const err = Math.abs(exact!.gradient[key] - fd) / Math.max(Math.abs(fd), 1e-3 * largest);
      worst = Math.max(worst, err);
      if (err > tol) throw new Error(`${name} ${key}: exact ${exact!.gradient[key]}, differences ${fd}`);
    }
  }
  return { worst, grads };
}

/** Adjoint against direct (one solve per coordinate): the same numbers by two routes. */
export function checkAdjointDirect(g: Geometry, spec: (g: Geometry) => SweepSpec, names: string[]): void {
  const metrics = [...new Set(names.map((n) => n.split('.')[1]))];
  const a = gradientsOf(g, spec, metrics), d = gradientsOf(g, spec, metrics, 'direct');
  for (const name of names) {
    const [group, m] = name.split('.');
    const ga = a[group][m]!.gradient, gd = d[group][m]!.gradient;
    const largest = Math.max(...Object.values(gd).map(Math.abs));
    for (const key of Object.keys(gd)) expect(Math.abs(ga[key] - gd[key]), `${name} ${key}`).toBeLessThan(1e-10 * largest);
  }
}

export const roll = (deg: number) => (g: Geometry) => sweepFromShortcut('roll', `${deg}:${deg}:1`, g);
export const bump = (mm: number) => (g: Geometry) => sweepFromShortcut('bump', `${mm}:${mm}:1`, g);
export const steer = (mm: number) => (g: Geometry) => sweepFromShortcut('steer', `${mm}:${mm}:1`, g);

/** The worst error of every entry of `<side>.<metric>` against central differences over ±h (relative, floored at the differences alone). */
export function worstAgainstDifferences(g: Geometry, spec: (g: Geometry) => SweepSpec, names: string[], h = 1e-3): number {
  const metrics = [...new Set(names.map((n) => n.split('.')[1]))];
  const step = sensitivitySweepBySide(new SensitivityModel(g), spec(g), metrics).steps[0];
  expect(step.status).toBe('solved');
  const base = valuesOf(g, spec);
  let worst = 0;
  const keys = Object.keys(step.metrics![names[0].split('.')[0]][metrics[0]]!.gradient);
  const moved = keys.map((key) => [key, valuesOf(movedHardpoint(g, key, h), spec), valuesOf(movedHardpoint(g, key, -h), spec)] as const);
  for (const name of names) {
    const [group, m] = name.split('.');
    const exact = step.metrics![group][m];
    expect(exact, name).not.toBeNull();
    expect(exact!.value).toBeCloseTo(base[group][m] as number, 9);
    expect(Math.max(...Object.values(exact!.gradient).map(Math.abs)), `${name} has a gradient`).toBeGreaterThan(0);
    for (const [key, mp, mm] of moved) {
      const fd = ((mp[group][m] as number) - (mm[group][m] as number)) / (2 * h);
      const err = gradientError(exact!.gradient[key], fd, exact!.gradient, 0);
      if (err > 2e-4) throw new Error(`${name} ${key}: exact ${exact!.gradient[key]}, differences ${fd}`);
      worst = Math.max(worst, err);
    }
  }
  return worst;
}
