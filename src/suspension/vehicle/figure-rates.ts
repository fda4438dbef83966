/**
 * The rates of the gradient figures' state tangents along a number that moves the rest state
 * (docs/vehicle.md "Gradient figures' gradients"), exact: the implicit function theorem of
 * the figures' own linearisation, differentiated. At rest under an acceleration's unit loads
 * Q_a the state moves by δ with
 *
 *   (K − H) δ − Φ_qᵀ μ + Q_a = 0,   Φ_q δ = 0        (μ: the rows' multipliers under Q_a),
 *
 * and along a number θ the rest state moves at q′ (static-gradients.ts) with multipliers'
 * rate λ′ (Φ_qᵀ λ′ = (K − H) q′ − R_θ). Differentiating both rows:
 *
 *   δ′ = x_p + N K_r⁻¹ Nᵀ (r + (K − H) x_p),   Φ_q x_p = −Φ̇_q δ,
 *   r = K̇δ − Ḣδ − Φ̇_qᵀ μ + Q̇_a,   Ḣδ = λ′·Φ_qq δ + λ·Φ_qqq[δ, q′],
 *
 * K̇δ the force elements' stiffness rate along (q′, θ) by their duals' tangents (the dead
 * loads', gravity's, written out), Φ̇_q and λ·Φ_qqq by the rows' duals at the second tangent
 * level (kernel/jacobian-rate.ts `mixed`), Q̇_a = (K(a = 1) − K(a = 0)) q′ + ∂Q_a/∂θ (the loads
 * are affine in a, so the difference of two exact stiffnesses is the load's own). The figure
 * maps' own second derivatives are metric-rates.ts mixedReport. Numbers: spring rates (a
 * linear spring without preload term), a bar's rate (twisted at rest or not), a bushing's or
 * compliant link's rate (compliance-parameters.ts linearUnitBlock), hardpoints,
 * masses, free lengths and the body's centre of mass; any other piece is refused by the caller.
 */
import { denseTimes as times, addInto as plus } from '../../../kernel/linalg';
import { withTangents, type TangentSeeds } from '../../../kernel/dual';
import { JacobianRate, blockColumns } from '../../../kernel/jacobian-rate';
import { GravityBlock } from '../../../kernel/mass';
import type { ForceBlock } from '../../../kernel/forces';
import { constraintMultipliers } from '../../../kernel/multipliers';
import { CoordinateSpringForce, LinearLaw, PointToPointForce } from '../../../mates/forces';
import { STEERING_SPRING, type VehicleModel } from './assembly';
import { applyAcceleration, type Acceleration } from './loads';
import { VehicleInputError } from './errors';
import type { VehicleParameter } from './parameters';
import { linearUnitBlock } from './compliance-parameters';
import { freeLengthUnit, rowBlocks, rowSolver } from './static-gradients';
import { HardpointTerms, type HardpointParameter } from '../../gradients/parameters/hardpoints';
import { cross, reducedResponse } from './tangent';
import { contactSeeds, contactTerm, levelRates, levelShifted, levelTerm } from './axle-points';

type Reduced = { N: Float64Array; k: number; layout: Int32Array; Kr: Float64Array; KH: Float64Array };

/** Why a number is not followed here, or null when it is. */
export function unfollowed(m: VehicleModel, p: VehicleParameter): string | null {
  for (const { parameter: q } of p.parts) {
    if (q.kind === 'centre' || q.kind === 'mass') continue;
    if (q.kind === 'hardpoint') continue; // its turning axis or frame seeded too (HardpointTerms.movers)
    if (q.kind === 'stiffness') {
      const el = m.dyn.elements.find((e) => e.id === q.element)?.block;
      if (el instanceof PointToPointForce && el.spring instanceof LinearLaw && el.spring.y0 === 0) continue;
    }
    if (q.kind === 'coefficient' && (soleRate(m, q.element, q.field) !== null || linearUnitBlock(m.dyn, q.element, q.field) !== null)) continue;
    return `its piece "${q.kind}" is not followed yet`;
  }
  if (p.rows.length && !p.parts.some(({ parameter: q }) => q.kind === 'hardpoint')) return 'it moves constraint rows without a hardpoint';
  return null;
}

