/**
 * The System: variables held in one state buffer, and residual blocks that read a few of
 * them and write rows that are lengths. It knows nothing of mates or suspensions.
 *
 * Variables have a retraction: a pose (dimension 6) steps by x ∘ exp(δ), a scalar
 * (dimension 1) by addition. The solver works in scaled step coordinates u, where every
 * component is a length: a pose's turn ω counts as ω·L (L the model length scale), a
 * scalar's step as δ·scale.
 */
import type { Dual } from './dual';
import { POSE_SIZE, poseDistance, retract, type ReadonlyPose } from './pose';
import { ArgumentError, InternalError } from './errors';

export type VariableKind = 'pose' | 'scalar';

export interface Variable {
  readonly id: number;
  readonly name: string;
  readonly kind: VariableKind;
  /** Start of its values in `System.state` (7 for a pose, 1 for a scalar). */
  readonly offset: number;
  /** Tangent dimension: 6 or 1. */
  readonly dim: 6 | 1;
  /** A fixed variable never moves in a solve. */
  fixed: boolean;
  /** Scalars: the length one unit of this variable stands for (angles: the length scale). */
  scale: number;
  /** Scalars: inclusive bounds, enforced by the solver's active set. */
  limits: [number, number] | null;
}

export type BlockKind = 'constraint' | 'driver' | 'limit';

/**
 * A residual block: a small function of a few variables. `evaluate` writes `rows`
 * residuals (lengths) and, when `jacobian` is given, their derivatives with respect to the
 * steps of its variables, row-major rows × Σdim (pose 6 in (ω, v) order, scalar 1), in the
 * order of `vars`, whether or not a variable is fixed.
 */
export interface ResidualBlock {
  /** Who the rows belong to (a mate id); reports name owners. */
  readonly owner: string;
  readonly vars: readonly number[];
  readonly rows: number;
  readonly kind: BlockKind;
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void;
  /**
   * Optional: the same rows as a block whose Jacobian has only the columns of the vars
   * where free[i] (rows × Σ dim of those, in vars order), for a caller that drops the
   * others anyway (fixed parts); cheaper to evaluate.
   */
  withFreeColumns?(free: readonly boolean[]): ResidualBlock;
  /**
   * Optional, for a block whose first two vars are poses: `evaluate` with their rotation
   * matrices (3 × 3 row-major, of the state's quaternions) given, the same numbers. The
   * integrator's rows (kernel/integrator/rows.ts) make each body's once per evaluation
   * instead of once per block that touches it.
   */
  evaluateTurned?(state: Float64Array, offsets: Int32Array, RA: Float64Array, RB: Float64Array, residual: Float64Array, jacobian: Float64Array | null): void;
  /**
   * Optional, beside evaluateTurned: one evaluator for the blocks of this kind the integrator's
   * rows evaluate with shared rotations (TurnedGroup, below), called on one of them with all;
   * null where it cannot take them (each is then evaluated by evaluateTurned).
   */
  groupTurned?(members: readonly TurnedMember[]): TurnedGroup | null;
  /**
   * Optional: the rows of the last `evaluate` as duals (their tangents when it ran in tangent
   * mode, kernel/dual.ts withTangents): how a gradient reads a block's second derivatives.
   * Blocks written with duals (mates/block.ts) have it; the others cannot be differentiated twice.
   */
  duals?(): readonly Dual[];
}

/**
 * One block of a group evaluated together (ResidualBlock.groupTurned), as the rows lay it out:
 * the integrator's rows (kernel/integrator/rows.ts) make each pose's rotation once per
 * evaluation, and a kind that offers a group then runs one loop over its blocks' data side by
 * side rather than a call (and its field reads) a block — the same numbers as each block's
 * evaluateTurned.
 */
