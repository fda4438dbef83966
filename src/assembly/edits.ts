/**
 * Edits of an assembly document, as immer recipes.
 *
 * Each function here returns a recipe `(draft) => void` for `History.apply` (or
 * `History.updateGesture`, or plain `immer.produce`). A recipe only changes the draft;
 * whether the result is a valid document is decided by the history's `validate` hook,
 * {@link assemblyProblem}, which runs `validateAssembly` on the result and refuses it
 * with the AssemblyError message (`mates.tie.b: …`), leaving the document as it was.
 *
 * A recipe throws an {@link AssemblyError} itself (and so changes nothing) when what it
 * names does not exist: moving a point that is not there would otherwise create one, a
 * silent and valid change. Refusals by validation and by the recipe read alike.
 *
 * Decisions:
 * - Removing a part removes the mates that join it, and removing a mate removes what
 *   depends on it: the couplings that name its coordinates and the `state` and `held`
 *   entries of those coordinates. One edit, one undo entry, and undo brings every piece
 *   back. (The alternative, refusing the removal while mates remain, makes the user
 *   delete mates one by one for no gain.) A `suspension` roles section is kept
 *   verbatim, as everywhere else: it is not checked against the parts.
 * - A recipe that would write the value already there writes nothing, so it makes no
 *   patch and no undo entry (immer sees any new array as a change).
 * - Values are copied into the draft; the caller's arrays and objects are never kept.
 *
 * Units are the document's own: lengths in its length unit, angles in its angle unit,
 * entity coordinates in the part's own frame.
 */
import type { Draft } from 'immer';
import type { Vec3Tuple } from '../../kernel/vec3.ts';
import { AssemblyError, itemPath, memberPath } from './errors.ts';
import { validateAssembly } from './load.ts';
import {
  ENTITY_GROUPS,
  coordinatesOfMate,
  isCoupling,
  splitReference,
  type AssemblyDoc,
  type EntityGroup,
  type MateDoc,
  type PartDoc,
  type PoseDoc,
  type Vec3Doc,
} from './types.ts';

/** An edit of an assembly document: mutate the draft in place. */
export type AssemblyRecipe = (draft: Draft<AssemblyDoc>) => void;


/**
 * The validation hook for a `History<AssemblyDoc>`: `null` for a valid document,
 * otherwise the AssemblyError message (`path: reason`). Other exceptions propagate.
 */
export function assemblyProblem(doc: AssemblyDoc): string | null {
  try {
    validateAssembly(doc);
    return null;
  } catch (error) {
    if (error instanceof AssemblyError) return error.message;
    throw error;
  }
}

/**
 * Moves a point entity of a part to `xyz` (the part's own frame).
 * @throws AssemblyError if the part or the point does not exist.
 */
export function movePoint(part: string, point: string, xyz: Vec3Doc): AssemblyRecipe {
  const target = copyVec3(xyz);
  return (draft) => {
    const points = requirePart(draft, part).points;
    const path = memberPath(memberPath(partPath(part), 'points'), point);
    if (points === undefined || !Object.hasOwn(points, point)) throw new AssemblyError(path, `no point "${point}" on part "${part}"`);
    if (!sameVec3(points[point], target)) points[point] = target;
  };
}

/**
 * Moves any entity of a part so that its anchor lands on `xyz` (the part's own frame):
 * a point itself, the origin of a frame, axis or plane, the centre of a circle; a curve
 * is translated rigidly so that its first point lands there. Directions, rotations and
 * radii are kept.
 * @throws AssemblyError if the part or the entity does not exist.
 */
export function moveEntity(part: string, entity: string, xyz: Vec3Doc): AssemblyRecipe {
  const target = copyVec3(xyz);
  return (draft) => {
    const partDraft = requirePart(draft, part);
    const group = groupOf(partDraft, entity);
    if (group === undefined) throw new AssemblyError(memberPath(partPath(part), entity), `no entity "${entity}" on part "${part}"`);
    switch (group) {
      case 'points': {
        const points = partDraft.points!;
        if (!sameVec3(points[entity], target)) points[entity] = target;
        return;
      }
      case 'frames':
      case 'axes':
      case 'planes': {
        const anchored = partDraft[group]![entity];
        if (!sameVec3(anchored.origin, target)) anchored.origin = target;
        return;
      }
      case 'circles': {
        const circle = partDraft.circles![entity];
        if (!sameVec3(circle.center, target)) circle.center = target;
        return;
      }
      case 'curves': {
        const curve = partDraft.curves![entity];
        const first = curve.polyline[0];
        const shift = [target[0] - first[0], target[1] - first[1], target[2] - first[2]];
        if (shift[0] === 0 && shift[1] === 0 && shift[2] === 0) return;
        curve.polyline = curve.polyline.map((p): Vec3Tuple => [p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]]);
        return;
      }
    }
  };
}