/**
 * A bushing's rotational x rate when it is the element's only stiffness (an anti-roll bar's:
 * its load and stiffness are then that rate times the unit element's), or null.
 */
export function soleRate(m: VehicleModel, element: string, field: string): number | null {
  const doc = m.dyn.model.doc.forces?.[element] as { type?: string; stiffness?: number[] | number; rotational_stiffness?: number[] } | undefined;
  // the steering's spring (its force and stiffness are its rate times the unit spring's, its free travel fixed)
  if (element === STEERING_SPRING && field === 'stiffness' && doc?.type === 'coordinate_spring') return doc.stiffness as number;
  if (field !== 'rotational_stiffness.x' || doc?.type !== 'bushing' || !doc.rotational_stiffness || !Array.isArray(doc.stiffness)) return null;
  const [k, ...rest] = doc.rotational_stiffness;
  return k !== 0 && rest.every((x) => x === 0) && doc.stiffness.every((x) => x === 0) ? k : null;
}

/**
 * A direction's load besides its acceleration's: set (`on`) and taken off again, affine, its rate
 * along a number zero (a steering spring's free travel moved by a unit: rack-rates.ts).
 */
export type LoadExtra = { extra?: (m: VehicleModel, on: boolean) => void; extraRate?: (p: VehicleParameter, r: Float64Array) => void };

/** Local seeds of moving hardpoints per block (`row:b` a system block, `force:i` a force element), each with its weight. */
export type Movers = Map<string, { local: TangentSeeds['local']; w: number }[]>;

/** Pose seeds of the state's rate qd over a block's columns, plus the moving hardpoints' local seeds there. */
function seedsOf(cols: ArrayLike<number>, qd: Float64Array, movers: Movers, key: string): TangentSeeds {
  const list = movers.get(key);
  const move = new Float64Array(6);
  return {
    pose: (col) => (cols[col] >= 0 ? qd.subarray(cols[col], cols[col] + 6) : null),
    local: (col, p, isPoint) => {
      if (!list) return null;
      let any = false;
      move.fill(0);
      for (const { local, w } of list) { const x = local(col, p, isPoint); if (x) { any = true; for (let i = 0; i < 6; i++) move[i] += w * x[i]; } }
      return any ? move : null;
    },
    scalar: (col) => (cols[col] >= 0 ? qd[cols[col]] : 0),
  };
}

/**
 * δ′ along each number (its rest-state rate `qd`, its R_θ `rp`) for each direction (its unit
 * acceleration and tangent δ; null: none). The model is at its solved rest state, a = 0.
 */
