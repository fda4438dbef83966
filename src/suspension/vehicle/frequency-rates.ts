/**
 * The ride frequencies as metrics (docs/vehicle.md "Gradients"): `vehicle.heave_frequency`,
 * `vehicle.pitch_frequency`, `vehicle.roll_frequency` — the lowest mode of each name of
 * modes.ts at rest — and each axle's wheel hop and tramp (frequencyMode: by the mode's shape),
 * with exact gradients along the vehicle's numbers. For an undamped mode
 * with K_r φ = ω² M_r φ (φ M_r-normalised, K_r = Nᵀ S N, S = H − K without the datum's
 * springs, M_r = Nᵀ M N) the eigenvalue's rate along a number θ is
 *
 *   dω² = uᵀ (Ṡ − ω² Ṁ) u + 2 (Ṅ φ)ᵀ A u,   u = N φ,   A = sym(S) − ω² M,
 *
 * and since Nᵀ A u = 0, A u = Φ_qᵀ ν, while Φ_q Ṅ = −Φ̇_q N: the basis' turn adds −2 νᵀ Φ̇_q u.
 * Ṡ u = −(K̇ − Ḣ) u along the rest state's own move q′ (static-gradients.ts) and the number's
 * pieces: the force elements' stiffness rates by their duals' tangents and the rows' Ḣ, Φ̇_q by
 * the second tangent level (figure-rates.ts elementRates, parameterRates, rowRates — the gradient
 * figures' machinery). M, in the parts' body-frame twists, does not depend on the pose: Ṁ is the
 * numbers' own mass pieces only (massRate). No differences anywhere.
 */
import { assembleMass } from '../../../kernel/mass';
import { constraintMultipliers } from '../../../kernel/multipliers';
import type { VehicleModel } from './assembly';
import { solveVehicle, type FailedState } from './analysis';
import { elementRates, hardpointMovers, parameterRates, rowRates, unfollowed } from './figure-rates';
import { modesAtRest, type VehicleMode } from './modes';
import { vehicleParameter, type VehicleParameter } from './parameters';
import { stateRates, type VehicleMetricGradient } from './static-gradients';
import { VehicleInputError } from './errors';
import { levelRates, levelShifted, levelTerm } from './axle-points';
import { ContactPatchForce } from './contact';

/**
 * The frequencies (Hz) a gradient can be asked of: the ride modes' `vehicle.<mode>_frequency`, and
 * each axle's wheel hop (its wheels rising together) and tramp (against each other) as
 * `vehicle.wheel_hop_frequency.<axle>`, `vehicle.wheel_tramp_frequency.<axle>`: the `modes`
 * summary's fields, named by their paths there (as `vehicle.lateral_load_transfer.front` is `--ay`'s).
 */
export const FREQUENCY_METRICS: readonly string[] = [
  'vehicle.heave_frequency', 'vehicle.pitch_frequency', 'vehicle.roll_frequency',
  ...['hop', 'tramp'].flatMap((k) => ['front', 'rear'].map((a) => `vehicle.wheel_${k}_frequency.${a}`)),
];

/**
 * Which mode a frequency metric is, or why there is none. A ride mode: the lowest of its name.
 * An axle's hop (tramp): the mode where that axle's unsprung parts take the largest share of the
 * kinetic energy moving in phase (out of phase): its share E_axle times (r_l + r_r)² / 2(r_l² + r_r²)
 * (with r_l − r_r for the tramp), r the wheel centres' rise in the shape. By the shape, never by
 * the order: near-equal hop and tramp (an axle without a bar) or a car that is not symmetric
 * (a mode then mixes both sides, which the names' 80 % rule may call one corner's) still find theirs.
 */
export function frequencyMode(at: { modes: readonly VehicleMode[]; rises: readonly Record<string, number>[] }, metric: string): number | string {
  const wheel = /^vehicle\.wheel_(hop|tramp)_frequency\.(front|rear)$/.exec(metric);
  if (!wheel) {
    const name = metric.slice('vehicle.'.length, -'_frequency'.length);
    const i = at.modes.findIndex((md) => md.name === name);
    return i >= 0 ? i : `no ${name} mode at rest (the modes: ${at.modes.map((md) => md.name).join(', ')})`;
  }
  const [, kind, axle] = wheel;
  let best = -1, score = 0;
  at.modes.forEach((md, i) => {
    if (md.name === 'rigid') return;
    const e = md.energy;
    const share = (e[`${axle}_left`] ?? 0) + (e[`${axle}_right`] ?? 0) + (e[`axle_${axle}`] ?? 0);
    const l = at.rises[i][`${axle}_left`] ?? 0, r = at.rises[i][`${axle}_right`] ?? 0, s2 = 2 * (l * l + r * r);
    const phase = s2 > 0 ? (kind === 'hop' ? (l + r) ** 2 : (l - r) ** 2) / s2 : 0;
    if (share * phase > score) { best = i; score = share * phase; }
  });
  return best >= 0 ? best : `no wheel ${kind} mode of the ${axle} axle at rest (its wheels move in none)`;
}

