/**
 * The mechanism linearised on its constraint manifold at the current state: the basis N
 * of admissible motions (constraints and held coordinates kept; kernel/analysis.ts), the
 * reduced force f = Nᵀ Q, stiffness K_r = −Nᵀ (∂Q/∂δ + ∂Q_c/∂δ) N, damping C_r = −Nᵀ ∂Q/∂v N
 * and mass M_r = Nᵀ M N. Q_c is the constraint force (−Φ_qᵀ λ): its derivative at fixed
 * λ is the constraint-curvature (geometric) stiffness, taken here as that of each mate's
 * reaction wrench held fixed in the world at its b entity point (on b, and opposite on a):
 * exact for point-coincidence rows (ball joints, the point rows of revolute and other
 * joints), which carry a pendulum's load; moment rows are taken as fixed world moments
 * (exact while the joint turns only about its own axis). A distance mate between two
 * points (a two-force link) is exactly a constant tension between its material points, so
 * its direction turns with them (the T/l geometric stiffness).
 */
import { admissibleMotions, constraintMultipliers, type Multipliers } from '../../kernel/analysis';
import { ForceSet } from '../../kernel/forces';
import { GravityBlock, assembleMass } from '../../kernel/mass';
import * as P from '../../kernel/pose';
import { BodyTorque, LinearLaw, PointForce, PointToPointForce } from '../../mates/forces';
import { splitReference } from '../assembly/types';
import type { DynamicsModel } from './build';
import { mateReactions } from './statics';

export interface Reduced {
  /** Admissible motion basis: k columns of `size` tangent entries, column-major. */
  N: Float64Array;
  k: number;
  size: number;
  layout: Int32Array;
  /** Generalized forces (size) and their derivatives at the state. */
  Q: Float64Array;
  /** Reduced force Nᵀ Q (k). */
  f: Float64Array;
  /** Reduced stiffness (k × k, row-major). */
  Kr: Float64Array;
  Cr: Float64Array | null;
  Mr: Float64Array | null;
  mult: Multipliers;
}

const loadSets = new WeakMap<DynamicsModel, ForceSet>();
/** The blocks that are applied loads (gravity, forces, torques): what load stepping scales. */
function loadSet(dyn: DynamicsModel): ForceSet {
  let set = loadSets.get(dyn);
  if (!set) {
    set = new ForceSet(dyn.system);
    for (const b of dyn.forces.blocks) if (b instanceof GravityBlock || b instanceof PointForce || b instanceof BodyTorque) set.add(b);
    loadSets.set(dyn, set);
  }
  return set;
}

/** Generalized force and stiffness with the applied loads scaled by `loadScale` (elastic elements in full). */
export function assembleScaled(dyn: DynamicsModel, loadScale: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, t = 0): void {
  const n = dyn.forces.size;
  const zero = new Float64Array(n);
  dyn.forces.assemble(zero, t, Q, K, C);
  if (loadScale === 1) return;
  const QL = new Float64Array(n), KL = K ? new Float64Array(n * n) : null;
  loadSet(dyn).assemble(zero, t, QL, KL, null);
  const s = 1 - loadScale;
  for (let i = 0; i < n; i++) Q[i] -= s * QL[i];
  if (K && KL) for (let i = 0; i < n * n; i++) K[i] -= s * KL[i];
}

export function reduce(dyn: DynamicsModel, options: { loadScale?: number; mass?: boolean; damping?: boolean; t?: number } = {}): Reduced {
  const { system } = dyn;
  const n = dyn.forces.size;
  const Q = new Float64Array(n), K = new Float64Array(n * n), C = options.damping ? new Float64Array(n * n) : null;
  assembleScaled(dyn, options.loadScale ?? 1, Q, K, C, options.t ?? 0);
  const mult = constraintMultipliers(system, Q);
  addReactionStiffness(dyn, mult, K);
  const { basis: N, count: k, layout } = admissibleMotions(system);
  const f = new Float64Array(k);
  for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < n; j++) s += N[a * n + j] * Q[j]; f[a] = s; }
  const project = (A: Float64Array, sign: number): Float64Array => {
    const AN = new Float64Array(n * k); // A N, row-major n × k
    for (let i = 0; i < n; i++) for (let b = 0; b < k; b++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += A[i * n + j] * N[b * n + j];
      AN[i * k + b] = s;
    }
    const out = new Float64Array(k * k);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += N[a * n + i] * AN[i * k + b];
      out[a * k + b] = sign * s;
    }
    return out;
  };
  const Kr = project(K, -1);
  const Cr = C ? project(C, -1) : null;
  let Mr: Float64Array | null = null;
  if (options.mass) Mr = project(assembleMass(new Float64Array(n * n), layout, n, dyn.bodies), 1);
  return { N, k, size: n, layout, Q, f, Kr, Cr, Mr, mult };
}

/** Add to K the stiffness of the constraint forces −Φ_qᵀλ at fixed λ (see the module note). */
function addReactionStiffness(dyn: DynamicsModel, mult: Multipliers, K: Float64Array): void {
  const { system, model } = dyn;
  const n = mult.size;
  const reactions = mateReactions(dyn, mult);
  const zero = new Float64Array(6), q = new Float64Array(6), k6 = new Float64Array(36), local = new Float64Array(3);
  const add = (variable: number, at: ArrayLike<number>, force: ArrayLike<number>, moment: ArrayLike<number>, sign: number) => {
    const c0 = mult.layout[variable];
    if (c0 < 0) return;
    const pose = system.getPose(variable);
    P.applyInversePoint(local, pose, at);
    const F = [sign * force[0], sign * force[1], sign * force[2]], M = [sign * moment[0], sign * moment[1], sign * moment[2]];
    const offsets = new Int32Array([system.variables[variable].offset]);
    for (const block of [new PointForce('reaction', variable, local, F, false, null), new BodyTorque('reaction', variable, M, false, null)]) {
      block.evaluate(system.state, offsets, zero, 0, q, k6, null);
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) K[(c0 + i) * n + c0 + j] += k6[i * 6 + j];
    }
  };
  const q12 = new Float64Array(12), k12 = new Float64Array(144), zero12 = new Float64Array(12);
  for (const [id, reaction] of Object.entries(reactions)) {
    if (!('force' in reaction)) continue;
    const mate = model.doc.mates[id] as { a: string; b: string };
    const a = model.parts.get(mate.a.slice(0, mate.a.indexOf('.')))!, b = model.parts.get(reaction.on)!;
    if (reaction.tension !== undefined) {
      // a two-force link: exactly a constant tension between its two material points (the direction turns with them)
      const ra = splitReference(mate.a)!, rb = splitReference(mate.b)!;
      const link = new PointToPointForce('reaction', a, model.doc.parts[ra.owner].points![ra.name], b, model.doc.parts[rb.owner].points![rb.name], new LinearLaw(0, 0, reaction.tension), null);
      const offsets = new Int32Array([system.variables[a].offset, system.variables[b].offset]);
      link.evaluate(system.state, offsets, zero12, 0, q12, k12, null);
      const slots = [mult.layout[a], mult.layout[b]];
      for (let i = 0; i < 12; i++) {
        const gi = slots[i < 6 ? 0 : 1];
        if (gi < 0) continue;
        for (let j = 0; j < 12; j++) {
          const gj = slots[j < 6 ? 0 : 1];
          if (gj >= 0) K[(gi + (i % 6)) * n + gj + (j % 6)] += k12[i * 12 + j];
        }
      }
      continue;
    }
    add(b, reaction.at, reaction.force, reaction.moment, 1);
    add(a, reaction.at, reaction.force, reaction.moment, -1);
  }
}
