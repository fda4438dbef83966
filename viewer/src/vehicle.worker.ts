/**
 * The vehicle worker: reads, builds and solves the whole car of a vehicle document and
 * returns its frame (src/live/vehicle/frame.ts), one request at a time, off the page's thread.
 */
import { vehicleFrame, type VehicleDocument, type VehicleFrame } from '../../src/index.ts';

export interface VehicleWorkerRequest { id: number; doc: VehicleDocument; docKey: number; quick: boolean }
export type VehicleWorkerReply = { id: number; ok: true; frame: VehicleFrame } | { id: number; ok: false; error: string };

self.onmessage = (event: MessageEvent<VehicleWorkerRequest>) => {
  const { id, doc, docKey, quick } = event.data;
  let reply: VehicleWorkerReply;
  try {
    reply = { id, ok: true, frame: vehicleFrame(doc, docKey, { quick }) };
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  (self as unknown as Worker).postMessage(reply);
};