export function movingDeltas(m: VehicleModel, red: Reduced, params: readonly VehicleParameter[], tangents: readonly { qd: Float64Array; rp: Float64Array }[],
  directions: readonly ((Acceleration & LoadExtra) | null)[], deltas: readonly (Float64Array | null)[]): (Float64Array | null)[][] {
  const { dyn } = m, sys = dyn.system, n = dyn.forces.size, { N, k, layout, Kr, KH } = red;
  const zero = new Float64Array(n);
  const loads = (a: Acceleration & LoadExtra) => {
    applyAcceleration(m, a);
    a.extra?.(m, true);
    const Q = new Float64Array(n), K = new Float64Array(n * n);
    dyn.forces.assemble(zero, 0, Q, K, null);
    return { Q, K };
  };
  const rest = loads({ ax: 0, ay: 0 });
  const mult = constraintMultipliers(sys, rest.Q);
  const lambda = Float64Array.from(mult.lambda);
  const rowBlock = Int32Array.from(mult.rowBlock);
  const { minimum } = rowSolver(m, layout, mult);
  const dirs = directions.map((a, d) => {
    if (!a || !deltas[d]) return null;
    const at = loads(a);
    a.extra?.(m, false);
    applyAcceleration(m, { ax: 0, ay: 0 });
    const Qa = new Float64Array(n), Ka = new Float64Array(n * n);
    for (let i = 0; i < n; i++) Qa[i] = at.Q[i] - rest.Q[i];
    for (let i = 0; i < n * n; i++) Ka[i] = at.K[i] - rest.K[i];
    const delta = deltas[d]!;
    const mu = Float64Array.from(constraintMultipliers(sys, plus(times(KH, delta, n), Qa)).lambda);
    // a brake or drive force is a share of the whole mass' (loads.ts): the contacts' part of Q_a, per kg of it
    const perKg = a.ax === 0 ? null : minus(Qa.slice(), inertiaLoad(m, a)).map((x) => x / m.totalMass);
    return { a, Qa, Ka, delta, mu, perKg };
  });
  dyn.forces.assemble(zero, 0, new Float64Array(n), null, null); // the blocks back at a = 0
  const lift = reducedResponse(N, Kr, k, n);
  const moversOf = hardpointMovers(m, layout, rowBlock, params);
  return params.map((p, j) => {
    const { qd, rp } = tangents[j];
    const movers = moversOf(p);
    const lamDot = Float64Array.from(constraintMultipliers(sys, minus(times(KH, qd, n), rp)).lambda);
    return dirs.map((dir) => {
      if (!dir) return null;
      const r = times(dir.Ka, qd, n);
      elementRates(m, qd, dir.delta, r, movers);
      parameterRates(m, layout, p, dir.delta, dir.a, r);
      (dir.a as LoadExtra).extraRate?.(p, r); // the extra load's own rate along the number
      if (p.wheels?.length) wheelRates(m, p, dir.a, dir.delta, r);
      if (dir.perKg) {
        const dM = p.parts.reduce((t, { parameter: q, weight }) => t + (q.kind === 'mass' ? weight : 0), 0) + p.lumps.reduce((t, l) => t + l.dmass, 0);
        for (let i = 0; i < n; i++) r[i] += dM * dir.perKg[i];
      }
      const phiDot = new Float64Array(n);
      rowRates(m, layout, rowBlock, qd, dir.delta, lambda, lamDot, dir.mu, r, phiDot, movers);
      // x_p: Φ_q x_p = −Φ̇_q δ (the holds' rows linear: kept)
      const xp = phiDot;
      minimum.solve(xp);
      const corr = lift(plus(times(KH, xp, n), r));
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = xp[i] + corr[i];
      return out;
    });
  });
}

/** Per number, the local seeds of the hardpoints it moves on every block that reads them (HardpointTerms.movers). */
export function hardpointMovers(m: VehicleModel, layout: Int32Array, rowBlock: Int32Array, params: readonly VehicleParameter[]): (p: VehicleParameter) => Movers {
  const hpParams: HardpointParameter[] = [];
  const hpAt = new Map<string, number>();
  for (const p of params) for (const { parameter: q } of p.parts) if (q.kind === 'hardpoint' && !hpAt.has(JSON.stringify(q))) { hpAt.set(JSON.stringify(q), hpParams.length); hpParams.push(q); }
  const hp = hpParams.length ? new HardpointTerms(m.dyn, hpParams, rowBlocks(m, layout, rowBlock)) : null;
  return (p) => {
    const movers: Movers = new Map();
    const add = (key: string, local: TangentSeeds['local'], w: number) => { if (!movers.has(key)) movers.set(key, []); movers.get(key)!.push({ local, w }); };
    for (const { parameter: q, weight } of p.parts) {
      if (q.kind !== 'hardpoint') continue;
      for (const mv of hp!.movers(hpAt.get(JSON.stringify(q))!)) add(`${mv.kind}:${mv.block}`, mv.local, weight);
    }
    // an axle point: the contact patches' own points (axle-points.ts)
    if (p.wheels?.length) for (const [key, local] of contactSeeds(m, p.wheels)) add(key, local, 1);
    return movers;
  };
}

