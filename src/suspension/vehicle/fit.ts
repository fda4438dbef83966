/**
 * Inverse design on the whole vehicle (docs/vehicle.md "Fit"): move chosen numbers —
 * hardpoints of either axle (one side, or both mirrored), spring and bar rates, the body's
 * mass and centre — each within its box, so that the vehicle's figures at rest (its ride
 * frequencies among them) meet their targets. A bounded Levenberg–Marquardt on the exact Jacobian of static-gradients.ts: each
 * iteration builds and solves the vehicle once and takes every residual's gradient by the
 * implicit function theorem — no differences of re-solved vehicles.
 */
import { isRecord, parseText } from '../files/read';
import { ProblemList } from '../files/errors';
import { buildVehicle } from './assembly';
import type { VehicleSpec } from './file';
import { STATIC_METRICS } from './metric-rates';
import { movedVehicleSpec, vehicleParameterNames } from './parameters';
import { vehicleStaticSensitivity, type VehicleMetricGradient } from './static-gradients';
import { GRADIENT_METRICS, vehicleGradientSensitivity } from './gradient-figures';
import { STEADY_METRICS, UNDERSTEER_RADIUS, understeerSensitivity } from './understeer-rates';
import { SPEED_METRIC, steadySpeedSensitivity } from './steady-speed-rates';
import { FREQUENCY_METRICS, frequencySensitivity } from './frequency-rates';
import { isRadiusMetric, radiusOf, radiusSensitivity } from './radius-metrics';
import { isRackMetric, rackOf, rackSensitivity } from './rack-rates';
import { gaussSolve } from './tangent';

export interface VehicleFitTarget { metric: string; value?: number; min?: number; max?: number; weight?: number }
export interface VehicleFitSpec {
  /** Number → its box [low, high], relative to the file's value (a hardpoint's in mm). */
  move: Record<string, [number, number]>;
  targets: VehicleFitTarget[];
  max_iterations?: number;
}

export interface VehicleFitReport {
  status: 'converged' | 'at_bounds' | 'stalled' | 'max_iterations' | 'failed';
  message?: string;
  iterations: number;
  cost: { start: number; end: number };
  /** Per moved number: its move from the file's value (mm for a hardpoint, the number's unit otherwise). */
  moves: Record<string, { delta: number }>;
  at_bound: string[];
  targets: { target: string; value: number; wanted: string; residual: number }[];
  /** The spec with the moves made. */
  spec: VehicleSpec;
}

