import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyPatches, produce, type Draft } from 'immer';
import { EditRefused, History, HistoryStateError, type HistoryChange, type Recipe } from '../../src/reactive/history.ts';
import { ArgumentError } from '../../kernel/errors.ts';

/** A small stand-in for the assembly document: named points and links between them. */
interface Point {
  readonly x: number;
  readonly y: number;
}
interface Link {
  readonly a: string;
  readonly b: string;
}
interface SketchDoc {
  readonly points: Readonly<Record<string, Point>>;
  readonly links: readonly Link[];
}

const LIMIT = 100;

/** Every coordinate within ±LIMIT, every link between two existing, distinct points. */
function validateSketch(doc: SketchDoc): string | null {
  for (const [name, p] of Object.entries(doc.points)) {
    if (!(Math.abs(p.x) <= LIMIT && Math.abs(p.y) <= LIMIT)) return `point ${name} is outside ±${LIMIT}`;
  }
  for (const [i, link] of doc.links.entries()) {
    if (!(link.a in doc.points)) return `links[${i}].a: no point ${link.a}`;
    if (!(link.b in doc.points)) return `links[${i}].b: no point ${link.b}`;
    if (link.a === link.b) return `links[${i}]: a link needs two points`;
  }
  return null;
}

function sampleSketch(): SketchDoc {
  return {
    points: { a: { x: 0, y: 0 }, b: { x: 10, y: 0 }, c: { x: 10, y: 10 } },
    links: [
      { a: 'a', b: 'b' },
      { a: 'b', b: 'c' },
    ],
  };
}

const moveTo = (name: string, x: number, y: number): Recipe<SketchDoc> => (d) => {
  d.points[name] = { x, y };
};

function recordEmissions<D>(history: History<D>): D[] {
  const seen: D[] = [];
  history.document$.subscribe((doc) => seen.push(doc));
  return seen;
}

