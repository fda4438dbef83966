/**
 * Undo/redo over an immutable document, one entry per edit or per gesture.
 *
 * The document is plain immutable data edited through immer recipes. Every committed
 * change becomes one {@link HistoryEntry} holding the immer patches that turn the
 * document before into the document after, and the inverse patches that turn it back
 * (`produceWithPatches`). A drag is a gesture: {@link History.beginGesture} remembers
 * the document at pointerdown, {@link History.updateGesture} shows each pointer move
 * live without touching the undo stack, {@link History.commitGesture} records the
 * whole drag as one entry at pointerup, and {@link History.cancelGesture} (Escape)
 * rolls back to the remembered document.
 *
 * What belongs here: the user's document only. Solved poses, coordinates and metrics
 * are derived from it downstream and never enter the history.
 *
 * Guarantees:
 * - `current` is always a document the `validate` hook accepted (the initial one
 *   included); an edit whose result is refused leaves `current` exactly as it was.
 * - Undo and redo restore the very document objects seen before (`===`), so consumers
 *   may memoise on identity; the patches in each entry describe the same change for
 *   whoever needs a diff (incremental rebuilds, persistence, collaboration).
 * - A change that changes nothing (no patches) creates no entry and emits nothing.
 *
 * Documents are deep-frozen (immer auto-freeze; the initial document is frozen by the
 * constructor), so accidental mutation outside a recipe throws in strict mode.
 */
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { ArgumentError, InternalError, KinemateError } from '../../kernel/errors.ts';
import { enablePatches, freeze, produceWithPatches, type Draft, type Patch } from 'immer';

enablePatches();

/**
 * An immer recipe: mutate the draft in place (the usual form), or return a complete
 * replacement document, exactly as `immer.produce` allows.
 */
export type Recipe<D> = (draft: Draft<D>) => void | D;

/** The validation hook: `null` when the document is acceptable, otherwise the reason. */
export type Validator<D> = (doc: D) => string | null;

/** One undo step: an edit made by {@link History.apply}, or a whole gesture. */
export interface HistoryEntry<D> {
  /** What the user did, for an "Undo <label>" menu item. */
  readonly label: string;
  /** Turn `before` into `after` (immer `applyPatches`). */
  readonly patches: readonly Patch[];
  /** Turn `after` back into `before`. */
  readonly inversePatches: readonly Patch[];
  /** The document before the change (restored by undo, by identity). */
  readonly before: D;
  /** The document after the change (restored by redo, by identity). */
  readonly after: D;
}

/** What happened, as reported on {@link History.changes$}. */
export type HistoryChangeKind =
  | 'apply' // an edit was committed as one entry
  | 'gesture-begin'
  | 'gesture-update' // the live document changed during a gesture (no entry yet)
  | 'gesture-commit' // the gesture became one entry (or none, if it changed nothing)
  | 'gesture-cancel' // the gesture was rolled back to its start
  | 'undo'
  | 'redo'
  | 'saved'; // markSaved() was called

/** A notification on {@link History.changes$}, with the history's state after it. */
export interface HistoryChange<D> {
  readonly kind: HistoryChangeKind;
  /** The label of the edit, gesture or entry concerned (`''` for `saved`). */
  readonly label: string;
  readonly document: D;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly dirty: boolean;
  readonly inGesture: boolean;
}

/** Options for {@link History}. */
export interface HistoryOptions<D> {
  /**
   * Called on every candidate document (the initial one, each edit's result, each
   * gesture update's result). A non-null string refuses the change with that reason.
   * It must be pure: undo and redo return to documents it accepted before and do not
   * call it again. If it throws, the exception propagates and nothing changes.
   */
  readonly validate?: Validator<D>;
  /**
   * The most undo entries kept; the oldest are forgotten beyond it. Default: no limit
   * (entries share structure with the documents, so each costs about its change).
   */
  readonly limit?: number;
}

/**
 * Thrown when the `validate` hook refuses an edit (or the initial document). The
 * document is left exactly as it was before the call.
 *
 * Refusal throws rather than returning a status so that it cannot be ignored by
 * accident: a caller that expects refusals (a what-if panel, a drag that may leave the
 * valid region) catches `EditRefused` and shows `reason`.
 */
export class EditRefused extends KinemateError {
  override readonly name = 'EditRefused';
  /** The label of the refused edit or gesture (also its `path`). */
  readonly label: string;

  constructor(label: string, reason: string) {
    super(label, reason);
    this.label = label;
  }
}

/**
 * Thrown when the history is used out of order: an edit, an undo or a new gesture
 * while a gesture is open, or a gesture call while none is open. These are programming
 * errors, not user errors; nothing changes.
 */
export class HistoryStateError extends InternalError {
  override readonly name = 'HistoryStateError';
}

interface OpenGesture<D> {
  readonly label: string;
  /** The document at `beginGesture`, the base of every update. */
  readonly start: D;
  /** Patches from `start` to the live document (empty until an update changes it). */
  patches: Patch[];
  inversePatches: Patch[];
}

