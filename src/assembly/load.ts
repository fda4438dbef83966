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
import { MAX_JSON_DEPTH, parseJson, setOwn, type JsonValue } from './json.ts';
import {
  ASSEMBLY_FORMAT,
  CONSTRAINT_TYPES,
  CONTACT_TYPES,
  COUPLING_TYPES,
  ENTITY_GROUPS,
  JOINT_TYPES,
  coordinatesOfMate,
  splitReference,
  type AssemblyDoc,
  type AxisDoc,
  type CircleDoc,
  type ConstraintType,
  type ContactType,
  type CoordinateName,
  type CouplingMateDoc,
  type CouplingType,
  type CurveDoc,
  type EntityGroup,
  type EntityKind,
  type FrameDoc,
  type JointMateDoc,
  type JointType,
  type LimitsDoc,
  type MateDoc,
  type MateType,
  type PartDoc,
  type PlaneDoc,
  type PoseDoc,
  type QuatDoc,
  type RangeDoc,
  type Vec3Doc,
  FORCE_TYPES,
  type CurveTableDoc,
  type ForceDoc,
  type MassDoc,
  type ScaleDoc,
  type SpringFieldsDoc,
} from './types.ts';
import { applyPoint, pose as makePose } from '../../kernel/pose';
import { ENTITY_RULES, mateJoins } from '../../mates/vocabulary.ts';
import { checkGeometryList } from './geometry/doc.ts';

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

type RawObject = Readonly<Record<string, unknown>>;

const TOP_LEVEL_FIELDS = ['format', 'name', 'units', 'parts', 'mates', 'state', 'held', 'suspension', 'gravity', 'forces'];
const PART_FIELDS = ['fixed', 'pose', ...Object.keys(ENTITY_GROUPS), 'mass', 'geometry'];
const MATE_TYPES: readonly string[] = [...CONSTRAINT_TYPES, ...JOINT_TYPES, ...COUPLING_TYPES, ...CONTACT_TYPES];

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

interface EntityRef {
  readonly ref: string;
  readonly part: string;
  readonly kind: EntityKind;
}

