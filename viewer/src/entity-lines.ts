/**
 * Entity lines (assemble mode): an axis, a frame or a plane of a part drawn as a line
 * through its handle, in a colour per kind.
 */
import { Mesh, Quaternion, Vector3 } from 'three';
import type { PoseResult, Vec3Tuple } from '../../src/index.ts';
import { getObject, vec, type SceneParts } from './scene-objects';

/** An axis, a frame (its z axis) or a plane (its normal) of a part, drawn as a line through its handle (`ref`) while assembling; `direction` in the part's own frame. */
export interface EntityLine {
  ref: string;
  part: string;
  kind: 'axis' | 'frame' | 'plane';
  direction: Vec3Tuple;
}

export const ENTITY_LINE_COLORS: Record<EntityLine['kind'], number> = { axis: 0xffd166, frame: 0xff9f43, plane: 0x7bdff2 };

/** Draws the entity lines at the result's part poses (the view calls this at the end of each update). */
export function drawEntityLines(parts: SceneParts, s: number, lines: readonly EntityLine[], result: PoseResult): void {
  const shown = new Set<string>();
  for (const line of lines) {
    const at = result.points[line.ref];
    if (!at) continue;
    const id = `eline:${line.ref}`;
    shown.add(id);
    const color = ENTITY_LINE_COLORS[line.kind];
    const pose = result.poses[line.part];
    // poses are [x, y, z, w, qx, qy, qz]; three's Quaternion takes (x, y, z, w)
    const turn = pose ? new Quaternion(pose[4], pose[5], pose[6], pose[3]).normalize() : new Quaternion();
    const d = new Vector3(line.direction[0], line.direction[1], line.direction[2]).normalize().applyQuaternion(turn);
    // an axis or a frame's z: a line through the handle both ways; a plane's normal: one way, shorter
    const length = s * (line.kind === 'plane' ? 0.05 : 0.24);
    const mesh = getObject(parts.objects, parts.overlay, id, () => new Mesh(parts.unitCylinder, parts.materials.solid(color, { emissive: 0x222200 })));
    mesh.position.copy(vec(at)).addScaledVector(d, line.kind === 'plane' ? length / 2 : 0);
    mesh.quaternion.setFromUnitVectors(new Vector3(0, 1, 0), d);
    mesh.scale.set(s * 0.0035, length, s * 0.0035);
  }
  for (const [id, o] of parts.objects) if (id.startsWith('eline:') && !shown.has(id)) o.visible = false;
}
