/**
 * The vehicle's design worker (docs/vehicle.md, "Viewer"): sensitivity arrows and fit on the
 * whole car (src/live/vehicle/design.ts), off the page's thread and off the drag's worker,
 * one request at a time.
 */
import { fitVehicleDocument, vehiclePickupRates, type VehicleDocument, type VehicleDocumentFit, type VehicleFitRequest, type VehicleHardpoint, type VehiclePickupRates } from '../../src/index.ts';

export type VehicleDesignRequest =
  | { id: number; kind: 'rates'; doc: VehicleDocument; metric: string; pickups: VehicleHardpoint[]; locked: boolean }
  | { id: number; kind: 'fit'; doc: VehicleDocument; request: VehicleFitRequest };
export type VehicleDesignReply =
  | { id: number; kind: 'rates'; result: VehiclePickupRates | { error: string } }
  | { id: number; kind: 'fit'; result: VehicleDocumentFit | { error: string } };

self.onmessage = (event: MessageEvent<VehicleDesignRequest>) => {
  const m = event.data;
  const guard = <T>(fn: () => T | { error: string }): T | { error: string } => {
    try { return fn(); } catch (error) { return { error: error instanceof Error ? error.message : String(error) }; }
  };
  const reply: VehicleDesignReply = m.kind === 'rates'
    ? { id: m.id, kind: 'rates', result: guard(() => vehiclePickupRates(m.doc, m.metric, m.pickups, m.locked)) }
    : { id: m.id, kind: 'fit', result: guard(() => fitVehicleDocument(m.doc, m.request)) };
  self.postMessage(reply);
};
