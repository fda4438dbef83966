import { describe, expect, it } from 'vitest';
import { produce, type Draft } from 'immer';
import { SuspensionFileError } from '../../src/suspension/files/index.ts';
import {
  LiveEditError,
  STEERING_COORDINATE,
  compileDocument,
  documentProblem,
  findHardpoint,
  hardpointPosition,
  liveEdits,
  suspensionDocument,
  type LiveDocument,
  type LiveRecipe,
  type SuspensionLiveDocument,
} from '../../src/live/index.ts';
import type { AssemblyDoc, DimensionMateDoc } from '../../src/assembly/index.ts';
import { fourBar, suspensionExample } from './helpers.ts';

const apply = <D extends LiveDocument>(doc: D, recipe: LiveRecipe): D => produce(doc as LiveDocument, recipe as (d: Draft<LiveDocument>) => void) as D;
const point = (assembly: AssemblyDoc, ref: string) => {
  const [part, name] = ref.split('.');
  return assembly.parts[part].points![name];
};

describe('suspension documents', () => {
  it('keep the geometry as parsed, with default options: the rack held, the layout-default hold', () => {
    const doc = suspensionExample('double_wishbone');
    expect(doc.kind).toBe('suspension');
    expect(doc.options).toEqual({ hold: 'layout_default', state: {}, held: [STEERING_COORDINATE] });
    expect((doc.geometry.hardpoints as Record<string, unknown>).upper_wishbone_inboard_front).toEqual({ x: 225, y: 350, z: 500 });
    const { assembly } = compileDocument(doc);
    expect(assembly.held).toEqual([STEERING_COORDINATE]);
    expect(Object.keys(assembly.parts)).toEqual(['chassis', 'rack', 'upright', 'lower_wishbone', 'upper_wishbone']);
  });

  it('moving a hardpoint moves every copy of it and everything derived from it', () => {
    const doc = suspensionExample('double_wishbone');
    const p: [number, number, number] = [260, 410, 190];
    const moved = apply(doc, liveEdits.moveHardpoint('lower_wishbone_inboard_front', p));
    expect((moved.geometry.hardpoints as Record<string, unknown>).lower_wishbone_inboard_front).toEqual({ x: 260, y: 410, z: 190 });
    const { assembly } = compileDocument(moved);
    expect(point(assembly, 'chassis.lower_wishbone_inboard_front')).toEqual(p);
    expect(point(assembly, 'lower_wishbone.lower_wishbone_inboard_front')).toEqual(p);
    const rear = point(assembly, 'chassis.lower_wishbone_inboard_rear');
    for (const part of ['chassis', 'lower_wishbone']) {
      const axis = assembly.parts[part].axes!.lower_hinge_axis;
      expect(axis.origin).toEqual(p);
      expect(axis.direction).toEqual([rear[0] - p[0], rear[1] - p[1], rear[2] - p[2]]);
    }
    // a link length follows its points
    const tr: [number, number, number] = [60, 190, 240];
    const { assembly: withTrackRod } = compileDocument(apply(doc, liveEdits.moveHardpoint('trackrod_inboard', tr)));
    const outboard = point(withTrackRod, 'upright.trackrod_outboard');
    expect((withTrackRod.mates.trackrod as DimensionMateDoc).value).toBeCloseTo(Math.hypot(outboard[0] - tr[0], outboard[1] - tr[1], outboard[2] - tr[2]), 12);
    expect(point(withTrackRod, 'rack.trackrod_inboard')).toEqual(tr);
  });

  it('writes a point back in the layout the file used', () => {
    const doc = suspensionDocument({ ...suspensionExample('double_wishbone').geometry, hardpoints: { ...(suspensionExample('double_wishbone').geometry.hardpoints as object), axle_inboard: [-20, 800, 308.426] } });
    const moved = apply(doc, liveEdits.moveHardpoint('axle_inboard', [-20, 800, 310]));
    expect((moved.geometry.hardpoints as Record<string, unknown>).axle_inboard).toEqual([-20, 800, 310]);
  });

  it('on a symmetric axle a right point moves the left one mirrored; the axle stays symmetric', () => {
    const doc = suspensionExample('double_wishbone_axle');
    expect(findHardpoint(doc.geometry, 'right_upper_wishbone_inboard_front')).toEqual({ section: ['hardpoints', 'left'], point: 'upper_wishbone_inboard_front', mirrored: true });
    expect(hardpointPosition(doc.geometry, 'right_upper_wishbone_inboard_front')).toEqual([225, -350, 500]);
    const moved = apply(doc, liveEdits.moveHardpoint('right_upper_wishbone_inboard_front', [230, -360, 510]));
    const { assembly } = compileDocument(moved);
    expect(point(assembly, 'chassis.left_upper_wishbone_inboard_front')).toEqual([230, 360, 510]);
    expect(point(assembly, 'chassis.right_upper_wishbone_inboard_front')).toEqual([230, -360, 510]);
    expect(point(assembly, 'right_upper_wishbone.upper_wishbone_inboard_front')).toEqual([230, -360, 510]);
    // a bare name is the left side
    expect(hardpointPosition(doc.geometry, 'upper_wishbone_inboard_front')).toEqual([225, 350, 500]);
  });

  it('an unknown hardpoint is a SuspensionFileError naming where it was looked for', () => {
    const doc = suspensionExample('double_wishbone');
    expect(() => findHardpoint(doc.geometry, 'nowhere')).toThrow(SuspensionFileError);
    expect(() => apply(doc, liveEdits.moveHardpoint('nowhere', [0, 0, 0]))).toThrow('hardpoints.nowhere: no hardpoint "nowhere"');
  });

  it('options are checked against the generated assembly and named as options', () => {
    const doc = suspensionExample('double_wishbone');
    expect(documentProblem(apply(doc, liveEdits.holdCoordinate('lower_hinge.angle', 5)))).toBeNull();
    expect(documentProblem(apply(doc, liveEdits.holdCoordinate('ghost.angle')))).toMatch(/^options\.held\[1\]: /);
    expect(documentProblem(apply(doc, liveEdits.setCoordinate('ghost.angle', 1)))).toMatch(/^options\.state\.ghost\.angle: /);
    expect(documentProblem(apply(doc, liveEdits.setSuspensionHold('upper_wishbone_angle')))).toBeNull();
    expect(documentProblem(apply(doc, liveEdits.setSuspensionHold('strut_length')))).toMatch(
      /^options\.hold: unknown hold "strut_length" for a double_wishbone \(expected layout_default, lower_wishbone_angle, upper_wishbone_angle\b/,
    );
  });

  it('changes the steering and actuation, refusing a layout the hardpoints do not give', () => {
    const doc = suspensionExample('double_wishbone');
    const unsteered = apply(doc, liveEdits.setSteering('none'));
    expect(unsteered.options.held).toEqual([]);
    expect((unsteered.geometry.config as { steering: unknown }).steering).toEqual({ type: 'none' });
    expect(Object.keys(compileDocument(unsteered).assembly.parts)).not.toContain('rack');
    expect(apply(unsteered, liveEdits.setSteering('rack')).options.held).toEqual([STEERING_COORDINATE]);

    const problem = documentProblem(apply(doc, liveEdits.setActuation('pushrod_rocker', 'lower_wishbone')));
    expect(problem).toContain('hardpoints.pushrod_outboard: missing hardpoint');
    const rocker = apply(
      doc,
      liveEdits.setActuation('pushrod_rocker', 'lower_wishbone', {
        pushrod_outboard: [0, 850, 220],
        pushrod_inboard: [0, 380, 560],
        rocker_axis_a: [40, 330, 560],
        rocker_axis_b: [-40, 330, 560],
        strut_bottom: [0, 330, 620],
        strut_top: [0, 100, 600],
      }),
    );
    expect(documentProblem(rocker)).toBeNull();
    expect(Object.keys(compileDocument(rocker).assembly.parts)).toContain('rocker');
  });

  it('refuses an assembly edit on a suspension and a suspension edit on an assembly', () => {
    const doc: SuspensionLiveDocument = suspensionExample('double_wishbone');
    expect(() => apply(doc, liveEdits.assembly(() => undefined))).toThrow(LiveEditError);
    expect(() => apply(fourBar(), liveEdits.setSteering('none'))).toThrow('kind: a suspension edit needs a suspension document');
  });

  it('coordinate edits work on both kinds', () => {
    const bar = apply(fourBar(), liveEdits.setCoordinate('jA.angle', 45));
    expect(bar.kind === 'assembly' && bar.doc.state['jA.angle']).toBe(45);
    const released = apply(bar, liveEdits.releaseCoordinate('jA.angle'));
    expect(released.kind === 'assembly' && released.doc.held).toEqual([]);
    const dw = apply(suspensionExample('double_wishbone'), liveEdits.combine(liveEdits.releaseCoordinate(STEERING_COORDINATE), liveEdits.setCoordinate(STEERING_COORDINATE, 3)));
    expect(dw.options).toEqual({ hold: 'layout_default', state: { [STEERING_COORDINATE]: 3 }, held: [] });
  });

  it('edits the geometry anywhere (what-if), validated as a whole', () => {
    const doc = suspensionExample('double_wishbone');
    expect(documentProblem(apply(doc, liveEdits.setGeometryValue(['config', 'wheel', 'offset'], 20)))).toBeNull();
    expect(documentProblem(apply(doc, liveEdits.setGeometryValue(['config', 'wheel', 'tire', 'aspect_ratio'], 55)))).toMatch(/^config\.wheel\.tire\.aspect_ratio: must be a fraction/);
    expect(documentProblem(apply(doc, liveEdits.setGeometryValue(['units'], 'inches')))).toMatch(/^units: unsupported units/);
  });
});
