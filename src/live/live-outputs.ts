/**
 * The live model's outputs (src/live/live-model.ts): its streams of good frames, analyses,
 * errors and every outcome, and the routing of one solve outcome onto them. A refusal, a
 * failed solve, a solver that threw and an analysis that threw are values here, never throws.
 */
import { ReplaySubject, Subject, type Observable } from 'rxjs';
import { EditRefused } from '../reactive/history.ts';
import type { WithLastGood } from '../reactive/scheduler.ts';
import { isDocumentError } from './document.ts';
import { isLiveFrame } from './drag-geometry.ts';
import type { LiveAnalysis, LiveError, LiveFrameCore, LiveRequest } from './live-types.ts';

/** A failed frame's message and failed mates, as errors$ reports them. */
export type FailureOf<F> = (frame: F) => { readonly message: string; readonly failed: readonly string[] };

export class LiveOutputs<A, F extends LiveFrameCore, S> {
  readonly state$: Observable<F>;
  readonly analysis$: Observable<LiveAnalysis<A>>;
  readonly errors$: Observable<LiveError<A, F>>;
  readonly frames$: Observable<WithLastGood<LiveRequest<S>, F>>;
  private readonly stateSubject = new ReplaySubject<F>(1);
  private readonly analysisSubject = new ReplaySubject<LiveAnalysis<A>>(1);
  private readonly errorSubject = new Subject<LiveError<A, F>>();
  private readonly frameSubject = new Subject<WithLastGood<LiveRequest<S>, F>>();
  private readonly failureOf: FailureOf<F>;

  /**
   * @param remote frames of a solver elsewhere: they carry their own analysis, none is published here.
   * @param failureOf what a failed frame says (default: the in-process engine's result).
   */
  constructor(private readonly remote: boolean, failureOf?: FailureOf<F>) {
    this.failureOf = failureOf ?? ((frame) => {
      const result = isLiveFrame<A>(frame) ? frame.result : null;
      return { message: result?.message ?? 'constraints do not hold', failed: result?.failed ?? [] };
    });
    this.state$ = this.stateSubject.asObservable();
    this.analysis$ = this.analysisSubject.asObservable();
    this.errors$ = this.errorSubject.asObservable();
    this.frames$ = this.frameSubject.asObservable();
  }

  /** One outcome (not stale) onto the streams: the frame, then its state, error or analysis. */
  route(outcome: WithLastGood<LiveRequest<S>, F>): void {
    const latest = outcome.latest;
    this.frameSubject.next(outcome);
    if (latest.kind === 'error') {
      this.errorSubject.next({ kind: 'solver-error', seq: latest.input.seq, message: messageOf(latest.error), error: latest.error });
      return;
    }
    const frame = latest.output;
    const seq = latest.input.seq;
    if (!outcome.good) {
      this.errorSubject.next({ kind: 'solve-failed', seq, ...this.failureOf(frame), frame });
      return;
    }
    this.stateSubject.next(frame);
    // a remote solver's frames carry their own analysis; a solver's own frame type has none
    if (this.remote || !isLiveFrame<A>(frame)) return;
    if (frame.analysisError !== undefined) {
      this.errorSubject.next({ kind: 'analysis-failed', seq, message: frame.analysisError, frame });
    } else if (frame.analysis !== undefined) {
      this.analysisSubject.next({ seq, value: frame.analysis, frame });
    }
  }

  /** Reports a refused edit or drag (a value on errors$) and returns false. */
  refuse(label: string, reason: string): false {
    this.errorSubject.next({ kind: 'refused', label, reason });
    return false;
  }

  /** Reports a refused edit and returns its reason; rethrows what is not a refusal. */
  refusal(error: unknown, label: string): string {
    let reason: string;
    if (error instanceof EditRefused) reason = error.reason;
    else if (isDocumentError(error)) reason = error.message;
    else throw error;
    this.refuse(label, reason);
    return reason;
  }

  /** Completes every stream. */
  complete(): void {
    this.stateSubject.complete();
    this.analysisSubject.complete();
    this.errorSubject.complete();
    this.frameSubject.complete();
  }
}

/** An error's message in words (a refusal's reason). */
export function messageOf(error: unknown): string {
  if (error instanceof EditRefused) return error.reason;
  return error instanceof Error ? error.message : String(error);
}
