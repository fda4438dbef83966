/**
 * Statics at a solved pose: Φ_qᵀ λ = Q(q) for every mate, driver and held coordinate
 * (kernel/analysis.ts constraintMultipliers, on the factorisation the tangent analysis
 * already has), reported in the one definition of a reaction (dynamics.md): the force and
 * moment mate M exerts on its `b` part, the moment about M's `b` entity, world axes, N and
 * N·mm. A driver's or held coordinate's reaction is the generalized force it applies
 * along the coordinate (N for a slide, N·mm for an angle): at rest, driver + loads = 0.
 */
import { constraintMultipliers, type Multipliers } from '../../kernel/multipliers';
import { rotationMatrix } from '../../kernel/dual';
import * as P from '../../kernel/pose';
import type { SolveOptions } from '../../kernel/solver/solve';
import type { System } from '../../kernel/system';
import {
  BodyTorque, BushingForce, CoordinateSpringForce, PointForce, PointToPointForce, TyreForce,
} from '../../mates/forces';
import { CoordinateFrictionForce, DragForce } from '../../mates/resistance';
import { RollingBlock } from '../../mates/rolling';
import { isCoupling, splitReference, type AssemblyDoc, type PartDoc } from '../assembly/types';
import { modelState, solveModel, type StateJSON } from '../model/operations';
import type { DynamicsModel } from './build';
import type { Vec3Tuple } from '../../kernel/vec3';


/**
 * A wrench on a part: force (N) and moment (N·mm) about `at` (mm), world axes. A distance
 * mate between two points (a two-force link) also gives its axial `tension` (N, positive
 * when the link pulls its ends together).
 */
export interface Wrench {
  on: string; at: Vec3Tuple; force: Vec3Tuple; moment: Vec3Tuple; tension?: number;
  /**
   * A rolling mate's contact: the normal force (N, positive when the track pushes the wheel
   * away from it; negative means the wheel would lift off), the traction along the track
   * (N, on the wheel, toward growing u) and the contact point (mm, world).
   */
  normal?: number; traction?: number; contact?: Vec3Tuple;
  /** World components ("force.x", …, "moment.z") a redundant assembly leaves undetermined: their values are the minimum-norm split. */
  indeterminate?: string[];
}
/** A coupling's reaction: the generalized force on its `b` coordinate (N or N·mm). */
export interface CoordinateReaction { on: string; value: number }

export type ElementReport =
  | { length: number; rate: number; tension: number }
  | (Wrench & { translation: Vec3Tuple; rotation: Vec3Tuple })
  | { value: number; force: number }
  | { on: string; at: Vec3Tuple; force: Vec3Tuple }
  | { on: string; moment: Vec3Tuple }
  | { penetration: number; force: number; contact: Vec3Tuple }
  | { speed: number; force: number }
  | { rate: number; force: number };

export interface StaticsResult {
  /** `solved` (balanced), `not_in_equilibrium` (a free motion is not balanced), `failed` (the pose cannot be solved). */
  status: 'solved' | 'not_in_equilibrium' | 'failed';
  dof: number;
  state: StateJSON;
  reactions: Record<string, Wrench | CoordinateReaction>;
  drivers: Record<string, number>;
  forces: Record<string, ElementReport>;
  /** Mates whose reactions the loads do not determine (redundant constraints); their values are the minimum-norm ones. */
  indeterminate: string[];
  /** Generalized force no mate or driver balances, per free coordinate or `<part>.pose` ({ force, moment } world, moment about the part's origin). */
  unbalanced: Record<string, number | { force: Vec3Tuple; moment: Vec3Tuple }>;
  message?: string;
}

/** Relative size below which an unbalanced generalized force counts as zero. */
export const BALANCE_TOLERANCE = 1e-7;

/**
 * Solve the pose (as `solve`, with `set` in file units), then the reactions holding it.
 * A pose that cannot be solved comes back `failed` with the solve's state and no reactions.
 */