/**
 * Sets a coordinate's value in `state` (`jA.angle`, in the document's units). Held, it
 * is where the solve drives it; free, it is a starting value. Validation refuses a name
 * that no mate frees.
 * @throws AssemblyError if `value` is not finite.
 */
export function setCoordinate(name: string, value: number): AssemblyRecipe {
  assertFinite(value, name);
  return (draft) => {
    if (draft.state[name] !== value) draft.state[name] = value;
  };
}

/**
 * Holds a coordinate (a driver): at `value` when given (also written to `state`),
 * otherwise where it stands. Holding a held coordinate only sets its value.
 * @throws AssemblyError if `value` is given and not finite.
 */
export function holdCoordinate(name: string, value?: number): AssemblyRecipe {
  if (value !== undefined) assertFinite(value, name);
  return (draft) => {
    if (value !== undefined && draft.state[name] !== value) draft.state[name] = value;
    if (!draft.held.includes(name)) draft.held.push(name);
  };
}

/** Releases a held coordinate (its `state` value stays, as a starting value). Releasing a free one changes nothing. */
export function releaseCoordinate(name: string): AssemblyRecipe {
  return (draft) => {
    const index = draft.held.indexOf(name);
    if (index >= 0) draft.held.splice(index, 1);
  };
}

/**
 * Changes the value of a dimensioned mate: the length of a `distance`, the angle of an
 * `angle` (document units).
 * @throws AssemblyError if there is no such mate or it has no value.
 * @throws AssemblyError if `value` is not finite.
 */
export function setMateValue(mate: string, value: number): AssemblyRecipe {
  assertFinite(value, mate);
  return (draft) => {
    const found = requireMate(draft, mate);
    if (found.type !== 'distance' && found.type !== 'angle') {
      throw new AssemblyError(memberPath(matePath(mate), 'value'), `a ${found.type} mate has no value (only distance and angle mates do)`);
    }
    const dimensioned = found as Draft<Extract<MateDoc, { type: 'distance' | 'angle' }>>;
    if (dimensioned.value !== value) dimensioned.value = value;
  };
}

/**
 * Adds a part (a deep copy of `part`). Validation checks it like any part.
 * @throws AssemblyError if a part of that name exists.
 */
export function addPart(name: string, part: PartDoc): AssemblyRecipe {
  const copy = plainCopy(part);
  return (draft) => {
    if (Object.hasOwn(draft.parts, name)) throw new AssemblyError(partPath(name), `a part "${name}" already exists`);
    (draft.parts as Record<string, unknown>)[name] = copy;
  };
}

/**
 * Removes a part, the mates that join it (and, through {@link removeMate}, what depends
 * on them) and its `state` pose.
 * @throws AssemblyError if there is no such part.
 */
export function removePart(name: string): AssemblyRecipe {
  return (draft) => {
    requirePart(draft, name);
    for (const [id, mate] of Object.entries(draft.mates)) {
      if (isCoupling(mate as MateDoc)) continue;
      if (ownerOf(mate.a) === name || ownerOf(mate.b) === name) removeMateFrom(draft, id);
    }
    delete (draft.parts as Record<string, unknown>)[name];
    const poseKey = `${name}.pose`;
    if (Object.hasOwn(draft.state, poseKey)) delete draft.state[poseKey];
  };
}

/**
 * Adds a mate (a deep copy of `mate`). Validation checks its references and kinds.
 * @throws AssemblyError if a mate of that id exists.
 */
export function addMate(id: string, mate: MateDoc): AssemblyRecipe {
  const copy = plainCopy(mate);
  return (draft) => {
    if (Object.hasOwn(draft.mates, id)) throw new AssemblyError(matePath(id), `a mate "${id}" already exists`);
    (draft.mates as Record<string, unknown>)[id] = copy;
  };
}

/**
 * Removes a mate, the couplings that name its coordinates, and the `state` and `held`
 * entries of those coordinates.
 * @throws AssemblyError if there is no such mate.
 */
export function removeMate(id: string): AssemblyRecipe {
  return (draft) => {
    requireMate(draft, id);
    removeMateFrom(draft, id);
  };
}

/**
 * Sets a part's pose (its pose in the file: where a fresh solve starts, and the design of
 * a suspension). A `state` pose of the part (`part.pose`), which would override it, is
 * removed. The rotation is kept as given (not normalised), as everywhere in the format.
 * @throws AssemblyError if there is no such part.
 * @throws AssemblyError if a number is not finite.
 */
