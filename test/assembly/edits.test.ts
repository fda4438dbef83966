import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { produce } from 'immer';
import { AssemblyError, parseAssembly, validateAssembly, type AssemblyDoc, type MateDoc, type PartDoc } from '../../src/assembly/index.ts';
import {
  addMate,
  addPart,
  assemblyProblem,
  combine,
  holdCoordinate,
  moveEntity,
  movePoint,
  releaseCoordinate,
  removeMate,
  removePart,
  setCoordinate,
  setMateValue,
  setPartPose,
  setSuspension,
  type AssemblyRecipe,
} from '../../src/assembly/edits.ts';
import { EditRefused, History } from '../../src/reactive/history.ts';
import { fixtureText } from './helpers.ts';

const fourBar = (): AssemblyDoc => parseAssembly(fixtureText('four-bar'));
const kitchenSink = (): AssemblyDoc => parseAssembly(fixtureText('kitchen-sink'));
const historyOf = (doc: AssemblyDoc) => new History<AssemblyDoc>(doc, { validate: assemblyProblem });
const edit = (doc: AssemblyDoc, recipe: AssemblyRecipe): AssemblyDoc => produce(doc, recipe);

describe('assembly edits', () => {
  it('moves a point, and any entity by its anchor', () => {
    const doc = kitchenSink();
    const moved = edit(doc, movePoint('body', 'P', [1, 2, 3]));
    expect(moved.parts.body.points!.P).toEqual([1, 2, 3]);
    expect(edit(doc, moveEntity('ground', 'pivot', [4, 5, 6])).parts.ground.frames!.pivot.origin).toEqual([4, 5, 6]);
    expect(edit(doc, moveEntity('ground', 'rail', [4, 5, 6])).parts.ground.axes!.rail.origin).toEqual([4, 5, 6]);
    expect(edit(doc, moveEntity('ground', 'floor', [4, 5, 6])).parts.ground.planes!.floor.origin).toEqual([4, 5, 6]);
    expect(edit(doc, moveEntity('ground', 'rim', [4, 5, 6])).parts.ground.circles!.rim.center).toEqual([4, 5, 6]);
    const track = doc.parts.ground.curves!.track.polyline;
    const shifted = edit(doc, moveEntity('ground', 'track', [10, 0, 0])).parts.ground.curves!.track.polyline;
    expect(shifted[0]).toEqual([10, 0, 0]);
    for (let i = 1; i < track.length; i++) {
      for (let k = 0; k < 3; k++) expect(shifted[i][k] - track[i][k]).toBeCloseTo(shifted[0][k] - track[0][k], 12);
    }
    // directions, rotations and the rest of the document are untouched (structural sharing)
    expect(moved.parts.ground).toBe(doc.parts.ground);
    expect(moved.mates).toBe(doc.mates);
  });

  it('refuses to move what is not there, naming the path, and changes nothing', () => {
    const doc = kitchenSink();
    expect(() => edit(doc, movePoint('body', 'nope', [0, 0, 0]))).toThrow(AssemblyError);
    expect(() => edit(doc, movePoint('body', 'nope', [0, 0, 0]))).toThrow('parts.body.points.nope: no point "nope" on part "body"');
    expect(() => edit(doc, movePoint('ghost', 'P', [0, 0, 0]))).toThrow('parts.ghost: no part "ghost"');
    expect(() => edit(doc, moveEntity('body', 'nope', [0, 0, 0]))).toThrow('parts.body.nope: no entity');
    expect(() => movePoint('body', 'P', [0, Number.NaN, 0])).toThrow(AssemblyError);
    expect(() => movePoint('body', 'P', [0, Number.NaN, 0])).toThrow('xyz[1]: expected a finite number, got NaN');
  });

  it('writing the value already there makes no patch and so no undo entry', () => {
    const doc = kitchenSink();
    const history = historyOf(doc);
    history.apply(movePoint('body', 'P', [...doc.parts.body.points!.P] as [number, number, number]));
    history.apply(setCoordinate('j1.angle', 0.5));
    history.apply(holdCoordinate('j1.angle'));
    history.apply(releaseCoordinate('j2.slide'));
    history.apply(setMateValue('c7', -12.5));
    expect(history.current).toBe(doc);
    expect(history.canUndo).toBe(false);
  });

  it('sets, holds and releases coordinates; validation refuses a coordinate no mate frees', () => {
    const history = historyOf(fourBar());
    history.apply(setCoordinate('jD.angle', -100), 'set rocker');
    expect(history.current.state['jD.angle']).toBe(-100);
    history.apply(holdCoordinate('jD.angle', -101), 'hold rocker');
    expect(history.current.held).toContain('jD.angle');
    expect(history.current.state['jD.angle']).toBe(-101);
    history.apply(releaseCoordinate('jD.angle'), 'release rocker');
    expect(history.current.held).not.toContain('jD.angle');
    expect(history.current.state['jD.angle']).toBe(-101);
    const before = history.current;
    expect(() => history.apply(setCoordinate('jX.angle', 1), 'bad')).toThrow(EditRefused);
    expect(() => history.apply(holdCoordinate('jA.slide'), 'bad')).toThrow(/held\[\d\]/);
    expect(history.current).toBe(before);
  });

  it('changes a dimensioned mate and refuses a value on a mate that has none', () => {
    const doc = kitchenSink();
    expect((edit(doc, setMateValue('c7', 3)).mates.c7 as { value: number }).value).toBe(3);
    expect((edit(doc, setMateValue('c8', 0.5)).mates.c8 as { value: number }).value).toBe(0.5);
    expect(() => edit(doc, setMateValue('j1', 1))).toThrow('mates.j1.value: a revolute mate has no value');
    expect(() => edit(doc, setMateValue('zz', 1))).toThrow('mates.zz: no mate "zz"');
  });

  it('adds a part and a mate, refusing duplicates and invalid ones with the validator message', () => {
    const history = historyOf(fourBar());
    const link: PartDoc = { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { base: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } } };
    history.apply(addPart('link', link), 'add link');
    expect(history.current.parts.link).toEqual(link);
    expect(history.current.parts.link).not.toBe(link); // a copy
    history.apply(addMate('jL', { type: 'revolute', a: 'ground.pivotA', b: 'link.base' }), 'mate link');
    expect(Object.keys(history.current.mates)).toContain('jL');
    expect(() => history.apply(addPart('link', link))).toThrow('parts.link: a part "link" already exists');
    expect(() => history.apply(addMate('jL', { type: 'ball', a: 'ground.pivotA', b: 'link.base' }))).toThrow('mates.jL: a mate "jL" already exists');
    const before = history.current;
    try {
      history.apply(addMate('bad', { type: 'revolute', a: 'ground.pivotA', b: 'link.nothing' }), 'bad mate');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EditRefused);
      expect((error as EditRefused).reason).toMatch(/^mates\.bad\.b: /);
    }
    expect(history.current).toBe(before);
  });

  it('removing a mate removes the couplings on its coordinates and their state and holds', () => {
    const doc = kitchenSink();
    const after = edit(doc, removeMate('j1'));
    expect(validateAssembly(after)).toBeTruthy();
    expect(Object.keys(after.mates)).not.toContain('j1');
    // g1, g3 and g6 name j1.angle
    for (const gone of ['g1', 'g3', 'g6']) expect(Object.keys(after.mates)).not.toContain(gone);
    for (const kept of ['g2', 'g4', 'g5', 'late']) expect(Object.keys(after.mates)).toContain(kept);
    expect(Object.keys(after.state)).not.toContain('j1.angle');
    expect(after.held).not.toContain('j1.angle');
  });

  it('removing a part removes its mates (and what depends on them) and its state pose; undo restores all of it', () => {
    const doc = kitchenSink();
    const history = historyOf(doc);
    history.apply(removePart('wheel'), 'remove wheel');
    const after = history.current;
    expect(Object.keys(after.parts)).toEqual(['ground', 'body']);
    for (const gone of ['c9', 'j0', 'j1', 'late', 'g1', 'g3', 'g6']) expect(Object.keys(after.mates)).not.toContain(gone);
    history.apply(removePart('body'), 'remove body');
    expect(Object.keys(history.current.state)).not.toContain('body.pose');
    expect(Object.keys(history.current.mates)).toEqual([]);
    expect(history.current.held).toEqual([]);
    history.undo();
    history.undo();
    expect(history.current).toBe(doc);
    expect(() => history.apply(removePart('ghost'))).toThrow('parts.ghost: no part "ghost"');
  });

  it('combine applies several recipes as one edit', () => {
    const history = historyOf(fourBar());
    history.apply(combine(setCoordinate('jA.angle', 40), setCoordinate('jD.angle', -110)), 'both');
    expect(history.undoEntries).toHaveLength(1);
    expect(history.current.state['jA.angle']).toBe(40);
  });

  it('random sequences of edits, undos and redos keep a valid document; undoing everything gives the original', () => {
    const original = kitchenSink();
    const point = fc.tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }));
    const mateIds = Object.keys(original.mates);
    const action = fc.oneof(
      point.map((p) => ({ kind: 'edit' as const, recipe: movePoint('body', 'Q', p) })),
      point.map((p) => ({ kind: 'edit' as const, recipe: moveEntity('ground', 'rim', p) })),
      fc.double({ min: -1, max: 1, noNaN: true }).map((v) => ({ kind: 'edit' as const, recipe: setCoordinate('j1.angle', v) })),
      fc.constantFrom(...mateIds).map((id) => ({ kind: 'edit' as const, recipe: removeMate(id) })),
      fc.constantFrom('body', 'wheel').map((p) => ({ kind: 'edit' as const, recipe: removePart(p) })),
      fc.constant({ kind: 'edit' as const, recipe: holdCoordinate('j3.slide', 1) }),
      fc.constant({ kind: 'edit' as const, recipe: releaseCoordinate('j1.angle') }),
      fc.constant({ kind: 'edit' as const, recipe: addMate('extra', { type: 'ball', a: 'ground.A', b: 'body.P' } as MateDoc) }),
      fc.constant({ kind: 'undo' as const }),
      fc.constant({ kind: 'redo' as const }),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const history = historyOf(original);
        for (const a of actions) {
          if (a.kind === 'undo') history.undo();
          else if (a.kind === 'redo') history.redo();
          else {
            try {
              history.apply(a.recipe);
            } catch (error) {
              if (!(error instanceof EditRefused) && !(error instanceof AssemblyError)) throw error;
            }
          }
          expect(assemblyProblem(history.current)).toBeNull();
        }
        while (history.undo());
        expect(history.current).toBe(original);
        expect(history.current).toEqual(kitchenSink());
      }),
      { numRuns: 60 },
    );
  });
});