export interface TurnedMember {
  /** The block the rows evaluate (its free-columns twin where it has one). */
  readonly block: ResidualBlock;
  /** Its vars' state offsets. */
  readonly offsets: Int32Array;
  /** Its two poses' rotation matrices: rotations[9·turnA ..] and rotations[9·turnB ..] of the group's `evaluate`. */
  readonly turnA: number;
  readonly turnB: number;
  /** The same matrices as views (evaluateTurned's RA, RB). */
  readonly RA: Float64Array;
  readonly RB: Float64Array;
  /** Its first row in Φ, and its rows' view of Φ. */
  readonly row: number;
  readonly phi: Float64Array;
  /** Where its Jacobian (rows × its columns) starts in the slab, and its view of it. */
  readonly slabAt: number;
  readonly jacobian: Float64Array;
}

/** A kind's blocks evaluated by one call. */
export interface TurnedGroup {
  /**
   * Every member's rows into phi (all rows) and, where `slab` is given, its Jacobian into the
   * slab; `rotations` holds 9 numbers (row-major) a pose, the members' at their turnA, turnB.
   */
  evaluate(state: Float64Array, rotations: Float64Array, phi: Float64Array, slab: Float64Array | null): void;
}

interface BlockEntry {
  block: ResidualBlock;
  enabled: boolean;
  offsets: Int32Array;
  localDim: number;
}

/** Hold a scalar at a target: one row (x − target)·scale. */
export class ScalarTargetBlock implements ResidualBlock {
  readonly rows = 1;
  readonly vars: readonly number[];
  constructor(readonly owner: string, variable: number, public target: number, public scale: number, readonly kind: BlockKind = 'driver') {
    this.vars = [variable];
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    residual[0] = (state[offsets[0]] - this.target) * this.scale;
    if (jacobian) jacobian[0] = this.scale;
  }
}

export class System {
  /** All variable values: poses as 7 numbers, scalars as 1. */
  state = new Float64Array(64);
  private used = 0;
  readonly variables: Variable[] = [];
  private readonly entries: BlockEntry[] = [];
  private readonly byName = new Map<string, number>();
  private readonly holds = new Map<number, ScalarTargetBlock>();
  /**
   * The holds' blocks in the map's order, for heldPastLimits (every solve asks): an indexed
   * loop, not the map's iterator, whose inlined protocol made solve's compile several ms
   * larger, a compile in the drives fourbar_drive_step_us times (docs/solver-warm-up.md).
   */
  private readonly heldBlocks: ScalarTargetBlock[] = [];
  /** Bumped on every structural change so solver workspaces know to rebuild. */
  version = 0;

  /** @param lengthScale the model's characteristic length (turns count as this × angle). */
  constructor(public lengthScale = 1) {
    if (!(lengthScale > 0) || !Number.isFinite(lengthScale)) throw new ArgumentError('lengthScale', `expected a positive finite number, got ${lengthScale}`);
  }

  private alloc(size: number): number {
    if (this.used + size > this.state.length) {
      const next = new Float64Array(Math.max(this.state.length * 2, this.used + size));
      next.set(this.state);
      this.state = next;
    }
    const off = this.used;
    this.used += size;
    return off;
  }

  private addVariable(name: string, kind: VariableKind, size: number, dim: 6 | 1, fixed: boolean, scale: number, limits: [number, number] | null): number {
    if (this.byName.has(name)) throw new ArgumentError(`variable "${name}"`, 'already exists', `variable "${name}" already exists`);
    const id = this.variables.length;
    const offset = this.alloc(size);
    this.variables.push({ id, name, kind, offset, dim, fixed, scale, limits });
    this.byName.set(name, id);
    this.version++;
    return id;
  }

  /** Add a pose variable (copied from `initial`). */
  addPose(name: string, initial: ReadonlyPose, options: { fixed?: boolean } = {}): number {
    const id = this.addVariable(name, 'pose', POSE_SIZE, 6, options.fixed ?? false, this.lengthScale, null);
    const off = this.variables[id].offset;
    for (let i = 0; i < 7; i++) this.state[off + i] = initial[i];
    return id;
  }

