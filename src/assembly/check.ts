/**
 * The value checkers the assembly loader (load.ts, load-forces.ts) is made of: entities,
 * poses, numbers, plain JSON values, and the small helpers that read an object's members
 * and throw the AssemblyError naming the path.
 */
import { AssemblyError, itemPath, memberPath } from './errors.ts';
import { MAX_JSON_DEPTH, setOwn, type JsonValue } from './json.ts';
import {
  CONSTRAINT_TYPES, CONTACT_TYPES, COUPLING_TYPES, JOINT_TYPES, coordinatesOfMate, type AssemblyDoc, type AxisDoc, type CircleDoc, type CoordinateName, type CurveDoc, type EntityKind, type FrameDoc, type JointType, type LimitsDoc, type MateType, type PlaneDoc, type PoseDoc, type QuatDoc, type RangeDoc, type Vec3Doc,
} from './types.ts';

/** Every mate type the format knows. */
export const MATE_TYPES: readonly string[] = [...CONSTRAINT_TYPES, ...JOINT_TYPES, ...COUPLING_TYPES, ...CONTACT_TYPES];

export type RawObject = Readonly<Record<string, unknown>>;

/** A checked `part.entity` reference and what it names. */
export interface EntityRef {
  readonly ref: string;
  readonly part: string;
  readonly kind: EntityKind;
}

/** A checked `mate.coordinate` reference. */
export interface CoordinateRef {
  readonly ref: string;
  readonly name: CoordinateName;
}

// ---- entities, poses, numbers ----

export function checkEntity(kind: EntityKind, value: unknown, path: string): unknown {
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

export function checkPose(value: unknown, path: string): PoseDoc {
  const pose = expectObject(value, path, 'a pose { position, rotation }');
  checkFields(pose, path, ['position', 'rotation'], 'a pose');
  const position = expectVec3(required(pose, 'position', path), memberPath(path, 'position'));
  const rotation = expectRotation(required(pose, 'rotation', path), memberPath(path, 'rotation'));
  return reorder({ position, rotation }, pose);
}

export function checkUnits(value: unknown): AssemblyDoc['units'] {
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

export function checkMateType(value: unknown, path: string): MateType {
  if (value === undefined) fail(path, 'missing; every mate needs a type');
  if (typeof value !== 'string') fail(path, `expected a mate type, got ${describe(value)}`);
  const type = MATE_TYPES.find((known) => known === value);
  if (type === undefined) fail(path, `unknown mate type ${quote(value)}; expected one of ${MATE_TYPES.join(', ')}`);
  // MATE_TYPES is exactly the union's members, widened to string[] only for the lookup.
  return type as MateType;
}

export function checkLimits(type: JointType, value: unknown, path: string): LimitsDoc {
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

export function checkId(id: string, path: string, what: string): void {
  if (id === '') fail(path, `${article(what)} ${what} id must not be empty`);
  if (id.includes('.')) {
    fail(path, `${what} id "${id}" must not contain "." (it separates the halves of "part.entity" and "mate.coordinate")`);
  }
}

export function expectNumber(value: unknown, path: string): number {
  if (typeof value !== 'number') fail(path, `expected a number, got ${describe(value)}`);
  if (!Number.isFinite(value)) fail(path, `expected a finite number, got ${describe(value)}`);
  return value;
}

export function expectNumbers(value: unknown, path: string, count: number, shape: string): number[] {
  if (!Array.isArray(value)) fail(path, `expected ${shape}, got ${describe(value)}`);
  const items: readonly unknown[] = value;
  if (items.length !== count) fail(path, `expected ${count} numbers ${shape}, got ${items.length}`);
  const numbers: number[] = [];
  // An index loop, not map: map would skip the holes of a sparse array.
  for (let i = 0; i < count; i++) numbers.push(expectNumber(items[i], itemPath(path, i)));
  return numbers;
}

export function expectVec3(value: unknown, path: string): Vec3Doc {
  const [x, y, z] = expectNumbers(value, path, 3, '[x, y, z]');
  return [x, y, z];
}

export function expectDirection(value: unknown, path: string): Vec3Doc {
  const vector = expectVec3(value, path);
  // hypot is zero only when every component is ±0; tiny vectors still have a direction.
  if (Math.hypot(...vector) === 0) fail(path, `[${vector.join(', ')}] has zero length; a direction must be non-zero`);
  return vector;
}

export function expectRotation(value: unknown, path: string): QuatDoc {
  const [w, x, y, z] = expectNumbers(value, path, 4, '[w, x, y, z]');
  if (Math.hypot(w, x, y, z) === 0) {
    fail(path, `quaternion [${[w, x, y, z].join(', ')}] has zero length; a rotation must be non-zero`);
  }
  return [w, x, y, z];
}

export function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  return fail(path, `expected true or false, got ${describe(value)}`);
}

export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return fail(path, `expected a string, got ${describe(value)}`);
}

// ---- plain JSON values, kept verbatim ----

/** A checked copy of a JSON value: finite numbers only, no cycles, no exotic objects. */
export function copyJson(value: unknown, path: string, ancestors: Set<object>): JsonValue {
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

export function fail(path: string, reason: string): never {
  throw new AssemblyError(path, reason);
}

/** A plain object from any realm: prototype null or a prototype whose own prototype is null. */
export function isPlainObject(value: unknown): value is RawObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

export function expectObject(value: unknown, path: string, what = 'an object'): RawObject {
  if (!isPlainObject(value)) fail(path, `expected ${what}, got ${describe(value)}`);
  return value;
}

/** Own keys with a defined value: JSON cannot hold undefined, so in memory it means absent. */
export function presentKeys(object: RawObject): string[] {
  return Object.keys(object).filter((key) => object[key] !== undefined);
}

/** An own member only: `obj.constructor` must not resolve to Object's. */
export function member(object: RawObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function memberOr(object: RawObject, key: string, fallback: unknown): unknown {
  const value = member(object, key);
  return value === undefined ? fallback : value;
}

export function required(object: RawObject, key: string, path: string, hint?: string): unknown {
  const value = member(object, key);
  if (value === undefined) fail(memberPath(path, key), hint === undefined ? 'missing' : `missing; ${hint}`);
  return value;
}

export function checkFields(object: RawObject, path: string, allowed: readonly string[], what: string): void {
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
export function reorder<T extends object>(value: T, source: RawObject): T {
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

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export function describe(value: unknown): string {
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
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

export function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

export function coordinateNoun(name: CoordinateName): string {
  return name === 'u' ? 'a path parameter' : name === 'angle' ? 'an angle' : `a ${name}`;
}
