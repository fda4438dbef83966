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
import { STEERING_SPRING, type VehicleModel } from './assembly';
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
/** `<steady-state metric>[@R<m>]@rack[@open][@aligning]`. */
const RACK_SUFFIX = /^(vehicle\.[a-z_]+(?:@\d+(?:\.\d+)?)?)(?:@R(\d+(?:\.\d+)?))?@rack(@open)?(@aligning)?$/;

/** How the turn through the rack is solved: `@open` an open differential, `@aligning` the aligning moments on the pose. */
export interface RackVariant { differential: 'locked' | 'open'; aligning: boolean }

/** The metric's name without `@R…@rack…`, its radius (m) and its variant, or null without the `@rack` suffix. */
export function rackOf(name: string): ({ base: string; radius: number } & Partial<RackVariant>) | null {
  const x = RACK_SUFFIX.exec(name);
  if (!x) return null;
  // the plain `@rack` keeps its plain shape (the locked car, the moments off the pose)
  return { base: x[1], radius: x[2] === undefined ? UNDERSTEER_RADIUS : Number(x[2]), ...(x[3] ? { differential: 'open' as const } : {}), ...(x[4] ? { aligning: true } : {}) };
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
  const byRadius = new Map<string, { radius: number; variant: RackVariant; asked: Group }>();
  for (const name of metrics) {
    const r = rackOf(name);
    if (!r || !isRackMetric(name)) throw new VehicleInputError('--metric', `"${name}": expected a steady-state metric (${STEADY_METRICS.join(', ')}, vehicle.steer@V, vehicle.yaw_rate_gain@V), optionally @R and a radius in m, then @rack, optionally @open (an open differential) and @aligning (the aligning moments on the pose)`);
    if (!(r.radius > 0)) throw new VehicleInputError('--metric', `"${name}": the radius after @R must be above 0 (m; a left turn)`);
    const key = `${r.radius}${r.differential === 'open' ? '@open' : ''}${r.aligning ? '@aligning' : ''}`;
    const at = byRadius.get(key) ?? { radius: r.radius, variant: { differential: r.differential ?? 'locked', aligning: r.aligning ?? false }, asked: [] };
    at.asked.push({ name, base: r.base });
    byRadius.set(key, at);
  }
  const out: Record<string, VehicleMetricGradient> = {};
  for (const { radius, variant, asked } of byRadius.values()) {
    const summary = asked.filter((a) => STEADY_METRICS.includes(a.base)), speed = asked.filter((a) => !STEADY_METRICS.includes(a.base));
    for (const [group, solve] of [[summary, rackSummaryRates], [speed, rackSpeedRates]] as const) {
      if (!group.length) continue;
      const r = solve(build(), names, radius, group, variant);
      if (r.status !== 'solved') return { status: 'failed', message: `through the rack on the ${radius} m radius: ${r.message}` };
      Object.assign(out, r.metrics);
    }
  }
  return { status: 'solved', metrics: Object.fromEntries(metrics.map((n) => [n, out[n]])) };
}

interface Prepared { params: VehicleParameter[]; models: TyreModel[]; setup: RackSetup; ratio: number; ratioRates: number[] }