describe('History: edits, undo and redo', () => {
  it('starts with the initial document, frozen, and nothing to undo or redo', () => {
    const initial = sampleSketch();
    const history = new History(initial, { validate: validateSketch });
    expect(history.current).toBe(initial);
    expect(Object.isFrozen(history.current.points.a)).toBe(true);
    expect(history.canUndo).toBe(false);
    expect(history.canRedo).toBe(false);
    expect(history.dirty).toBe(false);
    expect(history.undo()).toBe(false);
    expect(history.redo()).toBe(false);
  });

  it('records one entry per edit whose patches turn before into after and back', () => {
    const history = new History(sampleSketch());
    const before = history.current;
    const after = history.apply(moveTo('a', 3, 4), 'move a');
    expect(after).toBe(history.current);
    expect(after.points.a).toEqual({ x: 3, y: 4 });
    expect(history.undoEntries).toHaveLength(1);
    const [entry] = history.undoEntries;
    expect(entry.label).toBe('move a');
    expect(entry.before).toBe(before);
    expect(entry.after).toBe(after);
    expect(entry.patches).toEqual([{ op: 'replace', path: ['points', 'a'], value: { x: 3, y: 4 } }]);
    expect(applyPatches(before, entry.patches as never)).toEqual(after);
    expect(applyPatches(after, entry.inversePatches as never)).toEqual(before);
  });

  it('undo and redo restore the earlier documents exactly, by identity, sharing untouched parts', () => {
    const history = new History(sampleSketch());
    const doc0 = history.current;
    const doc1 = history.apply(moveTo('a', 1, 1));
    const doc2 = history.apply((d) => {
      d.links.push({ a: 'a', b: 'c' });
    });
    // immer keeps what an edit did not touch.
    expect(doc1.links).toBe(doc0.links);
    expect(doc1.points.b).toBe(doc0.points.b);
    expect(doc2.points).toBe(doc1.points);

    expect(history.undo()).toBe(true);
    expect(history.current).toBe(doc1);
    expect(history.undo()).toBe(true);
    expect(history.current).toBe(doc0);
    expect(history.current).toEqual(sampleSketch());
    expect(history.canUndo).toBe(false);
    expect(history.redo()).toBe(true);
    expect(history.current).toBe(doc1);
    expect(history.redo()).toBe(true);
    expect(history.current).toBe(doc2);
    expect(history.canRedo).toBe(false);
  });

  it('a new edit after undo drops the redo stack', () => {
    const history = new History(sampleSketch());
    history.apply(moveTo('a', 1, 1));
    history.apply(moveTo('a', 2, 2));
    history.undo();
    expect(history.canRedo).toBe(true);
    history.apply(moveTo('b', 5, 5));
    expect(history.canRedo).toBe(false);
    expect(history.redo()).toBe(false);
    expect(history.current.points.a).toEqual({ x: 1, y: 1 });
    expect(history.undoEntries).toHaveLength(2);
  });

  it('an edit that changes nothing records nothing, emits nothing and keeps the redo stack', () => {
    const history = new History(sampleSketch());
    history.apply(moveTo('a', 1, 1));
    history.undo();
    const doc0 = history.current;
    const seen = recordEmissions(history);
    expect(history.apply(() => {})).toBe(doc0);
    expect(
      history.apply((d) => {
        d.points.a.x = d.points.a.x; // assigning the same value is no change to immer
      }),
    ).toBe(doc0);
    expect(seen).toEqual([doc0]);
    expect(history.canUndo).toBe(false);
    expect(history.canRedo).toBe(true);
  });

  it('a recipe may return a replacement document', () => {
    const history = new History(sampleSketch());
    const replacement: SketchDoc = { points: {}, links: [] };
    history.apply(() => replacement, 'clear');
    expect(history.current).toEqual(replacement);
    history.undo();
    expect(history.current).toEqual(sampleSketch());
  });

  it('document$ emits the current document on subscription and on every change', () => {
    const history = new History(sampleSketch());
    const seen = recordEmissions(history);
    const doc0 = history.current;
    const doc1 = history.apply(moveTo('a', 1, 1));
    history.undo();
    history.redo();
    expect(seen).toEqual([doc0, doc1, doc0, doc1]);
    expect(seen[2]).toBe(doc0);
  });

  it('changes$ reports every transition with canUndo, canRedo and dirty', () => {
    const history = new History(sampleSketch());
    const changes: HistoryChange<SketchDoc>[] = [];
    history.changes$.subscribe((c) => changes.push(c));
    history.apply(moveTo('a', 1, 1), 'move a');
    history.beginGesture('drag b');
    history.updateGesture(moveTo('b', 2, 2));
    history.commitGesture();
    history.undo();
    history.markSaved();
    expect(changes.map((c) => [c.kind, c.label, c.canUndo, c.canRedo, c.dirty, c.inGesture])).toEqual([
      ['apply', 'move a', true, false, true, false],
      ['gesture-begin', 'drag b', false, false, true, true],
      ['gesture-update', 'drag b', false, false, true, true],
      ['gesture-commit', 'drag b', true, false, true, false],
      ['undo', 'drag b', true, true, true, false],
      ['saved', '', true, true, false, false],
    ]);
  });

  it('dirty follows the saved document by identity, also through undo and redo', () => {
    const history = new History(sampleSketch());
    history.apply(moveTo('a', 1, 1));
    expect(history.dirty).toBe(true);
    history.markSaved();
    expect(history.dirty).toBe(false);
    history.apply(moveTo('a', 2, 2));
    expect(history.dirty).toBe(true);
    history.undo();
    expect(history.dirty).toBe(false);
    history.undo();
    expect(history.dirty).toBe(true);
    history.redo();
    expect(history.dirty).toBe(false);
  });

  it('limit forgets the oldest entries', () => {
    const history = new History(sampleSketch(), { limit: 2 });
    for (let i = 1; i <= 5; i++) history.apply(moveTo('a', i, 0), `a=${i}`);
    expect(history.undoEntries.map((e) => e.label)).toEqual(['a=4', 'a=5']);
    while (history.undo());
    expect(history.current.points.a).toEqual({ x: 3, y: 0 });
    expect(() => new History(sampleSketch(), { limit: 0 })).toThrow(ArgumentError);
    expect(() => new History(sampleSketch(), { limit: 1.5 })).toThrow('History: limit must be a positive integer or Infinity, got 1.5');
  });

  it('documents are frozen: mutating one outside a recipe throws', () => {
    const history = new History(sampleSketch());
    history.apply(moveTo('a', 1, 1));
    expect(() => {
      (history.current.points.a as { x: number }).x = 5;
    }).toThrow(TypeError);
  });
});

