/**
 * The live model: a document with undo and redo, re-solved as it is edited or dragged,
 * with its solved state, analysis and errors as streams. The viewer's model, and the
 * Node-side API for scripts.
 *
 * ```ts
 * const live = new LiveModel(readSuspensionDocument(text), { analyze: (model, solved) => camberOf(model) });
 * live.state$.subscribe((frame) => draw(frame.poses));      // every good solve
 * live.analysis$.subscribe(({ value }) => plot(value));     // its analysis
 * live.errors$.subscribe((e) => hud(e));                    // refusals, failures: values, not throws
 *
 * live.beginDrag({ kind: 'pull', part: 'upright', point: wheelCenter }); // pointerdown on the wheel
 * live.dragTo([x, y, z]);                                             // pointermove: world target
 * live.endDrag();                                                     // pointerup
 *
 * live.beginDrag({ kind: 'hardpoint', name: 'upper_wishbone_inboard_front' });
 * live.dragTo([225, 350, 520]);   // a geometry edit per move, shown live
 * live.endDrag();                 // one undo entry for the whole drag
 * live.history.undo();
 * ```
 *
 * Data flow. Every change of the document (edit, gesture update, undo, redo, cancel) and
 * every pull move becomes a {@link SolveRequest} (the document, the pull). Requests go
 * through `latestPerFrame` (at most one per frame, the newest) and `solveLatest` (one
 * solve in flight, one latest pending, never a queue) to the solver, and the outcomes
 * through `lastGood` (a failure never replaces the last good state). The solver is
 * the in-process {@link LiveEngine} by default; `options.solver` can put anything that
 * answers a request with a frame in its place (a Web Worker running the same engine):
 * the scheduling is the same either way.
 *
 * Two kinds of drag:
 * - `pull`: a point of a movable part pulled toward the pointer (the ranked objective:
 *   the linkage moves the least it must). It changes no document and makes no undo
 *   entry; the solved poses carry it. `cancelDrag` returns to the state at its start.
 * - `hardpoint`: a geometry edit (a suspension hardpoint, or a point of an assembly's
 *   part), one history gesture: each move replaces the last (the document at
 *   pointerdown plus the whole move), `endDrag` commits one undo entry, `cancelDrag`
 *   rolls back.
 *
 * Solved poses, coordinates and analyses are derived data: never in the history. Undo
 * and redo restore documents (by identity) and re-solve from the current solved state.
 *
 * Errors are values on `errors$`: a refused edit or drag move (the document stays as it
 * was), a failed solve (the last good state stays), a solver that threw, an analysis
 * that threw. Only misuse throws (a drag call without a drag, a second drag at once).
 */
