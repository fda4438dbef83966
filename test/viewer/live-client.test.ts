/**
 * The viewer's live model in Node: the library's LiveModel (remote) in front of the
 * viewer's worker engine, requests and results crossing as structured clones, as the page
 * has them (viewer/src/app.ts, solver-client.ts). Gestures, view settings, fresh solves and
 * undo are checked against the worker engine asked directly, a separate route.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { filter, firstValueFrom } from 'rxjs';
import { LiveViewPresenter, type PoseResult, type ViewSettings } from '../../src/live/view/presenter.ts';
import { LiveModel, suspensionDocument } from '../../src/live';
import { parseText } from '../../src/suspension/files';

const dw = () => suspensionDocument(parseText(readFileSync(new URL('../../examples/suspension/double_wishbone.yaml', import.meta.url), 'utf8')), { name: 'double_wishbone.yaml' });

type ViewerLive = LiveModel<undefined, PoseResult, ViewSettings>;

/** The page's live model over a worker-like engine. */
function viewerLive(): ViewerLive {
  const worker = new LiveViewPresenter();
  return new LiveModel<undefined, PoseResult, ViewSettings>(dw(), {
    remote: true,
    leading: true,
    settings: { view: { travel: [], rack: 0 }, loads: null },
    solver: (request) => Promise.resolve().then(() => structuredClone(worker.pose(structuredClone(request)))),
    failureOf: (r) => ({ message: r.message ?? 'failed', failed: r.failed }),
  });
}

/** The result of the newest request, adopted as the page does (the view a pull reached). */
async function shown(live: ViewerLive): Promise<PoseResult> {
  const o = await firstValueFrom(live.frames$.pipe(filter((x) => x.latest.input.seq >= live.requestSeq)));
  if (o.latest.kind !== 'ok') throw new Error(String(o.latest.error));
  const result = o.latest.output;
  live.setSettings({ ...live.settings, view: result.view }, { solve: false });
  return result;
}

describe('the viewer on the live model', () => {
  it('a wheel pull moves the view; cancel returns to the start; a pull let go and solved fresh is the engine\'s pose at that view', async () => {
    const live = viewerLive();
    const start = await shown(live);
    const wheel = start.structure.handles.find((h) => h.kind === 'wheel')!;
    const centre = start.corners[0].wheelCenter;
    expect(live.beginDrag({ kind: 'pull', part: wheel.part, point: wheel.local, mode: 'bump', axis: [0, 0, 1] })).toBe(true);
    let r = start;
    for (let k = 1; k <= 5; k++) {
      live.dragTo([centre[0], centre[1], centre[2] + 6 * k]);
      r = await shown(live);
    }
    expect(r.view.travel[0]).toBeCloseTo(30, 3);
    live.cancelDrag();
    const back = await shown(live);
    expect(live.settings.view).toEqual(start.view);
    expect(back.metrics.camber).toBeCloseTo(start.metrics.camber!, 9);
    // a pull let go: solved again from design at the view it reached
    live.beginDrag({ kind: 'pull', part: wheel.part, point: wheel.local, mode: 'bump', axis: [0, 0, 1] });
    live.dragTo([centre[0], centre[1], centre[2] - 20]);
    const pulled = await shown(live);
    live.endDrag();
    live.resolve({ fresh: true });
    const fresh = await shown(live);
    const direct = new LiveViewPresenter().pose(poseAt(1, live.document, pulled.view));
    expect(fresh.view).toEqual(pulled.view);
    expect(fresh.metrics).toEqual(direct.metrics);
    expect(live.history.canUndo).toBe(false);
    live.dispose();
  });

  it('a hardpoint drag is one undo entry, solved at every move; undo shows the first numbers bit for bit', async () => {
    const live = viewerLive();
    await shown(live);
    // at design the linkage is the file's whatever its pickups: 30 mm of bump shows an edit
    live.setSettings({ view: { travel: [30], rack: 0 }, loads: null });
    const first = await shown(live);
    expect(live.history.canUndo).toBe(false);
    const version = live.versionOf(live.document);
    expect(live.beginDrag({ kind: 'hardpoint', name: 'upper_wishbone_inboard_front' })).toBe(true);
    const cambers: number[] = [];
    for (const z of [530, 545, 560]) {
      expect(live.dragTo([225, 350, z])).toBe(true);
      cambers.push((await shown(live)).metrics.camber!);
    }
    live.endDrag();
    expect(new Set(cambers).size).toBe(3);
    expect(live.history.undoEntries.length).toBe(1);
    live.undo();
    const undone = await shown(live);
    expect(undone.docKey).toBe(version);
    expect(undone.metrics).toEqual(first.metrics);
    // a refused move (not a number) leaves the document as it was and says why
    const reasons: string[] = [];
    live.errors$.subscribe((e) => { if (e.kind === 'refused') reasons.push(e.reason); });
    live.beginDrag({ kind: 'hardpoint', name: 'upper_wishbone_inboard_front' });
    const before = live.document;
    expect(live.dragTo([225, Number.NaN, 530])).toBe(false);
    expect(live.document).toBe(before);
    expect(reasons).toHaveLength(1);
    live.cancelDrag();
    expect(live.history.undoEntries.length).toBe(0);
    live.dispose();
  });
});
