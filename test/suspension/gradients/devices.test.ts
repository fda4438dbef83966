/**
 * Hardpoint gradients of the device metrics (anti-roll bars, heave link, torsion bars), a
 * beam axle's own motion and the steering geometry (src/suspension/gradients/devices.ts),
 * against central differences of the whole pipeline: the geometry moved, rebuilt and
 * re-solved, the metric read from `kinemate sweep`'s values (device-differences.ts). With them,
 * at the same states and steps (each moved axle solved once for all), the steered axle's
 * *_virtual, two axles' deriv_half_track_wrt_hub_z, the beam axles' instant centres and the
 * Panhard axle's every entry of both sides. The U-bar and T-bar axles' checks are
 * in bar-axles.test.ts, beside the other topics' checks at their states.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetKept } from '../moves';
import { checkVirtual } from './virtual-differences';
import { bump, checkAdjointDirect, checkAgainstDifferences, gradientsOf, roll, steer, valuesOf, worstAgainstDifferences } from './device-differences';
import { checkAgainstDifferences as checkAxle } from './axle-differences';
import { parseGeometry } from '../../../src/suspension/files';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { sensitivityMetricsOf, type SideMetrics } from '../../../src/suspension/gradients/model';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

describe('device metric gradients', () => {
  // the U-bar and T-bar axles rolled 2°: bar-axles.test.ts, beside their other checks at that state
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
  // the U-bar axle's at −10 mm: bar-axles.test.ts
  it('steered double wishbone axle with the rack at +8 mm (layout-default holds): every side\'s *_virtual against central differences', () => {
    expect(checkVirtual(load('double_wishbone_axle_steering'), 'steer', 8)).toBeLessThan(2e-4);
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

// The beam axles' instant centres (instant-axis.test.ts's other topics) and the Panhard axle's every entry of both
// sides (axle.test.ts's) live here, at the states and steps of the beam axles' checks above (±1e-3 mm): each moved
// axle is solved once for all of them.
describe('beam axles at the states above: the screw instant axis\'s centres, and every entry of both sides', () => {
  const ic = (ms: string[]) => ms.flatMap((m) => [`left.${m}`, `right.${m}`]);
  it('four-link beam axle at +10 mm: both sides\' instant centres and the axle FVIC roll centre', () => {
    const names = [...ic(['svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle']), 'axle.roll_center_z'];
    expect(checkAgainstDifferences(load('solid_axle_four_link'), bump(10), names, 2e-4, 1e-3, 6).worst).toBeLessThan(2e-4);
  });

  it('Panhard beam axle at +20 mm: front-view centres and the roll centre', () => {
    const names = [...ic(['fvic_y', 'fvic_z', 'fvsa_length', 'svsa_angle']), 'axle.roll_center_y', 'axle.roll_center_z'];
    expect(checkAgainstDifferences(load('solid_axle_panhard'), bump(20), names, 2e-4, 1e-3, 6).worst).toBeLessThan(2e-4);
  });

  it('solid axle with a Panhard rod: both wheels on one beam, every entry matches central differences', () => {
    const { worst, grads } = checkAxle(load('solid_axle_panhard'), 20, 1e-3, (x, b) => valuesOf(x, bump(b)));
    expect(worst).toBeLessThan(2e-4);
    // one beam: the right wheel's toe (the beam's yaw) moves with a left link's pickup (a corner-by-corner route would miss it)
    const cross = Object.entries(grads.right.toe_angle!.gradient).filter(([k, d]) => k.startsWith('left.') && Math.abs(d) > 1e-6);
    expect(cross.length).toBeGreaterThan(0);
  });
});

describe("the devices' own rates (second derivatives)", () => {
  // the T-bar axle's at +10 mm and the U-bar axle's deriv_arb_twist at −10 mm: bar-axles.test.ts
  it('heave-link axle at +15 mm: deriv_heave_link_length per hub matches central differences (2e-4)', () => {
    const hubs = (m: string) => [`axle.deriv_${m}_wrt_hub_z_left`, `axle.deriv_${m}_wrt_hub_z_right`];
    // at ±1e-2 mm, the heave link's own length's step above: its moved axles re-solved once for both (worst 4.4e-8; was ±1e-3)
    expect(checkAgainstDifferences(load('double_wishbone_axle_heave_link'), bump(15), hubs('heave_link_length'), 2e-4, 1e-2).worst).toBeLessThan(2e-4);
  });
});

// deriv_half_track_wrt_hub_z lives here (half-track.test.ts until Dec 2026): its axles' states and steps are the
// hub rates' above and the *_virtual's, so valuesOf's kept sweeps serve it (each moved axle solved once for all);
// the U-bar axle's at −10 mm is in bar-axles.test.ts

describe("an axle's deriv_half_track_wrt_hub_z (its road plane's tangent: src/suspension/metrics/axle.ts thetaTangent)", () => {
  const sides = (m: string) => [`left.${m}`, `right.${m}`];
  it('is offered on an axle', () => {
    expect(sensitivityMetricsOf(load('double_wishbone_axle_u_bar')).side).toContain('deriv_half_track_wrt_hub_z');
  });
  it('steered double wishbone axle, rack at +8 mm: both sides match central differences (2e-4 at ±1e-3 mm)', () => {
    expect(worstAgainstDifferences(load('double_wishbone_axle_steering'), steer(8), sides('deriv_half_track_wrt_hub_z'))).toBeLessThan(2e-4);
  });
  it('Panhard beam axle at +20 mm (one hub alone moving tilts the beam and the road plane): both sides match', () => {
    expect(worstAgainstDifferences(load('solid_axle_panhard'), bump(20), sides('deriv_half_track_wrt_hub_z'))).toBeLessThan(2e-4);
  });
});
