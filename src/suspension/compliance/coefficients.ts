/**
 * The K&C coefficients at zero load (docs/compliance.md), exact by the implicit function
 * theorem on the equilibrium: with f(q, p) = Nᵀ Q(q, p) = 0 on the manifold (drivers held),
 * the motion under a small load p is dq = N α with K_r α = Nᵀ ∂Q/∂p, K_r the reduced
 * tangent stiffness of the equilibrium (elements, and the constraint forces' geometric
 * stiffness λ·Φ_qq: the mates' from src/mechanics/reduced.ts, the wheel-pad targets' here).
 * The metrics' derivatives along each dq come from the same forward-mode evaluation the
 * sweeps' derivatives use (SuspensionModel.evaluate with `rates`). No differences.
 */
import { LU } from '../../../kernel/linalg';
import { rotationMatrix } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import { reduce } from '../../mechanics/reduced';
import { PointCoordinateBlock } from '../build/targets';
import type { CompliantState } from './state';

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
 * The first-order motions (tangent layout) of the current, settled state under a unit load
 * of each kind at each corner: corner-major, [Fy, Fx, Mz] per corner. Null when K_r is
 * singular (a free mode the loads excite).
 */
export function loadResponses(state: CompliantState): { rates: Float64Array[]; layout: Int32Array; size: number } | null {
  const { dyn, sm } = state;
  const system = dyn.system;
  const red = reduce(dyn);
  const { N, k, size: n, layout, mult } = red;
  const Kr = red.Kr;
  addTargetStiffness(state, mult.driverBlocks, mult.driverLambda, N, k, n, layout, Kr);
  const lu = new LU(Math.max(k, 1));
  if (k > 0 && !lu.factor(Kr, k, 1e-12)) return null;
  const R = new Float64Array(9);
  const rates: Float64Array[] = [];
  sm.corners.forEach((c, i) => {
    const v = system.variables[c.upright];
    const c0 = layout[c.upright];
    rotationMatrix(R, system.state, v.offset + 3);
    const at = state.loadPointNow(i);
    const r = [at[0] - system.state[v.offset], at[1] - system.state[v.offset + 1], at[2] - system.state[v.offset + 2]];
    for (const unit of UNIT_LOADS) {
      const F = unit.force;
      const m = [unit.moment[0] + r[1] * F[2] - r[2] * F[1], unit.moment[1] + r[2] * F[0] - r[0] * F[2], unit.moment[2] + r[0] * F[1] - r[1] * F[0]];
      // body components (ω, v) of the unit load on the upright, projected on the admissible motions
      const g = new Float64Array(6);
      for (let a = 0; a < 3; a++) {
        g[a] = R[a] * m[0] + R[3 + a] * m[1] + R[6 + a] * m[2];
        g[3 + a] = R[a] * F[0] + R[3 + a] * F[1] + R[6 + a] * F[2];
      }
      const alpha = new Float64Array(k);
      if (c0 >= 0) for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < 6; j++) s += N[a * n + c0 + j] * g[j]; alpha[a] = s; }
      if (k > 0) lu.solve(alpha);
      const dq = new Float64Array(n);
      for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) dq[j] += N[a * n + j] * alpha[a];
      rates.push(dq);
    }
  });
  return { rates, layout, size: n };
}

/**
 * K_r += −Nᵀ K_t N for each wheel-point target holding its row with multiplier λ: the pad's
 * force −λ·w along the target's axis, fixed in the world, at the point's material point
 * (∂(p × f)/∂ω = [p]ₓ[f]ₓ in body axes, as for the mates' point rows).
 */
function addTargetStiffness(state: CompliantState, blocks: number[], lambda: Float64Array, N: Float64Array, k: number, n: number, layout: Int32Array, Kr: Float64Array): void {
  const system = state.dyn.system;
  const R = new Float64Array(9), Kb = new Float64Array(9);
  blocks.forEach((b, d) => {
    const blk = system.block(b);
    if (!(blk instanceof PointCoordinateBlock) || lambda[d] === 0) return;
    for (const term of blk.expr) {
      const v = system.variables[term.variable];
      const c0 = layout[term.variable];
      if (c0 < 0) continue;
      rotationMatrix(R, system.state, v.offset + 3);
      const F = [0, 0, 0];
      F[blk.axis] = -lambda[d] * term.weight;
      const f = [0, 1, 2].map((a) => R[a] * F[0] + R[3 + a] * F[1] + R[6 + a] * F[2]);
      const p = term.local;
      const fx = [0, -f[2], f[1], f[2], 0, -f[0], -f[1], f[0], 0];
      const px = [0, -p[2], p[1], p[2], 0, -p[0], -p[1], p[0], 0];
      for (let a = 0; a < 3; a++) for (let e = 0; e < 3; e++) { let s = 0; for (let m = 0; m < 3; m++) s += px[a * 3 + m] * fx[m * 3 + e]; Kb[a * 3 + e] = s; }
      // Kr −= Nᵀ Kb N over the rotational slots of this body
      for (let x = 0; x < k; x++) for (let y = 0; y < k; y++) {
        let s = 0;
        for (let a = 0; a < 3; a++) for (let e = 0; e < 3; e++) s += N[x * n + c0 + a] * Kb[a * 3 + e] * N[y * n + c0 + e];
        Kr[x * k + y] -= s;
      }
    }
  });
}

/** The coefficients of every corner at the current, settled, zero-load state; null entries where K_r is singular. */
export function kcCoefficients(state: CompliantState): (KcCoefficients | null)[] {
  const { sm } = state;
  const response = loadResponses(state);
  if (!response) return sm.corners.map(() => null);
  const tangent: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: response.rates, layout: response.layout, size: response.size };
  const ev = sm.evaluate({ rates: tangent });
  return ev.corners.map((cm, i) => {
    const j = 3 * i, nr = response.rates.length;
    if (!cm.metrics.toe_angle || !cm.metrics.camber) return null;
    const toe = cm.metrics.toe_angle.d, camber = cm.metrics.camber.d;
    const contact = cm.points.wheel_contact_centre.d, wc = cm.points.wheel_center.d;
    // component a of a point's rate along load j
    const rate = (d: Float64Array, a: number, load: number) => d[a * nr + load];
    return {
      toe_per_fy: toe[j] * 1e3,
      camber_per_fy: camber[j] * 1e3,
      lateral_stiffness: 1 / rate(contact, 1, j),
      toe_per_fx: toe[j + 1] * 1e3,
      camber_per_fx: camber[j + 1] * 1e3,
      recession_per_fx: rate(wc, 0, j + 1) * 1e3,
      longitudinal_stiffness: 1 / rate(contact, 0, j + 1),
      toe_per_mz: toe[j + 2] * 1e6,
      camber_per_mz: camber[j + 2] * 1e6,
    };
  });
}
