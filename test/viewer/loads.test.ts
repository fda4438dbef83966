/**
 * Loads in the viewer's presenter (issue 12 item 7): the link forces and rates a pose
 * result carries equal the library's loads at the same state computed another way (a
 * `kinemate sweep --loads` run through runSweep + SweepLoads on a model of its own); the
 * motion ratio and the wheel rate against central differences of the presenter's own
 * poses; the drawing style of a force (sign, width, label).
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { LiveViewPresenter } from '../../src/live/view/presenter.ts';
import { suspensionDocument } from '../../src/live';
import { parseGeometry, parseText, sweepFromShortcut } from '../../src/suspension/files';
import { suspensionAssembly } from '../../src/suspension/build/template';
import { validateAssembly } from '../../src/assembly/load';
import { SuspensionModel } from '../../src/suspension/build/model';
import { runSweep } from '../../src/suspension/sweep/sweep';
import { SweepLoads, STANDARD_GRAVITY, type StateLoads } from '../../src/suspension/loads/loads';
import { loadCaseOf, DEFAULT_LOADS } from '../../viewer/src/loads-panel';
import { linkForceStyle, formatForce, TENSION_COLOR, COMPRESSION_COLOR, NEUTRAL_COLOR } from '../../viewer/src/force-style';

const text = (name: string) => readFileSync(new URL(`../../examples/suspension/${name}.yaml`, import.meta.url), 'utf8');
const sprung = () => text('double_wishbone_pushrod').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90, preload: 1500 }');

/** The library's loads at a bump state (every wheel `travel` mm from design), by a sweep of a model of its own. */
function sweepLoadsAt(geometryText: string, travel: number, loadCase: Parameters<typeof loadCaseOf>[0]): StateLoads {
  const geometry = parseGeometry(geometryText);
  const sm = new SuspensionModel(validateAssembly(suspensionAssembly(geometry)));
  const loads = new SweepLoads(sm, loadCaseOf(loadCase));
  const seen: StateLoads[] = [];
  runSweep(sm, sweepFromShortcut('bump', `0:${travel}:2`, geometry), { onSolvedState: () => { seen.push(loads.evaluate()); } });
  expect(seen).toHaveLength(2);
  return seen[1];
}

