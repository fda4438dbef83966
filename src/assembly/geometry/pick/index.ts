/**
 * Picking (geometry.md "Mates by picking"): what a click on a triangle of a part's mesh
 * names, and adding it to the document. Pure geometry: fits (fit.ts), segmentation
 * (segment.ts), surfaces and their joining (surfaces.ts), edges (edges.ts), the direction
 * rule (direction.ts).
 */
import { pickIndexOf, type PickOptions, type PickResult } from './pick.ts';
import type { PickMesh } from './topology.ts';

export { PickIndex, pickIndexOf, type PickOptions, type PickResult, type PickedEntity, type PickedFeature } from './pick.ts';
export { addPickedEntity, pickedEntityName, pickedNames } from './entity-edit.ts';
export { canonicalDirection, directionTolerance } from './direction.ts';
export { DEFAULT_SMOOTH_ANGLE_DEG } from './segment.ts';
export type { PickMesh } from './topology.ts';

/**
 * What a click on triangle `triangleIndex` of a part's mesh (in the part's frame: the
 * geometry layer's `PartMesh`) picks: the entity, what was picked (a planar face, a
 * circular edge, …), the fit's residual and the triangles to highlight. With
 * `options.point` (the hit) an edge or a vertex within `options.tolerance` is picked
 * instead of the face. The mesh's connectivity and fits are built on the first pick and
 * kept with the mesh object.
 */
export function entityFromPick(part: PickMesh, triangleIndex: number, options: PickOptions = {}): PickResult {
  return pickIndexOf(part, options.smoothAngle).pick(triangleIndex, options);
}