const isSteeringSpring = (block: ForceBlock): boolean => block instanceof CoordinateSpringForce && block.owner === STEERING_SPRING;

/** r += K̇δ of every force element (but `skip`) along the state's rate qd (pose seeds: its duals' tangents; gravity's written out). */
export function elementRates(m: VehicleModel, qd: Float64Array, delta: Float64Array, r: Float64Array, movers: Movers, skip: ForceBlock | null = null): void {
  const { dyn } = m, sys = dyn.system, forces = dyn.forces;
  for (let index = 0; index < forces.blocks.length; index++) {
    const block = forces.blocks[index], slots = forces.slotsOf(index), d = slots.length;
    if (block === m.inertia || block === skip) continue; // no load at a = 0: no stiffness and no rate (its Q_a's rate is in Ka)
    if (isSteeringSpring(block)) continue; // the steering's spring: a constant K, K̇ = 0
    if (block instanceof GravityBlock) {
      const c0 = slots[0];
      if (c0 < 0) continue;
      const Q = new Float64Array(6);
      block.evaluate(sys.state, forces.offsetsOf(index), new Float64Array(6), 0, Q, null, null);
      // f′ = f × ω₁ (the weight turning in body axes); K̇δ = [c × (f′ × δω); f′ × δω]
      const f = [Q[3], Q[4], Q[5]], fd = cross(f, [qd[c0], qd[c0 + 1], qd[c0 + 2]]);
      const t = cross(fd, [delta[c0], delta[c0 + 1], delta[c0 + 2]]), c = bodyCentre(m, block.vars[0]), ct = cross(c, t);
      for (let i = 0; i < 3; i++) { r[c0 + i] += ct[i]; r[c0 + 3 + i] += t[i]; }
      continue;
    }
    if (!block.duals) throw new VehicleInputError('vehicle', `the force block "${block.owner}" gives no second derivatives: no gradient of a gradient figure`);
    const seeds = seedsOf(slots, qd, movers, `force:${index}`);
    const lq = new Float64Array(d), lk = new Float64Array(d * d);
    const duals = withTangents(seeds, () => { block.evaluate(sys.state, forces.offsetsOf(index), new Float64Array(d), 0, lq, lk, null); return block.duals!(); });
    for (let i = 0; i < d; i++) {
      const t = duals[i].t;
      if (slots[i] < 0 || !t) continue;
      let s = 0;
      for (let c = 0; c < d; c++) if (slots[c] >= 0) s += t.d[c] * delta[slots[c]];
      r[slots[i]] += s;
    }
  }
}

/** The unit inertial loads' generalized force alone (tangent layout), the model left at a = 0. */
function inertiaLoad(m: VehicleModel, a: Acceleration): Float64Array {
  const { forces, system } = m.dyn, i = forces.blocks.indexOf(m.inertia), slots = forces.slotsOf(i), d = slots.length;
  const q = new Float64Array(d), out = new Float64Array(forces.size);
  m.inertia.accel[0] = a.ax; m.inertia.accel[1] = a.ay;
  m.inertia.evaluate(system.state, forces.offsetsOf(i), new Float64Array(d), 0, q, null);
  m.inertia.accel.fill(0);
  for (let k = 0; k < d; k++) if (slots[k] >= 0) out[slots[k]] += q[k];
  return out;
}

/** The body part's centre of mass (local) of a variable. */
function bodyCentre(m: VehicleModel, variable: number): number[] {
  const b = m.dyn.bodies.find((x) => x.variable === variable);
  return b ? Array.from(b.body.centre) : [0, 0, 0];
}

/**
 * r += the number's own parts: ∂K/∂θ δ and ∂Q_a/∂θ. A spring's rate (Q and K proportional
 * to it: K_el δ / k), a spring's free length (its unit element's K δ), and a part's mass and
 * centre moving (its weight's and its unit inertial load's rates: massRates).
 */
