/**
 * The K&C coefficients' gradients where the joints carry load (λ ≠ 0: a spring's preload at
 * travel, a wheel load): over the hardpoints and over a stiffness whose element is loaded,
 * which take the constraints' third derivatives λ·Φ_qqq (the second tangent level of the
 * duals: compliance/coefficient-rates.ts). Each entry against central differences of the file
 * re-read with the number moved and the state re-solved and re-settled (kcCoefficients, the
 * summary `kinemate kc` prints). Leaving the mixed term out puts entries 1e-4 to 4e-4 off.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { kcCoefficients, type KcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import { CompliantSensitivity } from '../../../src/suspension/compliance/sensitivity.ts';
import { compliantSensitivitySweep } from '../../../src/suspension/compliance/sensitivity-sweep.ts';
import type { MetricGradient } from '../../../src/suspension/gradients/types.ts';
import type { LoadCase } from '../../../src/suspension/loads/loads.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import { example } from './helpers.ts';
import { setFilePath, settledAt } from './gradient-helpers.ts';

type Load = { force: Vec3Tuple; moment: Vec3Tuple } | null;
const NAMES = ['toe_per_fy', 'camber_per_fy', 'lateral_stiffness', 'toe_per_fx', 'camber_per_fx', 'recession_per_fx', 'longitudinal_stiffness', 'toe_per_mz', 'camber_per_mz'] as const;

/** The DW corner on rubber with a coilover preloaded at design (free length 470 mm against 447): its load runs through the joints everywhere. */
const DW_SPRING = example('double_wishbone_compliant.yaml')
  .replace('spring: { type: none }', 'spring: { type: coilover, rate: 60, free_length: 470 }')
  .replace('hardpoints:\n', 'hardpoints:\n  strut_bottom: { x: 0, y: 700, z: 200 }\n  strut_top: { x: 0, y: 600, z: 600 }\n');

/** The MacPherson corner on a strut-top mount and rubber at the lower arm, with a 30 N/mm spring preloaded at design. */
const MACPHERSON = `${example('macpherson.yaml').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 30, free_length: 460 }')}compliance:
  bushings:
    strut_top: { radial: 3000, axial: 1200 }
    lower_wishbone_inboard_front: { radial: 8000, axial: 1500 }
  links:
    trackrod: 20000
`;

/** Corner 0's coefficients of the file with the number at `path` moved by d, settled at bump under the load (or none). */
function moved(text: string, path: string, d: number, bump: number, load: Load): KcCoefficients {
  const raw = YAML.parse(text) as Record<string, unknown>;
  setFilePath(raw, path, (v) => v + d);
  const cs = new CompliantSensitivity(parseGeometry(JSON.stringify(raw)));
  settledAt(cs, bump, load);
  return kcCoefficients(cs.state)[0]!;
}

/** Every named coefficient's gradient entry for each path against central differences (±h), |exact − fd| ≤ tol·max(|fd|, 1e-3 |value|). */
function checkAgainstDifferences(text: string, bump: number, load: Load, paths: readonly string[], names: readonly (keyof KcCoefficients)[], h: number, tol: number): void {
  const g = parseGeometry(text);
  const loads: LoadCase | null = load ? { each: { force: load.force, moment: load.moment, at: 'contact_patch' } } : null;
  const m = compliantSensitivitySweep(g, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), names.map((n) => `kc.${n}`), loads).steps[0].metrics as Record<string, MetricGradient>;
  for (const path of paths) {
    const key = path.replace(/^hardpoints\./, '');
    const [p, q] = [moved(text, path, h, bump, load), moved(text, path, -h, bump, load)];
    for (const name of names) {
      const got = m[`kc.${name}`];
      expect(got, `kc.${name}`).not.toBeNull();
      const fd = (p[name] - q[name]) / (2 * h), exact = got.gradient[key];
      expect(Number.isFinite(exact), `${name} ${key}`).toBe(true);
      expect(Math.abs(exact - fd), `${name} ${key}: exact ${exact} fd ${fd}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(fd), 1e-3 * Math.abs(got.value)));
    }
  }
}

describe('K&C coefficients\' gradients with loaded joints (λ·Φ_qqq)', () => {
  it('DW corner with a preloaded spring, 20 mm in bump: all nine coefficients over two points and a bushing rate', () => {
    checkAgainstDifferences(DW_SPRING, 20, null, ['hardpoints.upper_wishbone_outboard.z', 'hardpoints.strut_bottom.z', 'compliance.bushings.lower_wishbone_inboard_front.radial'], NAMES, 1e-3, 1e-6);
  });

  it('DW corner under 3 kN of Fy at every contact patch, at design: over two points, a bushing rate and the track rod\'s', () => {
    checkAgainstDifferences(example('double_wishbone_compliant.yaml'), 0, { force: [0, 3000, 0], moment: [0, 0, 0] },
      ['hardpoints.upper_wishbone_outboard.z', 'hardpoints.trackrod_inboard.z', 'compliance.bushings.lower_wishbone_inboard_front.radial', 'compliance.links.trackrod'],
      ['toe_per_fy', 'lateral_stiffness', 'camber_per_fx', 'toe_per_mz'], 1e-2, 1e-6);
  });

  it('MacPherson corner on a strut-top mount with a preloaded spring, 15 mm in bump: over the strut top, the lower ball joint and the mount\'s rate', () => {
    checkAgainstDifferences(MACPHERSON, 15, null, ['hardpoints.strut_top.y', 'hardpoints.lower_wishbone_outboard.x', 'compliance.bushings.strut_top.radial'],
      ['toe_per_fy', 'lateral_stiffness', 'recession_per_fx', 'toe_per_mz'], 1e-3, 1e-6);
  });

  it('the state metrics 20 mm in bump under the preload: hardpoint gradients beside the stiffnesses, against differences of the re-settled file', () => {
    const g = parseGeometry(DW_SPRING);
    const m = compliantSensitivitySweep(g, sweepFromShortcut('bump', '20:20:1', g), ['camber', 'toe_angle']).steps[0].metrics as Record<string, MetricGradient>;
    for (const key of ['upper_wishbone_outboard.z', 'strut_top.y']) {
      const at = (d: number) => {
        const raw = YAML.parse(DW_SPRING) as Record<string, unknown>;
        setFilePath(raw, `hardpoints.${key}`, (v) => v + d);
        const cs = new CompliantSensitivity(parseGeometry(JSON.stringify(raw)));
        settledAt(cs, 20, null);
        return cs.sm.evaluate({ derivatives: false }).metrics as Record<string, number>;
      };
      const [p, q] = [at(1e-3), at(-1e-3)];
      for (const name of ['camber', 'toe_angle'] as const) {
        const fd = (p[name] - q[name]) / 2e-3;
        expect(Math.abs(m[name].gradient[key] - fd), `${name} ${key}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd)));
      }
    }
    expect(Object.keys(m.camber.gradient)).toContain('compliance.links.trackrod');
  });
});