import {
  EMPTY,
  ReplaySubject,
  Subject,
  filter,
  merge,
  type Observable,
  type ObservableInput,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import * as P from '../../kernel/pose';
import { splitReference, type Vec3Doc } from '../assembly/types.ts';
import { History, EditRefused, type HistoryEntry } from '../reactive/history.ts';
import { defaultFrameScheduler, lastGood, latestPerFrame, solveLatest, type SolveOutcome, type WithLastGood } from '../reactive/scheduler.ts';
import type { Model } from '../model/build.ts';
import {
  compileDocument,
  hardpointPosition,
  isDocumentError,
  liveEdits,
  type CompiledDocument,
  type LiveDocument,
  type LiveRecipe,
} from './document.ts';
import { LiveEngine, type Analyze, type LiveFrame, type SolveRequest, type WarmState } from './engine.ts';
import type { AssemblyRecipe } from '../assembly/edits.ts';

/** What to grab. */
export type DragSpec =
  /** A point of a movable part (its own frame), pulled toward world targets. */
  | { readonly kind: 'pull'; readonly part: string; readonly point: Vec3Doc }
  /**
   * A hardpoint moved as a geometry edit: for a suspension its name as the assembly
   * writes it (`upper_wishbone_inboard_front`, `left_…` on an axle); for an assembly
   * `part.point`. The targets of `dragTo` are world positions (for a suspension, design
   * positions in chassis axes; the chassis is the world).
   */
  | { readonly kind: 'hardpoint'; readonly name: string };

/** An error, as a value. */
export type LiveError<A = undefined> =
  /** An edit or drag move the document refused; the document is as it was. */
  | { readonly kind: 'refused'; readonly label: string; readonly reason: string }
  /** A solve whose constraints did not close; the last good state stays. */
  | { readonly kind: 'solve-failed'; readonly seq: number; readonly message: string; readonly failed: readonly string[]; readonly frame: LiveFrame<A> }
  /** The solver threw (a model that does not build, a worker that died). */
  | { readonly kind: 'solver-error'; readonly seq: number; readonly message: string; readonly error: unknown }
  /** The analysis hook threw; the solved state is good and was shown. */
  | { readonly kind: 'analysis-failed'; readonly seq: number; readonly message: string; readonly frame: LiveFrame<A> };

/** One analysis result, with the frame it was computed on. */
export interface LiveAnalysis<A> {
  readonly seq: number;
  readonly value: A;
  readonly frame: LiveFrame<A>;
}

/** What an edit did. */
export type EditResult =
  | { readonly ok: true; readonly document: LiveDocument }
  | { readonly ok: false; readonly document: LiveDocument; readonly reason: string };

/** Replaces the in-process solve; receives it, to wrap or ignore. */
export type LiveSolver<A> = (request: SolveRequest, solveInProcess: (request: SolveRequest) => LiveFrame<A>) => ObservableInput<LiveFrame<A>>;

export interface LiveModelOptions<A> {
  /** Runs after every good solve, on the model at the solved state (suspension metrics plug in here). */
  readonly analyze?: Analyze<A>;
  /** The frame clock (default: animation frames in a browser, `asapScheduler` in Node; a TestScheduler in tests). */
  readonly frameScheduler?: SchedulerLike;
  /** Replaces the in-process solve (a worker client; a slow solve in tests). Default: the in-process engine. */
  readonly solver?: LiveSolver<A>;
  /** Most undo entries kept (default: no limit). */
  readonly historyLimit?: number;
}

type ActiveDrag =
  | {
      readonly kind: 'pull';
      readonly dragId: number;
      readonly part: string;
      readonly point: readonly [number, number, number];
      target: readonly [number, number, number];
      /** The state at pointerdown, for cancel. */
      readonly start: WarmState | null;
    }
  | { readonly kind: 'hardpoint'; readonly name: string; readonly label: string };

/** Compiled documents kept for reuse (the validator compiles, the solver needs the result). */
const COMPILE_CACHE_SIZE = 8;

/** A live, solved, undoable document (see the module comment). */
export class LiveModel<A = undefined> {
  /** Undo, redo and gestures of the document. Using it directly is fine: every change is solved. */
  readonly history: History<LiveDocument>;
  /** Every good solve (the last one replayed to a late subscriber). */
  readonly state$: Observable<LiveFrame<A>>;
  /** The analysis of every good solve (the last one replayed to a late subscriber); silent without `analyze`. */
  readonly analysis$: Observable<LiveAnalysis<A>>;
  /** Refused edits, failed solves, solver and analysis exceptions. */
  readonly errors$: Observable<LiveError<A>>;
  /** Every solve outcome with the last good frame beside it (`lastGood` of `src/reactive`). */
  readonly frames$: Observable<WithLastGood<SolveRequest, LiveFrame<A>>>;

  private readonly engine: LiveEngine<A>;
  private readonly requests = new Subject<SolveRequest>();
  private readonly immediate = new Subject<SolveOutcome<SolveRequest, LiveFrame<A>>>();
  private readonly stateSubject = new ReplaySubject<LiveFrame<A>>(1);
  private readonly analysisSubject = new ReplaySubject<LiveAnalysis<A>>(1);
  private readonly errorSubject = new Subject<LiveError<A>>();
  private readonly frameSubject = new Subject<WithLastGood<SolveRequest, LiveFrame<A>>>();
  private readonly subscriptions: Subscription[] = [];
  private readonly compiled = new Map<LiveDocument, CompiledDocument>();
  private seq = 0;
  /** The newest request whose outcome was handled: older outcomes are stale. */
  private handledSeq = 0;
  private dragCount = 0;
  private drag: ActiveDrag | null = null;
  /** The state a cancelled pull returns to, until a solve has used it. */
  private pendingSeed: WarmState | null = null;
  private good: LiveFrame<A> | null = null;

  /**
   * @param document the starting document (see `assemblyDocument`, `suspensionDocument`).
   * @throws EditRefused (label `initial`) if the document does not validate.
   */
  constructor(document: LiveDocument, options: LiveModelOptions<A> = {}) {
    this.history = new History<LiveDocument>(document, {
      validate: (doc) => this.problem(doc),
      ...(options.historyLimit !== undefined ? { limit: options.historyLimit } : {}),
    });
    this.engine = new LiveEngine<A>({ analyze: options.analyze, compile: (doc) => this.compile(doc) });
    this.state$ = this.stateSubject.asObservable();
    this.analysis$ = this.analysisSubject.asObservable();
    this.errors$ = this.errorSubject.asObservable();
    this.frames$ = this.frameSubject.asObservable();

    const inProcess = (request: SolveRequest): LiveFrame<A> => this.engine.solve(request);
    const solver = options.solver;
    const scheduled = this.requests.pipe(
      latestPerFrame<SolveRequest>(options.frameScheduler ?? defaultFrameScheduler()),
      solveLatest<SolveRequest, LiveFrame<A>>((request) =>
        // Already answered by solveNow: nothing to do.
        request.seq <= this.handledSeq ? EMPTY : solver !== undefined ? solver(request, inProcess) : [inProcess(request)],
      ),
    );
    this.subscriptions.push(
      merge(scheduled, this.immediate)
        .pipe(
          filter((outcome) => outcome.input.seq > this.handledSeq),
          lastGood<SolveRequest, LiveFrame<A>>((frame) => frame.good),
        )
        .subscribe((outcome) => this.handle(outcome)),
    );
    // Every document change is solved (the current document first, at once).
    this.subscriptions.push(this.history.document$.subscribe(() => this.requests.next(this.request())));
  }

  /** The current document (during a hardpoint drag: the live one). */
  get document(): LiveDocument {
    return this.history.current;
  }

  /** The newest good frame; null before the first good solve. */
  get lastGood(): LiveFrame<A> | null {
    return this.good;
  }

  /** The drag in progress, if any. */
  get dragging(): DragSpec | null {
    const drag = this.drag;
    if (drag === null) return null;
    return drag.kind === 'pull' ? { kind: 'pull', part: drag.part, point: drag.point } : { kind: 'hardpoint', name: drag.name };
  }

  /** The in-process engine's model (at the last good state between solves); null before the first solve. For scripts that read the kernel state. */
  get model(): Model | null {
    return this.engine.model;
  }

  /**
   * Edits the document (one undo entry). A refusal (the result does not validate, or the
   * recipe found nothing to edit) leaves the document as it was, is reported on
   * `errors$` and returned.
   * @throws HistoryStateError during a hardpoint drag.
   */
  edit(recipe: LiveRecipe, label = 'edit'): EditResult {
    try {
      return { ok: true, document: this.history.apply(recipe, label) };
    } catch (error) {
      return { ok: false, document: this.history.current, reason: this.refusal(error, label) };
    }
  }

  /** Edits an assembly document with an assembly recipe (`src/assembly/edits.ts`). */
  editAssembly(recipe: AssemblyRecipe, label = 'edit'): EditResult {
    return this.edit(liveEdits.assembly(recipe), label);
  }

  /** Undoes one entry (an edit or a whole drag). @returns false when there is nothing to undo. */
  undo(): boolean {
    return this.history.undo();
  }

  /** Redoes one entry. @returns false when there is nothing to redo. */
  redo(): boolean {
    return this.history.redo();
  }

  /**
   * Grabs a point (pointerdown). Refused, with a value on `errors$` and `false`, when
   * there is nothing movable to grab there.
   * @throws Error if a drag is already in progress.
   */
  beginDrag(spec: DragSpec, label?: string): boolean {
    if (this.drag !== null) throw new Error('LiveModel: a drag is already in progress (end or cancel it first)');
    if (spec.kind === 'pull') {
      const start = this.lastGood ?? this.solveNow();
      const model = this.engine.model;
      const variable = model?.parts.get(spec.part);
      const what = label ?? `pull ${spec.part}`;
      if (model === null || variable === undefined) return this.refuse(what, `no part "${spec.part}"`);
      if (model.system.variables[variable].fixed) return this.refuse(what, `part "${spec.part}" is fixed: it cannot be pulled`);
      const point: [number, number, number] = [spec.point[0], spec.point[1], spec.point[2]];
      if (!point.every(Number.isFinite)) return this.refuse(what, 'the grabbed point must have finite coordinates');
      const pose = (start.good ? start.poses[spec.part] : undefined) ?? P.poseToJSON(model.system.getPose(variable));
      const here = P.applyPoint(new Float64Array(3), P.pose(pose.position, pose.rotation), point);
      this.drag = {
        kind: 'pull',
        dragId: ++this.dragCount,
        part: spec.part,
        point,
        target: [here[0], here[1], here[2]],
        start: this.engine.warmState,
      };
      return true;
    }
    const what = label ?? `move ${spec.name}`;
    try {
      this.hardpointStart(spec.name);
    } catch (error) {
      return this.refuse(what, this.messageOf(error));
    }
    this.history.beginGesture(what);
    this.drag = { kind: 'hardpoint', name: spec.name, label: what };
    return true;
  }

  /**
   * Moves the grabbed point's target (pointermove), world coordinates. For a hardpoint
   * this edits the live document (refused moves leave it at the last accepted one, and
   * return false); for a pull it only asks for a solve.
   * @throws Error if no drag is in progress.
   */
  dragTo(target: Vec3Doc): boolean {
    const drag = this.drag;
    if (drag === null) throw new Error('LiveModel: dragTo without a drag');
    const xyz: [number, number, number] = [target[0], target[1], target[2]];
    if (drag.kind === 'pull') {
      if (!xyz.every(Number.isFinite)) return this.refuse(`pull ${drag.part}`, 'the target must have finite coordinates');
      drag.target = xyz;
      this.requests.next(this.request());
      return true;
    }
    try {
      this.history.updateGesture(liveEdits.moveHardpoint(drag.name, this.hardpointCoordinates(drag.name, xyz)));
      return true;
    } catch (error) {
      this.refusal(error, drag.label);
      return false;
    }
  }

  /**
   * Lets go (pointerup). A hardpoint drag becomes one undo entry (returned; null if it
   * changed nothing); a pull leaves the linkage where it was pulled (returns null).
   * @throws Error if no drag is in progress.
   */
  endDrag(): HistoryEntry<LiveDocument> | null {
    const drag = this.drag;
    if (drag === null) throw new Error('LiveModel: endDrag without a drag');
    this.drag = null;
    return drag.kind === 'hardpoint' ? this.history.commitGesture() : null;
  }

  /**
   * Abandons the drag (Escape): a hardpoint drag rolls the document back to its start;
   * a pull returns the linkage to the state at its start.
   * @throws Error if no drag is in progress.
   */
  cancelDrag(): void {
    const drag = this.drag;
    if (drag === null) throw new Error('LiveModel: cancelDrag without a drag');
    this.drag = null;
    if (drag.kind === 'hardpoint') {
      this.history.cancelGesture();
      return;
    }
    if (drag.start !== null) {
      this.pendingSeed = drag.start;
      this.requests.next(this.request());
    }
  }

  /**
   * Solves the current document (and pull) now, in-process, bypassing the frame clock;
   * the outcome goes out on the streams like any other, and a request still waiting
   * for its frame is then skipped. For scripts and tests (with an asynchronous
   * `options.solver`, do not mix the two).
   * @returns the frame (good or not).
   * @throws what the engine throws (a model that does not build), after reporting it on `errors$`.
   */
  solveNow(): LiveFrame<A> {
    const request = this.request();
    let frame: LiveFrame<A>;
    try {
      frame = this.engine.solve(request);
    } catch (error) {
      this.immediate.next({ kind: 'error', input: request, error });
      throw error;
    }
    this.immediate.next({ kind: 'ok', input: request, output: frame });
    return frame;
  }

  /** Stops solving and completes every stream. The model must not be used afterwards. */
  dispose(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions.length = 0;
    this.history.dispose();
    this.requests.complete();
    this.immediate.complete();
    this.stateSubject.complete();
    this.analysisSubject.complete();
    this.errorSubject.complete();
    this.frameSubject.complete();
  }

  // ---- internals ----

  private request(): SolveRequest {
    const drag = this.drag;
    const pull =
      drag !== null && drag.kind === 'pull' ? { dragId: drag.dragId, part: drag.part, point: drag.point, target: drag.target } : null;
    return {
      seq: ++this.seq,
      document: this.history.current,
      pull,
      ...(this.pendingSeed !== null ? { seed: this.pendingSeed } : {}),
      diagnose: drag === null,
    };
  }

  private handle(outcome: WithLastGood<SolveRequest, LiveFrame<A>>): void {
    const latest = outcome.latest;
    this.handledSeq = Math.max(this.handledSeq, latest.input.seq);
    if (latest.input.seed !== undefined && latest.input.seed === this.pendingSeed) this.pendingSeed = null;
    if (latest.kind === 'ok' && outcome.good) this.good = latest.output;
    this.frameSubject.next(outcome);
    if (latest.kind === 'error') {
      this.errorSubject.next({ kind: 'solver-error', seq: latest.input.seq, message: this.messageOf(latest.error), error: latest.error });
      return;
    }
    const frame = latest.output;
    if (!outcome.good) {
      this.errorSubject.next({
        kind: 'solve-failed',
        seq: frame.seq,
        message: frame.result.message ?? 'constraints do not hold',
        failed: frame.result.failed ?? [],
        frame,
      });
      return;
    }
    this.stateSubject.next(frame);
    if (frame.analysisError !== undefined) {
      this.errorSubject.next({ kind: 'analysis-failed', seq: frame.seq, message: frame.analysisError, frame });
    } else if (frame.analysis !== undefined) {
      this.analysisSubject.next({ seq: frame.seq, value: frame.analysis, frame });
    }
  }

  /** The validation hook: compiles (and caches) the document. */
  private problem(document: LiveDocument): string | null {
    try {
      this.compile(document);
      return null;
    } catch (error) {
      if (isDocumentError(error)) return error.message;
      throw error;
    }
  }

  private compile(document: LiveDocument): CompiledDocument {
    const cached = this.compiled.get(document);
    if (cached !== undefined) {
      // most recently used last
      this.compiled.delete(document);
      this.compiled.set(document, cached);
      return cached;
    }
    const compiled = compileDocument(document);
    this.compiled.set(document, compiled);
    if (this.compiled.size > COMPILE_CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value as LiveDocument);
    return compiled;
  }

  /** Where a hardpoint is now (world); throws a document error if there is none. */
  private hardpointStart(name: string): [number, number, number] {
    const document = this.history.current;
    if (document.kind === 'suspension') return hardpointPosition(document.geometry, name);
    const { part, point } = splitPoint(name);
    const partDoc = document.doc.parts[part];
    const local = Object.hasOwn(document.doc.parts, part) && partDoc.points !== undefined && Object.hasOwn(partDoc.points, point) ? partDoc.points[point] : undefined;
    if (local === undefined) throw new EditRefused('', `parts.${part}.points.${point}: no point "${point}" on part "${part}"`);
    const w = P.applyPoint(new Float64Array(3), this.partPose(part), local);
    return [w[0], w[1], w[2]];
  }

  /** The coordinates a hardpoint move writes: a suspension's design position as given, an assembly point in its part's frame. */
  private hardpointCoordinates(name: string, world: [number, number, number]): [number, number, number] {
    const document = this.history.current;
    if (document.kind === 'suspension') return world;
    const local = P.applyInversePoint(new Float64Array(3), this.partPose(splitPoint(name).part), world);
    return [local[0], local[1], local[2]];
  }

  /** A part's pose: solved when there is a good frame, else as the document places it. */
  private partPose(part: string): P.Pose {
    const solved = this.good?.poses[part];
    if (solved !== undefined) return P.pose(solved.position, solved.rotation);
    const document = this.history.current;
    if (document.kind !== 'assembly') return P.pose();
    const fromState = document.doc.state[`${part}.pose`];
    const pose = typeof fromState === 'object' && fromState !== null ? fromState : document.doc.parts[part].pose;
    return P.pose(pose.position, pose.rotation);
  }

  private refuse(label: string, reason: string): false {
    this.errorSubject.next({ kind: 'refused', label, reason });
    return false;
  }

  /** Reports a refused edit and returns its reason; rethrows what is not a refusal. */
  private refusal(error: unknown, label: string): string {
    let reason: string;
    if (error instanceof EditRefused) reason = error.reason;
    else if (isDocumentError(error)) reason = error.message;
    else if (error instanceof RangeError) reason = error.message;
    else throw error;
    this.refuse(label, reason);
    return reason;
  }

  private messageOf(error: unknown): string {
    if (error instanceof EditRefused) return error.reason;
    return error instanceof Error ? error.message : String(error);
  }
}

function splitPoint(name: string): { part: string; point: string } {
  const ref = splitReference(name);
  return ref === undefined ? { part: name, point: '' } : { part: ref.owner, point: ref.name };
}
