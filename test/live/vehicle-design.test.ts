/**
 * Sensitivity arrows and fit on the whole car (src/live/vehicle/design.ts): each pickup's arrow
 * is the roll gradient's rate per mm of its coordinates — against central differences of new
 * vehicles built from the document with the pickup moved as a drag moves it (locked: with its
 * mirror; unlocked: alone), and so the arrows of a corner's load and ride height, the understeer
 * gradient and the ride frequencies, each against its figure on rebuilt cars; the fit's moves, written into the document as drags, give a car
 * whose roll gradient is the target.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVehicle } from '../../src/suspension/vehicle/index.ts';
import { vehicleModes } from '../../src/suspension/vehicle/modes.ts';
import {
  fitVehicleDocument, moveVehicleHardpoint, vehicleRateNames, vehicleSpecOf, readVehicleDocument, vehicleHardpointPosition, vehicleLiveFrame, vehiclePickupRates,
  type VehicleDocument, type VehicleHardpoint,
} from '../../src/live/vehicle/index.ts';

const EX = join(__dirname, '../../examples');
const read = (p: string) => readFileSync(join(EX, p), 'utf8');
const FILES = { 'double_wishbone_axle_front.yaml': read('suspension/double_wishbone_axle_front.yaml'), 'multi_link_axle_rear.yaml': read('suspension/multi_link_axle_rear.yaml') };
const sedan = (): VehicleDocument => readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), FILES);
type QuickFigures = NonNullable<ReturnType<typeof vehicleLiveFrame>['figures']>;
/**
 * The quick figures of a car built afresh from the document, once per document content: the
 * corner load's and the ride height's differences rebuild the same cars, and so do a locked
 * pair's two pickups (each moves both: the same document) and the base car of each test. A car
 * whose full frame was built (the understeer gradient's) gives its quick figures from that frame
 * (the same code, before the sweep).
 */
const quickCars = new Map<string, QuickFigures>();
const docKey = (doc: VehicleDocument) => JSON.stringify([doc.text, doc.files, doc.axles]);
function quick(doc: VehicleDocument): QuickFigures {
  const key = docKey(doc);
  let figures = quickCars.get(key);
  if (!figures) quickCars.set(key, (figures = vehicleLiveFrame(doc, 0, { quick: true }).figures!));
  return figures;
}
/** The full frame's figures (the understeer gradient's sweep too), kept for quick() as well. */
function full(doc: VehicleDocument): QuickFigures {
  const figures = vehicleLiveFrame(doc, 0).figures!;
  quickCars.set(docKey(doc), figures);
  return figures;
}
const roll = (doc: VehicleDocument) => quick(doc).roll_gradient;

/** ∂(roll gradient)/∂(coordinate k) of a pickup moved as a drag moves it, by central differences (h mm). */
function difference(doc: VehicleDocument, hp: VehicleHardpoint, k: number, locked: boolean, h = 0.05): number {
  const p = vehicleHardpointPosition(doc, hp);
  const at = (d: number) => { const q = [...p] as [number, number, number]; q[k] += d; return roll(moveVehicleHardpoint(doc, hp, q, locked)); };
  return (at(h) - at(-h)) / (2 * h);
}

/** A figure of a car built afresh from the document: the one each arrow's gradient is of. */
const FIGURES: Record<string, (doc: VehicleDocument) => number> = {
  // the panel's understeer gradient (the steady-state sweep's summary on the 40 m radius); first, so that the corner
  // load's and the ride height's differences read the same cars' quick figures off these full frames
  'vehicle.understeer_gradient': (doc) => full(doc).understeer_gradient!,
  'vehicle.front_left.contact_load': (doc) => quick(doc).corners.front_left.load,
  'vehicle.rear_right.ride_height': (doc) => quick(doc).corners.rear_right.ride_height,
  // the modes of the car at rest: their summary, the value the frequency route reports (frequency-rates.test.ts)
  'vehicle.heave_frequency': (doc) => { const r = vehicleModes(buildVehicle(vehicleSpecOf(doc))); if (r.status !== 'solved') throw new Error(r.message); return r.summary.heave_frequency!; },
};

