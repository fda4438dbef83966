/**
 * Gradients of the vehicle's gradients — the roll gradient, the lateral load transfer per
 * axle and its front share, the braking pitch gradient — with respect to a number that
 * leaves the state at rest where it is: an anti-roll bar's rate on a car whose bar is not
 * twisted at rest (docs/vehicle.md "Gradients"). Such a number θ moves neither the rest
 * pose nor the multipliers (q' = 0, λ' = 0: checked, its R_θ and Φ_θ vanish there), so the
 * figures' state rate δ = N K_r⁻¹ Nᵀ Q_a moves only through K_r's force part:
 *   δ' = N K_r⁻¹ Nᵀ (∂K/∂θ) δ,   ∂K/∂θ = K_element/θ for an element linear in θ,
 * and each figure, linear in δ at a fixed pose, moves by its map of δ' — exact, no
 * differences. A number that moves the rest pose is refused for these metrics: its exact
 * gradient needs the curvature H's own rate (the constraints' third derivatives, which the
 * duals' second tangent level now gives: kernel/dual.ts withSecondTangents, used so by
 * compliance/coefficient-rates.ts) and the elements', the inertial loads' and the figures'
 * maps' rates along the move, not assembled here yet.
 */
import type { VehicleModel } from './assembly';
import { solveVehicle, type FailedState } from './analysis';
import { applyAcceleration, unitAcceleration } from './loads';
import { vehicleParameter } from './parameters';
import { stateRates } from './static-gradients';
import { derivativeReport, exactReduced, gaussSolve, type StateDerivative } from './tangent';
import { mixedReport, poseRates } from './metric-rates';
import { movingDeltas, unfollowed } from './figure-rates';
import { VehicleInputError } from './errors';
import type { VehicleMetricGradient } from './static-gradients';
import type { WheelMove } from './axle-points';

/** The figures whose gradients this gives, as `vehicle.<name>`. */
export const GRADIENT_METRICS: readonly string[] = [
  'vehicle.roll_gradient', 'vehicle.lateral_load_transfer.front', 'vehicle.lateral_load_transfer.rear', 'vehicle.front_load_transfer_share', 'vehicle.pitch_gradient',
];

const transfer = (d: StateDerivative, axle: 'front' | 'rear') => (d.load[`${axle}_right`] - d.load[`${axle}_left`]) / 2;

/** The figures from the state rates along ay and along braking. */
function figures(ay: StateDerivative, brake: StateDerivative | null): Record<string, number> {
  const f = transfer(ay, 'front'), r = transfer(ay, 'rear');
  return {
    'vehicle.roll_gradient': ay.roll, 'vehicle.lateral_load_transfer.front': f, 'vehicle.lateral_load_transfer.rear': r,
    'vehicle.front_load_transfer_share': f / (f + r), 'vehicle.pitch_gradient': brake ? -brake.pitch : NaN,
  };
}

/**
 * The gradient figures at rest and their gradients with respect to the named numbers (each
 * must leave the rest state still). Solves the state at rest first.
 */
