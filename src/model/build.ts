/**
 * From an assembly document to a solvable model: each part a pose variable, each mate its
 * residual blocks and coordinate variables, held coordinates as drivers. Units convert
 * here and nowhere else: angles in the file's unit outside, radians inside; lengths stay
 * in the file's unit.
 */
import { InternalError, KinemateError } from '../../kernel/errors.ts';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { vec3, type ReadonlyVec3 } from '../../kernel/vec3';
import {
  addMate, renewMate, Curve, frameEntity, type CoordinateKind, type Entity, type EntityOnPart, type MateHandle, type MateSpec, type JointCoordinate,
} from '../../mates';
import {
  entityKind, isCoupling, isJoint, splitReference,
  type AssemblyDoc, type MateDoc, type PartDoc, type PoseDoc,
} from '../assembly/types';
import { MateError } from '../../mates/errors';

export interface CoordinateInfo {
  name: string;
  variable: number;
  kind: CoordinateKind;
  mate: string;
}

export interface Model {
  readonly doc: AssemblyDoc;
  readonly system: System;
  /** Part name → pose variable. */
  readonly parts: ReadonlyMap<string, number>;
  readonly mates: ReadonlyMap<string, MateHandle>;
  /** Coordinate name (`jA.angle`) → its variable and kind. */
  readonly coordinates: ReadonlyMap<string, CoordinateInfo>;
  /** Radians per file angle unit. */
  readonly angleFactor: number;
}

/** An error the model builder raises for input it cannot use (named by its path). */
export class ModelError extends KinemateError {
  override name = 'ModelError';
}

function poseOf(p: PoseDoc): Float64Array {
  return P.pose(p.position, p.rotation);
}

/** The model's length scale: the size of everything placed (at least 1e-6, default 1). */
export function lengthScaleOf(doc: AssemblyDoc): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const grow = (p: ReadonlyVec3) => { for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], p[i]); hi[i] = Math.max(hi[i], p[i]); } };
  const w = vec3();
  // every entity's origin in world coordinates (no list of them built: a renewal per drag move runs this)
  for (const part of Object.values(doc.parts)) {
    const pose = poseOf(part.pose);
    grow(part.pose.position);
    const at = (p: ReadonlyVec3) => grow(P.applyPoint(w, pose, p));
    for (const name in part.points) at(part.points[name]);
    for (const name in part.frames) at(part.frames[name].origin);
    for (const name in part.axes) at(part.axes[name].origin);
    for (const name in part.planes) at(part.planes[name].origin);
    for (const name in part.circles) at(part.circles[name].center);
    for (const name in part.curves) for (const p of part.curves[name].polyline) at(p);
  }
  if (!Number.isFinite(lo[0])) return 1;
  const diag = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return diag > 1e-6 ? diag : 1;
}

function entityOf(part: PartDoc, name: string, kind: string): Entity {
  switch (kind) {
    case 'point': return { kind: 'point', point: part.points![name] };
    case 'frame': { const f = part.frames![name]; return frameEntity(f.origin, f.rotation); }
    case 'axis': { const a = part.axes![name]; return { kind: 'axis', origin: a.origin, direction: a.direction }; }
    case 'plane': { const p = part.planes![name]; return { kind: 'plane', origin: p.origin, normal: p.normal }; }
    case 'circle': { const c = part.circles![name]; return { kind: 'circle', center: c.center, normal: c.normal, radius: c.radius }; }
    case 'curve': {
      const c = part.curves![name] as PartDoc['curves'] extends Readonly<Record<string, infer C>> | undefined ? C & { smooth?: boolean } : never;
      return { kind: 'curve', curve: new Curve(c.polyline, c.closed ?? false, c.smooth ?? false) };
    }
  }
  throw new InternalError(`entityOf: unknown entity kind ${kind}`) // the loader checked every kind;
}

