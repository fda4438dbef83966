/**
 * The closest-pair walk's (closest.ts) switches and work counters, apart from the walk so
 * tests and scripts can set and read them.
 */

/** Work counters of the closest-pair walks since the last reset (tests read them: what a bound prunes, not how fast). */
export const closestStats = { nodePairs: 0, nodeBounds: 0, capsuleBounds: 0, triangleBounds: 0, triangleDistances: 0 };

/**
 * Where the bounds are spent (tests turn them to reach small meshes or to switch one off).
 * `capsuleMin`: capsules bound a node pair only where the boxes' bounds leave it open and
 * the two nodes hold this many triangles together. Their prunes that count are high in the
 * hierarchy (two arms' tubes, turned a few degrees, whose boxes' corners reach past the
 * tubes), each cutting a large subtree; lower down the boxes already prune what a capsule
 * would, and a capsule costs a segment distance. `front`: walks start from the last
 * state's front (front.ts); `centroid`: triangle pairs are bounded along their centroids'
 * line before they are measured; `edges`: and beyond each other's edges (tri-gaps.ts).
 * `tieSlack` (relative): a bound prunes from best · (1 − tieSlack) up, so a pair that can
 * come at most that much nearer than the best is not looked at: the answer is within
 * that (plus the bounds' rounding) of the smallest distance, and which of such near-ties is
 * reported depends on the walk (docs/geometry.md, "Which pair, on a tie"). Two surfaces
 * parallel over a patch (the fixture's wishbones and the upright's cap under the liner at
 * design) have thousands of triangle pairs within a few ulps of each other, each of which an
 * exact answer must measure. 0: exact, the smallest distance and the first such pair in the
 * meshes' order, a bound pruning only above the cut; then `laterTies`: a pair after the
 * best's in mesh order is pruned from the best distance up (it trusts a rounded bound
 * against a rounded distance: where near-ties differ by rounding it may keep a pair an
 * ulp farther than the nearest). `seeds`: after a far move, the answer remembered at the
 * nearest pose seen before is re-measured as a start too, and the walk starts from the roots
 * (seeds.ts).
 */
export const closestTuning = { capsuleMin: 2048, front: true, centroid: true, edges: true, laterTies: false, tieSlack: 1e-12, seeds: true };
