/**
 * Reading an assembly: text → JSON → a checked, frozen AssemblyDoc.
 *
 * Every problem throws one AssemblyError naming the offending path; nothing is
 * repaired or guessed, so a document that loads is one every later stage can trust:
 * all numbers finite, every reference resolving to an entity of a kind its mate takes,
 * every coordinate named in couplings, `state` and `held` freed by some mate.
 * Numbers and quaternions are kept exactly as written.
 */

import { AssemblyError, ROOT_PATH, itemPath, memberPath } from './errors.ts';
import { parseJson, setOwn, type JsonValue } from './json.ts';
import {
  ASSEMBLY_FORMAT, ENTITY_GROUPS, JOINT_TYPES, coordinatesOfMate, splitReference, type AssemblyDoc, type ConstraintType, type ContactType, type CouplingMateDoc, type CouplingType, type EntityGroup, type EntityKind, type JointMateDoc, type JointType, type MateDoc, type MateType, type PartDoc, type PoseDoc,
} from './types.ts';
import { ENTITY_RULES, mateJoins } from '../../mates/vocabulary.ts';
import { checkGeometryList } from './geometry/doc.ts';

import {
  article, checkEntity, checkFields, checkId, checkLimits, checkMateType, checkPose, checkUnits, coordinateNoun, copyJson, deepFreeze, describe, expectNumber, expectObject, expectVec3, fail, member, memberOr, optionalBoolean, optionalString, presentKeys, quote, reorder, required, type CoordinateRef, type EntityRef, type RawObject,
} from './check.ts';
import { checkForces, checkMass } from './load-forces.ts';

export { AssemblyError } from './errors.ts';

/**
 * Parses and checks the text of a `*.kinemate.json` file. Throws AssemblyError (and
 * nothing else) for bad JSON, duplicate keys and everything validateAssembly refuses.
 */
export function parseAssembly(text: string): AssemblyDoc {
  if (typeof text !== 'string') fail(ROOT_PATH, `expected the text of a JSON document, got ${describe(text)}`);
  return validateAssembly(parseJson(text));
}

/**
 * Checks a value already in memory (parsed JSON, or a document built in code) and
 * returns a fresh, deeply frozen copy; the input is not modified. Members whose value
 * is `undefined` count as absent. Missing `mates`, `state` and `held` become empty.
 * Throws AssemblyError at the first problem, in document order within each section.
 */
export function validateAssembly(value: unknown): AssemblyDoc {
  return deepFreeze(new AssemblyChecker().check(value));
}

const TOP_LEVEL_FIELDS = ['format', 'name', 'units', 'parts', 'mates', 'state', 'held', 'suspension', 'gravity', 'forces'];
const PART_FIELDS = ['fixed', 'pose', ...Object.keys(ENTITY_GROUPS), 'mass', 'geometry'];

// Which entity kinds each mate joins: the kernel's own table (mates/vocabulary.ts).
export { mateTypesJoining } from '../../mates/vocabulary.ts';

/** The field holding each coupling's constant, besides the optional `offset`. */
const COUPLING_PARAMETER = {
  gear: 'ratio',
  belt: 'ratio',
  linear: 'ratio',
  rackpinion: 'radius',
  screw: 'lead',
} as const satisfies Record<CouplingType, string>;

class AssemblyChecker {
  /** part id → entity name → kind, filled as parts are checked. */
  private readonly entities = new Map<string, Map<string, EntityKind>>();
  /** mate id → type, filled before any mate is checked in full (couplings refer forward). */
  private readonly mateTypes = new Map<string, MateType>();

  check(value: unknown): AssemblyDoc {
    const root = expectObject(value, ROOT_PATH, 'a JSON object at the top level');
    this.checkFormat(member(root, 'format'));
    const name = optionalString(member(root, 'name'), 'name');
    const units = checkUnits(member(root, 'units'));
    const parts = this.checkParts(required(root, 'parts', ROOT_PATH, 'an assembly needs a parts object'));
    // Absent means empty; null does not (`??` would let null through as empty).
    const mates = this.checkMates(memberOr(root, 'mates', {}));
    const state = this.checkState(memberOr(root, 'state', {}));
    const held = this.checkHeld(memberOr(root, 'held', []));
    const gravityValue = member(root, 'gravity');
    const gravity = gravityValue === undefined ? undefined : expectVec3(gravityValue, 'gravity');
    const forcesValue = member(root, 'forces');
    const forces = forcesValue === undefined ? undefined : checkForces(forcesValue, parts, state, {
      entityRef: (v, path) => this.checkEntityRef(v, path), coordinate: (v, path) => this.checkCoordinate(v, path), hasPart: (id) => this.entities.has(id),
    });
    const suspensionValue = member(root, 'suspension');
    const suspension =
      suspensionValue === undefined
        ? undefined
        : copyJson(expectObject(suspensionValue, 'suspension', 'an object'), 'suspension', new Set());
    const extras: Record<string, JsonValue> = {};
    for (const key of presentKeys(root)) {
      if (!TOP_LEVEL_FIELDS.includes(key)) setOwn(extras, key, copyJson(root[key], memberPath(ROOT_PATH, key), new Set()));
    }
    return reorder({ ...extras, format: ASSEMBLY_FORMAT, name, units, parts, mates, state, held, suspension, gravity, forces }, root);
  }