describe('viewer loads', () => {
  it('an axle with a U-bar under 1 g cornering and 0.3 g braking: every link force of the pose equals the library sweep state\'s', () => {
    const yaml = text('double_wishbone_axle_u_bar_rates');
    const inputs = { ...DEFAULT_LOADS, corner_mass: 300, cornering_g: 1, braking_g: 0.3 };
    const r = new LiveViewPresenter().pose(poseAt(1, suspensionDocument(parseText(yaml), { name: 'a.yaml' }), { travel: [25, 25], rack: 0 }, { loads: loadCaseOf(inputs) }));
    expect(r.ok).toBe(true);
    const expected = sweepLoadsAt(yaml, 25, inputs);
    const ids = Object.keys(expected.links);
    expect(ids).toEqual(expect.arrayContaining(['left_trackrod', 'left_pushrod', 'left_droplink', 'right_droplink']));
    expect(Object.keys(r.loads!.links).sort()).toEqual([...ids].sort());
    const scale = Math.max(...Object.values(expected.links).map(Math.abs));
    expect(scale).toBeGreaterThan(100);
    for (const id of ids) expect(Math.abs(r.loads!.links[id] - expected.links[id]), id).toBeLessThan(1e-7 * scale);
    expect(r.loads!.rack_force!).toBeCloseTo(expected.rack_force!, 5);
    expect(r.metrics['loads.roll_stiffness']!).toBeCloseTo(expected.rates!.roll_stiffness!, 3);
    // the contact force: 1 g cornering to the left (+y) and 0.3 g braking (−x) of 300 kg
    const w = 300 * STANDARD_GRAVITY;
    expect(r.loads!.contact.left.force[0]).toBeCloseTo(-0.3 * w, 9);
    expect(r.loads!.contact.left.force[1]).toBeCloseTo(w, 9);
    // the loads are the view's: another case changes them, no case leaves them out
    const none = new LiveViewPresenter().pose(poseAt(1, suspensionDocument(parseText(yaml), { name: 'a.yaml' }), { travel: [25, 25], rack: 0 }));
    expect(none.loads ?? null).toBeNull();
    expect(none.metrics['loads.wheel_rate']).toBeUndefined();
  });

  it('motion ratio and wheel rate of the pose against central differences of the presenter\'s own poses', () => {
    const doc = suspensionDocument(parseText(sprung()), { name: 'p.yaml' });
    const engine = new LiveViewPresenter();
    const at = (t: number) => engine.pose(poseAt(1, doc, { travel: [t], rack: 0 }, { loads: {} }));
    const z = 12, h = 0.05;
    const r = at(z), up = at(z + h), down = at(z - h);
    // motion ratio: the spring (damper) length per wheel travel
    const fdRatio = (up.metrics.damper_length! - down.metrics.damper_length!) / (2 * h);
    expect(r.metrics['loads.motion_ratio']!).toBeCloseTo(fdRatio, 6);
    expect(Math.abs(fdRatio)).toBeGreaterThan(0.01);
    // wheel rate: the pad force's change per wheel travel (no contact load: the pad carries the spring)
    const fdRate = (up.metrics['loads.wheel_load']! - down.metrics['loads.wheel_load']!) / (2 * h);
    expect(r.metrics['loads.wheel_rate']!).toBeCloseTo(fdRate, 3);
    expect(r.metrics['loads.wheel_rate']!).toBeGreaterThan(1);
    // and the pad force is the spring's through the motion ratio (virtual work)
    expect(r.metrics['loads.wheel_load']!).toBeCloseTo(r.metrics['loads.spring_force']! * r.metrics['loads.motion_ratio']!, 6);
  });

  it('the plots\' sweep carries the loads metrics when asked, equal to the poses\' at the same travel', () => {
    const doc = suspensionDocument(parseText(sprung()), { name: 'p.yaml' });
    const engine = new LiveViewPresenter();
    const loads = loadCaseOf({ ...DEFAULT_LOADS, braking_g: 1 });
    const sweep = engine.sweep({ docKey: 1, doc, range: { start: -20, stop: 20, steps: 5 }, loads });
    const plain = engine.sweep({ docKey: 1, doc, range: { start: -20, stop: 20, steps: 5 } });
    expect(plain.series['loads.wheel_rate'].every((x) => x === null)).toBe(true);
    sweep.travel.forEach((t, i) => {
      const r = engine.pose(poseAt(1, doc, { travel: [t], rack: 0 }, { loads }));
      for (const k of ['loads.wheel_rate', 'loads.spring_force', 'loads.rack_force']) expect(sweep.series[k][i]!, `${k} at ${t}`).toBeCloseTo(r.metrics[k]!, 4);
    });
  });

  it('a link force is drawn by sign, width and label', () => {
    const big = linkForceStyle(5000, 5000), small = linkForceStyle(-200, 5000), none = linkForceStyle(0.1, 5000);
    expect(big.sign).toBe('tension');
    expect(big.color).toBe(TENSION_COLOR);
    expect(big.width).toBeCloseTo(2.5, 12);
    expect(small.sign).toBe('compression');
    expect(small.color).not.toBe(COMPRESSION_COLOR); // a small force is shaded toward the neutral grey
    expect(small.width).toBeCloseTo(1 + 1.5 * 200 / 5000, 12);
    expect(none).toEqual({ color: NEUTRAL_COLOR, width: 1, label: '0 N', sign: 'none' });
    expect(formatForce(-850)).toBe('−850 N');
    expect(formatForce(1234)).toBe('+1.23 kN');
    expect(formatForce(-15000)).toBe('−15.0 kN');
  });
});
