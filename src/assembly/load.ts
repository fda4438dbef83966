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
  COUPLING_TYPES,
  ENTITY_GROUPS,
  JOINT_TYPES,
  coordinatesOfMate,
  splitReference,
  type AssemblyDoc,
  type AxisDoc,
  type CircleDoc,
  type ConstraintType,
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
} from './types.ts';

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

const TOP_LEVEL_FIELDS = ['format', 'name', 'units', 'parts', 'mates', 'state', 'held', 'suspension'];
const PART_FIELDS = ['fixed', 'pose', ...Object.keys(ENTITY_GROUPS)];
const MATE_TYPES: readonly string[] = [...CONSTRAINT_TYPES, ...JOINT_TYPES, ...COUPLING_TYPES];

/** Which entity kinds each non-coupling mate joins, and how to say so in an error. */
interface EntityRule {
  readonly allows: (a: EntityKind, b: EntityKind) => boolean;
  readonly kinds: readonly EntityKind[];
  readonly wording: string;
}

function pairsRule(pairs: readonly (readonly [EntityKind, EntityKind])[], wording: string): EntityRule {
  return {
    allows: (a, b) => pairs.some(([x, y]) => (x === a && y === b) || (x === b && y === a)),
    kinds: [...new Set(pairs.flat())],
    wording,
  };
}

function anyTwoRule(kinds: readonly EntityKind[], wording: string): EntityRule {
  return { allows: (a, b) => kinds.includes(a) && kinds.includes(b), kinds, wording };
}

const FRAMES_ONLY = anyTwoRule(['frame'], 'two frames');
const DIRECTIONAL = anyTwoRule(['axis', 'plane', 'frame'], 'axes, planes and frames');

// A joint on an axis takes the frame the catalogue derives: z along the axis, x the world
// axis it runs least along (a tie-break noise cannot flip), so both ends agree.
const FRAMES_OR_AXES = anyTwoRule(['frame', 'axis'], 'frames or axes');

const ENTITY_RULES: Readonly<Record<ConstraintType | JointType, EntityRule>> = {
  coincident: pairsRule(
    [['point', 'point'], ['point', 'plane'], ['point', 'axis'], ['axis', 'axis'], ['plane', 'plane']],
    'point–point, point–plane, point–axis, axis–axis or plane–plane',
  ),
  concentric: anyTwoRule(['axis', 'circle', 'frame'], 'axes, circles and frames'),
  parallel: DIRECTIONAL,
  perpendicular: DIRECTIONAL,
  angle: DIRECTIONAL,
  distance: pairsRule(
    [['point', 'point'], ['point', 'plane'], ['point', 'axis']],
    'point–point, point–plane or point–axis',
  ),
  tangent: pairsRule([['circle', 'plane'], ['circle', 'curve']], 'circle–plane or circle–curve'),
  path: pairsRule([['point', 'curve']], 'a point to a curve'),
  fastened: FRAMES_ONLY,
  revolute: FRAMES_OR_AXES,
  slider: FRAMES_OR_AXES,
  cylindrical: FRAMES_OR_AXES,
  pinslot: FRAMES_OR_AXES,
  planar: FRAMES_OR_AXES,
  universal: FRAMES_OR_AXES,
  ball: anyTwoRule(['frame', 'point'], 'frames and points'),
};

/**
 * The constraint and joint types that may join an entity of kind `a` and one of kind `b`
 * (either order), in the order of CONSTRAINT_TYPES then JOINT_TYPES: exactly the pairs
 * the loader accepts (its own table), for editors that offer only valid mates. Couplings
 * join coordinates, not entities, and are never listed. Empty when nothing joins them.
 */
export function mateTypesJoining(a: EntityKind, b: EntityKind): (ConstraintType | JointType)[] {
  return [...CONSTRAINT_TYPES, ...JOINT_TYPES].filter((type) => ENTITY_RULES[type].allows(a, b));
}

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
    const suspensionValue = member(root, 'suspension');
    const suspension =
      suspensionValue === undefined
        ? undefined
        : copyJson(expectObject(suspensionValue, 'suspension', 'an object'), 'suspension', new Set());
    const extras: Record<string, JsonValue> = {};
    for (const key of presentKeys(root)) {
      if (!TOP_LEVEL_FIELDS.includes(key)) setOwn(extras, key, copyJson(root[key], memberPath(ROOT_PATH, key), new Set()));
    }
    return reorder({ ...extras, format: ASSEMBLY_FORMAT, name, units, parts, mates, state, held, suspension }, root);
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
    return reorder({ fixed, pose, ...typedGroups }, part);
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
  private checkEntityPair(type: ConstraintType | JointType, mate: RawObject, path: string): [EntityRef, EntityRef] {
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
    if (!rule.allows(a.kind, b.kind)) fail(bPath, `${noun} joins ${rule.wording}, not ${a.kind}–${b.kind}`);
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
  checkFields(units, 'units', ['length', 'angle'], 'units');
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
  return reorder({ length, angle }, units);
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
