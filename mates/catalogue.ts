/**
 * The mate catalogue: turn "this shaft is concentric with that hole" into residual blocks
 * on a System, and declare the coordinates each mate frees as scalar state variables
 * (`<mate>.angle`, `.slide`, `.slideX`, `.slideY`, `.u`) that can be set, held and limited.
 * Internal units: lengths in model units, angles in radians.
 */
import type { System } from '../kernel/system';
import * as P from '../kernel/pose';
import { vec3, type ReadonlyVec3 } from '../kernel/vec3';
import type { Entity, EntityKind } from './entities';
import { Curve, directionOf, lineOf, planeOf, pointOf } from './entities';
import { JOINT_COORDINATES, JointBlock, measureJoint, type JointCoordinate, type JointFrame } from './joints';
import {
  CONSTRAINT_TYPES, COUPLING_TYPES, ENTITY_RULES, JOINT_TYPES, mateJoins,
  type ConstraintType, type JointType,
} from './vocabulary';
import {
  AngleBlock, CircleCurveTangentBlock, CirclePlaneTangentBlock, DirectionDotBlock, ParallelBlock, PathBlock,
  PointDistanceBlock, PointOnLineBlock, PointOnPlaneBlock, PointOnPointBlock,
} from './constraints';
import { CouplingBlock, couplingFactor, type CoordinateKind, type CouplingType } from './couplings';
import { addRolling, type RollingSpec } from './rolling';
import { MateError } from './errors';
import { InternalError } from '../kernel/errors';

// The vocabulary (types, entity kinds, coordinates) is defined once, in ./vocabulary.ts.
export { CONSTRAINT_TYPES, JOINT_TYPES, COUPLING_TYPES, type ConstraintType };

/** An entity on a part: the part's pose variable and the entity in the part's frame. */
export interface EntityOnPart {
  part: number;
  entity: Entity;
}

export interface ConstraintSpec {
  type: ConstraintType;
  a: EntityOnPart;
  b: EntityOnPart;
  /** distance (length) or angle (radians) */
  value?: number;
}
export interface JointSpec {
  type: JointType;
  a: EntityOnPart;
  b: EntityOnPart;
  /** Bounds per coordinate (radians, lengths). */
  limits?: Partial<Record<JointCoordinate, [number, number]>>;
}
export interface CouplingSpec {
  type: CouplingType;
  a: { variable: number; kind: CoordinateKind };
  b: { variable: number; kind: CoordinateKind };
  ratio?: number;
  radius?: number;
  lead?: number;
  /** b at a = 0, in b's internal units. */
  offset?: number;
}
export type MateSpec = ConstraintSpec | JointSpec | CouplingSpec | RollingSpec;

export interface MateHandle {
  id: string;
  type: string;
  /** Coordinate variables by suffix (angle, slide, slideX, slideY, u). */
  coordinates: Record<string, number>;
  /** Block indices created. */
  blocks: number[];
}

/** Which entity kinds each constraint accepts, as unordered pairs (from the vocabulary). */
export const CONSTRAINT_ENTITY_PAIRS: Readonly<Record<ConstraintType, readonly (readonly [EntityKind, EntityKind])[]>> =
  Object.fromEntries(CONSTRAINT_TYPES.map((type) => [type, ENTITY_RULES[type].pairs])) as Record<ConstraintType, readonly (readonly [EntityKind, EntityKind])[]>;

/** Joints take frames (and, but for fastened and ball, axes; a ball takes points). */
export function jointAccepts(type: JointType, kind: EntityKind): boolean {
  return ENTITY_RULES[type].kinds.includes(kind);
}

export function constraintAccepts(type: ConstraintType, ka: EntityKind, kb: EntityKind): boolean {
  return mateJoins(type, ka, kb);
}

function isJoint(spec: MateSpec): spec is JointSpec {
  return (JOINT_TYPES as readonly string[]).includes(spec.type);
}
function isCoupling(spec: MateSpec): spec is CouplingSpec {
  return (COUPLING_TYPES as readonly string[]).includes(spec.type);
}

/** World pose of a part right now. */
function worldOf(system: System, part: number): Float64Array {
  return system.getPose(part);
}
function toWorldPoint(pose: Float64Array, p: ReadonlyVec3): Float64Array {
  return P.applyPoint(vec3(), pose, p);
}
function toWorldDir(pose: Float64Array, d: ReadonlyVec3): Float64Array {
  return P.applyDirection(vec3(), pose, d);
}

