/**
 * Assemble mode: build a mechanism from parts and mates in the viewer. Parts come from a
 * small library (points, axes and frames in the part's own frame, mm) or from another
 * `*.kinemate.json`; a mate joins two picked entities with a type valid for their kinds
 * (the loader's own table, `mateTypesJoining`); suspension roles (assemble-roles.ts) make the assembly a
 * suspension the metrics and plots run on. Every step is one edit of an assembly document
 * (`src/assembly/edits.ts`), so it is undone like any other and checked by the document's
 * validator; the DOF and any redundant or conflicting mates come back with the next solve.
 *
 * Pure functions of the document (and, where geometry is measured, of the solved part
 * poses the engine reports): no DOM, tested in Node (test/viewer/assemble.test.ts).
 */
import { vec3 } from 'gl-matrix';
import {
  type AssemblyDoc, type ConstraintType, type EntityKind, type JointType, type MateDoc, type PartDoc, type PoseDoc, ENTITY_GROUPS, entityKind, isCoupling, splitReference, type EntityGroup,
} from '../../assembly/types.ts';
import { mateTypesJoining } from '../../assembly/load.ts';
import { AssemblyError } from '../../assembly/errors.ts';
import { addMate, addPart, combine, removeMate, removePart, type AssemblyRecipe } from '../../assembly/edits.ts';
import { assemblyDocument, liveEdits, LiveEditError, type LiveRecipe } from '../document.ts';
import type { LiveDocument } from '../document.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';

// ---------------------------------------------------------------- the library

type Quat = [number, number, number, number];

/**
 * A part of the library: entities in its own frame (mm). Axes are the lines a designer
 * mates by (an A-arm's hinge, a rack's slide), frames where a joint wants an angle's zero
 * too (a rocker's pivot: its z axis is the pivot axis). Every entity's handle (its point,
 * or its origin) stands apart from the others, so a click picks one.
 */
export interface LibraryPart {
  id: string;
  label: string;
  points: Record<string, Vec3Tuple>;
  axes?: Record<string, { origin: Vec3Tuple; direction: Vec3Tuple }>;
  frames?: Record<string, { origin: Vec3Tuple; rotation: Quat }>;
}

/*
 * Laid out in the chassis axes of a left corner (x forward, y outboard, z up), so that
 * parts mated as a double wishbone start near their assembled attitude: A-arms hinge
 * along x and reach out along +y, the upright stands along z with its axle along +y.
 */
export const PART_LIBRARY: readonly LibraryPart[] = [
  {
    id: 'rod', label: 'Rod',
    points: { a: [0, 0, 0], b: [300, 0, 0] },
    axes: { axis: { origin: [150, 0, 0], direction: [1, 0, 0] } },
  },
  {
    id: 'a_arm', label: 'A-arm',
    points: { inboard_front: [150, 0, 0], inboard_rear: [-150, 0, 0], outboard: [0, 350, 0] },
    // the hinge through the two inboard points (its handle midway between them)
    axes: { hinge: { origin: [0, 0, 0], direction: [1, 0, 0] } },
  },
  {
    id: 'upright', label: 'Upright with wheel',
    points: { upper: [0, 0, 250], lower: [0, 0, -150], axle_inboard: [0, 0, 0], axle_outboard: [0, 120, 0], steer_arm: [-130, -20, 0] },
    axes: {
      // the spin axis through the axle points, and the steering axis through the ball joints
      axle: { origin: [0, 60, 0], direction: [0, 1, 0] },
      steering_axis: { origin: [0, 0, 100], direction: [0, 0, 1] },
    },
  },
  {
    id: 'rocker', label: 'Rocker',
    points: { pushrod: [80, 0, 0], spring: [0, 100, 0] },
    // the pivot: its z axis is the rocker's axis, its x axis the zero of the rocker angle
    frames: { pivot: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } },
  },
  {
    id: 'rack', label: 'Rack',
    points: { left: [0, 300, 0], right: [0, -300, 0] },
    axes: { slide: { origin: [0, 0, 0], direction: [0, 1, 0] } },
  },
  {
    id: 'strut', label: 'Strut',
    points: { bottom: [0, 0, 0], top: [0, 0, 400] },
    axes: { axis: { origin: [0, 0, 200], direction: [0, 0, 1] } },
  },
];