  /**
   * Add a scalar variable. `scale` is the length one unit stands for: 1 for a slide in model
   * units, the length scale for an angle in radians (the default).
   */
  addScalar(name: string, value: number, options: { fixed?: boolean; scale?: number; limits?: [number, number] | null } = {}): number {
    const id = this.addVariable(name, 'scalar', 1, 1, options.fixed ?? false, options.scale ?? this.lengthScale, options.limits ?? null);
    this.state[this.variables[id].offset] = value;
    return id;
  }

  variable(nameOrId: string | number): Variable {
    const id = typeof nameOrId === 'number' ? nameOrId : this.byName.get(nameOrId);
    if (id === undefined || !this.variables[id]) throw new ArgumentError(String(nameOrId), 'no such variable', `no variable "${nameOrId}"`);
    return this.variables[id];
  }
  hasVariable(name: string): boolean {
    return this.byName.has(name);
  }

  addBlock(block: ResidualBlock): number {
    for (const v of block.vars) if (!this.variables[v]) throw new InternalError(`${block.owner}: block reads unknown variable ${v}`);
    const offsets = new Int32Array(block.vars.map((v) => this.variables[v].offset));
    const localDim = block.vars.reduce((s, v) => s + this.variables[v].dim, 0);
    this.entries.push({ block, enabled: true, offsets, localDim });
    this.version++;
    return this.entries.length - 1;
  }
  /** Enable or disable every block of an owner (used by the conflict search and by edits). */
  setOwnerEnabled(owner: string, enabled: boolean): void {
    for (const e of this.entries) if (e.block.owner === owner && e.enabled !== enabled) { e.enabled = enabled; this.version++; }
  }
  removeOwner(owner: string): void {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i].block.owner === owner) this.entries.splice(i, 1);
    this.version++;
  }
  /** Remove these exact blocks (by identity; other blocks of the same owner stay). */
  removeBlocks(blocks: readonly ResidualBlock[]): void {
    const set = new Set(blocks);
    for (let i = this.entries.length - 1; i >= 0; i--) if (set.has(this.entries[i].block)) this.entries.splice(i, 1);
    this.version++;
  }
  get blockCount(): number {
    return this.entries.length;
  }
  block(i: number): ResidualBlock {
    return this.entries[i].block;
  }
  blockEnabled(i: number): boolean {
    return this.entries[i].enabled;
  }
  blockOffsets(i: number): Int32Array {
    return this.entries[i].offsets;
  }
  blockLocalDim(i: number): number {
    return this.entries[i].localDim;
  }
  /** Owners of the enabled blocks, in the order they were added, without repeats. */
  owners(kinds: readonly BlockKind[] = ['constraint', 'driver']): string[] {
    const seen = new Set<string>();
    for (const e of this.entries) if (e.enabled && kinds.includes(e.block.kind)) seen.add(e.block.owner);
    return [...seen];
  }

  /** Keep a scalar at `value` (a driver row) until released. */
  hold(variable: number | string, value?: number): void {
    const v = this.variable(variable);
    if (v.kind !== 'scalar') throw new ArgumentError(v.name, 'only scalar coordinates can be held');
    const target = value ?? this.state[v.offset];
    this.state[v.offset] = target;
    const existing = this.holds.get(v.id);
    if (existing) { existing.target = target; return; }
    const block = new ScalarTargetBlock(`hold:${v.name}`, v.id, target, v.scale, 'driver');
    this.holds.set(v.id, block);
    this.heldBlocks.push(block);
    this.addBlock(block);
  }
  release(variable: number | string): void {
    const v = this.variable(variable);
    const block = this.holds.get(v.id);
    if (!block) return;
    this.holds.delete(v.id);
    this.heldBlocks.splice(this.heldBlocks.indexOf(block), 1);
    this.removeOwner(`hold:${v.name}`);
  }
  isHeld(variable: number | string): boolean {
    return this.holds.has(this.variable(variable).id);
  }
  heldVariables(): number[] {
    return [...this.holds.keys()];
  }
  /**
   * Names of held coordinates whose hold lies outside their own limits by more than
   * `tolerance` (a length; divided by each variable's scale; the solver uses 0, so a
   * continuation closes in on the bound itself): a hold and a limit that cannot both be
   * kept. Allocates only when there is one.
   */
  heldPastLimits(tolerance: number): string[] | null {
    let out: string[] | null = null;
    const blocks = this.heldBlocks;
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i];
      const v = this.variables[block.vars[0]];
      if (!v.limits) continue;
      const slack = tolerance / v.scale;
      if (block.target < v.limits[0] - slack || block.target > v.limits[1] + slack) (out ??= []).push(v.name);
    }
    return out;
  }

  getScalar(variable: number | string): number {
    return this.state[this.variable(variable).offset];
  }
  setScalar(variable: number | string, value: number): void {
    const v = this.variable(variable);
    this.state[v.offset] = value;
    const h = this.holds.get(v.id);
    if (h) h.target = value;
  }
  /** A copy of a pose variable's 7 numbers (or written into out). */
  getPose(variable: number | string, out = new Float64Array(7)): Float64Array {
    const off = this.variable(variable).offset;
    for (let i = 0; i < 7; i++) out[i] = this.state[off + i];
    return out;
  }
  setPose(variable: number | string, p: ReadonlyPose): void {
    const off = this.variable(variable).offset;
    for (let i = 0; i < 7; i++) this.state[off + i] = p[i];
  }
  /** How many numbers of `state` are in use (the length of a snapshot). */
  get snapshotLength(): number {
    return this.used;
  }
  /** Snapshot and restore of every value (for trials that must leave no trace). */
  snapshot(): Float64Array {
    return this.state.slice(0, this.used);
  }
  restore(snapshot: Float64Array): void {
    this.state.set(snapshot);
  }

  /** Step one variable by its retraction: δ (dim numbers) read from step[stepOff..]. */
  retractVariable(v: Variable, step: ArrayLike<number>, stepOff: number): void {
    if (v.kind === 'pose') retract(this.state, this.state, step, v.offset, v.offset, stepOff);
    else this.state[v.offset] += step[stepOff];
  }

  /** Evaluate one block's residual (and Jacobian) at the current state. */
  evaluateBlock(i: number, residual: Float64Array, jacobian: Float64Array | null): void {
    const e = this.entries[i];
    e.block.evaluate(this.state, e.offsets, residual, jacobian);
  }

  /** The largest |row| over enabled constraint and driver blocks, and the owners over `tolerance`. */
  residualReport(tolerance: number, kinds: readonly BlockKind[] = ['constraint', 'driver']): { maxResidual: number; failed: string[] } {
    let maxResidual = 0;
    const failed = new Set<string>();
    let buf = new Float64Array(16);
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i];
      if (!e.enabled || !kinds.includes(e.block.kind)) continue;
      if (buf.length < e.block.rows) buf = new Float64Array(e.block.rows);
      e.block.evaluate(this.state, e.offsets, buf, null);
      for (let r = 0; r < e.block.rows; r++) {
        const a = Math.abs(buf[r]);
        if (!(a <= tolerance)) failed.add(e.block.owner);
        if (a > maxResidual || Number.isNaN(a)) maxResidual = Number.isNaN(a) ? NaN : Math.max(maxResidual, a);
      }
    }
    return { maxResidual, failed: [...failed] };
  }
}

/**
 * The largest distance any movable part lies between two states of the system (position
 * gap plus turn × length scale): how far a step moved the linkage.
 */
export function largestMotion(system: System, from: Float64Array, to: Float64Array = system.state): number {
  let m = 0;
  for (const v of system.variables) {
    if (v.fixed || v.kind !== 'pose') continue;
    m = Math.max(m, poseDistance(from, to, system.lengthScale, v.offset, v.offset));
  }
  return m;
}
