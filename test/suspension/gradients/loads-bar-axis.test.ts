import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files';
import { parseLoadCase } from '../../../src/suspension/loads/loads';
import { SensitivityModel } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';
import { frameAxesRate } from '../../../src/suspension/gradients/device-loads';
import { builderAxes } from '../../../src/suspension/gradients/bar-axis';
import { Builder } from '../../../src/suspension/build/template';
import { toMatrix } from '../../../kernel/quat';
import { normalizeRate } from '../../../kernel/vec3';
import { checkLoadGradients, loadGradients, loadValue } from './load-differences';
import { loadsOf, movedHardpoint, forgetKept } from '../moves';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const cornering = parseLoadCase(readFileSync('examples/suspension/loads/cornering_1g.yaml', 'utf8'), ['left', 'right']);

/** The rated T-bar axle with its T mirrored front to back: the stem, pivot → crossbar midpoint, points along −x (exactly, or `dy` off it). */
function mirroredTBar(dy = 0) {
  const g = parseGeometry(readFileSync('examples/suspension/double_wishbone_axle_t_bar.yaml', 'utf8'));
  const [x, y, z] = g.center!.arb_t_bar_pivot;
  g.center!.arb_t_bar_pivot = [-x, y + dy, z];
  g.devices = { ...g.devices!, anti_roll_rate: 3e5 };
  return g;
}

/** Builder.frame's axes (columns) for an x axis along x. */
function frameOf(x: number[]): number[][] {
  const b = new Builder();
  b.part('p');
  const ref = b.frame('p', 'f', [0, 0, 0], x as [number, number, number]);
  const R = toMatrix(new Float64Array(9), b.parts.p.frames![ref.split('.')[1]].rotation);
  return [0, 1, 2].map((c) => [R[c], R[3 + c], R[6 + c]]);
}

