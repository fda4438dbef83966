/**
 * A contact-patch load placed away from design (state.ts settlePlaced, compliance/load-placement.ts):
 * each sweep step places it at the step's unloaded equilibrium, as `kinemate kc` does, so the
 * loaded state is a function of the points, the rates and the travel — the same whatever steps
 * led there — and its gradients over the hardpoints exist. Each entry against central
 * differences of the file re-read with the number moved and the step re-solved and re-settled
 * (the metrics at the deflected pose, the `kc.*` coefficients there: kcCoefficients, and
 * `kc.wheel_rate`).
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readFileSync } from 'node:fs';
import { parseGeometry, sweepFromShortcut, sweepValues } from '../../../src/suspension/files/index.ts';
import { kcCoefficients, type KcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import { CompliantSensitivity } from '../../../src/suspension/compliance/sensitivity.ts';
import { compliantSensitivitySweep } from '../../../src/suspension/compliance/sensitivity-sweep.ts';
import { compliantWheelRates } from '../../../src/suspension/compliance/wheel-rate.ts';
import { padOwner } from '../../../src/suspension/compliance/wheel-rate-rates.ts';
import { sweepDrivers } from '../../../src/suspension/sweep/sweep.ts';
import { runKc } from '../../../src/suspension/compliance/kc.ts';
import type { MetricGradient } from '../../../src/suspension/gradients/types.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import { example } from './helpers.ts';
import { setFilePath } from './gradient-helpers.ts';

const DW = example('double_wishbone_compliant.yaml');
const FY: Vec3Tuple = [0, 3000, 0];
const lateral = { each: { force: FY } };

/** The pushrod corner on two bushings with a compliant pushrod and a 90 N/mm coilover: the spring's load runs through the rubber away from design. */
const PUSHROD = `${readFileSync(new URL('../../../examples/suspension/double_wishbone_pushrod.yaml', import.meta.url), 'utf8').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90 }')}compliance:
  bushings:
    lower_wishbone_inboard_front: { radial: 8000, axial: 1600 }
    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }
  links:
    pushrod: 20000
`;

type Values = Record<string, number>;

/** The file with the number at `path` moved by d, solved at bump from design and settled under Fy placed as a sweep step places it (corner `ci`'s values). */
function placed(text: string, path: string | null, d: number, bump: number, ci = 0): Values {
  const raw = YAML.parse(text) as Record<string, unknown>;
  if (path) setFilePath(raw, path, (v) => v + d);
  const g = parseGeometry(JSON.stringify(raw));
  const cs = new CompliantSensitivity(g);
  const drivers = sweepDrivers(cs.sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, g));
  cs.sm.resetToDesign();
  drivers.forEach((dr) => { dr.block.target = dr.targetOf(sweepValues(dr.source, 1)[0]); });
  if (!cs.sm.solveWith(drivers.map((dr) => dr.block)).converged) throw new Error('the position cannot be reached');
  cs.sm.corners.forEach((_, i) => cs.state.setLoad(i, { force: FY, moment: [0, 0, 0], at: 'contact_patch' }));
  const r = cs.state.settlePlaced();
  if (r.status !== 'solved') throw new Error(r.message);
  const all = cs.sm.evaluate({ derivatives: false }).metrics as Record<string, number> & Record<string, Record<string, number>>;
  const metrics = cs.sm.corners.length > 1 ? all[cs.sides[ci]] : all;
  const kc = kcCoefficients(cs.state)[ci] as KcCoefficients;
  const rate = compliantWheelRates(cs.state, padOwner)[ci] as number;
  return { camber: metrics.camber, toe_angle: metrics.toe_angle, ...Object.fromEntries(Object.entries(kc).map(([k, v]) => [`kc.${k}`, v])), 'kc.wheel_rate': rate };
}

/** The last step of a sweep under Fy: each asked metric with its gradient. */
function lastStep(text: string, bump: string, metrics: readonly string[]): Record<string, MetricGradient> {
  const g = parseGeometry(text);
  const steps = compliantSensitivitySweep(g, sweepFromShortcut('bump', bump, g), metrics, lateral).steps;
  return steps[steps.length - 1].metrics as Record<string, MetricGradient>;
}

/** Richardson-extrapolated central differences, (4 D(h) − D(2h)) / 3, of every value over `path`. */
function differences(text: string, path: string, h: number, bump: number, ci = 0): Values {
  const [p1, m1, p2, m2] = [h, -h, 2 * h, -2 * h].map((d) => placed(text, path, d, bump, ci));
  return Object.fromEntries(Object.keys(p1).map((k) => [k, (4 * (p1[k] - m1[k]) / (2 * h) - (p2[k] - m2[k]) / (4 * h)) / 3]));
}

