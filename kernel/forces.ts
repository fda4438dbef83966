/**
 * Force blocks: generalized forces on a few variables, with their derivatives. The
 * counterpart of residual blocks for everything that pushes rather than constrains
 * (springs, dampers, bushings, gravity, applied loads, tyres).
 *
 * Everything lives in tangent coordinates: each non-fixed variable owns `dim` consecutive
 * slots — a pose its body-frame twist (ω, v), so it steps x ∘ exp(δ); a scalar one slot in
 * its own unit. A generalized force is dual to that step: a world force F at body point p
 * gives Q_ω = p × (Rᵀ F), Q_v = Rᵀ F. The kernel is unit-agnostic; the dynamic layer above
 * uses one consistent set (tonne, mm, s, N).
 */
import type { Dual } from './dual';
import type { System } from './system';
import { InternalError } from './errors';

/**
 * Rotation matrices a caller made at the current state (the integrator's, one a moving pose):
 * views[k] is the matrix of the quaternion at state offset offsets[k]. `assemble` given them
 * lets the blocks that can (gravity) read them rather than make them again.
 */
export interface SharedTurns {
  readonly offsets: Int32Array;
  readonly views: readonly Float64Array[];
}

/** First tangent slot of each variable (−1 for fixed ones) and the total size. */
export function tangentLayout(system: System): { layout: Int32Array; size: number } {
  const layout = new Int32Array(system.variables.length).fill(-1);
  let size = 0;
  for (const v of system.variables) if (!v.fixed) { layout[v.id] = size; size += v.dim; }
  return { layout, size };
}

/** A force element: generalized forces on a few variables, with their derivatives. */
export interface ForceBlock {
  readonly owner: string;
  readonly vars: readonly number[];
  /**
   * localDim = Σ dim of vars. Writes (does not add) Q (localDim), and when given
   * K = ∂Q/∂δ (localDim × localDim, row-major; δ the retraction steps of vars at this
   * state) and C = ∂Q/∂v (same shape). `velocity` holds the vars' tangent velocities in
   * local order. Derivatives by forward AD, never finite differences. `slots` (optional,
   * ForceSet's): the global tangent slot of each local slot, −1 for a fixed variable's,
   * whose columns of K and C are dropped (a block may leave them unseeded, written 0).
   */
  evaluate(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number,
    Q: Float64Array, K: Float64Array | null, C: Float64Array | null, slots?: Int32Array): void;
  /**
   * Optional, for a block on one pose (gravity: mass.ts GravityBlock): its Q added straight into
   * the set's Q at the pose's six slots from `slot` (ForceSet, where they are free and in order):
   * `evaluate`'s values, each added once as the set's scatter adds them. `turn`: the pose's
   * rotation matrix made at this state already (SharedTurns), or null to make it.
   */
  addWeight?(state: Float64Array, offset: number, turn: Float64Array | null, Q: Float64Array, slot: number): void;
  /**
   * Optional, for a block on poses alone: its Q added straight into the set's Q, its velocities
   * read from the set's whole `velocity`, at `slots` (ForceSet calls it where every slot is free
   * and each pose's six are in order: pose k's from slots[6k]): `evaluate`'s values, each added
   * once as the set's scatter adds them, with no gather and no local Q. turnA, turnB: its first
   * and second pose's rotation matrices made at this state already (SharedTurns), or null to make
   * them. False where the block cannot now (tangent mode: its duals are read): nothing added,
   * ForceSet evaluates it.
   */
  addForces?(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number, slots: Int32Array, Q: Float64Array,
    turnA: Float64Array | null, turnB: Float64Array | null): boolean;
  /** Stored potential energy (elastic, gravitational); absent for non-conservative elements. */
  potential?(state: Float64Array, offsets: Int32Array, t: number): number;
  /** Power the element dissipates (≥ 0: its damping part), for the energy budget. */
  dissipation?(state: Float64Array, offsets: Int32Array, velocity: Float64Array, t: number): number;
  /** Optional: the generalized forces of the last `evaluate` as duals (their tangents in tangent mode), as ResidualBlock.duals. */
  duals?(): readonly Dual[];
  /**
   * True when Q does not depend on the velocities (C ≡ 0: gravity): `evaluate` is then given
   * no C to write, and ForceSet has none to scatter (C stays the zeros it was cleared to).
   */
  readonly velocityFree?: boolean;
}

/**
 * out (n × n, zeroed first) += a block's local matrix (m × m, m = slots.length) at its global
 * slots (−1: dropped). Zeros are not added: an entry of a sum that starts at +0 is never −0
 * (x + (−x) rounds to +0), so adding ±0 changes no bit (gravity's C is all zeros).
 */
