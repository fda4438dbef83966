/**
 * Where a contact-patch load sits on the upright, and how that place moves with the hardpoints
 * (docs/compliance.md, "Gradients and fit"). A sweep step places each load at the step's
 * unloaded equilibrium (state.ts `settlePlaced`): the contact centre there,
 *
 *   c = w + r·a/|a|,   a = (s·ẑ) s − ẑ          (down the wheel plane, s the unit axle),
 *
 * in the upright's frame: ℓ = w_l + r·a_l/|a_l|, a_l = (s_l·z_l) s_l − z_l, z_l = Rᵀẑ. The
 * unloaded equilibrium is a function of the points (the implicit function theorem on it:
 * hardpoint-rates.ts, with no wheel load), so along p_k the upright turns at ω_k (its body-frame
 * rate in q̇_k), z_l moves by −ω_k × z_l, and w_l, s_l move with their own points: ℓ̇ exactly.
 */
import * as P from '../../../kernel/pose';
import { withTangents, type TangentSeeds } from '../../../kernel/dual';
import { PointForce } from '../../../mates/forces';
import type { SensitivityModel } from '../gradients/sensitivity-model';
import type { CompliantState } from './state';

/**
 * d(local contact centre)/dp of corner ci (3 × P, row-major by coordinate) at the current pose,
 * the state moving at qk[k] (tangent layout `layout`) along each p_k; null where the placed point
 * is not the contact centre of this pose (a load placed elsewhere).
 */
export function contactPointRates(model: SensitivityModel, state: CompliantState, ci: number, qk: readonly Float64Array[], layout: Int32Array): Float64Array | null {
  return contactRates(model, state, ci, qk, layout, true);
}

/**
 * d(local contact centre)/dk of corner ci (3 × S) along each stiffness's motion of the unloaded
 * state `dq[k]` (no point moves: a preload through the rubber turns the upright as a rate
 * changes); null as contactPointRates.
 */
export function contactStiffnessRates(model: SensitivityModel, state: CompliantState, ci: number, dq: readonly Float64Array[], layout: Int32Array): Float64Array | null {
  return contactRates(model, state, ci, dq, layout, false);
}

function contactRates(model: SensitivityModel, state: CompliantState, ci: number, qk: readonly Float64Array[], layout: Int32Array, points: boolean): Float64Array | null {
  const c = state.sm.corners[ci];
  const system = state.sm.model.system;
  const P_ = qk.length;
  const al = c.axle[0][0].local, bl = c.axle[1][0].local;
  const e = [bl[0] - al[0], bl[1] - al[1], bl[2] - al[2]], el = Math.hypot(e[0], e[1], e[2]);
  const s = e.map((x) => x / el);
  const z = P.applyInverseDirection(new Float64Array(3), system.state, [0, 0, 1], system.variables[c.upright].offset);
  const sz = dot(s, z);
  const a = [sz * s[0] - z[0], sz * s[1] - z[1], sz * s[2] - z[2]], alen = Math.hypot(a[0], a[1], a[2]);
  const n = a.map((x) => x / alen);
  const r = c.tireRadius, w = c.wheelCenterLocal;
  // the placed point must be this pose's contact centre: else its rate is not this one
  const placed = state.slots[ci].local;
  if (Math.hypot(placed[0] - w[0] - r * n[0], placed[1] - w[1] - r * n[1], placed[2] - w[2] - r * n[2]) > 1e-9 * Math.max(1, r)) return null;
  const wr = model.wheelCenterRatesByCorner[ci];
  const c0 = layout[c.upright];
  const ra = new Float64Array(3), rb = new Float64Array(3);
  const out = new Float64Array(3 * P_);
  for (let k = 0; k < P_; k++) {
    // a direction with no point moving (a stiffness's): localRate's k < 0
    model.localRate(ra, c.upright, al, points ? k : -1);
    model.localRate(rb, c.upright, bl, points ? k : -1);
    const de = [rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]];
    const along = dot(s, de);
    const ds = de.map((x, i) => (x - s[i] * along) / el);
    // the upright's turn (body frame): Rᵀẑ moves by −ω × z
    const om = c0 >= 0 ? qk[k].subarray(c0, c0 + 3) : [0, 0, 0];
    const dz = [-(om[1] * z[2] - om[2] * z[1]), -(om[2] * z[0] - om[0] * z[2]), -(om[0] * z[1] - om[1] * z[0])];
    const dsz = dot(ds, z) + dot(s, dz);
    const da = [0, 1, 2].map((i) => dsz * s[i] + sz * ds[i] - dz[i]);
    const dn = dot(n, da);
    for (let i = 0; i < 3; i++) out[i * P_ + k] = (points ? wr[i * model.parameterCount + k] : 0) + (r * (da[i] - n[i] * dn)) / alen;
  }
  return out;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/**
 * The wheel load of corner ci with its point moved by `dl` in the upright's frame (the state
 * still): its generalized force's change into Q and its stiffness's change times x into Kx
 * (tangent mode of the force element, as hardpoint-rates.ts forceRates seeds a load's point).
 */
export function loadPointPartial(state: CompliantState, ci: number, dl: ArrayLike<number>, Q: Float64Array | null, x: Float64Array | null, Kx: Float64Array | null): void {
  const dyn = state.dyn, system = dyn.system;
  const upright = state.sm.corners[ci].upright;
  const index = dyn.forces.blocks.findIndex((b) => b instanceof PointForce && b.vars[0] === upright);
  if (index < 0) return;
  const block = dyn.forces.blocks[index] as PointForce;
  if (!block.duals) return;
  const seeds: TangentSeeds = {
    pose: () => null,
    local: (_col, p, isPoint) => (isPoint && p === block.at ? [0, 0, 0, dl[0], dl[1], dl[2]] : null),
    scalar: () => 0,
  };
  const slots = dyn.forces.slotsOf(index), m = slots.length;
  const lq = new Float64Array(m), lk = new Float64Array(m * m);
  const duals = withTangents(seeds, () => { block.evaluate(system.state, dyn.forces.offsetsOf(index), new Float64Array(m), 0, lq, lk, null); return block.duals!(); });
  for (let i = 0; i < m; i++) {
    const t = duals[i].t;
    if (slots[i] < 0 || !t) continue;
    if (Q) Q[slots[i]] += t.v;
    if (x && Kx) { let s = 0; for (let j = 0; j < m; j++) if (slots[j] >= 0) s += t.d[j] * x[slots[j]]; Kx[slots[i]] += s; }
  }
}