/**
 * Undo/redo history of an immutable document `D` (see the module comment).
 *
 * ```ts
 * const history = new History(initialDoc, { validate: checkDoc });
 * history.apply(d => { d.points.a.x = 10; }, 'move a');       // one entry
 * history.beginGesture('drag b');                             // pointerdown
 * history.updateGesture(d => { d.points.b.x = start + dx; }); // pointermove (live)
 * history.commitGesture();                                    // pointerup: one entry
 * history.undo();                                             // back before the drag
 * ```
 */
export class History<D> {
  private readonly validator: Validator<D> | undefined;
  private readonly limit: number;
  private readonly subject: BehaviorSubject<D>;
  private readonly changeSubject = new Subject<HistoryChange<D>>();
  private readonly undoStack: HistoryEntry<D>[] = [];
  private readonly redoStack: HistoryEntry<D>[] = [];
  private gesture: OpenGesture<D> | null = null;
  private saved: D;

  /**
   * The current document after every change, starting with the current one on
   * subscription (BehaviorSubject semantics). Emits on every change to `current`:
   * edits, gesture updates, cancels, undo, redo; never for a change that changes
   * nothing.
   */
  readonly document$: Observable<D>;

  /**
   * Every state transition, including those that leave the document as it is
   * (`gesture-commit`, `saved`), so a toolbar can track `canUndo`/`canRedo`/`dirty`.
   * Emits nothing on subscription.
   */
  readonly changes$: Observable<HistoryChange<D>>;

  /**
   * @param initial the starting document; deep-frozen in place.
   * @throws EditRefused (label `'initial'`) if `validate` refuses it.
   * @throws ArgumentError if `limit` is not a positive integer or `Infinity`.
   */
  constructor(initial: D, options: HistoryOptions<D> = {}) {
    const limit = options.limit ?? Infinity;
    if (!(limit === Infinity || (Number.isInteger(limit) && limit > 0))) {
      throw new ArgumentError('limit', `must be a positive integer or Infinity, got ${limit}`, `History: limit must be a positive integer or Infinity, got ${limit}`);
    }
    this.limit = limit;
    this.validator = options.validate;
    const reason = this.validator?.(initial) ?? null;
    if (reason !== null) throw new EditRefused('initial', reason);
    const frozen = freeze(initial, true);
    this.saved = frozen;
    this.subject = new BehaviorSubject<D>(frozen);
    this.document$ = this.subject.asObservable();
    this.changes$ = this.changeSubject.asObservable();
  }

  /** The live document (during a gesture: the gesture's latest accepted update). */
  get current(): D {
    return this.subject.getValue();
  }

  /** True when there is an entry to undo and no gesture is open. */
  get canUndo(): boolean {
    return this.gesture === null && this.undoStack.length > 0;
  }

  /** True when there is an entry to redo and no gesture is open. */
  get canRedo(): boolean {
    return this.gesture === null && this.redoStack.length > 0;
  }

  /** True between `beginGesture` and `commitGesture`/`cancelGesture`. */
  get inGesture(): boolean {
    return this.gesture !== null;
  }

  /** The entries undo would walk back through, oldest first (a read-only view). */
  get undoEntries(): readonly HistoryEntry<D>[] {
    return this.undoStack;
  }

  /** The entries redo would walk forward through, next one last (a read-only view). */
  get redoEntries(): readonly HistoryEntry<D>[] {
    return this.redoStack;
  }

  /**
   * True when `current` is not the document last marked saved (by identity: undoing
   * back to the saved document makes the history clean again).
   */
  get dirty(): boolean {
    return this.current !== this.saved;
  }

  /** Marks `current` as the saved document (call after writing it out). */
  markSaved(): void {
    this.saved = this.current;
    this.notify('saved', '');
  }

  /**
   * Edits the current document and records the change as one undo entry, dropping
   * the redo stack. An edit that changes nothing records nothing.
   *
   * @returns the new current document.
   * @throws EditRefused if `validate` refuses the result (nothing changes).
   * @throws HistoryStateError while a gesture is open.
   * @throws whatever `recipe` throws (nothing changes).
   */
  apply(recipe: Recipe<D>, label = 'edit'): D {
    if (this.gesture) {
      throw new HistoryStateError(`History: cannot apply '${label}' while gesture '${this.gesture.label}' is open`);
    }
    const before = this.current;
    const [after, patches, inversePatches] = this.produce(before, recipe, label);
    if (patches.length === 0) return before;
    this.record({ label, patches, inversePatches, before, after });
    this.subject.next(after);
    this.notify('apply', label);
    return after;
  }

  /**
   * Opens a gesture (pointerdown): remembers the current document as its start.
   * @throws HistoryStateError if a gesture is already open.
   */
  beginGesture(label = 'gesture'): void {
    if (this.gesture) {
      throw new HistoryStateError(`History: cannot begin '${label}' while gesture '${this.gesture.label}' is open`);
    }
    this.gesture = { label, start: this.current, patches: [], inversePatches: [] };
    this.notify('gesture-begin', label);
  }

