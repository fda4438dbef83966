/**
 * The K&C coefficients are exact derivatives at zero load (implicit function theorem on
 * the equilibrium, src/suspension/compliance/coefficients.ts): each one against central
 * differences of re-solved loaded states. The preloaded-spring case loads the bushings and
 * the wheel pad at zero wheel load, so the constraints' and the pad's geometric stiffness
 * (λ·Φ_qq) and the bushings' large-rotation terms all enter. The unit loads act at the
 * zero-load state's contact centre (state.ts unitLoadPoint), where the rig's events place theirs.
 */
import { describe, expect, it } from 'vitest';
import { kcCoefficients, type KcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import { dwCompliance, example, settleUnder, stateAt } from './helpers.ts';

const DW = example('double_wishbone.yaml');
const PRELOADED = DW.replace('spring: { type: none }', 'spring: { type: coilover, rate: 60, preload: 3000 }')
  .replace('  axle_inboard:', '  strut_bottom: { x: 0, y: 700, z: 220 }\n  strut_top: { x: 0, y: 600, z: 560 }\n  axle_inboard:');

/**
 * Central differences of the re-solved states (h in N, or N·mm for Mz), each load placed at the
 * zero-load equilibrium's contact centre and settled from there, as \`kinemate kc\`'s events do.
 */
function differences(s: ReturnType<typeof stateAt>): KcCoefficients {
  const system = s.sm.model.system;
  settleUnder(s, [0, 0, 0]);
  s.state.placeLoads();
  const unloaded = system.snapshot();
  const under = (force: [number, number, number], moment: [number, number, number]): Record<string, number | null> => {
    system.restore(unloaded);
    s.state.setLoad(0, { force, moment, at: 'contact_patch' });
    const r = s.state.settle(false);
    if (r.status !== 'solved') throw new Error(r.message);
    const ev = s.sm.evaluate({ derivatives: false });
    return { ...(ev.metrics as Record<string, number | null>), contact_y: ev.positions.wheel_contact_centre[1], contact_x: ev.positions.wheel_contact_centre[0], wc_x: ev.positions.wheel_center[0] };
  };
  const d = (f: (x: number) => [number, number, number][], key: string, h: number) => {
    const [F1, M1] = f(h), [F0, M0] = f(-h);
    const p = under(F1, M1), m = under(F0, M0);
    return ((p[key] as number) - (m[key] as number)) / (2 * h);
  };
  const fy = (x: number) => [[0, x, 0], [0, 0, 0]] as [number, number, number][];
  const fx = (x: number) => [[x, 0, 0], [0, 0, 0]] as [number, number, number][];
  const mz = (x: number) => [[0, 0, 0], [0, 0, x]] as [number, number, number][];
  return {
    toe_per_fy: d(fy, 'toe_angle', 2) * 1e3,
    camber_per_fy: d(fy, 'camber', 2) * 1e3,
    lateral_stiffness: 1 / d(fy, 'contact_y', 2),
    toe_per_fx: d(fx, 'toe_angle', 2) * 1e3,
    camber_per_fx: d(fx, 'camber', 2) * 1e3,
    recession_per_fx: d(fx, 'wc_x', 2) * 1e3,
    longitudinal_stiffness: 1 / d(fx, 'contact_x', 2),
    toe_per_mz: d(mz, 'toe_angle', 2000) * 1e6,
    camber_per_mz: d(mz, 'camber', 2000) * 1e6,
  };
}

describe('K&C coefficients by the implicit function theorem', () => {
  for (const [name, text, bump] of [['the DW corner on bushings', DW + dwCompliance(), 0], ['with a preloaded spring, 20 mm in bump', PRELOADED + dwCompliance(), 20]] as const) {
    it(`${name}: every coefficient equals central differences of re-solved states`, () => {
      const s = stateAt(text, bump);
      settleUnder(s, [0, 0, 0]);
      const exact = kcCoefficients(s.state)[0]!;
      const fd = differences(s);
      for (const key of Object.keys(fd) as (keyof KcCoefficients)[]) {
        expect(Math.abs(exact[key] - fd[key]), key).toBeLessThan(1e-6 * Math.abs(fd[key]) + 1e-9);
      }
      expect(Math.abs(exact.toe_per_fy)).toBeGreaterThan(1e-3);
    });
  }
});
