/**
 * The live model as a client of a solver elsewhere (a page whose engine runs in a Web
 * Worker): requests carry document versions and view settings, frames are the solver's
 * own plain data, pulls carry their strategy, a cancelled pull asks the solver to return
 * to the drag's start, and a fresh solve goes back to the document's own state.
 */
import { describe, expect, it } from 'vitest';
import { VirtualTimeScheduler, firstValueFrom, filter, map, queueScheduler, timer } from 'rxjs';
import { rockerAngle } from '../../examples/fourbar.ts';
import { LiveEngine, LiveModel, liveEdits, type LiveRequest } from '../../src/live/index.ts';
import { angleDifference, fourBar, testScheduler } from './helpers.ts';

const DEG = Math.PI / 180;
const CRANK = 0.8;

/** What a worker would post back: plain data, with the version and settings it solved. */
interface WorkerFrame {
  good: boolean;
  version: number;
  settings: { zoom: number };
  coordinates: Record<string, number>;
}

/** A remote model over a worker-like engine: requests and frames cross as structured clones, asynchronously. */
function remoteModel(initial = fourBar(30, false)) {
  const worker = new LiveEngine();
  const seen: LiveRequest<{ zoom: number }>[] = [];
  const live = new LiveModel<undefined, WorkerFrame, { zoom: number }>(initial, {
    remote: true,
    settings: { zoom: 1 },
    solver: (request) =>
      Promise.resolve().then(() => {
        const copy = structuredClone(request);
        seen.push(copy);
        const frame = worker.solve(copy);
        return { good: frame.good, version: copy.version, settings: copy.settings, coordinates: frame.coordinates };
      }),
    failureOf: () => ({ message: 'no', failed: [] }),
  });
  return { live, seen };
}

/** The next frame answering a request at or after `seq`. */
const frameFrom = (live: LiveModel<undefined, WorkerFrame, { zoom: number }>, seq: number) =>
  firstValueFrom(live.frames$.pipe(filter((o) => o.latest.input.seq >= seq)));