/** Build the model. The document is assumed valid (validateAssembly); the poses come from `state` where given. */
export function buildModel(doc: AssemblyDoc): Model {
  const L = lengthScaleOf(doc);
  const system = new System(L);
  const angleFactor = doc.units.angle === 'rad' ? 1 : Math.PI / 180;
  const parts = new Map<string, number>();
  for (const [name, part] of Object.entries(doc.parts)) {
    const fromState = doc.state[`${name}.pose`];
    const pose = typeof fromState === 'object' && fromState !== null ? poseOf(fromState as PoseDoc) : poseOf(part.pose);
    parts.set(name, system.addPose(name, pose, { fixed: part.fixed ?? false }));
  }
  const mates = new Map<string, MateHandle>();
  const coordinates = new Map<string, CoordinateInfo>();
  const resolve = entityResolver(doc, parts);
  // Couplings last: they name coordinates that other mates create.
  const ordered = Object.entries(doc.mates).sort(([, a], [, b]) => Number(isCoupling(a)) - Number(isCoupling(b)));
  for (const [id, mate] of ordered) {
    const spec = specOf(doc, id, mate, resolve, coordinates, angleFactor);
    const initial = initialCoordinates(doc, id, angleFactor);
    let handle: MateHandle;
    try {
      handle = addMate(system, id, spec, { initial });
    } catch (e) {
      throw new ModelError(`mates.${id}`, e instanceof MateError ? e.reason : e instanceof Error ? e.message.replace(`${id}: `, '') : String(e));
    }
    mates.set(id, handle);
    for (const [c, variable] of Object.entries(handle.coordinates)) {
      // a rolling mate's u is an arc length; a path's or tangent's u is a curve parameter
      const kind: CoordinateKind = c === 'angle' ? 'angle' : c === 'u' && mate.type !== 'rolling' ? 'parameter' : 'length';
      coordinates.set(`${id}.${c}`, { name: `${id}.${c}`, variable, kind, mate: id });
    }
  }
  for (const name of doc.held) {
    const info = coordinates.get(name);
    if (!info) throw new ModelError('held', `no coordinate "${name}"`);
    system.hold(info.variable);
  }
  return { doc, system, parts, mates, coordinates, angleFactor };
}

/**
 * The model of `doc`, a document of the same shape as the model's own (the same parts,
 * entities, mates, held coordinates and state keys; only numbers differ — a moved
 * hardpoint), made by renewing the model's system in place: the length scale, every pose
 * and coordinate at `doc`'s design, every block's numbers (renewMate). The same numbers as
 * buildModel(doc), without building (a batch of variants reuses one model). Null when the
 * shapes differ or a mate cannot be renewed; the model given is then left unusable.
 */
export function renewModel(model: Model, doc: AssemblyDoc): Model | null {
  const old = model.doc;
  if (doc.held.length || old.held.length || !sameShape(old.parts, doc.parts) || !sameShape(old.mates, doc.mates) || !sameShape(old.state, doc.state) || old.units.angle !== doc.units.angle) return null;
  const system = model.system;
  const L = lengthScaleOf(doc);
  system.lengthScale = L;
  const angleFactor = doc.units.angle === 'rad' ? 1 : Math.PI / 180;
  let renewed = 0;
  for (const [name, part] of Object.entries(doc.parts)) {
    const v = system.variables[model.parts.get(name)!];
    const fromState = doc.state[`${name}.pose`];
    system.state.set(typeof fromState === 'object' && fromState !== null ? poseOf(fromState as PoseDoc) : poseOf(part.pose), v.offset);
    v.scale = L;
    renewed++;
  }
  const resolve = entityResolver(doc, model.parts);
  const coordinates = model.coordinates as Map<string, CoordinateInfo>;
  const ordered = Object.entries(doc.mates).sort(([, a], [, b]) => Number(isCoupling(a)) - Number(isCoupling(b)));
  for (const [id, mate] of ordered) {
    const handle = model.mates.get(id);
    if (!handle) return null;
    const spec = specOf(doc, id, mate, resolve, coordinates, angleFactor);
    const initial = initialCoordinates(doc, id, angleFactor);
    if (!renewMate(system, handle, spec, { initial })) return null;
    renewed += Object.keys(handle.coordinates).length;
  }
  // every variable set again (no scalar of another origin keeps an old value)
  if (renewed !== system.variables.length) return null;
  return { ...model, doc };
}

