/**
 * Undo and redo through the live model: documents come back exactly, the solve follows,
 * and no sequence of edits, undos and redos corrupts anything.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { queueScheduler } from 'rxjs';
import {
  LiveModel,
  STEERING_COORDINATE,
  documentProblem,
  hardpointPosition,
  liveEdits,
  simpleSuspensionAnalysis,
  type LiveError,
  type LiveRecipe,
} from '../../src/live/index.ts';
import { suspensionExample } from './helpers.ts';

const CHASSIS_POINTS = [
  'lower_wishbone_inboard_front',
  'lower_wishbone_inboard_rear',
  'upper_wishbone_inboard_front',
  'upper_wishbone_inboard_rear',
  'trackrod_inboard',
] as const;

describe('live model history', () => {
  it('undo and redo restore documents exactly and re-solve', () => {
    const original = suspensionExample('double_wishbone');
    const live = new LiveModel(original, { frameScheduler: queueScheduler, analyze: simpleSuspensionAnalysis });
    const designCamber = live.lastGood!.analysis!.corners[0].camber;
    expect(designCamber).toBeCloseTo(-1.909, 3);

    expect(live.edit(liveEdits.moveHardpoint('upper_wishbone_inboard_front', [225, 350, 530]), 'raise upper front').ok).toBe(true);
    const moved = live.document;
    // hold the lower wishbone 5° up: the wheel rises, camber changes
    expect(live.edit(liveEdits.holdCoordinate('lower_hinge.angle', 5), 'bump').ok).toBe(true);
    const bumped = live.lastGood!;
    expect(bumped.document).toBe(live.document);
    expect(bumped.coordinates['lower_hinge.angle']).toBeCloseTo(5, 9);
    expect(Math.abs(bumped.analysis!.corners[0].camber - designCamber)).toBeGreaterThan(0.1);

    expect(live.undo()).toBe(true);
    expect(live.document).toBe(moved);
    expect(live.lastGood!.document).toBe(moved);
    expect(live.undo()).toBe(true);
    expect(live.document).toBe(original);
    expect(live.document).toEqual(suspensionExample('double_wishbone'));
    expect(live.lastGood!.document).toBe(original);
    // the released wheel stays where it was (the warm state), the document is the original
    expect(live.lastGood!.good).toBe(true);
    expect(live.redo()).toBe(true);
    expect(live.redo()).toBe(true);
    expect(live.document).toEqual(bumped.document);
    expect(live.lastGood!.coordinates['lower_hinge.angle']).toBeCloseTo(5, 9);
    expect(live.lastGood!.analysis!.corners[0].camber).toBeCloseTo(bumped.analysis!.corners[0].camber, 9);
    expect(live.redo()).toBe(false);
  });

  it('random sequences of edits, undos and redos never corrupt the document; undoing everything gives the original back', () => {
    const original = suspensionExample('double_wishbone');
    const offset = fc.tuple(fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true }));
    const action = fc.oneof(
      fc.record({ point: fc.constantFrom(...CHASSIS_POINTS), offset }).map(({ point, offset: d }) => {
        const p = hardpointPosition(original.geometry, point);
        return { kind: 'edit' as const, label: `move ${point}`, recipe: liveEdits.moveHardpoint(point, [p[0] + d[0], p[1] + d[1], p[2] + d[2]]) };
      }),
      fc.double({ min: -20, max: 20, noNaN: true }).map((v) => ({ kind: 'edit' as const, label: 'steer', recipe: liveEdits.setCoordinate(STEERING_COORDINATE, v) })),
      fc.double({ min: -8, max: 8, noNaN: true }).map((v) => ({ kind: 'edit' as const, label: 'bump', recipe: liveEdits.holdCoordinate('lower_hinge.angle', v) })),
      fc.constant({ kind: 'edit' as const, label: 'free', recipe: liveEdits.releaseCoordinate('lower_hinge.angle') }),
      fc.constantFrom('lower_wishbone_angle', 'upper_wishbone_angle', 'bogus').map((h) => ({ kind: 'edit' as const, label: 'hold', recipe: liveEdits.setSuspensionHold(h) })),
      fc.constant({ kind: 'edit' as const, label: 'bad point', recipe: liveEdits.moveHardpoint('nowhere', [0, 0, 0]) as LiveRecipe }),
      fc.constant({ kind: 'edit' as const, label: 'coincident', recipe: liveEdits.moveHardpoint('lower_wishbone_inboard_rear', [250, 400, 200]) }),
      fc.constant({ kind: 'undo' as const }),
      fc.constant({ kind: 'redo' as const }),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 14 }), (actions) => {
        const live = new LiveModel(original, { frameScheduler: queueScheduler });
        const errors: LiveError[] = [];
        live.errors$.subscribe((e) => errors.push(e));
        for (const a of actions) {
          const before = live.document;
          if (a.kind === 'undo') live.undo();
          else if (a.kind === 'redo') live.redo();
          else {
            const result = live.edit(a.recipe, a.label);
            if (!result.ok) expect(live.document).toBe(before);
          }
          expect(documentProblem(live.document)).toBeNull();
          // every change was solved at once, good, to the live tolerance
          const frame = live.lastGood!;
          expect(frame.document).toBe(live.document);
          expect(frame.result.maxResidual).toBeLessThanOrEqual(1e-9);
        }
        expect(errors.filter((e) => e.kind !== 'refused')).toEqual([]);
        while (live.undo());
        expect(live.document).toBe(original);
        expect(live.document).toEqual(suspensionExample('double_wishbone'));
        live.dispose();
      }),
      { numRuns: 25 },
    );
  });
});
