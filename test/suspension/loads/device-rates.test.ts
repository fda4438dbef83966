/**
 * Rates through the suspension devices (issue 15 item 3): the anti-roll bars' torsional
 * rate, the heave spring, a trailing arm's torsion bar, a rocker damper. Each checked
 * against a closed form built from the kinematic derivative metrics (k·g gᵀ with g the
 * device's travel per mm of each wheel) and the axle's stiffness against central
 * differences of equilibrium solves under opposite vertical wheel loads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../../src/assembly/load';
import type { AssemblyDoc } from '../../../src/assembly/types';
import { buildDynamics } from '../../../src/mechanics/build';
import { axleRates } from '../../../src/suspension/loads/axle-rates';
import { suspensionRates } from '../../../src/suspension/loads/rates';
import { equilibrium } from '../../../src/mechanics/equilibrium';
import { parseGeometry, SuspensionFileError } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { solveModel } from '../../../src/model/operations';
import * as P from '../../../kernel/pose';

const example = (name: string) => readFileSync(`examples/suspension/${name}.yaml`, 'utf8');
const DEG = Math.PI / 180;

/** The generated axle with the rack held and a wheel-centre point on each upright; and the kinematic model of the same file. */
function axle(text: string) {
  const geometry = parseGeometry(text);
  const doc = suspensionAssembly(geometry);
  const sm = new SuspensionModel(validateAssembly(doc));
  const parts = { ...doc.parts };
  for (const c of sm.corners) {
    const part = parts[c.roles.upright];
    parts[c.roles.upright] = { ...part, points: { ...part.points, wheel_center: [...c.wheelCenterLocal] as [number, number, number] } };
  }
  const full: AssemblyDoc = { ...doc, parts, held: sm.rackHold ? ['rack_slide.slide'] : [] };
  return { doc: full, sm };
}

/** The design metrics of the kinematic model (derivatives w.r.t. each hub's z). */
function designMetrics(sm: SuspensionModel): Record<string, Record<string, number>> {
  return sm.evaluate().metrics as unknown as Record<string, Record<string, number>>;
}

function ratesOf(doc: AssemblyDoc) {
  const dyn = buildDynamics(validateAssembly(doc));
  solveModel(dyn.model);
  const sides: [string, string] = ['left_upright.wheel_center', 'right_upright.wheel_center'];
  return { dyn, rates: axleRates(dyn, sides, { tyreRate: 250 }) };
}

const close = (a: number, b: number, rel: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(Math.abs(a), Math.abs(b), 1e-12));

