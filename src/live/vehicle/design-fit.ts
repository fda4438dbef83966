/**
 * The vehicle fit on a page's document (docs/vehicle.md, "Viewer"): `kinemate fit`'s vehicle
 * fit (src/suspension/vehicle/fit.ts) meeting one target or several at once — each a value, or a
 * range (min and/or max), with a weight, as `kinemate fit`'s targets file gives them — by moving chosen
 * chassis pickups within a box (locked: each with its mirror, as a drag moves them) and, if
 * asked, the axles' spring and anti-roll bar rates and their bushings' and compliant links'
 * rates (`compliance:`) within a fraction of their values; its moves written into the axle
 * files — the pickups as drags write them, a rate at its place in the file
 * (axle_config.spring.rate, compliance.bushings.P.radial, …) — as one new document: one undoable edit.
 */
import { fitVehicle, type VehicleFitReport } from '../../suspension/vehicle/fit.ts';
import { vehicleParameterNames } from '../../suspension/vehicle/parameters.ts';
import { moveVehicleRate, vehicleRates } from './rates.ts';
import { moveVehicleHardpoint, mirrorName, vehicleHardpointPosition, vehicleSpecOf, type VehicleDocument, type VehicleHardpoint } from './document.ts';
import { pairSign, pickupParameters, refusedNumbers } from './design.ts';
import { VEHICLE_DESIGN_METRICS } from './metric-gradients.ts';

const AXES = ['x', 'y', 'z'] as const;

/** One figure to meet: a value, or a range (`min` and/or `max`, a band whose inside costs nothing), weighted as `kinemate fit` weighs it. */
export interface VehicleFitTargetRequest { metric: string; value?: number; min?: number; max?: number; weight?: number }

/** How a target ended: met (at its value, or inside its range), on its range's edge, or missed by `miss` (the figure's unit; + above, − below). */
export type VehicleTargetOutcome = { target: string; met: true; edge?: 'min' | 'max' } | { target: string; met: false; miss: number };

export interface VehicleFitRequest {
  /** What to meet, all at once (the residuals in each figure's own unit, times its weight). */
  targets: readonly VehicleFitTargetRequest[];
  /** The pickups to move (locked: with their mirrors), each coordinate within ±box mm of where it is. */
  pickups: readonly VehicleHardpoint[];
  axes: readonly ('x' | 'y' | 'z')[];
  box: number;
  locked: boolean;
  /** The rates that may change too (`front.spring.rate`, `front.anti_roll.rate`, `front.compliance.bushings.P.radial`: vehicleRateNames), each within ±rateBox × its value. */
  rates?: readonly string[];
  /** A fraction: 0.5 lets a rate go from half to one and a half times its value. */
  rateBox?: number;
}

export interface VehicleDocumentFit {
  report: Omit<VehicleFitReport, 'spec'>;
  /** Per target, in the request's order: met, on an edge of its range, or missed. */
  outcomes: VehicleTargetOutcome[];
  /** Pickups asked for that the fit left where they are, and why (design.ts refusedNumbers). */
  skipped: { hardpoint: VehicleHardpoint; why: string }[];
  /** The document with the fit's moves written (as drags would), or null where the fit moved nothing. */
  doc: VehicleDocument | null;
  ms: number;
}

