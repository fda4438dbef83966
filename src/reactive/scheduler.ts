/**
 * Scheduling of live solves: the operators between the edit/drag streams and the solver.
 *
 * ```ts
 * const solved$ = document$.pipe(
 *   latestPerFrame(),                 // at most one input per animation frame, the newest
 *   solveLatest((doc) => worker.solve(doc)), // one solve in flight, one latest pending
 *   lastGood((state) => state.converged),    // a failure never replaces the last good state
 * );
 * ```
 *
 * Why not the obvious operators:
 * - `observeOn(animationFrameScheduler)` only delays each value to a frame; 50 pointer
 *   moves in one frame are still 50 values and 50 solves. `auditTime(0, frame)` keeps
 *   the newest value and emits it once when the frame comes.
 * - `switchMap(solve)` unsubscribes from the reply of a superseded request, but a solver
 *   in a Web Worker keeps computing every request posted to it: the worker's queue
 *   grows and the view lags (measured: 1.4 s behind versus 57 ms). `concatMap` solves
 *   every stale input in turn, and `exhaustMap` drops the newest input, so the view can
 *   end on a stale state. {@link solveLatest} keeps one request in flight and one slot
 *   holding only the newest pending input.
 */
import {
  Observable,
  animationFrameScheduler,
  asapScheduler,
  auditTime,
  throttleTime,
  from,
  scan,
  type MonoTypeOperatorFunction,
  type ObservableInput,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';

/**
 * The scheduler {@link latestPerFrame} uses by default: `animationFrameScheduler` where
 * `requestAnimationFrame` exists (browser windows and workers), otherwise (Node: the
 * command line, tests) `asapScheduler`, which coalesces each synchronous burst.
 */
export function defaultFrameScheduler(): SchedulerLike {
  return typeof globalThis.requestAnimationFrame === 'function' ? animationFrameScheduler : asapScheduler;
}

/**
 * Emits at most once per frame, the newest value seen since the previous emission
 * (`auditTime(0, scheduler)`): the first value in a frame schedules one emission for
 * the next frame callback, later values in that frame only replace the value it will
 * carry. When the source completes, a pending value is still emitted, then completion.
 *
 * Not `observeOn(scheduler)`: that moves every value to the frame but passes all of
 * them (50 moves in a frame would give 50 solves); nothing is coalesced.
 *
 * With `{ leading: true }` the first value after a frame without one goes out at once,
 * not at the next frame (a pointer move delivered between frames, e.g. by
 * `pointerrawupdate`, reaches a worker up to a frame sooner); values arriving before the
 * next frame are held, and the newest goes out when it comes. Still at most one per
 * frame after the first.
 *
 * @param scheduler the frame clock; default {@link defaultFrameScheduler}(). Pass a
 *   `TestScheduler` in marble tests: a "frame" is then one virtual time unit, and the
 *   emission comes after every value scheduled for the same virtual time.
 */
export function latestPerFrame<T>(scheduler: SchedulerLike = defaultFrameScheduler(), options: { leading?: boolean } = {}): MonoTypeOperatorFunction<T> {
  // leading: the first value after a quiet frame at once, then at most one per frame (the
  // newest), each emission opening the next frame's window
  return options.leading ? throttleTime<T>(0, scheduler, { leading: true, trailing: true }) : auditTime<T>(0, scheduler);
}

/** The result of one solve: its output, or the error it failed with, and its input. */
export type SolveOutcome<I, O> =
  | { readonly kind: 'ok'; readonly input: I; readonly output: O }
  | { readonly kind: 'error'; readonly input: I; readonly error: unknown };

/**
 * A solve function for {@link solveLatest}: a Promise, or an Observable that emits the
 * output and completes (anything `from()` accepts). It may also throw synchronously.
 * Unsubscribing from the returned Observable should cancel the solve where possible.
 */
export type SolveFunction<I, O> = (input: I) => ObservableInput<O>;

/**
 * Runs `solve` with at most ONE solve in flight and ONE pending input slot.
 *
 * - Idle and an input arrives: the solve starts at once with it.
 * - Busy and inputs arrive: each replaces the pending one; intermediate inputs are
 *   dropped, never queued, and never cancel the solve in flight (its work is not
 *   wasted: its result is shown while the next one computes).
 * - A solve finishes (completes or errors): if an input is pending, the next solve
 *   starts at once with the newest pending input.
 *
 * So the inputs solved are the first one, then at each completion the newest one that
 * arrived meanwhile; the last input is always solved. Outcomes come out in the order
 * the solves ran, each tagged with its input. Every value a solve emits becomes an
 * `ok` outcome (a Promise gives exactly one; an Observable solve may report progress
 * with several, and one that completes without a value yields no outcome). A solve that
 * errors, or throws when called, yields one `error` outcome and the stream goes on.
 *
 * When the source completes, the solve in flight and the pending input are still
 * solved, then the stream completes. A source error is passed on at once and the
 * solve in flight is unsubscribed. Unsubscribing unsubscribes the solve in flight.
 * A solve that returns synchronously (e.g. `of(x)`) is handled without recursion.
 */
export function solveLatest<I, O>(solve: SolveFunction<I, O>): OperatorFunction<I, SolveOutcome<I, O>> {
  return (source) =>
    new Observable<SolveOutcome<I, O>>((subscriber) => {
      /** The newest input not yet handed to `solve`. A box, so `undefined` is a valid input. */
      let pending: { readonly input: I } | null = null;
      let busy = false;
      /** Subscription to the solve in flight, once `subscribe` has returned. */
      let inFlight: Subscription | null = null;
      /** Identifies the solve in flight, so a late callback of an old one is ignored. */
      let solveId = 0;
      let sourceComplete = false;
      /** True inside `drain`: a re-entrant call leaves the work to the running loop. */
      let draining = false;

      const finishSolve = (id: number): void => {
        if (id !== solveId || !busy) return;
        busy = false;
        inFlight = null;
        drain();
      };

      const startSolve = (input: I): void => {
        busy = true;
        const id = ++solveId;
        let solved$: Observable<O>;
        try {
          solved$ = from(solve(input));
        } catch (error) {
          subscriber.next({ kind: 'error', input, error });
          finishSolve(id);
          return;
        }
        const subscription = solved$.subscribe({
          next: (output) => {
            if (id === solveId) subscriber.next({ kind: 'ok', input, output });
          },
          error: (error: unknown) => {
            if (id !== solveId) return;
            subscriber.next({ kind: 'error', input, error });
            finishSolve(id);
          },
          complete: () => finishSolve(id),
        });
        // A synchronous solve has already finished (and maybe a later one started).
        if (id === solveId && busy) inFlight = subscription;
      };

      const drain = (): void => {
        if (draining) return;
        draining = true;
        try {
          while (!busy && pending !== null && !subscriber.closed) {
            const { input } = pending;
            pending = null;
            startSolve(input);
          }
        } finally {
          draining = false;
        }
        if (sourceComplete && !busy && pending === null) subscriber.complete();
      };

      const sourceSubscription = source.subscribe({
        next: (input) => {
          pending = { input };
          drain();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceComplete = true;
          drain();
        },
      });

      return () => {
        sourceSubscription.unsubscribe();
        solveId++; // orphan any callback of the solve in flight
        inFlight?.unsubscribe();
        inFlight = null;
        pending = null;
      };
    });
}

/** What {@link lastGood} emits for each outcome. */
export interface WithLastGood<I, O> {
  /** The outcome just received, good or not. */
  readonly latest: SolveOutcome<I, O>;
  /** Whether `latest` is good (an `ok` outcome that `isGood` accepts). */
  readonly good: boolean;
  /** The newest good output so far (`latest.output` when `good`), or the initial one. */
  readonly lastGood: O | null;
  /** The input `lastGood` was solved from; `null` while `lastGood` is the initial one. */
  readonly lastGoodInput: I | null;
}

/**
 * Pairs every solve outcome with the last good output, so a failed solve (an `error`
 * outcome, or an output `isGood` rejects, e.g. not converged) is reported while the
 * view keeps showing the last good state.
 *
 * @param isGood decides whether an `ok` output may replace the last good one;
 *   default: every `ok` output is good. `error` outcomes are never good.
 * @param initial the last good output before any solve (e.g. the loaded pose); default null.
 */
export function lastGood<I, O>(
  isGood: (output: O, input: I) => boolean = () => true,
  initial: O | null = null,
): OperatorFunction<SolveOutcome<I, O>, WithLastGood<I, O>> {
  return scan<SolveOutcome<I, O>, WithLastGood<I, O>, null>(
    (previous, latest) => {
      const good = latest.kind === 'ok' && isGood(latest.output, latest.input);
      if (good) return { latest, good, lastGood: latest.output, lastGoodInput: latest.input };
      return {
        latest,
        good,
        lastGood: previous ? previous.lastGood : initial,
        lastGoodInput: previous ? previous.lastGoodInput : null,
      };
    },
    null,
  );
}
