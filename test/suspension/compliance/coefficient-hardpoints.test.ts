/**
 * The K&C coefficients' gradients over the hardpoints with no wheel load (src/suspension/compliance/
 * coefficient-rates.ts): every coefficient against central differences of the file re-read
 * with the point moved and the state re-solved and re-settled (kcCoefficients, the summary
 * `kinemate kc` prints); a few coordinates per file, the slow part being the re-settles.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { kcCoefficients, type KcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import { CompliantSensitivity } from '../../../src/suspension/compliance/sensitivity.ts';
import { compliantSensitivitySweep } from '../../../src/suspension/compliance/sensitivity-sweep.ts';
import type { MetricGradient, SideMetrics } from '../../../src/suspension/gradients/types.ts';
import { main } from '../../../src/cli/main.ts';
import { memoryIO } from '../../cli/helpers.ts';
import { example } from './helpers.ts';
import { setFilePath, settledAt } from './gradient-helpers.ts';

const DW = example('double_wishbone_compliant.yaml');
const ML = example('multi_link_axle_compliant.yaml');
const NAMES = ['toe_per_fy', 'camber_per_fy', 'lateral_stiffness', 'toe_per_fx', 'camber_per_fx', 'recession_per_fx', 'longitudinal_stiffness', 'toe_per_mz', 'camber_per_mz'] as const;

/** Every corner's coefficients of the file with hardpoint `key` (`point.axis`, or `left.point.axis`) moved by d, at rest at design. */
function coefficientsMoved(text: string, key: string, d: number): KcCoefficients[] {
  const raw = YAML.parse(text) as Record<string, unknown>;
  setFilePath(raw, `hardpoints.${key}`, (v) => v + d);
  const cs = new CompliantSensitivity(parseGeometry(JSON.stringify(raw)));
  settledAt(cs, 0, null);
  return kcCoefficients(cs.state).map((c) => c!);
}

