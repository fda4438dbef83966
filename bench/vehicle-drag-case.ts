/**
 * The viewer's whole-car drag frame (docs/vehicle.md, "Viewer"): the vehicle worker's work for
 * one move of a chassis pickup of the sedan — the edited document read, applied to the kept
 * model, solved at rest from the last state, the roll gradient and load transfer taken, and the
 * frame made (pose, handles, quick figures). The front lower wishbone's front inboard pickup
 * moves 1 mm a frame, locked (both sides), up five frames then down five.
 */
import { readFileSync } from 'node:fs';
import { nowMs } from './clock';
import { KeptVehicle } from '../src/live/vehicle/kept';
import { moveVehicleHardpoint, readVehicleDocument, vehicleHardpointPosition } from '../src/live/vehicle/document';

export function vehicleDragFrameMs(frames = 31, warmup = 40): number {
  const read = (p: string) => readFileSync(`examples/${p}`, 'utf8');
  const files = { 'double_wishbone_axle_front.yaml': read('suspension/double_wishbone_axle_front.yaml'), 'multi_link_axle_rear.yaml': read('suspension/multi_link_axle_rear.yaml') };
  let doc = readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), files);
  const pickup = { axle: 'front' as const, name: 'left_lower_wishbone_inboard_front' };
  const kept = new KeptVehicle();
  kept.frame(doc, 0, { quick: true });
  const t: number[] = [];
  for (let i = 0; i < warmup + frames; i++) {
    const [x, y, z] = vehicleHardpointPosition(doc, pickup);
    doc = moveVehicleHardpoint(doc, pickup, [x, y, z + (i % 10 < 5 ? 1 : -1)], true);
    const t0 = nowMs();
    const f = kept.frame(doc, i + 1, { quick: true });
    if (i >= warmup) t.push(nowMs() - t0);
    if (f.error) throw new Error(`vehicle_drag_frame_ms: ${f.error}`);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)];
}
