/**
 * The force elements of an assembly file (docs/dynamics.md): each element's fields, its
 * ends' references, and the mass, table and scale values they hold, checked as the loader
 * (load.ts) checks the rest. The references are resolved through the loader's own tables
 * (ForceRefs), so a force names what the parts and mates define.
 */
import { itemPath, memberPath } from './errors.ts';
import { setOwn } from './json.ts';
import {
  FORCE_TYPES, splitReference, type CurveTableDoc, type EntityKind, type ForceDoc, type MassDoc, type PartDoc, type PoseDoc, type ScaleDoc, type SpringFieldsDoc, type Vec3Doc,
} from './types.ts';
import { applyPoint, pose as makePose } from '../../kernel/pose';
import {
  article, checkFields, checkId, describe, expectNumber, expectNumbers, expectObject, expectVec3, fail, member, presentKeys, quote, reorder, required, type CoordinateRef, type EntityRef, type RawObject,
} from './check.ts';

/** What a force element's references are checked against: the loader's parts, entities and mates. */
export interface ForceRefs {
  /** A `part.entity` reference, checked (AssemblyError otherwise). */
  entityRef(value: unknown, path: string): EntityRef;
  /** A `mate.coordinate` reference, checked. */
  coordinate(value: unknown, path: string): CoordinateRef;
  hasPart(id: string): boolean;
}

export function checkForces(value: unknown, parts: Readonly<Record<string, PartDoc>>, state: Readonly<Record<string, number | PoseDoc>>, refs: ForceRefs): Record<string, ForceDoc> {
  const forces = expectObject(value, 'forces', 'an object of force elements');
  const result: Record<string, ForceDoc> = {};
  for (const id of presentKeys(forces)) {
    const path = memberPath('forces', id);
    checkId(id, path, 'force element');
    setOwn(result, id, checkForce(expectObject(forces[id], path, 'a force element object'), path, parts, state, refs));
  }
  return result;
}

function checkForce(element: RawObject, path: string, parts: Readonly<Record<string, PartDoc>>, state: Readonly<Record<string, number | PoseDoc>>, refs: ForceRefs): ForceDoc {
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
    const ref = refs.entityRef(required(element, key, path), memberPath(path, key));
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
      const { ref } = refs.coordinate(required(element, 'coordinate', path), memberPath(path, 'coordinate'));
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
      if (typeof part !== 'string' || !refs.hasPart(part)) fail(partPath, typeof part === 'string' ? `no part "${part}"` : `expected a part id, got ${describe(part)}`);
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
      const { ref } = refs.coordinate(required(element, 'coordinate', path), memberPath(path, 'coordinate'));
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

// ---- mass and force-element values (dynamics.md) ----

export function checkMass(value: unknown, path: string): MassDoc {
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
export function checkTable(value: unknown, path: string, strictlyIncreasing: boolean): CurveTableDoc {
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

export function checkScale(value: unknown, path: string): ScaleDoc {
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
export function worldPoint(parts: Readonly<Record<string, PartDoc>>, state: Readonly<Record<string, number | PoseDoc>>, ref: string): Float64Array {
  const { owner, name } = splitReference(ref)!;
  const part = parts[owner];
  const fromState = state[`${owner}.pose`];
  const pose = typeof fromState === 'object' ? fromState : part.pose;
  return applyPoint(new Float64Array(3), makePose(pose.position, pose.rotation), part.points![name]);
}