const IDENTITY: PoseDoc = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };

/**
 * A new assembly: a fixed ground with four anchor points A–D (a 500 × 400 mm rectangle
 * at z = 0), two hinge axes along x (`hinge_low` on the line A–B, `hinge_high` 400 mm
 * above it and 30 mm inboard), a pickup `E` for a track rod and a `floor` plane (z = 0).
 */
export function newAssembly(): LiveDocument {
  const doc: AssemblyDoc = {
    format: 'kinemate.assembly/1',
    name: 'assembly',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: {
        fixed: true,
        pose: IDENTITY,
        points: { A: [0, 0, 0], B: [500, 0, 0], C: [0, 400, 0], D: [500, 400, 0], E: [120, 20, 150] },
        axes: { hinge_low: { origin: [250, 0, 0], direction: [1, 0, 0] }, hinge_high: { origin: [250, -30, 400], direction: [1, 0, 0] } },
        planes: { floor: { origin: [250, 200, 0], normal: [0, 0, 1] } },
      },
    },
    mates: {},
    state: {},
    held: [],
  };
  return assemblyDocument(doc);
}

/** The document's assembly; refuses a suspension document (assemble mode builds assemblies). */
export function assemblyOf(doc: LiveDocument): AssemblyDoc {
  if (doc.kind !== 'assembly') throw new LiveEditError('', 'assemble mode works on an assembly');
  return doc.doc;
}

/** Every id in use: part and mate ids share one namespace (the loader refuses a clash). */
function takenIds(doc: AssemblyDoc): Set<string> {
  return new Set([...Object.keys(doc.parts), ...Object.keys(doc.mates)]);
}

/** `base`, or `base2`, `base3`, … : the first not in `taken`. */
export function freeName(taken: ReadonlySet<string>, base: string): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

/** The edit adding a library part, placed beside what is there; returns its name too. */
export function addLibraryPart(doc: LiveDocument, id: string): { recipe: LiveRecipe; name: string } {
  const assembly = assemblyOf(doc);
  const entry = PART_LIBRARY.find((p) => p.id === id);
  if (!entry) throw new LiveEditError('', `no library part "${id}"`);
  const name = freeName(takenIds(assembly), id);
  const n = Object.keys(assembly.parts).length;
  const part: PartDoc = {
    pose: { position: [100 * n, 150 + 60 * n, 50 * (n % 3)], rotation: [1, 0, 0, 0] },
    points: entry.points,
    ...(entry.axes ? { axes: entry.axes } : {}),
    ...(entry.frames ? { frames: entry.frames } : {}),
  };
  return { recipe: liveEdits.assembly(addPart(name, part)), name };
}

// ---------------------------------------------------------------- entities in the world

/** Solved part poses as the engine reports them: `[x, y, z, w, qx, qy, qz]` by part. */
export type PartPoses = Readonly<Record<string, readonly number[]>>;

/** An entity where it stands: its anchor (point, origin, centre) and, when it has one, its unit direction (an axis's direction, a plane's or circle's normal, a frame's z axis). */
export interface WorldEntity {
  kind: EntityKind;
  origin: Vec3Tuple;
  direction: Vec3Tuple | null;
}

/**
 * v turned by the quaternion q ([w, x, y, z] as files write it, any length: scaled by
 * 2/|q|²), in the Rodrigues form t = s·(q_v × v), v' = v + w·t + q_v × t, on gl-matrix's
 * vector operations over plain arrays (doubles).
 */
const rotate = (q: readonly number[], v: readonly number[]): Vec3Tuple => {
  const qv: Vec3Tuple = [q[1], q[2], q[3]];
  const t = vec3.cross([0, 0, 0], qv, [v[0], v[1], v[2]]);
  vec3.scale(t, t, 2 / (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]));
  const out = vec3.scaleAndAdd([0, 0, 0], [v[0], v[1], v[2]], t, q[0]);
  return vec3.add(out, out, vec3.cross([0, 0, 0], qv, t)) as Vec3Tuple;
};
/** v scaled to unit length (a zero vector stays zero). */
const unit = (v: readonly number[]): Vec3Tuple => vec3.normalize([0, 0, 0], [v[0], v[1], v[2]]) as Vec3Tuple;

