/**
 * The vehicle worker: reads, builds and solves the whole car of a vehicle document and
 * returns its frame (src/live/vehicle/frame.ts), one request at a time, off the page's thread.
 */
import { vehicleLiveFrame, type VehicleDocument, type VehicleLiveFrame } from '../../src/index.ts';

export interface VehicleWorkerRequest { id: number; doc: VehicleDocument; docKey: number; quick: boolean }
export type VehicleWorkerReply = { id: number; ok: true; frame: VehicleLiveFrame } | { id: number; ok: false; error: string };

/** The last solved state at rest, by vehicle (its file and axle files): the next frame of a drag starts there. */
let last: { key: string; state: Float64Array } | null = null;

self.onmessage = (event: MessageEvent<VehicleWorkerRequest>) => {
  const { id, doc, docKey, quick } = event.data;
  let reply: VehicleWorkerReply;
  try {
    const key = JSON.stringify([doc.name, doc.text, doc.axles.front.ref, doc.axles.rear.ref]);
    const frame = vehicleLiveFrame(doc, docKey, { quick, start: last?.key === key ? last.state : null });
    if (frame.restState) last = { key, state: frame.restState };
    reply = { id, ok: true, frame: { ...frame, restState: null } };
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