export function vehicleGradientSensitivity(m: VehicleModel, names: readonly string[], metrics: readonly string[] = GRADIENT_METRICS): { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | FailedState {
  for (const name of metrics) if (!GRADIENT_METRICS.includes(name)) throw new VehicleInputError('--metric', `no vehicle metric "${name}"`);
  const params = names.map((n) => vehicleParameter(m.spec, m.doc, n));
  const s = solveVehicle(m, { ax: 0, ay: 0 });
  if (s.status !== 'solved') return s;
  const { dyn } = m, n = dyn.forces.size;
  // the rest state's rate along each number: one that leaves it still moves the figures through K's force part only
  const tangents: { qd: Float64Array; rp: Float64Array }[] = [];
  const rest = stateRates(m, params, undefined, (j, qd, rp) => { tangents[j] = { qd, rp }; });
  // a bar's rate that leaves the state still: K's force part only; every other number by figure-rates.ts
  const moving = params.map((p, j) => {
    const moved = Object.entries(rest[j]).find(([, v]) => Math.abs(v) > 1e-12);
    if (!moved && p.parts.every(({ parameter: q }) => q.kind === 'coefficient')) return false;
    const why = unfollowed(m, p);
    if (why && !moved) throw new VehicleInputError(`parameter "${p.name}"`, `${why}: a gradient figure's gradient is exact here for hardpoints, spring rates, the body's mass and cg_position and the anti-roll bars' rates`);
    if (why) throw new VehicleInputError(`parameter "${p.name}"`, `it moves the rest state (${moved![0]}) and ${why}: a gradient figure's gradient is exact here for hardpoints, spring rates, the body's mass and cg_position and the anti-roll bars' rates`);
    return true;
  });
  const red = exactReduced(m);
  const { N, k, layout, Kr } = red;
  const directions = [{ ay: 1, ax: 0 }, m.spec.front_brake_bias !== undefined ? unitAcceleration('braking') : null];
  const Q0 = new Float64Array(n), Q1 = new Float64Array(n), zero = new Float64Array(n);
  const project = (x: Float64Array) => { const g = new Float64Array(k); for (let a = 0; a < k; a++) { let t = 0; for (let j = 0; j < n; j++) t += N[a * n + j] * x[j]; g[a] = t; } return g; };
  const lift = (alpha: Float64Array) => { const d = new Float64Array(n); for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) d[j] += N[a * n + j] * alpha[a]; return d; };
  const deltas = directions.map((dir) => {
    if (!dir) return null;
    applyAcceleration(m, dir);
    dyn.forces.assemble(zero, 0, Q1, null, null);
    applyAcceleration(m, { ax: 0, ay: 0 });
    dyn.forces.assemble(zero, 0, Q0, null, null);
    for (let i = 0; i < n; i++) Q1[i] -= Q0[i];
    return lift(gaussSolve(Kr, project(Q1), k));
  });
  const report = (d: Float64Array | null) => (d ? derivativeReport(m, poseRates(m, d, layout)) : null);
  const values = figures(report(deltas[0])!, report(deltas[1]));
  const movedDeltas = moving.some((x) => x) ? movingDeltas(m, red, params, tangents, directions, deltas) : [];
  const rates = params.map((p, j) => {
    if (moving[j]) return movingFigures(m, layout, tangents[j].qd, deltas, movedDeltas[j], report(deltas[0])!, p.wheels);
    const dK = elementStiffnessRate(m, p.name, p.parts);
    const moved = deltas.map((d) => {
      if (!d) return null;
      const x = new Float64Array(n);
      for (const { slots, K, w } of dK) for (let i = 0; i < slots.length; i++) {
        if (slots[i] < 0) continue;
        let t = 0;
        for (let j = 0; j < slots.length; j++) if (slots[j] >= 0) t += K[i * slots.length + j] * d[slots[j]];
        x[slots[i]] += w * t;
      }
      return lift(gaussSolve(Kr, project(x), k));
    });
    const ay = report(deltas[0])!, day = report(moved[0])!, dbr = report(moved[1]);
    const out = figures(day, dbr);
    // the share f/(f + r): by the quotient rule
    const f = transfer(ay, 'front'), r = transfer(ay, 'rear');
    out['vehicle.front_load_transfer_share'] = (out['vehicle.lateral_load_transfer.front'] * r - f * out['vehicle.lateral_load_transfer.rear']) / ((f + r) * (f + r));
    return out;
  });
  const out: Record<string, VehicleMetricGradient> = {};
  for (const name of metrics) out[name] = { value: values[name], gradient: Object.fromEntries(params.map((p, j) => [p.name, rates[j][name]])) };
  return { status: 'solved', metrics: out };
}

/** The figures' rates along a number that moves the rest state at qd: each figure's map at δ′ and the map's own rate along qd at δ. */
function movingFigures(m: VehicleModel, layout: Int32Array, qd: Float64Array, deltas: readonly (Float64Array | null)[], moved: readonly (Float64Array | null)[], ay: StateDerivative,
  wheels: readonly WheelMove[] = []): Record<string, number> {
  const rate = (d: Float64Array | null, dd: Float64Array | null): StateDerivative | null => {
    if (!d || !dd) return null;
    const out = derivativeReport(m, poseRates(m, dd, layout));
    const mixed = mixedReport(m, poseRates(m, qd, layout), poseRates(m, d, layout), wheels);
    out.roll += mixed.roll; out.pitch += mixed.pitch;
    for (const c of Object.keys(out.load) as (keyof typeof out.load)[]) out.load[c] += mixed.load[c];
    return out;
  };
  const out = figures(rate(deltas[0], moved[0])!, rate(deltas[1], moved[1]));
  const f = transfer(ay, 'front'), r = transfer(ay, 'rear');
  out['vehicle.front_load_transfer_share'] = (out['vehicle.lateral_load_transfer.front'] * r - f * out['vehicle.lateral_load_transfer.rear']) / ((f + r) * (f + r));
  return out;
}

/** ∂K/∂θ of a number made of element coefficients linear in it: each element's stiffness at the state over its value. */
function elementStiffnessRate(m: VehicleModel, name: string, parts: ReturnType<typeof vehicleParameter>['parts']): { slots: Int32Array; K: Float64Array; w: number }[] {
  const { dyn } = m;
  return parts.map(({ parameter: q, weight }) => {
    const element = 'element' in q ? q.element : undefined;
    const field = q.kind === 'coefficient' ? q.field : q.kind === 'stiffness' ? 'stiffness' : '';
    const doc = element ? dyn.model.doc.forces?.[element] as Record<string, unknown> | undefined : undefined;
    const value = doc && field === 'rotational_stiffness.x' ? (doc.rotational_stiffness as number[])[0] : doc && field === 'stiffness' && typeof doc.stiffness === 'number' ? doc.stiffness : undefined;
    const el = dyn.elements.find((e) => e.id === element);
    if (!el || value === undefined || value === 0) throw new VehicleInputError(`parameter "${name}"`, 'a gradient figure\'s gradient is taken with respect to an element rate (an anti-roll bar\'s) only');
    const slots = dyn.forces.slotsOf(el.index), d = slots.length;
    const lq = new Float64Array(d), lk = new Float64Array(d * d);
    el.block.evaluate(dyn.system.state, dyn.forces.offsetsOf(el.index), new Float64Array(2 * d), 0, lq, lk, null);
    return { slots, K: lk, w: weight / value };
  });
}