/** A part's pose: the solved one when given, else its `state` pose, else its own. */
function poseOf(doc: AssemblyDoc, part: string, poses?: PartPoses): { position: readonly number[]; rotation: readonly number[] } {
  const solved = poses?.[part];
  if (solved && solved.length === 7) return { position: solved.slice(0, 3), rotation: solved.slice(3, 7) };
  const state = doc.state[`${part}.pose`];
  if (state !== undefined && typeof state === 'object') return state;
  return doc.parts[part].pose;
}

/** Where an entity (`part.entity`) stands, at the solved poses when given; null if there is none (a curve has no single anchor either). */
export function worldEntity(doc: AssemblyDoc, ref: string, poses?: PartPoses): WorldEntity | null {
  const split = splitReference(ref);
  const kind = entityKind(doc, ref);
  if (!split || !kind || kind === 'curve') return null;
  const part = doc.parts[split.owner];
  const pose = poseOf(doc, split.owner, poses);
  const place = (local: readonly number[]): Vec3Tuple => {
    const r = rotate(pose.rotation, local);
    return [r[0] + pose.position[0], r[1] + pose.position[1], r[2] + pose.position[2]];
  };
  const turn = (local: readonly number[]): Vec3Tuple => unit(rotate(pose.rotation, local));
  const name = split.name;
  switch (kind) {
    case 'point': return { kind, origin: place(part.points![name]), direction: null };
    case 'axis': { const a = part.axes![name]; return { kind, origin: place(a.origin), direction: turn(a.direction) }; }
    case 'plane': { const p = part.planes![name]; return { kind, origin: place(p.origin), direction: turn(p.normal) }; }
    case 'circle': { const c = part.circles![name]; return { kind, origin: place(c.center), direction: turn(c.normal) }; }
    case 'frame': { const f = part.frames![name]; return { kind, origin: place(f.origin), direction: turn(rotate(f.rotation, [0, 0, 1])) }; }
  }
  return null;
}

/** Axes, frames and planes of the document's parts, for the scene's axis lines (directions in the part's own frame). */
export function directedEntities(doc: AssemblyDoc): { ref: string; part: string; kind: 'axis' | 'frame' | 'plane'; local: Vec3Tuple; direction: Vec3Tuple }[] {
  const out: { ref: string; part: string; kind: 'axis' | 'frame' | 'plane'; local: Vec3Tuple; direction: Vec3Tuple }[] = [];
  for (const [name, p] of Object.entries(doc.parts)) {
    for (const [n, a] of Object.entries(p.axes ?? {})) out.push({ ref: `${name}.${n}`, part: name, kind: 'axis', local: [...a.origin], direction: unit(a.direction) });
    for (const [n, f] of Object.entries(p.frames ?? {})) out.push({ ref: `${name}.${n}`, part: name, kind: 'frame', local: [...f.origin], direction: unit(rotate(f.rotation, [0, 0, 1])) });
    for (const [n, q] of Object.entries(p.planes ?? {})) out.push({ ref: `${name}.${n}`, part: name, kind: 'plane', local: [...q.origin], direction: unit(q.normal) });
  }
  return out;
}

// ---------------------------------------------------------------- mates between picked entities

export type EntityMateType = ConstraintType | JointType;

/*
 * The default for a pair is the first valid type in this order: a revolute wherever it
 * fits (axis–axis, frame–frame, frame–axis), a ball between points or a point and a frame,
 * coincident for a point on an axis or a plane and between planes, then the rest.
 */
const PREFERENCE: readonly EntityMateType[] = [
  'revolute', 'ball', 'coincident', 'concentric', 'slider', 'cylindrical', 'fastened', 'distance', 'parallel', 'perpendicular',
  'angle', 'universal', 'pinslot', 'planar', 'tangent', 'path',
];