/** A joint frame from a frame, an axis (frameOnAxis: deterministic reference) or a point. */
function jointFrame(e: Entity): JointFrame {
  switch (e.kind) {
    case 'frame': return { origin: e.origin, x: e.x, y: e.y, z: e.z };
    case 'axis': {
      const z = vec3(); const len = Math.hypot(e.direction[0], e.direction[1], e.direction[2]);
      z[0] = e.direction[0] / len; z[1] = e.direction[1] / len; z[2] = e.direction[2] / len;
      const k = leastAxisIndex(z);
      const x = vec3(k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0);
      const d = x[0] * z[0] + x[1] * z[1] + x[2] * z[2];
      for (let i = 0; i < 3; i++) x[i] -= d * z[i];
      const xl = Math.hypot(x[0], x[1], x[2]); for (let i = 0; i < 3; i++) x[i] /= xl;
      const y = vec3(z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]);
      return { origin: e.origin, x, y, z };
    }
    case 'point': return { origin: e.point, x: vec3(1, 0, 0), y: vec3(0, 1, 0), z: vec3(0, 0, 1) };
    default: throw new InternalError(`jointFrame: a joint needs a frame, got ${e.kind}`) // mateJoins refused the kind before;
  }
}
function leastAxisIndex(d: ReadonlyVec3): number {
  const a = [Math.abs(d[0]), Math.abs(d[1]), Math.abs(d[2])];
  const m = Math.max(...a) * 1e-9;
  for (let i = 0; i < 3; i++) if (a.every((x, j) => j === i || !(x < a[i] - m))) return i;
  return 2;
}

/** Frame of a joint end in world coordinates (for measuring initial coordinates). */
function worldFrame(pose: Float64Array, f: JointFrame): JointFrame {
  return { origin: toWorldPoint(pose, f.origin), x: toWorldDir(pose, f.x), y: toWorldDir(pose, f.y), z: toWorldDir(pose, f.z) };
}

export interface AddMateOptions {
  /** Initial values of the mate's coordinates (internal units); measured from the poses when absent. */
  initial?: Partial<Record<string, number>>;
}

/**
 * Add a mate's blocks (and its coordinate variables) to the system. Throws a MateError
 * (`<id>: <reason>`) on a combination the catalogue does not take (the file loader checks
 * kinds first, so users see its path-named message).
 */