/** The numbers (refused where not followed), the tyres, the rack at rest and the ratio's rates; the model left at rest. */
function prepare(m: VehicleModel, names: readonly string[], variant: RackVariant): Prepared | { status: 'failed'; message: string } {
  const params = names.map((n) => vehicleParameter(m.spec, m.doc, n));
  for (const p of params) {
    const why = unfollowed(m, p);
    if (why) throw new VehicleInputError(`parameter "${p.name}"`, `${why}: a steady state's gradient through the rack is exact here for hardpoints, spring rates and free lengths, the bars' rates, the parts' masses, the body's mass and cg_position`);
  }
  const models = steadyTyres(m), setup = rackSetup(m, models, variant.differential, variant.aligning);
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
  const { rack } = setup, spring = rack.spring;
  const red = exactReduced(m), qt = rackTangent(m, rack), qr = qt.delta;
  // with a steering spring the held travel's tangent is a load's (k per mm on the rack): its rate with that load
  const free = spring?.free ?? 0;
  const extra = spring ? (_: VehicleModel, on: boolean) => { spring.free = free + (on ? rack.unit : 0); } : undefined;
  // that load (k per mm) along the spring's own stiffness: the rack's unit per N/mm
  const extraRate = (p: VehicleParameter, r: Float64Array) => { r[qt.layout[rack.variable]] += steeringWeight(p) * rack.unit; };
  const moved = movingDeltas(m, red, params, tangents, [{ ax: 0, ay: 0, ...(extra ? { extra, extraRate } : {}) }], [qr]);
  const h = new Hyper2(), front = m.wheels.filter((w) => w.axle === 'front');
  const mean = (q1: Float64Array, q12: Float64Array, part: 1 | 2, p?: VehicleParameter) => {
    h.reset();
    const move = geometryMoves(m, p?.wheels, h.make(0, 1, 0, 0)); // an axle point's own turn of the wheel (axle-points.ts)
    return front.reduce((s, w) => s + h.part(wheelGeometry(h, w, posePoly(h, m, red.layout, w.upright, q1, qr, q12), m.road, move(w.corner)).psi, part) / front.length, 0);
  };
  const zero = new Float64Array(qr.length);
  if (!spring) return { ratio: mean(zero, zero, 1), rates: params.map((p, j) => mean(tangents[j].qd, moved[j][0]!, 2, p)) };
  // the rigid linkage's ratio: the held travel's over its share s at the rack (steady-rack.ts rigidRackTangent), and s's own rate
  const slot = qt.layout[rack.variable], s = qr[slot] / rack.unit, held = mean(zero, zero, 1);
  return { ratio: held / s, rates: params.map((p, j) => mean(tangents[j].qd, moved[j][0]!, 2, p) / s - (held * moved[j][0]![slot]) / rack.unit / (s * s)) };
}

/** A number's share of the steering spring's stiffness (N/mm per unit; `steering.rack_stiffness`: 1). */
function steeringWeight(p: VehicleParameter): number {
  return p.parts.reduce((t, { parameter: q, weight }) => t + (q.kind === 'coefficient' && q.element === STEERING_SPRING && q.field === 'stiffness' ? weight : 0), 0);
}

/** The rack's share of the shared rates code: its pose rate, the drive's wheels and κ, the loads. */
function rackLin(lin: Extract<ReturnType<typeof rackLinearisation>, { status: 'solved' }>, setup: RackSetup): RackLin {
  const { spring, unit } = setup.rack, free = spring?.free ?? 0;
  return {
    qr: lin.qr.delta, driven: setup.drive ? setup.driven : null, kappa: lin.x0.kappa,
    // with a steering spring the held travel is a load: its free travel back at the state's, moved by `mm` on top
    base: spring ? (mm) => { lin.base(mm); spring.free = free; } : lin.base,
    ...(spring ? {
      hold: (_: VehicleModel, mm: number) => { spring.free += mm * unit; },
      holdRate: (p: VehicleParameter, r: Float64Array, mm: number) => { r[lin.qr.layout[setup.rack.variable]] += steeringWeight(p) * mm * unit; },
    } : {}),
    ...(setup.open ? { open: setup.open, kappaR: lin.x0.kappaR } : {}), ...(setup.aligning ? { aligning: true } : {}),
  };
}

/** The 0 g summary's figures through the rack on the radius: K = u_rack × ratio, β′, the kinematic steer rack₀ × ratio. */
function rackSummaryRates(m: VehicleModel, names: readonly string[], radius: number, asked: Group, variant: RackVariant) {
  const pre = prepare(m, names, variant);
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
function rackSpeedRates(m: VehicleModel, names: readonly string[], radius: number, asked: Group, variant: RackVariant) {
  const pre = prepare(m, names, variant);
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