/** What each type does, for the menu. */
export const MATE_LABELS: Readonly<Record<EntityMateType, string>> = {
  revolute: 'revolute (hinge: turns about the axis)',
  ball: 'ball (centres coincide, free to turn)',
  coincident: 'coincident',
  concentric: 'concentric (axes line up)',
  slider: 'slider (slides along the axis)',
  cylindrical: 'cylindrical (turns and slides)',
  fastened: 'fastened (welded)',
  distance: 'distance (as picked)',
  parallel: 'parallel',
  perpendicular: 'perpendicular',
  angle: 'angle (as picked)',
  universal: 'universal',
  pinslot: 'pin in slot',
  planar: 'planar',
  tangent: 'tangent',
  path: 'path (point on curve)',
};

/** The mate types that join these two kinds of entity, the default first (empty: none does). */
export function mateTypesFor(a: EntityKind, b: EntityKind): EntityMateType[] {
  const valid = mateTypesJoining(a, b);
  return PREFERENCE.filter((t) => valid.includes(t));
}

/** The type a pick of these two kinds makes unless the user chose another; null when nothing joins them. */
export function defaultMateType(a: EntityKind, b: EntityKind): EntityMateType | null {
  return mateTypesFor(a, b)[0] ?? null;
}

const dot = (a: readonly number[], b: readonly number[]): number => vec3.dot([a[0], a[1], a[2]], [b[0], b[1], b[2]]);
const sub = (a: readonly number[], b: readonly number[]): Vec3Tuple => vec3.subtract([0, 0, 0], [a[0], a[1], a[2]], [b[0], b[1], b[2]]) as Vec3Tuple;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The mate of `type` between two entities as they stand now: a `distance` keeps the
 * picked distance (point–point, to an axis, or signed along a plane's normal; mm, to a
 * µm), an `angle` the picked angle (document units); a parallel, concentric or
 * coincident between two directed entities pointing opposite ways gets `flip`, so the
 * mate holds where it was picked instead of turning a part over.
 * @throws AssemblyError (path `mates`) when the type does not join these kinds.
 */
export function mateBetween(doc: AssemblyDoc, type: EntityMateType, a: string, b: string, poses?: PartPoses): MateDoc {
  const ea = worldEntity(doc, a, poses), eb = worldEntity(doc, b, poses);
  const ka = entityKind(doc, a), kb = entityKind(doc, b);
  if (!ka || !kb) throw new AssemblyError('mates', `no entity "${ka ? b : a}"`);
  if (!mateTypesFor(ka, kb).includes(type)) throw new AssemblyError('mates', `a ${type} mate does not join ${ka}–${kb}`);
  if (type === 'distance') {
    let value = 0;
    if (ea && eb) {
      const [point, other] = ea.kind === 'point' ? [ea, eb] : [eb, ea];
      const d = sub(point.origin, other.origin);
      if (other.kind === 'point') value = Math.hypot(d[0], d[1], d[2]);
      else if (other.kind === 'plane') value = dot(d, other.direction!);
      else { const along = dot(d, other.direction!); value = Math.sqrt(Math.max(0, dot(d, d) - along * along)); }
    }
    return { type, a, b, value: round(value, 3) };
  }
  if (type === 'angle') {
    const c = ea?.direction && eb?.direction ? Math.max(-1, Math.min(1, dot(ea.direction, eb.direction))) : 1;
    const radians = Math.acos(c);
    return { type, a, b, value: round(doc.units.angle === 'rad' ? radians : (radians * 180) / Math.PI, 6) };
  }
  if ((type === 'parallel' || type === 'concentric' || type === 'coincident') && ea?.direction && eb?.direction && dot(ea.direction, eb.direction) < 0) {
    return { type, a, b, flip: true };
  }
  return { type, a, b } as MateDoc;
}

function mateId(taken: ReadonlySet<string>, type: string, a: string, b: string): string {
  return freeName(taken, `${type}_${a.split('.')[0]}_${b.split('.')[0]}`);
}

/** The edit adding a mate of `type` between two picked entities (`part.entity`), at the solved poses when given. */
export function mateRecipe(doc: LiveDocument, type: EntityMateType, a: string, b: string, poses?: PartPoses): { recipe: LiveRecipe; id: string; mate: MateDoc } {
  const assembly = assemblyOf(doc);
  const mate = mateBetween(assembly, type, a, b, poses);
  const id = mateId(takenIds(assembly), type, a, b);
  return { recipe: liveEdits.assembly(addMate(id, mate)), id, mate };
}