  private checkFormat(format: unknown): void {
    if (format === undefined) fail('format', `missing; expected "${ASSEMBLY_FORMAT}"`);
    if (format !== ASSEMBLY_FORMAT) {
      const got = typeof format === 'string' ? `unsupported format ${quote(format)}` : `got ${describe(format)}`;
      fail('format', `${got}; expected "${ASSEMBLY_FORMAT}"`);
    }
  }

  // ---- parts and entities ----

  private checkParts(value: unknown): Record<string, PartDoc> {
    const parts = expectObject(value, 'parts', 'an object of parts');
    const result: Record<string, PartDoc> = {};
    for (const id of presentKeys(parts)) {
      const path = memberPath('parts', id);
      checkId(id, path, 'part');
      setOwn(result, id, this.checkPart(id, parts[id], path));
    }
    return result;
  }

  private checkPart(id: string, value: unknown, path: string): PartDoc {
    const part = expectObject(value, path, 'a part object');
    checkFields(part, path, PART_FIELDS, 'a part');
    const fixed = optionalBoolean(member(part, 'fixed'), memberPath(path, 'fixed'));
    const pose = checkPose(required(part, 'pose', path, 'every part needs a pose'), memberPath(path, 'pose'));
    const names = new Map<string, EntityKind>();
    this.entities.set(id, names);
    const groups: Partial<Record<EntityGroup, Record<string, unknown>>> = {};
    for (const key of presentKeys(part)) {
      if (!Object.hasOwn(ENTITY_GROUPS, key)) continue;
      const group = key as EntityGroup;
      const kind = ENTITY_GROUPS[group];
      const groupPath = memberPath(path, group);
      const entries = expectObject(part[group], groupPath, `an object of ${group}`);
      const checked: Record<string, unknown> = {};
      for (const name of presentKeys(entries)) {
        const entityPath = memberPath(groupPath, name);
        checkId(name, entityPath, 'entity');
        const earlier = names.get(name);
        if (earlier !== undefined) {
          const already = `part "${id}" already has ${article(earlier)} ${earlier} named "${name}"`;
          fail(entityPath, `${already}; entity names must be unique within a part`);
        }
        names.set(name, kind);
        setOwn(checked, name, checkEntity(kind, entries[name], entityPath));
      }
      groups[group] = checked;
    }
    // The group records were filled by checkEntity for the matching kind; the cast only restores that link.
    const typedGroups = groups as Pick<PartDoc, EntityGroup>;
    const massValue = member(part, 'mass');
    const mass = massValue === undefined ? undefined : checkMass(massValue, memberPath(path, 'mass'));
    const geometryValue = member(part, 'geometry');
    // only the shape is checked here: the files are read lazily (src/assembly/geometry/load.ts)
    const geometry = geometryValue === undefined ? undefined : checkGeometryList(geometryValue, memberPath(path, 'geometry'), fail);
    return reorder({ fixed, pose, ...typedGroups, mass, geometry }, part);
  }

  // ---- mates ----

  private checkMates(value: unknown): Record<string, MateDoc> {
    const mates = expectObject(value, 'mates', 'an object of mates');
    // Types first, for every mate: a coupling may name a coordinate of a mate written after it.
    const typed: { id: string; mate: RawObject; type: MateType }[] = [];
    for (const id of presentKeys(mates)) {
      const path = memberPath('mates', id);
      checkId(id, path, 'mate');
      if (this.entities.has(id)) fail(path, `id "${id}" is already used by a part; part and mate ids must differ`);
      const mate = expectObject(mates[id], path, 'a mate object');
      const type = checkMateType(member(mate, 'type'), memberPath(path, 'type'));
      this.mateTypes.set(id, type);
      typed.push({ id, mate, type });
    }
    const result: Record<string, MateDoc> = {};
    for (const { id, mate, type } of typed) setOwn(result, id, this.checkMate(type, mate, memberPath('mates', id)));
    return result;
  }