describe('a remote live model', () => {
  it('gives every document its own version; requests carry it, and undo brings the old one back', async () => {
    const { live, seen } = remoteModel(fourBar(30));
    const first = live.document;
    await frameFrom(live, 1);
    live.edit(liveEdits.setCoordinate('jA.angle', 50));
    const o = await frameFrom(live, live.requestSeq);
    expect(live.versionOf(live.document)).not.toBe(live.versionOf(first));
    expect(o.latest.kind === 'ok' && o.latest.output.version).toBe(live.versionOf(live.document));
    live.undo();
    await frameFrom(live, live.requestSeq);
    expect(seen.at(-1)!.version).toBe(live.versionOf(first));
    // the worker's engine recognised the undone document by its version: a clone, yet the crank is back at 30
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(30, 9);
    live.dispose();
  });

  it('view settings are carried on requests and make no undo entry; solve: false only records them', async () => {
    const { live, seen } = remoteModel();
    await frameFrom(live, 1);
    const asked = seen.length;
    live.setSettings({ zoom: 2 }, { solve: false });
    expect(live.settings).toEqual({ zoom: 2 });
    await Promise.resolve();
    expect(seen.length).toBe(asked);
    live.setSettings({ zoom: 3 });
    const o = await frameFrom(live, live.requestSeq);
    expect(o.latest.kind === 'ok' && o.latest.output.settings).toEqual({ zoom: 3 });
    expect(live.history.canUndo).toBe(false);
    live.dispose();
  });

  it('a pull carries its strategy; cancelling it returns the worker to the drag\'s start, and the settings to theirs', async () => {
    const { live, seen } = remoteModel();
    const start = (await frameFrom(live, 1)).lastGood!;
    // remote: the solver checks the part, not beginDrag (nothing is solved on this thread)
    expect(live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0], mode: 'free', axis: [0, 0, 1] })).toBe(true);
    expect(() => live.solveNow()).toThrow('remote');
    for (let k = 1; k <= 10; k++) {
      live.dragTo([CRANK * Math.cos((30 + 6 * k) * DEG), CRANK * Math.sin((30 + 6 * k) * DEG), 0]);
      live.setSettings({ zoom: 1 + k }, { solve: false });
      await frameFrom(live, live.requestSeq);
    }
    expect(seen.at(-1)!.pull).toMatchObject({ part: 'crank', mode: 'free', axis: [0, 0, 1] });
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(90, 6);
    live.cancelDrag();
    const back = await frameFrom(live, live.requestSeq);
    expect(seen.at(-1)!.cancelledDrag).toBe(1);
    expect(live.settings).toEqual({ zoom: 1 });
    for (const [name, value] of Object.entries(start.coordinates)) expect(back.lastGood!.coordinates[name]).toBeCloseTo(value, 9);
    // carried once: the next request asks nothing of the kind
    live.resolve();
    await frameFrom(live, live.requestSeq);
    expect(seen.at(-1)!.cancelledDrag).toBeUndefined();
    live.dispose();
  });

  it('a fresh solve goes back to the document\'s own state (a pulled free four-bar returns to its file\'s layout)', async () => {
    const { live, seen } = remoteModel();
    await frameFrom(live, 1);
    live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] });
    live.dragTo([CRANK * Math.cos(70 * DEG), CRANK * Math.sin(70 * DEG), 0]);
    await frameFrom(live, live.requestSeq);
    live.endDrag();
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(70, 6);
    live.resolve({ fresh: true });
    const o = await frameFrom(live, live.requestSeq);
    expect(seen.at(-1)!.fresh).toBe(true);
    const coordinates = o.lastGood!.coordinates;
    expect(coordinates['jA.angle']).toBeCloseTo(30, 6);
    // the rocker on the open branch at that crank angle (closed form)
    expect(Math.abs(angleDifference(coordinates['jD.angle'], rockerAngle(30 * DEG) / DEG))).toBeLessThan(1e-6);
    live.resolve();
    await frameFrom(live, live.requestSeq);
    expect(seen.at(-1)!.fresh).toBeUndefined();
    live.dispose();
  });

  it('a pull let go before its last move was answered: the move is solved, then the fresh solve with the settings its frame reported', async () => {
    const { live, seen } = remoteModel();
    await frameFrom(live, 1);
    // as the page does: where a pull leaves the view becomes the settings of the next request
    const sub = live.frames$.subscribe((o) => {
      if (o.latest.input.pull !== null && o.latest.kind === 'ok') live.setSettings({ zoom: 7 }, { solve: false });
    });
    live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] });
    live.dragTo([CRANK * Math.cos(70 * DEG), CRANK * Math.sin(70 * DEG), 0]);
    const pullSeq = live.requestSeq;
    // released within the same frame as the move: nothing answered yet
    live.endDrag();
    live.resolve({ fresh: true });
    await frameFrom(live, pullSeq + 1);
    const pulled = seen.find((r) => r.seq === pullSeq);
    expect(pulled?.pull?.target).toEqual([CRANK * Math.cos(70 * DEG), CRANK * Math.sin(70 * DEG), 0]);
    const last = seen.at(-1)!;
    expect(last.seq).toBeGreaterThan(pullSeq);
    expect(last.pull).toBeNull();
    expect(last.fresh).toBe(true);
    expect(last.settings).toEqual({ zoom: 7 });
    sub.unsubscribe();
    live.dispose();
  });

  it('an edit made as a pull is let go waits for the pull\'s last move too (the move is solved, then the edit)', async () => {
    const { live, seen } = remoteModel();
    await frameFrom(live, 1);
    live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] });
    live.dragTo([CRANK * Math.cos(60 * DEG), CRANK * Math.sin(60 * DEG), 0]);
    const pullSeq = live.requestSeq;
    live.endDrag();
    live.setSettings({ zoom: 4 });
    await frameFrom(live, pullSeq + 1);
    expect(seen.some((r) => r.seq === pullSeq && r.pull !== null)).toBe(true);
    expect(seen.at(-1)!.settings).toEqual({ zoom: 4 });
    expect(seen.at(-1)!.seq).toBeGreaterThan(pullSeq);
    live.dispose();
  });

  it('needs a solver; `leading` sends the first request at once, before the frame clock runs', () => {
    expect(() => new LiveModel(fourBar(30), { remote: true })).toThrow('options.solver');
    for (const leading of [true, false]) {
      const clock = new VirtualTimeScheduler();
      let calls = 0;
      const live = new LiveModel(fourBar(30), { frameScheduler: clock, leading, solver: (request, solve) => { calls++; return [solve(request)]; } });
      expect(calls).toBe(leading ? 1 : 0);
      clock.flush();
      expect(calls).toBe(1);
      live.dispose();
    }
  });

  it('in-process, a cancelled pull and a fresh solve behave as remotely (the engine remembers the drag\'s start)', () => {
    const live = new LiveModel(fourBar(30, false), { frameScheduler: queueScheduler, settings: { zoom: 1 } });
    const start = live.lastGood!;
    live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] });
    live.setSettings({ zoom: 5 }, { solve: false });
    live.dragTo([CRANK * Math.cos(60 * DEG), CRANK * Math.sin(60 * DEG), 0]);
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(60, 6);
    live.cancelDrag();
    expect(live.settings).toEqual({ zoom: 1 });
    for (const [name, value] of Object.entries(start.coordinates)) expect(live.lastGood!.coordinates[name]).toBeCloseTo(value, 9);
    live.beginDrag({ kind: 'pull', part: 'crank', point: [CRANK, 0, 0] });
    live.dragTo([CRANK * Math.cos(80 * DEG), CRANK * Math.sin(80 * DEG), 0]);
    live.endDrag();
    live.resolve({ fresh: true });
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(30, 6);
    expect(live.lastGood!.rebuilt).toBe(true);
    live.dispose();
  });
});

