/**
 * The force evaluation at the end of a step accepted without its check
 * (kernel/integrator/unchecked.ts). A checked step's last evaluation is at its end state;
 * an unchecked one's is at the Newton iterate before its correction, so a force element's
 * own record of its last evaluation (`last`: a tyre's load, read for simulate's touch-down
 * events) would lag by that correction. Re-evaluating every block there cost a tenth of a
 * settled step (the quarter car's, the DW corner's: one evaluation a step otherwise).
 *
 * Nothing in the step reads these values (the next step's residual assembles its own):
 * they are for readers between steps. By default every block is re-evaluated (readers
 * unknown); a caller that knows its readers names the blocks (`readAfterStep`), and only
 * those are. A gradient run (the integrator's `onStep`) and a large system keep the whole
 * assembly as before.
 */
import type { ForceSet } from '../forces';

export class StepEndForces {
  /** Force block indices re-evaluated at an unchecked step's end; null: all (assembled into Q). */
  private blocks: Int32Array | null = null;
  private scratch = new Float64Array(0);

  /** Only these force blocks are read after a step (their `last`): the others need no end evaluation. */
  readAfterStep(forces: ForceSet, blocks: readonly number[]): void {
    let width = 0;
    for (const i of blocks) width = Math.max(width, forces.slotsOf(i).length);
    this.scratch = new Float64Array(width);
    this.blocks = Int32Array.from(blocks);
  }

  /** At an unchecked step's end (velocities v, time t): every block into Q, or the named blocks alone (`all`: every block regardless). */
  evaluate(forces: ForceSet, v: Float64Array, t: number, Q: Float64Array, all: boolean): void {
    const blocks = this.blocks;
    if (all || !blocks) { forces.assemble(v, t, Q, null, null); return; }
    for (let k = 0; k < blocks.length; k++) forces.evaluateBlock(blocks[k], v, t, this.scratch);
  }
}