/** |exact − fd| ≤ tol·max(|fd|, 1e-3 of the coefficient's own size per mm). */
function expectClose(exact: number, fd: number, value: number, tol: number, what: string): void {
  expect(Number.isFinite(exact), what).toBe(true);
  expect(Math.abs(exact - fd), `${what}: exact ${exact} fd ${fd}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(fd), 1e-3 * Math.abs(value)));
}

describe('K&C coefficients over the hardpoints', () => {
  it('the DW corner at design: all nine coefficients over four coordinates equal central differences of the re-settled file', () => {
    const g = parseGeometry(DW);
    const m = compliantSensitivitySweep(g, sweepFromShortcut('bump', '0:0:1', g), NAMES.map((n) => `kc.${n}`)).steps[0].metrics as Record<string, MetricGradient>;
    let largest = 0;
    for (const key of ['upper_wishbone_outboard.z', 'lower_wishbone_inboard_front.y', 'trackrod_inboard.z', 'axle_outboard.x']) {
      const [p, q] = [coefficientsMoved(DW, key, 1e-3)[0], coefficientsMoved(DW, key, -1e-3)[0]];
      for (const name of NAMES) {
        const fd = (p[name] - q[name]) / 2e-3;
        expectClose(m[`kc.${name}`].gradient[key], fd, m[`kc.${name}`].value, 1e-5, `${name} ${key}`);
        largest = Math.max(largest, Math.abs(fd / m[`kc.${name}`].value));
      }
    }
    // the points matter: some coefficient moves by more than 0.1 % per mm
    expect(largest).toBeGreaterThan(1e-3);
    // hardpoints first, then the stiffnesses, as the state metrics list them
    const keys = Object.keys(m['kc.toe_per_fy'].gradient);
    expect(keys.indexOf('upper_wishbone_outboard.z')).toBeLessThan(keys.indexOf('compliance.links.trackrod'));
  });

  it('the multi-link axle at design: both sides\' coefficients over a left, a right and a second left coordinate', () => {
    const g = parseGeometry(ML);
    const m = compliantSensitivitySweep(g, sweepFromShortcut('bump', '0:0:1', g), ['kc.toe_per_fy', 'kc.lateral_stiffness', 'kc.toe_per_mz']).steps[0].metrics as SideMetrics;
    for (const key of ['left.upper_front_link_inboard.z', 'right.upper_front_link_outboard.x', 'left.upper_front_link_outboard.y']) {
      const [p, q] = [coefficientsMoved(ML, key, 1e-3), coefficientsMoved(ML, key, -1e-3)];
      ['left', 'right'].forEach((side, ci) => {
        for (const name of ['toe_per_fy', 'lateral_stiffness', 'toe_per_mz'] as const) {
          const fd = (p[ci][name] - q[ci][name]) / 2e-3;
          const got = m[side][`kc.${name}`]!;
          expectClose(got.gradient[key], fd, got.value, 1e-5, `${side} ${name} ${key}`);
        }
      });
    }
  });

  it('a MacPherson strut on a top mount, and a Panhard beam axle (mirrored file: a point moves both sides)', () => {
    const cases = [
      { file: 'macpherson.yaml', compliance: 'bushings:\n    strut_top: { radial: 3000, axial: 1200 }\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1500 }\n  links:\n    trackrod: 20000', keys: [['strut_top.y', 'strut_top.y', 0], ['lower_wishbone_outboard.x', 'lower_wishbone_outboard.x', 0]] },
      // the file lists the left side only: its point moves the right one's mirror too (y opposite)
      { file: 'solid_axle_panhard.yaml', compliance: 'links:\n    lower_link: 5000\n    panhard: 8000', keys: [['left.lower_link_axle.y', 'left.lower_link_axle.y', -1], ['center.panhard_chassis.y', 'center.panhard_chassis.y', 0]] },
    ] as const;
    for (const c of cases) {
      const text = `${example(c.file)}compliance:\n  ${c.compliance}\n`;
      const g = parseGeometry(text);
      const got = compliantSensitivitySweep(g, sweepFromShortcut('bump', '0:0:1', g), ['kc.toe_per_fy', 'kc.lateral_stiffness']).steps[0].metrics as Record<string, MetricGradient> & SideMetrics;
      const m = (g.scope === 'axle' ? got.left : got) as Record<string, MetricGradient>;
      for (const [key, filePath, mirror] of c.keys) {
        const [p, q] = [coefficientsMoved(text, filePath, 1e-3)[0], coefficientsMoved(text, filePath, -1e-3)[0]];
        for (const name of ['toe_per_fy', 'lateral_stiffness'] as const) {
          const fd = (p[name] - q[name]) / 2e-3;
          const gr = m[`kc.${name}`].gradient;
          const exact = gr[key] + (mirror ? mirror * gr[key.replace(/^left\./, 'right.')] : 0);
          expectClose(exact, fd, m[`kc.${name}`].value, 1e-5, `${c.file} ${name} ${key}`);
        }
      }
    }
  });

  it('away from design: the unit loads act at the settled contact centre, a function of the points, so the hardpoints are parameters there too', () => {
    const g = parseGeometry(DW);
    const m = compliantSensitivitySweep(g, sweepFromShortcut('bump', '20:20:1', g), ['kc.toe_per_fy', 'kc.lateral_stiffness']).steps[0].metrics as Record<string, MetricGradient>;
    const key = 'upper_wishbone_outboard.z';
    const moved = (d: number) => {
      const raw = YAML.parse(DW) as Record<string, unknown>;
      setFilePath(raw, `hardpoints.${key}`, (v) => v + d);
      const cs = new CompliantSensitivity(parseGeometry(JSON.stringify(raw)));
      settledAt(cs, 20, null);
      return kcCoefficients(cs.state)[0]!;
    };
    const [p, q] = [moved(1e-3), moved(-1e-3)];
    for (const name of ['toe_per_fy', 'lateral_stiffness'] as const) {
      expectClose(m[`kc.${name}`].gradient[key], (p[name] - q[name]) / 2e-3, m[`kc.${name}`].value, 1e-5, `${name} at +20 mm`);
    }
    expect(Object.keys(m['kc.toe_per_fy'].gradient)).toContain('compliance.links.trackrod');
  });

  it('the command prints them: every hardpoint coordinate, then the stiffnesses, as the library gives them', async () => {
    const io = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone_compliant.yaml', '--metric', 'kc.lateral_stiffness'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: { bump: { steps: { metrics: Record<string, MetricGradient> }[] } } };
    const g = out.sweeps.bump.steps[0].metrics['kc.lateral_stiffness'].gradient;
    const keys = Object.keys(g);
    expect(keys.filter((k) => !k.startsWith('compliance.')).length).toBe(30);
    expect(keys.at(-1)!.startsWith('compliance.')).toBe(true);
    const lib = compliantSensitivitySweep(parseGeometry(DW), sweepFromShortcut('bump', '0:0:1', parseGeometry(DW)), ['kc.lateral_stiffness']).steps[0].metrics as Record<string, MetricGradient>;
    expect(g['upper_wishbone_outboard.z']).toBeCloseTo(lib['kc.lateral_stiffness'].gradient['upper_wishbone_outboard.z'], 9);
  });
});
