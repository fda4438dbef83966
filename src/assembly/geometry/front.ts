/**
 * The front of a closest-pair walk (closest.ts): the node pairs where it stopped, pruned by
 * their bound or measured as two leaves. Every triangle pair of the two meshes lies under
 * exactly one of them, so the next state can start from them instead of from the roots and
 * still see every triangle pair: a sweep's states are near each other, and most of a walk
 * from the roots is the way down to that same front. Kept with the pair's hint.
 */
import type { FlatBVH } from './flat-bvh.ts';

/** A front grown to this many times the size of the last walk from the roots is dropped (the next walk starts at the roots and leaves a tight one). */
export const FRONT_GROWTH = 1.5;

export class Front {
  /** The node pairs (i of A, j of B), the last walk's. */
  pairs = new Int32Array(256);
  size = 0;
  /** The walk now under way writes here. */
  next = new Int32Array(256);
  nextSize = 0;
  /** The hierarchies it partitions; null while there is none. */
  a: FlatBVH | null = null;
  b: FlatBVH | null = null;
  /** Its size when it was last left by a walk from the roots. */
  rootSize = 0;

  /** Can a walk over A and B start from it? */
  usable(a: FlatBVH, b: FlatBVH): boolean {
    return this.a === a && this.b === b && this.size <= FRONT_GROWTH * this.rootSize;
  }

  begin(): void { this.nextSize = 0; this.mergeable = 0; }


  /** How many of the last pairs written were pruned as they stood in the last front (or merged from such): only those merge. */
  mergeable = 0;

  /** A pair where the walk stops (pruned, or two leaves measured). */
  add(i: number, j: number): void {
    this.mergeable = 0;
    this.write(i, j);
  }

  /** A pair of the last front pruned again: it may merge with the one before it. */
  addPruned(i: number, j: number): void {
    this.write(i, j);
    this.mergeable++;
  }

  /**
   * The last two pairs written, where both are mergeable and split one node of a pair in
   * two: that pair (i of A, j of B) into `merged`, else false. (Two halves of one pair
   * cover what it covers: the front still holds each triangle pair once.)
   */
  lastTwoParent(a: FlatBVH, b: FlatBVH, merged: Int32Array): boolean {
    if (this.mergeable < 2) return false;
    const n = this.next, k = 2 * this.nextSize - 4;
    const i1 = n[k]!, j1 = n[k + 1]!, i2 = n[k + 2]!, j2 = n[k + 3]!;
    if (j1 === j2 && i1 !== i2 && a.parent[i1] === a.parent[i2]) { merged[0] = a.parent[i1]!; merged[1] = j1; return true; }
    if (i1 === i2 && j1 !== j2 && b.parent[j1] === b.parent[j2]) { merged[0] = i1; merged[1] = b.parent[j1]!; return true; }
    return false;
  }

  /** The last two pairs written become `merged`'s pair. */
  merge(merged: Int32Array): void {
    this.nextSize -= 2;
    this.mergeable -= 2;
    this.addPruned(merged[0]!, merged[1]!);
  }

  private write(i: number, j: number): void {
    if (2 * this.nextSize + 2 > this.next.length) {
      const n = new Int32Array(2 * this.next.length); n.set(this.next); this.next = n;
    }
    this.next[2 * this.nextSize] = i; this.next[2 * this.nextSize + 1] = j;
    this.nextSize++;
  }

  /** The walk just written is the front now (`fromRoots`: it started at the roots). */
  commit(a: FlatBVH, b: FlatBVH, fromRoots: boolean): void {
    const p = this.pairs; this.pairs = this.next; this.next = p;
    this.size = this.nextSize;
    this.a = a; this.b = b;
    if (fromRoots) this.rootSize = this.size;
  }

  /** No front (the walk stopped early, at touching surfaces). */
  drop(): void { this.a = null; this.b = null; this.size = 0; }
}
