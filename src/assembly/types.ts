/**
 * The assembly document exactly as it is in a `*.kinemate.json` file: lengths in the
 * file's length unit, angles in its angle unit, quaternions as written (not normalised).
 * Everything is readonly; a loaded document is also frozen. See docs/assembly-format.md.
 */

import type { Vec3Tuple } from '../../kernel/vec3.ts';
import type { GeometryDoc } from './geometry/doc.ts';

export const ASSEMBLY_FORMAT = 'kinemate.assembly/1';

/** `[x, y, z]`, in the file's length unit. */
export type Vec3Doc = Readonly<Vec3Tuple>;
/** A quaternion `[w, x, y, z]`; any non-zero length, the reader normalises. */
export type QuatDoc = readonly [number, number, number, number];
/** `[lower, upper]` bound of a coordinate, lower ≤ upper. */
export type RangeDoc = readonly [number, number];

export interface PoseDoc {
  readonly position: Vec3Doc;
  readonly rotation: QuatDoc;
}

/** A frame on a part: its z axis is a joint's axis, its x axis the angle's zero. */
export interface FrameDoc {
  readonly origin: Vec3Doc;
  readonly rotation: QuatDoc;
}

/** An infinite line through `origin` along `direction` (non-zero, any length). */
export interface AxisDoc {
  readonly origin: Vec3Doc;
  readonly direction: Vec3Doc;
}

export interface PlaneDoc {
  readonly origin: Vec3Doc;
  readonly normal: Vec3Doc;
}

export interface CircleDoc {
  readonly center: Vec3Doc;
  readonly normal: Vec3Doc;
  /** Positive, in the length unit. */
  readonly radius: number;
}

export interface CurveDoc {
  /** At least two points. */
  readonly polyline: readonly Vec3Doc[];
  /** When true the last point joins back to the first. Default false. */
  readonly closed?: boolean;
  /** When true a C¹ spline (Catmull–Rom) runs through the points; else straight segments. */
  readonly smooth?: boolean;
}

export interface PartDoc {
  /** A fixed part never moves; it is the ground of the mates attached to it. */
  readonly fixed?: boolean;
  /** The part's pose in the assembly; entities are given in the part's own frame. */
  readonly pose: PoseDoc;
  readonly points?: Readonly<Record<string, Vec3Doc>>;
  readonly frames?: Readonly<Record<string, FrameDoc>>;
  readonly axes?: Readonly<Record<string, AxisDoc>>;
  readonly planes?: Readonly<Record<string, PlaneDoc>>;
  readonly circles?: Readonly<Record<string, CircleDoc>>;
  readonly curves?: Readonly<Record<string, CurveDoc>>;
  /** Mass properties (dynamics.md); a part without them is massless. */
  readonly mass?: MassDoc;
  /** CAD or mesh files drawn as the part and checked for clearance (docs/geometry.md); paths relative to the file. */
  readonly geometry?: readonly GeometryDoc[];
}

// ---- mass, gravity and force elements (docs/dynamics.md) ----

/** Mass properties of a part: kg, mm in the part's frame, kg·mm² about the centre in the part's axes. */
export interface MassDoc {
  readonly mass: number;
  readonly centre: Vec3Doc;
  /** Symmetric, positive semi-definite, principal moments obeying A ≤ B + C. */
  readonly inertia: readonly [Vec3Doc, Vec3Doc, Vec3Doc];
}

/** A time scale on an applied load: a table [[t, s], …] (held at the ends) or a sine. */
export type ScaleDoc =
  | { readonly table: readonly (readonly [number, number])[] }
  | { readonly sine: { readonly amplitude: number; readonly frequency: number; readonly phase?: number; readonly offset?: number } };

/** A piecewise-linear law [[x, y], …], x strictly increasing, extended linearly past its ends. */
export type CurveTableDoc = readonly (readonly [number, number])[];