describe('load gradients with an anti-roll bar\'s axis along −x (the builder\'s half-turn branch)', () => {
  it('the mirrored T\'s stem is exactly −x, where the builder turns half a turn about z; off it towards ±z, half a turn about y: the spin jumps', () => {
    const g = mirroredTBar();
    const p = g.center!.arb_t_bar_pivot, l = g.corners[0].hardpoints.droplink_t_bar, r = g.corners[1].hardpoints.droplink_t_bar;
    const stem = [0, 1, 2].map((c) => (l[c] + r[c]) / 2 - p[c]);
    expect(stem[1]).toBe(0); expect(stem[2]).toBe(0); expect(stem[0]).toBeLessThan(0);
    const near = (a: number[][], b: number[][]) => a.every((v, i) => v.every((x, c) => Math.abs(x - b[i][c]) < 1e-4));
    expect(near(frameOf(stem), [[-1, 0, 0], [0, -1, 0], [0, 0, 1]])).toBe(true);
    expect(near(builderAxes(stem.map((c) => c / Math.abs(stem[0]))), frameOf(stem))).toBe(true);
    expect(near(frameOf([stem[0], 0, 1e-3]), [[-1, 0, 0], [0, 1, 0], [0, 0, -1]])).toBe(true);
    expect(near(frameOf([stem[0], 1e-3, 0]), [[-1, 0, 0], [0, -1, 0], [0, 0, 1]])).toBe(true);
    // the x axis's rate is the unit vector's (the spin is the least turn's: none about x)
    const x = stem, xd = [0.3, -0.7, 1.1];
    const rates = frameAxesRate(x, xd);
    const ud = normalizeRate(new Float64Array(3), x, xd);
    for (let c = 0; c < 3; c++) expect(Math.abs(rates[0][c] - ud[c])).toBeLessThan(1e-15);
    const axes = builderAxes([-1, 0, 0]);
    for (let i = 0; i < 3; i++) expect(Math.abs(axes[i][0] * rates[i][0] + axes[i][1] * rates[i][1] + axes[i][2] * rates[i][2])).toBeLessThan(1e-15);
    const spin = axes[1][0] * rates[2][0] + axes[1][1] * rates[2][1] + axes[1][2] * rates[2][2];
    expect(Math.abs(spin)).toBeLessThan(1e-15);
  });

  it('rolled 2° under 1 g of cornering: every entry of every link force, the rack force and every joint against central differences of the re-solved sweep --loads', () => {
    const g = mirroredTBar();
    const model = new SensitivityModel(g);
    const axle = new AxleLoadGradients(new LoadSensitivity(model, cornering));
    // ±2e-2 and ±1e-2 mm, extrapolated (the T's gradients are small: a longer step keeps the re-solve's noise out)
    const { worst, compared, entries, failures } = checkLoadGradients(g, 'roll', 2, cornering, [...axle.names, ...axle.requestable.filter((m) => m.startsWith('joint_'))], 2e-2);
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThan(7000);
    expect(worst).toBeLessThan(1e-6);
    // the bar carries load and its stem's points move it
    const droplink = entries.find((e) => e.group === 'left' && e.m === 'link_force.droplink')!.v;
    expect(Math.abs(droplink.value)).toBeGreaterThan(100);
    expect(Math.abs(droplink.gradient['center.arb_t_bar_pivot.y'])).toBeGreaterThan(1);
    expect(Math.abs(droplink.gradient['left.droplink_t_bar.y'])).toBeGreaterThan(1);
  });

  it('both sides of the branch: one-sided differences from the exact −x state (towards ±y, ±z: other builder branches) agree with the gradient', () => {
    const g = mirroredTBar();
    const metrics = ['link_force.droplink', 'joint_force.t_bar_pivot.y', 'joint_force.t_bar_pivot.z', 'joint_force.lower_hinge.z'];
    const { entries } = loadGradients(g, 'roll', 2, cornering, metrics);
    const base = loadsOf(g, 'roll', 2, cornering);
    let checked = 0;
    for (const key of ['center.arb_t_bar_pivot.y', 'center.arb_t_bar_pivot.z', 'left.droplink_t_bar.y', 'right.droplink_t_bar.z']) {
      for (const side of [1, -1]) {
        // one-sided differences at h and h/2, extrapolated (the h term out)
        const h = 2e-2;
        const at = (d: number) => loadsOf(movedHardpoint(g, key, side * d), 'roll', 2, cornering);
        const [lh, lh2] = [at(h), at(h / 2)];
        for (const { group, m, v } of entries) {
          const d1 = (loadValue(lh, group, m) - loadValue(base, group, m)) / (side * h);
          const d2 = (loadValue(lh2, group, m) - loadValue(base, group, m)) / ((side * h) / 2);
          const fd = 2 * d2 - d1;
          const scale = Math.max(Math.abs(fd), 1e-3 * Math.max(...Object.values(v.gradient).map(Math.abs)));
          expect(Math.abs(v.gradient[key] - fd) / scale, `${group} ${m} ${key} ${side}`).toBeLessThan(1e-4);
          checked++;
        }
      }
    }
    expect(checked).toBe(4 * 2 * entries.length);
  });

  it('next to −x (1e-4 mm off: the builder\'s smooth branch, its spin turning fast): every entry of the bar points\' y and z moves against central differences', () => {
    const g = mirroredTBar(1e-4);
    const model = new SensitivityModel(g);
    const axle = new AxleLoadGradients(new LoadSensitivity(model, cornering));
    // y and z moves: along x the differences carry the builder's own rounding there (1 + u_x ≈ 2e-13 cancels to ~5e-4
    // relative, tilting its frame ~3e-10 rad at random: ~1e-4 N/mm over ±2e-2 mm), which exactly at −x (1 + u_x = 0) is none
    const keys = model.keys.filter((k) => k.includes('t_bar') && !k.endsWith('.x'));
    const { worst, failures } = checkLoadGradients(g, 'roll', 2, cornering, axle.names, 2e-2, { keys });
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
});