/** The edit changing a mate's type (one undo entry): the mate is made again between the same entities, under a new id. */
export function retypeMateRecipe(doc: LiveDocument, id: string, type: EntityMateType, poses?: PartPoses): { recipe: LiveRecipe; id: string; mate: MateDoc } {
  const assembly = assemblyOf(doc);
  const old = assembly.mates[id];
  if (!old || isCoupling(old)) throw new AssemblyError(`mates.${id}`, `no mate "${id}" between entities`);
  const mate = mateBetween(assembly, type, old.a, old.b, poses);
  const taken = takenIds(assembly);
  taken.delete(id);
  const newId = mateId(taken, type, old.a, old.b);
  return { recipe: liveEdits.assembly(combine(removeMate(id), addMate(newId, mate))), id: newId, mate };
}

/** The edit removing a mate (and what depends on it: couplings, its coordinates' state and holds). */
export function removeMateRecipe(id: string): LiveRecipe {
  return liveEdits.assembly(removeMate(id));
}

/** The edit removing a part and the mates that join it. */
export function removePartRecipe(name: string): LiveRecipe {
  return liveEdits.assembly(removePart(name));
}

// ---------------------------------------------------------------- importing parts

/**
 * The edit adding the moving (non-fixed) parts of another assembly, with all their
 * entities, renamed on a clash (`crank` → `crank2`), placed beside what is there: the
 * group keeps its own layout and is shifted along x to start 150 mm past the current
 * parts. The file's mates are not brought: they may tie the parts to the file's ground,
 * which is not imported, and the user mates the parts here as with library parts.
 *
 * All moving parts at once, in one undo entry, rather than a choice of one: a file is
 * usually a part or a small set meant to go together, and a part not wanted is one
 * "Delete part" away. The file's fixed parts (its ground) are left out.
 * @throws AssemblyError when the source has no moving part.
 */
export function importParts(doc: LiveDocument, source: AssemblyDoc, fileName = 'the file'): { recipe: LiveRecipe; names: [string, string][] } {
  const assembly = assemblyOf(doc);
  const moving = Object.entries(source.parts).filter(([, p]) => !p.fixed);
  if (moving.length === 0) throw new AssemblyError('parts', `${fileName} has no moving part to import: only fixed ones`);
  const extent = (d: AssemblyDoc, names: readonly string[]) => {
    let lo = Infinity, hi = -Infinity;
    for (const name of names) {
      for (const ref of entityRefs(d, name)) {
        const e = worldEntity(d, ref);
        if (e) { lo = Math.min(lo, e.origin[0]); hi = Math.max(hi, e.origin[0]); }
      }
      const p = poseOf(d, name).position[0];
      lo = Math.min(lo, p); hi = Math.max(hi, p);
    }
    return { lo, hi };
  };
  const here = extent(assembly, Object.keys(assembly.parts));
  const there = extent(source, moving.map(([n]) => n));
  const shift = Number.isFinite(here.hi) ? here.hi + 150 - there.lo : 0;
  const taken = takenIds(assembly);
  const names: [string, string][] = [];
  const recipes: AssemblyRecipe[] = [];
  for (const [name, part] of moving) {
    const to = freeName(taken, name);
    taken.add(to);
    names.push([name, to]);
    const pose = poseOf(source, name);
    const { fixed: _fixed, ...rest } = part;
    void _fixed;
    recipes.push(addPart(to, { ...rest, pose: { position: [pose.position[0] + shift, pose.position[1], pose.position[2]], rotation: [pose.rotation[0], pose.rotation[1], pose.rotation[2], pose.rotation[3]] } }));
  }
  return { recipe: liveEdits.assembly(combine(...recipes)), names };
}

/** Every entity of a part as `part.entity`. */
export function entityRefs(doc: AssemblyDoc, part: string): string[] {
  const p = doc.parts[part];
  const out: string[] = [];
  for (const group of Object.keys(ENTITY_GROUPS) as EntityGroup[]) for (const n of Object.keys(p[group] ?? {})) out.push(`${part}.${n}`);
  return out;
}
