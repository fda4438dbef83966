/**
 * The viewer's kept vehicle model (src/live/vehicle/kept.ts): a drag's frames applied to one
 * model in place and solved from the last state give every figure of a new model built from
 * the edited document (1e-9 relative), on both axles, locked and unlocked; the roll gradient
 * comes from the solve's own saddle system (kept-tangent.ts). A document that cannot be read
 * leaves the last good state, the next frame starts there; another vehicle is built afresh.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KeptVehicle, moveVehicleHardpoint, readVehicleDocument, vehicleLiveFrame, vehicleHardpointPosition,
  type VehicleDocument, type VehicleFigures, type VehicleHardpoint,
} from '../../src/live/vehicle/index.ts';

const EX = join(__dirname, '../../examples');
const read = (p: string) => readFileSync(join(EX, p), 'utf8');
const FILES = {
  'double_wishbone_axle_front.yaml': read('suspension/double_wishbone_axle_front.yaml'),
  'multi_link_axle_rear.yaml': read('suspension/multi_link_axle_rear.yaml'),
  'solid_axle_four_link_rates.yaml': read('suspension/solid_axle_four_link_rates.yaml'),
};
const sedan = (): VehicleDocument => readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), FILES);

/** Every number of the figures, by path. */
function numbers(f: VehicleFigures): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (x: unknown, path: string) => {
    if (typeof x === 'number') out.set(path, x);
    else if (Array.isArray(x)) x.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(f, '');
  return out;
}

/** The kept frame's figures against a new model's of the same document: 1e-9 relative (of the figure, or of its kind's size where it is near zero). */
function expectSameFigures(kept: VehicleFigures, fresh: VehicleFigures): void {
  const a = numbers(kept), b = numbers(fresh);
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  const scale = (path: string) => (/roll|pitch|camber|toe|heave/.test(path) ? 1 : 1e3);
  for (const [path, x] of b) {
    const y = a.get(path)!;
    expect(Math.abs(y - x), `${path}: kept ${y}, built ${x}`).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(x), scale(path)));
  }
}

describe('the kept vehicle model of a drag', () => {
  it('a sequence of drags on both axles, locked and unlocked, gives a new build\'s figures, on the model renewed in place', () => {
    let doc = sedan();
    const kept = new KeptVehicle();
    expect(kept.frame(doc, 0, { quick: true }).error).toBeNull();
    expect(kept.lastRoute).toBe('built');
    const moves: [VehicleHardpoint, [number, number, number], boolean][] = [
      [{ axle: 'front', name: 'left_lower_wishbone_inboard_front' }, [0, 0, 3], true],
      [{ axle: 'front', name: 'left_lower_wishbone_inboard_front' }, [2, 0, 4], true],
      [{ axle: 'rear', name: 'right_lower_front_link_inboard' }, [0, -3, 5], true],
      [{ axle: 'front', name: 'left_upper_wishbone_inboard_rear' }, [0, 0, -6], false], // the front axle file gets its right side
      [{ axle: 'rear', name: 'left_strut_top' }, [0, 0, 8], false],
      [{ axle: 'front', name: 'center_arb_u_bar_axis_a' }, [4, 0, 2], true],
    ];
    let steps = 0;
    moves.forEach(([hp, d, locked], i) => {
      const [x, y, z] = vehicleHardpointPosition(doc, hp);
      doc = moveVehicleHardpoint(doc, hp, [x + d[0], y + d[1], z + d[2]], locked);
      const f = kept.frame(doc, i + 1, { quick: true });
      expect(f.error).toBeNull();
      expect(kept.lastRoute).toBe('renewed');
      steps = Math.max(steps, kept.refinementSteps);
      expectSameFigures(f.figures!, vehicleLiveFrame(doc, 0, { quick: true }).figures!);
    });
    expect(steps).toBeGreaterThan(0); // the saddle route, not tangent.ts's
  });

  it('the one-sided edits roll the car (the figures move), and the slow figures equal a new build\'s too', () => {
    let doc = sedan();
    const kept = new KeptVehicle();
    const before = kept.frame(doc, 0, { quick: true }).figures!;
    const hp: VehicleHardpoint = { axle: 'rear', name: 'left_strut_top' };
    const [x, y, z] = vehicleHardpointPosition(doc, hp);
    doc = moveVehicleHardpoint(doc, hp, [x, y, z + 15], false);
    const after = kept.frame(doc, 1, { quick: false }).figures!;
    expect(kept.lastRoute).toBe('renewed');
    expect(Math.abs(after.body.roll - before.body.roll)).toBeGreaterThan(1e-4);
    expectSameFigures(after, vehicleLiveFrame(doc, 0, { quick: false }).figures!);
    // the slow figures re-solve under other loads; the next quick frame still starts at rest
    const again = kept.frame(doc, 2, { quick: true });
    expectSameFigures(again.figures!, vehicleLiveFrame(doc, 0, { quick: true }).figures!);
  });

  it('a document that cannot be read leaves the last good state; the next frame renews from it', () => {
    let doc = sedan();
    const kept = new KeptVehicle();
    kept.frame(doc, 0, { quick: true });
    const a: VehicleHardpoint = { axle: 'front', name: 'left_rocker_axis_a' };
    const b = vehicleHardpointPosition(doc, { axle: 'front', name: 'left_rocker_axis_b' });
    const bad = kept.frame(moveVehicleHardpoint(doc, a, b, true), 1, { quick: true });
    expect(bad.error).toMatch(/rocker axis is undefined/);
    expect(bad.figures).toBeNull();
    const [x, y, z] = vehicleHardpointPosition(doc, a);
    doc = moveVehicleHardpoint(doc, a, [x, y, z + 2], true);
    const good = kept.frame(doc, 2, { quick: true });
    expect(kept.lastRoute).toBe('renewed');
    expectSameFigures(good.figures!, vehicleLiveFrame(doc, 0, { quick: true }).figures!);
  });

  it('another vehicle is built afresh, and its drags renew it', () => {
    const kept = new KeptVehicle();
    kept.frame(sedan(), 0, { quick: true });
    let doc = readVehicleDocument('solid_axle.vehicle.yaml', read('vehicles/solid_axle.vehicle.yaml'), FILES);
    expect(kept.frame(doc, 1, { quick: true }).error).toBeNull();
    expect(kept.lastRoute).toBe('built');
    const hp: VehicleHardpoint = { axle: 'front', name: 'right_upper_wishbone_inboard_front' };
    const [x, y, z] = vehicleHardpointPosition(doc, hp);
    doc = moveVehicleHardpoint(doc, hp, [x, y, z - 4], true);
    const f = kept.frame(doc, 2, { quick: true });
    expect(kept.lastRoute).toBe('renewed');
    expectSameFigures(f.figures!, vehicleLiveFrame(doc, 0, { quick: true }).figures!);
  });
});
