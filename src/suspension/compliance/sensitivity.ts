/**
 * Exact gradients of a compliant suspension's results (docs/compliance.md, "Gradients and
 * fit"): the metrics at a settled (loaded or unloaded) state and the K&C coefficients
 * (`kc.*`), over the bushing and link stiffnesses (stiffness.ts).
 *
 * The settled state satisfies f(q, k) = Nᵀ Q(q, k) = 0 on the manifold of the constraints
 * and drivers (which do not depend on the rates), so by the implicit function theorem a
 * rate's change moves it by dq = N K_r⁻¹ Nᵀ ∂Q/∂k (coefficients.ts reducedSolver, K_r with
 * the constraints' exact geometric stiffness). A coefficient is c = m_q·x, x = N K_r⁻¹ Nᵀ g
 * the response to a unit load g; at a state whose elements carry no force from the rate
 * (∂Q/∂k = 0: the zero-load state of a suspension without preload, where q does not move
 * with k) its change is m_q·ẋ, ẋ = N K_r⁻¹ Nᵀ (∂K/∂k) x, from d(K_r⁻¹) = −K_r⁻¹ dK_r K_r⁻¹ and
 * dK_r/dk = −Nᵀ (∂K/∂k) N. Where the rate's element is loaded (a loaded state, a preloaded
 * spring), the state moves with k and ẋ needs the constraints' third derivatives, which the
 * dual numbers do not carry: that coefficient's gradient is null, never approximated.
 * Every metric's derivative along the motions is one forward-mode evaluation.
 */
import type { TangentSpace } from '../../../kernel/analysis';
import type { Dual } from '../../../kernel/dual';
import type { Geometry } from '../files';
import { SuspensionModel } from '../build/model';
import type { CornerMetrics } from '../metrics';
import { SENSITIVITY_METRICS } from '../gradients/metric-names';
import type { MetricGradient } from '../gradients/types';
import { CompliantState } from './state';
import { KC_COEFFICIENTS, reducedSolver, unitLoadForces, type KcCoefficients } from './coefficients';
import { largestElementForce, stiffnessDerivative, stiffnessParameters, type StiffnessParameter } from './stiffness';
import { SensitivityModel } from '../gradients/sensitivity-model';
import type { DriverParameters } from '../gradients/types';
import { bushingAxes, hardpointStateRates } from './hardpoint-rates';
import { coefficientHardpointRates } from './coefficient-rates';
import { wheelRateRates } from './wheel-rate-rates';
import { loadPointPartial } from './load-placement';

/** `kc.<coefficient>`: the K&C coefficients as metrics, per side. */
export const KC_METRICS = (Object.keys(KC_COEFFICIENTS) as (keyof KcCoefficients)[]).map((n) => `kc.${n}`);

/** `kc.wheel_rate`: the `vertical` event's compliant wheel rate (N/mm) at a settled state of a bump sweep, on request only. */
export const KC_WHEEL_RATE = 'kc.wheel_rate';

/** The state metrics a compliant state offers (first-order functions of the state; the kinematic tangents are null there). */
export const COMPLIANT_STATE_METRICS = SENSITIVITY_METRICS.filter((m) => m !== 'rocker_angle');

/**
 * Where a sweep step's wheel loads were placed (sensitivity-sweep.ts), per corner: d(local point)/dp
 * (3 × P) and d(local point)/dk (3 × S, the unloaded state turning with a rate under a preload);
 * null where not known.
 */
export interface PlacedLoadRates { points: (Float64Array | null)[]; stiffness: (Float64Array | null)[] }

/** Below this (mm per N/mm: the element's deflection), a rate's element carries no force at the state. */
const UNLOADED = 1e-8;
/** Below this (N, N·mm), an element carries no force: the equilibrium's balance is to 1e-7 N. */
const AT_REST = 1e-5;

export class CompliantSensitivity {
  readonly sm: SuspensionModel;
  readonly state: CompliantState;
  readonly parameters: StiffnessParameter[];
  readonly keys: string[];
  readonly sides: string[];
  /** The hardpoints as parameters (gradients/model.ts), for the loaded states' hardpoint gradients (hardpoint-rates.ts). */
  readonly hardpoints: SensitivityModel;

  constructor(readonly geometry: Geometry) {
    this.hardpoints = new SensitivityModel(geometry);
    this.sm = this.hardpoints.sm;
    this.state = new CompliantState(this.sm);
    this.parameters = stiffnessParameters(geometry, this.state.dyn);
    this.keys = this.parameters.map((p) => p.name);
    this.sides = this.sm.corners.map((c) => c.roles.side);
  }

