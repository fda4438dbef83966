/**
 * One compile per edit (issue 26): the live model's validation compiles an edited document
 * once, its remote requests carry that compile, and the view engine behind a worker reads it
 * instead of compiling again; a hardpoint drag renews the suspension's model in place where
 * the topology does not change, with the numbers of a model built afresh.
 */
import { describe, expect, it } from 'vitest';
import { History } from '../../src/reactive/index.ts';
import { LiveModel, LiveViewEngine, compileDocument, hardpointPosition, liveEdits, type LiveDocument, type LiveRequest, type LiveViewFrame, type LiveViewRequest } from '../../src/live/index.ts';
import { fourBar, suspensionExample } from './helpers.ts';

const HARDPOINT = 'upper_wishbone_inboard_front';

const request = (version: number, document: LiveDocument, extra: Partial<LiveViewRequest> = {}): LiveViewRequest => ({ version, document, settings: { view: { travel: [0], rack: 0 }, loads: null }, pull: null, ...extra });

/** The document with one hardpoint moved by `dz` mm (the edit a drag makes per move). */
function moved(document: LiveDocument, dz: number): LiveDocument {
  const history = new History<LiveDocument>(document);
  if (document.kind !== 'suspension') throw new Error('not a suspension');
  const [x, y, z] = hardpointPosition(document.geometry, HARDPOINT);
  return history.apply(liveEdits.moveHardpoint(HARDPOINT, [x, y, z + dz]), 'move');
}

/** What a frame shows, without its timings and build flag. */
const shown = (f: LiveViewFrame) => ({ poses: f.poses, analysis: f.analysis, design: f.design, dof: f.dof, status: f.status });

describe('one compile per edit', () => {
  it("a remote model's requests carry the compile its validation made; the lanes get the same one", async () => {
    const seen: LiveRequest<null>[] = [];
    const live = new LiveModel<undefined, { good: boolean }, null>(suspensionExample('double_wishbone'), {
      remote: true,
      settings: null,
      solver: (r) => { seen.push(r); return Promise.resolve({ good: true }); },
    });
    live.edit(liveEdits.moveHardpoint(HARDPOINT, [200, 350, 530]), 'move');
    live.resolve();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.length).toBeGreaterThan(0);
    for (const r of seen) {
      expect(r.compiled).toBeDefined();
      // the very object the validation compiled (kept), not a second compile
      expect(live.compiledOf(r.document)).toBe(r.compiled);
      expect(r.compiled!.assembly).toEqual(compileDocument(r.document).assembly);
    }
    live.dispose();
  });

  it("the view engine reads the request's compile and compiles nothing itself (suspension and assembly)", () => {
    const doc = suspensionExample('double_wishbone');
    const other = moved(doc, 8);
    // a probe: the request's compile is of a document 8 mm apart; the frame shows that one
    const probed = new LiveViewEngine().solve(request(1, doc, { compiled: compileDocument(other) }));
    expect(shown(probed)).toEqual(shown(new LiveViewEngine().solve(request(1, other))));
    expect(shown(probed)).not.toEqual(shown(new LiveViewEngine().solve(request(1, doc))));

    const crank30 = fourBar(30), crank60 = fourBar(60);
    const assemblyFrame = new LiveViewEngine().solve(request(1, crank30, { compiled: compileDocument(crank60) }));
    expect(assemblyFrame.poses).toEqual(new LiveViewEngine().solve(request(1, crank60)).poses);
  });

  it('a hardpoint drag renews the model in place, with the numbers of a model built afresh; a new topology is built', () => {
    const engine = new LiveViewEngine();
    let document: LiveDocument = suspensionExample('double_wishbone');
    engine.solve(request(1, document, { settings: { view: { travel: [20], rack: 3 }, loads: null } }));
    const system = engine.suspension!.sm.model.system;
    for (let version = 2; version <= 6; version++) {
      document = moved(document, 1.5);
      const view = { travel: [20 - version], rack: 3 };
      const frame = engine.solve(request(version, document, { settings: { view, loads: null } }));
      expect(frame.rebuilt).toBe(true);
      // the same system, renewed: no build
      expect(engine.suspension!.sm.model.system).toBe(system);
      const fresh = new LiveViewEngine().solve(request(version, document, { settings: { view, loads: null } }));
      expect(shown(frame)).toEqual(shown(fresh));
    }
    engine.solve(request(7, suspensionExample('macpherson')));
    expect(engine.suspension!.sm.model.system).not.toBe(system);
  });
});
