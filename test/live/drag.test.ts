/**
 * Dragging through the live model: pulls (the linkage follows the pointer) and hardpoint
 * drags (geometry edits), branch keeping, the reach of a pull, cancel, and that a refused
 * edit or a failed solve never replaces the last good state.
 */
import { describe, expect, it } from 'vitest';
import { queueScheduler } from 'rxjs';
import * as P from '../../kernel/pose';
import { rockerAngle } from '../../examples/fourbar.ts';
import {
  LiveModel,
  assemblyDocument,
  hardpointPosition,
  liveEdits,
  simpleSuspensionAnalysis,
  type LiveAnalysis,
  type LiveError,
  type LiveFrame,
  type SimpleAnalysis,
} from '../../src/live/index.ts';
import { holdCoordinate, releaseCoordinate } from '../../src/assembly/edits.ts';
import { WHEEL_CENTER, angleDifference, fourBar, suspensionExample } from './helpers.ts';

const DEG = Math.PI / 180;
const CRANK = 0.8;

function collect<T>(live: LiveModel<T>) {
  const frames: LiveFrame<T>[] = [];
  const analyses: LiveAnalysis<T>[] = [];
  const errors: LiveError<T>[] = [];
  live.state$.subscribe((f) => frames.push(f));
  live.analysis$.subscribe((a) => analyses.push(a));
  live.errors$.subscribe((e) => errors.push(e));
  return { frames, analyses, errors };
}

describe('dragging the four-bar', () => {
  it('pulling the crank tip round a full circle (360 frames) keeps the branch', () => {
    const live = new LiveModel(fourBar(30, false), { frameScheduler: queueScheduler });
    const { frames, errors } = collect(live);
    expect(live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] })).toBe(true);
    let worst = 0;
    for (let k = 1; k <= 360; k++) {
      const t = (30 + k) * DEG;
      live.dragTo([CRANK * Math.cos(t), CRANK * Math.sin(t), 0]);
      const frame = live.lastGood!;
      expect(frame.seq).toBe(frames[frames.length - 1].seq);
      expect(frame.reach!.status).toBe('full');
      expect(frame.result.maxResidual).toBeLessThanOrEqual(1e-9);
      // the crank's coordinate turns on continuously (no wrap), the rocker stays on the open branch
      expect(frame.coordinates['jA.angle']).toBeCloseTo(30 + k, 6);
      worst = Math.max(worst, Math.abs(angleDifference(frame.coordinates['jD.angle'], rockerAngle(t) / DEG)));
    }
    expect(worst).toBeLessThan(1e-6);
    expect(frames).toHaveLength(361); // the loaded pose, then one per frame
    expect(live.endDrag()).toBeNull();
    expect(live.history.canUndo).toBe(false); // a pull changes no document
    expect(errors).toEqual([]);
  });

  it('a pull past the reach stops at the boundary and says how far it is from its target', () => {
    const live = new LiveModel(fourBar(30, false), { frameScheduler: queueScheduler });
    live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] });
    live.dragTo([1.2, 0.5, 0]);
    const frame = live.lastGood!;
    expect(frame.good).toBe(true);
    expect(frame.reach!.status).toBe('limited');
    const [x, y] = frame.reach!.reached;
    expect(Math.hypot(x, y)).toBeCloseTo(CRANK, 9); // on the crank's circle
    expect(Math.atan2(y, x)).toBeCloseTo(Math.atan2(0.5, 1.2), 6); // the nearest point of it
    expect(frame.reach!.remaining).toBeCloseTo(Math.hypot(1.2, 0.5) - CRANK, 6);
    live.dragTo([0.8 * Math.cos(50 * DEG), 0.8 * Math.sin(50 * DEG), 0]);
    expect(live.lastGood!.reach!.status).toBe('full');
  });

  it('cancelling a pull returns to the state at its start', () => {
    const live = new LiveModel(fourBar(30, false), { frameScheduler: queueScheduler });
    const start = live.lastGood!;
    live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] });
    for (let k = 1; k <= 20; k++) live.dragTo([CRANK * Math.cos((30 + 3 * k) * DEG), CRANK * Math.sin((30 + 3 * k) * DEG), 0]);
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(90, 6);
    live.cancelDrag();
    for (const [name, value] of Object.entries(start.coordinates)) expect(live.lastGood!.coordinates[name]).toBeCloseTo(value, 9);
    expect(live.dragging).toBeNull();
  });

  it('refuses to pull a fixed part or a part that does not exist', () => {
    const live = new LiveModel(fourBar(30, false), { frameScheduler: queueScheduler });
    const { errors } = collect(live);
    expect(live.beginDrag({ kind: 'pull', part: 'ground', point: [0, 0, 0] })).toBe(false);
    expect(live.beginDrag({ kind: 'pull', part: 'ghost', point: [0, 0, 0] })).toBe(false);
    expect(errors.map((e) => e.kind === 'refused' && e.reason)).toEqual(['part "ground" is fixed: it cannot be pulled', 'no part "ghost"']);
    expect(live.dragging).toBeNull();
    expect(() => live.dragTo([0, 0, 0])).toThrow('dragTo without a drag');
  });

  it('drags a point of an assembly part as a geometry edit (one undo entry), in the part\'s frame', () => {
    const live = new LiveModel(fourBar(30), { frameScheduler: queueScheduler });
    const coupler = live.lastGood!.poses.coupler;
    const pose = P.pose(coupler.position, coupler.rotation);
    const mid = P.applyPoint(new Float64Array(3), pose, [0.9, 0.3, 0]);
    expect(live.beginDrag({ kind: 'hardpoint', name: 'coupler.mid' })).toBe(true);
    for (let k = 1; k <= 10; k++) live.dragTo([mid[0], mid[1] + 0.02 * k, 0]);
    const entry = live.endDrag();
    expect(entry?.label).toBe('move coupler.mid');
    expect(live.history.undoEntries).toHaveLength(1);
    const doc = live.document;
    const local = doc.kind === 'assembly' ? doc.doc.parts.coupler.points!.mid : null;
    const world = P.applyPoint(new Float64Array(3), pose, local!);
    expect(world[0]).toBeCloseTo(mid[0], 12);
    expect(world[1]).toBeCloseTo(mid[1] + 0.2, 12);
    live.undo();
    expect(live.document.kind === 'assembly' && live.document.doc.parts.coupler.points!.mid).toEqual([0.9, 0.3, 0]);
  });
});

