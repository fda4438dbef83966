/**
 * A `--steady-state` step's steer and yaw-rate gain as metrics with exact gradients
 * (docs/vehicle.md "Gradients"): `vehicle.steer@V` (deg) and `vehicle.yaw_rate_gain@V`
 * (1/s, V/R over the steer) at V km/h on the radius. The steady state there (solved from
 * rest, as a sweep's first step) solves the coupled system of steady-state.ts; along a number
 * θ the implicit function theorem over it gives f′, δ′, β′ by the state's 10 × 10 A, the
 * right-hand side the tyres' rows' and the balances' rates (understeer-rates.ts tyreRows, the
 * balances' d'Alembert terms at the state's a) along the pose's rate with the tyres' loads
 * held — stateRates with the two loads it leaves out: the d'Alembert loads' own rate (the
 * masses and centres moving, figure-rates.ts parameterRates) and the body datum's
 * (cg_position). No differences.
 */
import { Hyper2 } from '../../../mates/tyres/hyper2';
import { addInto as plus } from '../../../kernel/linalg';
import type { TyreModel } from '../../../mates/tyres';
import type { VehicleModel } from './assembly';
import { vehicleParameter, type VehicleParameter } from './parameters';
import { stateRates, type VehicleMetricGradient } from './static-gradients';
import { parameterRates, unfollowed } from './figure-rates';
import { M_S2_PER_G, steadyLinearisation, steadyTyres, tyreLoads } from './steady-state';
import { exactReduced, gaussSolve, reducedResponse } from './tangent';
import { UNDERSTEER_RADIUS, balanceCount, dAlembertRates, datumTerms, rackCtx, tyreRows, type Ctx, type Direction, type RackLin } from './understeer-rates';
import { VehicleInputError } from './errors';

const DEG = 180 / Math.PI;
const zero0 = (n: number) => new Float64Array(n);

/** `vehicle.steer@V`, `vehicle.yaw_rate_gain@V` (V in km/h). */
export const SPEED_METRIC = /^vehicle\.(steer|yaw_rate_gain)@(\d+(?:\.\d+)?)$/;

type Lin = Extract<ReturnType<typeof steadyLinearisation>, { status: 'solved' }>;