export function addMate(system: System, id: string, spec: MateSpec, options: AddMateOptions = {}): MateHandle {
  const L = system.lengthScale;
  const handle: MateHandle = { id, type: spec.type, coordinates: {}, blocks: [] };
  const add = (b: Parameters<System['addBlock']>[0]) => handle.blocks.push(system.addBlock(b));
  if (isCoupling(spec)) {
    const k = couplingFactor(spec.type, spec.a.kind, spec.b.kind, spec);
    const vb = system.variables[spec.b.variable];
    add(new CouplingBlock(id, spec.a.variable, spec.b.variable, k, spec.offset ?? 0, vb.scale));
    return handle;
  }
  const { a, b } = spec;
  if (a.part === b.part) throw new MateError(id, 'a mate needs two different parts');
  if (!mateJoins(spec.type, a.entity.kind, b.entity.kind)) throw new MateError(id, `${spec.type} does not take ${a.entity.kind}–${b.entity.kind}`);
  if (spec.type === 'rolling') {
    const rolling = addRolling(system, id, spec, options.initial?.u);
    handle.coordinates.u = rolling.u;
    add(rolling.block);
    return handle;
  }
  if (isJoint(spec)) {
    const fa = jointFrame(a.entity), fb = jointFrame(b.entity);
    const measured = measureJoint(spec.type, worldFrame(worldOf(system, a.part), fa), worldFrame(worldOf(system, b.part), fb));
    const vars: number[] = [];
    for (const c of JOINT_COORDINATES[spec.type]) {
      const value = options.initial?.[c] ?? measured[c];
      const v = system.addScalar(`${id}.${c}`, value, { scale: c === 'angle' ? L : 1, limits: spec.limits?.[c] ?? null });
      handle.coordinates[c] = v;
      vars.push(v);
    }
    add(new JointBlock(id, spec.type, a.part, fa, b.part, fb, vars, L));
    return handle;
  }
  const ka = a.entity.kind, kb = b.entity.kind;
  // Put the entity of the "larger" kind first where a block wants a side.
  const ea = a.entity, eb = b.entity;
  const poseA = worldOf(system, a.part), poseB = worldOf(system, b.part);
  switch (spec.type) {
    case 'coincident': {
      if (ka === 'point' && kb === 'point') {
        add(new PointOnPointBlock(id, a.part, pointOf(ea)!, b.part, pointOf(eb)!));
      } else if ((ka === 'point' && kb === 'plane') || (ka === 'plane' && kb === 'point')) {
        const planeSide = ka === 'plane' ? 0 : 1;
        const pl = planeOf(planeSide === 0 ? ea : eb)!;
        add(new PointOnPlaneBlock(id, a.part, b.part, planeSide, pl.origin, pl.normal, pointOf(planeSide === 0 ? eb : ea)!));
      } else if ((ka === 'point' && kb === 'axis') || (ka === 'axis' && kb === 'point')) {
        const lineSide = ka === 'axis' ? 0 : 1;
        const ln = lineOf(lineSide === 0 ? ea : eb)!;
        add(new PointOnLineBlock(id, a.part, b.part, lineSide, ln.origin, ln.direction, pointOf(lineSide === 0 ? eb : ea)!));
      } else if (ka === 'axis' && kb === 'axis') {
        addLineOnLine(add, id, a.part, ea, b.part, eb, L);
      } else if (ka === 'plane' && kb === 'plane') {
        const pa = planeOf(ea)!, pb = planeOf(eb)!;
        add(new ParallelBlock(id, a.part, pa.normal, b.part, pb.normal, L));
        add(new PointOnPlaneBlock(id, a.part, b.part, 0, pa.origin, pa.normal, pb.origin));
      }
      break;
    }
    case 'concentric':
      addLineOnLine(add, id, a.part, ea, b.part, eb, L);
      break;
    case 'parallel':
      add(new ParallelBlock(id, a.part, directionOf(ea)!, b.part, directionOf(eb)!, L));
      break;
    case 'perpendicular':
      add(new DirectionDotBlock(id, a.part, directionOf(ea)!, b.part, directionOf(eb)!, L, 0));
      break;
    case 'angle': {
      const value = spec.value ?? 0;
      if (value <= 1e-9 || value >= Math.PI - 1e-9) {
        // 0° or 180°: the angle row has no slope there; parallel is the honest statement
        add(new ParallelBlock(id, a.part, directionOf(ea)!, b.part, directionOf(eb)!, L));
      } else {
        add(new AngleBlock(id, a.part, directionOf(ea)!, b.part, directionOf(eb)!, L, value));
      }
      break;
    }
    case 'distance': {
      const value = spec.value ?? 0;
      if (ka === 'point' && kb === 'point') {
        add(new PointDistanceBlock(id, a.part, pointOf(ea)!, b.part, pointOf(eb)!, value));
      } else if (ka === 'plane' || kb === 'plane') {
        const planeSide = ka === 'plane' ? 0 : 1;
        const pl = planeOf(planeSide === 0 ? ea : eb)!;
        const pt = pointOf(planeSide === 0 ? eb : ea)!;
        const side = signedSide(planeSide === 0 ? poseA : poseB, pl.origin, pl.normal, toWorldPoint(planeSide === 0 ? poseB : poseA, pt));
        add(new PointOnPlaneBlock(id, a.part, b.part, planeSide, pl.origin, pl.normal, pt, side * value));
      } else {
        const lineSide = ka === 'axis' ? 0 : 1;
        const ln = lineOf(lineSide === 0 ? ea : eb)!;
        add(new PointOnLineBlock(id, a.part, b.part, lineSide, ln.origin, ln.direction, pointOf(lineSide === 0 ? eb : ea)!, value));
      }
      break;
    }
    case 'tangent': {
      const circleSide = ka === 'circle' ? 0 : 1;
      const circle = (circleSide === 0 ? ea : eb) as Extract<Entity, { kind: 'circle' }>;
      const other = circleSide === 0 ? eb : ea;
      const circlePart = circleSide === 0 ? a.part : b.part, otherPart = circleSide === 0 ? b.part : a.part;
      if (other.kind === 'plane') {
        const centerWorld = toWorldPoint(worldOf(system, circlePart), circle.center);
        const side = signedSide(worldOf(system, otherPart), other.origin, other.normal, centerWorld);
        add(new CirclePlaneTangentBlock(id, a.part, b.part, circleSide, circle.center, circle.normal, circle.radius, other.origin, normalized(other.normal), side));
      } else if (other.kind === 'curve') {
        const u = footParameter(system, other.curve, otherPart, circlePart, circle.center, options.initial?.u);
        const v = system.addScalar(`${id}.u`, u, { scale: other.curve.segmentLength, limits: other.curve.closed ? null : [0, other.curve.lastParameter] });
        handle.coordinates.u = v;
        add(new CircleCurveTangentBlock(id, a.part, b.part, circleSide === 0 ? 1 : 0, other.curve, circle.center, circle.radius, v));
      }
      break;
    }
    case 'path': {
      const curveSide = ka === 'curve' ? 0 : 1;
      const curveEntity = (curveSide === 0 ? ea : eb) as Extract<Entity, { kind: 'curve' }>;
      const pt = pointOf(curveSide === 0 ? eb : ea)!;
      const curvePart = curveSide === 0 ? a.part : b.part, pointPart = curveSide === 0 ? b.part : a.part;
      const u = footParameter(system, curveEntity.curve, curvePart, pointPart, pt, options.initial?.u);
      const v = system.addScalar(`${id}.u`, u, { scale: curveEntity.curve.segmentLength, limits: curveEntity.curve.closed ? null : [0, curveEntity.curve.lastParameter] });
      handle.coordinates.u = v;
      add(new PathBlock(id, a.part, b.part, curveSide, curveEntity.curve, pt, v));
      break;
    }
  }
  return handle;
}

