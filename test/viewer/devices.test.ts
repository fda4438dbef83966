/**
 * The suspension devices in the viewer's presenter (issue 15 item 6), each drawn shape
 * checked against what it must be by another route: the U-bar's arm turns about its axis
 * by the library's `arb_arm_angle` (an angle measured here from the drawn arm), the heave
 * link is as long as `heave_link_length`, the T-bar's crossbar midpoint stays on y = 0,
 * a shim block rides rigidly on its upright and is as thick as the setup; the shim edit
 * is one undo entry and a thicker shim makes camber more negative; an axle-level
 * (`hardpoints.center`) point is a draggable hardpoint; device metrics are in the plots.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { LiveViewPresenter, PLOTTABLE, type PoseResult } from '../../src/live/view/presenter.ts';
import { liveEdits, suspensionDocument, type LiveDocument } from '../../src/live';
import { parseText } from '../../src/suspension/files';
import { History } from '../../src/reactive';
import { setShimThickness, shimSections, type DeviceShape } from '../../src/live/view/devices.ts';

const doc = (name: string) => suspensionDocument(parseText(readFileSync(new URL(`../../examples/suspension/${name}.yaml`, import.meta.url), 'utf8')), { name: `${name}.yaml` });
type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: V) => Math.hypot(...a);
const shape = (r: PoseResult, id: string) => {
  const s = r.devices.find((d) => d.id === id);
  expect(s, `${id} in ${r.devices.map((d) => d.id).join(', ')}`).toBeDefined();
  return s as DeviceShape;
};
const seg = (r: PoseResult, id: string) => shape(r, id) as Extract<DeviceShape, { a: V }>;

describe('viewer devices', () => {
  it('a U-bar: the bar on its chassis axis, each arm from the axis to its drop link, turning by the library\'s arb_arm_angle', () => {
    const engine = new LiveViewPresenter();
    const d = doc('double_wishbone_axle_u_bar');
    const design = engine.pose(poseAt(1, d, { travel: [0, 0], rack: 0 }));
    const rolled = engine.pose(poseAt(1, d, { travel: [30, -20], rack: 0 }));
    expect(rolled.ok).toBe(true);
    const bar = seg(rolled, 'u_bar');
    expect(bar.a).toEqual(rolled.points['chassis.center_arb_u_bar_axis_a']);
    expect(bar.b).toEqual(rolled.points['chassis.center_arb_u_bar_axis_b']);
    const u = ((x: V) => x.map((c) => c / len(x)) as V)(sub(bar.b, bar.a));
    for (const side of ['left', 'right'] as const) {
      const arm0 = seg(design, `${side}_u_bar_arm`), arm = seg(rolled, `${side}_u_bar_arm`);
      expect(len(sub(arm.b, rolled.points[`${side}_arb_arm.droplink_u_bar`]))).toBeLessThan(1e-9);
      // the foot is on the axis and the arm is normal to it
      expect(len(cross(sub(arm.a, bar.a), u))).toBeLessThan(1e-9);
      expect(Math.abs(dot(sub(arm.b, arm.a), u))).toBeLessThan(1e-9);
      // the drawn arm's turn about the axis (right hand about a→b) is the library's metric
      const r0 = sub(arm0.b, arm0.a), r1 = sub(arm.b, arm.a);
      const angle = Math.atan2(dot(u, cross(r0, r1)), dot(r0, r1)) * 180 / Math.PI;
      const metric = side === 'left' ? rolled.metrics.arb_arm_angle : rolled.metrics['right.arb_arm_angle'];
      expect(angle).toBeCloseTo(metric!, 9);
      expect(Math.abs(angle)).toBeGreaterThan(0.5);
    }
    // drop links are the scene's rods, and the bar's axis points are draggable hardpoints
    expect(rolled.structure.rods.map((r) => r.id)).toEqual(expect.arrayContaining(['left_droplink', 'right_droplink']));
    const handle = rolled.structure.handles.find((h) => h.hardpoint === 'center_arb_u_bar_axis_a');
    expect(handle?.kind).toBe('hardpoint');
    const history = new History<LiveDocument>(d);
    history.apply(liveEdits.moveHardpoint('center_arb_u_bar_axis_a', [110, 250, 310]), 'move');
    const moved = engine.pose(poseAt(2, history.current, { travel: [30, -20], rack: 0 }));
    expect(moved.ok).toBe(true);
    expect(seg(moved, 'u_bar').a).toEqual([110, 250, 310]);
    expect(moved.metrics.arb_arm_angle).not.toBe(rolled.metrics.arb_arm_angle);
  });

  it('a heave link is drawn rocker to rocker, as long as heave_link_length; a T-bar\'s crossbar midpoint stays on y = 0; dampers and torsion bars are drawn', () => {
    const engine = new LiveViewPresenter();
    const heave = engine.pose(poseAt(1, doc('double_wishbone_axle_heave_link'), { travel: [25, -10], rack: 0 }));
    const link = seg(heave, 'heave_link');
    expect(len(sub(link.b, link.a))).toBeCloseTo(heave.metrics['axle.heave_link_length']!, 9);
    expect(len(sub(link.a, heave.points['left_rocker.heave_link_rocker']))).toBeLessThan(1e-9);
    // the separate damper: damper_chassis → damper_rocker
    const ends = heave.corners[0].damper!;
    for (const ref of ['chassis.left_damper_chassis', 'left_rocker.damper_rocker']) expect(Math.min(...ends.map((e) => len(sub(e, heave.points[ref]))))).toBeLessThan(1e-9);
    expect(seg(heave, 'left_torsion_bar').a).toEqual(heave.points['chassis.left_rocker_axis_a']);

    const tbar = engine.pose(poseAt(2, doc('double_wishbone_axle_t_bar'), { travel: [30, -15], rack: 0 }));
    const cross_ = seg(tbar, 't_bar_crossbar'), stem = seg(tbar, 't_bar_stem');
    expect(Math.abs((cross_.a[1] + cross_.b[1]) / 2)).toBeLessThan(1e-9);
    expect(stem.a).toEqual(tbar.points['chassis.center_arb_t_bar_pivot']);
    expect(tbar.structure.handles.find((h) => h.label === 'center_arb_t_bar_pivot')?.kind).toBe('hardpoint');

    const ta = engine.pose(poseAt(3, doc('trailing_arm_torsion_bar'), { travel: [20], rack: 0 }));
    const bar = seg(ta, 'torsion_bar');
    expect(bar.a).toEqual(ta.points['chassis.torsion_bar_axis_a']);
    expect(bar.b).toEqual(ta.points['chassis.torsion_bar_axis_b']);
  });

  it('the camber shim block rides on its upright, as thick as the setup; its thickness is one undo entry and a thicker shim makes camber more negative', () => {
    const engine = new LiveViewPresenter();
    const history = new History<LiveDocument>(doc('double_wishbone_camber_shim'));
    const sections = shimSections((history.current as Extract<LiveDocument, { kind: 'suspension' }>).geometry);
    expect(sections).toEqual([{ path: ['config'], label: 'camber shim', design: 3, setup: 5 }]);
    const design = engine.pose(poseAt(1, history.current, { travel: [0], rack: 0 }));
    const bumped = engine.pose(poseAt(1, history.current, { travel: [40], rack: 0 }));
    const block = (r: PoseResult) => shape(r, 'camber_shim') as Extract<DeviceShape, { kind: 'block' }>;
    expect(block(design).size[2]).toBeCloseTo(5, 9);
    // rigid on the upright: its distances to two upright points do not change in bump
    for (const ref of ['upright.upper_wishbone_outboard', 'upright.lower_wishbone_outboard']) {
      expect(len(sub(block(bumped).center, bumped.points[ref]))).toBeCloseTo(len(sub(block(design).center, design.points[ref])), 9);
    }
    // the block sits between the upper ball joint and the upright: within a shim's reach of the joint
    expect(len(sub(block(design).center, design.points['upright.upper_wishbone_outboard']))).toBeLessThan(60);

    history.apply(setShimThickness(['config'], 8), 'camber shim 8 mm');
    expect(history.canUndo).toBe(true);
    const thicker = engine.pose(poseAt(2, history.current, { travel: [0], rack: 0 }));
    expect(thicker.ok).toBe(true);
    expect(block(thicker).size[2]).toBeCloseTo(8, 9);
    expect(thicker.metrics.camber!).toBeLessThan(design.metrics.camber! - 0.05);
    history.undo();
    expect(history.canUndo).toBe(false); // one entry: the template was the start
    const undone = engine.pose(poseAt(3, history.current, { travel: [0], rack: 0 }));
    expect(undone.metrics.camber).toBe(design.metrics.camber);
    // at design thickness the shim changes nothing: the camber of the authored geometry
    history.apply(setShimThickness(['config'], 3), 'camber shim 3 mm');
    const neutral = engine.pose(poseAt(4, history.current, { travel: [0], rack: 0 }));
    expect(neutral.metrics.camber!).toBeGreaterThan(design.metrics.camber!);
    expect(block(neutral).size[2]).toBeCloseTo(3, 9);
  });

  it('device metrics are in the plot menus and in the plots\' sweep, equal to the poses at its travels', () => {
    const menu = PLOTTABLE.map((p) => p.metric);
    expect(menu).toEqual(expect.arrayContaining(['torsion_bar_twist', 'arb_arm_angle', 'axle.arb_twist', 'axle.t_bar_heave_angle', 'axle.heave_link_length']));
    const engine = new LiveViewPresenter();
    const d = doc('double_wishbone_axle_heave_link');
    const sweep = engine.sweep({ docKey: 1, doc: d, range: { start: -30, stop: 30, steps: 4 }, derivatives: true });
    sweep.travel.forEach((t, i) => {
      const r = engine.pose(poseAt(1, d, { travel: [t, t], rack: 0 }));
      expect(sweep.series['axle.heave_link_length'][i]!).toBeCloseTo(r.metrics['axle.heave_link_length']!, 7);
      expect(sweep.series.torsion_bar_twist[i]!).toBeCloseTo(r.metrics.torsion_bar_twist!, 7);
    });
    expect(new Set(sweep.series['axle.heave_link_length']).size).toBe(4);
    // a linkage without the device has none of them
    const plain = engine.sweep({ docKey: 2, doc: doc('double_wishbone'), range: { start: -30, stop: 30, steps: 4 } });
    expect(plain.series['axle.arb_twist'].every((x) => x === null)).toBe(true);
  });
});