describe('History: validation', () => {
  it('a refused edit throws EditRefused and leaves the document, stacks and stream unchanged', () => {
    const history = new History(sampleSketch(), { validate: validateSketch });
    history.apply(moveTo('a', 1, 1));
    history.apply(moveTo('a', 2, 2));
    history.undo();
    const before = history.current;
    const seen = recordEmissions(history);
    let caught: unknown;
    try {
      history.apply((d) => {
        delete d.points.b;
      }, 'delete b');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EditRefused);
    expect((caught as EditRefused).reason).toBe('links[0].b: no point b');
    expect((caught as EditRefused).label).toBe('delete b');
    expect((caught as EditRefused).message).toBe('delete b: links[0].b: no point b');
    expect(history.current).toBe(before);
    expect(history.undoEntries).toHaveLength(1);
    expect(history.canRedo).toBe(true);
    expect(seen).toEqual([before]);
  });

  it('an initial document that is invalid is refused', () => {
    const bad: SketchDoc = { points: {}, links: [{ a: 'a', b: 'b' }] };
    expect(() => new History(bad, { validate: validateSketch })).toThrow(EditRefused);
  });

  it('a recipe that throws changes nothing', () => {
    const history = new History(sampleSketch(), { validate: validateSketch });
    const before = history.current;
    expect(() =>
      history.apply((d) => {
        d.points.a = { x: 7, y: 7 };
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(history.current).toBe(before);
    expect(history.current.points.a).toEqual({ x: 0, y: 0 });
    expect(history.canUndo).toBe(false);
  });
});

describe('History: gestures', () => {
  it('many updates make one entry, from the start document to the end document', () => {
    const history = new History(sampleSketch(), { validate: validateSketch });
    const start = history.current;
    const seen = recordEmissions(history);
    history.beginGesture('drag c');
    for (let i = 1; i <= 40; i++) history.updateGesture(moveTo('c', 10 + i, 10 - i));
    expect(history.current.points.c).toEqual({ x: 50, y: -30 });
    expect(history.undoEntries).toHaveLength(0); // nothing recorded while dragging
    expect(seen).toHaveLength(41); // the start, then every update live
    const entry = history.commitGesture();
    expect(history.undoEntries).toHaveLength(1);
    expect(entry).toBe(history.undoEntries[0]);
    expect(entry!.label).toBe('drag c');
    expect(entry!.before).toBe(start);
    expect(entry!.after).toBe(history.current);
    expect(entry!.patches).toEqual([{ op: 'replace', path: ['points', 'c'], value: { x: 50, y: -30 } }]);
    expect(applyPatches(start, entry!.inversePatches as never)).toEqual(start);
    expect(applyPatches(entry!.after, entry!.inversePatches as never)).toEqual(start);
    expect(seen).toHaveLength(41); // commit changes nothing visible
    history.undo();
    expect(history.current).toBe(start);
    history.redo();
    expect(history.current).toBe(entry!.after);
  });

  it('each update applies to the start document, replacing the previous update', () => {
    const history = new History(sampleSketch());
    history.beginGesture('nudge');
    history.updateGesture((d) => {
      d.points.a = { x: d.points.a.x + 1, y: 0 };
      d.links.push({ a: 'a', b: 'c' });
    });
    history.updateGesture((d) => {
      d.points.a = { x: d.points.a.x + 2, y: 0 };
    });
    // Not cumulative: x = 0 + 2 (not 0 + 1 + 2), and the link pushed by the first update is gone.
    expect(history.current.points.a).toEqual({ x: 2, y: 0 });
    expect(history.current.links).toHaveLength(2);
    expect(history.commitGesture()!.patches).toEqual([{ op: 'replace', path: ['points', 'a'], value: { x: 2, y: 0 } }]);
  });

  it('cancel rolls back to the start document by identity and records nothing', () => {
    const history = new History(sampleSketch());
    history.apply(moveTo('a', 1, 1));
    history.apply(moveTo('a', 2, 2));
    history.undo();
    const start = history.current;
    const seen = recordEmissions(history);
    history.beginGesture('drag');
    history.updateGesture(moveTo('b', 50, 50));
    history.updateGesture(moveTo('b', 60, 60));
    history.cancelGesture();
    expect(history.current).toBe(start);
    expect(history.inGesture).toBe(false);
    expect(seen[seen.length - 1]).toBe(start);
    expect(history.undoEntries).toHaveLength(1);
    expect(history.canRedo).toBe(true); // cancel keeps the redo stack
  });

  it('a gesture that ends where it started records nothing', () => {
    const history = new History(sampleSketch());
    const start = history.current;
    history.beginGesture('wiggle');
    history.updateGesture(moveTo('a', 5, 5));
    history.updateGesture(() => {});
    expect(history.current).toBe(start);
    expect(history.commitGesture()).toBeNull();
    expect(history.canUndo).toBe(false);
    history.beginGesture('nothing');
    expect(history.commitGesture()).toBeNull();
  });

  it('a refused update keeps the last accepted one live and the gesture open', () => {
    const history = new History(sampleSketch(), { validate: validateSketch });
    history.beginGesture('drag a');
    history.updateGesture(moveTo('a', 90, 0));
    const lastAccepted = history.current;
    expect(() => history.updateGesture(moveTo('a', 120, 0))).toThrow(EditRefused);
    expect(history.current).toBe(lastAccepted);
    expect(history.inGesture).toBe(true);
    const entry = history.commitGesture();
    expect(entry!.after).toBe(lastAccepted);
    expect(entry!.patches).toEqual([{ op: 'replace', path: ['points', 'a'], value: { x: 90, y: 0 } }]);
  });

  it('misuse throws HistoryStateError and changes nothing', () => {
    const history = new History(sampleSketch());
    history.apply(moveTo('a', 1, 1));
    expect(() => history.updateGesture(moveTo('a', 2, 2))).toThrow(HistoryStateError);
    expect(() => history.commitGesture()).toThrow(HistoryStateError);
    expect(() => history.cancelGesture()).toThrow(HistoryStateError);
    history.beginGesture('drag');
    history.updateGesture(moveTo('a', 3, 3));
    const live = history.current;
    expect(() => history.beginGesture('again')).toThrow(HistoryStateError);
    expect(() => history.apply(moveTo('b', 0, 0))).toThrow(HistoryStateError);
    expect(() => history.undo()).toThrow(HistoryStateError);
    expect(() => history.redo()).toThrow(HistoryStateError);
    expect(history.canUndo).toBe(false); // while a gesture is open
    expect(history.current).toBe(live);
    history.commitGesture();
    expect(history.undoEntries).toHaveLength(2);
  });
});

// ---------------------------------------------------------------------------------------
// Property: random edits, undos, redos and gestures never corrupt the document.
// ---------------------------------------------------------------------------------------

const NAMES = ['a', 'b', 'c', 'd', 'e'] as const;
const nameArb = fc.constantFrom(...NAMES);
// Some coordinates lie outside ±LIMIT, so some edits are refused.
const coordArb = fc.integer({ min: -130, max: 130 });

/** A deterministic edit, described as data so a failing case prints readably. */
type EditSpec =
  | { readonly op: 'move'; readonly name: string; readonly x: number; readonly y: number }
  | { readonly op: 'shift'; readonly name: string; readonly dx: number }
  | { readonly op: 'remove'; readonly name: string }
  | { readonly op: 'link'; readonly a: string; readonly b: string }
  | { readonly op: 'unlink'; readonly index: number };

const editArb: fc.Arbitrary<EditSpec> = fc.oneof(
  fc.record({ op: fc.constant('move' as const), name: nameArb, x: coordArb, y: coordArb }),
  fc.record({ op: fc.constant('shift' as const), name: nameArb, dx: fc.integer({ min: -60, max: 60 }) }),
  fc.record({ op: fc.constant('remove' as const), name: nameArb }),
  fc.record({ op: fc.constant('link' as const), a: nameArb, b: nameArb }),
  fc.record({ op: fc.constant('unlink' as const), index: fc.nat(5) }),
);

function recipeOf(spec: EditSpec): Recipe<SketchDoc> {
  return (d) => {
    switch (spec.op) {
      case 'move':
        d.points[spec.name] = { x: spec.x, y: spec.y };
        break;
      case 'shift': {
        const p = d.points[spec.name];
        if (p) p.x += spec.dx;
        break;
      }
      case 'remove':
        delete d.points[spec.name];
        break;
      case 'link':
        d.links.push({ a: spec.a, b: spec.b });
        break;
      case 'unlink':
        if (spec.index < d.links.length) d.links.splice(spec.index, 1);
        break;
    }
  };
}

type Command =
  | { readonly kind: 'edit'; readonly edit: EditSpec }
  | { readonly kind: 'undo' }
  | { readonly kind: 'redo' }
  | { readonly kind: 'gesture'; readonly updates: readonly EditSpec[]; readonly commit: boolean }
  | { readonly kind: 'save' };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('edit' as const), edit: editArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('redo' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('gesture' as const), updates: fc.array(editArb, { maxLength: 6 }), commit: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('save' as const) }) },
);

