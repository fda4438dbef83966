/**
 * The car's rates in the viewer's design section (src/live/vehicle/rates.ts, design.ts,
 * design-fit.ts): the springs', the bars' and the bushings' and compliant links' rates of the
 * axle files' `compliance:` — each figure's exact gradient with respect to each (the rates'
 * table) against Richardson central differences of cars rebuilt from the document with that
 * rate written into its axle file; a fit by the bushings' rates alone, written into the file.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVehicle } from '../../src/suspension/vehicle/index.ts';
import { vehicleModes } from '../../src/suspension/vehicle/modes.ts';
import {
  fitVehicleDocument, moveVehicleHardpoint, moveVehicleRate, readVehicleDocument, vehicleHardpointPosition, vehicleLiveFrame, vehiclePickupRates, vehicleRateNames, vehicleRates, vehicleSpecOf, type VehicleDocument,
} from '../../src/live/vehicle/index.ts';
import { compliantSedanFront } from '../suspension/vehicle/vehicle-sources';

const EX = join(__dirname, '../../examples');
const read = (p: string) => readFileSync(join(EX, p), 'utf8');
/** The sedan with its front lower wishbones on rubber and a compliant track rod. */
const FILES = {
  'double_wishbone_axle_front.yaml': compliantSedanFront(read('suspension/double_wishbone_axle_front.yaml')),
  'multi_link_axle_rear.yaml': read('suspension/multi_link_axle_rear.yaml'),
};
const compliantSedan = (): VehicleDocument => readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), FILES);

type Figures = NonNullable<ReturnType<typeof vehicleLiveFrame>['figures']>;
/** The rates whose understeer gradient is checked too (a steady-state sweep per car: it takes longest). */
const UNDERSTEER_RATES = /inboard_rear\.radial|links\.trackrod|rear\.spring/;
/**
 * The figures of each car the differences rebuild, by what was moved and by how much: the roll
 * gradient's differences and the corner load's move the same rates and the pickup by the same
 * steps, so each of those cars is built once and both figures read off it. A rate whose
 * understeer gradient is checked gets a full frame from the start, and all three figures are
 * read off it (its quick figures are a quick frame's: the same code, before the sweep).
 */
const cars = new Map<string, Figures>();
function carFigures(doc: VehicleDocument, moved?: string, full = false): Figures {
  const known = moved === undefined ? undefined : cars.get(moved);
  if (known && !(full && known.quick)) return known;
  const figures = vehicleLiveFrame(doc, 0, { quick: !full && !(moved !== undefined && UNDERSTEER_RATES.test(moved)) }).figures!;
  if (moved !== undefined) cars.set(moved, figures);
  return figures;
}

/** Each figure as a car built afresh from the document gives it (`moved`: what was moved in the file, by how much). */
const FIGURES: Record<string, (doc: VehicleDocument, moved?: string) => number> = {
  'vehicle.roll_gradient': (doc, moved) => carFigures(doc, moved).roll_gradient,
  'vehicle.front_left.contact_load': (doc, moved) => carFigures(doc, moved).corners.front_left.load,
  // the modes' summary (kinemate modes), the value the frequency route reports (frequency-rates.test.ts), without its
  // gradient machinery: 0.09 s a car rather than 0.15
  'vehicle.heave_frequency': (doc) => {
    const r = vehicleModes(buildVehicle(vehicleSpecOf(doc)));
    if (r.status !== 'solved') throw new Error(r.message);
    return r.summary.heave_frequency!;
  },
  'vehicle.understeer_gradient': (doc, moved) => carFigures(doc, moved, true).understeer_gradient!,
};

/** d(figure)/d(rate) by Richardson's extrapolation of central differences at h and h/2 (the rate written into its axle file). */
function richardson(doc: VehicleDocument, name: string, figure: (d: VehicleDocument, moved?: string) => number, h: number): number {
  const rate = vehicleRates(doc).find((r) => r.name === name)!;
  const at = (d: number) => figure(moveVehicleRate(doc, rate, d), `${name} ${d}`);
  const central = (s: number) => (at(s) - at(-s)) / (2 * s);
  return (4 * central(h / 2) - central(h)) / 3;
}

