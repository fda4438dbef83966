/**
 * `kinemate sensitivity --targets` on a compliant file (docs/compliance.md, "Gradients and
 * fit"): a curve's quantities read off the settled states, with gradients over the
 * stiffnesses against central differences of the file re-read with the rate moved, and, at
 * rest (no wheel load, no preload: the rigid kinematics), over the hardpoints equal to those
 * of the same file without `compliance:`.
 */
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { curveSensitivity, parseCurveTargets, type CurveQuantity } from '../../../src/suspension/gradients/curves.ts';
import { main } from '../../../src/cli/main.ts';
import { memoryIO } from '../../cli/helpers.ts';
import { dwCompliance, example } from './helpers.ts';

const DW = example('double_wishbone.yaml');
const TARGETS = 'targets:\n  - { metric: kc.toe_per_fy, at: 0 }\n  - { metric: kc.lateral_stiffness, gain: [0, 20] }\n  - { metric: camber, slope: [0, 20] }\n';

const quantities = (text: string): CurveQuantity[] => {
  const g = parseGeometry(text);
  return curveSensitivity(g, parseCurveTargets(TARGETS, g));
};

describe('sensitivity --targets on a compliant file', () => {
  const base = quantities(DW + dwCompliance());

  it('the coefficients\' quantities: gradients over a link and a bushing rate equal central differences of the re-read file', () => {
    for (const [path, from, h] of [['compliance.links.trackrod', 'trackrod: 30000', 30], ['compliance.bushings.lower_wishbone_inboard_rear.radial', 'radial: 4000,', 4]] as const) {
      const moved = (d: number) => quantities(DW + dwCompliance().replace(from, from.replace(/\d+/, (v) => String(Number(v) + d))));
      const plus = moved(h), minus = moved(-h);
      for (const i of [0, 1]) {
        const fd = (plus[i].value - minus[i].value) / (2 * h);
        const exact = base[i].gradient[path] as number;
        expect(Math.abs(exact - fd), `${base[i].target} over ${path}`).toBeLessThan(1e-5 * Math.abs(fd) + 1e-12);
        expect(Math.abs(fd)).toBeGreaterThan(1e-9);
      }
    }
  });

  it('a kinematic curve at rest: the rigid file\'s quantity and hardpoint gradients, nothing over the rates', () => {
    const rigidText = DW;
    const g = parseGeometry(rigidText);
    const rigid = curveSensitivity(g, parseCurveTargets('targets:\n  - { metric: camber, slope: [0, 20] }\n', g))[0];
    const slope = base[2];
    expect(slope.kind).toBe('slope');
    expect(slope.value).toBeCloseTo(rigid.value, 9);
    for (const [key, v] of Object.entries(rigid.gradient)) expect(Math.abs((slope.gradient[key] as number) - (v as number)), key).toBeLessThan(1e-7 * Math.max(1, Math.abs(v as number)));
    for (const [key, v] of Object.entries(slope.gradient)) if (key.startsWith('compliance.')) expect(Math.abs(v as number), key).toBeLessThan(1e-12);
  });

  it('the CLI prints them (it refused compliant files before)', async () => {
    const io = memoryIO();
    const code = await main(['sensitivity', 'examples/suspension/double_wishbone_compliant.yaml', '--targets', 'examples/sensitivity/fit_kc_toe.yaml'], io);
    expect(io.written.stderr).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(io.written.stdout) as { targets: CurveQuantity[] };
    expect(out.targets.map((t) => t.metric)).toEqual(['kc.toe_per_fy', 'kc.lateral_stiffness']);
    expect(out.targets[0].gradient['compliance.bushings.lower_wishbone_inboard_rear.radial']).toBeLessThan(0);
  });
});