/** The asked speed metrics at their speeds on the radius (m) and their gradients along the named numbers. */
export function steadySpeedSensitivity(m: VehicleModel, names: readonly string[], metrics: readonly string[], radius = UNDERSTEER_RADIUS): { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | { status: 'failed'; message: string } {
  const asked = metrics.map((name) => {
    const x = SPEED_METRIC.exec(name);
    if (!x || !(Number(x[2]) > 0)) throw new VehicleInputError('--metric', `"${name}": expected vehicle.steer@V or vehicle.yaw_rate_gain@V, V a speed in km/h above 0`);
    return { name, steer: x[1] === 'steer', kmh: Number(x[2]) };
  });
  const params = names.map((n) => vehicleParameter(m.spec, m.doc, n));
  for (const p of params) {
    const why = unfollowed(m, p);
    if (why) throw new VehicleInputError(`parameter "${p.name}"`, `${why}: a steady state's gradient is exact here for hardpoints, spring rates and free lengths, the bars' rates, the parts' masses, the body's mass and cg_position`);
  }
  const models = steadyTyres(m), Rmm = radius * 1000, out: Record<string, VehicleMetricGradient> = {};
  const atRest = m.dyn.system.snapshot();
  for (const kmh of [...new Set(asked.map((a) => a.kmh))]) {
    m.dyn.system.restore(atRest);
    const V = kmh / 3.6, ay = (V * V) / radius / M_S2_PER_G;
    const lin = steadyLinearisation(m, models, Rmm, ay);
    if (lin.status === 'failed') return { status: 'failed', message: `at ${kmh} km/h: ${lin.message}` };
    const rates = speedRates(m, models, Rmm, lin, params, ay), d = lin.x0.delta, gain = V / radius / d;
    for (const a of asked.filter((x) => x.kmh === kmh)) {
      out[a.name] = { value: a.steer ? d * DEG : gain, gradient: Object.fromEntries(params.map((p, j) => [p.name, a.steer ? rates[j] * DEG : (-gain / d) * rates[j]])) };
    }
  }
  return { status: 'solved', metrics: Object.fromEntries(metrics.map((n) => [n, out[n]])) };
}

/** dδ/dθ (rad per the number's unit; through the rack, its travel's mm) at the linearisation's state at ay (g) on the radius. */
export function speedRates(m: VehicleModel, models: readonly TyreModel[], Rmm: number, lin: Pick<Lin, 'state' | 'f0' | 'nf' | 'deltas' | 'A' | 'along'> & { x0: { delta: number; beta: number } }, params: readonly VehicleParameter[], ay: number, rack?: RackLin): number[] {
  const n = m.dyn.forces.size, { x0, f0, nf, A } = lin, n10 = nf + balanceCount(rack ?? {});
  const base = rack ? rack.base : tyreLoads(f0, ay, x0.beta);
  base(m);
  const tangents: Float64Array[] = [];
  stateRates(m, params, undefined, (j, qd) => { tangents[j] = qd; });
  base(m);
  const { N, k, layout, Kr } = exactReduced(m);
  const lift = reducedResponse(N, Kr, k, n);
  // at a ≠ 0 the d'Alembert load turns with β: the pose's rate along β joins A's β column (zero at 0 g)
  const Q0 = new Float64Array(n), Q1 = new Float64Array(n);
  m.dyn.forces.assemble(zero0(n), 0, Q0, null, null);
  m.inertia.accel[0] -= ay * Math.cos(x0.beta); m.inertia.accel[1] -= ay * Math.sin(x0.beta);
  m.dyn.forces.assemble(zero0(n), 0, Q1, null, null);
  base(m);
  m.dyn.forces.assemble(zero0(n), 0, Q0.slice(), null, null);
  for (let i = 0; i < n; i++) Q1[i] -= Q0[i];
  const poseBeta = lift(Q1), dBeta = lin.along(poseBeta, false)[2], Ab = A.slice();
  for (let r = 0; r < n10; r++) Ab[r * n10 + nf + 1] += r < nf ? -dBeta[r] : dBeta[r];
  const ctx: Ctx = { ...rackCtx(rack, x0), h: new Hyper2(), m, models, layout, Rmm, st: lin.state, a0: ay * M_S2_PER_G };
  const zero = new Float64Array(n), still: Direction = { q: zero, delta: 0, beta: 0 };
  // and A's balances hold the whole car's centre of mass fixed to o along the pose (exact at 0 g only): its move at a
  const empty: VehicleParameter = { name: '', parts: [], rows: [], freeLengths: [], lumps: [], cg: [0, 0, 0] };
  const cgColumn = (col: number, pose: Float64Array) => {
    const at = tyreRows(ctx, { q: pose, delta: 0, beta: 0 }, still, zero, empty, 0);
    at.rows.fill(0);
    const c = dAlembertRates(ctx, pose, empty, at, ctx.a0);
    for (let r = nf; r < n10; r++) Ab[r * n10 + col] += c[r];
  };
  for (let j = 0; j < nf; j++) cgColumn(j, lin.deltas[1 + j]);
  cgColumn(nf + 1, poseBeta);
  if (rack) cgColumn(nf, rack.qr);
  const aDir = { ax: -ay * Math.sin(x0.beta), ay: ay * Math.cos(x0.beta) };
  return params.map((p, j) => {
    // ∂Q/∂θ that stateRates leaves out: the d'Alembert loads' (their parts' masses and centres) and the datum's
    const extra = new Float64Array(n);
    parameterRates(m, layout, p, zero, aDir, extra);
    base(m);
    const datum = datumTerms(m, p);
    if (datum) plus(extra, datum.dQ);
    const qt = plus(lift(extra), tangents[j]);
    const d = dAlembertRates(ctx, qt, p, tyreRows(ctx, { q: qt, delta: 0, beta: 0 }, still, zero, p, 0), ctx.a0), b = new Float64Array(n10);
    for (let r = 0; r < n10; r++) b[r] = r < nf ? d[r] : -d[r];
    return gaussSolve(Ab, b, n10)[nf];
  });
}
