/**
 * The Fit panel's worker: one fit at a time, each accepted iteration posted as progress.
 * The panel cancels a fit by terminating the worker.
 */
import { runFit, type FitOutcome } from '../../src/index.ts';
import type { FitProgress } from '../../src/index.ts';
import type { ViewerDocument } from './document';

export interface FitJob { id: number; doc: ViewerDocument; targets: string; fileName: string }
export type FitWorkerReply =
  | { id: number; kind: 'progress'; progress: FitProgress }
  | { id: number; kind: 'done'; outcome: FitOutcome }
  | { id: number; kind: 'error'; error: string };

self.onmessage = (event: MessageEvent<FitJob>) => {
  const { id, doc, targets, fileName } = event.data;
  const post = (reply: FitWorkerReply) => self.postMessage(reply);
  try {
    const outcome = runFit(doc, targets, fileName, (progress) => post({ id, kind: 'progress', progress }));
    post({ id, kind: 'done', outcome });
  } catch (error) {
    post({ id, kind: 'error', error: error instanceof Error ? error.message : String(error) });
  }
};
