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
  dyn.forces.assemble(new Float64Array(n), t, Q, null, null);
  return Q;
}

/** The statics report at the current (solved) state. */
export function reactionsHere(dyn: DynamicsModel, t = 0): StaticsResult {
  const { system, model } = dyn;
  const Q = loadsHere(dyn, t);
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
    forces: elementReports(dyn, t),
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
  const f = [0, 1, 2].map((i) => R[3 * i] * G[3] + R[3 * i + 1] * G[4] + R[3 * i + 2] * G[5]) as Vec3Tuple;
  const mo = [0, 1, 2].map((i) => R[3 * i] * G[0] + R[3 * i + 1] * G[1] + R[3 * i + 2] * G[2]);
  // moment about `at` = moment about the body origin + (origin − at) × f
  const r = [state[offset] - at[0], state[offset + 1] - at[1], state[offset + 2] - at[2]];
  const moment: Vec3Tuple = [mo[0] + r[1] * f[2] - r[2] * f[1], mo[1] + r[2] * f[0] - r[0] * f[2], mo[2] + r[0] * f[1] - r[1] * f[0]];
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
  const { system, model } = dyn;
  const doc: AssemblyDoc = model.doc;
  // rows of each block
  const rowsOf = new Map<number, number[]>();
  for (let i = 0; i < mult.lambda.length; i++) {
    const b = mult.rowBlock[i];
    if (!rowsOf.has(b)) rowsOf.set(b, []);
    rowsOf.get(b)!.push(i);
  }
  const out: Record<string, Wrench | CoordinateReaction> = {};
  for (const [id, mate] of Object.entries(doc.mates)) {
    const handle = model.mates.get(id);
    if (!handle) continue;
    if (isCoupling(mate)) {
      const info = model.coordinates.get(mate.b)!;
      let value = 0;
      for (const b of handle.blocks) value += generalizedOn(dyn, b, rowsOf.get(b), mult, info.variable)[0] ?? 0;
      out[id] = { on: mate.b, value };
      continue;
    }
    const ref = splitReference(mate.b)!;
    const variable = model.parts.get(ref.owner)!;
    const G = new Float64Array(6);
    for (const b of handle.blocks) {
      const g = generalizedOn(dyn, b, rowsOf.get(b), mult, variable);
      for (let i = 0; i < g.length; i++) G[i] += g[i];
    }
    const pose = system.getPose(variable);
    const at = P.applyPoint(new Float64Array(3), pose, entityPoint(doc.parts[ref.owner], ref.name));
    const w = worldWrench(system.state, system.variables[variable].offset, G, at);
    const wrench: Wrench = { on: ref.owner, at: [at[0], at[1], at[2]], force: w.force, moment: w.moment };
    // which components the redundant rows leave open: the wrench a null vector of Φ_qᵀ adds
    const open = new Set<string>();
    for (const nu of mult.nullLambda) {
      const dG = new Float64Array(6);
      for (const b of handle.blocks) {
        const g = generalizedOn(dyn, b, rowsOf.get(b), mult, variable, nu);
        for (let i = 0; i < g.length; i++) dG[i] += g[i];
      }
      const dw = worldWrench(system.state, system.variables[variable].offset, dG, at);
      const size = Math.max(...dw.force.map(Math.abs), ...dw.moment.map((x) => Math.abs(x) / system.lengthScale));
      if (!(size > 0)) continue;
      ['x', 'y', 'z'].forEach((axis, i) => {
        if (Math.abs(dw.force[i]) > 1e-8 * size) open.add(`force.${axis}`);
        if (Math.abs(dw.moment[i]) / system.lengthScale > 1e-8 * size) open.add(`moment.${axis}`);
      });
    }
    if (open.size) wrench.indeterminate = ['force.x', 'force.y', 'force.z', 'moment.x', 'moment.y', 'moment.z'].filter((c) => open.has(c));
    const aRef = splitReference(mate.a)!;
    if (mate.type === 'distance' && doc.parts[aRef.owner].points?.[aRef.name] && doc.parts[ref.owner].points?.[ref.name]) {
      // a two-force link: tension pulls b toward a
      const xa = P.applyPoint(new Float64Array(3), system.getPose(model.parts.get(aRef.owner)!), doc.parts[aRef.owner].points![aRef.name]);
      const d = [xa[0] - at[0], xa[1] - at[1], xa[2] - at[2]], l = Math.hypot(d[0], d[1], d[2]);
      if (l > 0) wrench.tension = (w.force[0] * d[0] + w.force[1] * d[1] + w.force[2] * d[2]) / l;
    }
    const contactBlock = handle.blocks.map((b) => system.block(b)).find((b): b is RollingBlock => b instanceof RollingBlock);
    if (contactBlock) Object.assign(wrench, rollingContact(contactBlock, w.force));
    out[id] = wrench;
  }
  return out;
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

/** The generalized force block b's rows exert on `variable`: −J_varᵀ λ (empty when the block does not read it). */
function generalizedOn(dyn: DynamicsModel, b: number, rows: number[] | undefined, mult: RowMultipliers, variable: number, lambda: ArrayLike<number> = mult.lambda): number[] {
  const { system } = dyn;
  const blk = system.block(b);
  const idx = blk.vars.indexOf(variable);
  const dim = system.variables[variable].dim;
  if (idx < 0 || !rows) return new Array(dim).fill(0);
  const ld = system.blockLocalDim(b);
  const jac = new Float64Array(blk.rows * ld), res = new Float64Array(blk.rows);
  system.evaluateBlock(b, res, jac);
  let lc = 0;
  for (let i = 0; i < idx; i++) lc += system.variables[blk.vars[i]].dim;
  const g = new Array(dim).fill(0);
  for (const row of rows) {
    const r = mult.rowInBlock[row], lam = lambda[row];
    for (let k = 0; k < dim; k++) g[k] -= jac[r * ld + lc + k] * lam;
  }
  return g;
}

/** Scale of the loads (force units; moments per length scale) and the per-variable unbalance in the same units. */
function unbalancedReport(dyn: DynamicsModel, mult: Multipliers, Q: Float64Array): { unbalanced: StaticsResult['unbalanced']; balanced: boolean } {
  const { system, model } = dyn;
  const L = system.lengthScale;
  let scale = 0;
  const size = (v: (typeof system.variables)[number], x: ArrayLike<number>, c0: number): number => {
    if (v.kind === 'pose') return Math.max(Math.hypot(x[c0], x[c0 + 1], x[c0 + 2]) / L, Math.hypot(x[c0 + 3], x[c0 + 4], x[c0 + 5]));
    return Math.abs(x[c0]) / v.scale;
  };
  for (const v of system.variables) if (mult.layout[v.id] >= 0) scale = Math.max(scale, size(v, Q, mult.layout[v.id]));
  const tol = BALANCE_TOLERANCE * scale + 1e-12;
  const unbalanced: StaticsResult['unbalanced'] = {};
  const coordinateName = new Map<number, string>();
  for (const [name, info] of model.coordinates) coordinateName.set(info.variable, name);
  let balanced = true;
  for (const v of system.variables) {
    const c0 = mult.layout[v.id];
    if (c0 < 0 || !(size(v, mult.unbalanced, c0) > tol)) continue;
    balanced = false;
    if (v.kind === 'pose') {
      const origin = system.getPose(v.id);
      const w = worldWrench(system.state, v.offset, mult.unbalanced.subarray(c0, c0 + 6), origin);
      unbalanced[`${v.name}.pose`] = w;
    } else {
      unbalanced[coordinateName.get(v.id) ?? v.name] = mult.unbalanced[c0];
    }
  }
  return { unbalanced, balanced };
}

const v3 = (a: ArrayLike<number>): Vec3Tuple => [a[0], a[1], a[2]];

/** Each file force element's length/tension, deflection and wrench, or applied load, at the current state (at rest unless `velocity`, tangent, is given). */
export function elementReports(dyn: DynamicsModel, t = 0, velocity?: Float64Array): Record<string, ElementReport> {
  const out: Record<string, ElementReport> = {};
  const n = dyn.forces.size;
  const zero = velocity ?? new Float64Array(n);
  const scratch = new Float64Array(12);
  const af = dyn.model.angleFactor;
  for (const e of dyn.elements) {
    dyn.forces.evaluateBlock(e.index, zero, t, scratch);
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