export function statics(dyn: DynamicsModel, options: { set?: Record<string, number>; solver?: SolveOptions } = {}): StaticsResult {
  const solved = solveModel(dyn.model, { set: options.set, solver: options.solver });
  if (solved.status !== 'solved') {
    return { status: 'failed', dof: solved.dof, state: solved.state, reactions: {}, drivers: {}, forces: {}, indeterminate: [], unbalanced: {}, message: solved.message ?? `the pose cannot be solved (mates ${(solved.failed ?? []).join(', ')})` };
  }
  return { ...reactionsHere(dyn), dof: solved.dof };
}

/** Generalized forces of every block at the current state, at rest: Q (tangent size). */
export function loadsHere(dyn: DynamicsModel, t = 0): Float64Array {
  const n = dyn.forces.size;
  const Q = new Float64Array(n);
  dyn.forces.assemble(restVelocity(n), t, Q, null, null);
  return Q;
}

/** The statics report at the current (solved) state. */
export function reactionsHere(dyn: DynamicsModel, t = 0): StaticsResult {
  const { system, model } = dyn;
  const Q = loadsHere(dyn, t);
  const evaluated = dyn.forces.evaluations;
  const mult = constraintMultipliers(system, Q);
  const reactions = mateReactions(dyn, mult);
  const drivers: Record<string, number> = {};
  mult.driverBlocks.forEach((b, d) => {
    const blk = system.block(b);
    const v = system.variables[blk.vars[0]];
    // hold row (x − target)·scale: the driver applies −scale·λ along x
    drivers[userName(blk.owner)] = -v.scale * mult.driverLambda[d];
  });
  const indeterminate = new Set<string>();
  for (let i = 0; i < mult.lambda.length; i++) if (mult.indeterminate[i]) indeterminate.add(system.block(mult.rowBlock[i]).owner);
  const { unbalanced, balanced } = unbalancedReport(dyn, mult, Q);
  return {
    status: balanced ? 'solved' : 'not_in_equilibrium',
    dof: 0,
    state: modelState(model),
    reactions,
    drivers,
    forces: elementReports(dyn, t, undefined, evaluated),
    indeterminate: [...indeterminate],
    unbalanced,
  };
}

function userName(owner: string): string {
  return owner.startsWith('hold:') ? owner.slice(5) : owner;
}

const R = new Float64Array(9);

/** A body-frame generalized force (ω, v) on pose variable `variable` as a world wrench about `at`. */
function worldWrench(state: Float64Array, offset: number, G: ArrayLike<number>, at: ArrayLike<number>): { force: Vec3Tuple; moment: Vec3Tuple } {
  rotationMatrix(R, state, offset + 3);
  const f: Vec3Tuple = [
    R[0] * G[3] + R[1] * G[4] + R[2] * G[5],
    R[3] * G[3] + R[4] * G[4] + R[5] * G[5],
    R[6] * G[3] + R[7] * G[4] + R[8] * G[5],
  ];
  const mo0 = R[0] * G[0] + R[1] * G[1] + R[2] * G[2];
  const mo1 = R[3] * G[0] + R[4] * G[1] + R[5] * G[2];
  const mo2 = R[6] * G[0] + R[7] * G[1] + R[8] * G[2];
  // moment about `at` = moment about the body origin + (origin − at) × f
  const r0 = state[offset] - at[0], r1 = state[offset + 1] - at[1], r2 = state[offset + 2] - at[2];
  const moment: Vec3Tuple = [mo0 + r1 * f[2] - r2 * f[1], mo1 + r2 * f[0] - r0 * f[2], mo2 + r0 * f[1] - r1 * f[0]];
  return { force: f, moment };
}

