/**
 * Every topology and device takes compliance (issue 28 item 2): MacPherson with a strut-top
 * mount and a lower-arm bushing, trailing arm on two bushings, pushrod rocker on a bushing
 * with a compliant pushrod, an axle's anti-roll bar drop links, a beam axle's links. For
 * each, a state with no wheel load is the rigid kinematics, and the zero-load coefficients
 * exist (a regular equilibrium tangent) and are finite on every corner.
 */
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { runSweep } from '../../../src/suspension/sweep/sweep.ts';
import { runKc } from '../../../src/suspension/compliance/kc.ts';
import type { KcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import { example } from './helpers.ts';

const CASES: [string, string][] = [
  ['macpherson.yaml', 'bushings:\n    strut_top: { radial: 3000, axial: 1200 }\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1500 }\n  links:\n    trackrod: 20000'],
  ['trailing_arm.yaml', 'bushings:\n    trailing_arm_pivot_a: { radial: 6000, axial: 1200, conical: 500 }\n    trailing_arm_pivot_b: { radial: 6000, axial: 1200, conical: 500 }'],
  ['double_wishbone_pushrod.yaml', 'bushings:\n    rocker_axis_a: { radial: 10000, axial: 2000 }\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1500 }\n  links:\n    pushrod: 20000'],
  ['double_wishbone_axle_u_bar.yaml', 'links:\n    droplink: 5000\n    right.trackrod: 9000\n  bushings:\n    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }'],
  ['solid_axle_panhard.yaml', 'links:\n    lower_link: 5000\n    panhard: 8000'],
];

type Sided = Record<string, number> | { left: Record<string, number>; right: Record<string, number> };
const sides = (m: Sided): Record<string, number>[] => ('left' in m && typeof m.left === 'object' ? [m.left, (m as { right: Record<string, number> }).right] : [m as Record<string, number>]);

describe('compliance on every topology', () => {
  it.each(CASES)('%s: no load is the rigid kinematics; the coefficients are finite', (file, compliance) => {
    const text = example(file);
    const g = parseGeometry(`${text}compliance:\n  ${compliance}\n`);
    const run = runKc(new SuspensionModel(suspensionAssembly(g)), 'lateral', { range: [0, 0, 1] });
    expect(run.steps[0].status).toBe('solved');
    const rigidG = parseGeometry(text);
    const rigid = runSweep(new SuspensionModel(suspensionAssembly(rigidG)), sweepFromShortcut('bump', '0:0:1', rigidG), { valuesOnly: true }).steps[0].metrics as Sided;
    const got = sides(run.steps[0].metrics as Sided), want = sides(rigid);
    got.forEach((m, i) => { for (const k of ['toe_angle', 'camber']) expect(Math.abs(m[k] - want[i][k]), k).toBeLessThan(1e-8); });
    const summary: (KcCoefficients | null)[] = run.summary !== null && 'left' in run.summary ? Object.values(run.summary as Record<string, KcCoefficients | null>) : [run.summary as KcCoefficients | null];
    for (const s of summary) { expect(s).not.toBeNull(); for (const v of Object.values(s!)) expect(Number.isFinite(v)).toBe(true); }
  });
});