export interface SpringFieldsDoc {
  /** N/mm, with `length` (free length, mm) and optional `preload` (N); or `curve` [[length, tension], …]. */
  readonly stiffness?: number;
  readonly length?: number;
  readonly preload?: number;
  readonly curve?: CurveTableDoc;
}
/** Spring between two points (`part.point`); tension positive pulls the ends together. */
export interface SpringDoc extends SpringFieldsDoc { readonly type: 'spring'; readonly a: string; readonly b: string }
/** Damper between two points: `damping` N·s/mm, or `curve` [[rate, tension], …]. */
export interface DamperDoc {
  readonly type: 'damper'; readonly a: string; readonly b: string;
  readonly damping?: number;
  readonly curve?: CurveTableDoc;
}
/** Spring and damper in one: the spring's fields, and `damping` or `damping_curve`. */
export interface SpringDamperDoc extends SpringFieldsDoc {
  readonly type: 'springdamper'; readonly a: string; readonly b: string;
  readonly damping?: number;
  readonly damping_curve?: CurveTableDoc;
}
/** Bushing between two frames (`part.frame`): deflection of b's frame relative to a's, in a's axes. */
export interface BushingDoc {
  readonly type: 'bushing'; readonly a: string; readonly b: string;
  readonly stiffness: Vec3Doc;
  readonly rotational_stiffness: Vec3Doc;
  readonly damping?: Vec3Doc;
  readonly rotational_damping?: Vec3Doc;
}
/** A spring on a coordinate (`mate.coordinate`): −stiffness·(x − free) − damping·ẋ. */
export interface CoordinateSpringDoc {
  readonly type: 'coordinate_spring'; readonly coordinate: string;
  readonly stiffness: number; readonly free: number; readonly damping?: number;
}
/** An applied force at a point (`part.point`), world or part axes. */
export interface PointForceDoc {
  readonly type: 'force'; readonly at: string; readonly vector: Vec3Doc;
  readonly frame?: 'world' | 'part'; readonly scale?: ScaleDoc;
}
/** An applied torque on a part. */
export interface TorqueDoc {
  readonly type: 'torque'; readonly part: string; readonly vector: Vec3Doc;
  readonly frame?: 'world' | 'part'; readonly scale?: ScaleDoc;
}
/**
 * A vertical tyre spring under a wheel: `centre` a point, `axis` the spin axis, both on the
 * wheel's part. With `road` (a point of another part, e.g. a road driven by a motion) the
 * surface is at that point's height plus `ground`, and the contact force acts on it too.
 */
export interface TyreDoc {
  readonly type: 'tyre'; readonly centre: string; readonly axis: string;
  readonly radius: number; readonly stiffness: number; readonly damping?: number; readonly ground?: number; readonly road?: string;
}
/**
 * Quadratic air drag at a point (`part.point`, e.g. the centre of gravity): force
 * ½·density·cd·area·|v|² against the point's velocity. `area` mm², `density` kg/m³
 * (default 1.204, air at 20 °C).
 */
export interface DragDoc {
  readonly type: 'drag'; readonly at: string;
  readonly cd: number; readonly area: number; readonly density?: number;
}
/**
 * Coulomb friction on a coordinate (`mate.coordinate`: an axle's bearing on a joint angle):
 * `force` (N·mm for an angle, N for a slide) against the coordinate's rate, its sign
 * regularised as tanh(rate / `regularization`) (coordinate unit per second, default 1).
 */
export interface CoordinateFrictionDoc {
  readonly type: 'coordinate_friction'; readonly coordinate: string;
  readonly force: number; readonly regularization?: number;
}
export type ForceDoc = SpringDoc | DamperDoc | SpringDamperDoc | BushingDoc | CoordinateSpringDoc | PointForceDoc | TorqueDoc | TyreDoc | DragDoc | CoordinateFrictionDoc;
export const FORCE_TYPES = ['spring', 'damper', 'springdamper', 'bushing', 'coordinate_spring', 'force', 'torque', 'tyre', 'drag', 'coordinate_friction'] as const;
/** Air density when a drag element gives none: kg/m³ (20 °C, sea level). */
export const DEFAULT_AIR_DENSITY = 1.204;
export type ForceType = (typeof FORCE_TYPES)[number];
/** Gravity when a file gives none: mm/s², −z. */
export const DEFAULT_GRAVITY: Vec3Doc = [0, 0, -9806.65];

