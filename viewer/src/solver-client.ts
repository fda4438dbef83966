/**
 * Talks to a solver worker: each request a promise, answered in order. Scheduling (one
 * request in flight, one latest pending) is the page's live model's; this only pairs
 * replies with requests. Without Worker support the engine runs on the main thread.
 */
import { recordSample } from './samples';
import { LiveViewPresenter, kcCurves, type KcCurvesRequest, type KcCurvesResult, type PoseRequest, type PoseResult, type SweepRequest, type SweepResult } from '../../src/index.ts';

export type WorkerRequest = { id: number; kind: 'pose'; request: PoseRequest } | { id: number; kind: 'sweep'; request: SweepRequest } | { id: number; kind: 'kc'; request: KcCurvesRequest };
type Reply = PoseResult | SweepResult | KcCurvesResult;
export type WorkerReply = { id: number; ok: true; result: Reply; at?: { received: number; done: number } } | { id: number; ok: false; error: string };

/** Where the last round trips went (ms): to the worker, in it, back to the page. */
export interface RoundTrips { toWorker: number[]; inWorker: number[]; back: number[] }

export class SolverClient {
  private worker: Worker | null = null;
  private engine: LiveViewPresenter | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: Reply) => void; reject: (error: Error) => void; posted: number }>();
  readonly trips: RoundTrips = { toWorker: [], inWorker: [], back: [] };

  constructor(readonly name: string) {
    try {
      this.worker = new Worker(new URL('./solver.worker.ts', import.meta.url), { type: 'module', name });
      this.worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        const entry = this.waiting.get(reply.id);
        if (!entry) return;
        this.waiting.delete(reply.id);
        if (reply.ok && reply.at) {
          const now = performance.timeOrigin + performance.now();
          recordSample(this.trips.toWorker, reply.at.received - entry.posted);
          recordSample(this.trips.inWorker, reply.at.done - reply.at.received);
          recordSample(this.trips.back, now - reply.at.done);
        }
        if (reply.ok) entry.resolve(reply.result);
        else entry.reject(new Error(reply.error));
      };
      this.worker.onerror = (event) => {
        const error = new Error(`solver worker ${name}: ${event.message}`);
        for (const entry of this.waiting.values()) entry.reject(error);
        this.waiting.clear();
      };
    } catch {
      this.worker = null;
      this.engine = new LiveViewPresenter();
    }
  }

  private call<T extends Reply>(kind: WorkerRequest['kind'], request: WorkerRequest['request']): Promise<T> {
    if (!this.worker) {
      const engine = this.engine!;
      return new Promise<T>((resolve, reject) => {
        try {
          resolve((kind === 'pose' ? engine.pose(request as PoseRequest) : kind === 'kc' ? kcCurves(request as KcCurvesRequest) : engine.sweep(request as SweepRequest)) as T);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    }
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: Reply) => void, reject, posted: performance.timeOrigin + performance.now() });
      this.worker!.postMessage({ id, kind, request } as WorkerRequest);
    });
  }

  pose(request: PoseRequest): Promise<PoseResult> {
    return this.call<PoseResult>('pose', request);
  }

  sweep(request: SweepRequest): Promise<SweepResult> {
    return this.call<SweepResult>('sweep', request);
  }

  /** The K&C curves of a compliant suspension (the compliance panel's worker). */
  kc(request: KcCurvesRequest): Promise<KcCurvesResult> {
    return this.call<KcCurvesResult>('kc', request);
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
