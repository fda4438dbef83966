/**
 * The exact gradients of any of the figures the viewer's design section offers — a corner's
 * load and ride height at rest, the roll, load-transfer and pitch gradients, the understeer
 * gradient on the skid pad's radius, the ride and wheel-hop frequencies — with respect to
 * named numbers of a vehicle (pickups, spring and bar rates), each by the route `kinemate
 * sensitivity` takes for it (src/suspension/vehicle: static-gradients, gradient-figures,
 * understeer-rates, frequency-rates), merged into one answer.
 */
import {
  buildVehicle, CORNERS, FREQUENCY_METRICS, frequencySensitivity, GRADIENT_METRICS, STATIC_METRICS, STEADY_METRICS, understeerSensitivity,
  UNDERSTEER_METRIC, UNDERSTEER_RADIUS, vehicleGradientSensitivity, vehicleStaticSensitivity, type VehicleMetricGradient, type VehicleSpec,
} from '../../suspension/vehicle/index.ts';

/** The figures a page shows arrows for and fits, grouped as its menus list them. */
export const VEHICLE_DESIGN_GROUPS: readonly { label: string; metrics: readonly string[] }[] = [
  { label: 'gradients', metrics: [...GRADIENT_METRICS, UNDERSTEER_METRIC] },
  { label: 'frequencies', metrics: FREQUENCY_METRICS },
  { label: 'at rest', metrics: CORNERS.flatMap((c) => [`vehicle.${c}.contact_load`, `vehicle.${c}.ride_height`]) },
];

export const VEHICLE_DESIGN_METRICS: readonly string[] = VEHICLE_DESIGN_GROUPS.flatMap((g) => g.metrics);

/** A figure's unit (its gradient is that per mm of a pickup, per N/mm of a rate). */
export function vehicleMetricUnit(metric: string): string {
  if (FREQUENCY_METRICS.includes(metric)) return 'Hz';
  if (metric.endsWith('contact_load')) return 'N';
  if (metric.endsWith('ride_height')) return 'mm';
  if (metric.includes('lateral_load_transfer')) return 'N/g';
  if (metric === 'vehicle.front_load_transfer_share') return '';
  return 'deg/g';
}

export type VehicleMetricGradients = { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | { status: string; message: string };

/**
 * The figures and their gradients with respect to the numbers named, each route on its own
 * build of the spec (as the CLI does: a route leaves its model's state where its analysis did).
 * @throws VehicleInputError for a number the vehicle does not have; SuspensionFileError where it cannot be built.
 */
export function vehicleMetricGradients(spec: VehicleSpec, names: readonly string[], metrics: readonly string[]): VehicleMetricGradients {
  const of = (list: readonly string[]) => metrics.filter((m) => list.includes(m));
  const unknown = metrics.filter((m) => ![STATIC_METRICS, GRADIENT_METRICS, STEADY_METRICS, FREQUENCY_METRICS].some((l) => l.includes(m)));
  if (unknown.length) return { status: 'failed', message: `no vehicle figure "${unknown[0]}" (the figures: ${VEHICLE_DESIGN_METRICS.join(', ')})` };
  const routes = [
    [of(STATIC_METRICS), (ms: string[]) => vehicleStaticSensitivity(buildVehicle(spec), names, ms)],
    [of(GRADIENT_METRICS), (ms: string[]) => vehicleGradientSensitivity(buildVehicle(spec), names, ms)],
    [of(STEADY_METRICS), (ms: string[]) => understeerSensitivity(buildVehicle(spec), names, UNDERSTEER_RADIUS, ms)],
    [of(FREQUENCY_METRICS), (ms: string[]) => frequencySensitivity(buildVehicle(spec), names, ms)],
  ] as const;
  const out: Record<string, VehicleMetricGradient> = {};
  for (const [asked, route] of routes) {
    if (!asked.length) continue;
    const r = route(asked);
    if (r.status !== 'solved') return { status: r.status, message: r.message };
    Object.assign(out, r.metrics);
  }
  return { status: 'solved', metrics: out };
}
