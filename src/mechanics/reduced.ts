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
import { admissibleMotions, constraintMultipliers, type Multipliers } from '../../kernel/multipliers';
import { ForceSet } from '../../kernel/forces';
import { GravityBlock, assembleMass } from '../../kernel/mass';
import { BodyTorque, PointForce } from '../../mates/forces';
import { rotationMatrix } from '../../kernel/dual';
import { splitReference } from '../assembly/types';
import type { DynamicsModel } from './build';
import { sharedMateReactions } from './statics';
import { addTensionStiffness } from '../../mates/tension-stiffness';

export interface Reduced {
  /** Admissible motion basis: k columns of `size` tangent entries, column-major (kernel/multipliers.ts keeps it per factorisation: read only). */
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
  const zero = zeroVelocity(n);
  dyn.forces.assemble(zero, t, Q, K, C);
  if (loadScale === 1) return;
  const QL = new Float64Array(n), KL = K ? new Float64Array(n * n) : null;
  loadSet(dyn).assemble(zero, t, QL, KL, null);
  const s = 1 - loadScale;
  for (let i = 0; i < n; i++) Q[i] -= s * QL[i];
  if (K && KL) for (let i = 0; i < n * n; i++) K[i] -= s * KL[i];
}

/**
 * The full tangent stiffness −(∂Q/∂δ + ∂Q_c/∂δ) at the current state (size × size,
 * row-major, unscaled tangent entries): the elements' and the reactions' terms, with the
 * multipliers of whatever drivers are in the system. Callers project it on their own
 * motions (a sweep's per-hub tangent).
 */
export function tangentStiffness(dyn: DynamicsModel, Q: Float64Array = new Float64Array(dyn.forces.size)): { K: Float64Array; size: number } {
  const n = dyn.forces.size;
  const K = new Float64Array(n * n);
  dyn.forces.assemble(new Float64Array(n), 0, Q, K, null);
  addReactionStiffness(dyn, constraintMultipliers(dyn.system, Q), K);
  for (let i = 0; i < n * n; i++) K[i] = -K[i];
  return { K, size: n };
}

/**
 * Workspaces of reduce, which runs per state of a sweep or a load case: the full stiffness
 * (projected, then dropped) and the zero velocity the elements read. A fresh typed array of
 * this size lives off the JS heap and costs more than the rest of a small mechanism's pass.
 */
let kScratch = new Float64Array(0), zeroScratch = new Float64Array(0);
function stiffnessScratch(n: number): Float64Array {
  if (kScratch.length < n * n) kScratch = new Float64Array(n * n);
  return kScratch;
}
function zeroVelocity(n: number): Float64Array {
  if (zeroScratch.length < n) zeroScratch = new Float64Array(n);
  return zeroScratch;
}

export function reduce(dyn: DynamicsModel, options: { loadScale?: number; mass?: boolean; damping?: boolean; t?: number } = {}): Reduced {
  const { system } = dyn;
  const n = dyn.forces.size;
  const Q = new Float64Array(n), K = stiffnessScratch(n), C = options.damping ? new Float64Array(n * n) : null;
  assembleScaled(dyn, options.loadScale ?? 1, Q, K, C, options.t ?? 0);
  const mult = constraintMultipliers(system, Q);
  addReactionStiffness(dyn, mult, K);
  const { basis: N, count: k, layout } = admissibleMotions(system);
  const f = new Float64Array(k);
  for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < n; j++) s += N[a * n + j] * Q[j]; f[a] = s; }
  const Kr = project(K, N, n, k, -1);
  const Cr = C ? project(C, N, n, k, -1) : null;
  let Mr: Float64Array | null = null;
  if (options.mass) Mr = project(assembleMass(new Float64Array(n * n), layout, n, dyn.bodies), N, n, k, 1);
  return { N, k, size: n, layout, Q, f, Kr, Cr, Mr, mult };
}

