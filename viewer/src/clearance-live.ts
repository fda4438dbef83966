/**
 * The closest pair of an assembly's parts at the pose shown, from the library's clearance
 * (ClearanceSet: a BVH per part built once, every pair of parts with geometry that no mate
 * joins): re-measured at every pose, so it follows a drag. The set is rebuilt only when
 * the parts' meshes or the mates change.
 */
import { ClearanceSet, pairKey, unjoinedPairs, type PartMesh, type PoseResult } from '../../src/index.ts';
import type { ClearanceShown } from './clearance-overlay';
import type { GeometryBodies } from './geometry-bodies';

export class LiveClearance {
  private set: ClearanceSet | null = null;
  private meshes: ReadonlyMap<string, PartMesh> | null = null;
  private joinedKey = '';
  /** Every pair's clearance at the last pose, for tests and a read-out. */
  last: Record<string, ClearanceShown> = {};

  /** The closest pair at `result`'s poses, or null when fewer than two parts that no mate joins carry geometry. */
  measure(bodies: GeometryBodies | null, meshes: ReadonlyMap<string, PartMesh>, result: PoseResult): ClearanceShown | null {
    this.last = {};
    if (!bodies || meshes.size < 2) return null;
    const joined = bodies.joined;
    const joinedKey = [...joined].sort().join();
    if (this.meshes !== meshes || joinedKey !== this.joinedKey || !this.set) {
      const names = bodies.entries.map(([b]) => b).filter((b) => meshes.has(b));
      this.set = new ClearanceSet(meshes, unjoinedPairs(names, joined));
      this.meshes = meshes;
      this.joinedKey = joinedKey;
    }
    if (this.set.pairs.length === 0) return null;
    const poses = new Map(this.set.pairs.flat().map((b) => [b, bodies.poseOf(result, b)]));
    if ([...poses.values()].some((p) => !p)) return null;
    const pairs = this.set.measure((body) => poses.get(body)!);
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