function scatterBlock(out: Float64Array, n: number, local: Float64Array, slots: Int32Array): void {
  const m = slots.length;
  for (let i = 0; i < m; i++) {
    const gi = slots[i];
    if (gi < 0) continue;
    const row = gi * n, li = i * m;
    for (let j = 0; j < m; j++) {
      const x = local[li + j], gj = slots[j];
      if (x !== 0 && gj >= 0) out[row + gj] += x;
    }
  }
}

interface Entry {
  block: ForceBlock;
  /** The block's C is zero (ForceBlock.velocityFree): neither written nor scattered. */
  noC: boolean;
  offsets: Int32Array;
  /** Global tangent slot of each local slot (−1: a fixed variable's, dropped). */
  slots: Int32Array;
  /** A block with addWeight on a moving pose, its six slots in order (gravity): Q added straight into the set's. */
  weight: ForceBlock | null;
  /** A block with addForces whose slots are all free, each pose's in order (springs, the bushing, tyres): likewise. */
  adds: ForceBlock | null;
  /** Its (first) pose's place among the last SharedTurns' (`turnsOf`), −1: none; turnB its second's (`adds`). */
  turn: number;
  turnB: number;
}

/** The force blocks of one system: gathers velocities, scatters local results. */
export class ForceSet {
  private readonly list: ForceBlock[] = [];
  private entries: Entry[] = [];
  private version = -1;
  private layoutSize = 0;
  private localQ = new Float64Array(6);
  private localK = new Float64Array(36);
  private localC = new Float64Array(36);
  private localV = new Float64Array(6);
  /** derivativePattern's list, made once per structure. */
  private pattern: Int32Array | null = null;
  /** The SharedTurns the entries' `turn` places were found in. */
  private turnsOf: SharedTurns | null = null;
  /**
   * Counts the calls that evaluate blocks through this set (assemble, evaluateBlock): a
   * report that reads the blocks' last values checks nothing evaluated them since its pass.
   */
  private passes = 0;

  constructor(readonly system: System) {}

  get blocks(): readonly ForceBlock[] {
    return this.list;
  }
  /** See `passes`: changes whenever this set evaluates a block. */
  get evaluations(): number {
    return this.passes;
  }
  /** Tangent size of the system as last assembled. */
  get size(): number {
    this.refresh();
    return this.layoutSize;
  }

  add(block: ForceBlock): void {
    for (const v of block.vars) if (!this.system.variables[v]) throw new InternalError(`${block.owner}: force reads unknown variable ${v}`);
    this.list.push(block);
    this.version = -1;
  }

  /** Rebuild the scatter maps when the system's structure changed. */
  private refresh(): void {
    if (this.version === this.system.version) return;
    const { layout, size } = tangentLayout(this.system);
    let maxLocal = 1;
    this.entries = this.list.map((block) => {
      const offsets = new Int32Array(block.vars.map((v) => this.system.variables[v].offset));
      const slots: number[] = [];
      for (const v of block.vars) {
        const variable = this.system.variables[v];
        for (let k = 0; k < variable.dim; k++) slots.push(layout[v] < 0 ? -1 : layout[v] + k);
      }
      maxLocal = Math.max(maxLocal, slots.length);
      const straight = slots.length === 6 && slots.every((s, k) => s >= 0 && s === slots[0] + k);
      const posesInOrder = slots.length === 6 * block.vars.length && slots.every((s, k) => s >= 0 && s === slots[k - (k % 6)] + (k % 6));
      return {
        block, offsets, slots: new Int32Array(slots), noC: block.velocityFree === true, weight: straight && block.addWeight ? block : null,
        adds: posesInOrder && block.addForces ? block : null, turn: -1, turnB: -1,
      };
    });
    this.turnsOf = null;
    if (this.localQ.length < maxLocal) {
      this.localQ = new Float64Array(maxLocal);
      this.localV = new Float64Array(maxLocal);
      this.localK = new Float64Array(maxLocal * maxLocal);
      this.localC = new Float64Array(maxLocal * maxLocal);
    }
    this.layoutSize = size;
    this.version = this.system.version;
    this.pattern = null;
  }

  /**
   * Row-major indices (size × size) where a block's K or C can be nonzero: every pair of
   * its free slots, ascending, each once. Nothing else is ever written by `assemble`.
   */
  derivativePattern(): Int32Array {
    this.refresh();
    if (this.pattern) return this.pattern;
    const n = this.layoutSize, set = new Set<number>();
    for (const e of this.entries) {
      for (const gi of e.slots) if (gi >= 0) for (const gj of e.slots) if (gj >= 0) set.add(gi * n + gj);
    }
    this.pattern = Int32Array.from([...set].sort((a, b) => a - b));
    return this.pattern;
  }

  private gather(e: Entry, velocity: Float64Array): Float64Array {
    const v = this.localV, slots = e.slots;
    for (let i = 0; i < slots.length; i++) { const s = slots[i]; v[i] = s < 0 ? 0 : velocity[s]; }
    return v;
  }

