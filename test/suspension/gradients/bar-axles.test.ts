/**
 * The U-bar and T-bar axles' gradient checks at the states several topics share, each against
 * central differences of `kinemate sweep`'s values re-solved with every hardpoint moved, kept
 * together so that each moved axle is solved once per state for all of them (moves.ts
 * sweptMetrics, sweptStep): the U-bar axle rolled 2° (its device metrics; its rates and roll
 * centre, as second-order-drivers.test.ts checks other axles under a roll) and at −10 mm (its
 * *_virtual, hub, bar and half-track rates; every metric of both sides, as axle.test.ts; the
 * axle-level metrics, as roll-centre.test.ts); the T-bar axle rolled 2° (as the U-bar) and at
 * +10 mm (its rates; every entry and the bar's own motion, as axle-roll.test.ts).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { movedHardpoint, sweptMetrics, sweptStep, forgetKept } from '../moves';
import { bump, checkAdjointDirect, checkAgainstDifferences, roll, worstAgainstDifferences, type Values } from './device-differences';
import { checkVirtual } from './virtual-differences';
import { check as checkRates } from './second-order-differences';
import { checkAgainstDifferences as checkAxle } from './axle-differences';
import { axleGrads, worstAgainstDifferences as worstOf } from './roll-centre-differences';
import { check as checkAxleSweep } from './axle-roll-differences';
import { parseGeometry, sweepValues, type Geometry, type SweepSpec } from '../../../src/suspension/files';
import { SensitivityModel } from '../../../src/suspension/gradients/model';
import { sweepDrivers } from '../../../src/suspension/sweep/sweep';
import { pointRate } from '../../../kernel/analysis';
import { toMatrix } from '../../../kernel/quat';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
/** `kinemate sweep`'s values at the spec's state, kept (one re-solve per moved axle for every check here). */
const kept = (spec: (g: Geometry) => SweepSpec) => (x: Geometry) => sweptMetrics(x, spec(x)) as Values;
const sides = (names: string[]) => names.flatMap((m) => [`left.${m}`, `right.${m}`]);
const hubs = (m: string) => [`axle.deriv_${m}_wrt_hub_z_left`, `axle.deriv_${m}_wrt_hub_z_right`];

describe('the U-bar axle rolled 2° (every moved axle re-solved at ±1e-2 mm)', () => {
  it('arb_arm_angle of both sides and arb_twist match central differences; adjoint = direct', () => {
    const g = load('double_wishbone_axle_u_bar');
    const names = ['left.arb_arm_angle', 'right.arb_arm_angle', 'axle.arb_twist'];
    const { worst } = checkAgainstDifferences(g, roll(2), names, 1e-6);
    expect(worst).toBeLessThan(1e-6);
    checkAdjointDirect(g, roll(2), names);
  });

  it('deriv_*, the bar\'s twist rates and the kinematic roll centre match central differences (2e-4; 5.3e-6 at these steps)', () => {
    const g = load('double_wishbone_axle_u_bar');
    const metrics = ['roll_center_kinematic_z', 'deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z', 'deriv_damper_length_wrt_hub_z', 'deriv_rocker_angle_wrt_hub_z', 'deriv_arb_twist_wrt_hub_z_left', 'deriv_arb_twist_wrt_hub_z_right'];
    const { worst } = checkRates(g, roll(2)(g), metrics, kept(roll(2)), 1e-2);
    expect(worst).toBeLessThan(2e-4);
  });
});