/** sign · Nᵀ A N (k × k, row-major) of an n × n row-major A and the basis N (k columns of n). */
function project(A: Float64Array, N: Float64Array, n: number, k: number, sign: number): Float64Array {
  if (anScratch.length < n * k) anScratch = new Float64Array(n * k);
  const AN = anScratch; // A N, row-major n × k
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
}
let anScratch = new Float64Array(0);

/** A two-force link's ends: its points in their parts' frames (per mate, found once per model). */
interface LinkEnds { pa: readonly number[]; pb: readonly number[] }
const linkEnds = new WeakMap<DynamicsModel, Map<string, LinkEnds>>();
const Rb = new Float64Array(9), local = new Float64Array(3), f = new Float64Array(3), m = new Float64Array(3);

/**
 * K += stiffness of a world force F at world point x and a world moment M, both held fixed
 * in the world, on pose variable `variable` (slot c0): with f = Rᵀ F, m = Rᵀ M and p the
 * point in body axes, ∂f/∂ω = [f]ₓ, ∂(p × f)/∂ω = [p]ₓ[f]ₓ, ∂m/∂ω = [m]ₓ.
 */
function addDeadWrench(K: Float64Array, n: number, c0: number, state: Float64Array, offset: number, x: ArrayLike<number>, F: ArrayLike<number>, M: ArrayLike<number>, sign: number): void {
  rotationMatrix(Rb, state, offset + 3);
  for (let i = 0; i < 3; i++) {
    local[i] = Rb[i] * (x[0] - state[offset]) + Rb[3 + i] * (x[1] - state[offset + 1]) + Rb[6 + i] * (x[2] - state[offset + 2]);
    f[i] = sign * (Rb[i] * F[0] + Rb[3 + i] * F[1] + Rb[6 + i] * F[2]);
    m[i] = sign * (Rb[i] * M[0] + Rb[3 + i] * M[1] + Rb[6 + i] * M[2]);
  }
  const fx = [0, -f[2], f[1], f[2], 0, -f[0], -f[1], f[0], 0];
  const px = [0, -local[2], local[1], local[2], 0, -local[0], -local[1], local[0], 0];
  const mx = [0, -m[2], m[1], m[2], 0, -m[0], -m[1], m[0], 0];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += px[i * 3 + k] * fx[k * 3 + j];
    K[(c0 + i) * n + c0 + j] += s + mx[i * 3 + j];
    K[(c0 + 3 + i) * n + c0 + j] += fx[i * 3 + j];
  }
}

/** Add to K the stiffness of the constraint forces −Φ_qᵀλ at fixed λ (see the module note). */
function addReactionStiffness(dyn: DynamicsModel, mult: Multipliers, K: Float64Array): void {
  const { system, model } = dyn;
  const n = mult.size;
  const reactions = sharedMateReactions(dyn, mult);
  let links = linkEnds.get(dyn);
  if (!links) { links = new Map(); linkEnds.set(dyn, links); }
  for (const [id, reaction] of Object.entries(reactions)) {
    if (!('force' in reaction)) continue;
    const mate = model.doc.mates[id] as { a: string; b: string };
    const a = model.parts.get(splitReference(mate.a)!.owner)!, b = model.parts.get(reaction.on)!;
    if (reaction.tension !== undefined) {
      // a two-force link: exactly a constant tension between its two material points (the direction turns with them)
      let link = links.get(id);
      if (!link) {
        const ra = splitReference(mate.a)!, rb = splitReference(mate.b)!;
        link = { pa: model.doc.parts[ra.owner].points![ra.name], pb: model.doc.parts[rb.owner].points![rb.name] };
        links.set(id, link);
      }
      addTensionStiffness(K, n, system.state, reaction.tension, system.variables[a].offset, mult.layout[a], link.pa, system.variables[b].offset, mult.layout[b], link.pb);
      continue;
    }
    for (const [variable, sign] of [[b, 1], [a, -1]] as const) {
      const c0 = mult.layout[variable];
      if (c0 >= 0) addDeadWrench(K, n, c0, system.state, system.variables[variable].offset, reaction.at, reaction.force, reaction.moment, sign);
    }
  }
}