export function setPartPose(part: string, pose: PoseDoc): AssemblyRecipe {
  const position = copyVec3(pose.position);
  if (!Array.isArray(pose.rotation) || pose.rotation.length !== 4) throw new AssemblyError('rotation', 'expected a rotation [w, x, y, z]');
  for (let i = 0; i < 4; i++) assertFinite(pose.rotation[i], itemPath('rotation', i));
  const rotation: [number, number, number, number] = [pose.rotation[0], pose.rotation[1], pose.rotation[2], pose.rotation[3]];
  return (draft) => {
    const partDraft = requirePart(draft, part);
    const same = sameVec3(partDraft.pose.position, position) && rotation.every((q, i) => Object.is(partDraft.pose.rotation[i], q));
    if (!same) partDraft.pose = { position, rotation };
    const poseKey = `${part}.pose`;
    if (Object.hasOwn(draft.state, poseKey)) delete draft.state[poseKey];
  };
}

/**
 * Sets the `suspension` roles section (a deep copy), or removes it with `undefined`. The
 * assembly loader only checks it is plain JSON; whether the roles fit the parts is for
 * the suspension code (`validateRoles`, and building a `SuspensionModel`) to say, so an
 * editor checks them before it applies this.
 */
export function setSuspension(roles: unknown): AssemblyRecipe {
  const copy = roles === undefined ? undefined : plainCopy(roles);
  return (draft) => {
    if (copy === undefined) {
      if (Object.hasOwn(draft, 'suspension')) delete (draft as { suspension?: unknown }).suspension;
      return;
    }
    (draft as { suspension?: unknown }).suspension = copy;
  };
}

/** Applies several recipes in order as one edit (one undo entry). */
export function combine(...recipes: readonly AssemblyRecipe[]): AssemblyRecipe {
  return (draft) => {
    for (const recipe of recipes) recipe(draft);
  };
}

// ---- helpers ----

function removeMateFrom(draft: Draft<AssemblyDoc>, id: string): void {
  const mate = draft.mates[id];
  if (mate === undefined) return; // already removed with another part's mates
  const coordinates = coordinatesOfMate(mate as MateDoc).map((c) => `${id}.${c}`);
  delete (draft.mates as Record<string, unknown>)[id];
  for (const name of coordinates) {
    if (Object.hasOwn(draft.state, name)) delete draft.state[name];
    const index = draft.held.indexOf(name);
    if (index >= 0) draft.held.splice(index, 1);
  }
  if (coordinates.length === 0) return;
  for (const [other, coupling] of Object.entries(draft.mates)) {
    if (isCoupling(coupling as MateDoc) && (coordinates.includes(coupling.a) || coordinates.includes(coupling.b))) {
      delete (draft.mates as Record<string, unknown>)[other];
    }
  }
}

function requirePart(draft: Draft<AssemblyDoc>, part: string): Draft<PartDoc> {
  if (!Object.hasOwn(draft.parts, part)) throw new AssemblyError(partPath(part), `no part "${part}"`);
  return draft.parts[part];
}

function requireMate(draft: Draft<AssemblyDoc>, id: string): Draft<MateDoc> {
  if (!Object.hasOwn(draft.mates, id)) throw new AssemblyError(matePath(id), `no mate "${id}"`);
  return draft.mates[id];
}

function groupOf(part: Draft<PartDoc>, entity: string): EntityGroup | undefined {
  for (const group of Object.keys(ENTITY_GROUPS) as EntityGroup[]) {
    const entities = part[group];
    if (entities !== undefined && Object.hasOwn(entities, entity)) return group;
  }
  return undefined;
}

function ownerOf(ref: string): string | undefined {
  return splitReference(ref)?.owner;
}

function partPath(part: string): string {
  return memberPath('parts', part);
}

function matePath(id: string): string {
  return memberPath('mates', id);
}

function copyVec3(xyz: Vec3Doc): Vec3Tuple {
  if (!Array.isArray(xyz) || xyz.length !== 3) throw new AssemblyError('xyz', 'expected a point [x, y, z]');
  for (let i = 0; i < 3; i++) assertFinite(xyz[i], itemPath('xyz', i));
  return [xyz[0], xyz[1], xyz[2]];
}

function sameVec3(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return Object.is(a[0], b[0]) && Object.is(a[1], b[1]) && Object.is(a[2], b[2]);
}

function assertFinite(value: number, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new AssemblyError(what, `expected a finite number, got ${String(value)}`);
}

/** A deep copy of plain JSON data (no functions, no cycles), so no caller's object ends up in the document. */
function plainCopy<T>(value: T): T {
  return structuredClone(value);
}