  /**
   * Q (size), and optionally K = ∂Q/∂δ and C = ∂Q/∂v (size × size, row-major), at the
   * system's state with tangent velocity `velocity` at time t. Overwrites the outputs;
   * entries of fixed variables are dropped. `zeroed`: K and C hold zeros outside
   * derivativePattern (an earlier assemble into them left them so), and only the pattern is
   * cleared (a large system's n² clear costs more than its blocks).
   */
  assemble(velocity: Float64Array, t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null, zeroed = false, turns: SharedTurns | null = null): void {
    this.refresh();
    if (turns !== null && turns !== this.turnsOf) this.findTurns(turns);
    this.passes++;
    const n = this.layoutSize;
    Q.fill(0, 0, n);
    if (zeroed) {
      if (K || C) {
        const p = this.derivativePattern();
        if (K) for (let e = 0; e < p.length; e++) K[p[e]] = 0;
        if (C) for (let e = 0; e < p.length; e++) C[p[e]] = 0;
      }
    } else {
      if (K) K.fill(0, 0, n * n);
      if (C) C.fill(0, 0, n * n);
    }
    const state = this.system.state, entries = this.entries, lq = this.localQ;
    const lk = K ? this.localK : null, lc = C ? this.localC : null;
    for (let b = 0; b < entries.length; b++) {
      const e = entries[b], slots = e.slots, m = slots.length;
      // gravity (16 of a car's 25 blocks): its six values added in place, its pose's rotation shared where made
      if (!lk && e.weight !== null) { e.weight.addWeight!(state, e.offsets[0], turns !== null && e.turn >= 0 ? turns.views[e.turn] : null, Q, slots[0]); continue; }
      // the springs, the bushing, the tyres: Q added in place, velocities read in place
      if (!lk && e.adds !== null) {
        const shared = turns !== null;
        if (e.adds.addForces!(state, e.offsets, velocity, t, slots, Q, shared && e.turn >= 0 ? turns.views[e.turn] : null, shared && e.turnB >= 0 ? turns.views[e.turnB] : null)) continue;
      }
      const lcb = e.noC ? null : lc;
      // a velocity-free block (gravity: 16 of a car's 25) reads no velocity: none gathered for it
      e.block.evaluate(state, e.offsets, e.noC ? this.localV : this.gather(e, velocity), t, lq, lk, lcb, slots);
      // Q alone (a Newton iteration that keeps its matrix): no derivative scatter to test for
      if (!lk && !lcb) {
        for (let i = 0; i < m; i++) { const gi = slots[i]; if (gi >= 0) Q[gi] += lq[i]; }
        continue;
      }
      for (let i = 0; i < m; i++) { const gi = slots[i]; if (gi >= 0) Q[gi] += lq[i]; }
      if (K && lk) scatterBlock(K, n, lk, slots);
      if (C && lcb) scatterBlock(C, n, lcb, slots);
    }
  }

  /** Each gravity or in-place entry's poses among `turns` (a quaternion's offset, the pose's + 3). */
  private findTurns(turns: SharedTurns): void {
    for (const e of this.entries) {
      const shares = e.weight !== null || e.adds !== null;
      e.turn = shares ? turns.offsets.indexOf(e.offsets[0] + 3) : -1;
      e.turnB = e.adds !== null && e.offsets.length > 1 ? turns.offsets.indexOf(e.offsets[1] + 3) : -1;
    }
    this.turnsOf = turns;
  }

  /** Stored potential energy of every conservative block. */
  potential(t: number): number {
    this.refresh();
    let sum = 0;
    for (const e of this.entries) if (e.block.potential) sum += e.block.potential(this.system.state, e.offsets, t);
    return sum;
  }

  /** Power dissipated by every damping block (≥ 0). */
  dissipation(velocity: Float64Array, t: number): number {
    this.refresh();
    let sum = 0;
    for (const e of this.entries) if (e.block.dissipation) sum += e.block.dissipation(this.system.state, e.offsets, this.gather(e, velocity), t);
    return sum;
  }

  /** Block i's own generalized force, in its local layout (Σ dim of its vars). */
  evaluateBlock(i: number, velocity: Float64Array, t: number, Q: Float64Array): void {
    this.refresh();
    this.passes++;
    const e = this.entries[i];
    e.block.evaluate(this.system.state, e.offsets, this.gather(e, velocity), t, Q, null, null);
  }

  /** Global tangent slots of block i's local slots (−1 for a fixed variable's). */
  slotsOf(i: number): Int32Array {
    this.refresh();
    return this.entries[i].slots;
  }
  offsetsOf(i: number): Int32Array {
    this.refresh();
    return this.entries[i].offsets;
  }
}
