/**
 * The viewer's vehicle document (src/live/vehicle): a pickup edit on one side of a locked
 * axle moves its mirror too, an unlocked one moves only its own side, a vehicle file whose
 * axle file is not at hand is refused naming it, and a frame of the solved car satisfies
 * the statics' identities (the contact loads carry the weight; a symmetric car does not
 * roll at rest, an asymmetric edit makes it roll).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  axleIsSymmetric, moveVehicleHardpoint, readVehicleDocument, vehicleLiveFrame, vehicleHardpointPosition, type VehicleDocument,
} from '../../src/live/vehicle/index.ts';

const EX = join(__dirname, '../../examples');
const read = (p: string) => readFileSync(join(EX, p), 'utf8');
const FILES = { 'double_wishbone_axle_front.yaml': read('suspension/double_wishbone_axle_front.yaml'), 'multi_link_axle_rear.yaml': read('suspension/multi_link_axle_rear.yaml') };
const sedan = (): VehicleDocument => readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), FILES);
const LOWER = { axle: 'front' as const, name: 'left_lower_wishbone_inboard_front' };
const MIRROR = { axle: 'front' as const, name: 'right_lower_wishbone_inboard_front' };

describe('vehicle document edits', () => {
  it('locked: the mirror moves with the dragged pickup (y → −y); the file stays symmetric', () => {
    const doc = sedan();
    const [x, y, z] = vehicleHardpointPosition(doc, LOWER);
    const moved = moveVehicleHardpoint(doc, MIRROR, [x + 5, -y - 7, z + 20], true);
    expect(vehicleHardpointPosition(moved, LOWER)).toEqual([x + 5, y + 7, z + 20]);
    expect(vehicleHardpointPosition(moved, MIRROR)).toEqual([x + 5, -y - 7, z + 20]);
    expect(axleIsSymmetric(moved, 'front')).toBe(true);
    expect(vehicleHardpointPosition(doc, LOWER)).toEqual([x, y, z]); // the document is not changed in place
  });

  it('unlocked: only the dragged side moves; a locked edit after it writes both explicit sides', () => {
    const doc = sedan();
    const [x, y, z] = vehicleHardpointPosition(doc, LOWER);
    const one = moveVehicleHardpoint(doc, LOWER, [x, y, z + 20], false);
    expect(axleIsSymmetric(one, 'front')).toBe(false);
    expect(vehicleHardpointPosition(one, LOWER)).toEqual([x, y, z + 20]);
    expect(vehicleHardpointPosition(one, MIRROR)).toEqual([x, -y, z]);
    const both = moveVehicleHardpoint(one, LOWER, [x, y, z + 30], true);
    expect(vehicleHardpointPosition(both, MIRROR)).toEqual([x, -y, z + 30]);
  });

  it('an axle file that was not opened with the vehicle file is refused, named', () => {
    expect(() => readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), { 'double_wishbone_axle_front.yaml': FILES['double_wishbone_axle_front.yaml'] }))
      .toThrow(/rear.*multi_link_axle_rear\.yaml.*not among the files opened/);
  });
});

describe('vehicle frame', () => {
  it('draws four wheels, carries the weight, does not roll when symmetric and rolls after a one-sided edit, the same from the last state as from the design', () => {
    const doc = sedan();
    const f = vehicleLiveFrame(doc, 1, { quick: true });
    expect(f.error).toBeNull();
    const fig = f.figures!;
    expect(f.pose!.corners).toHaveLength(4);
    const weight = (fig.mass * 9806.65) / 1000;
    const sum = Object.values(fig.corners).reduce((s, c) => s + c.load, 0);
    expect(Math.abs(sum - weight) / weight).toBeLessThan(1e-6);
    expect(Math.abs(fig.body.roll)).toBeLessThan(1e-8);
    // the lateral load transfer's per-corner rates: the axles' (right − left)/2, and nothing lost overall
    expect(fig.lateral_load_transfer.front).toBeCloseTo((fig.corners.front_right.load_per_g - fig.corners.front_left.load_per_g) / 2, 6);
    expect(Math.abs(Object.values(fig.corners).reduce((s, c) => s + c.load_per_g, 0))).toBeLessThan(1e-6 * weight);
    // every chassis pickup of both axles is a handle, the left and right ones each
    const names = Object.values(f.handles).map((h) => `${h.axle}:${h.name}`);
    expect(names).toContain('front:left_lower_wishbone_inboard_front');
    expect(names).toContain('front:right_lower_wishbone_inboard_front');
    expect(names.some((n) => n.startsWith('rear:right_'))).toBe(true);
    const [x, y, z] = vehicleHardpointPosition(doc, LOWER);
    const moved = moveVehicleHardpoint(doc, LOWER, [x, y, z + 20], false);
    const skew = vehicleLiveFrame(moved, 2, { quick: true, start: f.restState });
    expect(Math.abs(skew.figures!.body.roll)).toBeGreaterThan(1e-3);
    // started from the last frame's state (a drag) it reaches the same equilibrium as from the design
    const cold = vehicleLiveFrame(moved, 3, { quick: true });
    expect(skew.figures!.roll_gradient).toBeCloseTo(cold.figures!.roll_gradient, 8);
    expect(skew.figures!.body.roll).toBeCloseTo(cold.figures!.body.roll, 8);
    expect(skew.figures!.corners.front_left.load).toBeCloseTo(cold.figures!.corners.front_left.load, 5);
  });
});