  /** Whether the current settled state is at rest: no wheel load and no compliant element carrying force, so it is the rigid kinematics. */
  atRest(): boolean {
    if (this.state.slots.some((s) => s.force.some((x) => x !== 0) || s.moment.some((x) => x !== 0))) return false;
    return largestElementForce(this.state.dyn, this.parameters) <= AT_REST;
  }

  /**
   * At the current settled state: each asked metric (state metrics, `kc.*`; default all)
   * per side, `{ value, gradient: { <stiffness path>: d } }`; null where the metric is
   * undefined, K_r is singular, or (a coefficient) its gradient needs what is not built.
   */
  metricsBySide(names?: readonly string[], loaded?: { drivers: readonly DriverParameters[]; loadRates: (Float64Array | null)[]; stiffnessLoadRates?: (Float64Array | null)[] },
    rest?: { drivers: readonly DriverParameters[] }): Record<string, Record<string, MetricGradient | null>> {
    const want = (m: string) => !names || names.length === 0 || names.includes(m);
    const stateNames = COMPLIANT_STATE_METRICS.filter(want);
    const kcNames = KC_METRICS.filter(want);
    const out: Record<string, Record<string, MetricGradient | null>> = Object.fromEntries(this.sides.map((s) => [s, {}]));
    const solver = reducedSolver(this.state);
    if (!solver) {
      for (const s of this.sides) for (const m of [...stateNames, ...kcNames]) out[s][m] = null;
      return out;
    }
    const { n, layout } = solver;
    const P = this.parameters.length;
    const dyn = this.state.dyn;
    // each rate's own terms: its elements' and, where the loads were placed at a state that turns with the rate, the loads' points'
    const partials = this.parameters.map((p, k) => this.partialOf(p, k, loaded?.stiffnessLoadRates));
    if (partials.some((f) => !f)) {
      for (const s of this.sides) for (const m of [...stateNames, ...kcNames]) out[s][m] = null;
      return out;
    }
    const partial = partials as NonNullable<(typeof partials)[number]>[];
    // the state's motion per rate: dq_k = N K_r⁻¹ Nᵀ ∂Q/∂k
    const forces = partial.map((f) => { const Q = new Float64Array(n); f(Q, null, null); return Q; });
    const deflected = forces.map((Q) => Q.some((x) => Math.abs(x) > UNLOADED));
    // under load, the hardpoints' columns first (their points' own moves are added at columns 0…H − 1)
    const hm = this.hardpoints;
    const hp = loaded ? hardpointStateRates(hm, this.state, solver, loaded.drivers, bushingAxes(this.geometry, hm, this.state), loaded.loadRates) : null;
    const H = hp ? hp.length : 0;
    const rates: Float64Array[] = [...(hp ?? []), ...forces.map((Q) => solver.solve(Q))];
    // the unit loads' responses x and their changes ẋ_k (load-major, then rate)
    const responses = kcNames.length ? unitLoadForces(this.state, layout, n).map((g) => solver.solve(g)) : [];
    const L = responses.length;
    rates.push(...responses);
    for (const x of responses) {
      for (const f of partial) {
        const Kx = new Float64Array(n);
        f(null, x, Kx);
        rates.push(solver.solve(Kx));
      }
    }
    const tangent: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates, layout, size: n };
    const ev = hp ? hm.evaluateAlong(tangent, 0) : this.sm.evaluate({ rates: tangent });
    const nr = rates.length;
    const record = (g: (k: number) => number | null): Record<string, number> | null => {
      const r: Record<string, number> = {};
      for (let k = 0; k < P; k++) { const d = g(H + k); if (d === null) return null; r[this.keys[k]] = d; }
      return r;
    };
    const withHardpoints = (m: Dual, stiff: Record<string, number>): Record<string, number> => {
      if (!H) return stiff;
      const r: Record<string, number> = {};
      for (let j = 0; j < H; j++) r[hm.keys[j]] = m.d[j];
      return { ...r, ...stiff };
    };
    // the coefficients over the hardpoints (coefficient-rates.ts), and over a rate whose element is loaded (the state moves with it)
    const points = kcNames.length ? loaded ?? (rest ? { drivers: rest.drivers, loadRates: this.sides.map(() => null) } : null) : null;
    const moving = partial.map((f, k) => ({ k, dir: { dq: rates[H + k], partial: f } })).filter((_, k) => deflected[k]);
    const byPoint = points ? coefficientHardpointRates(hm, this.state, solver, points.drivers, bushingAxes(this.geometry, hm, this.state), points.loadRates, hp, moving.map((m) => m.dir)) : null;
    const loadedRate = (ci: number, name: keyof KcCoefficients, k: number): number | null => {
      const at = moving.findIndex((m) => m.k === k);
      return byPoint && at >= 0 ? byPoint.stiffness[ci][name][at] : null;
    };
    ev.corners.forEach((cm, ci) => {
      const side = out[this.sides[ci]];
      const metrics = cm.metrics as Record<string, Dual | null>;
      for (const name of stateNames) {
        const m = metrics[name];
        side[name] = m && Number.isFinite(m.v) ? { value: m.v, gradient: withHardpoints(m, record((k) => m.d[k])!) } : null;
      }
      for (const name of kcNames) side[name] = this.coefficient(cm, name.slice(3) as keyof KcCoefficients, ci, H + P, L, nr, deflected, record, loadedRate);
    });
    if (names?.includes(KC_WHEEL_RATE)) {
      const all = partial.map((f, k) => ({ dq: rates[H + k], partial: f }));
      const drivers = loaded?.drivers ?? rest?.drivers ?? [];
      const qk = hp ?? (rest ? hardpointStateRates(hm, this.state, solver, rest.drivers, bushingAxes(this.geometry, hm, this.state), this.sides.map(() => null)) : null);
      const w = wheelRateRates(hm, this.state, solver, drivers, bushingAxes(this.geometry, hm, this.state), loaded?.loadRates ?? this.sides.map(() => null), qk, all);
      this.sides.forEach((s, ci) => {
        const r = w[ci];
        out[s][KC_WHEEL_RATE] = r ? { value: r.value, gradient: { ...(r.points ? Object.fromEntries(hm.keys.map((key, k) => [key, r.points![k]])) : {}), ...Object.fromEntries(this.keys.map((key, k) => [key, r.stiffness[k]])) } } : null;
      });
    }
    // the hardpoints before the stiffnesses, as the state metrics have them
    if (byPoint) this.sides.forEach((s, ci) => {
      for (const name of kcNames) {
        const m = out[s][name];
        if (!m) continue;
        const rates = byPoint.points[ci][name.slice(3) as keyof KcCoefficients];
        m.gradient = { ...Object.fromEntries(hm.keys.map((key, k) => [key, rates[k]])), ...m.gradient };
      }
    });
    return out;
  }

  /**
   * Rate k's own terms (∂Q/∂k into Q, ∂K/∂k·x into Kx): its elements' (stiffness.ts) and, with
   * `placed`, each wheel load's as its point moves by d(local point)/dk; null where a loaded
   * corner's placement rate is not known.
   */
  private partialOf(p: StiffnessParameter, k: number, placed: (Float64Array | null)[] | undefined): ((Q: Float64Array | null, x: Float64Array | null, Kx: Float64Array | null) => void) | null {
    const dyn = this.state.dyn;
    const S = this.parameters.length;
    const moves: { ci: number; dl: number[] }[] = [];
    for (const [ci, rates] of (placed ?? []).entries()) {
      const slot = this.state.slots[ci];
      const loadedHere = slot.force.some((v) => v !== 0);
      if (!rates) { if (loadedHere) return null; continue; }
      const dl = [rates[k], rates[S + k], rates[2 * S + k]];
      if (loadedHere && dl.some((v) => v !== 0)) moves.push({ ci, dl });
    }
    return (Q, x, Kx) => {
      stiffnessDerivative(dyn, p, Q, x, Kx);
      for (const { ci, dl } of moves) loadPointPartial(this.state, ci, dl, Q, x, Kx);
    };
  }

  /** One coefficient of corner ci and its gradient: columns P + load (x) and P + L + load·P + k (ẋ_k). */
  private coefficient(cm: CornerMetrics, name: keyof KcCoefficients, ci: number, base: number, L: number, nr: number, loaded: boolean[],
    record: (g: (k: number) => number | null) => Record<string, number> | null, loadedRate: (ci: number, name: keyof KcCoefficients, k: number) => number | null): MetricGradient | null {
    if (!cm.metrics.toe_angle || !cm.metrics.camber) return null;
    const c = KC_COEFFICIENTS[name];
    const load = 3 * ci + c.load;
    const P = loaded.length;
    const x = c.read(cm, base + load, nr);
    const value = c.inverse ? 1 / x : c.scale * x;
    if (!Number.isFinite(value)) return null;
    const H = base - P;
    const gradient = record((col) => {
      const k = col - H;
      if (loaded[k]) return loadedRate(ci, name, k);
      const dx = c.read(cm, base + L + load * P + k, nr);
      return c.inverse ? -dx / (x * x) : c.scale * dx;
    });
    return gradient ? { value, gradient } : null;
  }
}
