/**
 * The rows (and Jacobian) of a group's last evaluation, with the state values they were
 * evaluated at: a request at exactly those values is answered from them. A drag frame starts
 * where the last one ended, so its first evaluation (the largest part of a frame of a long
 * chain after the factorisations) needs none. Only for groups of pure constraint blocks,
 * whose rows are functions of the state alone (a driver's target changes in place).
 *
 * The cache keeps no copy: it remembers which buffers the last evaluation wrote (the path's
 * current or trial slot) until something writes over them in place (`touched`: the row
 * normalisation, an evaluation of another row set). A copy of every evaluation, 7,722
 * numbers of J for the 100-link chain four times a frame, cost more than the one it saved.
 */
import type { ResidualBlock, System } from '../system';

export class RowCache {
  private readonly values: Float64Array;
  /** The buffers holding the last evaluation's raw rows and J (null: rows only). */
  private c: Float64Array | null = null;
  private vals: Float64Array | null = null;
  private valid = false;
  private rows = 0;
  private L = NaN;

  /** `slots`: every state slot the group's blocks read (free and fixed variables). */
  constructor(private readonly slots: Int32Array) {
    this.values = new Float64Array(slots.length);
  }

  invalidate(): void {
    this.valid = false;
    this.c = this.vals = null;
  }

  /** A buffer is about to be written in place: the rows it holds are no longer the evaluation's. */
  touched(buffer: Float64Array): void {
    if (buffer === this.c || buffer === this.vals) this.invalidate();
  }

  /** Whether the last evaluation was at exactly this state (and length scale), with J when asked. */
  holds(state: Float64Array, L: number, withJ: boolean): boolean {
    if (!this.valid || (withJ && this.vals === null) || L !== this.L) return false;
    const slots = this.slots, values = this.values;
    for (let i = 0; i < slots.length; i++) if (state[slots[i]] !== values[i]) return false;
    return true;
  }

  /** The kept rows (and J when `vals`) into these buffers (nothing to copy where they are the ones kept); returns the row count. */
  restore(c: Float64Array, vals: Float64Array | null): number {
    if (c !== this.c) { c.set(this.c!.subarray(0, this.rows)); this.c = c; }
    if (vals && vals !== this.vals) { vals.set(this.vals!.subarray(0, vals.length)); this.vals = vals; }
    return this.rows;
  }

  /** The evaluation just written into c (and J into `vals`) at the current state. */
  store(state: Float64Array, L: number, c: Float64Array, rows: number, vals: Float64Array | null): void {
    const slots = this.slots, values = this.values;
    for (let i = 0; i < slots.length; i++) values[i] = state[slots[i]];
    this.c = c;
    this.vals = vals;
    this.rows = rows;
    this.L = L;
    this.valid = true;
  }
}

/** Every state slot the blocks read (each pose's 7 numbers, each scalar's one). */
export function blockSlots(system: System, blocks: readonly ResidualBlock[]): Int32Array {
  const slots = new Set<number>();
  for (const blk of blocks) {
    for (const v of blk.vars) {
      const variable = system.variables[v];
      const size = variable.kind === 'pose' ? 7 : 1;
      for (let i = 0; i < size; i++) slots.add(variable.offset + i);
    }
  }
  return Int32Array.from(slots);
}