  private checkMate(type: MateType, mate: RawObject, path: string): MateDoc {
    switch (type) {
      case 'distance':
      case 'angle': {
        checkFields(mate, path, ['type', 'a', 'b', 'value', 'flip'], `${article(type)} ${type} mate`);
        const [a, b] = this.checkEntityPair(type, mate, path);
        const valuePath = memberPath(path, 'value');
        const value = expectNumber(required(mate, 'value', path, `${article(type)} ${type} mate needs a value`), valuePath);
        // Point–plane distance is signed along the normal; to a point or a line it is not.
        if (type === 'distance' && value < 0 && a.kind !== 'plane' && b.kind !== 'plane') {
          fail(valuePath, `a ${a.kind}–${b.kind} distance cannot be negative, got ${value}`);
        }
        const flip = optionalBoolean(member(mate, 'flip'), memberPath(path, 'flip'));
        return reorder({ type, a: a.ref, b: b.ref, value, flip }, mate);
      }
      case 'coincident':
      case 'concentric':
      case 'parallel':
      case 'perpendicular':
      case 'tangent':
      case 'path': {
        checkFields(mate, path, ['type', 'a', 'b', 'flip'], `${article(type)} ${type} mate`);
        const [a, b] = this.checkEntityPair(type, mate, path);
        const flip = optionalBoolean(member(mate, 'flip'), memberPath(path, 'flip'));
        return reorder({ type, a: a.ref, b: b.ref, flip }, mate);
      }
      case 'rolling': {
        checkFields(mate, path, ['type', 'a', 'b'], 'a rolling mate');
        const [a, b] = this.checkEntityPair(type, mate, path);
        return reorder({ type, a: a.ref, b: b.ref }, mate);
      }
      case 'gear':
      case 'belt':
      case 'linear':
      case 'rackpinion':
      case 'screw':
        return this.checkCoupling(type, mate, path);
      default:
        return this.checkJoint(type, mate, path);
    }
  }

  private checkJoint(type: JointType, mate: RawObject, path: string): JointMateDoc {
    checkFields(mate, path, ['type', 'a', 'b', 'limits'], `a ${type} joint`);
    const [a, b] = this.checkEntityPair(type, mate, path);
    const limitsValue = member(mate, 'limits');
    const limits = limitsValue === undefined ? undefined : checkLimits(type, limitsValue, memberPath(path, 'limits'));
    return reorder({ type, a: a.ref, b: b.ref, limits }, mate);
  }

  private checkCoupling(type: CouplingType, mate: RawObject, path: string): CouplingMateDoc {
    const parameter = COUPLING_PARAMETER[type];
    const what = `${article(type)} ${type} coupling`;
    checkFields(mate, path, ['type', 'a', 'b', parameter, 'offset'], what);
    const aPath = memberPath(path, 'a');
    const bPath = memberPath(path, 'b');
    const a = this.checkCoordinate(required(mate, 'a', path), aPath);
    const b = this.checkCoordinate(required(mate, 'b', path), bPath);
    if (a.ref === b.ref) fail(bPath, `a and b are the same coordinate "${a.ref}"`);
    if (type === 'gear' || type === 'belt') {
      for (const [coordinate, at] of [[a, aPath], [b, bPath]] as const) {
        if (coordinate.name !== 'angle') {
          fail(at, `${what} couples two angles; "${coordinate.ref}" is ${coordinateNoun(coordinate.name)}`);
        }
      }
    } else if (type === 'rackpinion' || type === 'screw') {
      for (const [coordinate, at] of [[a, aPath], [b, bPath]] as const) {
        if (coordinate.name === 'u') {
          fail(at, `${what} couples an angle with a slide; "${coordinate.ref}" is ${coordinateNoun('u')}`);
        }
      }
      if ((a.name === 'angle') === (b.name === 'angle')) {
        const which = a.name === 'angle' ? 'both are angles' : 'neither is an angle';
        fail(bPath, `${what} couples an angle with a slide; ${which}`);
      }
    }
    const parameterPath = memberPath(path, parameter);
    const constant = expectNumber(required(mate, parameter, path, `${what} needs a ${parameter}`), parameterPath);
    if (parameter === 'radius' && !(constant > 0)) fail(parameterPath, `radius must be positive, got ${constant}`);
    if (parameter === 'lead' && constant === 0) fail(parameterPath, 'lead must not be zero');
    const offsetValue = member(mate, 'offset');
    const offset = offsetValue === undefined ? undefined : expectNumber(offsetValue, memberPath(path, 'offset'));
    switch (type) {
      case 'rackpinion':
        return reorder({ type, a: a.ref, b: b.ref, radius: constant, offset }, mate);
      case 'screw':
        return reorder({ type, a: a.ref, b: b.ref, lead: constant, offset }, mate);
      default:
        return reorder({ type, a: a.ref, b: b.ref, ratio: constant, offset }, mate);
    }
  }

