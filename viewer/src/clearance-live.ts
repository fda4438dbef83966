/**
 * The closest pair of an assembly's parts at the pose shown, from the library's clearance
 * (ClearanceSet: a BVH per part built once, every pair of parts with geometry that no mate
 * joins): re-measured at every pose, so it follows a drag. The set is rebuilt only when
 * the parts' meshes or the mates change.
 */
import { ClearanceSet, joinedPartPairs, pairKey, unjoinedPairs, type AssemblyDoc, type PartMesh, type PoseResult } from '../../src/index.ts';
import type { ClearanceShown } from './clearance-overlay';

export class LiveClearance {
  private set: ClearanceSet | null = null;
  private meshes: ReadonlyMap<string, PartMesh> | null = null;
  private joinedKey = '';
  /** Every pair's clearance at the last pose, for tests and a read-out. */
  last: Record<string, ClearanceShown> = {};

  /** The closest pair at `result`'s poses, or null when fewer than two parts that no mate joins carry geometry. */
  measure(doc: AssemblyDoc | null, meshes: ReadonlyMap<string, PartMesh>, result: PoseResult): ClearanceShown | null {
    this.last = {};
    if (!doc || meshes.size < 2) return null;
    const joined = joinedPartPairs(doc);
    const joinedKey = [...joined].sort().join();
    if (this.meshes !== meshes || joinedKey !== this.joinedKey || !this.set) {
      const names = Object.keys(doc.parts).filter((p) => meshes.has(p));
      this.set = new ClearanceSet(meshes, unjoinedPairs(names, joined));
      this.meshes = meshes;
      this.joinedKey = joinedKey;
    }
    if (this.set.pairs.length === 0) return null;
    if (!this.set.pairs.every(([a, b]) => result.poses[a] && result.poses[b])) return null;
    const pairs = this.set.measure((part) => result.poses[part]);
    let closest: ClearanceShown | null = null;
    for (const pair of this.set.pairs) {
      const key = pairKey(pair);
      const c = pairs[key];
      this.last[key] = { pair: key, ...c };
      if (!closest || c.distance < closest.distance) closest = this.last[key];
    }
    return closest;
  }
}
