/**
 * The K&C coefficients at zero load (docs/compliance.md), exact by the implicit function
 * theorem on the equilibrium: with f(q, p) = Nᵀ Q(q, p) = 0 on the manifold (drivers held),
 * the motion under a small load p is dq = N α with K_r α = Nᵀ ∂Q/∂p, K_r the reduced
 * tangent stiffness of the equilibrium (the elements' AD stiffness, and the constraint
 * forces' geometric stiffness λ·Φ_qq of every mate and driver, exact by tangent mode).
 * The metrics' derivatives along each dq come from the same forward-mode evaluation the
 * sweeps' derivatives use (SuspensionModel.evaluate with `rates`). No differences.
 */
import { rotationMatrix } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import type { CompliantState } from './state';
import type { Motions } from './tangent';
import type { CornerMetrics } from '../metrics';
import { wheelAngles, wheelFrame } from '../metrics/corner';
import { zeroedFloats } from '../../../kernel/float-slab';

/** Per corner, at zero load: deg/kN, N/mm, mm/kN and deg/(kN·m). Right-hand side loads are in vehicle axes too. */
export interface KcCoefficients {
  toe_per_fy: number;
  camber_per_fy: number;
  lateral_stiffness: number;
  toe_per_fx: number;
  camber_per_fx: number;
  recession_per_fx: number;
  longitudinal_stiffness: number;
  toe_per_mz: number;
  camber_per_mz: number;
}

/** The unit loads whose responses make the coefficients: Fy and Fx at the contact patch, Mz. */
const UNIT_LOADS = [
  { force: [0, 1, 0], moment: [0, 0, 0] },
  { force: [1, 0, 0], moment: [0, 0, 0] },
  { force: [0, 0, 0], moment: [0, 0, 1] },
] as const;

/**
 * The exact reduced stiffness of the equilibrium at the current state: K_r = −Nᵀ K N +
 * Nᵀ (λ·Φ_qq) N, with K the force elements' stiffness (their AD) and λ·Φ_qq N, the
 * constraints' and drivers' curvature along each admissible motion, from the blocks'
 * tangent-mode duals (kernel/dual.ts withTangents: d(Jacobian)/ds exactly).
 */
export function exactReducedStiffness(state: CompliantState, motions?: Motions): { Kr: Float64Array; N: Float64Array; k: number; n: number; layout: Int32Array } {
  return state.tangent.exact(motions);
}

/** The reduced solve at a settled state: dq = N K_r⁻¹ Nᵀ f, the first-order motion under a generalized force f. */
export interface ReducedSolve {
  N: Float64Array;
  k: number;
  n: number;
  layout: Int32Array;
  solve(f: Float64Array): Float64Array;
}

/** K_r factored at the current settled state; null when it is singular (a free mode the loads excite). */
export function reducedSolver(state: CompliantState): ReducedSolve | null {
  const ex = state.tangent.exact();
  const { N, k, n, layout } = ex;
  // the settled state's K_r is the polishing step's: its factorisation too
  const lu = state.tangent.factored(ex);
  if (k > 0 && !lu) return null;
  const alpha = new Float64Array(k), nonzero = new Int32Array(n);
  return {
    N, k, n, layout,
    solve(f) {
      // Nᵀ f over f's non-zero entries (a unit load's are one body's six): the terms left out are ±0
      let nz = 0;
      for (let j = 0; j < n; j++) if (f[j] !== 0) nonzero[nz++] = j;
      for (let a = 0; a < k; a++) { let s = 0; const row = a * n; for (let t = 0; t < nz; t++) { const j = nonzero[t]; s += N[row + j] * f[j]; } alpha[a] = s; }
      if (lu) lu.solve(alpha);
      const dq = zeroedFloats(n);
      for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) dq[j] += N[a * n + j] * alpha[a];
      return dq;
    },
  };
}

/** The generalized force (tangent layout) of a unit load of each kind at each corner: corner-major, [Fy, Fx, Mz] per corner. */
export function unitLoadForces(state: CompliantState, layout: Int32Array, n: number): Float64Array[] {
  const { sm } = state;
  const system = state.dyn.system;
  const R = new Float64Array(9);
  const out: Float64Array[] = [];
  sm.corners.forEach((c, i) => {
    const v = system.variables[c.upright];
    const c0 = layout[c.upright];
    rotationMatrix(R, system.state, v.offset + 3);
    const at = state.unitLoadPoint(i);
    const r = [at[0] - system.state[v.offset], at[1] - system.state[v.offset + 1], at[2] - system.state[v.offset + 2]];
    for (const unit of UNIT_LOADS) {
      const F = unit.force;
      const m = [unit.moment[0] + r[1] * F[2] - r[2] * F[1], unit.moment[1] + r[2] * F[0] - r[0] * F[2], unit.moment[2] + r[0] * F[1] - r[1] * F[0]];
      // body components (ω, v) of the unit load on the upright
      const g = zeroedFloats(n);
      if (c0 >= 0) for (let a = 0; a < 3; a++) {
        g[c0 + a] = R[a] * m[0] + R[3 + a] * m[1] + R[6 + a] * m[2];
        g[c0 + 3 + a] = R[a] * F[0] + R[3 + a] * F[1] + R[6 + a] * F[2];
      }
      out.push(g);
    }
  });
  return out;
}

