/**
 * kinemate sensitivity on a compliant file (src/suspension/compliance/sensitivity-sweep.ts):
 * at rest the settled state is the rigid kinematics for every hardpoint nearby, so its
 * hardpoint gradients are the rigid file's — checked against central differences of the
 * compliant file itself, re-read and re-settled; under load only the stiffnesses are parameters;
 * the command prints both in the rigid command's layout.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { compliantSensitivitySweep } from '../../../src/suspension/compliance/sensitivity-sweep.ts';
import type { MetricGradient } from '../../../src/suspension/gradients/types.ts';
import { main } from '../../../src/cli/main.ts';
import { memoryIO } from '../../cli/helpers.ts';
import { example, settleUnder, stateAt } from './helpers.ts';
import { setFilePath } from './gradient-helpers.ts';

const DW = example('double_wishbone_compliant.yaml');

describe('sensitivity of a compliant file', () => {
  it('at rest, 20 mm in bump: hardpoint gradients equal central differences of the re-settled compliant file', () => {
    const g = parseGeometry(DW);
    const step = compliantSensitivitySweep(g, sweepFromShortcut('bump', '20:20:1', g), ['camber', 'toe_angle']).steps[0];
    const m = step.metrics as Record<string, MetricGradient>;
    for (const key of ['upper_wishbone_outboard.z', 'trackrod_inboard.z', 'lower_wishbone_inboard_front.y']) {
      const at = (d: number) => {
        const raw = YAML.parse(DW) as Record<string, unknown>;
        const [point, axis] = key.split('.');
        setFilePath(raw, `hardpoints.${point}.${axis}`, (v) => v + d);
        return settleUnder(stateAt(JSON.stringify(raw), 20), [0, 0, 0]);
      };
      const [p, q] = [at(1e-3), at(-1e-3)];
      for (const name of ['camber', 'toe_angle'] as const) {
        const fd = ((p[name] as number) - (q[name] as number)) / 2e-3;
        expect(Math.abs(m[name].gradient[key] - fd), `${name} ${key}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd)));
      }
    }
    expect(Math.abs(m.toe_angle.gradient['trackrod_inboard.z'])).toBeGreaterThan(1e-3);
  });

  for (const [what, bump, at] of [['3 kN at the contact patch, at design', 0, 'contact_patch'], ['3 kN at the wheel centre, 20 mm in bump', 20, 'wheel_center']] as const) {
    it(`under ${what}: hardpoint gradients equal central differences of the re-settled compliant file`, () => {
      const g = parseGeometry(DW);
      const load = { left: { force: [0, 3000, 0] as [number, number, number], at } };
      const step = compliantSensitivitySweep(g, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), ['camber', 'toe_angle'], load).steps[0];
      const m = step.metrics as Record<string, MetricGradient>;
      for (const key of ['upper_wishbone_outboard.z', 'lower_wishbone_inboard_front.y', 'trackrod_outboard.x', 'axle_outboard.z']) {
        const value = (d: number) => {
          const raw = YAML.parse(DW) as Record<string, unknown>;
          const [point, axis] = key.split('.');
          setFilePath(raw, `hardpoints.${point}.${axis}`, (v) => v + d);
          return settleUnder(stateAt(JSON.stringify(raw), bump), [0, 3000, 0], [0, 0, 0], at);
        };
        const [p, q] = [value(1e-2), value(-1e-2)];
        for (const name of ['camber', 'toe_angle'] as const) {
          const fd = ((p[name] as number) - (q[name] as number)) / 2e-2;
          expect(Math.abs(m[name].gradient[key] - fd), `${name} ${key}: ${m[name].gradient[key]} vs ${fd}`).toBeLessThan(1e-5 * Math.max(1e-2, Math.abs(fd)));
        }
      }
    });
  }

  it('the command: kc.* and loaded metrics over the stiffnesses; an unknown metric refused', async () => {
    const io = memoryIO();
    const code = await main(['sensitivity', 'examples/suspension/double_wishbone_compliant.yaml', '--metric', 'kc.toe_per_fy', '--metric', 'camber',
      '--loads', 'examples/suspension/loads/kc_lateral.yaml'], io);
    expect(io.written.stderr).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: { bump: { steps: { metrics: Record<string, MetricGradient | null> }[] } } };
    const metrics = out.sweeps.bump.steps[0].metrics;
    // under load: the hardpoints and the stiffnesses, the coefficients' too (λ·Φ_qqq: coefficient-loaded.test.ts checks them)
    expect(Object.keys(metrics.camber!.gradient)).toContain('compliance.links.trackrod');
    expect(Object.keys(metrics.camber!.gradient)).toContain('upper_wishbone_outboard.z');
    expect(Object.keys(metrics['kc.toe_per_fy']!.gradient)).toContain('upper_wishbone_outboard.z');
    expect(Object.keys(metrics['kc.toe_per_fy']!.gradient)).toContain('compliance.links.trackrod');
    const bad = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone_compliant.yaml', '--metric', 'link_force.trackrod'], bad)).toBe(1);
    expect(bad.written.stderr).toMatch(/no gradient for "link_force.trackrod" on a compliant file/);
  });
});
