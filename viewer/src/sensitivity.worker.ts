/**
 * The sensitivity arrows' worker: one presenter (one cached model), one request at a time.
 * Its own worker so that the arrows never delay the pose under the pointer.
 */
import { SensitivityPresenter, type ArrowRequest, type ArrowResult } from '../../src/index.ts';

export type ArrowMessage = { id: number; request: ArrowRequest };
export type ArrowReply = { id: number; ok: true; result: ArrowResult } | { id: number; ok: false; error: string };

const presenter = new SensitivityPresenter();

self.onmessage = (event: MessageEvent<ArrowMessage>) => {
  const { id, request } = event.data;
  let reply: ArrowReply;
  try {
    reply = { id, ok: true, result: presenter.arrows(request) };
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
