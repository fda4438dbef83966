/**
 * The rigid limit (issue 28): with no load a compliant suspension has exactly the rigid
 * kinematics; under load its figures approach the rigid ones as 1/k — ten times stiffer
 * bushings and links, ten times closer — on the compliant double wishbone corner and the
 * compliant multi-link axle.
 */
import { describe, expect, it } from 'vitest';
import { dwCompliance, example, settleUnder, stateAt } from './helpers.ts';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { runSweep } from '../../../src/suspension/sweep/sweep.ts';
import { CompliantState } from '../../../src/suspension/compliance/state.ts';
import { runKc } from '../../../src/suspension/compliance/kc.ts';

const DW = example('double_wishbone.yaml');

function rigidMetrics(text: string, bump: number): Record<string, number | null> {
  const g = parseGeometry(text);
  const sm = new SuspensionModel(suspensionAssembly(g));
  const run = runSweep(sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), { valuesOnly: true });
  return run.steps[0].metrics as Record<string, number | null>;
}

describe('the rigid limit of a compliant suspension', () => {
  it('no load: a compliant sweep gives the rigid kinematics', () => {
    const g = parseGeometry(DW + dwCompliance());
    const sm = new SuspensionModel(suspensionAssembly(g));
    const state = new CompliantState(sm);
    const spec = sweepFromShortcut('bump', '-40:40:5', g);
    const compliant = runSweep(sm, spec, { valuesOnly: true, settle: () => state.settle() });
    const rigidG = parseGeometry(DW);
    const rigid = runSweep(new SuspensionModel(suspensionAssembly(rigidG)), sweepFromShortcut('bump', '-40:40:5', rigidG), { valuesOnly: true });
    compliant.steps.forEach((s, i) => {
      expect(s.status).toBe('solved');
      const m = s.metrics as Record<string, number>, r = rigid.steps[i].metrics as Record<string, number>;
      for (const key of ['camber', 'toe_angle', 'caster', 'kpi', 'half_track']) expect(Math.abs(m[key] - r[key]), key).toBeLessThan(1e-8);
    });
  });

  it('double wishbone under 3 kN lateral and braking: ten times stiffer, ten times closer to the rigid figures', () => {
    const rigid = rigidMetrics(DW, 10);
    for (const force of [[0, 3000, 0], [-3000, 0, 0]] as [number, number, number][]) {
      const deviation = [1, 10, 100].map((scale) => {
        const m = settleUnder(stateAt(DW + dwCompliance(scale), 10), force);
        return ['toe_angle', 'camber', 'caster'].map((k) => (m[k] as number) - (rigid[k] as number));
      });
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(deviation[0][k])).toBeGreaterThan(1e-4);
        expect(deviation[0][k] / deviation[1][k]).toBeGreaterThan(9);
        expect(deviation[0][k] / deviation[1][k]).toBeLessThan(11);
        expect(Math.abs(deviation[1][k] / deviation[2][k] - 10)).toBeLessThan(0.2);
      }
    }
  });

  it('multi-link axle with compliant rods under lateral load: the same 1/k law on both sides', () => {
    const text = example('multi_link_axle_compliant.yaml');
    const stiffer = (scale: number) => text.replace(/^(\s+(?:left\.)?\w+link\w*|\s+(?:left\.)?trackrod): (\d+)$/gm, (_m, key: string, k: string) => `${key}: ${Number(k) * scale}`);
    expect(stiffer(10)).not.toBe(text);
    const toe = (scale: number) => {
      const g = parseGeometry(stiffer(scale));
      const run = runKc(new SuspensionModel(suspensionAssembly(g)), 'lateral', { range: [3000, 3000, 1] });
      const m = run.steps[0].metrics as { left: Record<string, number>; right: Record<string, number> };
      return [m.left.toe_angle, m.right.toe_angle, m.left.camber, m.right.camber];
    };
    const rigid = (() => {
      const m = rigidMetrics(example('multi_link_axle.yaml'), 0) as unknown as { left: Record<string, number>; right: Record<string, number> };
      return [m.left.toe_angle, m.right.toe_angle, m.left.camber, m.right.camber];
    })();
    const d1 = toe(1).map((x, i) => x - rigid[i]), d10 = toe(10).map((x, i) => x - rigid[i]), d100 = toe(100).map((x, i) => x - rigid[i]);
    for (let i = 0; i < 4; i++) {
      expect(d1[i] / d10[i]).toBeGreaterThan(9);
      expect(d1[i] / d10[i]).toBeLessThan(11);
      expect(Math.abs(d10[i] / d100[i] - 10)).toBeLessThan(0.2);
    }
  });
});