describe('a refused edit or a failed solve leaves the last good state in place', () => {
  it('a refused edit: the document and the solved state stay, the reason is a value', () => {
    const live = new LiveModel(fourBar(30), { frameScheduler: queueScheduler });
    const { frames, errors } = collect(live);
    const good = live.lastGood!;
    const result = live.edit(liveEdits.setCoordinate('jZ.angle', 3), 'set jZ');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/^state\.jZ\.angle: /);
    expect(errors).toEqual([{ kind: 'refused', label: 'set jZ', reason: !result.ok ? result.reason : '' }]);
    expect(live.lastGood).toBe(good);
    expect(live.document).toBe(good.document);
    expect(frames).toHaveLength(1);
  });

  it('a failed solve: reported with the failing mates, never shown, and the next solve starts from the last good state', () => {
    const live = new LiveModel(fourBar(30), { frameScheduler: queueScheduler });
    const { frames, errors } = collect(live);
    const good = live.lastGood!;
    // hold the rocker somewhere the crank (held at 30°) cannot put it: a valid document that cannot be solved
    const result = live.editAssembly(holdCoordinate('jD.angle', 0), 'hold rocker at 0');
    expect(result.ok).toBe(true);
    expect(live.lastGood).toBe(good);
    expect(frames).toHaveLength(1);
    expect(errors).toHaveLength(1);
    const failure = errors[0];
    expect(failure.kind).toBe('solve-failed');
    if (failure.kind !== 'solve-failed') return;
    expect(failure.failed.length).toBeGreaterThan(0);
    expect(failure.frame.good).toBe(false);
    expect(failure.frame.result.conflicting.length).toBeGreaterThan(0); // diagnosed: not during a drag
    // the engine went back to the last good state: releasing the rocker solves from there
    live.editAssembly(releaseCoordinate('jD.angle'), 'release rocker');
    const after = live.lastGood!;
    expect(after).not.toBe(good);
    for (const [name, value] of Object.entries(good.coordinates)) expect(after.coordinates[name]).toBeCloseTo(value, 9);
  });

  it('a failed solve during a drag keeps the last good state; the drag goes on and recovers', () => {
    // a link on a ball joint at A, its end B kept 1 from the ground point C: drag C out of reach
    const live = new LiveModel(
      assemblyDocument({
        format: 'kinemate.assembly/1',
        units: { length: 'mm', angle: 'deg' },
        parts: {
          ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: { A: [0, 0, 0], C: [2, 0, 0] } },
          link: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: { A: [0, 0, 0], B: [1, 0, 0] } },
        },
        mates: { ball: { type: 'ball', a: 'ground.A', b: 'link.A' }, rod: { type: 'distance', a: 'link.B', b: 'ground.C', value: 1 } },
        state: {},
        held: [],
      }),
      { frameScheduler: queueScheduler },
    );
    const { frames, errors } = collect(live);
    live.beginDrag({ kind: 'hardpoint', name: 'ground.C' });
    live.dragTo([1.9, 0.2, 0]);
    const good = live.lastGood!;
    expect(good.document).toBe(live.document);
    live.dragTo([3.5, 0, 0]); // the rod cannot reach
    expect(errors).toHaveLength(1);
    const failure = errors[0];
    expect(failure).toMatchObject({ kind: 'solve-failed', failed: ['rod'] });
    expect(failure.kind === 'solve-failed' && failure.frame.result.conflicting).toEqual([]); // not diagnosed during a drag
    expect(live.lastGood).toBe(good);
    expect(frames.at(-1)).toBe(good);
    live.dragTo([1.8, 0.3, 0]); // back within reach: solved again, from the last good state
    expect(live.lastGood!.good).toBe(true);
    expect(live.lastGood!.document).toBe(live.document);
    expect(live.endDrag()?.label).toBe('move ground.C');
  });

  it('pulling a linkage that is held in place moves nothing: the pull is limited', () => {
    const live = new LiveModel(fourBar(30), { frameScheduler: queueScheduler });
    const good = live.lastGood!;
    live.beginDrag({ kind: 'pull', part: 'coupler', point: [0.9, 0, 0] });
    live.dragTo([5, 5, 0]);
    const frame = live.lastGood!;
    expect(frame.good).toBe(true);
    expect(frame.reach!.status).toBe('limited');
    for (const [name, value] of Object.entries(good.coordinates)) expect(frame.coordinates[name]).toBeCloseTo(value, 9);
    live.endDrag();
  });
});