/** Fits pickups (and rates) of a vehicle document to its targets; the moves written into a new document. */
export function fitVehicleDocument(doc: VehicleDocument, request: VehicleFitRequest): VehicleDocumentFit | { error: string } {
  const t0 = performance.now();
  if (!request.targets.length) return { error: 'no target: give a figure and the value wanted' };
  const bad = request.targets.find((t) => !VEHICLE_DESIGN_METRICS.includes(t.metric));
  if (bad) return { error: `no fit for "${bad.metric}" (the figures: ${VEHICLE_DESIGN_METRICS.join(', ')})` };
  const wrong = request.targets.map(targetProblem).find((p) => p !== null);
  if (wrong) return { error: wrong };
  const spec = vehicleSpecOf(doc);
  const names = new Set(vehicleParameterNames(spec));
  const move: Record<string, [number, number]> = {};
  const seen = new Set<string>();
  const moved: { hp: VehicleHardpoint; parameters: [string, string, string] }[] = [];
  const skipped: { hardpoint: VehicleHardpoint; why: string }[] = [];
  const why = request.pickups.length ? refusedNumbers(spec) : () => null;
  for (const hp of request.pickups) {
    const p = pickupParameters(names, hp, request.locked);
    if (!p || seen.has(p[0])) continue; // a locked pair once
    // a pickup the gradients do not follow stays where it is (design.ts refusedNumbers)
    const refused = p.map(why).find((x) => x !== null);
    if (refused) { skipped.push({ hardpoint: hp, why: refused }); continue; }
    seen.add(p[0]);
    moved.push({ hp, parameters: p });
    request.axes.forEach((a) => { move[p[AXES.indexOf(a)]] = [-request.box, request.box]; });
  }
  const rates = vehicleRates(doc, spec).filter((r) => request.rates?.includes(r.name));
  const unknownRate = request.rates?.find((n) => !rates.some((r) => r.name === n));
  if (unknownRate) return { error: `no rate "${unknownRate}" in this vehicle's axle files (its rates: ${vehicleRates(doc, spec).map((r) => r.name).join(', ') || 'none'})` };
  const rateBox = request.rateBox ?? 0.5;
  if (rates.length && !(rateBox > 0 && rateBox < 1)) return { error: `the rates' box must be a fraction between 0 and 1 (got ${rateBox})` };
  // a rate at 0 (a bushing's free turn) has no box to move in
  for (const r of rates) if (r.value !== 0) move[r.name] = [-rateBox * Math.abs(r.value), rateBox * Math.abs(r.value)];
  if (!Object.keys(move).length) return { error: 'nothing to move: none of the pickups or rates chosen is a number of this vehicle' };
  const targets = request.targets.map(({ metric, value, min, max, weight }) => ({ metric, ...(value !== undefined ? { value } : { min, max }), ...(weight !== undefined ? { weight } : {}) }));
  const full = fitVehicle(spec, { move, targets });
  const report: Omit<VehicleFitReport, 'spec'> = { status: full.status, iterations: full.iterations, cost: full.cost, moves: full.moves, at_bound: full.at_bound, targets: full.targets, ...(full.message ? { message: full.message } : {}) };
  const outcomes = report.targets.map((t, i) => targetOutcome(targets[i], t.value));
  if (report.status === 'failed') return { report, outcomes, skipped, doc: null, ms: performance.now() - t0 };
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
    if (d !== 0) out = moveVehicleRate(out, r, d);
  }
  return { report, outcomes, skipped, doc: out === doc ? null : out, ms: performance.now() - t0 };
}

/** What is wrong with a target as asked (null: nothing): a value or a range, finite numbers, min ≤ max, a weight above 0. */
function targetProblem(t: VehicleFitTargetRequest): string | null {
  const at = `target ${t.metric.replace(/^vehicle\./, '')}`;
  for (const k of ['value', 'min', 'max', 'weight'] as const) if (t[k] !== undefined && !Number.isFinite(t[k])) return `${at}: ${k} must be a number`;
  if (t.value === undefined && t.min === undefined && t.max === undefined) return `${at}: give the value wanted, or a range (min and/or max)`;
  if (t.value !== undefined && (t.min !== undefined || t.max !== undefined)) return `${at}: a value or a range, not both`;
  if (t.min !== undefined && t.max !== undefined && t.min > t.max) return `${at}: min ${t.min} is above max ${t.max}`;
  if (t.weight !== undefined && !(t.weight > 0)) return `${at}: the weight must be above 0 (got ${t.weight})`;
  return null;
}

/**
 * Met, on an edge, or missed, by the figure reached: a value is met within 1e-6 of it (relative
 * to it, or absolute below 1: the fit converges to 1e-9 on the weighted residual), a range
 * inside it to the same margin, on its edge within that margin of min or max.
 */
export function targetOutcome(t: VehicleFitTargetRequest, reached: number): VehicleTargetOutcome {
  const tol = (x: number) => 1e-6 * Math.max(1, Math.abs(x));
  if (t.value !== undefined) {
    const miss = reached - t.value;
    return Math.abs(miss) <= tol(t.value) ? { target: t.metric, met: true } : { target: t.metric, met: false, miss };
  }
  if (t.min !== undefined && reached < t.min - tol(t.min)) return { target: t.metric, met: false, miss: reached - t.min };
  if (t.max !== undefined && reached > t.max + tol(t.max)) return { target: t.metric, met: false, miss: reached - t.max };
  if (t.min !== undefined && Math.abs(reached - t.min) <= tol(t.min)) return { target: t.metric, met: true, edge: 'min' };
  if (t.max !== undefined && Math.abs(reached - t.max) <= tol(t.max)) return { target: t.metric, met: true, edge: 'max' };
  return { target: t.metric, met: true };
}