/** The frequencies at rest and their gradients (Hz per the number's file unit). Solves the state at rest first. */
export function frequencySensitivity(m: VehicleModel, names: readonly string[], metrics: readonly string[] = FREQUENCY_METRICS): { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | FailedState {
  for (const name of metrics) if (!FREQUENCY_METRICS.includes(name)) throw new VehicleInputError('--metric', `no vehicle frequency "${name}" (${FREQUENCY_METRICS.join(', ')})`);
  const params = names.map((n) => vehicleParameter(m.spec, m.doc, n));
  for (const p of params) {
    const why = unfollowed(m, p);
    if (why) throw new VehicleInputError(`parameter "${p.name}"`, `${why}: a frequency's gradient is exact here for hardpoints, spring and bar rates, free lengths and the parts' masses and centres`);
  }
  const s = solveVehicle(m, { ax: 0, ay: 0 });
  if (s.status !== 'solved') return s;
  const tangents: { qd: Float64Array; rp: Float64Array }[] = [];
  stateRates(m, params, undefined, (j, qd, rp) => { tangents[j] = { qd, rp }; });
  const at = modesAtRest(m);
  if (typeof at === 'string') return { status: 'failed', message: at };
  const { dyn } = m, sys = dyn.system, n = dyn.forces.size, { N, k, layout, KH } = at.ex;
  const zero = new Float64Array(n), Q = new Float64Array(n);
  dyn.forces.assemble(zero, 0, Q, null, null);
  const mult = constraintMultipliers(sys, Q);
  const lambda = Float64Array.from(mult.lambda), rowBlock = Int32Array.from(mult.rowBlock), nRows = lambda.length;
  const moversOf = hardpointMovers(m, layout, rowBlock, params);
  const lamDots = params.map((_, j) => Float64Array.from(constraintMultipliers(sys, plusTimes(KH, tangents[j].qd, tangents[j].rp, n)).lambda));
  const S = stiffnessWithoutDatum(m, KH, layout, n);
  const M = assembleMass(new Float64Array(n * n), layout, n, dyn.bodies);
  const out: Record<string, VehicleMetricGradient> = {};
  for (const metric of metrics) {
    const i = frequencyMode(at, metric);
    if (typeof i === 'string') return { status: 'failed', message: i };
    const { w2, phi } = at.pairs[i], f = at.modes[i].frequency, name = at.modes[i].name;
    if (!(w2 > 0)) return { status: 'failed', message: `the ${name} mode at rest is unstable: its frequency has no gradient` };
    const u = modeVector(N, phi, k, n);
    // A u = (sym(S) − ω² M) u = Φ_qᵀ ν
    const Au = shiftedTimes(S, M, w2, u, n);
    const nu = constraintMultipliers(sys, Au).lambda;
    const gradient: Record<string, number> = {};
    params.forEach((p, j) => {
      const movers = moversOf(p), { qd } = tangents[j];
      // r = (K̇ − Ḣ) u, the datum's springs left out as the modes leave them; phiDot = −Φ̇_q u
      const r = new Float64Array(n), phiDot = new Float64Array(nRows);
      elementRates(m, qd, u, r, movers, m.datum);
      parameterRates(m, layout, p, u, { ax: 0, ay: 0 }, r);
      // an axle point: the road's height under the contacts (the datum's move left out with it)
      if (p.wheels?.length) levelTerm(m, levelShifted(m, levelRates(m, p.wheels)).filter((x) => x.block instanceof ContactPatchForce), null, u, r);
      rowRates(m, layout, rowBlock, qd, u, lambda, lamDots[j], new Float64Array(nRows), r, phiDot, movers);
      let dw2 = -w2 * massRate(m, layout, p, u);
      for (let c = 0; c < n; c++) dw2 -= u[c] * r[c];
      for (let row = 0; row < nRows; row++) dw2 += 2 * nu[row] * phiDot[row];
      // f = ω / 2π: df = dω² / (2ω · 2π)
      gradient[p.name] = dw2 / (8 * Math.PI * Math.PI * f);
    });
    out[metric] = { value: f, gradient };
  }
  return { status: 'solved', metrics: out };
}

/*
 * The n² loops sit in functions of their own: inline in frequencySensitivity they made V8
 * compile the whole function (with everything it calls inlined) on the stack at each call, a
 * dozen times a test file, for loops a small function runs as fast.
 */
/** u = N φ (N column-major n × k). */
function modeVector(N: Float64Array, phi: ArrayLike<number>, k: number, n: number): Float64Array {
  const u = new Float64Array(n);
  for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) u[j] += N[a * n + j] * phi[a];
  return u;
}

/** (sym(S) − ω² M) u. */
function shiftedTimes(S: Float64Array, M: Float64Array, w2: number, u: Float64Array, n: number): Float64Array {
  const Au = new Float64Array(n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) Au[r] += (0.5 * (S[r * n + c] + S[c * n + r]) - w2 * M[r * n + c]) * u[c];
  return Au;
}