// The mate vocabulary (types, the entity kinds each joins, the coordinates each frees) is
// the kernel's, defined once in mates/vocabulary.ts.
import { MATE_COORDINATES, type ConstraintType, type CoordinateName, type EntityKind, type JointType, type MateType } from '../../mates/vocabulary.ts';
export {
  CONSTRAINT_TYPES, JOINT_TYPES, COUPLING_TYPES, CONTACT_TYPES,
  type ConstraintType, type JointType, type CouplingType, type ContactType, type MateType, type EntityKind, type CoordinateName,
} from '../../mates/vocabulary.ts';
import { CONSTRAINT_TYPES, JOINT_TYPES, COUPLING_TYPES } from '../../mates/vocabulary.ts';

/** The part field that holds each kind of entity. */
export const ENTITY_GROUPS = {
  points: 'point',
  frames: 'frame',
  axes: 'axis',
  planes: 'plane',
  circles: 'circle',
  curves: 'curve',
} as const satisfies Record<string, EntityKind>;

export type EntityGroup = keyof typeof ENTITY_GROUPS;


/** A geometric constraint between two entities, `a` and `b` as `part.entity`. */
export interface ConstraintMateDoc {
  readonly type: Exclude<ConstraintType, 'distance' | 'angle'>;
  readonly a: string;
  readonly b: string;
  /** Picks the other of two solutions (opposed axes, the other side of a plane). */
  readonly flip?: boolean;
}

/** A dimensioned constraint: `value` is a length (distance) or an angle (angle). */
export interface DimensionMateDoc {
  readonly type: 'distance' | 'angle';
  readonly a: string;
  readonly b: string;
  readonly value: number;
  readonly flip?: boolean;
}

/** Bounds on a joint's coordinates, in the file's units. */
export interface LimitsDoc {
  readonly angle?: RangeDoc;
  readonly slide?: RangeDoc;
  readonly slideX?: RangeDoc;
  readonly slideY?: RangeDoc;
}

/** A joint between two frames (`ball` may also join points). */
export interface JointMateDoc {
  readonly type: JointType;
  readonly a: string;
  readonly b: string;
  readonly limits?: LimitsDoc;
}

/** `b = ratio · a + offset` between two coordinates named `mate.coordinate`. */
export interface RatioCouplingDoc {
  readonly type: 'gear' | 'belt' | 'linear';
  readonly a: string;
  readonly b: string;
  readonly ratio: number;
  readonly offset?: number;
}

/** Rack and pinion: slide = −radius · angle (in radians) + offset: a pinion turned by +θ drives the rack by −rθ. */
export interface RackPinionCouplingDoc {
  readonly type: 'rackpinion';
  readonly a: string;
  readonly b: string;
  /** Pitch radius, positive, in the length unit. */
  readonly radius: number;
  readonly offset?: number;
}

/** Lead screw: slide = lead · turns + offset. */
export interface ScrewCouplingDoc {
  readonly type: 'screw';
  readonly a: string;
  readonly b: string;
  /** Length advanced per turn; non-zero, negative for a left-hand thread. */
  readonly lead: number;
  readonly offset?: number;
}

export type CouplingMateDoc = RatioCouplingDoc | RackPinionCouplingDoc | ScrewCouplingDoc;
/**
 * A wheel rolling without slip (dynamics.md): `a` and `b` are a circle (the wheel's rim)
 * and a curve or a plane (the track), either order, on two parts. Frees `<mate>.u`, the
 * contact's arc length along the track in the length unit.
 */
export interface RollingMateDoc {
  readonly type: 'rolling';
  readonly a: string;
  readonly b: string;
}

export type MateDoc = ConstraintMateDoc | DimensionMateDoc | JointMateDoc | CouplingMateDoc | RollingMateDoc;

export interface UnitsDoc {
  /** Only `"mm"` is accepted for now. */
  readonly length: string;
  readonly angle: 'deg' | 'rad';
  /** Optional, and only these values (dynamics.md): they are the defaults. */
  readonly mass?: 'kg';
  readonly time?: 's';
  readonly force?: 'N';
}

export interface AssemblyDoc {
  readonly format: typeof ASSEMBLY_FORMAT;
  readonly name?: string;
  readonly units: UnitsDoc;
  readonly parts: Readonly<Record<string, PartDoc>>;
  readonly mates: Readonly<Record<string, MateDoc>>;
  /** Coordinate values (`jA.angle`) and part poses (`crank.pose`). */
  readonly state: Readonly<Record<string, number | PoseDoc>>;
  /** Coordinates the solve keeps at their `state` value (drivers). */
  readonly held: readonly string[];
  /** Suspension roles (see suspension.md); checked only to be an object, kept verbatim. */
  readonly suspension?: unknown;
  /** mm/s²; default DEFAULT_GRAVITY. */
  readonly gravity?: Vec3Doc;
  /** Force elements by id (dynamics.md). */
  readonly forces?: Readonly<Record<string, ForceDoc>>;
  /** Unknown top-level fields are kept verbatim. */
  readonly [extra: string]: unknown;
}