/** The point of an entity in its part's frame (a frame's, axis's or plane's origin, a circle's centre; a curve's part origin). */
export function entityPoint(part: PartDoc, name: string): readonly number[] {
  if (part.points?.[name]) return part.points[name];
  if (part.frames?.[name]) return part.frames[name].origin;
  if (part.axes?.[name]) return part.axes[name].origin;
  if (part.planes?.[name]) return part.planes[name].origin;
  if (part.circles?.[name]) return part.circles[name].center;
  return [0, 0, 0];
}

/** Every mate's reaction from the multipliers (the wrench on its b part, or a coupling's generalized force). */
/** What mateReactions reads of the multipliers: the rows' λ and owners, and the redundant rows' null space (empty in a run). */
export type RowMultipliers = Pick<Multipliers, 'lambda' | 'rowBlock' | 'rowInBlock' | 'nullLambda'>;

export function mateReactions(dyn: DynamicsModel, mult: RowMultipliers): Record<string, Wrench | CoordinateReaction> {
  const out = computeReactions(dyn, mult);
  // multipliers of constraintMultipliers (kept per factorisation) are often read twice at a
  // state: its report, then its rates (mechanics/reduced.ts); a run's own are not kept
  if ('layout' in mult) keepReactions(mult, dyn.system.state, copyReactions(out));
  return out;
}

type Reactions = Record<string, Wrench | CoordinateReaction>;
/** The reactions last computed from each kept multipliers object, and the state they are of. */
const lastReactions = new WeakMap<RowMultipliers, { state: Float64Array; reactions: Reactions }>();

/**
 * mateReactions for reading only: the ones last computed from these multipliers at this very
 * state when there are (not to be modified: shared), else computed.
 */
export function sharedMateReactions(dyn: DynamicsModel, mult: RowMultipliers): Readonly<Reactions> {
  const last = lastReactions.get(mult);
  const state = dyn.system.state;
  if (last && sameState(last.state, state)) return last.reactions;
  const out = computeReactions(dyn, mult);
  if ('layout' in mult) keepReactions(mult, state, out);
  return out;
}

/** Keep reactions of these multipliers at this state (the state copied into the last entry's buffer when it fits). */
function keepReactions(mult: RowMultipliers, state: Float64Array, reactions: Reactions): void {
  const last = lastReactions.get(mult);
  if (last && last.state.length === state.length) { last.state.set(state); last.reactions = reactions; return; }
  lastReactions.set(mult, { state: Float64Array.from(state), reactions });
}

