/**
 * geometryParameter's record of what it collects (geometry.ts) and how each number of the
 * built assembly that a file number moves is followed in closed form (CHANGES, tried in
 * order): a two-force link's length, an axis or a device frame that turns, a point built as
 * a mean of hardpoints, a road's motion, a spring's free length, a copied stiffness,
 * damping, mass, centre or inertia.
 */
import type { AssemblyDoc } from '../../../assembly/types';
import type { Point3 } from '../../files/read';
import type { CombinedParameter } from '../../../gradients/run';
import { axisTurn } from '../../../gradients/parameters/directions';
import type { HardpointParameter } from '../../../gradients/parameters/hardpoints';
import { derivedPointWeight, frameTurn } from './frames';
import type { GeometrySource } from './source';

const sub = (a: readonly number[], b: readonly number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** What a probe move of the number changes in the built assembly. */
export interface Probe {
  /** The assembly as built, and built with the number moved by `delta`. */
  readonly doc0: AssemblyDoc;
  readonly doc1: AssemblyDoc;
  /** Their numeric leaves, path → value. */
  readonly a: Map<string, number>;
  readonly b: Map<string, number>;
  /** The paths whose number moved (or appeared), in the build's order. */
  readonly changed: string[];
  readonly delta: number;
  /** A hardpoint coordinate (not a spring or dynamics number). */
  readonly hardpoint: boolean;
  /** The hardpoint's design position (a hardpoint coordinate only). */
  readonly hardpointAt: Point3 | undefined;
}

/** The parameter as it is collected: its parts, rows and coefficients, and what is covered. */
export interface Collected {
  readonly source: GeometrySource;
  readonly name: string;
  readonly probe: Probe;
  /** The hardpoint's coordinate (0, 1, 2 for x, y, z). */
  readonly axis: 0 | 1 | 2;
  parts: CombinedParameter['parts'][number][];
  readonly rows: { owner: string; value: number }[];
  readonly freeLengths: { element: string; w: number }[];
  readonly tyre: { element: string; w: number }[];
  /** Built paths already followed. */
  readonly handled: Set<string>;
  /** Entities (by reference "part.entity") the hardpoint moves one for one, at their design position. */
  readonly movedEntities: Map<string, readonly number[]>;
  /** The road motions the number drives, by motion id. */
  readonly roadMotions: Set<string>;
  /** Refuses the number, naming what it moves that is not followed. */
  readonly refuse: (what: string[]) => never;
}

/** The rate of an entity's position along θ: the unit axis for one the hardpoint moves, else zero. */
function rateOf(c: Collected, ref: string): number[] {
  const e = new Array(3).fill(0);
  if (c.movedEntities.has(ref)) e[c.axis] = 1;
  return e;
}

/** A point of the built assembly by reference "part.point" (at design). */
function pointAt(c: Collected, ref: string): number[] | undefined {
  const [part, entity] = ref.split('.');
  return c.probe.doc0.parts[part].points?.[entity] as number[] | undefined;
}

/**
 * How a changed number of the build is followed, tried in this order: each says whether it
 * took `path` (and refuses what it recognises but cannot follow). `isRoad`: the number is a
 * road's.
 */
export const CHANGES: readonly ((c: Collected, path: string, isRoad: boolean) => boolean)[] = [
  // a two-force link's length L = |b − a|: Φ = |b − a| − L, Φ_θ = −dL/dθ
  (c: Collected, path: string): boolean => {
    const m = /^mates\.([^.]+)\.value$/.exec(path);
    if (!m || !c.probe.hardpoint) return false;
    const mate = c.probe.doc0.mates[m[1]];
    const pa = pointAt(c, mate.a), pb = pointAt(c, mate.b);
    if (mate.type !== 'distance' || !pa || !pb) c.refuse([path]);
    const d = sub(pb!, pa!), L = Math.hypot(d[0], d[1], d[2]);
    c.rows.push({ owner: m[1], value: -dot(d, sub(rateOf(c, mate.b), rateOf(c, mate.a))) / L });
    return true;
  },
  // an axis built from two hardpoints turns: its closed-form turn (sensitivity-directions.ts)
  (c: Collected, path: string): boolean => {
    const m = /^parts\.([^.]+)\.axes\.([^.]+)\.direction\[\d\]$/.exec(path);
    if (!m || !c.probe.hardpoint) return false;
    const [, part, entity] = m, ref = `${part}.${entity}`;
    const doc0 = c.probe.doc0;
    const turn = axisTurn(doc0, part, entity, c.probe.hardpointAt!, c.axis);
    const readByForce = Object.values(doc0.forces ?? {}).some((f) => Object.values(f as object).includes(ref));
    if (!turn || readByForce) c.refuse([path]);
    const own = c.parts.find(({ parameter: q }) => q.kind === 'hardpoint' && q.part === part && q.entity === entity && q.group === 'axes');
    if (own) (own.parameter as HardpointParameter).turn = turn!;
    else c.parts.push({ parameter: { kind: 'hardpoint', part, entity, axis: c.axis, group: 'axes', turn: turn!, still: true }, weight: 1 });
    for (let i = 0; i < 3; i++) c.handled.add(`parts.${part}.axes.${entity}.direction[${i}]`);
    return true;
  },
  // a point built as a mean of hardpoints moves by its weight (sensitivity-frames.ts)
  (c: Collected, path: string): boolean => {
    const m = /^parts\.([^.]+)\.points\.([^.]+)\[\d\]$/.exec(path);
    if (!m || !c.probe.hardpoint || derivedPointWeight(c.source.geometry, c.probe.doc0, m[1], m[2], c.name) === 0) return false;
    const [, part, entity] = m;
    c.parts.push({ parameter: { kind: 'hardpoint', part, entity, axis: c.axis, group: 'points' }, weight: derivedPointWeight(c.source.geometry, c.probe.doc0, part, entity, c.name) });
    for (let i = 0; i < 3; i++) c.handled.add(`parts.${part}.points.${entity}[${i}]`);
    return true;
  },
  // a device frame built along hardpoints turns (sensitivity-frames.ts)
  (c: Collected, path: string): boolean => {
    const m = /^parts\.([^.]+)\.frames\.([^.]+)\.rotation\[\d\]$/.exec(path);
    if (!m || !c.probe.hardpoint) return false;
    const [, part, entity] = m;
    const turn = frameTurn(c.source.geometry, c.probe.doc0, part, entity, c.name);
    if (!turn) c.refuse([path]);
    const own = c.parts.find(({ parameter: q }) => q.kind === 'hardpoint' && q.part === part && q.entity === entity && q.group === 'frames');
    if (own) (own.parameter as HardpointParameter).frameTurn = turn!;
    else c.parts.push({ parameter: { kind: 'hardpoint', part, entity, axis: c.axis, group: 'frames', frameTurn: turn!, still: true }, weight: 1 });
    for (let i = 0; i < 4; i++) c.handled.add(`parts.${part}.frames.${entity}.rotation[${i}]`);
    return true;
  },
  // a road's law: its motion's target moves (sensitivity-road.ts)
  (c: Collected, path: string, isRoad: boolean): boolean => {
    const m = /^motions\.([^.[]+)\./.exec(path);
    if (!m || !isRoad) return false;
    c.roadMotions.add(m[1]);
    return true;
  },
  // a spring's free length: the file's, or the implicit design length |a − b|
  (c: Collected, path: string): boolean => {
    const m = /^forces\.([^.]+)\.length$/.exec(path);
    if (!m) return false;
    const f = c.probe.doc0.forces![m[1]];
    if (f.type !== 'spring' && f.type !== 'springdamper') c.refuse([path]);
    if (c.name === 'spring.free_length') { c.freeLengths.push({ element: m[1], w: 1 }); return true; }
    const pa = pointAt(c, f.a), pb = pointAt(c, f.b);
    if (!c.probe.hardpoint || !pa || !pb) c.refuse([path]);
    const d = sub(pa!, pb!), L = Math.hypot(d[0], d[1], d[2]);
    c.freeLengths.push({ element: m[1], w: dot(d, sub(rateOf(c, f.a), rateOf(c, f.b))) / L });
    return true;
  },
  // a force element's stiffness or damping, copied (the tyre's as a coefficient)
  (c: Collected, path: string): boolean => {
    const m = /^forces\.([^.]+)\.(stiffness|damping)$/.exec(path);
    if (!m || c.probe.hardpoint) return false;
    const type = (c.probe.doc0.forces![m[1]] as { type: string }).type;
    if (type === 'tyre') c.tyre.push({ element: m[1], w: 1 });
    else c.parts.push({ parameter: { kind: m[2] as 'stiffness' | 'damping', element: m[1] }, weight: 1 });
    return true;
  },
  // one lump on the part: a copy of the file's number (else the combination moves more than one of these)
  (c: Collected, path: string): boolean => {
    const m = /^parts\.([^.]+)\.mass\.(mass|centre\[(\d)\]|inertia\[(\d)\]\[(\d)\])$/.exec(path);
    if (!m || c.probe.hardpoint) return false;
    const step = (c.probe.b.get(path)! - c.probe.a.get(path)!) / c.probe.delta;
    if (Math.abs(step - 1) > 1e-6) c.refuse([path]);
    const part = m[1];
    if (m[2] === 'mass') c.parts.push({ parameter: { kind: 'mass', part }, weight: 1 });
    else if (m[3] !== undefined) c.parts.push({ parameter: { kind: 'centre', part, axis: Number(m[3]) as 0 | 1 | 2 }, weight: 1 });
    else if (m[4] === m[5]) c.parts.push({ parameter: { kind: 'inertia', part, axis: Number(m[4]) as 0 | 1 | 2 }, weight: 1 });
    else c.refuse([path]);
    return true;
  },
];