interface CoordinateRef {
  readonly ref: string;
  readonly name: CoordinateName;
}

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
    const forces = forcesValue === undefined ? undefined : this.checkForces(forcesValue, parts, state);
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

  // ---- force elements (dynamics.md) ----

  private checkForces(value: unknown, parts: Readonly<Record<string, PartDoc>>, state: Readonly<Record<string, number | PoseDoc>>): Record<string, ForceDoc> {
    const forces = expectObject(value, 'forces', 'an object of force elements');
    const result: Record<string, ForceDoc> = {};
    for (const id of presentKeys(forces)) {
      const path = memberPath('forces', id);
      checkId(id, path, 'force element');
      setOwn(result, id, this.checkForce(expectObject(forces[id], path, 'a force element object'), path, parts, state));
    }
    return result;
  }

  private checkForce(element: RawObject, path: string, parts: Readonly<Record<string, PartDoc>>, state: Readonly<Record<string, number | PoseDoc>>): ForceDoc {
    const typePath = memberPath(path, 'type');
    const type = member(element, 'type');
    if (type === undefined) fail(typePath, 'missing; every force element needs a type');
    const known = FORCE_TYPES.find((t) => t === type);
    if (known === undefined) fail(typePath, `unknown force element type ${typeof type === 'string' ? quote(type) : describe(type)}; expected one of ${FORCE_TYPES.join(', ')}`);
    const num = (key: string, options: { required?: boolean; min?: number; positive?: boolean } = {}): number | undefined => {
      const v = member(element, key);
      if (v === undefined) {
        if (options.required) fail(memberPath(path, key), `missing; ${article(known)} ${known} needs ${key}`);
        return undefined;
      }
      const x = expectNumber(v, memberPath(path, key));
      if (options.positive && !(x > 0)) fail(memberPath(path, key), `${key} must be positive, got ${x}`);
      if (options.min !== undefined && x < options.min) fail(memberPath(path, key), `${key} must not be negative, got ${x}`);
      return x;
    };
    const vec = (key: string, required: boolean, nonNegative: boolean): Vec3Doc | undefined => {
      const v = member(element, key);
      if (v === undefined) {
        if (required) fail(memberPath(path, key), `missing; ${article(known)} ${known} needs ${key} [x, y, z]`);
        return undefined;
      }
      const x = expectVec3(v, memberPath(path, key));
      if (nonNegative) x.forEach((c, i) => { if (c < 0) fail(itemPath(memberPath(path, key), i), `${key} must not be negative, got ${c}`); });
      return x;
    };
    const entity = (key: string, kind: EntityKind): string => {
      const ref = this.checkEntityRef(required(element, key, path), memberPath(path, key));
      if (ref.kind !== kind) fail(memberPath(path, key), `${article(known)} ${known} needs ${article(kind)} ${kind} here; "${ref.ref}" is ${article(ref.kind)} ${ref.kind}`);
      return ref.ref;
    };
    const frame = (): 'world' | 'part' | undefined => {
      const v = member(element, 'frame');
      if (v === undefined || v === 'world' || v === 'part') return v;
      return fail(memberPath(path, 'frame'), `expected "world" or "part", got ${describe(v)}`);
    };
    const scale = (): ScaleDoc | undefined => {
      const v = member(element, 'scale');
      return v === undefined ? undefined : checkScale(v, memberPath(path, 'scale'));
    };
    const curve = (key: string): CurveTableDoc | undefined => {
      const v = member(element, key);
      return v === undefined ? undefined : checkTable(v, memberPath(path, key), true);
    };
    const springFields = (what: string): SpringFieldsDoc => {
      const stiffness = num('stiffness', { min: 0 });
      const length = num('length', { min: 0 });
      const preload = num('preload');
      const law = curve('curve');
      if (law !== undefined && (stiffness !== undefined || length !== undefined || preload !== undefined)) {
        fail(memberPath(path, 'curve'), `${what} takes either curve or stiffness and length, not both`);
      }
      if (law === undefined) {
        if (stiffness === undefined) fail(memberPath(path, 'stiffness'), `missing; ${what} needs stiffness and length, or a curve`);
        if (length === undefined) fail(memberPath(path, 'length'), `missing; ${what} needs its free length`);
      }
      return { stiffness, length, preload, curve: law };
    };
    const twoPoints = (): { a: string; b: string } => {
      const a = entity('a', 'point'), b = entity('b', 'point');
      const pa = worldPoint(parts, state, a), pb = worldPoint(parts, state, b);
      if (Math.hypot(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]) === 0) {
        fail(memberPath(path, 'b'), `"${a}" and "${b}" coincide at the file's pose: the ${known}'s axis has no direction`);
      }
      return { a, b };
    };
    switch (known) {
      case 'spring': {
        checkFields(element, path, ['type', 'a', 'b', 'stiffness', 'length', 'preload', 'curve'], 'a spring');
        const ends = twoPoints();
        return reorder<ForceDoc>({ type: known, ...ends, ...springFields('a spring') }, element);
      }
      case 'damper': {
        checkFields(element, path, ['type', 'a', 'b', 'damping', 'curve'], 'a damper');
        const ends = twoPoints();
        const damping = num('damping', { min: 0 });
        const law = curve('curve');
        if ((damping === undefined) === (law === undefined)) fail(memberPath(path, 'damping'), 'a damper needs either damping or a curve');
        return reorder<ForceDoc>({ type: known, ...ends, damping, curve: law }, element);
      }
      case 'springdamper': {
        checkFields(element, path, ['type', 'a', 'b', 'stiffness', 'length', 'preload', 'curve', 'damping', 'damping_curve'], 'a springdamper');
        const ends = twoPoints();
        const spring = springFields('a springdamper');
        const damping = num('damping', { min: 0 });
        const law = curve('damping_curve');
        if ((damping === undefined) === (law === undefined)) fail(memberPath(path, 'damping'), 'a springdamper needs either damping or a damping_curve');
        return reorder<ForceDoc>({ type: known, ...ends, ...spring, damping, damping_curve: law }, element);
      }
      case 'bushing': {
        checkFields(element, path, ['type', 'a', 'b', 'stiffness', 'rotational_stiffness', 'damping', 'rotational_damping'], 'a bushing');
        const a = entity('a', 'frame'), b = entity('b', 'frame');
        if (splitReference(a)!.owner === splitReference(b)!.owner) fail(memberPath(path, 'b'), 'a and b are on the same part; a bushing joins two parts');
        return reorder<ForceDoc>({
          type: known, a, b, stiffness: vec('stiffness', true, true)!, rotational_stiffness: vec('rotational_stiffness', true, true)!,
          damping: vec('damping', false, true), rotational_damping: vec('rotational_damping', false, true),
        }, element);
      }
      case 'coordinate_spring': {
        checkFields(element, path, ['type', 'coordinate', 'stiffness', 'free', 'damping'], 'a coordinate_spring');
        const { ref } = this.checkCoordinate(required(element, 'coordinate', path), memberPath(path, 'coordinate'));
        return reorder<ForceDoc>({
          type: known, coordinate: ref, stiffness: num('stiffness', { required: true, min: 0 })!, free: num('free', { required: true })!, damping: num('damping', { min: 0 }),
        }, element);
      }
      case 'force': {
        checkFields(element, path, ['type', 'at', 'vector', 'frame', 'scale'], 'a force');
        return reorder<ForceDoc>({ type: known, at: entity('at', 'point'), vector: vec('vector', true, false)!, frame: frame(), scale: scale() }, element);
      }
      case 'torque': {
        checkFields(element, path, ['type', 'part', 'vector', 'frame', 'scale'], 'a torque');
        const partPath = memberPath(path, 'part');
        const part = required(element, 'part', path);
        if (typeof part !== 'string' || !this.entities.has(part)) fail(partPath, typeof part === 'string' ? `no part "${part}"` : `expected a part id, got ${describe(part)}`);
        return reorder<ForceDoc>({ type: known, part, vector: vec('vector', true, false)!, frame: frame(), scale: scale() }, element);
      }
      case 'drag': {
        checkFields(element, path, ['type', 'at', 'cd', 'area', 'density'], 'a drag');
        return reorder<ForceDoc>({
          type: known, at: entity('at', 'point'), cd: num('cd', { required: true, min: 0 })!, area: num('area', { required: true, min: 0 })!, density: num('density', { min: 0 }),
        }, element);
      }
      case 'coordinate_friction': {
        checkFields(element, path, ['type', 'coordinate', 'force', 'regularization'], 'a coordinate_friction');
        const { ref } = this.checkCoordinate(required(element, 'coordinate', path), memberPath(path, 'coordinate'));
        return reorder<ForceDoc>({
          type: known, coordinate: ref, force: num('force', { required: true, min: 0 })!, regularization: num('regularization', { positive: true }),
        }, element);
      }
      case 'tyre': {
        checkFields(element, path, ['type', 'centre', 'axis', 'radius', 'stiffness', 'damping', 'ground', 'road'], 'a tyre');
        const centre = entity('centre', 'point'), axis = entity('axis', 'axis');
        if (splitReference(centre)!.owner !== splitReference(axis)!.owner) fail(memberPath(path, 'axis'), `the axis must be on the wheel's part "${splitReference(centre)!.owner}"`);
        const road = member(element, 'road') === undefined ? undefined : entity('road', 'point');
        if (road !== undefined && splitReference(road)!.owner === splitReference(centre)!.owner) fail(memberPath(path, 'road'), 'the road must be a point of another part than the wheel');
        return reorder<ForceDoc>({
          type: known, centre, axis, radius: num('radius', { required: true, positive: true })!, stiffness: num('stiffness', { required: true, min: 0 })!,
          damping: num('damping', { min: 0 }), ground: num('ground'), road,
        }, element);
      }
    }
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