describe('dragging a double-wishbone corner', () => {
  it('a wheel pulled through ±60 mm of bump and a chassis hardpoint moved 20 mm update the analysis every frame', () => {
    const live = new LiveModel<SimpleAnalysis>(suspensionExample('double_wishbone'), { frameScheduler: queueScheduler, analyze: simpleSuspensionAnalysis });
    const { analyses, errors } = collect(live);
    expect(analyses).toHaveLength(1);
    expect(analyses[0].value.dof).toBe(2);
    expect(analyses[0].value.corners[0].camber).toBeCloseTo(-1.909, 3);

    // the wheel: 0 → +60 → −60 → +40 mm, 2 mm per frame
    const path: number[] = [];
    for (let z = 2; z <= 60; z += 2) path.push(z);
    for (let z = 58; z >= -60; z -= 2) path.push(z);
    for (let z = -58; z <= 40; z += 2) path.push(z);
    expect(live.beginDrag({ kind: 'pull', part: 'upright', point: WHEEL_CENTER })).toBe(true);
    const cambers: number[] = [];
    for (const dz of path) {
      const count = analyses.length;
      live.dragTo([WHEEL_CENTER[0], WHEEL_CENTER[1], WHEEL_CENTER[2] + dz]);
      expect(analyses).toHaveLength(count + 1);
      const { value, frame } = analyses[analyses.length - 1];
      expect(frame.result.maxResidual).toBeLessThanOrEqual(1e-9);
      // the wheel centre follows the pointer up and down; it moves on its path, so a
      // straight-up target is slightly off to the side (the reach says by how much)
      expect(value.corners[0].wheelCenter[2]).toBeGreaterThan(WHEEL_CENTER[2] + dz - 1);
      expect(value.corners[0].wheelCenter[2]).toBeLessThan(WHEEL_CENTER[2] + dz + 1);
      expect(frame.reach!.remaining).toBeLessThan(6);
      cambers.push(value.corners[0].camber);
    }
    expect(live.endDrag()).toBeNull();
    // camber is a function of the wheel's height: the same at the same height on the way up and down
    expect(cambers[path.indexOf(40)]).toBeCloseTo(cambers[path.lastIndexOf(40)], 6);
    expect(Math.max(...cambers) - Math.min(...cambers)).toBeGreaterThan(0.1);

    // with the wheel 40 mm up, move a chassis hardpoint 20 mm up, 1 mm per frame
    const name = 'upper_wishbone_inboard_front';
    const start = hardpointPosition(live.document.kind === 'suspension' ? live.document.geometry : {}, name);
    const original = live.document;
    expect(live.beginDrag({ kind: 'hardpoint', name })).toBe(true);
    const hardpointCambers: number[] = [];
    for (let k = 1; k <= 20; k++) {
      const count = analyses.length;
      live.dragTo([start[0], start[1], start[2] + k]);
      expect(analyses).toHaveLength(count + 1);
      const { value, frame } = analyses[analyses.length - 1];
      expect(frame.rebuilt).toBe(true);
      expect(frame.result.maxResidual).toBeLessThanOrEqual(1e-9);
      hardpointCambers.push(value.corners[0].camber);
    }
    const entry = live.endDrag();
    expect(entry?.label).toBe(`move ${name}`);
    expect(live.history.undoEntries).toHaveLength(1); // one entry for the whole drag
    // raising the upper inboard point changes the camber of the bumped wheel, frame by frame
    for (let k = 1; k < hardpointCambers.length; k++) expect(hardpointCambers[k]).not.toBe(hardpointCambers[k - 1]);
    expect(errors).toEqual([]);
    live.undo();
    expect(live.document).toBe(original);
  });

  it('a hardpoint drag that is cancelled leaves no trace in the history', () => {
    const live = new LiveModel(suspensionExample('double_wishbone'), { frameScheduler: queueScheduler });
    const original = live.document;
    live.beginDrag({ kind: 'hardpoint', name: 'trackrod_inboard' });
    live.dragTo([60, 200, 260]);
    expect(live.document).not.toBe(original);
    live.cancelDrag();
    expect(live.document).toBe(original);
    expect(live.history.canUndo).toBe(false);
    expect(live.lastGood!.document).toBe(original);
  });

  it('a hardpoint move the geometry refuses leaves the drag at the last accepted move', () => {
    const live = new LiveModel(suspensionExample('double_wishbone'), { frameScheduler: queueScheduler });
    const { errors } = collect(live);
    live.beginDrag({ kind: 'hardpoint', name: 'lower_wishbone_inboard_rear' });
    expect(live.dragTo([-250, 450, 210])).toBe(true);
    const accepted = live.document;
    const good = live.lastGood!;
    // onto the front pivot: the hinge axis would vanish
    expect(live.dragTo([250, 400, 200])).toBe(false);
    expect(errors.at(-1)).toMatchObject({ kind: 'refused', label: 'move lower_wishbone_inboard_rear' });
    expect(errors.at(-1)!.kind === 'refused' && (errors.at(-1) as { reason: string }).reason).toMatch(/coincident pivots/);
    expect(live.document).toBe(accepted);
    expect(live.lastGood).toBe(good);
    live.endDrag();
    expect(live.history.undoEntries).toHaveLength(1);
    expect(() => live.beginDrag({ kind: 'hardpoint', name: 'nowhere' })).not.toThrow();
    expect(errors.at(-1)).toMatchObject({ kind: 'refused', label: 'move nowhere' });
  });
});
