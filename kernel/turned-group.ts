/**
 * Blocks of one kind evaluated together (ResidualBlock.groupTurned): the integrator's rows
 * (kernel/integrator/rows.ts) make each pose's rotation once per evaluation, and a kind that
 * offers a group then runs one loop over its blocks' data side by side rather than a call (and
 * its field reads) a block. The same numbers as each block's evaluateTurned.
 */
import type { ResidualBlock } from './system';

/** One block of a group, as the rows lay it out. */
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