// ---- entities, poses, numbers ----

function checkEntity(kind: EntityKind, value: unknown, path: string): unknown {
  switch (kind) {
    case 'point':
      return expectVec3(value, path);
    case 'frame': {
      const frame = expectObject(value, path, 'a frame { origin, rotation }');
      checkFields(frame, path, ['origin', 'rotation'], 'a frame');
      const origin = expectVec3(required(frame, 'origin', path), memberPath(path, 'origin'));
      const rotation = expectRotation(required(frame, 'rotation', path), memberPath(path, 'rotation'));
      return reorder<FrameDoc>({ origin, rotation }, frame);
    }
    case 'axis': {
      const axis = expectObject(value, path, 'an axis { origin, direction }');
      checkFields(axis, path, ['origin', 'direction'], 'an axis');
      const origin = expectVec3(required(axis, 'origin', path), memberPath(path, 'origin'));
      const direction = expectDirection(required(axis, 'direction', path), memberPath(path, 'direction'));
      return reorder<AxisDoc>({ origin, direction }, axis);
    }
    case 'plane': {
      const plane = expectObject(value, path, 'a plane { origin, normal }');
      checkFields(plane, path, ['origin', 'normal'], 'a plane');
      const origin = expectVec3(required(plane, 'origin', path), memberPath(path, 'origin'));
      const normal = expectDirection(required(plane, 'normal', path), memberPath(path, 'normal'));
      return reorder<PlaneDoc>({ origin, normal }, plane);
    }
    case 'circle': {
      const circle = expectObject(value, path, 'a circle { center, normal, radius }');
      checkFields(circle, path, ['center', 'normal', 'radius'], 'a circle');
      const center = expectVec3(required(circle, 'center', path), memberPath(path, 'center'));
      const normal = expectDirection(required(circle, 'normal', path), memberPath(path, 'normal'));
      const radiusPath = memberPath(path, 'radius');
      const radius = expectNumber(required(circle, 'radius', path), radiusPath);
      if (!(radius > 0)) fail(radiusPath, `radius must be positive, got ${radius}`);
      return reorder<CircleDoc>({ center, normal, radius }, circle);
    }
    case 'curve': {
      const curve = expectObject(value, path, 'a curve { polyline, closed, smooth }');
      checkFields(curve, path, ['polyline', 'closed', 'smooth'], 'a curve');
      const polylinePath = memberPath(path, 'polyline');
      const points = required(curve, 'polyline', path);
      if (!Array.isArray(points)) fail(polylinePath, `expected an array of [x, y, z] points, got ${describe(points)}`);
      const items: readonly unknown[] = points;
      if (items.length < 2) fail(polylinePath, `a polyline needs at least 2 points, got ${items.length}`);
      const polyline: Vec3Doc[] = [];
      for (let i = 0; i < items.length; i++) polyline.push(expectVec3(items[i], itemPath(polylinePath, i)));
      const closed = optionalBoolean(member(curve, 'closed'), memberPath(path, 'closed'));
      const smooth = optionalBoolean(member(curve, 'smooth'), memberPath(path, 'smooth'));
      return reorder<CurveDoc>({ polyline, closed, smooth }, curve);
    }
  }
}

