/**
 * Hardpoint gradients of the device metrics (anti-roll bars, heave link, torsion bars), a
 * beam axle's own motion and the steering geometry (src/suspension/gradients/devices.ts),
 * against central differences of the whole pipeline: the geometry moved, rebuilt and
 * re-solved, the metric read from `kinemate sweep`'s values. With them, at the same states and
 * steps (each moved axle solved once for all), the steered and U-bar axles' *_virtual and
 * three axles' deriv_half_track_wrt_hub_z.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradientError, movedHardpoint, sweptMetrics } from '../moves';
import { checkVirtual } from './virtual-differences';
import { parseGeometry, sweepFromShortcut, type Geometry, type SweepSpec } from '../../../src/suspension/files';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { SensitivityModel, sensitivityMetricsOf, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
type Values = Record<string, Record<string, number | null>>;

/**
 * `kinemate sweep`'s metrics at the spec's first state, grouped as the sensitivity groups them
 * (kept: the checks of different metrics of one axle at one state, its steering, its hub rates
 * and its *_virtual, re-solve each moved geometry once).
 */
function valuesOf(g: Geometry, spec: (g: Geometry) => SweepSpec): Values {
  return sweptMetrics(g, spec(g)) as unknown as Values;
}

function gradientsOf(g: Geometry, spec: (g: Geometry) => SweepSpec, metrics: string[], mode: 'adjoint' | 'direct' = 'adjoint'): SideMetrics {
  const step = sensitivitySweepBySide(new SensitivityModel(g), spec(g), metrics, mode).steps[0];
  expect(step.status).toBe('solved');
  return step.metrics!;
}

/**
 * Every entry of every named metric (`<group>.<name>`) against central differences over ±h.
 * Relative error against the difference, floored at 1e-3 of the metric's largest entry (an
 * entry near zero has only the re-solve's noise to compare with). h = 1e-2 mm: at 1e-3 the
 * re-solve's noise (about 1e-10 in the metric) alone is 1e-6 of the smaller entries, while
 * the truncation at 1e-2 stays under 1e-7 (measured on the U-bar's arb_twist). Returns the worst.
 */