function expectClose(exact: number | undefined, fd: number, tol: number, scale: number, what: string): void {
  expect(exact, what).toBeDefined();
  expect(Math.abs((exact as number) - fd), `${what}: exact ${exact} fd ${fd}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(fd), scale));
}

describe('contact-patch loads placed at the step\'s unloaded equilibrium', () => {
  it('the loaded state at +20 mm is the same from any sweep, and kinemate kc\'s lateral event at that travel', () => {
    const at20 = ['0:20:3', '0:20:2', '20:20:1', '-20:20:3'].map((b) => lastStep(DW, b, ['toe_angle', 'camber']));
    for (const s of at20.slice(1)) {
      expect(Math.abs(s.toe_angle.value - at20[0].toe_angle.value)).toBeLessThan(1e-9);
      expect(Math.abs(s.camber.value - at20[0].camber.value)).toBeLessThan(1e-9);
    }
    const kc = runKc(new CompliantSensitivity(parseGeometry(DW)).sm, 'lateral', { range: [3000, 3000, 1], at: { kind: 'bump', value: 20 } });
    const m = kc.steps[0].metrics as Record<string, number>;
    expect(Math.abs(m.toe_angle - at20[0].toe_angle.value)).toBeLessThan(1e-8);
    expect(Math.abs(m.camber - at20[0].camber.value)).toBeLessThan(1e-8);
  });

  it('DW corner under 3 kN of Fy, the third step of 0:20:3: the metrics and all nine coefficients over four points and a rate', () => {
    const names = ['camber', 'toe_angle', 'kc.toe_per_fy', 'kc.camber_per_fy', 'kc.lateral_stiffness', 'kc.toe_per_fx', 'kc.camber_per_fx', 'kc.recession_per_fx',
      'kc.longitudinal_stiffness', 'kc.toe_per_mz', 'kc.camber_per_mz'];
    const m = lastStep(DW, '0:20:3', names);
    const at = placed(DW, null, 0, 20);
    for (const n of names) expect(Math.abs(m[n].value - at[n]), n).toBeLessThan(1e-8 * Math.max(1, Math.abs(at[n])));
    for (const [path, h] of [['hardpoints.upper_wishbone_outboard.z', 0.05], ['hardpoints.trackrod_inboard.z', 0.05], ['hardpoints.axle_outboard.z', 0.05],
      ['hardpoints.lower_wishbone_inboard_front.y', 0.05], ['compliance.bushings.lower_wishbone_inboard_rear.radial', 50]] as const) {
      const fd = differences(DW, path, h, 20);
      for (const n of names) expectClose(m[n].gradient[path.replace(/^hardpoints\./, '')], fd[n], 1e-6, 1e-3 * Math.abs(m[n].value), `${n} ${path}`);
    }
  });
});

/** The DW corner on rubber with a coilover preloaded at design (free length 470 mm against 447): the unloaded state deflects, and turns with every rate. */
const DW_SPRING = DW
  .replace('spring: { type: none }', 'spring: { type: coilover, rate: 60, free_length: 470 }')
  .replace('hardpoints:\n', 'hardpoints:\n  strut_bottom: { x: 0, y: 700, z: 200 }\n  strut_top: { x: 0, y: 600, z: 600 }\n');

describe('placed loads on a preloaded suspension', () => {
  // without the load point's move with a rate (sensitivity.ts partialOf) the rates' entries are 2e-4 to 2e-3 off, kc.wheel_rate's 9 % to 70 %
  it('DW corner with a preloaded coilover under 3 kN of Fy at +20 mm: metrics, coefficients and kc.wheel_rate over two points and two rates', () => {
    const names = ['camber', 'toe_angle', 'kc.toe_per_fy', 'kc.lateral_stiffness', 'kc.wheel_rate'];
    const m = lastStep(DW_SPRING, '20:20:1', names);
    for (const [path, h] of [['hardpoints.upper_wishbone_outboard.z', 0.05], ['hardpoints.strut_bottom.z', 0.05],
      ['compliance.bushings.lower_wishbone_inboard_rear.radial', 50], ['compliance.links.trackrod', 300]] as const) {
      const fd = differences(DW_SPRING, path, h, 20);
      // the wheel rate's differences carry the re-settled rate's own noise (wheel-rate-gradients.test.ts): seen 1e-6 to 8e-6
      const rate = path.startsWith('compliance.');
      for (const n of names) expectClose(m[n].gradient[path.replace(/^hardpoints\./, '')], fd[n], n === 'kc.wheel_rate' ? (rate ? 3e-5 : 1e-5) : 1e-6, 1e-3 * Math.abs(m[n].value), `${n} ${path}`);
    }
  });
});

describe('placed loads on an axle', () => {
  it('the compliant multi-link axle under 3 kN of Fy on each side at +10 mm: both sides over a left point, a right point and a link rate', () => {
    const ML = example('multi_link_axle_compliant.yaml');
    const g = parseGeometry(ML);
    const names = ['toe_angle', 'camber', 'kc.toe_per_fy'];
    const m = compliantSensitivitySweep(g, sweepFromShortcut('bump', '10:10:1', g), names, { left: { force: FY }, right: { force: FY } }).steps[0].metrics as Record<string, Record<string, MetricGradient>>;
    for (const [path, key, h] of [['hardpoints.left.upper_front_link_outboard.z', 'left.upper_front_link_outboard.z', 0.05], ['hardpoints.right.upper_front_link_inboard.x', 'right.upper_front_link_inboard.x', 0.05],
      ['compliance.links.trackrod', 'compliance.links.trackrod', 100]] as const) {
      ['left', 'right'].forEach((side, ci) => {
        const fd = differences(ML, path, h, 10, ci);
        for (const n of names) expectClose(m[side][n].gradient[key], fd[n], 1e-6, 1e-3 * Math.abs(m[side][n].value), `${side} ${n} ${key}`);
      });
    }
  });
});
