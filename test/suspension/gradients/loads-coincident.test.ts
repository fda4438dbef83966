import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetKept } from '../moves';
import { parseGeometry } from '../../../src/suspension/files';
import { parseLoadCase } from '../../../src/suspension/loads/loads';
import { SensitivityModel } from '../../../src/suspension/gradients/model';
import { LoadSensitivity } from '../../../src/suspension/gradients/loads';
import { AxleLoadGradients } from '../../../src/suspension/gradients/axle-loads';
import { checkLoadGradients } from './load-differences';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const corner = parseLoadCase(readFileSync('examples/suspension/loads/corner_cornering_1g.yaml', 'utf8'), ['left']);
const axle = parseLoadCase(readFileSync('examples/suspension/loads/cornering_1g.yaml', 'utf8'), ['left', 'right']);

describe('load gradients with a spring end at a place another hardpoint shares (told apart by identity)', () => {
  it('pushrod corner, the rated coilover\'s rocker end on the pushrod\'s rocker pin (free length regenerated): every entry of every link force, the rack force and every joint', () => {
    const g = load('double_wishbone_pushrod');
    const hp = g.corners[0].hardpoints;
    hp.strut_bottom = [...hp.pushrod_inboard];
    g.spring = { ...g.spring, rate: 60 };
    const model = new SensitivityModel(g), ls = new LoadSensitivity(model, corner);
    // central differences at ±1e-2 alone: worst 1.3e-7 (extrapolated with ±5e-3: 3.6e-7)
    const { worst, compared, entries, failures } = checkLoadGradients(g, 'bump', 20, corner, [...ls.names, ...ls.requestable.filter((m) => m.startsWith('joint_'))], 1e-2, { extrapolate: false });
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
    expect(worst).toBeLessThan(1e-6);
    // each of the two has its own entry: moving the spring end is not moving the pushrod's pin
    const pushrod = entries.find((e) => e.m === 'link_force.pushrod')!.v.gradient;
    expect(Math.abs(pushrod['strut_bottom.y'] - pushrod['pushrod_inboard.y'])).toBeGreaterThan(1);
  });
  it('heave-link axle, the rated heave spring\'s ends on the rockers\' pushrod pins: the coincident points\' entries of every link force and the rack force', () => {
    const g = load('double_wishbone_axle_heave_link');
    g.spring = { ...g.spring, rate: 4e5 };
    g.devices = { ...g.devices!, heave_spring: { rate: 300 } };
    for (const c of g.corners) c.hardpoints.heave_link_rocker = [...c.hardpoints.pushrod_inboard];
    const model = new SensitivityModel(g), extra = new AxleLoadGradients(new LoadSensitivity(model, axle));
    const keys = model.keys.filter((k) => /\.(heave_link_rocker|pushrod_inboard)\./.test(k));
    // central differences at ±1e-2 alone: worst 8.3e-8 (extrapolated with ±5e-3: 1.1e-7)
    const { worst, compared, entries, failures } = checkLoadGradients(g, 'bump', 15, axle, extra.names, 1e-2, { keys, extrapolate: false });
    expect(failures).toEqual([]);
    expect(compared).toBe(keys.length * entries.length);
    expect(worst).toBeLessThan(1e-6);
    const pushrod = entries.find((e) => e.group === 'left' && e.m === 'link_force.pushrod')!.v.gradient;
    expect(Math.abs(pushrod['left.heave_link_rocker.z'] - pushrod['left.pushrod_inboard.z'])).toBeGreaterThan(1);
  });
});
