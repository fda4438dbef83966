/**
 * The vehicle worker: the whole car of a vehicle document, kept between requests
 * (src/live/vehicle/kept.ts: built once, each edited version applied to it in place and
 * solved from the last state at rest), and its frame, one request at a time, off the
 * page's thread.
 */
import { KeptVehicle, type VehicleDocument, type VehicleLiveFrame } from '../../src/index.ts';

export interface VehicleWorkerRequest { id: number; doc: VehicleDocument; docKey: number; quick: boolean }
export type VehicleWorkerReply = { id: number; ok: true; frame: VehicleLiveFrame } | { id: number; ok: false; error: string };

const kept = new KeptVehicle();

self.onmessage = (event: MessageEvent<VehicleWorkerRequest>) => {
  const { id, doc, docKey, quick } = event.data;
  let reply: VehicleWorkerReply;
  try {
    const frame = kept.frame(doc, docKey, { quick });
    reply = { id, ok: true, frame: { ...frame, restState: null } };
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