describe('the U-bar axle at −10 mm (every moved axle re-solved at ±1e-3 mm)', () => {
  it('every side\'s *_virtual against central differences (centre points too)', () => {
    expect(checkVirtual(load('double_wishbone_axle_u_bar'), 'bump', -10)).toBeLessThan(2e-4);
  });

  it('the hub rates of camber, toe, damper length and rocker angle on both sides match central differences', () => {
    const g = load('double_wishbone_axle_u_bar');
    const names = sides(['deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z', 'deriv_damper_length_wrt_hub_z', 'deriv_rocker_angle_wrt_hub_z']);
    expect(checkAgainstDifferences(g, bump(-10), names, 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });

  it('deriv_arb_twist per hub matches central differences (2e-4)', () => {
    expect(checkAgainstDifferences(load('double_wishbone_axle_u_bar'), bump(-10), hubs('arb_twist'), 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });

  it('deriv_half_track_wrt_hub_z (its road plane\'s tangent): both sides match central differences', () => {
    expect(worstAgainstDifferences(load('double_wishbone_axle_u_bar'), bump(-10), sides(['deriv_half_track_wrt_hub_z']))).toBeLessThan(2e-4);
  });

  it('the centre hardpoints are parameters too: every entry of both sides\' metrics matches central differences', () => {
    const g = load('double_wishbone_axle_u_bar');
    expect(Object.keys(g.center ?? {}).length).toBeGreaterThan(0);
    expect(checkAxle(g, -10, 1e-3, (x, b) => kept(bump(b))(x)).worst).toBeLessThan(2e-4);
  });

  it('the centre points are parameters of the axle-level metrics (the roll centres) too', () => {
    const g = load('double_wishbone_axle_u_bar');
    const grads = axleGrads(g, -10);
    expect(Object.keys(grads.roll_center_kinematic_z!.gradient).some((k) => k.startsWith('center.'))).toBe(true);
    expect(worstOf(grads, (x) => kept(bump(-10))(x).axle, g)).toBeLessThan(2e-4);
  });
});

describe('the T-bar axle rolled 2° (every moved axle re-solved at ±1e-2 mm)', () => {
  it('arb_twist, t_bar_heave_angle and both torsion bars match central differences; adjoint = direct', () => {
    const g = load('double_wishbone_axle_t_bar');
    const names = ['axle.arb_twist', 'axle.t_bar_heave_angle', 'left.torsion_bar_twist', 'right.torsion_bar_twist'];
    expect(checkAgainstDifferences(g, roll(2), names, 1e-6).worst).toBeLessThan(1e-6);
    checkAdjointDirect(g, roll(2), names);
  });

  it('the bar\'s twist and centre rates and the deriv_* match central differences (2e-4; 2.2e-7 at these steps)', () => {
    const g = load('double_wishbone_axle_t_bar');
    const metrics = ['deriv_camber_wrt_hub_z', 'deriv_damper_length_wrt_hub_z', 'deriv_arb_twist_wrt_hub_z_left', 'deriv_arb_twist_wrt_hub_z_right', 'deriv_t_bar_center_x_wrt_hub_z_left', 'deriv_t_bar_center_x_wrt_hub_z_right'];
    const { worst } = checkRates(g, roll(2)(g), metrics, kept(roll(2)), 1e-2);
    expect(worst).toBeLessThan(2e-4);
  });
});

describe('the T-bar axle at +10 mm (every moved axle re-solved at ±1e-3 mm)', () => {
  it("deriv_arb_twist, deriv_t_bar_center_x per hub and both torsion bars' rates match central differences (2e-4)", () => {
    const g = load('double_wishbone_axle_t_bar');
    const names = [...hubs('arb_twist'), ...hubs('t_bar_center_x'), 'left.deriv_torsion_bar_twist_wrt_hub_z', 'right.deriv_torsion_bar_twist_wrt_hub_z'];
    expect(checkAgainstDifferences(g, bump(10), names, 2e-4, 1e-3).worst).toBeLessThan(2e-4);
  });

  it('every entry of both sides and the axle matches central differences; the T-bar\'s droplink ends are parameters', () => {
    const g = load('double_wishbone_axle_t_bar');
    const { worst, grads } = checkAxleSweep(g, bump(10), ['camber', 'toe_angle', 'damper_length', 'rocker_angle', 'roll_center_kinematic_z'], 1e-3, (x, spec) => kept(spec)(x));
    expect(worst).toBeLessThan(2e-4);
    // the bar's points are parameters (with both wheels driven it floats: nothing here feels them)
    expect(Object.keys(grads.left.camber!.gradient)).toEqual(expect.arrayContaining(['center.arb_t_bar_pivot.z', 'left.droplink_t_bar.z', 'right.droplink_t_bar.y']));
    expect(Math.abs(grads.left.damper_length!.gradient['left.rocker_axis_a.z'])).toBeGreaterThan(1e-3);
  });

  it("the bar's own motion per hardpoint (the plane mate's midpoint moving with both droplink ends) matches central differences of its re-solved tip", () => {
    const g = load('double_wishbone_axle_t_bar');
    const model = new SensitivityModel(g);
    const sm = model.sm;
    const spec = bump(10)(g);
    const drivers = sweepDrivers(sm, spec);
    sm.resetToDesign();
    drivers.forEach((d) => { d.block.target = d.targetOf(sweepValues(d.source, 1)[0]); }); // hub +10, rack held
    expect(sm.solveWith(drivers.map((d) => d.block)).converged).toBe(true);
    const f = model.factorState(drivers.map((d) => ({ block: d.block, params: model.driverParameters(d.block, d.source) })));
    const rates = model.stateRates(f);
    const sys = sm.model.system;
    const bar = sm.model.parts.get('t_bar')!;
    const local = sm.model.doc.parts.t_bar.points!.left_droplink_t_bar;
    const R = toMatrix(new Float64Array(9), sys.state, sys.variables[bar].offset + 3);
    const tip = (x: Geometry) => (sweptStep(x, bump(10)(x)).positions as Record<string, [number, number, number]>).left_droplink_t_bar;
    const h = 1e-3;
    let worst = 0, largest = 0;
    model.keys.forEach((key, k) => {
      // the tip's velocity: the bar's motion, plus its own move when the key is the tip's hardpoint
      const v = pointRate(new Float64Array(3), sys, rates, rates.rates[k]!, bar, local);
      const own = key.startsWith('left.droplink_t_bar.') ? { x: 0, y: 1, z: 2 }[key.slice(-1) as 'x'] : -1;
      if (own >= 0) for (let i = 0; i < 3; i++) v[i] += R[i * 3 + own];
      const p = tip(movedHardpoint(g, key, h)), m = tip(movedHardpoint(g, key, -h));
      for (let i = 0; i < 3; i++) {
        const fd = (p[i] - m[i]) / (2 * h);
        largest = Math.max(largest, Math.abs(fd));
        worst = Math.max(worst, Math.abs(v[i] - fd));
      }
    });
    expect(largest).toBeGreaterThan(0.1); // the bar does move with the points
    expect(worst).toBeLessThan(2e-4 * largest);
  });
});