/** The moves the fit may make: a hardpoint as { x|y|z: [low, high] } or a number as [low, high]; every problem named by its path. */
export function parseVehicleFitSpec(text: string, spec: VehicleSpec, fileName = 'targets'): VehicleFitSpec {
  const raw = parseText(text, fileName);
  const problems = new ProblemList();
  const names = vehicleParameterNames(spec);
  const move: Record<string, [number, number]> = {};
  const box = (path: string, b: unknown): [number, number] | null => {
    if (Array.isArray(b) && b.length === 2 && b.every((x) => typeof x === 'number' && Number.isFinite(x)) && b[0] <= 0 && b[1] >= 0) return [b[0], b[1]];
    problems.add(path, 'expected [low, high] relative to the value, low ≤ 0 ≤ high');
    return null;
  };
  const r = isRecord(raw) ? raw : (problems.add('', 'expected a mapping with move and targets'), {} as Record<string, unknown>);
  const mv = isRecord(r.move) ? r.move : (problems.add('move', 'expected a mapping: number → [low, high], or hardpoint → { x|y|z: [low, high] }'), {});
  for (const [key, v] of Object.entries(mv)) {
    if (isRecord(v)) {
      for (const [axis, b] of Object.entries(v)) {
        const name = `${key}.${axis}`;
        if (!names.includes(name)) { problems.add(`move.${key}.${axis}`, `not a hardpoint coordinate of this vehicle (e.g. ${names.find((n) => n.startsWith(key.split('.')[0])) ?? names[0]})`); continue; }
        const bb = box(`move.${key}.${axis}`, b);
        if (bb) move[name] = bb;
      }
    } else if (!names.includes(key)) problems.add(`move.${key}`, 'not a number of this vehicle (docs/vehicle.md "Gradients" lists them)');
    else { const bb = box(`move.${key}`, v); if (bb) move[key] = bb; }
  }
  if (!Object.keys(move).length) problems.add('move', 'nothing to move');
  const targets: VehicleFitTarget[] = [];
  if (!Array.isArray(r.targets) || !r.targets.length) problems.add('targets', 'expected a list of { metric, value | min/max, weight? }');
  else r.targets.forEach((t, i) => {
    const p = `targets[${i}]`;
    if (!isRecord(t)) { problems.add(p, 'expected a mapping'); return; }
    const known = [...STATIC_METRICS, ...GRADIENT_METRICS, ...STEADY_METRICS, ...FREQUENCY_METRICS];
    if (typeof t.metric !== 'string' || !(known.includes(t.metric) || SPEED_METRIC.test(t.metric) || isRadiusMetric(t.metric) || isRackMetric(t.metric))) problems.add(`${p}.metric`, `expected one of ${known.join(', ')}, vehicle.steer@V, vehicle.yaw_rate_gain@V (a steady-state one on another radius than ${UNDERSTEER_RADIUS} m with @R<m> after it, through the rack with @rack at the end)`);
    else if ((isRadiusMetric(t.metric) ? radiusOf(t.metric)! : isRackMetric(t.metric) ? rackOf(t.metric)! : { radius: 1 }).radius <= 0) problems.add(`${p}.metric`, 'the radius after @R must be above 0 (m)');
    for (const k of Object.keys(t)) if (!['metric', 'value', 'min', 'max', 'weight'].includes(k)) problems.add(`${p}.${k}`, 'unknown field (metric, value, min, max, weight)');
    for (const k of ['value', 'min', 'max', 'weight'] as const) if (t[k] !== undefined && !(typeof t[k] === 'number' && Number.isFinite(t[k]))) problems.add(`${p}.${k}`, 'expected a number');
    if (t.value === undefined && t.min === undefined && t.max === undefined) problems.add(p, 'give value, or min and/or max');
    const num = (x: unknown) => (typeof x === 'number' ? x : undefined);
    targets.push({ metric: String(t.metric), value: num(t.value), min: num(t.min), max: num(t.max), weight: num(t.weight) });
  });
  const mi = r.max_iterations;
  if (mi !== undefined && !(typeof mi === 'number' && Number.isInteger(mi) && mi >= 1)) problems.add('max_iterations', 'expected a positive integer');
  problems.throwIfAny(fileName);
  return { move, targets, ...(typeof mi === 'number' ? { max_iterations: mi } : {}) };
}

/** The spec with every number moved by its entry of x. */
function specAt(spec: VehicleSpec, names: readonly string[], x: readonly number[]): VehicleSpec {
  return names.reduce((s, n, j) => (x[j] === 0 ? s : movedVehicleSpec(s, n, x[j])), spec);
}

const wantedOf = (t: VehicleFitTarget) => (t.value !== undefined ? `${t.value}` : `${t.min ?? '−∞'}…${t.max ?? '∞'}`);

/** Residual of one target at a value: weight·(value − wanted), a band's zero inside it. */
function residual(t: VehicleFitTarget, v: number): number {
  const w = t.weight ?? 1;
  if (t.value !== undefined) return w * (v - t.value);
  if (t.min !== undefined && v < t.min) return w * (v - t.min);
  if (t.max !== undefined && v > t.max) return w * (v - t.max);
  return 0;
}