function checkPose(value: unknown, path: string): PoseDoc {
  const pose = expectObject(value, path, 'a pose { position, rotation }');
  checkFields(pose, path, ['position', 'rotation'], 'a pose');
  const position = expectVec3(required(pose, 'position', path), memberPath(path, 'position'));
  const rotation = expectRotation(required(pose, 'rotation', path), memberPath(path, 'rotation'));
  return reorder({ position, rotation }, pose);
}

function checkUnits(value: unknown): AssemblyDoc['units'] {
  if (value === undefined) fail('units', 'missing; expected { "length": "mm", "angle": "deg" }');
  const units = expectObject(value, 'units', 'an object { length, angle }');
  checkFields(units, 'units', ['length', 'angle', 'mass', 'time', 'force'], 'units');
  const length = required(units, 'length', 'units', 'expected "mm"');
  if (length !== 'mm') {
    const got =
      typeof length === 'string'
        ? `unsupported length unit ${quote(length)}`
        : `expected a length unit, got ${describe(length)}`;
    fail('units.length', `${got}; only "mm" is supported`);
  }
  const angle = required(units, 'angle', 'units', 'expected "deg" or "rad"');
  if (angle !== 'deg' && angle !== 'rad') {
    const got =
      typeof angle === 'string' ? `unsupported angle unit ${quote(angle)}` : `expected an angle unit, got ${describe(angle)}`;
    fail('units.angle', `${got}; expected "deg" or "rad"`);
  }
  // Mass, time and force units may be stated, but only as the defaults (dynamics.md).
  const fixedUnits = { mass: 'kg', time: 's', force: 'N' } as const;
  const stated: { mass?: 'kg'; time?: 's'; force?: 'N' } = {};
  for (const key of ['mass', 'time', 'force'] as const) {
    const value = member(units, key);
    if (value === undefined) continue;
    if (value !== fixedUnits[key]) fail(memberPath('units', key), `expected "${fixedUnits[key]}" (the only ${key} unit), got ${describe(value)}`);
    setOwn(stated, key, value);
  }
  return reorder({ length, angle, ...stated }, units);
}

