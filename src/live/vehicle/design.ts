/**
 * Sensitivity arrows and fit on the whole car in a page (docs/vehicle.md, "Viewer"): the
 * exact gradients of a vehicle figure (the roll gradient, the load transfer and its front
 * share, the pitch and understeer gradients, the ride frequencies, a corner's load and ride
 * height; metric-gradients.ts) with respect to the chassis pickups the viewer drags, one
 * arrow per pickup, and with respect to every rate of the car — the springs', the bars', the
 * bushings' and compliant links' (`compliance:`) — a table (the fit that moves them all:
 * design-fit.ts). No DOM: it runs in the
 * viewer's vehicle-design worker and, for tests, in Node.
 *
 * Locked, a pickup and its mirror are one number (`front.lower_wishbone_inboard_front.z`:
 * both sides, the right's y mirrored), as a locked drag moves them; unlocked, each side's
 * own (`front.left.lower_wishbone_inboard_front.z`).
 */
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import { vehicleParameter, vehicleParameterNames } from '../../suspension/vehicle/parameters.ts';
import { buildVehicle, type VehicleSpec } from '../../suspension/vehicle/index.ts';
import { vehicleSpecOf, type VehicleDocument, type VehicleHardpoint } from './document.ts';
import { VEHICLE_DESIGN_METRICS, vehicleMetricGradients } from './metric-gradients.ts';
import { vehicleRates } from './rates.ts';

const AXES = ['x', 'y', 'z'] as const;

/** One pickup's arrow: the figure's rate per mm of each coordinate (the axle file's axes), by the number the pickup moves as. */
export interface VehiclePickupRate {
  hardpoint: VehicleHardpoint;
  /** Figure unit per mm: ∂/∂x, ∂/∂y, ∂/∂z of this pickup (with its mirror when locked). */
  gradient: Vec3Tuple;
  /** The numbers differentiated (x, y, z). */
  parameters: [string, string, string];
}

/** How the figure moves with one of the car's rates (a spring's, a bar's, a bushing's or compliant link's). */
export interface VehicleRateGradient {
  /** `front.spring.rate`, `front.anti_roll.rate`, `front.compliance.bushings.P.radial`, … */
  name: string;
  /** The rate now, and its unit (N/mm, N·mm/deg). */
  value: number;
  unit: string;
  /** Figure unit per rate unit. */
  gradient: number;
}

export interface VehiclePickupRates {
  metric: string;
  /** The figure at rest. */
  value: number;
  rates: VehiclePickupRate[];
  /** The figure's gradient with respect to each rate of the car (rates.ts vehicleRates): the rates' table. */
  rateGradients: VehicleRateGradient[];
  /** Pickups without an arrow, and why: a number the gradients refuse, with their message (none of the examples' pickups; a bushed one's frames turn with it: frames.ts). */
  skipped: { hardpoint: VehicleHardpoint; why: string }[];
  ms: number;
}

/** A pickup's numbers: the pair's when locked and the axle has both sides as one, else its own side's; null where the vehicle has none. */
export function pickupParameters(names: ReadonlySet<string>, hp: VehicleHardpoint, locked: boolean): [string, string, string] | null {
  const m = /^(left|right|center)_(.+)$/.exec(hp.name);
  const side = m ? m[1] : null, point = m ? m[2] : hp.name;
  const candidates = locked && side !== 'center' ? [`${hp.axle}.${point}`, `${hp.axle}.${side}.${point}`] : [`${hp.axle}.${side}.${point}`, `${hp.axle}.${point}`];
  for (const c of candidates) if (AXES.every((a) => names.has(`${c}.${a}`))) return AXES.map((a) => `${c}.${a}`) as [string, string, string];
  return null;
}

/**
 * Why the vehicle's gradients refuse a number (null: they take it), asked of the parameter map
 * once per number: a pickup whose build moves something the gradients do not follow is left
 * without an arrow and out of a fit, not the whole request failed (a bushed pickup is followed:
 * its bushing's frames turn with it, src/suspension/gradients/simulation/frames.ts).
 */
export function refusedNumbers(spec: VehicleSpec): (name: string) => string | null {
  const doc = buildVehicle(spec).doc, seen = new Map<string, string | null>();
  return (name) => {
    if (!seen.has(name)) {
      try { vehicleParameter(spec, doc, name); seen.set(name, null); } catch (error) { seen.set(name, error instanceof Error ? error.message : String(error)); }
    }
    return seen.get(name)!;
  };
}

/** The sign of each axis of a pair's number seen from the right pickup (y mirrored). */
export function pairSign(hp: VehicleHardpoint, parameters: readonly string[]): Vec3Tuple {
  const pair = !/\.(left|right|center)\./.test(parameters[0]);
  return pair && hp.name.startsWith('right_') ? [1, -1, 1] : [1, 1, 1];
}

/**
 * The figure's exact gradient for every pickup given (the viewer's handles). Locked, a pair's
 * gradient is taken once and shown at both pickups (mirrored in y).
 * @throws SuspensionFileError for a document that cannot be read; VehicleInputError for an unknown figure.
 */
export function vehiclePickupRates(doc: VehicleDocument, metric: string, pickups: readonly VehicleHardpoint[], locked: boolean): VehiclePickupRates | { error: string } {
  const t0 = performance.now();
  if (!VEHICLE_DESIGN_METRICS.includes(metric)) return { error: `no arrows for "${metric}" (the figures: ${VEHICLE_DESIGN_METRICS.join(', ')})` };
  const spec = vehicleSpecOf(doc);
  const names = new Set(vehicleParameterNames(spec));
  const wanted: { hp: VehicleHardpoint; parameters: [string, string, string] }[] = [];
  const skipped: { hardpoint: VehicleHardpoint; why: string }[] = [];
  const why = refusedNumbers(spec);
  for (const hp of pickups) {
    const p = pickupParameters(names, hp, locked);
    const refused = p && p.map(why).find((x) => x !== null);
    if (refused) skipped.push({ hardpoint: hp, why: refused });
    else if (p) wanted.push({ hp, parameters: p });
  }
  const carRates = vehicleRates(doc, spec);
  const unique = [...new Set([...wanted.flatMap((w) => w.parameters), ...carRates.map((r) => r.name)])];
  const s = vehicleMetricGradients(spec, unique, [metric]);
  if (s.status !== 'solved' || !('metrics' in s)) return { error: `${s.status}: ${'message' in s ? s.message : ''}` };
  const g = s.metrics[metric];
  const rates = wanted.map(({ hp, parameters }) => {
    const sign = pairSign(hp, parameters);
    return { hardpoint: hp, parameters, gradient: parameters.map((p, k) => sign[k] * g.gradient[p]) as Vec3Tuple };
  });
  const rateGradients = carRates.map((r) => ({ name: r.name, value: r.value, unit: r.unit, gradient: g.gradient[r.name] }));
  return { metric, value: g.value, rates, rateGradients, skipped, ms: performance.now() - t0 };
}