export function parameterRates(m: VehicleModel, layout: Int32Array, p: VehicleParameter, delta: Float64Array, a: Acceleration, r: Float64Array): void {
  const { dyn } = m, forces = dyn.forces;
  const element = (id: string) => dyn.elements.find((e) => e.id === id)!.index;
  for (const { parameter: q, weight } of p.parts) {
    if (q.kind === 'stiffness') {
      const index = element(q.element), block = forces.blocks[index] as PointToPointForce;
      addStiffness(m, index, block, weight / (block.spring as LinearLaw).slope, delta, r);
    } else if (q.kind === 'coefficient') {
      // a bar's rate: its stiffness is the rate times the unit element's (soleRate); a bushing's or link's (compliance) its unit block's
      const index = element(q.element), sole = soleRate(m, q.element, q.field);
      if (sole !== null) addStiffness(m, index, forces.blocks[index], weight / sole, delta, r);
      else addStiffness(m, index, linearUnitBlock(m.dyn, q.element, q.field)!, weight, delta, r);
    } else if (q.kind === 'centre' || q.kind === 'mass') {
      const dc = [0, 0, 0];
      if (q.kind === 'centre') dc[q.axis] = weight;
      massRates(m, layout, q.part, q.kind === 'mass' ? weight : 0, dc, delta, a, r);
    }
  }
  for (const l of p.lumps) massRates(m, layout, l.part, l.dmass, l.dcentre, delta, a, r);
  for (const { element: id, w } of p.freeLengths) {
    const index = element(id);
    addStiffness(m, index, freeLengthUnit(forces.blocks[index] as PointToPointForce), w, delta, r);
  }
}

/** r += w K δ of a force block evaluated at the element's slots. */
function addStiffness(m: VehicleModel, index: number, block: ForceBlock, w: number, delta: Float64Array, r: Float64Array): void {
  const { forces, system } = m.dyn, slots = forces.slotsOf(index), d = slots.length;
  const lq = new Float64Array(d), lk = new Float64Array(d * d);
  block.evaluate(system.state, forces.offsetsOf(index), new Float64Array(d), 0, lq, lk, null);
  for (let i = 0; i < d; i++) {
    if (slots[i] < 0) continue;
    let s = 0;
    for (let c = 0; c < d; c++) if (slots[c] >= 0) s += lk[i * d + c] * delta[slots[c]];
    r[slots[i]] += w * s;
  }
}

/**
 * A part's mass moving by dm and its centre by dc (local): its weight f at c, K δ = [c × (f × δω); f × δω],
 * moves by [dc × (f × δω) + c × (f_m × δω); f_m × δω] (f_m = f dm/m), and its unit inertial load
 * Q_a = [c × f_a; f_a] by [dc × f_a + c × f_a dm/m; f_a dm/m].
 */
function massRates(m: VehicleModel, layout: Int32Array, part: string, dm: number, dc: readonly number[], delta: Float64Array, a: Acceleration, r: Float64Array): void {
  const { dyn } = m, sys = dyn.system, forces = dyn.forces;
  const id = dyn.model.parts.get(part)!, c0 = layout[id];
  const body = dyn.bodies.find((x) => x.variable === id);
  if (c0 < 0 || !body) return;
  const c = Array.from(body.body.centre), scale = dm / (1000 * body.body.mass); // dm in kg, the model's masses in t
  const gi = forces.blocks.findIndex((b) => b instanceof GravityBlock && b.vars[0] === id);
  const Q = new Float64Array(6);
  forces.blocks[gi].evaluate(sys.state, forces.offsetsOf(gi), new Float64Array(6), 0, Q, null, null);
  const dw = [delta[c0], delta[c0 + 1], delta[c0 + 2]];
  const fx = cross([Q[3], Q[4], Q[5]], dw), fmx = fx.map((x) => x * scale);
  const ii = forces.blocks.indexOf(m.inertia), iq = new Float64Array(forces.slotsOf(ii).length), k0 = m.inertia.vars.indexOf(id) * 6;
  m.inertia.accel[0] = a.ax; m.inertia.accel[1] = a.ay;
  m.inertia.evaluate(sys.state, forces.offsetsOf(ii), new Float64Array(iq.length), 0, iq, null);
  m.inertia.accel.fill(0);
  const fa = [iq[k0 + 3], iq[k0 + 4], iq[k0 + 5]];
  const t1 = cross(dc, fx), t2 = cross(c, fmx), t3 = cross(dc, fa), t4 = cross(c, fa);
  for (let i = 0; i < 3; i++) {
    r[c0 + i] += t1[i] + t2[i] + t3[i] + scale * t4[i];
    r[c0 + 3 + i] += fmx[i] + scale * fa[i];
  }
}

