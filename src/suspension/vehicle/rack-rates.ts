/**
 * The steady-state metrics through the rack (docs/vehicle.md "Gradients and fit"): a
 * steady-state metric's name with `@rack` at its end — `vehicle.understeer_gradient@rack`,
 * `vehicle.steer@50@R60@rack` — is `--steady-state --steer rack`'s figure: the turn solved for
 * the rack's travel (steady-rack.ts), `steer` the rack times the linkage's mean ratio at rest.
 * Exact gradients by the wheel-steer figures' own code (understeer-rates.ts,
 * steady-speed-rates.ts) with the rack's pose rate in place of the steer at the wheels and,
 * with a drive, κ and the x balance; and the ratio's own rate: the front wheels' heading's
 * mixed second derivative along the rest state's rate q′ and the rack's pose rate q_r, whose
 * rate along the number is figure-rates.ts movingDeltas' (a tangent with no load).
 */
import { Hyper2 } from '../../../mates/tyres/hyper2';
import type { TyreModel } from '../../../mates/tyres';
import type { VehicleModel } from './assembly';
import { vehicleParameter, type VehicleParameter } from './parameters';
import { geometryMoves } from './axle-points';
import { stateRates, type VehicleMetricGradient } from './static-gradients';
import { movingDeltas, unfollowed } from './figure-rates';
import { M_S2_PER_G, steadyTyres, wheelGeometry } from './steady-state';
import { exactReduced } from './tangent';
import { rackTangent } from './rack';
import { rackLinearisation, rackSetup, type RackSetup } from './steady-rack';
import { STEADY_METRICS, UNDERSTEER_RADIUS, posePoly, understeerRates, type RackLin } from './understeer-rates';
import { SPEED_METRIC, speedRates } from './steady-speed-rates';
import { VehicleInputError } from './errors';

const DEG = 180 / Math.PI;
/** `<steady-state metric>[@R<m>]@rack`. */
const RACK_SUFFIX = /^(vehicle\.[a-z_]+(?:@\d+(?:\.\d+)?)?)(?:@R(\d+(?:\.\d+)?))?@rack$/;

/** The metric's name without `@R…@rack` and its radius (m), or null without the `@rack` suffix. */
export function rackOf(name: string): { base: string; radius: number } | null {
  const x = RACK_SUFFIX.exec(name);
  return x ? { base: x[1], radius: x[2] === undefined ? UNDERSTEER_RADIUS : Number(x[2]) } : null;
}

/** Whether a metric is a steady-state figure through the rack. */
export function isRackMetric(name: string): boolean {
  const r = rackOf(name);
  return r !== null && (STEADY_METRICS.includes(r.base) || SPEED_METRIC.test(r.base));
}

type Group = { name: string; base: string }[];

/**
 * The asked `@rack` metrics and their exact gradients along the named numbers: per radius,
 * the summary's figures and the speeds' each on a model of its own (`build`).
 */
