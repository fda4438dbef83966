/**
 * The 3D view's objects kept by id (made once, then moved on each result), and what the
 * drawing modules share of the view: its groups, maps, shapes, materials and batches.
 */
import { Vector3, type CylinderGeometry, type Group, type Object3D, type OctahedronGeometry } from 'three';
import type { Vec3Tuple } from '../../src/index.ts';
import type { InstanceBatch } from './draw-batches';
import type { SceneMaterials } from './scene-style';

export const UP = new Vector3(0, 1, 0);

export const vec = (p: Vec3Tuple, out = new Vector3()) => out.set(p[0], p[1], p[2]);

/** The object `id` of `map`, made and added to `group` the first time; shown. */
export function getObject<T extends Object3D>(map: Map<string, Object3D>, group: Group, id: string, make: () => T): T {
  let o = map.get(id) as T | undefined;
  if (!o) { o = make(); o.name = id; map.set(id, o); group.add(o); }
  o.visible = true;
  return o;
}

/** The view's parts a drawing module draws into (the same instances the view keeps). */
export interface SceneParts {
  readonly objects: Map<string, Object3D>;
  readonly ghostObjects: Map<string, Object3D>;
  readonly live: Group;
  readonly ghost: Group;
  readonly overlay: Group;
  readonly materials: SceneMaterials;
  readonly unitCylinder: CylinderGeometry;
  readonly marker: OctahedronGeometry;
  readonly liveTubes: InstanceBatch;
  readonly livePins: InstanceBatch;
  readonly ghostTubes: InstanceBatch;
}

/** Hides the object `id` (live or ghost) until it is drawn again. */
export function hideObject(parts: SceneParts, id: string): void {
  const o = parts.objects.get(id) ?? parts.ghostObjects.get(id);
  if (o) o.visible = false;
}