describe('the car\'s rates in the design section: springs, bars, bushings', () => {
  it('offers the axle files\' compliance rates beside the spring and bar rates, by their paths in the files', () => {
    const doc = compliantSedan();
    expect(vehicleRateNames(doc, 'device')).toEqual(['front.spring.rate', 'front.anti_roll.rate', 'rear.spring.rate']);
    expect(vehicleRateNames(doc, 'compliance')).toEqual([
      'front.compliance.bushings.lower_wishbone_inboard_front.axial', 'front.compliance.bushings.lower_wishbone_inboard_front.radial',
      'front.compliance.bushings.lower_wishbone_inboard_front.conical', 'front.compliance.bushings.lower_wishbone_inboard_rear.axial',
      'front.compliance.bushings.lower_wishbone_inboard_rear.radial', 'front.compliance.links.trackrod',
    ]);
    const radial = vehicleRates(doc).find((r) => r.name.endsWith('inboard_rear.radial'))!;
    expect([radial.value, radial.unit]).toEqual([4000, 'N/mm']);
    expect(vehicleRates(doc).find((r) => r.name.endsWith('conical'))!.unit).toBe('N·mm/deg');
    // written where the file has it: a car built from the moved document has the new rate
    const moved = moveVehicleRate(doc, radial, 500);
    expect(((moved.axles.front.geometry as Record<string, any>).compliance.bushings.lower_wishbone_inboard_rear.radial)).toBe(4500);
    expect(vehicleRates(moved).find((r) => r.name === radial.name)!.value).toBe(4500);
    expect(doc.axles.front.geometry).toEqual(compliantSedan().axles.front.geometry);
  });

  it('each figure\'s gradient with respect to each rate: against Richardson differences of rebuilt cars', () => {
    const doc = compliantSedan();
    const names = vehicleRateNames(doc);
    for (const [metric, figure] of Object.entries(FIGURES)) {
      // a bushed pickup gets its arrow too (its bushing's frames turn with it: frames.ts), none is left out
      const r = vehiclePickupRates(doc, metric, [{ axle: 'front', name: 'left_lower_wishbone_inboard_front' }, { axle: 'front', name: 'left_strut_top' }], true);
      if ('error' in r) throw new Error(`${metric}: ${r.error}`);
      expect(r.rates.map((x) => x.hardpoint.name)).toEqual(['left_lower_wishbone_inboard_front', 'left_strut_top']);
      expect(r.skipped).toEqual([]);
      // the bushed pickup's height (both sides, locked) against Richardson differences of cars with the pickup dragged (the quick figures)
      if (metric !== 'vehicle.understeer_gradient') {
        const hp = { axle: 'front' as const, name: 'left_lower_wishbone_inboard_front' }, [x, y, z] = vehicleHardpointPosition(doc, hp);
        const at = (d: number) => figure(moveVehicleHardpoint(doc, hp, [x, y, z + d], true), `${hp.axle}.${hp.name}.z ${d}`);
        const central = (s: number) => (at(s) - at(-s)) / (2 * s), fd = (4 * central(0.05) - central(0.1)) / 3;
        expect(Math.abs(r.rates[0].gradient[2] - fd), `${metric} / ${hp.name}.z: ${r.rates[0].gradient[2]} vs ${fd}`).toBeLessThan(1e-6 * Math.abs(fd) + 1e-9);
        expect(Math.abs(fd), metric).toBeGreaterThan(1e-6);
      }
      expect(r.rateGradients.map((g) => g.name)).toEqual(names);
      // the understeer gradient (a steady-state sweep per car) on a bushing, a link and a spring only: it takes longest
      const checked = metric === 'vehicle.understeer_gradient' ? r.rateGradients.filter((g) => UNDERSTEER_RATES.test(g.name)) : r.rateGradients;
      for (const g of checked) {
        // steps of 2 % of the rate
        const fd = richardson(doc, g.name, figure, 0.02 * g.value);
        expect(Math.abs(g.gradient - fd), `${metric} / ${g.name}: ${g.gradient} vs ${fd}`).toBeLessThan(1e-4 * Math.abs(fd) + 1e-12);
      }
      // the bushings move every figure (a rate that meant nothing would give 0 on both sides)
      expect(Math.max(...r.rateGradients.filter((g) => g.name.includes('.compliance.bushings.')).map((g) => Math.abs(g.gradient))), metric).toBeGreaterThan(1e-9);
    }
  }, 300_000);

  it('fits the roll gradient 0.002 deg/g lower by a bushed pickup\'s height (with its mirror): the pickup joins the fit', () => {
    const doc = compliantSedan();
    const roll = FIGURES['vehicle.roll_gradient'];
    const wanted = roll(doc) - 0.002, hp = { axle: 'front' as const, name: 'left_lower_wishbone_inboard_front' };
    const out = fitVehicleDocument(doc, { targets: [{ metric: 'vehicle.roll_gradient', value: wanted }], pickups: [hp], axes: ['z'], box: 20, locked: true });
    if ('error' in out) throw new Error(out.error);
    expect(out.skipped).toEqual([]);
    expect(out.report.status).toBe('converged');
    expect(Object.keys(out.report.moves)).toEqual(['front.lower_wishbone_inboard_front.z']);
    expect(roll(out.doc!)).toBeCloseTo(wanted, 8);
    const dz = out.report.moves['front.lower_wishbone_inboard_front.z'].delta;
    expect(Math.abs(dz)).toBeGreaterThan(1e-3);
    expect(vehicleHardpointPosition(out.doc!, hp)[2]).toBeCloseTo(vehicleHardpointPosition(doc, hp)[2] + dz, 9);
  }, 120_000);

  it('fits the roll gradient 0.0005 deg/g lower by the bushings\' rates alone: the axle file holds the new rates, a rebuilt car has the figure', () => {
    const doc = compliantSedan();
    const roll = FIGURES['vehicle.roll_gradient'];
    const wanted = roll(doc) - 0.0005;
    const rates = vehicleRateNames(doc, 'compliance').filter((n) => n.includes('.bushings.'));
    const out = fitVehicleDocument(doc, { targets: [{ metric: 'vehicle.roll_gradient', value: wanted }], pickups: [], axes: ['z'], box: 20, locked: true, rates, rateBox: 0.5 });
    if ('error' in out) throw new Error(out.error);
    expect(out.report.status).toBe('converged');
    expect(Object.keys(out.report.moves)).toEqual(rates);
    expect(roll(out.doc!)).toBeCloseTo(wanted, 8);
    const before = new Map(vehicleRates(doc).map((r) => [r.name, r.value]));
    for (const r of vehicleRates(out.doc!)) {
      const delta = out.report.moves[r.name]?.delta ?? 0;
      expect(r.value, r.name).toBeCloseTo(before.get(r.name)! + delta, 9);
      expect(Math.abs(delta)).toBeLessThanOrEqual(0.5 * before.get(r.name)! + 1e-9);
    }
    expect(Object.values(out.report.moves).some((m) => Math.abs(m.delta) > 1)).toBe(true);
    expect(out.doc!.axles.front.geometry.hardpoints).toEqual(doc.axles.front.geometry.hardpoints);
  }, 120_000);
});
