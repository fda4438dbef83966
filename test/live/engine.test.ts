/**
 * The engine behind the live model: the warm state carried across rebuilds by name, the
 * solver seam (a worker-like solver gives the same states), and exceptions as values.
 */
import { describe, expect, it } from 'vitest';
import { firstValueFrom, filter, queueScheduler } from 'rxjs';
import { rockerAngle } from '../../examples/fourbar.ts';
import { addMate, addPart, removePart } from '../../src/assembly/edits.ts';
import { LiveEngine, LiveModel, liveEdits, plainFrame, type LiveError, type LiveFrame, type SolveRequest } from '../../src/live/index.ts';
import { angleDifference, crankOf, fourBar } from './helpers.ts';

const DEG = Math.PI / 180;

function pullCrankTo(live: LiveModel, degrees: number): LiveFrame {
  live.beginDrag({ kind: 'pull', part: 'crank', point: [0.8, 0, 0] });
  for (let a = 30; a <= degrees; a += 5) live.dragTo([0.8 * Math.cos(a * DEG), 0.8 * Math.sin(a * DEG), 0]);
  live.endDrag();
  return live.lastGood!;
}

describe('live engine', () => {
  it('a structural edit rebuilds the model and carries the solved poses over by part name', () => {
    const live = new LiveModel(fourBar(30, false), { frameScheduler: queueScheduler });
    const pulled = pullCrankTo(live, 120);
    expect(pulled.coordinates['jA.angle']).toBeCloseTo(120, 6);

    // add a link hinged to the ground: the four-bar stays where it was pulled, not at the file pose
    const link = { pose: { position: [0, 0, 0] as [number, number, number], rotation: [1, 0, 0, 0] as [number, number, number, number] }, frames: { base: { origin: [0, 0, 0] as [number, number, number], rotation: [1, 0, 0, 0] as [number, number, number, number] } } };
    expect(live.editAssembly(addPart('link', link), 'add link').ok).toBe(true);
    expect(live.editAssembly(addMate('jL', { type: 'revolute', a: 'ground.pivotD', b: 'link.base' }), 'hinge link').ok).toBe(true);
    const rebuilt = live.lastGood!;
    expect(rebuilt.rebuilt).toBe(true);
    expect(Object.keys(rebuilt.poses)).toContain('link');
    for (const part of ['crank', 'coupler', 'rocker']) {
      for (let i = 0; i < 3; i++) expect(rebuilt.poses[part].position[i]).toBeCloseTo(pulled.poses[part].position[i], 9);
    }
    expect(rebuilt.coordinates['jA.angle']).toBeCloseTo(pulled.coordinates['jA.angle'], 9);
    expect(rebuilt.coordinates['jL.angle']).toBeCloseTo(0, 9); // new: measured where the link stands
    expect(rebuilt.result.dof).toBe(2);

    // removing it again: still carried
    expect(live.editAssembly(removePart('link'), 'remove link').ok).toBe(true);
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(pulled.coordinates['jA.angle'], 9);
    expect(Math.abs(angleDifference(live.lastGood!.coordinates['jD.angle'], rockerAngle(live.lastGood!.coordinates['jA.angle'] * DEG) / DEG))).toBeLessThan(1e-6);
  });

  it('a held driver edited by a large jump is driven there in sub-steps and keeps its branch', () => {
    const live = new LiveModel(fourBar(30), { frameScheduler: queueScheduler });
    live.edit(liveEdits.setCoordinate('jA.angle', 30 + 350), 'turn the crank almost a full turn');
    const frame = live.lastGood!;
    expect(frame.coordinates['jA.angle']).toBeCloseTo(380, 9);
    expect(Math.abs(angleDifference(frame.coordinates['jD.angle'], rockerAngle(20 * DEG) / DEG))).toBeLessThan(1e-6);
  });

  it('a worker-like solver (copies in and out, asynchronous) gives the same state as the in-process engine', async () => {
    const worker = new LiveEngine();
    const viaWorker = new LiveModel(fourBar(30), {
      // what a Web Worker sees: structured clones of the request, and of the frame back
      solver: (request: SolveRequest) => Promise.resolve().then(() => structuredClone(worker.solve(structuredClone(request)))),
    });
    const inProcess = new LiveModel(fourBar(30), { frameScheduler: queueScheduler });
    for (const angle of [45, 90, 200, 10]) {
      viaWorker.edit(liveEdits.setCoordinate('jA.angle', angle));
      inProcess.edit(liveEdits.setCoordinate('jA.angle', angle));
    }
    const last = await firstValueFrom(viaWorker.state$.pipe(filter((frame) => frame.coordinates['jA.angle'] > 9 && frame.coordinates['jA.angle'] < 11)));
    expect(crankOf(last.document)).toBe(10);
    for (const [name, value] of Object.entries(inProcess.lastGood!.coordinates)) expect(last.coordinates[name]).toBeCloseTo(value, 9);
    viaWorker.dispose();
  });

  it('a solver that throws and an analysis that throws are errors as values; the last good state stays', () => {
    let fail = false;
    const live = new LiveModel<string>(fourBar(30), {
      frameScheduler: queueScheduler,
      solver: (request, solve) => {
        if (fail) throw new Error('worker died');
        return [solve(request)];
      },
      analyze: (model) => {
        if (model.system.getScalar(model.coordinates.get('jA.angle')!.variable) > 1) throw new Error('analysis broke');
        return 'ok';
      },
    });
    const errors: LiveError<string>[] = [];
    live.errors$.subscribe((e) => errors.push(e));
    const good = live.lastGood!;
    fail = true;
    live.edit(liveEdits.setCoordinate('jA.angle', 40));
    expect(errors).toMatchObject([{ kind: 'solver-error', message: 'worker died' }]);
    expect(live.lastGood).toBe(good);
    fail = false;
    live.edit(liveEdits.setCoordinate('jA.angle', 80)); // > 1 rad: the analysis throws, the state is good
    expect(errors[1]).toMatchObject({ kind: 'analysis-failed', message: 'analysis broke' });
    expect(live.lastGood!.coordinates['jA.angle']).toBeCloseTo(80, 9);
    expect(live.lastGood!.analysis).toBeUndefined();
  });

  it('a document that crossed a worker (a structured clone) is recognised by its version: the model stays warm; a new version rebuilds', () => {
    const engine = new LiveEngine();
    const document = fourBar(30, false);
    const first = engine.solve({ seq: 1, document: structuredClone(document), version: 7, pull: null, diagnose: false });
    expect(first.rebuilt).toBe(true);
    // the same version in a new object (every message across a worker is one): no rebuild
    const model = engine.model;
    const again = engine.solve({ seq: 2, document: structuredClone(document), version: 7, pull: { dragId: 1, part: 'crank', point: [0.8, 0, 0], target: [0, 0.8, 0] }, diagnose: false });
    expect(again.rebuilt).toBe(false);
    expect(engine.model).toBe(model);
    expect(again.coordinates['jA.angle']).toBeCloseTo(90, 6);
    // without a version, object identity still decides (a clone is a new document)
    expect(engine.solve({ seq: 3, document: structuredClone(document), pull: null, diagnose: false }).rebuilt).toBe(true);
    // another version: rebuilt, the pulled state carried over by name
    const next = engine.solve({ seq: 4, document: structuredClone(document), version: 8, pull: null, diagnose: false });
    expect(next.rebuilt).toBe(true);
    expect(next.coordinates['jA.angle']).toBeCloseTo(90, 6);
    // the frame to post back is plain data without the document and the assembly
    const plain = plainFrame(next);
    expect('document' in plain || 'assembly' in plain).toBe(false);
    expect(structuredClone(plain)).toEqual(plain);
    expect(plain.coordinates).toEqual(next.coordinates);
  });
});