describe('the live engine across a worker', () => {
  it('returns to the start of a cancelled drag named by its id (cloned requests, no seed)', () => {
    const engine = new LiveEngine();
    const doc = fourBar(30, false);
    const base = { document: doc, version: 1, diagnose: false };
    const start = engine.solve(structuredClone({ ...base, seq: 1, pull: null }));
    for (let k = 1; k <= 5; k++) {
      const t = (30 + 10 * k) * DEG;
      engine.solve(structuredClone({ ...base, seq: 1 + k, pull: { dragId: 7, part: 'crank', point: [CRANK, 0, 0] as [number, number, number], target: [CRANK * Math.cos(t), CRANK * Math.sin(t), 0] as [number, number, number] } }));
    }
    // another drag's id is ignored: the state stays where the pull left it
    const other = engine.solve(structuredClone({ ...base, seq: 10, pull: null, cancelledDrag: 6 }));
    expect(other.coordinates['jA.angle']).toBeCloseTo(80, 6);
    const back = engine.solve(structuredClone({ ...base, seq: 11, pull: null, cancelledDrag: 7 }));
    for (const [name, value] of Object.entries(start.coordinates)) expect(back.coordinates[name]).toBeCloseTo(value, 9);
  });
});

describe('a lane beside the solve', () => {
  it('sends at most one input per frame (the newest), one solve at a time, and completes with the model', () => {
    const ts = testScheduler();
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    let completed = false;
    ts.run(({ cold, expectObservable }) => {
      const live = new LiveModel(fourBar(30), { frameScheduler: ts });
      // each solve takes 3 frames and answers its input times ten
      const lane = live.lane((i: number) => {
        started.push(i);
        most = Math.max(most, ++inFlight);
        return timer(3, ts).pipe(map(() => { inFlight--; return i * 10; }));
      });
      lane.outcomes$.subscribe({ complete: () => { completed = true; } });
      // frame 1: 1, 2, 3; frame 2: 4; frame 3: 5, 6 (while 3 is solving)
      const at = (frame: number, i: number) => cold(`${'-'.repeat(frame)}x`, { x: i }).subscribe((v) => lane.request(v));
      [[1, 1], [1, 2], [1, 3], [2, 4], [3, 5], [3, 6]].forEach(([frame, i]) => at(frame, i));
      expectObservable(lane.outcomes$.pipe(map((o) => (o.kind === 'ok' ? o.output : -1)))).toBe('----a--b--|', { a: 30, b: 60 });
      cold('----------x').subscribe(() => live.dispose());
    });
    // 3 (the newest of frame 1), then the newest that waited: 6 (4 and 5 were replaced)
    expect(started).toEqual([3, 6]);
    expect(most).toBe(1);
    expect(completed).toBe(true);
  });
});
