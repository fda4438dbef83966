/**
 * The envelope button's worker: the tyre's envelope over the bump × steer grid, computed
 * off the page so the view keeps drawing; each solved state of the grid posted as
 * progress, the closed mesh posted back with its buffers handed over.
 */
import { gridSweep, parseGeometry, suspensionAssembly, suspensionBodies, suspensionEnvelope, SuspensionModel } from '../../src/index.ts';

export interface EnvelopeJob {
  id: number;
  /** The suspension geometry document (JSON-ready). */
  geometry: unknown;
  tyre: { positions: Float32Array; indices: Uint32Array };
  bump: number[];
  steer: number[];
  voxel: number;
}
export type EnvelopeReply =
  | { id: number; kind: 'progress'; done: number; total: number }
  | { id: number; kind: 'done'; positions: Float32Array; indices: Uint32Array; voxel: number; failed: number }
  | { id: number; kind: 'error'; error: string };

self.onmessage = (event: MessageEvent<EnvelopeJob>) => {
  const { id, geometry: raw, tyre, bump, steer, voxel } = event.data;
  const post = (reply: EnvelopeReply, transfer: Transferable[] = []) => self.postMessage(reply, { transfer });
  try {
    const geometry = parseGeometry(JSON.stringify(raw));
    const sm = new SuspensionModel(suspensionAssembly(geometry));
    const grid = gridSweep(bump, steer, geometry);
    const envelope = suspensionEnvelope(sm, grid, suspensionBodies(sm, ['tyre']), 'tyre', tyre, {
      voxel,
      onProgress: (done, total) => post({ id, kind: 'progress', done, total }),
    });
    const { positions, indices } = envelope.mesh;
    post({ id, kind: 'done', positions, indices, voxel: envelope.voxel, failed: envelope.failed }, [positions.buffer, indices.buffer]);
  } catch (error) {
    post({ id, kind: 'error', error: error instanceof Error ? error.message : String(error) });
  }
};