  /** Resolves `a` and `b` and checks they are on two parts, of kinds the mate joins. */
  private checkEntityPair(type: ConstraintType | JointType | ContactType, mate: RawObject, path: string): [EntityRef, EntityRef] {
    const aPath = memberPath(path, 'a');
    const bPath = memberPath(path, 'b');
    const a = this.checkEntityRef(required(mate, 'a', path), aPath);
    const b = this.checkEntityRef(required(mate, 'b', path), bPath);
    const rule = ENTITY_RULES[type];
    const noun = `${article(type)} ${type} ${(JOINT_TYPES as readonly string[]).includes(type) ? 'joint' : 'mate'}`;
    for (const [entity, at] of [[a, aPath], [b, bPath]] as const) {
      if (!rule.kinds.includes(entity.kind)) {
        fail(at, `${noun} joins ${rule.wording}; "${entity.ref}" is ${article(entity.kind)} ${entity.kind}`);
      }
    }
    if (!mateJoins(type, a.kind, b.kind)) fail(bPath, `${noun} joins ${rule.wording}, not ${a.kind}–${b.kind}`);
    if (a.part === b.part) fail(bPath, `a and b are both on part "${a.part}"; a mate joins two different parts`);
    return [a, b];
  }

  private checkEntityRef(value: unknown, path: string): EntityRef {
    if (typeof value !== 'string') fail(path, `expected a reference "part.entity", got ${describe(value)}`);
    const split = splitReference(value);
    if (split === undefined) fail(path, `${quote(value)} is not a reference; expected "part.entity"`);
    const names = this.entities.get(split.owner);
    if (names === undefined) {
      fail(path, this.mateTypes.has(split.owner) ? `"${split.owner}" is a mate, not a part` : `no part "${split.owner}"`);
    }
    const kind = names.get(split.name);
    if (kind === undefined) fail(path, `no entity "${split.name}" on part "${split.owner}"`);
    return { ref: value, part: split.owner, kind };
  }

  /** Resolves `mate.coordinate` to a coordinate that mate frees. */
  private checkCoordinate(value: unknown, path: string): CoordinateRef {
    if (typeof value !== 'string') fail(path, `expected a coordinate "mate.coordinate", got ${describe(value)}`);
    const split = splitReference(value);
    if (split === undefined) fail(path, `${quote(value)} is not a coordinate; expected "mate.coordinate", e.g. "jA.angle"`);
    const type = this.mateTypes.get(split.owner);
    if (type === undefined) {
      fail(path, this.entities.has(split.owner) ? `"${split.owner}" is a part, not a mate` : `no mate "${split.owner}"`);
    }
    const freed = coordinatesOfMate({ type });
    const name = freed.find((coordinate) => coordinate === split.name);
    if (name === undefined) {
      fail(
        path,
        freed.length === 0
          ? `mate "${split.owner}" (${type}) frees no coordinates`
          : `mate "${split.owner}" (${type}) has no coordinate "${split.name}"; it frees ${freed.join(', ')}`,
      );
    }
    return { ref: value, name };
  }

  // ---- state and held ----

  private checkState(value: unknown): Record<string, number | PoseDoc> {
    const state = expectObject(value, 'state', 'an object of coordinate values and part poses');
    const result: Record<string, number | PoseDoc> = {};
    for (const key of presentKeys(state)) {
      const path = memberPath('state', key);
      const split = splitReference(key);
      if (split !== undefined && this.entities.has(split.owner)) {
        if (split.name !== 'pose') {
          fail(path, `"${key}" names part "${split.owner}"; a part's state entry is "${split.owner}.pose"`);
        }
        setOwn(result, key, checkPose(state[key], path));
      } else if (split !== undefined && this.mateTypes.has(split.owner)) {
        this.checkCoordinate(key, path);
        setOwn(result, key, expectNumber(state[key], path));
      } else {
        fail(path, `"${key}" is neither a coordinate ("mate.angle") nor a part pose ("part.pose")`);
      }
    }
    return result;
  }

  private checkHeld(value: unknown): string[] {
    if (!Array.isArray(value)) fail('held', `expected an array of coordinates, got ${describe(value)}`);
    const items: readonly unknown[] = value;
    const held: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const path = itemPath('held', i);
      const { ref } = this.checkCoordinate(items[i], path);
      if (held.includes(ref)) fail(path, `"${ref}" is already held`);
      held.push(ref);
    }
    return held;
  }
}