function checkAgainstDifferences(g: Geometry, spec: (g: Geometry) => SweepSpec, names: string[], tol: number, h = 1e-2): { worst: number; grads: SideMetrics } {
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
    expect(exact!.value).toBeCloseTo(base[group][m] as number, 9);
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
function checkAdjointDirect(g: Geometry, spec: (g: Geometry) => SweepSpec, names: string[]): void {
  const metrics = [...new Set(names.map((n) => n.split('.')[1]))];
  const a = gradientsOf(g, spec, metrics), d = gradientsOf(g, spec, metrics, 'direct');
  for (const name of names) {
    const [group, m] = name.split('.');
    const ga = a[group][m]!.gradient, gd = d[group][m]!.gradient;
    const largest = Math.max(...Object.values(gd).map(Math.abs));
    for (const key of Object.keys(gd)) expect(Math.abs(ga[key] - gd[key]), `${name} ${key}`).toBeLessThan(1e-10 * largest);
  }
}

const roll = (deg: number) => (g: Geometry) => sweepFromShortcut('roll', `${deg}:${deg}:1`, g);
const bump = (mm: number) => (g: Geometry) => sweepFromShortcut('bump', `${mm}:${mm}:1`, g);
const steer = (mm: number) => (g: Geometry) => sweepFromShortcut('steer', `${mm}:${mm}:1`, g);

describe('device metric gradients', () => {
  it('U-bar axle rolled 2°: arb_arm_angle of both sides and arb_twist match central differences; adjoint = direct', () => {
    const g = load('double_wishbone_axle_u_bar');
    const names = ['left.arb_arm_angle', 'right.arb_arm_angle', 'axle.arb_twist'];
    const { worst } = checkAgainstDifferences(g, roll(2), names, 1e-6);
    expect(worst).toBeLessThan(1e-6);
    checkAdjointDirect(g, roll(2), names);
  });

  it('T-bar axle rolled 2°: arb_twist, t_bar_heave_angle and both torsion bars match central differences', () => {
    const g = load('double_wishbone_axle_t_bar');
    const names = ['axle.arb_twist', 'axle.t_bar_heave_angle', 'left.torsion_bar_twist', 'right.torsion_bar_twist'];
    expect(checkAgainstDifferences(g, roll(2), names, 1e-6).worst).toBeLessThan(1e-6);
    checkAdjointDirect(g, roll(2), names);
  });

  it('heave-link axle at +15 mm: heave_link_length and the torsion bars match central differences', () => {
    const g = load('double_wishbone_axle_heave_link');
    const names = ['axle.heave_link_length', 'left.torsion_bar_twist', 'right.torsion_bar_twist'];
    expect(checkAgainstDifferences(g, bump(15), names, 1e-6).worst).toBeLessThan(1e-6);
    checkAdjointDirect(g, bump(15), names);
  });

  it('a mirrored U-bar axle has mirrored arb_arm_angle gradients: x and z alike, y opposite', () => {
    const grads = gradientsOf(load('double_wishbone_axle_u_bar'), bump(-10), ['arb_arm_angle']);
    const l = grads.left.arb_arm_angle!, r = grads.right.arb_arm_angle!;
    expect(r.value).toBeCloseTo(l.value, 9);
    const largest = Math.max(...Object.values(l.gradient).map(Math.abs));
    let compared = 0;
    for (const [key, d] of Object.entries(l.gradient)) {
      const [group, name, ax] = key.split('.');
      const mirrorKey = group === 'left' ? `right.${name}.${ax}` : group === 'right' ? `left.${name}.${ax}` : null;
      if (!mirrorKey) continue;
      expect(Math.abs(r.gradient[mirrorKey] - (ax === 'y' ? -d : d)), key).toBeLessThan(1e-8 * largest);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe('*_virtual metrics at the device checks\' states (virtual-differences.ts: kept here, each moved axle solved once for both)', () => {
  it('steered double wishbone axle with the rack at +8 mm (layout-default holds): every side\'s *_virtual against central differences', () => {
    expect(checkVirtual(load('double_wishbone_axle_steering'), 'steer', 8)).toBeLessThan(2e-4);
  });
  it('U-bar axle at −10 mm (centre points too): every side\'s *_virtual against central differences', () => {
    expect(checkVirtual(load('double_wishbone_axle_u_bar'), 'bump', -10)).toBeLessThan(2e-4);
  });
});

describe('beam axle and steering geometry gradients', () => {
  it('four-link beam axle rolled 2°: axle_lateral_shift, axle_steer and pinion_angle_change match central differences; adjoint = direct', () => {
    const g = load('solid_axle_four_link');
    const names = ['axle.axle_lateral_shift', 'axle.axle_steer', 'axle.pinion_angle_change'];
    expect(checkAgainstDifferences(g, roll(2), names, 1e-6).worst).toBeLessThan(1e-6);
    checkAdjointDirect(g, roll(2), names);
  });

  it('Panhard beam axle at +20 mm: the lateral shift follows the rod (and its length, regenerated with its ends)', () => {
    const g = load('solid_axle_panhard');
    // its smallest entries (centre link points' x, 5e-6) need ±3e-2 mm to rise above the re-solve's noise
    const { grads } = checkAgainstDifferences(g, bump(20), ['axle.axle_lateral_shift', 'axle.axle_steer'], 1e-6, 3e-2);
    // a De Dion tube has its differential on the chassis: no pinion angle offered
    const deDion = sensitivityMetricsOf(load('de_dion_panhard')).axle;
    expect(deDion).toContain('axle_steer');
    expect(deDion).not.toContain('pinion_angle_change');
    expect(Object.entries(grads.axle.axle_lateral_shift!.gradient).some(([k, d]) => k.includes('panhard') && Math.abs(d) > 1e-3)).toBe(true);
  });

  it('steered axle, rack at +8 mm: ackermann_percentage, toe_out_on_turns, turning_radius, steering_wheel_angle match central differences', () => {
    const g = load('double_wishbone_axle_steering');
    const names = ['axle.ackermann_percentage', 'axle.toe_out_on_turns', 'axle.turning_radius', 'axle.steering_wheel_angle'];
    // Ackermann's percentage is a ratio of small differences (curved in the points): ±1e-3 mm keeps the truncation under 1e-6
    const { grads } = checkAgainstDifferences(g, steer(8), names.slice(0, 3), 1e-6, 1e-3);
    checkAdjointDirect(g, steer(8), names.slice(0, 3));
    // the rack is driven: the steering wheel's angle does not move with any point
    const swa = gradientsOf(g, steer(8), ['steering_wheel_angle']).axle.steering_wheel_angle!;
    expect(swa.value).toBeCloseTo((360 * 8) / 50, 9);
    for (const d of Object.values(swa.gradient)) expect(Math.abs(d)).toBeLessThan(1e-15);
    // the design track enters Ackermann's ideal angle (leaving out its own move with the points fails the differences: tried by hand)
    expect(Math.abs(grads.axle.ackermann_percentage!.gradient['left.axle_outboard.y'])).toBeGreaterThan(0);
  });
});

describe('kinemate sensitivity with device metrics', () => {
  it('prints a T-bar axle\'s arb_twist under metrics.axle and the torsion bars per side, equal to the library; a file without the device refuses the name', async () => {
    const file = 'examples/suspension/double_wishbone_axle_t_bar.yaml';
    const io = memoryIO();
    expect(await main(['sensitivity', file, '--roll', '2:2:1', '--metric', 'arb_twist', '--metric', 'torsion_bar_twist'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: SideMetrics }[] }> };
    const printed = Object.values(out.sweeps)[0].steps[0].metrics;
    expect(Object.keys(printed)).toEqual(['left', 'right', 'axle']);
    expect(Object.keys(printed.axle)).toEqual(['arb_twist']);
    const lib = gradientsOf(load('double_wishbone_axle_t_bar'), roll(2), ['arb_twist', 'torsion_bar_twist']);
    for (const [group, m] of [['axle', 'arb_twist'], ['left', 'torsion_bar_twist'], ['right', 'torsion_bar_twist']]) {
      expect(printed[group][m]!.value).toBeCloseTo(lib[group][m]!.value, 9);
      for (const [key, d] of Object.entries(lib[group][m]!.gradient)) expect(printed[group][m]!.gradient[key]).toBeCloseTo(d, 9);
    }
    const bad = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone.yaml', '--metric', 'arb_twist'], bad)).toBe(1);
    expect(bad.written.stderr).toMatch(/no gradient for "arb_twist"/);
  });
});

describe("an axle's deriv_* and steering_ratio (second derivatives)", () => {
  const sides = (names: string[]) => names.flatMap((m) => [`left.${m}`, `right.${m}`]);
  it('steered double wishbone axle, rack at +8 mm: every side\'s rack and hub rates and steering_ratio match central differences (2e-4)', () => {
    const g = load('double_wishbone_axle_steering');
    const rates = ['deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z', 'deriv_caster_wrt_hub_z', 'deriv_kpi_wrt_hub_z', 'deriv_wheel_center_x_wrt_hub_z',
      'deriv_toe_angle_wrt_rack_displacement', 'deriv_steer_angle_wrt_rack_displacement', 'deriv_camber_wrt_rack_displacement'];
    const names = [...sides(rates), 'axle.steering_ratio'];
    // (both routes take these from the same tangent-mode pass: no adjoint = direct check here)
    expect(checkAgainstDifferences(g, steer(8), names, 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });

  it('U-bar axle at −10 mm: the hub rates of camber, toe, damper length and rocker angle on both sides match central differences', () => {
    const g = load('double_wishbone_axle_u_bar');
    const names = sides(['deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z', 'deriv_damper_length_wrt_hub_z', 'deriv_rocker_angle_wrt_hub_z']);
    expect(checkAgainstDifferences(g, bump(-10), names, 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });

  it('Panhard beam axle at +20 mm: each hub alone moving turns the beam; its camber and toe rates match central differences', () => {
    const g = load('solid_axle_panhard');
    expect(sensitivityMetricsOf(g).side).toContain('deriv_half_track_wrt_hub_z');
    const names = sides(['deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z']);
    expect(checkAgainstDifferences(g, bump(20), names, 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });
});

describe("a beam axle's roll centre from its linkage (second derivatives)", () => {
  it('four-link beam axle at +10 mm and the Panhard beam at +20 mm: roll_center_linkage_y/z match central differences (2e-4)', () => {
    for (const [file, travel] of [['solid_axle_four_link', 10], ['solid_axle_panhard', 20]] as const) {
      const g = load(file);
      expect(checkAgainstDifferences(g, bump(travel), ['axle.roll_center_linkage_y', 'axle.roll_center_linkage_z'], 2e-4, 1e-3).worst).toBeLessThan(2e-4);
    }
  });
});

describe("the devices' own rates (second derivatives)", () => {
  it("T-bar axle at +10 mm: deriv_arb_twist, deriv_t_bar_center_x per hub and both torsion bars' rates match central differences (2e-4)", () => {
    const g = load('double_wishbone_axle_t_bar');
    const hubs = (m: string) => [`axle.deriv_${m}_wrt_hub_z_left`, `axle.deriv_${m}_wrt_hub_z_right`];
    const names = [...hubs('arb_twist'), ...hubs('t_bar_center_x'), 'left.deriv_torsion_bar_twist_wrt_hub_z', 'right.deriv_torsion_bar_twist_wrt_hub_z'];
    expect(checkAgainstDifferences(g, bump(10), names, 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });

  it('U-bar axle at −10 mm and heave-link axle at +15 mm: deriv_arb_twist and deriv_heave_link_length per hub match central differences (2e-4)', () => {
    const hubs = (m: string) => [`axle.deriv_${m}_wrt_hub_z_left`, `axle.deriv_${m}_wrt_hub_z_right`];
    expect(checkAgainstDifferences(load('double_wishbone_axle_u_bar'), bump(-10), hubs('arb_twist'), 2e-4, 1e-3).worst).toBeLessThan(2e-4);
    expect(checkAgainstDifferences(load('double_wishbone_axle_heave_link'), bump(15), hubs('heave_link_length'), 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });
});

// deriv_half_track_wrt_hub_z lives here (half-track.test.ts until Dec 2026): its three axles' states and steps are
// the hub rates' above and the *_virtual's, so valuesOf's kept sweeps serve it (each moved axle solved once for all)

/** The worst error of every entry of `<side>.<metric>` against central differences over ±h (relative, floored at the differences alone). */
function worstAgainstDifferences(g: Geometry, spec: (g: Geometry) => SweepSpec, names: string[], h = 1e-3): number {
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

describe("an axle's deriv_half_track_wrt_hub_z (its road plane's tangent: src/suspension/metrics/axle.ts thetaTangent)", () => {
  const sides = (m: string) => [`left.${m}`, `right.${m}`];
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