/**
 * The rows' part along qd, one second-level pass per block: r −= λ′·Φ_qq δ + λ·Φ_qqq[δ, qd]
 * (Ḣδ) + Φ̇_qᵀ μ, and phiDot = −Φ̇_q δ per hard row.
 */
export function rowRates(m: VehicleModel, layout: Int32Array, rowBlock: Int32Array, qd: Float64Array, delta: Float64Array,
  lambda: Float64Array, lamDot: Float64Array, mu: Float64Array, r: Float64Array, phiDot: Float64Array, movers: Movers): void {
  const sys = m.dyn.system, rate = new JacobianRate();
  for (let row0 = 0; row0 < rowBlock.length; row0++) {
    if (row0 > 0 && rowBlock[row0] === rowBlock[row0 - 1]) continue;
    const b = rowBlock[row0], blk = sys.block(b);
    if (!blk.duals) continue; // rows linear in their coordinates
    const cols = blockColumns(sys, b, layout), ld = cols.length;
    const second = seedsOf(cols, qd, movers, `row:${b}`);
    const rows = rate.mixed(sys, b, cols, delta, second, new Float64Array(blk.rows), new Float64Array(blk.rows * ld));
    for (let i = 0; i < blk.rows; i++) {
      const t = rows[i].t, t2 = rows[i].t2, l = lambda[row0 + i], l1 = lamDot[row0 + i], u = mu[row0 + i];
      let s = 0;
      for (let c = 0; c < ld; c++) {
        const g = cols[c];
        if (g < 0) continue;
        const j2 = t2 ? t2.d[c] : 0;
        r[g] -= (t ? l1 * t.d[c] + (t.t2 ? l * t.t2.d[c] : 0) : 0) + u * j2;
        s += j2 * delta[g];
      }
      phiDot[row0 + i] = -s;
    }
  }
}


function minus(a: Float64Array, b: Float64Array): Float64Array {
  for (let i = 0; i < a.length; i++) a[i] -= b[i];
  return a;
}

/**
 * r += an axle point's own terms (axle-points.ts): the level's stiffness rate K̇δ at rest (the
 * road's height under the contacts, the datum's anchor and heading) and ∂Q_a/∂θ, the
 * contacts' unit loads moving with their points and the road (their part at `a` less at rest).
 */
export function wheelRates(m: VehicleModel, p: VehicleParameter, a: Acceleration, delta: Float64Array, r: Float64Array): void {
  const n = m.dyn.forces.size, shifted = levelShifted(m, levelRates(m, p.wheels!)), seeds = contactSeeds(m, p.wheels!);
  levelTerm(m, shifted, null, delta, r);
  const at = new Float64Array(n), rest = new Float64Array(n);
  applyAcceleration(m, a);
  contactTerm(m, seeds, at);
  levelTerm(m, shifted, at, null, null);
  applyAcceleration(m, { ax: 0, ay: 0 });
  contactTerm(m, seeds, rest);
  levelTerm(m, shifted, rest, null, null);
  for (let i = 0; i < n; i++) r[i] += at[i] - rest[i];
}