function checkMateType(value: unknown, path: string): MateType {
  if (value === undefined) fail(path, 'missing; every mate needs a type');
  if (typeof value !== 'string') fail(path, `expected a mate type, got ${describe(value)}`);
  const type = MATE_TYPES.find((known) => known === value);
  if (type === undefined) fail(path, `unknown mate type ${quote(value)}; expected one of ${MATE_TYPES.join(', ')}`);
  // MATE_TYPES is exactly the union's members, widened to string[] only for the lookup.
  return type as MateType;
}

function checkLimits(type: JointType, value: unknown, path: string): LimitsDoc {
  const limits = expectObject(value, path, 'an object of [lower, upper] ranges');
  const freed = coordinatesOfMate({ type });
  const result: Record<string, RangeDoc> = {};
  for (const key of presentKeys(limits)) {
    const limitPath = memberPath(path, key);
    if (!(freed as readonly string[]).includes(key)) {
      const has = freed.length === 0 ? 'it has no coordinates' : `its coordinates are ${freed.join(', ')}`;
      fail(limitPath, `${article(type)} ${type} joint has no ${key} coordinate; ${has}`);
    }
    const numbers = expectNumbers(limits[key], limitPath, 2, '[lower, upper]');
    const [lower, upper] = numbers;
    if (lower > upper) fail(limitPath, `lower limit ${lower} is above upper limit ${upper}`);
    setOwn(result, key, [lower, upper]);
  }
  return result;
}

function checkId(id: string, path: string, what: string): void {
  if (id === '') fail(path, `${article(what)} ${what} id must not be empty`);
  if (id.includes('.')) {
    fail(path, `${what} id "${id}" must not contain "." (it separates the halves of "part.entity" and "mate.coordinate")`);
  }
}

function expectNumber(value: unknown, path: string): number {
  if (typeof value !== 'number') fail(path, `expected a number, got ${describe(value)}`);
  if (!Number.isFinite(value)) fail(path, `expected a finite number, got ${describe(value)}`);
  return value;
}

function expectNumbers(value: unknown, path: string, count: number, shape: string): number[] {
  if (!Array.isArray(value)) fail(path, `expected ${shape}, got ${describe(value)}`);
  const items: readonly unknown[] = value;
  if (items.length !== count) fail(path, `expected ${count} numbers ${shape}, got ${items.length}`);
  const numbers: number[] = [];
  // An index loop, not map: map would skip the holes of a sparse array.
  for (let i = 0; i < count; i++) numbers.push(expectNumber(items[i], itemPath(path, i)));
  return numbers;
}

function expectVec3(value: unknown, path: string): Vec3Doc {
  const [x, y, z] = expectNumbers(value, path, 3, '[x, y, z]');
  return [x, y, z];
}

function expectDirection(value: unknown, path: string): Vec3Doc {
  const vector = expectVec3(value, path);
  // hypot is zero only when every component is ±0; tiny vectors still have a direction.
  if (Math.hypot(...vector) === 0) fail(path, `[${vector.join(', ')}] has zero length; a direction must be non-zero`);
  return vector;
}

function expectRotation(value: unknown, path: string): QuatDoc {
  const [w, x, y, z] = expectNumbers(value, path, 4, '[w, x, y, z]');
  if (Math.hypot(w, x, y, z) === 0) {
    fail(path, `quaternion [${[w, x, y, z].join(', ')}] has zero length; a rotation must be non-zero`);
  }
  return [w, x, y, z];
}

function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  return fail(path, `expected true or false, got ${describe(value)}`);
}

function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return fail(path, `expected a string, got ${describe(value)}`);
}

// ---- mass and force-element values (dynamics.md) ----

