/**
 * Marble tests of the live model's scheduling: edits and drags in, at most one solve per
 * frame with the newest document, one solve in flight and one latest pending, and the
 * final state the same as applying every edit in order.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { produce, type Draft } from 'immer';
import { defer, map, queueScheduler, tap, timer, type SchedulerLike } from 'rxjs';
import { rockerAngle } from '../../examples/fourbar.ts';
import { LiveModel, liveEdits, type LiveDocument, type LiveFrame, type LiveSolver, type SolveRequest } from '../../src/live/index.ts';
import { angleDifference, crankOf, fourBar, testScheduler } from './helpers.ts';

/** 50 marble keys and the values 0..49 they stand for. */
const KEYS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX'.split('');
const VALUES: Record<string, number> = Object.fromEntries(KEYS.map((k, i) => [k, i]));

/** The crank angle an edit with marble value i sets. */
const crankFor = (i: number) => 31 + i;

/** A solver that records what it solves, optionally taking `frames` virtual frames. */
function recordingSolver(calls: number[], scheduler?: SchedulerLike, frames = 0, inFlight?: { now: number; max: number }): LiveSolver<undefined> {
  return (request: SolveRequest, solveInProcess: (r: SolveRequest) => LiveFrame<undefined>) => {
    if (scheduler === undefined) {
      calls.push(crankOf(request.document));
      return [solveInProcess(request)];
    }
    return defer(() => {
      calls.push(crankOf(request.document));
      if (inFlight) inFlight.max = Math.max(inFlight.max, ++inFlight.now);
      return timer(frames, scheduler).pipe(
        map(() => solveInProcess(request)),
        // on completion, before solveLatest hears of it and starts the next one
        tap({
          complete: () => {
            if (inFlight) inFlight.now--;
          },
        }),
      );
    });
  };
}

const rockerError = (frame: LiveFrame<undefined>) =>
  Math.abs(angleDifference(frame.coordinates['jD.angle'], (rockerAngle((frame.coordinates['jA.angle'] * Math.PI) / 180) * 180) / Math.PI));