describe('device rates from geometry files', () => {
  it('anti_roll.rate, heave_link.rate and damper.damping become force elements; without them nothing is added', () => {
    const u = axle(example('double_wishbone_axle_u_bar').replace('anti_roll: { type: u_bar }', 'anti_roll: { type: u_bar, rate: 3000 }'));
    expect(u.doc.forces?.arb).toMatchObject({ type: 'bushing', a: 'left_arb_arm.arb_torsion', b: 'right_arb_arm.arb_torsion', stiffness: [0, 0, 0], rotational_stiffness: [3000, 0, 0] });
    const h = axle(example('double_wishbone_axle_heave_link').replace('heave_link: { type: rocker_to_rocker }', 'heave_link: { type: rocker_to_rocker, rate: 50, preload: 10 }').replace('damper: { type: linear }', 'damper: { type: linear, damping: 2 }'));
    expect(h.doc.forces?.heave_spring).toMatchObject({ type: 'spring', a: 'left_rocker.heave_link_rocker', b: 'right_rocker.heave_link_rocker', stiffness: 50, length: 680, preload: 10 });
    expect(h.doc.forces?.left_damper).toEqual({ type: 'damper', a: 'chassis.left_damper_chassis', b: 'left_rocker.damper_rocker', damping: 2 });
    expect(axle(example('double_wishbone_axle_u_bar')).doc.forces).toBeUndefined();
  });

  it('bad device rate fields are refused with their path', () => {
    const cases: [string, string, string][] = [
      ['double_wishbone_axle_u_bar', 'anti_roll: { type: u_bar, rate: -1 }', 'axle_config.anti_roll.rate'],
      ['double_wishbone_axle_u_bar', 'anti_roll: { type: u_bar, stiffness: 1 }', 'axle_config.anti_roll.stiffness'],
      ['double_wishbone_axle_heave_link', 'heave_link: { type: rocker_to_rocker, free_length: 600 }', 'axle_config.heave_link.free_length'],
      ['double_wishbone_axle_heave_link', 'heave_link: { type: none, rate: 5 }', 'axle_config.heave_link.rate'],
    ];
    for (const [file, field, path] of cases) {
      const original = file.endsWith('u_bar') ? 'anti_roll: { type: u_bar }' : 'heave_link: { type: rocker_to_rocker }';
      let error: unknown;
      try { parseGeometry(example(file).replace(original, field)); } catch (e) { error = e; }
      expect(error, field).toBeInstanceOf(SuspensionFileError);
      expect((error as Error).message).toContain(path);
    }
  });

  it('U-bar: the bar adds k·g gᵀ to the wheel stiffness (g = d arb_twist / d hub z), roll stiffness only, not heave', () => {
    const springs = 'spring: { type: coilover, rate: 90 }';
    const base = example('double_wishbone_axle_u_bar').replace('spring: { type: coilover }', springs);
    const k = 3000; // N·mm per degree of twist
    const without = ratesOf(axle(base).doc).rates;
    const withBar = axle(base.replace('anti_roll: { type: u_bar }', `anti_roll: { type: u_bar, rate: ${k} }`));
    const { rates } = ratesOf(withBar.doc);
    const m = designMetrics(withBar.sm).axle;
    const g = [m.deriv_arb_twist_wrt_hub_z_left, m.deriv_arb_twist_wrt_hub_z_right]; // deg/mm
    expect(Math.abs(g[0])).toBeGreaterThan(0.01);
    close(g[0], -g[1], 1e-9); // mirrored
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
      close(rates.wheelStiffness[i][j] - without.wheelStiffness[i][j], k * DEG * g[i] * g[j], 1e-7);
    }
    close(rates.heaveWheelRate, without.heaveWheelRate, 1e-9);
    // hand calculation: bar twist per degree of roll = (t/2)(g_L − g_R) in deg/mm · mm/deg(roll)
    const twistPerRoll = (rates.track / 2) * DEG * (g[0] - g[1]);
    close(rates.rollStiffness - without.rollStiffness, k * twistPerRoll * twistPerRoll, 1e-7);
    // the coil springs: wheel rate k·MR² per wheel in heave, MR from the tangent
    const mr = rates.motionRatios.left_spring;
    expect(Math.abs(mr[1])).toBeLessThan(1e-12);
    close(without.heaveWheelRate, 90 * mr[0] * mr[0], 1e-9);
    close(rates.rollRideRate!, (rates.rollWheelRate * 250) / (rates.rollWheelRate + 250), 1e-12);
  });

  it('U-bar axle: the wheel stiffness equals central differences of equilibrium solves under opposite wheel loads', () => {
    const text = example('double_wishbone_axle_u_bar').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90 }').replace('anti_roll: { type: u_bar }', 'anti_roll: { type: u_bar, rate: 3000 }');
    const { doc } = axle(text);
    const { rates } = ratesOf(doc);
    const travel = (fl: number, fr: number) => {
      const loaded: AssemblyDoc = {
        ...doc,
        forces: { ...doc.forces, load_left: { type: 'force', at: 'left_upright.wheel_center', vector: [0, 0, fl] }, load_right: { type: 'force', at: 'right_upright.wheel_center', vector: [0, 0, fr] } },
      };
      const dyn = buildDynamics(validateAssembly(loaded));
      const result = equilibrium(dyn, { maxIterations: 80 });
      expect(result.status).toBe('solved');
      const z = (part: string) => P.applyPoint(new Float64Array(3), dyn.system.getPose(part), loaded.parts[part].points!.wheel_center)[2];
      return [z('left_upright'), z('right_upright')];
    };
    // roll load ±F: δz = K⁻¹ [F, −F]
    const F = 1;
    const p = travel(F, -F), m = travel(-F, F);
    const dz = [(p[0] - m[0]) / 2, (p[1] - m[1]) / 2];
    const K = rates.wheelStiffness;
    close(K[0][0] * dz[0] + K[0][1] * dz[1], F, 1e-4);
    close(K[1][0] * dz[0] + K[1][1] * dz[1], -F, 1e-4);
    // heave load
    // heave load (the heave wheel rate is low here, so a small load keeps the travel small)
    const f = 0.05, ph = travel(f, f), mh = travel(-f, -f);
    close(rates.heaveWheelRate * ((ph[0] - mh[0]) / 2), f, 1e-4);
    close((ph[0] - mh[0]) / 2, (ph[1] - mh[1]) / 2, 1e-9);
  });

  it('T-bar: the bar adds k·g gᵀ at design (g = d arb_twist / d hub z of the T-bar)', () => {
    const base = example('double_wishbone_axle_t_bar').replace('spring: { type: torsion_bar }', 'spring: { type: torsion_bar, rate: 400 }');
    const k = 2500;
    const without = ratesOf(axle(base).doc).rates;
    const withBar = axle(base.replace('anti_roll: { type: t_bar }', `anti_roll: { type: t_bar, rate: ${k} }`));
    const { rates } = ratesOf(withBar.doc);
    const m = designMetrics(withBar.sm).axle;
    const g = [m.deriv_arb_twist_wrt_hub_z_left, m.deriv_arb_twist_wrt_hub_z_right];
    expect(Math.abs(g[0])).toBeGreaterThan(0.01);
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) close(rates.wheelStiffness[i][j] - without.wheelStiffness[i][j], k * DEG * g[i] * g[j], 1e-7);
    close(rates.heaveWheelRate, without.heaveWheelRate, 1e-7);
  });

  it('heave spring: adds k·h hᵀ (h = d heave_link_length / d hub z): heave rate, hardly roll; torsion bars k·r² per wheel', () => {
    const base = example('double_wishbone_axle_heave_link').replace('spring: { type: torsion_bar }', 'spring: { type: torsion_bar, rate: 400 }');
    const k = 60;
    const without = ratesOf(axle(base).doc).rates;
    const withLink = axle(base.replace('heave_link: { type: rocker_to_rocker }', `heave_link: { type: rocker_to_rocker, rate: ${k} }`));
    const { rates } = ratesOf(withLink.doc);
    const metrics = designMetrics(withLink.sm);
    const h = [metrics.axle.deriv_heave_link_length_wrt_hub_z_left, metrics.axle.deriv_heave_link_length_wrt_hub_z_right];
    expect(Math.abs(h[0])).toBeGreaterThan(0.05);
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) close(rates.wheelStiffness[i][j] - without.wheelStiffness[i][j], k * h[i] * h[j], 1e-7);
    close(rates.heaveWheelRate - without.heaveWheelRate, (k * (h[0] + h[1]) ** 2) / 2, 1e-7);
    expect(Math.abs(rates.rollWheelRate - without.rollWheelRate)).toBeLessThan(1e-9 * rates.heaveWheelRate);
    close(rates.motionRatios.heave_spring[0], h[0], 1e-9);
    // the torsion bars alone: K_z diagonal k·r², r = d torsion_bar_twist / d hub z (deg/mm)
    const r = metrics.left.deriv_torsion_bar_twist_wrt_hub_z;
    close(without.wheelStiffness[0][0], 400 * DEG * r * r, 1e-7);
    expect(Math.abs(without.wheelStiffness[0][1])).toBeLessThan(1e-9 * without.wheelStiffness[0][0]);
  });

  it('trailing arm torsion bar: wheel rate k·r², r = d torsion_bar_twist / d hub z', () => {
    const geometry = parseGeometry(example('trailing_arm_torsion_bar').replace('spring: { type: torsion_bar }', 'spring: { type: torsion_bar, rate: 700 }'));
    const doc = suspensionAssembly(geometry);
    expect(doc.forces?.torsion_bar).toEqual({ type: 'coordinate_spring', coordinate: 'arm_hinge.angle', stiffness: 700, free: 0 });
    const sm = new SuspensionModel(validateAssembly(doc));
    const c = sm.corners[0];
    const part = doc.parts[c.roles.upright];
    const full = { ...doc, parts: { ...doc.parts, [c.roles.upright]: { ...part, points: { ...part.points, wheel_center: [...c.wheelCenterLocal] as [number, number, number] } } } };
    const dyn = buildDynamics(validateAssembly(full));
    solveModel(dyn.model);
    const rates = suspensionRates(dyn, `${c.roles.upright}.wheel_center`);
    const r = (sm.evaluate().metrics as unknown as Record<string, number>).deriv_torsion_bar_twist_wrt_hub_z;
    expect(Math.abs(r)).toBeGreaterThan(0.01);
    close(rates.wheelRate, 700 * DEG * r * r, 1e-8);
  });
});