/** Plain immer, no History: the document the surviving edits give from the start. */
function replay(initial: SketchDoc, edits: readonly EditSpec[]): SketchDoc {
  return edits.reduce((doc, spec) => produce(doc, recipeOf(spec) as (d: Draft<SketchDoc>) => void), initial);
}

/** The result of `spec` on `doc`, or null when the validator refuses it. */
function tryEdit(doc: SketchDoc, spec: EditSpec): SketchDoc | null {
  const next = produce(doc, recipeOf(spec) as (d: Draft<SketchDoc>) => void);
  return validateSketch(next) === null ? next : null;
}

function deepClone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('History: property', () => {
  it('random edits, undos, redos and gestures: the document always equals a replay of the surviving edits', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 40 }), (commands) => {
        const initial = sampleSketch();
        const pristine = deepClone(initial);
        const history = new History(initial, { validate: validateSketch });
        // The model: surviving edits (each entry's equivalent edit) and the redo stack.
        const done: EditSpec[] = [];
        const undone: EditSpec[] = [];
        let savedAt: readonly EditSpec[] = [];
        const seen: SketchDoc[] = [];
        history.document$.subscribe((doc) => seen.push(doc));

        for (const command of commands) {
          const before = history.current;
          switch (command.kind) {
            case 'edit': {
              const expected = tryEdit(before, command.edit);
              if (expected === null) {
                expect(() => history.apply(recipeOf(command.edit))).toThrow(EditRefused);
                expect(history.current).toBe(before);
              } else {
                history.apply(recipeOf(command.edit));
                if (expected !== before) {
                  done.push(command.edit);
                  undone.length = 0;
                }
              }
              break;
            }
            case 'undo': {
              expect(history.undo()).toBe(done.length > 0);
              const spec = done.pop();
              if (spec) undone.push(spec);
              break;
            }
            case 'redo': {
              expect(history.redo()).toBe(undone.length > 0);
              const spec = undone.pop();
              if (spec) done.push(spec);
              break;
            }
            case 'gesture': {
              history.beginGesture('g');
              let last: EditSpec | null = null; // the last accepted update
              for (const update of command.updates) {
                const expected = tryEdit(before, update); // updates apply to the start
                if (expected === null) {
                  const live = history.current;
                  expect(() => history.updateGesture(recipeOf(update))).toThrow(EditRefused);
                  expect(history.current).toBe(live);
                } else {
                  history.updateGesture(recipeOf(update));
                  expect(history.current).toEqual(expected);
                  last = update;
                }
              }
              if (command.commit) {
                const entry = history.commitGesture();
                const changed = last !== null && tryEdit(before, last) !== before;
                expect(entry !== null).toBe(changed);
                if (changed) {
                  done.push(last!);
                  undone.length = 0;
                }
              } else {
                history.cancelGesture();
                expect(history.current).toBe(before);
              }
              break;
            }
            case 'save':
              history.markSaved();
              savedAt = [...done];
              break;
          }
          // Never corrupted: equal to replaying the surviving edits, always valid,
          // stacks in step with the model, entries' patches consistent.
          expect(history.current).toEqual(replay(pristine, done));
          expect(validateSketch(history.current)).toBeNull();
          expect(history.undoEntries).toHaveLength(done.length);
          expect(history.redoEntries).toHaveLength(undone.length);
          expect(seen[seen.length - 1]).toBe(history.current);
          const sameAsSaved = savedAt.length === done.length && savedAt.every((s, i) => s === done[i]);
          if (sameAsSaved) expect(history.dirty).toBe(false);
        }

        for (const entry of [...history.undoEntries, ...history.redoEntries]) {
          expect(applyPatches(entry.before, entry.patches as never)).toEqual(entry.after);
          expect(applyPatches(entry.after, entry.inversePatches as never)).toEqual(entry.before);
        }

        // Redo everything, then undo everything: back to the original, by identity.
        const redoCount = history.redoEntries.length;
        for (let i = 0; i < redoCount; i++) expect(history.redo()).toBe(true);
        const final = history.current;
        expect(final).toEqual(replay(pristine, [...done, ...[...undone].reverse()]));
        while (history.undo());
        expect(history.current).toBe(initial);
        expect(history.current).toEqual(pristine);
        while (history.redo());
        expect(history.current).toBe(final);
      }),
      { numRuns: 300 },
    );
  });
});