/**
 * The first-order motions (tangent layout) of the current, settled state under a unit load
 * of each kind at each corner: corner-major, [Fy, Fx, Mz] per corner. Null when K_r is
 * singular (a free mode the loads excite).
 */
export function loadResponses(state: CompliantState): { rates: Float64Array[]; layout: Int32Array; size: number } | null {
  const solver = reducedSolver(state);
  if (!solver) return null;
  const rates = unitLoadForces(state, solver.layout, solver.n).map((g) => solver.solve(g));
  return { rates, layout: solver.layout, size: solver.n };
}

/** What the coefficients read of a corner's evaluation along the rates (a CornerMetrics has them). */
export interface CoefficientInputs {
  metrics: Pick<CornerMetrics['metrics'], 'toe_angle' | 'camber'>;
  points: Pick<CornerMetrics['points'], 'wheel_center' | 'wheel_contact_centre'>;
}

/** The coefficients, by name: each a linear read of the corner's rates along a load column (`inverse`: its reciprocal, a stiffness). */
export const KC_COEFFICIENTS: Readonly<Record<keyof KcCoefficients, { load: 0 | 1 | 2; scale: number; inverse?: true; read: (cm: CoefficientInputs, col: number, nr: number) => number }>> = {
  toe_per_fy: { load: 0, scale: 1e3, read: (cm, col) => cm.metrics.toe_angle!.d[col] },
  camber_per_fy: { load: 0, scale: 1e3, read: (cm, col) => cm.metrics.camber!.d[col] },
  lateral_stiffness: { load: 0, scale: 1, inverse: true, read: (cm, col, nr) => cm.points.wheel_contact_centre.d[nr + col] },
  toe_per_fx: { load: 1, scale: 1e3, read: (cm, col) => cm.metrics.toe_angle!.d[col] },
  camber_per_fx: { load: 1, scale: 1e3, read: (cm, col) => cm.metrics.camber!.d[col] },
  recession_per_fx: { load: 1, scale: 1e3, read: (cm, col) => cm.points.wheel_center.d[col] },
  longitudinal_stiffness: { load: 1, scale: 1, inverse: true, read: (cm, col) => cm.points.wheel_contact_centre.d[col] },
  toe_per_mz: { load: 2, scale: 1e6, read: (cm, col) => cm.metrics.toe_angle!.d[col] },
  camber_per_mz: { load: 2, scale: 1e6, read: (cm, col) => cm.metrics.camber!.d[col] },
};

/** KC_COEFFICIENTS' entries in their order, listed once. */
const KC_ENTRIES = Object.entries(KC_COEFFICIENTS) as [keyof KcCoefficients, (typeof KC_COEFFICIENTS)[keyof KcCoefficients]][];

/** The coefficients of every corner at the current, settled, zero-load state; null entries where K_r is singular. */
export function kcCoefficients(state: CompliantState): (KcCoefficients | null)[] {
  const { sm } = state;
  const response = loadResponses(state);
  if (!response) return sm.corners.map(() => null);
  const tangent: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: response.rates, layout: response.layout, size: response.size };
  const nr = response.rates.length;
  return coefficientInputs(state, tangent).map((cm, i) => {
    if (!cm.metrics.toe_angle || !cm.metrics.camber) return null;
    const out = {} as KcCoefficients;
    for (const [name, c] of KC_ENTRIES) {
      const x = c.read(cm, 3 * i + c.load, nr);
      out[name] = c.inverse ? 1 / x : x * c.scale;
    }
    return out;
  });
}

/**
 * What the coefficients read of each corner along the rates (toe, camber, the wheel centre
 * and the contact centre): on a corner, the wheel frame and angles alone, by the metrics' own
 * functions on the same point duals, so the same numbers as the full evaluation without its
 * other forty metrics; on an axle (whose road plane joins both wheels) the full evaluation.
 */
export function coefficientInputs(state: CompliantState, tangent: TangentSpace): CoefficientInputs[] {
  const { sm } = state;
  if (sm.roles.scope === 'axle') return sm.evaluate({ rates: tangent }).corners;
  const n = tangent.rates.length;
  return sm.corners.map((c) => {
    const inboard = sm.pointDual(c.axle[0], tangent, tangent.rates, n), outboard = sm.pointDual(c.axle[1], tangent, tangent.rates, n);
    const wheel = { offset: c.roles.wheel.offset, tireRadius: c.tireRadius, sectionWidth: c.roles.wheel.tire.section_width };
    const frame = wheelFrame(c.roles.side, inboard, outboard, wheel, null, n);
    const { camber, toe } = wheelAngles(frame.spin, frame.sigma);
    return { metrics: { toe_angle: toe, camber }, points: { wheel_center: frame.wheelCenter, wheel_contact_centre: frame.contact } };
  });
}