function sameState(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A copy no caller of mateReactions can reach (its arrays are fresh). */
function copyReactions(reactions: Reactions): Reactions {
  const out: Reactions = {};
  for (const [id, r] of Object.entries(reactions)) {
    if (!('force' in r)) { out[id] = { ...r }; continue; }
    const w: Wrench = { ...r, at: v3(r.at), force: v3(r.force), moment: v3(r.moment) };
    if (r.contact) w.contact = v3(r.contact);
    if (r.indeterminate) w.indeterminate = [...r.indeterminate];
    out[id] = w;
  }
  return out;
}

function computeReactions(dyn: DynamicsModel, mult: RowMultipliers): Reactions {
  const { system, model } = dyn;
  const doc: AssemblyDoc = model.doc;
  const rows = rowsByBlock(system.blockCount, mult);
  const state = system.state;
  const G = reactionG, at = reactionAt;
  const out: Record<string, Wrench | CoordinateReaction> = {};
  for (const id in doc.mates) {
    const mate = doc.mates[id];
    const handle = model.mates.get(id);
    if (!handle) continue;
    if (isCoupling(mate)) {
      const variable = model.coordinates.get(mate.b)!.variable;
      let value = 0;
      for (const b of handle.blocks) if (generalizedOn(system, b, rows, mult, variable, mult.lambda, G) > 0) value += G[0];
      out[id] = { on: mate.b, value };
      continue;
    }
    const ref = splitReference(mate.b)!;
    const variable = model.parts.get(ref.owner)!;
    const offset = system.variables[variable].offset;
    sumOn(system, handle.blocks, rows, mult, variable, mult.lambda, G);
    P.applyPoint(at, state, entityPoint(doc.parts[ref.owner], ref.name), offset);
    const w = worldWrench(state, offset, G, at);
    const wrench: Wrench = { on: ref.owner, at: [at[0], at[1], at[2]], force: w.force, moment: w.moment };
    if (mult.nullLambda.length) {
      const open = openComponents(system, handle.blocks, rows, mult, variable, at);
      if (open.size) wrench.indeterminate = ['force.x', 'force.y', 'force.z', 'moment.x', 'moment.y', 'moment.z'].filter((c) => open.has(c));
    }
    if (mate.type === 'distance') {
      const aRef = splitReference(mate.a)!;
      const aPoint = doc.parts[aRef.owner].points?.[aRef.name];
      if (aPoint && doc.parts[ref.owner].points?.[ref.name]) {
        // a two-force link: tension pulls b toward a
        const xa = P.applyPoint(reactionXa, state, aPoint, system.variables[model.parts.get(aRef.owner)!].offset);
        const d0 = xa[0] - at[0], d1 = xa[1] - at[1], d2 = xa[2] - at[2], l = Math.hypot(d0, d1, d2);
        if (l > 0) wrench.tension = (w.force[0] * d0 + w.force[1] * d1 + w.force[2] * d2) / l;
      }
    }
    for (const b of handle.blocks) {
      const blk = system.block(b);
      if (blk instanceof RollingBlock) { Object.assign(wrench, rollingContact(blk, w.force)); break; }
    }
    out[id] = wrench;
  }
  return out;
}
const reactionG = new Float64Array(6), reactionAt = new Float64Array(3), reactionXa = new Float64Array(3), reactionDG = new Float64Array(6);

/** The rows of each block in the multipliers (CSR over block indices: start[b] .. start[b + 1] of list). */
function rowsByBlock(blocks: number, mult: RowMultipliers): { start: Int32Array; list: Int32Array } {
  const m = mult.lambda.length;
  const start = new Int32Array(blocks + 1), list = new Int32Array(m);
  for (let i = 0; i < m; i++) start[mult.rowBlock[i] + 1]++;
  for (let b = 0; b < blocks; b++) start[b + 1] += start[b];
  const next = start.slice(0, blocks);
  for (let i = 0; i < m; i++) list[next[mult.rowBlock[i]]++] = i;
  return { start, list };
}
type BlockRowsList = ReturnType<typeof rowsByBlock>;

/** G = Σ over `blocks` of the generalized force each exerts on `variable` (6 entries). */
function sumOn(system: System, blocks: readonly number[], rows: BlockRowsList, mult: RowMultipliers, variable: number, lambda: ArrayLike<number>, G: Float64Array): void {
  G.fill(0);
  const g = reactionBlockG;
  for (const b of blocks) {
    const dim = generalizedOn(system, b, rows, mult, variable, lambda, g);
    for (let i = 0; i < dim; i++) G[i] += g[i];
  }
}
const reactionBlockG = new Float64Array(6);

/** Which world components the redundant rows leave open: those a null vector of Φ_qᵀ changes. */
function openComponents(system: System, blocks: readonly number[], rows: BlockRowsList, mult: RowMultipliers, variable: number, at: ArrayLike<number>): Set<string> {
  const open = new Set<string>();
  const offset = system.variables[variable].offset;
  for (const nu of mult.nullLambda) {
    sumOn(system, blocks, rows, mult, variable, nu, reactionDG);
    const dw = worldWrench(system.state, offset, reactionDG, at);
    const size = Math.max(...dw.force.map(Math.abs), ...dw.moment.map((x) => Math.abs(x) / system.lengthScale));
    if (!(size > 0)) continue;
    ['x', 'y', 'z'].forEach((axis, i) => {
      if (Math.abs(dw.force[i]) > 1e-8 * size) open.add(`force.${axis}`);
      if (Math.abs(dw.moment[i]) / system.lengthScale > 1e-8 * size) open.add(`moment.${axis}`);
    });
  }
  return open;
}

/**
 * Normal force and traction of a rolling mate from its reaction (force on its b part): the
 * force on the wheel along the contact normal and the track's tangent. The block's contact
 * frame is the one of its last evaluation, at the current state.
 */
function rollingContact(block: RollingBlock, forceOnB: Vec3Tuple): { normal: number; traction: number; contact: Vec3Tuple } {
  const k = block.wheelSide === 1 ? 1 : -1;
  const f = forceOnB.map((x) => k * x);
  const along = (d: ArrayLike<number>) => f[0] * d[0] + f[1] * d[1] + f[2] * d[2];
  return { normal: along(block.normal), traction: along(block.tangent), contact: v3(block.contact) };
}

/**
 * The generalized force block b's rows exert on `variable`, −J_varᵀ λ, into g; returns the
 * variable's dimension, 0 when the block does not read it (or has no rows in the multipliers).
 */
function generalizedOn(system: System, b: number, rows: BlockRowsList, mult: RowMultipliers, variable: number, lambda: ArrayLike<number>, g: Float64Array): number {
  const blk = system.block(b);
  const idx = blk.vars.indexOf(variable);
  const r0 = rows.start[b], r1 = rows.start[b + 1];
  if (idx < 0 || r0 === r1) return 0;
  const dim = system.variables[variable].dim;
  const ld = system.blockLocalDim(b);
  if (reactionJac.length < blk.rows * ld) reactionJac = new Float64Array(blk.rows * ld);
  if (reactionRes.length < blk.rows) reactionRes = new Float64Array(blk.rows);
  const jac = reactionJac;
  system.evaluateBlock(b, reactionRes, jac);
  let lc = 0;
  for (let i = 0; i < idx; i++) lc += system.variables[blk.vars[i]].dim;
  for (let k = 0; k < dim; k++) g[k] = 0;
  for (let e = r0; e < r1; e++) {
    const row = rows.list[e];
    const r = mult.rowInBlock[row], lam = lambda[row];
    for (let k = 0; k < dim; k++) g[k] -= jac[r * ld + lc + k] * lam;
  }
  return dim;
}
let reactionJac = new Float64Array(64), reactionRes = new Float64Array(8);

/** Size of a variable's generalized force (a pose's larger of |moment|/L and |force|; a scalar's per its scale). */
function generalizedSize(v: System['variables'][number], x: ArrayLike<number>, c0: number, L: number): number {
  if (v.kind === 'pose') return Math.max(Math.hypot(x[c0], x[c0 + 1], x[c0 + 2]) / L, Math.hypot(x[c0 + 3], x[c0 + 4], x[c0 + 5]));
  return Math.abs(x[c0]) / v.scale;
}

/** Scale of the loads (force units; moments per length scale) and the per-variable unbalance in the same units. */
function unbalancedReport(dyn: DynamicsModel, mult: Multipliers, Q: Float64Array): { unbalanced: StaticsResult['unbalanced']; balanced: boolean } {
  const { system, model } = dyn;
  const L = system.lengthScale;
  let scale = 0;
  for (const v of system.variables) if (mult.layout[v.id] >= 0) scale = Math.max(scale, generalizedSize(v, Q, mult.layout[v.id], L));
  const tol = BALANCE_TOLERANCE * scale + 1e-12;
  const unbalanced: StaticsResult['unbalanced'] = {};
  let coordinateName: Map<number, string> | null = null; // only when a coordinate is unbalanced
  let balanced = true;
  for (const v of system.variables) {
    const c0 = mult.layout[v.id];
    if (c0 < 0 || !(generalizedSize(v, mult.unbalanced, c0, L) > tol)) continue;
    balanced = false;
    if (v.kind === 'pose') {
      const origin = system.getPose(v.id);
      const w = worldWrench(system.state, v.offset, mult.unbalanced.subarray(c0, c0 + 6), origin);
      unbalanced[`${v.name}.pose`] = w;
    } else {
      if (!coordinateName) {
        coordinateName = new Map();
        for (const [name, info] of model.coordinates) coordinateName.set(info.variable, name);
      }
      unbalanced[coordinateName.get(v.id) ?? v.name] = mult.unbalanced[c0];
    }
  }
  return { unbalanced, balanced };
}

const v3 = (a: ArrayLike<number>): Vec3Tuple => [a[0], a[1], a[2]];

/**
 * Zero velocities of `n` entries, kept between calls (elements read velocities, never write
 * them): a fresh typed array of a mechanism's size lives off the JS heap and costs more than
 * a small load case's element pass. And the one element's generalized force elementReports
 * throws away.
 */
function restVelocity(n: number): Float64Array {
  if (restScratch.length < n) restScratch = new Float64Array(n);
  return restScratch;
}
let restScratch = new Float64Array(0);
const reportQ = new Float64Array(12);

/**
 * Each file force element's length/tension, deflection and wrench, or applied load, at the
 * current state (at rest unless `velocity`, tangent, is given). `evaluated`: the caller's
 * `dyn.forces.evaluations` right after it assembled every block at this state, at rest and
 * at t (loadsHere); while the count is unchanged the blocks' last values are read as they
 * are, not evaluated again (the same numbers: the same call made them).
 */
export function elementReports(dyn: DynamicsModel, t = 0, velocity?: Float64Array, evaluated = -1): Record<string, ElementReport> {
  const out: Record<string, ElementReport> = {};
  const n = dyn.forces.size;
  const zero = velocity ?? restVelocity(n);
  const scratch = reportQ;
  const af = dyn.model.angleFactor;
  const fresh = !velocity && evaluated === dyn.forces.evaluations;
  for (const e of dyn.elements) {
    if (!fresh) dyn.forces.evaluateBlock(e.index, zero, t, scratch);
    const b = e.block;
    if (b instanceof PointToPointForce) out[e.id] = { length: b.last.length, rate: b.last.rate, tension: b.last.tension };
    else if (b instanceof BushingForce) {
      const doc = dyn.model.doc.forces![e.id] as { b: string };
      out[e.id] = { on: splitReference(doc.b)!.owner, at: v3(b.last.at), force: v3(b.last.force), moment: v3(b.last.moment), translation: v3(b.last.translation), rotation: v3(b.last.rotation.map((x) => x / af)) };
    } else if (b instanceof CoordinateSpringForce) {
      const info = [...dyn.model.coordinates.values()].find((c) => c.variable === b.vars[0])!;
      out[e.id] = { value: info.kind === 'angle' ? b.last.value / af : b.last.value, force: b.last.force };
    } else if (b instanceof PointForce) {
      out[e.id] = { on: dyn.system.variables[b.vars[0]].name, at: v3(b.last.at), force: v3(b.last.force) };
    } else if (b instanceof BodyTorque) {
      out[e.id] = { on: dyn.system.variables[b.vars[0]].name, moment: v3(b.last.moment) };
    } else if (b instanceof DragForce) {
      out[e.id] = { speed: b.last.speed, force: b.last.force };
    } else if (b instanceof CoordinateFrictionForce) {
      const info = [...dyn.model.coordinates.values()].find((c) => c.variable === b.vars[0])!;
      out[e.id] = { rate: info.kind === 'angle' ? b.last.rate / af : b.last.rate, force: b.last.force };
    } else if (b instanceof TyreForce) {
      out[e.id] = { penetration: b.last.penetration, force: b.last.force, contact: v3(b.last.contact) };
    }
  }
  return out;
}