/** The fit: bounded Levenberg–Marquardt, the step's components held at a box edge they push against. */
export function fitVehicle(spec: VehicleSpec, fit: VehicleFitSpec): VehicleFitReport {
  const names = Object.keys(fit.move), P = names.length, lo = names.map((n) => fit.move[n][0]), hi = names.map((n) => fit.move[n][1]);
  const metrics = [...new Set(fit.targets.map((t) => t.metric))];
  const evaluate = (x: number[]) => {
    const model = buildVehicle(specAt(spec, names, x));
    const st = metrics.filter((n) => STATIC_METRICS.includes(n)), gr = metrics.filter((n) => GRADIENT_METRICS.includes(n));
    const parts = [st.length ? vehicleStaticSensitivity(model, names, st) : null, gr.length ? vehicleGradientSensitivity(model, names, gr) : null,
      metrics.some((n) => STEADY_METRICS.includes(n)) ? understeerSensitivity(model, names, UNDERSTEER_RADIUS, metrics.filter((n) => STEADY_METRICS.includes(n))) : null,
      metrics.some((n) => SPEED_METRIC.test(n)) ? steadySpeedSensitivity(buildVehicle(specAt(spec, names, x)), names, metrics.filter((n) => SPEED_METRIC.test(n))) : null,
      metrics.some((n) => FREQUENCY_METRICS.includes(n)) ? frequencySensitivity(buildVehicle(specAt(spec, names, x)), names, metrics.filter((n) => FREQUENCY_METRICS.includes(n))) : null,
      metrics.some(isRadiusMetric) ? radiusSensitivity(() => buildVehicle(specAt(spec, names, x)), names, metrics.filter(isRadiusMetric)) : null,
      metrics.some(isRackMetric) ? rackSensitivity(() => buildVehicle(specAt(spec, names, x)), names, metrics.filter(isRackMetric)) : null];
    if (parts.some((p) => p && p.status !== 'solved')) return null;
    const s = { metrics: Object.assign({}, ...parts.map((p) => (p && p.status === 'solved' ? p.metrics : {}))) as Record<string, VehicleMetricGradient> };
    const r = fit.targets.map((t) => residual(t, s.metrics[t.metric].value));
    const J = fit.targets.map((t, i) => names.map((n) => (r[i] === 0 && t.value === undefined ? 0 : (t.weight ?? 1) * s.metrics[t.metric].gradient[n])));
    return { r, J, values: fit.targets.map((t) => s.metrics[t.metric].value), cost: r.reduce((c, v) => c + v * v, 0) / 2 };
  };
  let x = new Array<number>(P).fill(0);
  let cur = evaluate(x);
  if (!cur) return { status: 'failed', message: 'the vehicle could not be solved at rest as given', iterations: 0, cost: { start: NaN, end: NaN }, moves: {}, at_bound: [], targets: [], spec };
  const start = cur.cost;
  let lambda = 1e-3, it = 0, status: VehicleFitReport['status'] = 'max_iterations';
  for (; it < (fit.max_iterations ?? 30); it++) {
    if (cur.cost < 1e-18) { status = 'converged'; break; }
    const g = names.map((_, j) => cur!.r.reduce((s, r, i) => s + cur!.J[i][j] * r, 0));
    // held: a number at its edge with the descent pushing outward
    const free = names.map((_, j) => !((x[j] <= lo[j] && g[j] > 0) || (x[j] >= hi[j] && g[j] < 0)));
    if (!free.some(Boolean) || Math.max(...g.map((v, j) => (free[j] ? Math.abs(v) : 0))) < 1e-14) { status = cur.cost < 1e-18 ? 'converged' : 'at_bounds'; break; }
    let accepted = false;
    for (let tries = 0; tries < 12 && !accepted; tries++) {
      const A = new Float64Array(P * P), b = new Float64Array(P);
      for (let a = 0; a < P; a++) {
        b[a] = free[a] ? -g[a] : 0;
        for (let c = 0; c < P; c++) A[a * P + c] = free[a] && free[c] ? cur.J.reduce((s, row) => s + row[a] * row[c], 0) : a === c ? 1 : 0;
        if (free[a]) A[a * P + a] += lambda * (A[a * P + a] + 1e-12);
      }
      const step = gaussSolve(A, b, P);
      const next = x.map((v, j) => Math.min(hi[j], Math.max(lo[j], v + step[j])));
      const e = evaluate(next);
      if (e && e.cost < cur.cost) { x = next; cur = e; lambda = Math.max(lambda / 3, 1e-12); accepted = true; } else lambda *= 4;
    }
    if (!accepted) { status = cur.cost < 1e-18 ? 'converged' : 'stalled'; break; }
  }
  const at_bound = names.flatMap((n, j) => (x[j] <= lo[j] && lo[j] < 0 ? [`${n} (low)`] : x[j] >= hi[j] && hi[j] > 0 ? [`${n} (high)`] : []));
  // a minimum that leans on the box: the best the box allows
  if ((status === 'stalled' || status === 'at_bounds') && !at_bound.length) status = 'stalled';
  else if (status === 'stalled') status = 'at_bounds';
  return {
    status, iterations: it, cost: { start, end: cur.cost },
    moves: Object.fromEntries(names.map((n, j) => [n, { delta: x[j] }])), at_bound,
    targets: fit.targets.map((t, i) => ({ target: `${t.metric}`, value: cur!.values[i], wanted: wantedOf(t), residual: cur!.r[i] })),
    spec: specAt(spec, names, x),
  };
}