function checkMass(value: unknown, path: string): MassDoc {
  const object = expectObject(value, path, 'mass properties { mass, centre, inertia }');
  checkFields(object, path, ['mass', 'centre', 'inertia'], 'mass properties');
  const massPath = memberPath(path, 'mass');
  const mass = expectNumber(required(object, 'mass', path, 'the mass in kg'), massPath);
  if (!(mass > 0)) fail(massPath, `mass must be positive (kg), got ${mass}; leave "mass" out for a massless part`);
  const centre = expectVec3(required(object, 'centre', path, 'the centre of mass [x, y, z] in the part\'s frame'), memberPath(path, 'centre'));
  const inertiaPath = memberPath(path, 'inertia');
  const rows = required(object, 'inertia', path, 'a 3×3 inertia tensor in kg·mm²');
  if (!Array.isArray(rows) || rows.length !== 3) fail(inertiaPath, `expected a 3×3 matrix [[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]], got ${describe(rows)}`);
  const I = [0, 1, 2].map((i) => expectVec3((rows as unknown[])[i], itemPath(inertiaPath, i))) as [Vec3Doc, Vec3Doc, Vec3Doc];
  const scale = Math.max(...I.flat().map(Math.abs));
  for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) {
    if (Math.abs(I[i][j] - I[j][i]) > 1e-12 * scale) fail(itemPath(itemPath(inertiaPath, i), j), `the inertia tensor is not symmetric: [${i}][${j}] = ${I[i][j]} but [${j}][${i}] = ${I[j][i]}`);
  }
  const [a, b, c] = symmetricEigenvalues3(I);
  const tol = 1e-9 * scale;
  if (a < -tol) fail(inertiaPath, `the inertia tensor is not positive semi-definite (principal moment ${a})`);
  if (c > a + b + tol) fail(inertiaPath, `the principal moments ${a}, ${b}, ${c} break the triangle inequality (${c} > ${a} + ${b}): no body has this inertia`);
  return reorder({ mass, centre, inertia: I }, object);
}

/** Eigenvalues of a symmetric 3×3 matrix, ascending (the trigonometric closed form). */
export function symmetricEigenvalues3(A: readonly (readonly number[])[]): [number, number, number] {
  const p1 = A[0][1] ** 2 + A[0][2] ** 2 + A[1][2] ** 2;
  const q = (A[0][0] + A[1][1] + A[2][2]) / 3;
  if (p1 === 0) return [A[0][0], A[1][1], A[2][2]].sort((x, y) => x - y) as [number, number, number];
  const p2 = (A[0][0] - q) ** 2 + (A[1][1] - q) ** 2 + (A[2][2] - q) ** 2 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  const B = A.map((row, i) => row.map((x, j) => (x - (i === j ? q : 0)) / p));
  const detB = B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1]) - B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0]) + B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0]);
  const r = Math.max(-1, Math.min(1, detB / 2));
  const phi = Math.acos(r) / 3;
  const e1 = q + 2 * p * Math.cos(phi), e3 = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  return [e3, 3 * q - e1 - e3, e1];
}

/** A piecewise-linear table [[x, y], …]: at least two rows, x strictly increasing. */
function checkTable(value: unknown, path: string, strictlyIncreasing: boolean): CurveTableDoc {
  if (!Array.isArray(value)) fail(path, `expected a table [[x, y], …], got ${describe(value)}`);
  const items: readonly unknown[] = value;
  if (items.length < 2) fail(path, `a table needs at least 2 rows, got ${items.length}`);
  const rows: (readonly [number, number])[] = [];
  for (let i = 0; i < items.length; i++) {
    const [x, y] = expectNumbers(items[i], itemPath(path, i), 2, '[x, y]');
    if (i > 0 && strictlyIncreasing && !(x > rows[i - 1][0])) fail(itemPath(itemPath(path, i), 0), `the first column must increase strictly, got ${x} after ${rows[i - 1][0]}`);
    rows.push([x, y]);
  }
  return rows;
}

function checkScale(value: unknown, path: string): ScaleDoc {
  const object = expectObject(value, path, 'a scale { table } or { sine }');
  checkFields(object, path, ['table', 'sine'], 'a scale');
  const table = member(object, 'table'), sine = member(object, 'sine');
  if ((table === undefined) === (sine === undefined)) fail(path, 'a scale is either { "table": … } or { "sine": … }');
  if (table !== undefined) return { table: checkTable(table, memberPath(path, 'table'), true) };
  const sinePath = memberPath(path, 'sine');
  const s = expectObject(sine, sinePath, 'a sine { amplitude, frequency, phase, offset }');
  checkFields(s, sinePath, ['amplitude', 'frequency', 'phase', 'offset'], 'a sine');
  const amplitude = expectNumber(required(s, 'amplitude', sinePath), memberPath(sinePath, 'amplitude'));
  const frequency = expectNumber(required(s, 'frequency', sinePath), memberPath(sinePath, 'frequency'));
  const phaseValue = member(s, 'phase'), offsetValue = member(s, 'offset');
  const phase = phaseValue === undefined ? undefined : expectNumber(phaseValue, memberPath(sinePath, 'phase'));
  const offset = offsetValue === undefined ? undefined : expectNumber(offsetValue, memberPath(sinePath, 'offset'));
  return { sine: reorder({ amplitude, frequency, phase, offset }, s) };
}