/** K_H q − r (λ′ balances it: Φ_qᵀ λ′ = (K − H) q′ − R_θ). */
function plusTimes(KH: Float64Array, q: Float64Array, r: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) { let s = -r[i]; for (let j = 0; j < n; j++) s += KH[i * n + j] * q[j]; out[i] = s; }
  return out;
}

/** S = H − K with the datum's springs taken out (modes.ts withoutDatum, in full coordinates). */
function stiffnessWithoutDatum(m: VehicleModel, KH: Float64Array, layout: Int32Array, n: number): Float64Array {
  const S = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) S[i] = -KH[i];
  const sys = m.dyn.system, body = m.dyn.model.parts.get('body')!, c0 = layout[body];
  if (c0 < 0) return S;
  const K = new Float64Array(36);
  m.datum.evaluate(sys.state, Int32Array.of(sys.variables[body].offset), new Float64Array(12), 0, new Float64Array(6), K, null);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) S[(c0 + i) * n + c0 + j] += K[i * 6 + j];
  return S;
}

/** Per part: the rate of its inertia about its origin (t·mm²), of its mass times centre (t·mm) and of its mass (t). */
interface PartRate { dI: number[]; dh: number[]; dm: number }

/**
 * uᵀ Ṁ u of a number's mass pieces. A part's M = [[I_o, [h]ₓ], [−[h]ₓ, m 1]] (I_o its inertia about
 * its origin, h = m c): a piece's Ṁ from (İ_o, ḣ, ṁ). An axle part's mass and centre move with its
 * inertia about the centre kept (the simulation gradients' pieces, gradients/parameters/terms.ts);
 * the body's inertia rate is the parameter's own (its point masses, parameters.ts bodyInertia).
 */
function massRate(m: VehicleModel, layout: Int32Array, p: VehicleParameter, u: Float64Array): number {
  const rates = new Map<string, PartRate>();
  const of = (part: string) => { if (!rates.has(part)) rates.set(part, { dI: new Array<number>(9).fill(0), dh: [0, 0, 0], dm: 0 }); return rates.get(part)!; };
  const bodyOf = (part: string) => m.dyn.bodies.find((b) => b.part === part);
  for (const { parameter: q, weight } of p.parts) {
    if (q.kind !== 'mass' && q.kind !== 'centre' && q.kind !== 'inertia') continue;
    const b = bodyOf(q.part);
    if (!b) continue;
    const r = of(q.part), c = b.body.centre, mass = b.body.mass;
    if (q.kind === 'mass') {
      r.dm += weight / 1000;
      for (let i = 0; i < 3; i++) r.dh[i] += (weight / 1000) * c[i];
      if (q.part !== 'body') pointInertia(r.dI, 0, weight / 1000, c, [0, 0, 0]);
    } else if (q.kind === 'centre') {
      r.dh[q.axis] += mass * weight;
      const e = [0, 0, 0];
      e[q.axis] = weight;
      if (q.part !== 'body') pointInertia(r.dI, mass, 0, c, e);
    } else r.dI[q.axis * 4] += weight / 1000;
  }
  if (p.bodyInertia) { const r = of('body'); for (let i = 0; i < 9; i++) r.dI[i] += p.bodyInertia[i] / 1000; }
  for (const l of p.lumps) {
    const r = of(l.part), mass = l.mass / 1000, dm = l.dmass / 1000;
    r.dm += dm;
    for (let i = 0; i < 3; i++) r.dh[i] += dm * l.centre[i] + mass * l.dcentre[i];
    for (let i = 0; i < 9; i++) r.dI[i] += l.dinertia[i] / 1000;
    pointInertia(r.dI, mass, dm, l.centre, l.dcentre);
  }
  let total = 0;
  for (const [part, r] of rates) {
    const b = bodyOf(part);
    const c0 = b ? layout[b.variable] : -1;
    if (c0 < 0) continue;
    const w = [u[c0], u[c0 + 1], u[c0 + 2]], v = [u[c0 + 3], u[c0 + 4], u[c0 + 5]];
    // ξᵀ Ṁ ξ = wᵀ İ_o w + 2 wᵀ [ḣ]ₓ v + ṁ |v|²
    let s = 0;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) s += w[i] * r.dI[i * 3 + j] * w[j];
    const hv = [r.dh[1] * v[2] - r.dh[2] * v[1], r.dh[2] * v[0] - r.dh[0] * v[2], r.dh[0] * v[1] - r.dh[1] * v[0]];
    s += 2 * (w[0] * hv[0] + w[1] * hv[1] + w[2] * hv[2]) + r.dm * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    total += s;
  }
  return total;
}

/** I += dm (|a|² 1 − a aᵀ) + m (2 (a·da) 1 − da aᵀ − a daᵀ). */
function pointInertia(I: number[], m: number, dm: number, a: ArrayLike<number>, da: ArrayLike<number>): void {
  const aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2], ada = a[0] * da[0] + a[1] * da[1] + a[2] * da[2];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) I[i * 3 + j] += dm * ((i === j ? aa : 0) - a[i] * a[j]) + m * ((i === j ? 2 * ada : 0) - da[i] * a[j] - a[i] * da[j]);
}
