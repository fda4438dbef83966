/**
 * Gradients of the instant-centre metrics where the instant axis comes from the screw of
 * the upright's bump motion (src/suspension/gradients/instant-axis.ts): a multi-link
 * corner, beam axles. Every entry against central differences of `kinemate sweep`'s own
 * values with the hardpoint moved, the geometry rebuilt and re-solved (2e-4 at ±1e-3 mm).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { gradientError, movedHardpoint, sweptMetrics, forgetKept } from '../moves';
import { checkVirtual } from './virtual-differences';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { SensitivityModel, sensitivitySweepBySide } from '../../../src/suspension/gradients/model';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const text = (name: string) => readFileSync(`examples/suspension/${name}.yaml`, 'utf8');
const load = (name: string) => parseGeometry(text(name));
type Values = Record<string, Record<string, number | null>>;

/** The sweep at one state, under a steering-response hold when given (a sweep file's analysis.virtual_steering.suspension_hold). */
function specOf(g: Geometry, mm: number, kind: 'bump' | 'roll', hold?: string) {
  const spec = sweepFromShortcut(kind, `${mm}:${mm}:1`, g);
  if (hold) spec.analysis = { virtual_steering: { suspension_hold: hold } };
  return spec;
}

/**
 * `kinemate sweep`'s metrics at bump `mm` (or roll), grouped by side (a corner file's under its side);
 * kept (moves.ts sweptMetrics): the multi-link axle's *_virtual check re-solves the same moved axles.
 */
function valuesOf(g: Geometry, mm: number, kind: 'bump' | 'roll' = 'bump', hold?: string): Values {
  const m = sweptMetrics(g, specOf(g, mm, kind, hold)) as unknown as Values & Record<string, number | null>;
  return g.scope === 'axle' ? m : { [g.corners[0].side]: m as unknown as Record<string, number | null> };
}

/** Worst error of every entry of each `<group>.<metric>` against central differences over ±h; throws above 2e-4. */
function worstAgainstDifferences(g: Geometry, mm: number, names: string[], kind: 'bump' | 'roll' = 'bump', h = 1e-3, hold?: string): number {
  const metrics = [...new Set(names.map((n) => n.split('.')[1]))];
  const step = sensitivitySweepBySide(new SensitivityModel(g), specOf(g, mm, kind, hold), metrics).steps[0];
  expect(step.status).toBe('solved');
  const base = valuesOf(g, mm, kind, hold);
  const keys = Object.keys(step.metrics![names[0].split('.')[0]][metrics[0]]!.gradient);
  let worst = 0;
  for (const key of keys) {
    const vp = valuesOf(movedHardpoint(g, key, h), mm, kind, hold), vm = valuesOf(movedHardpoint(g, key, -h), mm, kind, hold);
    for (const name of names) {
      const [group, m] = name.split('.');
      const exact = step.metrics![group][m];
      expect(exact, name).not.toBeNull();
      expect(exact!.value, name).toBeCloseTo(base[group][m] as number, 6);
      const fd = ((vp[group][m] as number) - (vm[group][m] as number)) / (2 * h);
      const err = gradientError(exact!.gradient[key], fd, exact!.gradient, 0);
      if (err > 2e-4) throw new Error(`${name} ${key}: exact ${exact!.gradient[key]}, differences ${fd}`);
      worst = Math.max(worst, err);
    }
  }
  return worst;
}

const IC = ['svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle'];

describe('screw instant axis: second-derivative gradients', () => {
  it('multi-link corner at +10 mm (steering response under the damper-length hold): every instant-centre metric', () => {
    expect(worstAgainstDifferences(load('multi_link'), 10, IC.map((m) => `left.${m}`))).toBeLessThan(2e-4);
  });

  it('multi-link corner with brake bias and drive at −15 mm: anti_dive and anti_squat', () => {
    const g = parseGeometry(text('multi_link').replace('  wheelbase: 2700.0', '  wheelbase: 2700.0\n  front_brake_bias: 0.6\n  driven_axle: front'));
    expect(worstAgainstDifferences(g, -15, ['left.anti_dive', 'left.anti_squat', 'left.svsa_angle'])).toBeLessThan(2e-4);
  });

  it('steered multi-link axle at +10 mm (each side\'s steering response, the damper-length holds): both sides and the FVIC roll centre', () => {
    const names = [...IC.flatMap((m) => [`left.${m}`, `right.${m}`]), 'axle.roll_center_y', 'axle.roll_center_z'];
    expect(worstAgainstDifferences(load('multi_link_axle'), 10, names)).toBeLessThan(2e-4);
  });

  it('multi-link axle at +10 mm: every side\'s *_virtual against central differences (virtual-differences.ts, the same re-solves)', () => {
    expect(checkVirtual(load('multi_link_axle'), 'bump', 10)).toBeLessThan(2e-4);
  });

  it('steered multi-link axle at +10 mm under the contact-patch hold (the road plane tangent to both wheels turns with the points): both sides and the FVIC roll centre', () => {
    const names = [...IC.flatMap((m) => [`left.${m}`, `right.${m}`]), 'axle.roll_center_y', 'axle.roll_center_z'];
    expect(worstAgainstDifferences(load('multi_link_axle'), 10, names, 'bump', 1e-3, 'contact_patch')).toBeLessThan(2e-4);
  });

  it("multi-link corner's roll_center_z at +10 mm is its mirrored axle's, and matches central differences of that axle re-solved", () => {
    const corner = load('multi_link'), axle = load('multi_link_axle');
    const mirrored = (g: Geometry): Geometry => {
      const out = structuredClone(axle);
      for (const c of out.corners) for (const [name, p] of Object.entries(g.corners[0].hardpoints)) c.hardpoints[name] = c.side === 'right' ? [p[0], -p[1], p[2]] : [...p];
      return out;
    };
    const rc = (g: Geometry) => valuesOf(mirrored(g), 10).axle.roll_center_z as number;
    const spec = sweepFromShortcut('bump', '10:10:1', corner);
    const exact = sensitivitySweepBySide(new SensitivityModel(corner), spec, ['roll_center_z']).steps[0].metrics!.left.roll_center_z!;
    expect(exact.value).toBeCloseTo(rc(corner), 8);
    let worst = 0;
    for (const key of Object.keys(exact.gradient)) {
      const fd = (rc(movedHardpoint(corner, key, 1e-3)) - rc(movedHardpoint(corner, key, -1e-3))) / 2e-3;
      worst = Math.max(worst, gradientError(exact.gradient[key], fd, exact.gradient, 0));
    }
    expect(worst).toBeLessThan(2e-4);
  });

  it('rolled 2° (each hub row driven to its own height): the steered multi-link axle and the four-link beam axle', () => {
    const names = ['svic_x', 'fvic_y', 'fvic_z', 'fvsa_length'].flatMap((m) => [`left.${m}`, `right.${m}`]);
    expect(worstAgainstDifferences(load('multi_link_axle'), 2, [...names, 'axle.roll_center_z'], 'roll')).toBeLessThan(2e-4);
    expect(worstAgainstDifferences(load('solid_axle_four_link'), 2, [...names, 'axle.roll_center_y'], 'roll')).toBeLessThan(2e-4);
  });

  // the four-link beam axle at +10 mm and the Panhard beam at +20 mm: devices.test.ts, beside their other checks at those states
});