describe('live model scheduling', () => {
  it('50 edits in one frame give one solve, with the last value', () => {
    const ts = testScheduler();
    const calls: number[] = [];
    let live: LiveModel | null = null;
    ts.run(({ cold, expectObservable }) => {
      live = new LiveModel(fourBar(30), { frameScheduler: ts, solver: recordingSolver(calls) });
      const model = live;
      cold(`-(${KEYS.join('')})`, VALUES).subscribe((i) => model.edit(liveEdits.setCoordinate('jA.angle', crankFor(i)), `crank ${i}`));
      // frame 0: the document as loaded; frame 1: the last of the 50 edits
      expectObservable(model.state$.pipe(map((frame) => crankOf(frame.document)))).toBe('ab', { a: 30, b: crankFor(49) });
    });
    expect(calls).toEqual([30, crankFor(49)]);
    const last = live!.lastGood!;
    expect(last.coordinates['jA.angle']).toBeCloseTo(crankFor(49), 9);
    expect(rockerError(last)).toBeLessThan(1e-9);
    // every edit is one undo entry, though only the last was solved
    expect(live!.history.undoEntries).toHaveLength(50);
  });

  it('a pull moved 50 times in one frame is solved once, at the last target', () => {
    const ts = testScheduler();
    const targets: number[] = [];
    ts.run(({ cold, expectObservable }) => {
      const live = new LiveModel(fourBar(30, false), {
        frameScheduler: ts,
        solver: (request, solve) => {
          if (request.pull) targets.push(request.pull.target[0]);
          return [solve(request)];
        },
      });
      live.solveNow();
      live.beginDrag({ kind: 'pull', part: 'crank', point: [0.8, 0, 0] });
      const angle = (i: number) => ((40 + i / 10) * Math.PI) / 180;
      cold(`-(${KEYS.join('')})`, VALUES).subscribe((i) => live.dragTo([0.8 * Math.cos(angle(i)), 0.8 * Math.sin(angle(i)), 0]));
      expectObservable(live.state$.pipe(map((f) => f.coordinates['jA.angle'].toFixed(6)))).toBe('ab', {
        a: (30).toFixed(6),
        b: (40 + 4.9).toFixed(6),
      });
    });
    expect(targets).toEqual([0.8 * Math.cos(((40 + 4.9) * Math.PI) / 180)]);
  });

  it('a slow solve (5 frames) never queues more than one pending request', () => {
    const ts = testScheduler();
    const calls: number[] = [];
    const inFlight = { now: 0, max: 0 };
    let live: LiveModel | null = null;
    ts.run(({ cold, expectObservable }) => {
      live = new LiveModel(fourBar(30), { frameScheduler: ts, solver: recordingSolver(calls, ts, 5, inFlight) });
      const model = live;
      // one edit every frame for 20 frames (crank 31..50)
      cold(`-${KEYS.slice(0, 20).join('')}`, VALUES).subscribe((i) => model.edit(liveEdits.setCoordinate('jA.angle', crankFor(i))));
      // Edit i lands in frame i + 1. Solves take 5 frames; at each completion the next
      // solve takes the newest pending edit (the frame's own edit is audited just after
      // the completion), the edits in between are never solved: nothing queues.
      expectObservable(model.state$.pipe(map((frame) => crankOf(frame.document)))).toBe('-----a----b----c----d----e----f', {
        a: 30,
        b: crankFor(3),
        c: crankFor(8),
        d: crankFor(13),
        e: crankFor(18),
        f: crankFor(19),
      });
    });
    expect(calls).toEqual([30, crankFor(3), crankFor(8), crankFor(13), crankFor(18), crankFor(19)]);
    expect(inFlight.max).toBe(1);
    expect(crankOf(live!.lastGood!.document)).toBe(crankFor(19));
  });

  it('the final state after any burst equals applying every edit in order', () => {
    const edit = fc.oneof(
      fc.double({ min: -720, max: 720, noNaN: true }).map((v) => ({ kind: 'crank' as const, value: v })),
      fc.constant({ kind: 'refused' as const, value: 0 }),
    );
    // a timeline: frames with bursts of edits, and how long each solve takes
    const timeline = fc.record({
      frames: fc.array(fc.array(edit, { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
      solveFrames: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(timeline, ({ frames, solveFrames }) => {
        const ts = testScheduler();
        const initial = fourBar(30);
        let expected: LiveDocument = initial;
        const applied: LiveDocument[] = [];
        let live: LiveModel | null = null;
        ts.run(({ cold, flush }) => {
          live = new LiveModel(initial, { frameScheduler: ts, solver: recordingSolver([], ts, solveFrames) });
          const model = live;
          const marbles = frames.map((_, i) => KEYS[i]).join('');
          const byKey = Object.fromEntries(frames.map((burst, i) => [KEYS[i], burst]));
          cold(marbles, byKey).subscribe((burst) => {
            for (const e of burst) {
              const recipe = e.kind === 'crank' ? liveEdits.setCoordinate('jA.angle', e.value) : liveEdits.setCoordinate('nowhere.angle', 1);
              const result = model.edit(recipe, e.kind);
              expect(result.ok).toBe(e.kind === 'crank');
              if (e.kind === 'crank') {
                expected = produce(expected, recipe as (d: Draft<LiveDocument>) => void);
                applied.push(expected);
              }
            }
          });
          flush();
        });
        const last = live!.lastGood!;
        expect(live!.document).toEqual(expected);
        expect(last.document).toBe(live!.document);
        expect(last.good).toBe(true);
        expect(last.coordinates['jA.angle']).toBeCloseTo(crankOf(expected), 6);
        // the branch is kept through every jump (sub-steps of at most 10°)
        expect(rockerError(last)).toBeLessThan(1e-6);
      }),
      { numRuns: 40 },
    );
  });

  it('with a synchronous frame clock every change is solved at once (scripts)', () => {
    const live = new LiveModel(fourBar(30), { frameScheduler: queueScheduler });
    const seen: number[] = [];
    live.state$.subscribe((frame) => seen.push(crankOf(frame.document)));
    expect(seen).toEqual([30]);
    live.edit(liveEdits.setCoordinate('jA.angle', 45));
    live.edit(liveEdits.setCoordinate('jA.angle', 50));
    expect(seen).toEqual([30, 45, 50]);
  });

  it('solveNow answers at once and the request waiting for its frame is then skipped', () => {
    const ts = testScheduler();
    const calls: number[] = [];
    ts.run(({ flush }) => {
      const live = new LiveModel(fourBar(30), { frameScheduler: ts, solver: recordingSolver(calls) });
      const frames: number[] = [];
      live.state$.subscribe((frame) => frames.push(crankOf(frame.document)));
      live.edit(liveEdits.setCoordinate('jA.angle', 60));
      const now = live.solveNow();
      expect(now.good).toBe(true);
      expect(frames).toEqual([60]);
      flush();
      expect(frames).toEqual([60]);
    });
    expect(calls).toEqual([]); // solveNow runs in-process; the scheduled request was already answered
  });
});
