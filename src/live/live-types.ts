/**
 * The live model's types (live-model.ts): what a drag grabs, the requests it makes, the
 * errors and analyses it reports, its options and the solver it can be given.
 */
import type { Observable, ObservableInput, SchedulerLike } from 'rxjs';
import type { Vec3Doc } from '../assembly/types.ts';
import type { SolveOutcome } from '../reactive/scheduler.ts';
import type { CompiledDocument, LiveDocument } from './document.ts';
import type { Analyze, LiveFrame, SolveRequest } from './engine.ts';
import type { SuspensionPullMode } from './suspension-engine.ts';

/** What to grab. */
export type DragSpec =
  /**
   * A point of a movable part (its own frame), pulled toward world targets. `mode`,
   * `axis` and `corner` are the suspension pull's strategy (see {@link PullStrategy}),
   * carried to the solver; the in-process engine pulls freely.
   */
  | ({ readonly kind: 'pull'; readonly part: string; readonly point: Vec3Doc } & PullStrategy)
  /**
   * A hardpoint moved as a geometry edit: for a suspension its name as the assembly
   * writes it (`upper_wishbone_inboard_front`, `left_…` on an axle); for an assembly
   * `part.point`. The targets of `dragTo` are world positions (for a suspension, design
   * positions in chassis axes; the chassis is the world).
   */
  | { readonly kind: 'hardpoint'; readonly name: string };

/**
 * How a suspension pull moves (`SuspensionLiveEngine.pull`): what is free to follow the
 * point (`bump`: the wheel; `steer`: the rack; `free`: both), the one corner of an axle
 * that moves, and a unit world axis along which alone the distance counts.
 */
export interface PullStrategy {
  readonly mode?: SuspensionPullMode;
  readonly axis?: Vec3Doc;
  readonly corner?: number;
}

/** A second solve behind the live model's scheduling (see {@link LiveModel.lane}). */
export interface LiveLane<I, O> {
  /** Asks for a solve of `input`: at most one per frame goes out (the newest), one at a time. */
  request(input: I): void;
  /** Every outcome (the output, or the error the solve failed with), in order. */
  readonly outcomes$: Observable<SolveOutcome<I, O>>;
}

/** What the live model reads of a frame: whether it may replace the last good state. Its own frames are {@link LiveFrame}s. */
export interface LiveFrameCore {
  readonly good: boolean;
}

/**
 * A request as the live model makes it: the document with its version (a number that
 * changes whenever the document does, so a solver across a worker recognises it), the
 * pull, and the view settings in force (what is not in the document: never undo entries).
 */
export interface LiveRequest<S = undefined> extends SolveRequest {
  readonly version: number;
  readonly settings: S;
  readonly pull: (SolveRequest['pull'] & PullStrategy) | null;
  /**
   * A remote model's requests: the document as compiled once, where the edit was validated
   * (see {@link LiveModel.compiledOf}). A solver elsewhere uses it instead of compiling the
   * document again; an edit is then compiled once, not once per thread.
   */
  readonly compiled?: CompiledDocument;
}

/** An error, as a value. */
export type LiveError<A = undefined, F = LiveFrame<A>> =
  /** An edit or drag move the document refused; the document is as it was. */
  | { readonly kind: 'refused'; readonly label: string; readonly reason: string }
  /** A solve whose constraints did not close; the last good state stays. */
  | { readonly kind: 'solve-failed'; readonly seq: number; readonly message: string; readonly failed: readonly string[]; readonly frame: F }
  /** The solver threw (a model that does not build, a worker that died). */
  | { readonly kind: 'solver-error'; readonly seq: number; readonly message: string; readonly error: unknown }
  /** The analysis hook threw; the solved state is good and was shown. */
  | { readonly kind: 'analysis-failed'; readonly seq: number; readonly message: string; readonly frame: F };

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
export type LiveSolver<A, F = LiveFrame<A>, S = undefined> = (request: LiveRequest<S>, solveInProcess: (request: SolveRequest) => LiveFrame<A>) => ObservableInput<F>;

export interface LiveModelOptions<A, F = LiveFrame<A>, S = undefined> {
  /** Runs after every good solve, on the model at the solved state (suspension metrics plug in here). */
  readonly analyze?: Analyze<A>;
  /** The frame clock (default: animation frames in a browser, `asapScheduler` in Node; a TestScheduler in tests). */
  readonly frameScheduler?: SchedulerLike;
  /** Replaces the in-process solve (a worker client; a slow solve in tests). Default: the in-process engine. */
  readonly solver?: LiveSolver<A, F, S>;
  /**
   * The solver runs elsewhere (a Web Worker) and answers with its own frames: nothing is
   * solved on this thread. A pull is then checked by the solver, not at `beginDrag`, and
   * a cancelled pull asks the solver to return to the drag's start (`cancelledDrag`).
   * Required when the frames are not {@link LiveFrame}s.
   */
  readonly remote?: boolean;
  /** The view settings to start with (see {@link LiveModel.setSettings}). */
  readonly settings?: S;
  /** The first request after a quiet frame goes to the solver at once, the newest of the rest once a frame (`latestPerFrame`'s `leading`). Default false. */
  readonly leading?: boolean;
  /** What a failed frame says (for `errors$`); default: a {@link LiveFrame}'s result. */
  readonly failureOf?: (frame: F) => { readonly message: string; readonly failed: readonly string[] };
  /** Most undo entries kept (default: no limit). */
  readonly historyLimit?: number;
}
