/**
 * The vehicle-run worker: one run of the whole vehicle at a time (src/live/vehicle/run.ts),
 * its frames posted in batches as they are made. Apart from the vehicle worker, so the car
 * at rest is solved again (a drag) while a run computes; a newer run ends this one by
 * terminating the worker (vehicle-playback.ts).
 */
import { runVehicleSimulation, type SimulationSettings, type VehicleDocument } from '../../src/index.ts';

self.onmessage = (event: MessageEvent<{ doc: VehicleDocument; settings: SimulationSettings }>) => {
  const { doc, settings } = event.data;
  runVehicleSimulation(doc, settings, (message) => self.postMessage(message));
};