/** The coordinates a mate frees, in their conventional order; empty for most mates. */
export function coordinatesOfMate(mate: { readonly type: MateType }): readonly CoordinateName[] {
  return MATE_COORDINATES[mate.type];
}

export function isConstraint(mate: MateDoc): mate is ConstraintMateDoc | DimensionMateDoc {
  return (CONSTRAINT_TYPES as readonly string[]).includes(mate.type);
}

export function isJoint(mate: MateDoc): mate is JointMateDoc {
  return (JOINT_TYPES as readonly string[]).includes(mate.type);
}

export function isCoupling(mate: MateDoc): mate is CouplingMateDoc {
  return (COUPLING_TYPES as readonly string[]).includes(mate.type);
}

export function isRolling(mate: MateDoc): mate is RollingMateDoc {
  return mate.type === 'rolling';
}

/** The fields by which a force element names the entities it acts at: its ends, its point, a tyre's centre and road. */
const FORCE_AT_FIELDS: readonly string[] = ['a', 'b', 'at', 'centre', 'road'];

/** Whether force element `f` acts at the entity `ref` (`part.entity`): one of its ends, its point, a tyre's centre or road. */
export function forceActsAt(f: ForceDoc, ref: string): boolean {
  return Object.entries(f).some(([field, value]) => value === ref && FORCE_AT_FIELDS.includes(field));
}

/** A two-ended force element's ends (a spring, damper, spring-damper, bushing), or null for one that acts at a point, a part or a coordinate. */
export function forceEnds(f: ForceDoc): { readonly a: string; readonly b: string } | null {
  return 'a' in f ? f : null;
}

/** The entities of a part that have a position (a point, or the origin of a frame, axis or plane, a circle's centre). */
export type PositionedGroup = 'points' | 'frames' | 'axes' | 'planes' | 'circles';

/** The names of a part's entities of `group`. */
export function entityNames(part: PartDoc, group: PositionedGroup): string[] {
  return Object.keys(part[group] ?? {});
}

/** Whether part has an entity `name` in `group`. */
export function hasEntity(part: PartDoc, group: PositionedGroup, name: string): boolean {
  return Object.hasOwn(part[group] ?? {}, name);
}

const isVec3Doc = (e: Vec3Doc | object): e is Vec3Doc => Array.isArray(e);

/** The local position of a part's entity (a point, the origin of a frame, axis or plane, a circle's centre); undefined when there is none. */
export function entityPosition(part: PartDoc, group: PositionedGroup, name: string): Vec3Doc | undefined {
  if (!hasEntity(part, group, name)) return undefined;
  const e: Vec3Doc | FrameDoc | AxisDoc | PlaneDoc | CircleDoc = part[group]![name];
  return isVec3Doc(e) ? e : 'center' in e ? e.center : e.origin;
}

/**
 * Splits `owner.name` at its first dot (ids never contain a dot); undefined when
 * there is no dot or either side is empty.
 */
export function splitReference(ref: string): { readonly owner: string; readonly name: string } | undefined {
  const dot = ref.indexOf('.');
  if (dot <= 0 || dot === ref.length - 1) return undefined;
  return { owner: ref.slice(0, dot), name: ref.slice(dot + 1) };
}

/** The kind of the entity a `part.entity` reference names in `doc`, or undefined if there is none. */
export function entityKind(doc: Pick<AssemblyDoc, 'parts'>, ref: string): EntityKind | undefined {
  const parsed = splitReference(ref);
  if (parsed === undefined || !Object.hasOwn(doc.parts, parsed.owner)) return undefined;
  const part = doc.parts[parsed.owner];
  for (const group of Object.keys(ENTITY_GROUPS) as EntityGroup[]) {
    const entities = part[group];
    if (entities !== undefined && Object.hasOwn(entities, parsed.name)) return ENTITY_GROUPS[group];
  }
  return undefined;
}
