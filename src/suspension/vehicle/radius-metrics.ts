/**
 * The steady-state metrics on a radius of one's choosing (docs/vehicle.md "Gradient figures"):
 * a steady-state metric's name with `@R<metres>` after it — `vehicle.understeer_gradient@R100`,
 * `vehicle.kinematic_steer@R15`, `vehicle.steer@50@R60` — is that figure on that radius (a left
 * turn). The names without it keep meaning UNDERSTEER_RADIUS (40 m, the viewer's skid pad), and
 * are computed as before (understeer-rates.ts, steady-speed-rates.ts); these go to the same code
 * with their radius, one linearisation per radius, the names given back as asked.
 */
import type { VehicleModel } from './assembly';
import type { VehicleMetricGradient } from './static-gradients';
import { STEADY_METRICS, understeerSensitivity } from './understeer-rates';
import { SPEED_METRIC, steadySpeedSensitivity } from './steady-speed-rates';
import { VehicleInputError } from './errors';

/** `<steady-state metric>@R<m>`: the metric and the radius in metres. */
const RADIUS_SUFFIX = /^(vehicle\.[a-z_]+(?:@\d+(?:\.\d+)?)?)@R(\d+(?:\.\d+)?)$/;

/** The figure's name on the default radius and the radius (m), or null when the name has no `@R` suffix. */
export function radiusOf(name: string): { base: string; radius: number } | null {
  const x = RADIUS_SUFFIX.exec(name);
  return x ? { base: x[1], radius: Number(x[2]) } : null;
}

/** Whether a metric is a steady-state figure named on its own radius. */
export function isRadiusMetric(name: string): boolean {
  const r = radiusOf(name);
  return r !== null && (STEADY_METRICS.includes(r.base) || SPEED_METRIC.test(r.base));
}

/**
 * The asked `@R` metrics and their exact gradients along the named numbers: per radius, the
 * summary's figures by understeerSensitivity and the speeds' by steadySpeedSensitivity, each on
 * a model of its own (`build`), as the 40 m figures are.
 */
export function radiusSensitivity(build: () => VehicleModel, names: readonly string[], metrics: readonly string[]): { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | { status: 'failed'; message: string } {
  const byRadius = new Map<number, { name: string; base: string }[]>();
  for (const name of metrics) {
    const r = radiusOf(name);
    if (!r || !isRadiusMetric(name)) throw new VehicleInputError('--metric', `"${name}": expected a steady-state metric (${STEADY_METRICS.join(', ')}, vehicle.steer@V, vehicle.yaw_rate_gain@V) followed by @R and a radius in m`);
    if (!(r.radius > 0)) throw new VehicleInputError('--metric', `"${name}": the radius after @R must be above 0 (m; a left turn)`);
    byRadius.set(r.radius, [...(byRadius.get(r.radius) ?? []), { name, base: r.base }]);
  }
  const out: Record<string, VehicleMetricGradient> = {};
  for (const [radius, asked] of byRadius) {
    const summary = asked.filter((a) => STEADY_METRICS.includes(a.base)), speed = asked.filter((a) => !STEADY_METRICS.includes(a.base));
    for (const [group, solve] of [
      [summary, (bases: string[]) => understeerSensitivity(build(), names, radius, bases)],
      [speed, (bases: string[]) => steadySpeedSensitivity(build(), names, bases, radius)],
    ] as const) {
      if (!group.length) continue;
      const r = solve([...new Set(group.map((a) => a.base))]);
      if (r.status !== 'solved') return { status: 'failed', message: `on the ${radius} m radius: ${r.message}` };
      for (const a of group) out[a.name] = r.metrics[a.base];
    }
  }
  return { status: 'solved', metrics: Object.fromEntries(metrics.map((n) => [n, out[n]])) };
}