/** A point's world position at the file's pose (`state["part.pose"]` where given, else the part's pose). */
function worldPoint(parts: Readonly<Record<string, PartDoc>>, state: Readonly<Record<string, number | PoseDoc>>, ref: string): Float64Array {
  const { owner, name } = splitReference(ref)!;
  const part = parts[owner];
  const fromState = state[`${owner}.pose`];
  const pose = typeof fromState === 'object' ? fromState : part.pose;
  return applyPoint(new Float64Array(3), makePose(pose.position, pose.rotation), part.points![name]);
}

// ---- plain JSON values, kept verbatim ----

/** A checked copy of a JSON value: finite numbers only, no cycles, no exotic objects. */
function copyJson(value: unknown, path: string, ancestors: Set<object>): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return expectNumber(value, path);
  if (typeof value !== 'object') fail(path, `expected a JSON value, got ${describe(value)}`);
  if (ancestors.has(value)) fail(path, 'circular reference');
  if (ancestors.size >= MAX_JSON_DEPTH) fail(path, `nested more than ${MAX_JSON_DEPTH} levels deep`);
  ancestors.add(value);
  let copy: JsonValue;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    const array: JsonValue[] = [];
    for (let i = 0; i < items.length; i++) {
      if (items[i] === undefined) fail(itemPath(path, i), 'expected a JSON value, got nothing');
      array.push(copyJson(items[i], itemPath(path, i), ancestors));
    }
    copy = array;
  } else {
    const object = expectObject(value, path, 'a JSON value');
    const record: Record<string, JsonValue> = {};
    for (const key of presentKeys(object)) setOwn(record, key, copyJson(object[key], memberPath(path, key), ancestors));
    copy = record;
  }
  ancestors.delete(value);
  return copy;
}

// ---- small helpers ----

function fail(path: string, reason: string): never {
  throw new AssemblyError(path, reason);
}

/** A plain object from any realm: prototype null or a prototype whose own prototype is null. */
function isPlainObject(value: unknown): value is RawObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function expectObject(value: unknown, path: string, what = 'an object'): RawObject {
  if (!isPlainObject(value)) fail(path, `expected ${what}, got ${describe(value)}`);
  return value;
}

/** Own keys with a defined value: JSON cannot hold undefined, so in memory it means absent. */
function presentKeys(object: RawObject): string[] {
  return Object.keys(object).filter((key) => object[key] !== undefined);
}

/** An own member only: `obj.constructor` must not resolve to Object's. */
function member(object: RawObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function memberOr(object: RawObject, key: string, fallback: unknown): unknown {
  const value = member(object, key);
  return value === undefined ? fallback : value;
}

function required(object: RawObject, key: string, path: string, hint?: string): unknown {
  const value = member(object, key);
  if (value === undefined) fail(memberPath(path, key), hint === undefined ? 'missing' : `missing; ${hint}`);
  return value;
}

function checkFields(object: RawObject, path: string, allowed: readonly string[], what: string): void {
  for (const key of presentKeys(object)) {
    if (!allowed.includes(key)) {
      fail(memberPath(path, key), `unknown field "${key}" in ${what}; expected ${allowed.join(', ')}`);
    }
  }
}

/**
 * A copy of `value` whose keys follow `source`'s order (so a saved file keeps the
 * order it was read in), with undefined members left out.
 */
function reorder<T extends object>(value: T, source: RawObject): T {
  const remaining = new Map<string, unknown>(Object.entries(value));
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (remaining.has(key)) {
      setOwn(ordered, key, remaining.get(key));
      remaining.delete(key);
    }
  }
  for (const [key, member] of remaining) setOwn(ordered, key, member);
  for (const key of Object.keys(ordered)) if (ordered[key] === undefined) delete ordered[key];
  // Same members as `value`, only reordered (undefined ones dropped, which optional fields allow).
  return ordered as T;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${quote(value)}`;
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return isPlainObject(value) ? 'an object' : `a ${Object.prototype.toString.call(value).slice(8, -1)} object`;
    default:
      return `a ${typeof value}`;
  }
}

/** A string as JSON would write it, cut short if long. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function coordinateNoun(name: CoordinateName): string {
  return name === 'u' ? 'a path parameter' : name === 'angle' ? 'an angle' : `a ${name}`;
}