/** ∂(figure)/∂z of a pickup moved with its mirror, by central differences of rebuilt cars. */
function zDifference(doc: VehicleDocument, hp: VehicleHardpoint, figure: (d: VehicleDocument) => number, h: number): number {
  const p = vehicleHardpointPosition(doc, hp);
  const at = (d: number) => figure(moveVehicleHardpoint(doc, hp, [p[0], p[1], p[2] + d], true));
  return (at(h) - at(-h)) / (2 * h);
}

describe('sensitivity arrows and fit on the whole car', () => {
  it('arrows of a corner\'s load and ride height, the understeer gradient and the heave frequency: each pickup\'s z rate against rebuilt cars', () => {
    const doc = sedan();
    const picks: VehicleHardpoint[] = [{ axle: 'rear', name: 'left_lower_rear_link_inboard' }, { axle: 'front', name: 'left_strut_top' }];
    for (const [metric, figure] of Object.entries(FIGURES)) {
      const r = vehiclePickupRates(doc, metric, picks, true);
      if ('error' in r) throw new Error(`${metric}: ${r.error}`);
      expect(r.value, metric).toBeCloseTo(figure(doc), 6);
      for (const rate of r.rates) {
        const fd = zDifference(doc, rate.hardpoint, figure, 0.2);
        const size = Math.max(...r.rates.map((x) => Math.abs(x.gradient[2])));
        expect(Math.abs(rate.gradient[2] - fd), `${metric} ${rate.hardpoint.name}: ${rate.gradient[2]} vs ${fd}`).toBeLessThan(1e-4 * Math.abs(fd) + 1e-5 * size);
      }
      // an arrow that means something: the figure moves with at least one of them
      expect(Math.max(...r.rates.map((x) => Math.abs(x.gradient[2]))), metric).toBeGreaterThan(0);
    }
  }, 120_000);

  it('arrows: each pickup\'s gradient is the roll gradient\'s rate, locked (with the mirror, mirrored in y) and unlocked', () => {
    const doc = sedan();
    const picks: VehicleHardpoint[] = [
      { axle: 'rear', name: 'left_lower_rear_link_inboard' }, { axle: 'rear', name: 'right_lower_rear_link_inboard' },
      { axle: 'front', name: 'left_strut_top' }, { axle: 'front', name: 'center_arb_u_bar_axis_a' },
    ];
    const z = { locked: 0, alone: 0 };
    // the car is symmetric at the pair: the right pickup is the left one mirrored in y
    const [pl, pr] = [picks[0], picks[1]].map((hp) => vehicleHardpointPosition(doc, hp));
    expect([pr[0], -pr[1], pr[2]]).toEqual(pl);
    for (const locked of [true, false]) {
      const r = vehiclePickupRates(doc, 'vehicle.roll_gradient', picks, locked);
      if ('error' in r) throw new Error(r.error);
      expect(r.value).toBeCloseTo(roll(doc), 10);
      expect(r.rates.map((x) => `${x.hardpoint.axle}:${x.hardpoint.name}`)).toEqual(picks.map((x) => `${x.axle}:${x.name}`));
      // the right pickup's rates are the left one's mirrored (below, to 12 digits) on this symmetric car: differences of
      // the left one's drags check both
      for (const rate of r.rates.filter((x) => !x.hardpoint.name.startsWith('right_'))) {
        for (const k of [1, 2]) {
          const fd = difference(doc, rate.hardpoint, k, locked);
          expect(Math.abs(rate.gradient[k] - fd), `${rate.hardpoint.name} ${'xyz'[k]} locked ${locked}: ${rate.gradient[k]} vs ${fd}`).toBeLessThan(2e-3 * Math.abs(fd) + 1e-8);
        }
      }
      // a pair is seen mirrored from the right (the car is symmetric, so one side alone too)
      const [l, rr] = r.rates;
      expect(rr.gradient[1]).toBeCloseTo(-l.gradient[1], 12);
      expect(rr.gradient[2]).toBeCloseTo(l.gradient[2], 12);
      z[locked ? 'locked' : 'alone'] = l.gradient[2];
    }
    // locked, the pickup moves with its mirror: on a symmetric car, twice one side's rate
    expect(z.locked).toBeCloseTo(2 * z.alone, 9);
  });

  it('fit: the rear pickups moved in z within ±20 mm bring the roll gradient to 0.43 deg/g; the document holds the moves', () => {
    const doc = sedan();
    const frame = vehicleLiveFrame(doc, 0, { quick: true });
    const rear = Object.values(frame.handles).filter((h) => h.axle === 'rear');
    const out = fitVehicleDocument(doc, { targets: [{ metric: 'vehicle.roll_gradient', value: 0.43 }], pickups: rear, axes: ['z'], box: 20, locked: true });
    if ('error' in out) throw new Error(out.error);
    expect(out.report.status).toBe('converged');
    expect(out.doc).not.toBeNull();
    expect(roll(out.doc!)).toBeCloseTo(0.43, 8);
    expect(Math.abs(roll(doc) - 0.43)).toBeGreaterThan(0.01);
    // locked: every moved pickup's mirror moved with it, only in z, within the box
    for (const hp of rear) {
      const before = vehicleHardpointPosition(doc, hp), after = vehicleHardpointPosition(out.doc!, hp);
      expect(after[0]).toBe(before[0]);
      expect(after[1]).toBe(before[1]);
      expect(Math.abs(after[2] - before[2])).toBeLessThanOrEqual(20 + 1e-9);
      const mirror = { axle: hp.axle, name: hp.name.replace(/^left_/, 'right_') };
      if (hp.name.startsWith('left_')) expect(vehicleHardpointPosition(out.doc!, mirror)[2]).toBeCloseTo(after[2], 12);
    }
    expect(vehicleHardpointPosition(out.doc!, { axle: 'front', name: 'left_strut_top' })).toEqual(vehicleHardpointPosition(doc, { axle: 'front', name: 'left_strut_top' }));
  });

  it('fit: two targets at once (roll gradient 0.44 deg/g, heave frequency 3.45 Hz) by the spring and bar rates; the axle files hold the new rates, the pickups stay', () => {
    const doc = sedan();
    expect(vehicleRateNames(doc)).toEqual(['front.spring.rate', 'front.anti_roll.rate', 'rear.spring.rate']);
    const heave = (d: VehicleDocument) => FIGURES['vehicle.heave_frequency'](d);
    expect(Math.abs(heave(doc) - 3.45)).toBeGreaterThan(0.05);
    const out = fitVehicleDocument(doc, {
      targets: [{ metric: 'vehicle.roll_gradient', value: 0.44 }, { metric: 'vehicle.heave_frequency', value: 3.45 }],
      pickups: [], axes: ['z'], box: 20, locked: true, rates: vehicleRateNames(doc), rateBox: 0.5,
    });
    if ('error' in out) throw new Error(out.error);
    expect(out.report.status).toBe('converged');
    expect(out.report.targets.map((t) => t.target)).toEqual(['vehicle.roll_gradient', 'vehicle.heave_frequency']);
    // a car built afresh from the written files meets both
    expect(roll(out.doc!)).toBeCloseTo(0.44, 7);
    expect(heave(out.doc!)).toBeCloseTo(3.45, 7);
    // the moves are in the axle files, within ±50 % of each rate; no pickup moved
    const rate = (d: VehicleDocument, axle: 'front' | 'rear', device: string) => ((d.axles[axle].geometry as Record<string, any>).axle_config[device].rate as number);
    for (const [name, axle, device] of [['front.spring.rate', 'front', 'spring'], ['front.anti_roll.rate', 'front', 'anti_roll'], ['rear.spring.rate', 'rear', 'spring']] as const) {
      const delta = out.report.moves[name].delta;
      expect(rate(out.doc!, axle, device)).toBeCloseTo(rate(doc, axle, device) + delta, 9);
      expect(Math.abs(delta)).toBeLessThanOrEqual(0.5 * rate(doc, axle, device) + 1e-9);
    }
    expect(Object.values(out.report.moves).some((m) => Math.abs(m.delta) > 1)).toBe(true);
    expect(out.doc!.axles.front.geometry.hardpoints).toEqual(doc.axles.front.geometry.hardpoints);
    expect(out.doc!.axles.rear.geometry.hardpoints).toEqual(doc.axles.rear.geometry.hardpoints);
    // a rate the vehicle does not have is refused by name
    const bad = fitVehicleDocument(doc, { targets: [{ metric: 'vehicle.roll_gradient', value: 0.43 }], pickups: [], axes: ['z'], box: 20, locked: true, rates: ['rear.anti_roll.rate'] });
    expect('error' in bad && bad.error).toMatch(/no rate "rear.anti_roll.rate".*front.spring.rate/);
  }, 120_000);
});