  /**
   * Shows one step of the gesture (pointermove) without creating an entry.
   *
   * Each update is applied to the document remembered at `beginGesture`, NOT to the
   * previous update: it replaces the previous update. Write the recipe in absolute
   * terms ("point = start + total pointer delta"), so a dropped or refused move never
   * accumulates error. A refused update leaves the live document at the last accepted
   * update and the gesture open.
   *
   * @returns the new live document.
   * @throws EditRefused if `validate` refuses the result.
   * @throws HistoryStateError if no gesture is open.
   */
  updateGesture(recipe: Recipe<D>): D {
    const gesture = this.gesture;
    if (!gesture) throw new HistoryStateError('History: updateGesture without an open gesture');
    const [next, patches, inversePatches] = this.produce(gesture.start, recipe, gesture.label);
    gesture.patches = patches;
    gesture.inversePatches = inversePatches;
    if (next === this.current) return next;
    this.subject.next(next);
    this.notify('gesture-update', gesture.label);
    return next;
  }

  /**
   * Closes the gesture (pointerup) and records it as exactly one undo entry, with the
   * patches from the start document to the live one; drops the redo stack. A gesture
   * that ended where it started records nothing. The document does not change here
   * (it already shows the gesture), so `document$` does not emit.
   *
   * @returns the entry recorded, or `null` if the gesture changed nothing.
   * @throws HistoryStateError if no gesture is open.
   */
  commitGesture(): HistoryEntry<D> | null {
    const gesture = this.gesture;
    if (!gesture) throw new HistoryStateError('History: commitGesture without an open gesture');
    this.gesture = null;
    let entry: HistoryEntry<D> | null = null;
    if (gesture.patches.length > 0) {
      entry = {
        label: gesture.label,
        patches: gesture.patches,
        inversePatches: gesture.inversePatches,
        before: gesture.start,
        after: this.current,
      };
      this.record(entry);
    }
    this.notify('gesture-commit', gesture.label);
    return entry;
  }

  /**
   * Closes the gesture (Escape) and restores the start document (by identity).
   * Creates no entry; the redo stack is kept.
   * @throws HistoryStateError if no gesture is open.
   */
  cancelGesture(): void {
    const gesture = this.gesture;
    if (!gesture) throw new HistoryStateError('History: cancelGesture without an open gesture');
    this.gesture = null;
    if (this.current !== gesture.start) this.subject.next(gesture.start);
    this.notify('gesture-cancel', gesture.label);
  }

  /**
   * Steps back one entry, restoring its `before` document by identity.
   * @returns false (and does nothing) when there is nothing to undo.
   * @throws HistoryStateError while a gesture is open (commit or cancel it first).
   */
  undo(): boolean {
    this.assertNoGesture('undo');
    const entry = this.undoStack.pop();
    if (!entry) return false;
    this.redoStack.push(entry);
    this.subject.next(entry.before);
    this.notify('undo', entry.label);
    return true;
  }

  /**
   * Steps forward one undone entry, restoring its `after` document by identity.
   * @returns false (and does nothing) when there is nothing to redo.
   * @throws HistoryStateError while a gesture is open.
   */
  redo(): boolean {
    this.assertNoGesture('redo');
    const entry = this.redoStack.pop();
    if (!entry) return false;
    this.undoStack.push(entry);
    this.subject.next(entry.after);
    this.notify('redo', entry.label);
    return true;
  }

  /** Completes `document$` and `changes$`. The history must not be used afterwards. */
  dispose(): void {
    this.subject.complete();
    this.changeSubject.complete();
  }

  private produce(base: D, recipe: Recipe<D>, label: string): [D, Patch[], Patch[]] {
    // Draft<D> and D differ only in readonly-ness; immer's recipe type cannot see
    // that through a type parameter, hence the cast.
    const [next, patches, inversePatches] = produceWithPatches(base, recipe as (draft: Draft<D>) => void) as [D, Patch[], Patch[]];
    if (patches.length === 0) return [base, patches, inversePatches];
    const reason = this.validator?.(next) ?? null;
    if (reason !== null) throw new EditRefused(label, reason);
    return [next, patches, inversePatches];
  }

  private record(entry: HistoryEntry<D>): void {
    this.undoStack.push(entry);
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack.length = 0;
  }

  private assertNoGesture(action: string): void {
    if (this.gesture) {
      throw new HistoryStateError(`History: cannot ${action} while gesture '${this.gesture.label}' is open`);
    }
  }

  private notify(kind: HistoryChangeKind, label: string): void {
    this.changeSubject.next({
      kind,
      label,
      document: this.current,
      canUndo: this.canUndo,
      canRedo: this.canRedo,
      dirty: this.dirty,
      inGesture: this.inGesture,
    });
  }
}
