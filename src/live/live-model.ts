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
import { EMPTY, Subject, filter, merge, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import * as P from '../../kernel/pose';
import type { Vec3Doc } from '../assembly/types.ts';
import { History, type HistoryEntry } from '../reactive/history.ts';
import {
  defaultFrameScheduler, lastGood, latestPerFrame, solveLatest, type SolveFunction, type SolveOutcome, type WithLastGood,
} from '../reactive/scheduler.ts';
import type { Model } from '../model/build.ts';
import { liveEdits, type CompiledDocument, type LiveDocument, type LiveRecipe } from './document.ts';
import { CompileCache } from './compile-cache.ts';
import { hardpointCoordinates, hardpointStart, pullStrategy, type ActiveDrag } from './drag-geometry.ts';
import { LiveOutputs, messageOf } from './live-outputs.ts';
import { LiveEngine, type LiveFrame, type SolveRequest, type WarmState } from './engine.ts';
import type { AssemblyRecipe } from '../assembly/edits.ts';
import { ArgumentError, InternalError } from '../../kernel/errors.ts';

export type { DragSpec, PullStrategy, LiveLane, LiveFrameCore, LiveRequest, LiveError, LiveAnalysis, EditResult, LiveSolver, LiveModelOptions } from './live-types.ts';
import type {
  DragSpec, LiveLane, LiveFrameCore, LiveRequest, LiveError, LiveAnalysis, EditResult, LiveSolver, LiveModelOptions,
} from './live-types.ts';

/**
 * A live, solved, undoable document (see the module comment).
 *
 * `A` is the analysis of the in-process engine's frames. `F` is the frame type when a
 * remote solver answers with frames of its own (`options.remote`), `S` the view settings
 * carried on every request.
 */
export class LiveModel<A = undefined, F extends LiveFrameCore = LiveFrame<A>, S = undefined> {
  /** Undo, redo and gestures of the document. Using it directly is fine: every change is solved. */
  readonly history: History<LiveDocument>;
  /** Every good solve (the last one replayed to a late subscriber). */
  readonly state$: Observable<F>;
  /** The analysis of every good solve (the last one replayed to a late subscriber); silent without `analyze`. */
  readonly analysis$: Observable<LiveAnalysis<A>>;
  /** Refused edits, failed solves, solver and analysis exceptions. */
  readonly errors$: Observable<LiveError<A, F>>;
  /** Every solve outcome with the last good frame beside it (`lastGood` of `src/reactive`). */
  readonly frames$: Observable<WithLastGood<LiveRequest<S>, F>>;

  private readonly engine: LiveEngine<A>;
  private readonly remote: boolean;
  private readonly frameScheduler: SchedulerLike;
  private readonly leading: boolean;
  private readonly lanes: Subject<unknown>[] = [];
  private readonly outputs: LiveOutputs<A, F, S>;
  private readonly requests = new Subject<LiveRequest<S>>();
  private readonly immediate = new Subject<SolveOutcome<LiveRequest<S>, F>>();
  private readonly subscriptions: Subscription[] = [];
  private readonly compiled = new CompileCache();
  /** Document versions, by document (see {@link LiveModel.versionOf}). */
  private readonly versions = new WeakMap<LiveDocument, number>();
  private nextVersion = 1;
  private currentSettings: S;
  private seq = 0;
  /** The newest request whose outcome was handled: older outcomes are stale. */
  private handledSeq = 0;
  private dragCount = 0;
  private drag: ActiveDrag | null = null;
  /** The state a cancelled pull returns to, until a solve has used it. */
  private pendingSeed: WarmState | null = null;
  /** The drag whose start a remote solver is to return to, until a request has carried it. */
  private pendingCancel: number | null = null;
  /** The next request starts from the document's own state (see {@link LiveModel.resolve}). */
  private pendingFresh = false;
  /** The newest request that carried a pull. */
  private lastPullSeq = 0;
  /** A solve asked for after a pull ended, before its last move was answered (see `send`). */
  private sendAfterPull = false;
  private good: F | null = null;

  /**
   * @param document the starting document (see `assemblyDocument`, `suspensionDocument`).
   * @throws EditRefused (label `initial`) if the document does not validate.
   */
  constructor(document: LiveDocument, options: LiveModelOptions<A, F, S> = {}) {
    this.history = new History<LiveDocument>(document, {
      validate: (doc) => this.compiled.problem(doc),
      ...(options.historyLimit !== undefined ? { limit: options.historyLimit } : {}),
    });
    this.engine = new LiveEngine<A>({ analyze: options.analyze, compile: (doc) => this.compiled.compile(doc) });
    this.remote = options.remote === true;
    this.frameScheduler = options.frameScheduler ?? defaultFrameScheduler();
    this.leading = options.leading === true;
    this.currentSettings = options.settings as S;
    this.outputs = new LiveOutputs<A, F, S>(this.remote, options.failureOf);
    ({ state$: this.state$, analysis$: this.analysis$, errors$: this.errors$, frames$: this.frames$ } = this.outputs);

    const inProcess = (request: SolveRequest): LiveFrame<A> => this.engine.solve(request);
    const solver = options.solver;
    if (solver === undefined && this.remote) throw new ArgumentError('options.solver', 'a remote model needs one', 'LiveModel: a remote model needs options.solver');
    const scheduled = this.requests.pipe(
      latestPerFrame<LiveRequest<S>>(this.frameScheduler, { leading: this.leading }),
      solveLatest<LiveRequest<S>, F>((request) => {
        // Already answered by solveNow: nothing to do. (Without a solver, F is LiveFrame<A>.)
        if (request.seq <= this.handledSeq) return EMPTY;
        this.dispatched(request);
        return solver !== undefined ? solver(request, inProcess) : [asModelFrame<A, F>(inProcess(request))];
      }),
    );
    this.subscriptions.push(
      merge(scheduled, this.immediate)
        .pipe(
          filter((outcome) => outcome.input.seq > this.handledSeq),
          lastGood<LiveRequest<S>, F>((frame) => frame.good),
        )
        .subscribe((outcome) => this.handle(outcome)),
    );
    // Every document change is solved (the current document first, at once).
    this.subscriptions.push(this.history.document$.subscribe(() => this.send()));
  }

  /** The current document (during a hardpoint drag: the live one). */
  get document(): LiveDocument {
    return this.history.current;
  }

  /** The newest good frame; null before the first good solve. */
  get lastGood(): F | null {
    return this.good;
  }

  /** The seq of the newest request made (its frame carries it back). */
  get requestSeq(): number {
    return this.seq;
  }

  /**
   * The version of a document: a number given to each document object this model has
   * held, different for every one. Requests carry it; a solver behind a worker (where
   * every document arrives as a new object) tells documents apart by it.
   */
  versionOf(document: LiveDocument): number {
    let version = this.versions.get(document);
    if (version === undefined) {
      version = this.nextVersion++;
      this.versions.set(document, version);
    }
    return version;
  }

  /**
   * A document compiled: the one compile its validation made (kept for the newest few
   * documents), for a lane that solves the document elsewhere (a sweep in a worker) to
   * carry instead of compiling it again. @throws what compiling throws, for a document
   * this model never validated that does not compile.
   */
  compiledOf(document: LiveDocument): CompiledDocument {
    return this.compiled.compile(document);
  }

  /** The view settings every request carries (what the solver needs beside the document: a suspension's wheel travel, a load case). */
  get settings(): S {
    return this.currentSettings;
  }

  /**
   * Replaces the view settings. They are not part of the document: no undo entry. By
   * default the current document is solved again with them; `solve: false` only records
   * them for the next request (settings a frame reported, e.g. where a pull left a
   * suspension's wheel).
   */
  setSettings(settings: S, options: { solve?: boolean } = {}): void {
    this.currentSettings = settings;
    if (options.solve !== false) this.send();
  }

  /**
   * Solves the current document again (next frame). `fresh`: from the document's own
   * state, nothing carried from earlier solves (back to where the document puts the parts;
   * a suspension at its view solved from design).
   */
  resolve(options: { fresh?: boolean } = {}): void {
    if (options.fresh === true) this.pendingFresh = true;
    this.send();
  }

  /** The drag in progress, if any. */
  get dragging(): DragSpec | null {
    const drag = this.drag;
    if (drag === null) return null;
    return drag.kind === 'pull' ? { kind: 'pull', part: drag.part, point: drag.point, ...drag.strategy } : { kind: 'hardpoint', name: drag.name };
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
      return { ok: false, document: this.history.current, reason: this.outputs.refusal(error, label) };
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
   * @throws InternalError if a drag is already in progress.
   */
  beginDrag(spec: DragSpec, label?: string): boolean {
    if (this.drag !== null) throw new InternalError('LiveModel: a drag is already in progress (end or cancel it first)');
    if (spec.kind === 'pull') {
      const strategy = pullStrategy(spec);
      if (this.remote) {
        // the solver (elsewhere) checks the part; the target is set by the first dragTo
        const point: [number, number, number] = [spec.point[0], spec.point[1], spec.point[2]];
        this.drag = { kind: 'pull', dragId: ++this.dragCount, part: spec.part, point, target: point, strategy, start: null, startSettings: this.currentSettings };
        return true;
      }
      const start = (this.lastGood as LiveFrame<A> | null) ?? this.solveNow();
      const model = this.engine.model;
      const variable = model?.parts.get(spec.part);
      const what = label ?? `pull ${spec.part}`;
      if (model === null || variable === undefined) return this.outputs.refuse(what, `no part "${spec.part}"`);
      if (model.system.variables[variable].fixed) return this.outputs.refuse(what, `part "${spec.part}" is fixed: it cannot be pulled`);
      const point: [number, number, number] = [spec.point[0], spec.point[1], spec.point[2]];
      if (!point.every(Number.isFinite)) return this.outputs.refuse(what, 'the grabbed point must have finite coordinates');
      const pose = (start.good ? start.poses[spec.part] : undefined) ?? P.poseToJSON(model.system.getPose(variable));
      const here = P.applyPoint(new Float64Array(3), P.pose(pose.position, pose.rotation), point);
      this.drag = {
        kind: 'pull',
        dragId: ++this.dragCount,
        part: spec.part,
        point,
        target: [here[0], here[1], here[2]],
        strategy,
        start: this.engine.warmState,
        startSettings: this.currentSettings,
      };
      return true;
    }
    const what = label ?? `move ${spec.name}`;
    try {
      hardpointStart(this.history.current, this.remote ? null : this.good, spec.name);
    } catch (error) {
      return this.outputs.refuse(what, messageOf(error));
    }
    this.history.beginGesture(what);
    this.drag = { kind: 'hardpoint', name: spec.name, label: what };
    return true;
  }

  /**
   * Moves the grabbed point's target (pointermove), world coordinates. For a hardpoint
   * this edits the live document (refused moves leave it at the last accepted one, and
   * return false); for a pull it only asks for a solve.
   * @throws InternalError if no drag is in progress.
   */
  dragTo(target: Vec3Doc): boolean {
    const drag = this.drag;
    if (drag === null) throw new InternalError('LiveModel: dragTo without a drag');
    const xyz: [number, number, number] = [target[0], target[1], target[2]];
    if (drag.kind === 'pull') {
      if (!xyz.every(Number.isFinite)) return this.outputs.refuse(`pull ${drag.part}`, 'the target must have finite coordinates');
      drag.target = xyz;
      this.send();
      return true;
    }
    try {
      this.history.updateGesture(liveEdits.moveHardpoint(drag.name, hardpointCoordinates(this.history.current, this.remote ? null : this.good, drag.name, xyz)));
      return true;
    } catch (error) {
      this.outputs.refusal(error, drag.label);
      return false;
    }
  }

  /**
   * Lets go (pointerup). A hardpoint drag becomes one undo entry (returned; null if it
   * changed nothing); a pull leaves the linkage where it was pulled (returns null).
   * @throws InternalError if no drag is in progress.
   */
  endDrag(): HistoryEntry<LiveDocument> | null {
    const drag = this.drag;
    if (drag === null) throw new InternalError('LiveModel: endDrag without a drag');
    this.drag = null;
    return drag.kind === 'hardpoint' ? this.history.commitGesture() : null;
  }

  /**
   * Abandons the drag (Escape): a hardpoint drag rolls the document back to its start;
   * a pull returns the linkage and the view settings to the state at its start.
   * @throws InternalError if no drag is in progress.
   */
  cancelDrag(): void {
    const drag = this.drag;
    if (drag === null) throw new InternalError('LiveModel: cancelDrag without a drag');
    this.drag = null;
    if (drag.kind === 'hardpoint') {
      this.history.cancelGesture();
      return;
    }
    this.currentSettings = drag.startSettings as S;
    if (this.remote) {
      this.pendingCancel = drag.dragId;
      this.requests.next(this.request());
    } else if (drag.start !== null) {
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
   * @throws what the engine throws (a model that does not build), after reporting it on `errors$`;
   *   and Error for a remote model (nothing is solved on this thread).
   */
  solveNow(): LiveFrame<A> {
    if (this.remote) throw new InternalError('LiveModel: solveNow on a remote model');
    const request = this.request();
    this.dispatched(request);
    let frame: LiveFrame<A>;
    try {
      frame = this.engine.solve(request);
    } catch (error) {
      this.immediate.next({ kind: 'error', input: request, error });
      throw error;
    }
    // not remote: the frames are the in-process engine's
    this.immediate.next({ kind: 'ok', input: request, output: asModelFrame<A, F>(frame) });
    return frame;
  }

  /**
   * A lane for an analysis that runs beside the solve (a sweep behind plots, in a worker
   * of its own), scheduled as the model's own requests are: the same frame clock and
   * leading edge, one solve in flight and the newest input pending, never a queue. Its
   * outcomes are not frames: no last good state, no errors on `errors$`. Completed by
   * {@link LiveModel.dispose}.
   */
  lane<I, O>(solve: SolveFunction<I, O>): LiveLane<I, O> {
    const inputs = new Subject<I>();
    const outcomes = new Subject<SolveOutcome<I, O>>();
    this.lanes.push(inputs as Subject<unknown>);
    this.subscriptions.push(inputs.pipe(latestPerFrame<I>(this.frameScheduler, { leading: this.leading }), solveLatest<I, O>(solve)).subscribe(outcomes));
    return { request: (input) => inputs.next(input), outcomes$: outcomes.asObservable() };
  }

  /** Stops solving and completes every stream. The model must not be used afterwards. */
  dispose(): void {
    for (const lane of this.lanes) lane.complete();
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions.length = 0;
    this.history.dispose();
    this.requests.complete();
    this.immediate.complete();
    this.outputs.complete();
  }

  // ---- internals ----

  /**
   * Asks for a solve of the current document, settings and pull. After a pull let go before
   * its last move was answered (a quick drag, a busy machine), the request waits for that
   * answer: sent at once it would replace the move's request in the frame and lose the pull,
   * and the move's frame reports where the pull left the view, which the next request's
   * settings carry. (A cancelled pull's request is sent at once: it is to replace the move.)
   */
  private send(): void {
    if (this.drag === null && this.handledSeq < this.lastPullSeq) { this.sendAfterPull = true; return; }
    this.requests.next(this.request());
  }

  private request(): LiveRequest<S> {
    const drag = this.drag;
    const pull =
      drag !== null && drag.kind === 'pull' ? { dragId: drag.dragId, part: drag.part, point: drag.point, target: drag.target, ...drag.strategy } : null;
    const document = this.history.current;
    const request: LiveRequest<S> = {
      seq: ++this.seq,
      document,
      version: this.versionOf(document),
      settings: this.currentSettings,
      pull,
      ...(this.pendingSeed !== null ? { seed: this.pendingSeed } : {}),
      ...(this.pendingCancel !== null ? { cancelledDrag: this.pendingCancel } : {}),
      ...(this.pendingFresh ? { fresh: true } : {}),
      ...(this.remote ? { compiled: this.compiled.compile(document) } : {}),
      diagnose: drag === null,
    };
    if (pull !== null) this.lastPullSeq = request.seq;
    return request;
  }

  /**
   * A request went to the solver: what it carried once (a fresh start, a cancelled
   * drag) is not asked again. Until then every newer request carries it, since the
   * frame clock and the pending slot keep only the newest.
   */
  private dispatched(request: LiveRequest<S>): void {
    if (request.fresh === true) this.pendingFresh = false;
    if (request.cancelledDrag !== undefined && request.cancelledDrag === this.pendingCancel) this.pendingCancel = null;
  }

  private handle(outcome: WithLastGood<LiveRequest<S>, F>): void {
    const latest = outcome.latest;
    this.handledSeq = Math.max(this.handledSeq, latest.input.seq);
    if (latest.input.seed !== undefined && latest.input.seed === this.pendingSeed) this.pendingSeed = null;
    if (latest.kind === 'ok' && outcome.good) this.good = latest.output;
    this.outputs.route(outcome);
    if (this.sendAfterPull && this.handledSeq >= this.lastPullSeq) {
      this.sendAfterPull = false;
      this.send();
    }
  }
}

/**
 * The in-process engine's frame as the model's frame type `F`: only where no solver is
 * given, when `F` is its default `LiveFrame<A>`. A type parameter cannot follow that
 * default, so this one cast stands (test/architecture/discipline.test.ts lists it).
 */
function asModelFrame<A, F>(frame: LiveFrame<A>): F {
  return frame as unknown as F;
}


