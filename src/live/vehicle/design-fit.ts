/**
 * The vehicle fit on a page's document (docs/vehicle.md, "Viewer"): `kinemate fit`'s vehicle
 * fit (src/suspension/vehicle/fit.ts) meeting one target or several at once by moving chosen
 * chassis pickups within a box (locked: each with its mirror, as a drag moves them) and, if
 * asked, the axles' spring and anti-roll bar rates within a fraction of their values; its
 * moves written into the axle files — the pickups as drags write them, a rate at its place
 * in the file (axle_config.spring.rate, …) — as one new document: one undoable edit.
 */
import { fitVehicle, type VehicleFitReport } from '../../suspension/vehicle/fit.ts';
import { vehicleParameterNames } from '../../suspension/vehicle/parameters.ts';
import { movedFile, placesOf, type DoePlace } from '../../suspension/design/doe-parameters.ts';
import type { GeometryJson } from '../document.ts';
import type { AxleName, VehicleSpec } from '../../suspension/vehicle/index.ts';
import { moveVehicleHardpoint, mirrorName, vehicleHardpointPosition, vehicleSpecOf, type VehicleDocument, type VehicleHardpoint } from './document.ts';
import { pairSign, pickupParameters } from './design.ts';
import { VEHICLE_DESIGN_METRICS } from './metric-gradients.ts';

const AXES = ['x', 'y', 'z'] as const;
/** The rates a page's fit may change: each axle's spring and anti-roll bar (N/mm; the bar's in its file's unit). */
const RATE = /^(front|rear)\.(spring|anti_roll)\.rate$/;

export interface VehicleFitRequest {
  /** What to meet, all at once (the residuals in each figure's own unit). */
  targets: readonly { metric: string; value: number }[];
  /** The pickups to move (locked: with their mirrors), each coordinate within ±box mm of where it is. */
  pickups: readonly VehicleHardpoint[];
  axes: readonly ('x' | 'y' | 'z')[];
  box: number;
  locked: boolean;
  /** The rates that may change too (`front.spring.rate`, `front.anti_roll.rate`: vehicleRateNames), each within ±rateBox × its value. */
  rates?: readonly string[];
  /** A fraction: 0.5 lets a rate go from half to one and a half times its value. */
  rateBox?: number;
}

export interface VehicleDocumentFit {
  report: Omit<VehicleFitReport, 'spec'>;
  /** The document with the fit's moves written (as drags would), or null where the fit moved nothing. */
  doc: VehicleDocument | null;
  ms: number;
}

/** The spring and bar rates of a vehicle a fit may change, with their values now and their places in the axle files. */
export function vehicleRates(doc: VehicleDocument, spec: VehicleSpec = vehicleSpecOf(doc)): { name: string; value: number; axle: AxleName; places: DoePlace[] }[] {
  return vehicleParameterNames(spec).filter((n) => RATE.test(n)).flatMap((name) => {
    const axle = name.split('.')[0] as AxleName, file = doc.axles[axle].geometry;
    const places = placesOf(file, spec[axle].geometry, name.slice(axle.length + 1));
    if (typeof places === 'string' || places.length !== 1) return [];
    const value = places[0].path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], file);
    return typeof value === 'number' && Number.isFinite(value) ? [{ name, value, axle, places }] : [];
  });
}

/** The names of vehicleRates (what the page offers). */
export function vehicleRateNames(doc: VehicleDocument): string[] {
  return vehicleRates(doc).map((r) => r.name);
}

/** Fits pickups (and rates) of a vehicle document to its targets; the moves written into a new document. */
export function fitVehicleDocument(doc: VehicleDocument, request: VehicleFitRequest): VehicleDocumentFit | { error: string } {
  const t0 = performance.now();
  if (!request.targets.length) return { error: 'no target: give a figure and the value wanted' };
  const bad = request.targets.find((t) => !VEHICLE_DESIGN_METRICS.includes(t.metric));
  if (bad) return { error: `no fit for "${bad.metric}" (the figures: ${VEHICLE_DESIGN_METRICS.join(', ')})` };
  const spec = vehicleSpecOf(doc);
  const names = new Set(vehicleParameterNames(spec));
  const move: Record<string, [number, number]> = {};
  const seen = new Set<string>();
  const moved: { hp: VehicleHardpoint; parameters: [string, string, string] }[] = [];
  for (const hp of request.pickups) {
    const p = pickupParameters(names, hp, request.locked);
    if (!p || seen.has(p[0])) continue; // a locked pair once
    seen.add(p[0]);
    moved.push({ hp, parameters: p });
    request.axes.forEach((a) => { move[p[AXES.indexOf(a)]] = [-request.box, request.box]; });
  }
  const rates = vehicleRates(doc, spec).filter((r) => request.rates?.includes(r.name));
  const unknownRate = request.rates?.find((n) => !rates.some((r) => r.name === n));
  if (unknownRate) return { error: `no rate "${unknownRate}" in this vehicle's axle files (its rates: ${vehicleRates(doc, spec).map((r) => r.name).join(', ') || 'none'})` };
  const rateBox = request.rateBox ?? 0.5;
  if (rates.length && !(rateBox > 0 && rateBox < 1)) return { error: `the rates' box must be a fraction between 0 and 1 (got ${rateBox})` };
  for (const r of rates) move[r.name] = [-rateBox * Math.abs(r.value), rateBox * Math.abs(r.value)];
  if (!Object.keys(move).length) return { error: 'nothing to move: none of the pickups or rates chosen is a number of this vehicle' };
  const full = fitVehicle(spec, { move, targets: request.targets.map((t) => ({ metric: t.metric, value: t.value })) });
  const report: Omit<VehicleFitReport, 'spec'> = { status: full.status, iterations: full.iterations, cost: full.cost, moves: full.moves, at_bound: full.at_bound, targets: full.targets, ...(full.message ? { message: full.message } : {}) };
  if (report.status === 'failed') return { report, doc: null, ms: performance.now() - t0 };
  let out = doc;
  for (const { hp, parameters } of moved) {
    const d = parameters.map((p) => report.moves[p]?.delta ?? 0);
    if (d.every((x) => x === 0)) continue;
    const sign = pairSign(hp, parameters);
    const [x, y, z] = vehicleHardpointPosition(out, hp);
    out = moveVehicleHardpoint(out, hp, [x + sign[0] * d[0], y + sign[1] * d[1], z + sign[2] * d[2]], parameters[0].split('.').length === 3 && mirrorName(hp.name) !== null);
  }
  for (const r of rates) {
    const d = report.moves[r.name]?.delta ?? 0;
    if (d === 0) continue;
    const source = out.axles[r.axle];
    out = { ...out, axles: { ...out.axles, [r.axle]: { ...source, geometry: movedFile(source.geometry, [r.places], [d]) as GeometryJson } } };
  }
  return { report, doc: out === doc ? null : out, ms: performance.now() - t0 };
}
