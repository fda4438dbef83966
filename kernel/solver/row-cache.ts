/**
 * The rows (and Jacobian) of a group's last evaluation, with the state values they were
 * evaluated at: a request at exactly those values is answered by copying them back. A drag
 * frame starts where the last one ended, so its first evaluation (the largest part of a
 * frame of a long chain after the factorisations) is a copy. Only for groups of pure
 * constraint blocks, whose rows are functions of the state alone (a driver's target
 * changes in place).
 */
import type { ResidualBlock, System } from '../system';

export class RowCache {
  private readonly values: Float64Array;
  private readonly c: Float64Array;
  private readonly vals: Float64Array;
  private valid = false;
  private hasJ = false;
  private rows = 0;
  private L = NaN;

  /** `slots`: every state slot the group's blocks read (free and fixed variables). */
  constructor(private readonly slots: Int32Array, rows: number, jacobianEntries: number) {
    this.values = new Float64Array(slots.length);
    this.c = new Float64Array(rows);
    this.vals = new Float64Array(jacobianEntries);
  }

  invalidate(): void {
    this.valid = false;
  }

  /** Whether the last evaluation was at exactly this state (and length scale), with J when asked. */
  holds(state: Float64Array, L: number, withJ: boolean): boolean {
    if (!this.valid || (withJ && !this.hasJ) || L !== this.L) return false;
    const slots = this.slots, values = this.values;
    for (let i = 0; i < slots.length; i++) if (state[slots[i]] !== values[i]) return false;
    return true;
  }

  /** Copy the kept rows (and J when `vals`) out; returns the row count. */
  restore(c: Float64Array, vals: Float64Array | null): number {
    c.set(this.c.subarray(0, this.rows));
    if (vals) vals.set(this.vals.subarray(0, vals.length));
    return this.rows;
  }

  /** Keep an evaluation (raw rows, and J when `vals`) at the current state. */
  store(state: Float64Array, L: number, c: Float64Array, rows: number, vals: Float64Array | null): void {
    const slots = this.slots, values = this.values;
    for (let i = 0; i < slots.length; i++) values[i] = state[slots[i]];
    this.c.set(c.subarray(0, rows));
    this.rows = rows;
    this.hasJ = vals !== null;
    if (vals) this.vals.set(vals.subarray(0, this.vals.length));
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
