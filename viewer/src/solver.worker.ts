/**
 * The solver worker: one LiveViewPresenter (one loaded model) per worker, one request at a time.
 * The viewer runs two of these: one for the pose under the pointer, one for the sweep
 * behind the plots, so a slow sweep never holds up the pose.
 */
import { LiveViewPresenter, kcCurves, type KcCurvesRequest, type PoseRequest, type SweepRequest } from '../../src/index.ts';
import type { WorkerReply, WorkerRequest } from './solver-client';

const engine = new LiveViewPresenter();

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const { id, kind, request } = event.data;
  // wall-clock times (shared with the page: timeOrigin + now) for where a round trip goes
  const received = performance.timeOrigin + performance.now();
  let reply: WorkerReply;
  try {
    const result = kind === 'pose' ? engine.pose(request as PoseRequest) : kind === 'kc' ? kcCurves(request as KcCurvesRequest) : engine.sweep(request as SweepRequest);
    reply = { id, ok: true, result, at: { received, done: performance.timeOrigin + performance.now() } };
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