describe('assembly edits: part poses and suspension roles', () => {
  it('sets a part pose (dropping a state pose that would override it); the same pose again makes no undo entry', () => {
    const doc = validateAssembly({ ...fourBar(), state: { ...fourBar().state, 'crank.pose': { position: [9, 9, 9], rotation: [1, 0, 0, 0] } } });
    const history = historyOf(doc);
    const pose = { position: [1, 2, 3], rotation: [0, 0, 0, 2] } as const;
    history.apply(setPartPose('crank', pose), 'pose');
    expect(history.current.parts.crank.pose).toEqual(pose);
    expect(Object.hasOwn(history.current.state, 'crank.pose')).toBe(false);
    expect(history.canUndo).toBe(true);
    history.apply(setPartPose('crank', pose), 'again');
    history.undo();
    expect(history.current).toEqual(doc);
    expect(() => edit(doc, setPartPose('nope', pose))).toThrow(AssemblyError);
    expect(() => setPartPose('crank', { position: [NaN, 0, 0], rotation: [1, 0, 0, 0] })).toThrow(AssemblyError);
    expect(() => setPartPose('crank', { position: [0, 0, 0], rotation: [1, 0, 0] as never })).toThrow('rotation: expected a rotation [w, x, y, z]');
  });

  it('sets and removes the suspension section, a copy of what is given', () => {
    const roles = { scope: 'corner', chassis: 'ground', corners: [] as unknown[] };
    const withRoles = edit(fourBar(), setSuspension(roles));
    roles.chassis = 'changed';
    expect((withRoles.suspension as { chassis: string }).chassis).toBe('ground');
    expect(validateAssembly(withRoles).suspension).toEqual({ scope: 'corner', chassis: 'ground', corners: [] });
    const without = edit(withRoles, setSuspension(undefined));
    expect(Object.hasOwn(without, 'suspension')).toBe(false);
    expect(without).toEqual(fourBar());
  });
});
