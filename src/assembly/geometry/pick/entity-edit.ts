/**
 * A picked entity into the document: under a generated name, as an ordinary entity of
 * the part, so the saved file is an ordinary assembly and a mate made by picking is an
 * ordinary mate (geometry.md). One recipe, one undo entry: a circle and its centre point
 * are added together.
 */
import type { Draft } from 'immer';
import { AssemblyError, memberPath } from '../../errors.ts';
import type { AssemblyRecipe } from '../../edits.ts';
import { ENTITY_GROUPS, type AssemblyDoc, type EntityGroup, type PartDoc, type Vec3Doc } from '../../types.ts';
import type { PickedEntity } from './pick.ts';

/** The part-level names a picked entity takes: `<name>`, and a circle's centre `<name>_centre`. */
export function pickedNames(entity: PickedEntity, name: string): string[] {
  return entity.kind === 'circle' ? [name, `${name}_centre`] : [name];
}

function takenNames(part: PartDoc): Set<string> {
  const taken = new Set<string>();
  for (const group of Object.keys(ENTITY_GROUPS) as EntityGroup[]) for (const n of Object.keys(part[group] ?? {})) taken.add(n);
  return taken;
}

/**
 * The generated name of a picked entity on `part`: `pick_<kind>_<n>` with the least n ≥ 1
 * that leaves it (and a circle's `_centre`) free among all the part's entities.
 */
export function pickedEntityName(part: PartDoc, entity: PickedEntity): string {
  const taken = takenNames(part);
  for (let n = 1; ; n++) {
    const name = `pick_${entity.kind}_${n}`;
    if (pickedNames(entity, name).every((x) => !taken.has(x))) return name;
  }
}

const copy = (v: Vec3Doc): [number, number, number] => [v[0], v[1], v[2]];

/**
 * Adds a picked entity to part `part` under `name` (use `pickedEntityName`): a plane, an
 * axis or a point as itself, a circle with its centre as the point `<name>_centre`.
 * @throws AssemblyError when the part does not exist or a name is taken.
 */
export function addPickedEntity(part: string, name: string, entity: PickedEntity): AssemblyRecipe {
  return (draft: Draft<AssemblyDoc>) => {
    const path = memberPath('parts', part);
    if (!Object.hasOwn(draft.parts, part)) throw new AssemblyError(path, `no part "${part}"`);
    const p = draft.parts[part];
    const taken = takenNames(p as PartDoc);
    for (const n of pickedNames(entity, name)) if (taken.has(n)) throw new AssemblyError(memberPath(path, n), `part "${part}" already has an entity named "${n}"`);
    switch (entity.kind) {
      case 'plane':
        (p.planes ??= {})[name] = { origin: copy(entity.plane.origin), normal: copy(entity.plane.normal) };
        return;
      case 'axis':
        (p.axes ??= {})[name] = { origin: copy(entity.axis.origin), direction: copy(entity.axis.direction) };
        return;
      case 'point':
        (p.points ??= {})[name] = copy(entity.point);
        return;
      case 'circle':
        (p.circles ??= {})[name] = { center: copy(entity.circle.center), normal: copy(entity.circle.normal), radius: entity.circle.radius };
        (p.points ??= {})[`${name}_centre`] = copy(entity.centre);
    }
  };
}
