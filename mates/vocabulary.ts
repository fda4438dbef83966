/**
 * The mate vocabulary, defined once: every mate type, which entity kinds each joins and
 * the coordinates each frees. The kernel's catalogue (./catalogue.ts) builds exactly these
 * and the file format's loader (src/assembly/load.ts) accepts exactly these, so a file
 * that loads is a file that builds (test/mates/vocabulary.test.ts checks both).
 *
 * `coincident` joins point–point, point–plane, point–axis, axis–axis and plane–plane, not
 * frames: two frames made coincident are a `fastened` joint (one way to say it), and a
 * point on a frame would leave open whether the frame's origin or one of its axes is meant.
 */

export type EntityKind = 'point' | 'frame' | 'axis' | 'plane' | 'circle' | 'curve';

export const CONSTRAINT_TYPES = [
  'coincident', 'concentric', 'parallel', 'perpendicular', 'distance', 'angle', 'tangent', 'path',
] as const;
export const JOINT_TYPES = [
  'fastened', 'revolute', 'slider', 'cylindrical', 'pinslot', 'planar', 'universal', 'ball',
] as const;
export const COUPLING_TYPES = ['gear', 'belt', 'rackpinion', 'screw', 'linear'] as const;
/** Contacts (dynamics.md): a wheel's circle rolling without slip on a curve or a plane. */
export const CONTACT_TYPES = ['rolling'] as const;

export type ConstraintType = (typeof CONSTRAINT_TYPES)[number];
export type JointType = (typeof JOINT_TYPES)[number];
export type CouplingType = (typeof COUPLING_TYPES)[number];
export type ContactType = (typeof CONTACT_TYPES)[number];
export type MateType = ConstraintType | JointType | CouplingType | ContactType;
/** A mate between two entities (couplings join coordinates instead). */
export type EntityMateType = ConstraintType | JointType | ContactType;

/** The name of a coordinate a mate frees; the coordinate's full name is `<mate>.<name>`. */
export type CoordinateName = 'angle' | 'slide' | 'slideX' | 'slideY' | 'u';

/** Which entity kinds a mate joins: unordered pairs, and how an error message says so. */
export interface EntityRule {
  readonly pairs: readonly (readonly [EntityKind, EntityKind])[];
  /** Every kind that appears in some pair. */
  readonly kinds: readonly EntityKind[];
  readonly wording: string;
}

function pairs(list: readonly (readonly [EntityKind, EntityKind])[], wording: string): EntityRule {
  return { pairs: list, kinds: [...new Set(list.flat())], wording };
}
/** Any two of `kinds`, the same kind twice included. */
function anyTwo(kinds: readonly EntityKind[], wording: string): EntityRule {
  const list: [EntityKind, EntityKind][] = [];
  kinds.forEach((a, i) => kinds.slice(i).forEach((b) => list.push([a, b])));
  return { pairs: list, kinds, wording };
}

const DIRECTIONAL = anyTwo(['axis', 'plane', 'frame'], 'axes, planes and frames');
// A joint on an axis takes the frame the catalogue derives: z along the axis, x the world
// axis it runs least along (a tie-break noise cannot flip), so both ends agree.
const FRAMES_OR_AXES = anyTwo(['frame', 'axis'], 'frames or axes');

export const ENTITY_RULES: Readonly<Record<EntityMateType, EntityRule>> = {
  coincident: pairs(
    [['point', 'point'], ['point', 'plane'], ['point', 'axis'], ['axis', 'axis'], ['plane', 'plane']],
    'point–point, point–plane, point–axis, axis–axis or plane–plane',
  ),
  concentric: anyTwo(['axis', 'circle', 'frame'], 'axes, circles and frames'),
  parallel: DIRECTIONAL,
  perpendicular: DIRECTIONAL,
  angle: DIRECTIONAL,
  distance: pairs([['point', 'point'], ['point', 'plane'], ['point', 'axis']], 'point–point, point–plane or point–axis'),
  tangent: pairs([['circle', 'plane'], ['circle', 'curve']], 'circle–plane or circle–curve'),
  path: pairs([['point', 'curve']], 'a point to a curve'),
  fastened: anyTwo(['frame'], 'two frames'),
  revolute: FRAMES_OR_AXES,
  slider: FRAMES_OR_AXES,
  cylindrical: FRAMES_OR_AXES,
  pinslot: FRAMES_OR_AXES,
  planar: FRAMES_OR_AXES,
  universal: FRAMES_OR_AXES,
  ball: anyTwo(['frame', 'point'], 'frames and points'),
  rolling: pairs([['circle', 'curve'], ['circle', 'plane']], 'a circle (the wheel) to a curve or a plane (the track)'),
};

/** Whether `type` joins an entity of kind `a` and one of kind `b` (either order). */
export function mateJoins(type: EntityMateType, a: EntityKind, b: EntityKind): boolean {
  return ENTITY_RULES[type].pairs.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

/**
 * The constraint and joint types that may join an entity of kind `a` and one of kind `b`
 * (either order), in the order of CONSTRAINT_TYPES, JOINT_TYPES then CONTACT_TYPES, for editors that
 * offer only valid mates. Couplings join coordinates, not entities, and are never listed.
 */
export function mateTypesJoining(a: EntityKind, b: EntityKind): EntityMateType[] {
  return [...CONSTRAINT_TYPES, ...JOINT_TYPES, ...CONTACT_TYPES].filter((type) => mateJoins(type, a, b));
}

/** The coordinates each mate frees, in their conventional order. */
export const MATE_COORDINATES: Readonly<Record<MateType, readonly CoordinateName[]>> = {
  coincident: [], concentric: [], parallel: [], perpendicular: [], distance: [], angle: [],
  // a circle–curve tangent (a roller on a cam) has a foot parameter; circle–plane has none
  tangent: ['u'],
  path: ['u'],
  fastened: [],
  revolute: ['angle'],
  slider: ['slide'],
  cylindrical: ['angle', 'slide'],
  pinslot: ['angle', 'slideX'],
  planar: ['angle', 'slideX', 'slideY'],
  universal: [],
  ball: [],
  gear: [], belt: [], rackpinion: [], screw: [], linear: [],
  // the contact's arc length along the track (a length, not a curve parameter)
  rolling: ['u'],
};
