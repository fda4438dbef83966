/**
 * The closest triangle pairs of a part pair's recent states, each with its relative pose:
 * where the parts moved far since the last state (a drag taken back, a grid's next row,
 * a sweep begun again), the last state's pair is a poor first bound, and the walk
 * (closest.ts) opens thousands of node pairs that a bound near the answer would prune. The
 * pair remembered at the pose nearest to this one is re-measured too, and the nearer of the
 * two starts the walk. Only the start changes: the walk still proves the answer.
 */
import type { FlatBVH } from './flat-bvh.ts';

/** How many states a pair remembers (a grid's row or two, a drag's way back). */
export const SEED_STATES = 64;

/**
 * A move counts as far, and the memory is asked, where it is this many times the step
 * before it: a drag's or a sweep's steps are alike, and there the last state's pair is the
 * better start (a remembered pose only wins on a way back or a sweep begun again).
 */
export const FAR_STEP = 4;

export class Seeds {
  /** Per state: B's pose in A's frame (rotation row-major, then translation: 12 numbers); allocated at the first state (a one-off query keeps none). */
  private poses = new Float64Array(0);
  /** Per state: its closest triangles (A's, B's; hierarchy order). */
  private pairs = new Int32Array(0);
  private size = 0;
  /** Where the next state is written (the oldest is overwritten once full). */
  private next = 0;
  /** The hierarchies the pairs index; null while there are none. */
  private a: FlatBVH | null = null;
  private b: FlatBVH | null = null;
  /** The last lookup: the nearest state (-1 when none) and how far B moved from it, and from the state remembered last. */
  nearest = -1;
  nearestMove = Infinity;
  lastMove = Infinity;
  /** The state remembered last. */
  private last = -1;
  /** The move to the state remembered last from the one before it (Infinity while unknown). */
  private step = Infinity;
  /** The last lookup: is the move from the last state far (FAR_STEP times the step before it)? */
  far = false;

  /**
   * Finds the remembered state nearest to pose `e` (closest.ts's layout) of A and B: how
   * far a point of B can have moved relative to A since then (the translation's change plus
   * the rotation's, Frobenius, times B's reach from its origin `reach`). Into `nearest`,
   * `nearestMove`, `lastMove` and `far`.
   */
  find(a: FlatBVH, b: FlatBVH, e: Float64Array, reach: number): void {
    this.nearest = -1; this.nearestMove = Infinity; this.lastMove = Infinity; this.far = false;
    if (this.a !== a || this.b !== b) { this.a = a; this.b = b; this.size = 0; this.next = 0; this.last = -1; this.step = Infinity; return; }
    for (let k = 0; k < this.size; k++) {
      const p = this.poses, o = 12 * k;
      let r = 0;
      for (let c = 0; c < 9; c++) { const d = p[o + c]! - e[c]!; r += d * d; }
      let t = 0;
      for (let c = 9; c < 12; c++) { const d = p[o + c]! - e[c]!; t += d * d; }
      const move = Math.sqrt(t) + Math.sqrt(r) * reach;
      if (move < this.nearestMove) { this.nearestMove = move; this.nearest = k; }
      if (k === this.last) this.lastMove = move;
    }
    this.far = this.lastMove > FAR_STEP * this.step;
  }

  /** The nearest state's triangles (after find), into `out` (A's, B's); false where there is none. */
  pairOf(out: Int32Array): boolean {
    if (this.nearest < 0) return false;
    out[0] = this.pairs[2 * this.nearest]!; out[1] = this.pairs[2 * this.nearest + 1]!;
    return true;
  }

  /** This state (pose `e`, as given to the last find) and its closest triangles: over the nearest where it is the same pose, else as the newest. */
  remember(e: Float64Array, triA: number, triB: number): void {
    let k = this.next;
    if (this.lastMove > 0) this.step = this.lastMove;
    if (this.nearest >= 0 && this.nearestMove === 0) k = this.nearest;
    else { this.next = (this.next + 1) % SEED_STATES; if (this.size < SEED_STATES) this.size++; }
    this.last = k;
    if (this.poses.length === 0) { this.poses = new Float64Array(12 * SEED_STATES); this.pairs = new Int32Array(2 * SEED_STATES); }
    this.poses.set(e.subarray(0, 12), 12 * k);
    this.pairs[2 * k] = triA; this.pairs[2 * k + 1] = triB;
  }
}