/**
 * Give a mate that addMate built new numbers of the same shape (the same parts, entities of
 * the same kinds): its blocks take what addMate would compute from `spec` at the parts'
 * poses now, its coordinates their scale, limits and design values — a model rebuilt in
 * place (src/model/build.ts renewModel) is then the same numbers as a fresh build. Joints,
 * point–point distances and point-on-axis coincidences; false for any other mate, which
 * must then be built afresh.
 */
export function renewMate(system: System, handle: MateHandle, spec: MateSpec, options: AddMateOptions = {}): boolean {
  if (spec.type !== handle.type || isCoupling(spec) || spec.type === 'rolling' || handle.blocks.length !== 1) return false;
  const block = system.block(handle.blocks[0]);
  if (block.owner !== handle.id) return false;
  const L = system.lengthScale;
  const { a, b } = spec;
  if (isJoint(spec)) {
    if (!(block instanceof JointBlock) || block.type !== spec.type) return false;
    const fa = jointFrame(a.entity), fb = jointFrame(b.entity);
    const measured = measureJoint(spec.type, worldFrame(worldOf(system, a.part), fa), worldFrame(worldOf(system, b.part), fb));
    for (const c of JOINT_COORDINATES[spec.type]) {
      const v = system.variables[handle.coordinates[c]];
      v.scale = c === 'angle' ? L : 1;
      v.limits = spec.limits?.[c] ?? null;
      system.state[v.offset] = options.initial?.[c] ?? measured[c];
    }
    block.renew(fa, fb, L);
    return true;
  }
  const ka = a.entity.kind, kb = b.entity.kind;
  if (spec.type === 'distance' && ka === 'point' && kb === 'point' && block instanceof PointDistanceBlock) {
    block.renew(pointOf(a.entity)!, pointOf(b.entity)!, spec.value ?? 0);
    return true;
  }
  if (spec.type === 'coincident' && block instanceof PointOnLineBlock && ((ka === 'point' && kb === 'axis') || (ka === 'axis' && kb === 'point'))) {
    const lineSide = ka === 'axis' ? 0 : 1;
    const ln = lineOf(lineSide === 0 ? a.entity : b.entity)!;
    return block.renew(ln.origin, ln.direction, pointOf(lineSide === 0 ? b.entity : a.entity)!, null);
  }
  return false;
}

function addLineOnLine(add: (b: Parameters<System['addBlock']>[0]) => void, id: string, partA: number, ea: Entity, partB: number, eb: Entity, L: number): void {
  const la = lineOf(ea)!, lb = lineOf(eb)!;
  add(new ParallelBlock(id, partA, la.direction, partB, lb.direction, L));
  add(new PointOnLineBlock(id, partA, partB, 0, la.origin, la.direction, lb.origin));
}

function normalized(v: ReadonlyVec3): Float64Array {
  const l = Math.hypot(v[0], v[1], v[2]);
  return vec3(v[0] / l, v[1] / l, v[2] / l);
}
/** +1 or −1: the side of the plane the point is on now (authored side kept; +1 on it). */
function signedSide(planePose: Float64Array, origin: ReadonlyVec3, normal: ReadonlyVec3, worldPoint: ReadonlyVec3): number {
  const o = toWorldPoint(planePose, origin), n = toWorldDir(planePose, normalized(normal));
  const s = (worldPoint[0] - o[0]) * n[0] + (worldPoint[1] - o[1]) * n[1] + (worldPoint[2] - o[2]) * n[2];
  return s < 0 ? -1 : 1;
}
/** Seed a foot parameter at the curve point nearest the other part's point. */
function footParameter(system: System, curve: Curve, curvePart: number, pointPart: number, point: ReadonlyVec3, given?: number): number {
  if (given !== undefined) return given;
  const world = toWorldPoint(worldOf(system, pointPart), point);
  const local = P.applyInversePoint(vec3(), worldOf(system, curvePart), world);
  return curve.nearestParameter(local);
}