export function rackSensitivity(build: () => VehicleModel, names: readonly string[], metrics: readonly string[]): { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | { status: 'failed'; message: string } {
  const byRadius = new Map<number, Group>();
  for (const name of metrics) {
    const r = rackOf(name);
    if (!r || !isRackMetric(name)) throw new VehicleInputError('--metric', `"${name}": expected a steady-state metric (${STEADY_METRICS.join(', ')}, vehicle.steer@V, vehicle.yaw_rate_gain@V), optionally @R and a radius in m, then @rack`);
    if (!(r.radius > 0)) throw new VehicleInputError('--metric', `"${name}": the radius after @R must be above 0 (m; a left turn)`);
    byRadius.set(r.radius, [...(byRadius.get(r.radius) ?? []), { name, base: r.base }]);
  }
  const out: Record<string, VehicleMetricGradient> = {};
  for (const [radius, asked] of byRadius) {
    const summary = asked.filter((a) => STEADY_METRICS.includes(a.base)), speed = asked.filter((a) => !STEADY_METRICS.includes(a.base));
    for (const [group, solve] of [[summary, rackSummaryRates], [speed, rackSpeedRates]] as const) {
      if (!group.length) continue;
      const r = solve(build(), names, radius, group);
      if (r.status !== 'solved') return { status: 'failed', message: `through the rack on the ${radius} m radius: ${r.message}` };
      Object.assign(out, r.metrics);
    }
  }
  return { status: 'solved', metrics: Object.fromEntries(metrics.map((n) => [n, out[n]])) };
}

interface Prepared { params: VehicleParameter[]; models: TyreModel[]; setup: RackSetup; ratio: number; ratioRates: number[] }

/** The numbers (refused where not followed), the tyres, the rack at rest and the ratio's rates; the model left at rest. */
function prepare(m: VehicleModel, names: readonly string[]): Prepared | { status: 'failed'; message: string } {
  const params = names.map((n) => vehicleParameter(m.spec, m.doc, n));
  for (const p of params) {
    const why = unfollowed(m, p);
    if (why) throw new VehicleInputError(`parameter "${p.name}"`, `${why}: a steady state's gradient through the rack is exact here for hardpoints, spring rates and free lengths, the bars' rates, the parts' masses, the body's mass and cg_position`);
  }
  const models = steadyTyres(m), setup = rackSetup(m, models);
  if ('status' in setup) return setup;
  // the value as the sweep takes it (setup.ratio: the same mean by forward AD, the same to the last bits)
  return { params, models, setup, ratio: setup.ratio, ratioRates: ratioRates(m, setup, params).rates };
}

/**
 * The linkage's mean ratio at rest (rad per mm: the front wheels' heading per mm of rack) and
 * its rate along each number: the heading's mixed part at the poses T(I + ε₁ξ′)(I + ε₂ξ_r)(I + ε₁ε₂ξ_r′),
 * q′ the rest state's rate, q_r the rack's pose rate and q_r′ its rate along the number.
 */
export function ratioRates(m: VehicleModel, setup: RackSetup, params: readonly VehicleParameter[]): { ratio: number; rates: number[] } {
  const tangents: { qd: Float64Array; rp: Float64Array }[] = [];
  stateRates(m, params, undefined, (j, qd, rp) => { tangents[j] = { qd, rp }; });
  const red = exactReduced(m), qr = rackTangent(m, setup.rack).delta;
  const moved = movingDeltas(m, red, params, tangents, [{ ax: 0, ay: 0 }], [qr]);
  const h = new Hyper2(), front = m.wheels.filter((w) => w.axle === 'front');
  const mean = (q1: Float64Array, q12: Float64Array, part: 1 | 2, p?: VehicleParameter) => {
    h.reset();
    const move = geometryMoves(m, p?.wheels, h.make(0, 1, 0, 0)); // an axle point's own turn of the wheel (axle-points.ts)
    return front.reduce((s, w) => s + h.part(wheelGeometry(h, w, posePoly(h, m, red.layout, w.upright, q1, qr, q12), m.road, move(w.corner)).psi, part) / front.length, 0);
  };
  const zero = new Float64Array(qr.length);
  return { ratio: mean(zero, zero, 1), rates: params.map((p, j) => mean(tangents[j].qd, moved[j][0]!, 2, p)) };
}

/** The rack's share of the shared rates code: its pose rate, the drive's wheels and κ, the loads. */
function rackLin(lin: Extract<ReturnType<typeof rackLinearisation>, { status: 'solved' }>, setup: RackSetup): RackLin {
  return { qr: lin.qr.delta, driven: setup.drive ? setup.driven : null, base: lin.base, kappa: lin.x0.kappa };
}

/** The 0 g summary's figures through the rack on the radius: K = u_rack × ratio, β′, the kinematic steer rack₀ × ratio. */
function rackSummaryRates(m: VehicleModel, names: readonly string[], radius: number, asked: Group) {
  const pre = prepare(m, names);
  if ('status' in pre) return pre;
  const { params, models, setup, ratio, ratioRates: dr } = pre;
  const lin = rackLinearisation(m, models, setup, radius * 1000);
  if (lin.status === 'failed') return lin;
  const x = { ...lin, x0: { delta: lin.x0.rack, beta: lin.x0.beta } };
  const rates = understeerRates(m, models, radius * 1000, x, params, rackLin(lin, setup));
  const { u, nf } = lin, rack0 = lin.x0.rack;
  const values = [u[nf] * ratio * DEG, u[nf + 1] * DEG, rack0 * ratio * DEG];
  const grads = rates.map((r, j) => [(r[0] * ratio + u[nf] * dr[j]) * DEG, r[1], (r[2] * ratio + rack0 * dr[j]) * DEG]);
  const metrics: Record<string, VehicleMetricGradient> = {};
  for (const a of asked) {
    const i = STEADY_METRICS.indexOf(a.base);
    metrics[a.name] = { value: values[i], gradient: Object.fromEntries(params.map((p, j) => [p.name, grads[j][i]])) };
  }
  return { status: 'solved' as const, metrics };
}

/** A step's steer (rack × ratio) and yaw-rate gain through the rack at its speed, solved from rest. */
function rackSpeedRates(m: VehicleModel, names: readonly string[], radius: number, asked: Group) {
  const pre = prepare(m, names);
  if ('status' in pre) return pre;
  const { params, models, setup, ratio, ratioRates: dr } = pre;
  const atRest = m.dyn.system.snapshot(), Rmm = radius * 1000, metrics: Record<string, VehicleMetricGradient> = {};
  const speeds = asked.map((a) => { const x = SPEED_METRIC.exec(a.base)!; return { ...a, steer: x[1] === 'steer', kmh: Number(x[2]) }; });
  for (const kmh of [...new Set(speeds.map((a) => a.kmh))]) {
    if (!(kmh > 0)) throw new VehicleInputError('--metric', `"vehicle.steer@${kmh}": the speed must be above 0 (km/h)`);
    m.dyn.system.restore(atRest);
    const V = kmh / 3.6, ay = (V * V) / radius / M_S2_PER_G;
    const lin = rackLinearisation(m, models, setup, Rmm, ay);
    if (lin.status === 'failed') return { status: 'failed' as const, message: `at ${kmh} km/h: ${lin.message}` };
    const x = { ...lin, x0: { delta: lin.x0.rack, beta: lin.x0.beta } };
    const rates = speedRates(m, models, Rmm, x, params, ay, rackLin(lin, setup));
    const rack = lin.x0.rack, d = rack * ratio, gain = V / radius / d;
    const dd = params.map((_, j) => rates[j] * ratio + rack * dr[j]);
    for (const a of speeds.filter((s) => s.kmh === kmh)) {
      metrics[a.name] = { value: a.steer ? d * DEG : gain, gradient: Object.fromEntries(params.map((p, j) => [p.name, a.steer ? dd[j] * DEG : (-gain / d) * dd[j]])) };
    }
  }
  return { status: 'solved' as const, metrics };
}
