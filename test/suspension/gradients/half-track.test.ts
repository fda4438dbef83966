/**
 * An axle's `deriv_half_track_wrt_hub_z` (a second derivative through the axle's road plane,
 * src/suspension/metrics/axle.ts thetaTangent) against central differences of `kinemate
 * sweep`'s own values with each hardpoint moved, rebuilt and re-solved.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradientError, movedHardpoint } from '../moves';
import { parseGeometry, sweepFromShortcut, type Geometry, type SweepSpec } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivityMetricsOf, sensitivitySweepBySide } from '../../../src/suspension/gradients/model';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
type Values = Record<string, Record<string, number | null>>;

function valuesOf(g: Geometry, spec: SweepSpec): Values {
  const r = runSweep(new SuspensionModel(suspensionAssembly(g)), spec);
  expect(r.steps[0].status).toBe('solved');
  return r.steps[0].metrics as unknown as Values;
}

/** The worst error of every entry of `<side>.<metric>` against central differences over ±h. */
function worstAgainstDifferences(g: Geometry, spec: (g: Geometry) => SweepSpec, names: string[], h = 1e-3): number {
  const metrics = [...new Set(names.map((n) => n.split('.')[1]))];
  const step = sensitivitySweepBySide(new SensitivityModel(g), spec(g), metrics).steps[0];
  expect(step.status).toBe('solved');
  const base = valuesOf(g, spec(g));
  let worst = 0;
  const keys = Object.keys(step.metrics![names[0].split('.')[0]][metrics[0]]!.gradient);
  const moved = keys.map((key) => [key, valuesOf(movedHardpoint(g, key, h), spec(g)), valuesOf(movedHardpoint(g, key, -h), spec(g))] as const);
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

const bump = (mm: number) => (g: Geometry) => sweepFromShortcut('bump', `${mm}:${mm}:1`, g);
const steer = (mm: number) => (g: Geometry) => sweepFromShortcut('steer', `${mm}:${mm}:1`, g);
const sides = (m: string) => [`left.${m}`, `right.${m}`];

describe("an axle's deriv_half_track_wrt_hub_z (its road plane's tangent)", () => {
  it('is offered on an axle', () => {
    expect(sensitivityMetricsOf(load('double_wishbone_axle_u_bar')).side).toContain('deriv_half_track_wrt_hub_z');
  });
  it('steered double wishbone axle, rack at +8 mm: both sides match central differences (2e-4 at ±1e-3 mm)', () => {
    expect(worstAgainstDifferences(load('double_wishbone_axle_steering'), steer(8), sides('deriv_half_track_wrt_hub_z'))).toBeLessThan(2e-4);
  });
  it('U-bar axle at −10 mm: both sides match central differences', () => {
    expect(worstAgainstDifferences(load('double_wishbone_axle_u_bar'), bump(-10), sides('deriv_half_track_wrt_hub_z'))).toBeLessThan(2e-4);
  });
  it('Panhard beam axle at +20 mm (one hub alone moving tilts the beam and the road plane): both sides match', () => {
    expect(worstAgainstDifferences(load('solid_axle_panhard'), bump(20), sides('deriv_half_track_wrt_hub_z'))).toBeLessThan(2e-4);
  });
});