/** Whether two parts of documents differ at most in their numbers (same keys, strings, array lengths). */
function sameShape(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return true;
  if (a === null || b === null || typeof a !== 'object') return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameShape(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameShape((a as Record<string, unknown>)[ka[i]], (b as Record<string, unknown>)[kb[i]])) return false;
  }
  return true;
}

function specOf(doc: AssemblyDoc, id: string, mate: MateDoc, resolve: (ref: string, path: string) => EntityOnPart, coordinates: Map<string, CoordinateInfo>, angleFactor: number): MateSpec {
  const path = `mates.${id}`;
  if (isCoupling(mate)) {
    const a = coordinates.get(mate.a), b = coordinates.get(mate.b);
    if (!a) throw new ModelError(`${path}.a`, `no coordinate "${mate.a}"`);
    if (!b) throw new ModelError(`${path}.b`, `no coordinate "${mate.b}"`);
    const m = mate as MateDoc & { ratio?: number; radius?: number; lead?: number; offset?: number };
    // offsets are in b's file unit
    const offset = (m.offset ?? 0) * (b.kind === 'angle' ? angleFactor : 1);
    // a ratio between an angle and a length in the file's angle unit: convert to radians
    let ratio = m.ratio;
    if (ratio !== undefined && mate.type === 'linear') {
      if (a.kind === 'angle' && b.kind !== 'angle') ratio = ratio / angleFactor;
      if (a.kind !== 'angle' && b.kind === 'angle') ratio = ratio * angleFactor;
    }
    return { type: mate.type, a: { variable: a.variable, kind: a.kind }, b: { variable: b.variable, kind: b.kind }, ratio, radius: m.radius, lead: m.lead, offset };
  }
  const a = resolve(mate.a, `${path}.a`), b = resolve(mate.b, `${path}.b`);
  if (isJoint(mate)) {
    const limits: Partial<Record<JointCoordinate, [number, number]>> = {};
    for (const [c, range] of Object.entries(mate.limits ?? {}) as [JointCoordinate, readonly [number, number]][]) {
      const k = c === 'angle' ? angleFactor : 1;
      limits[c] = [range[0] * k, range[1] * k];
    }
    return { type: mate.type, a, b, limits };
  }
  const value = 'value' in mate && typeof mate.value === 'number' ? (mate.type === 'angle' ? mate.value * angleFactor : mate.value) : undefined;
  void doc;
  return { type: mate.type, a, b, value };
}

/** The resolver of `part.entity` references of `doc` onto the model's parts (ModelError at `path` when there is none). */
function entityResolver(doc: AssemblyDoc, parts: ReadonlyMap<string, number>): (ref: string, path: string) => EntityOnPart {
  return (ref, path) => {
    const r = splitReference(ref);
    const kind = entityKind(doc, ref);
    if (!r || !kind) throw new ModelError(path, `no entity "${ref}"`);
    return { part: parts.get(r.owner)!, entity: entityOf(doc.parts[r.owner], r.name, kind) };
  };
}

/** A mate's coordinates given in the file's `state` (`<mate>.<coordinate>`), angles in radians. */
function initialCoordinates(doc: AssemblyDoc, id: string, angleFactor: number): Record<string, number> {
  const initial: Record<string, number> = {};
  for (const [key, value] of Object.entries(doc.state)) {
    if (typeof value !== 'number' || !key.startsWith(`${id}.`)) continue;
    const c = key.slice(id.length + 1);
    initial[c] = c === 'angle' ? value * angleFactor : value;
  }
  return initial;
}
