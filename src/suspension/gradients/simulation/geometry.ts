/**
 * Gradients of a suspension geometry file's simulation (`kinemate simulate GEOMETRY.yaml
 * --gradient`; docs/sensitivity.md) with respect to the file's own numbers: a hardpoint
 * coordinate (`<hardpoint>.x`, on an axle `left.<hardpoint>.x`) and the dynamics section's
 * and spring's numbers (`dynamics.tyre.stiffness`, `spring.rate`, …).
 *
 * A file number θ reaches the run through the assembly the template builds from it
 * (suspension-dynamics.ts). Which of the assembly's numbers it moves is read off the build
 * itself (built again with θ moved: only to see what moves, never to difference), and each
 * is then differentiated in closed form — an entity that copies the hardpoint moves one for
 * one, a two-force link's length L = |b − a| by (b − a)·(ḃ − ȧ)/L, an implicit spring free
 * length likewise, a copied mass, centre, inertia, rate or damping one for one — so the
 * gradient is the chain rule over the parameters the assembly route differentiates exactly
 * (sensitivity.ts: a CombinedParameter), the link lengths as Φ_θ rows and the free length
 * and tyre numbers as closed-form ∂R/∂θ, a hinge axis built from two hardpoints by its
 * closed-form turn (sensitivity-directions.ts), an axle point's turn of the spin axis and
 * moves of the wheel centre and contact (sensitivity-axle-points.ts). Anything else θ moves
 * (a mass placed from the part's points) refuses θ, naming what moved. The start moves too: settled (`start: equilibrium`) by the implicit function
 * theorem on the static balance, at design (`start: design`) not at all.
 */
import { entityNames, entityPosition, type AssemblyDoc } from '../../../assembly/types';
import type { Geometry } from '../../files';
import type { Point3 } from '../../files/read';
import { LinearLaw, PointToPointForce, TyreForce } from '../../../../mates/forces';
import type { DynamicsModel } from '../../../mechanics/build';
import {
  DynamicSensitivityError, parseResult, simulationGradients, type CombinedParameter, type DynamicGradients, type DynamicParameter, type DynamicResult, type GradientOptions, type ParameterTerm,
} from '../../../gradients/run';
import { axlePointMoves } from './axle-points';
import { lumpRates, lumpTerm, type LumpRate } from './lumps';
import { moveRoad, roadParameter, roadParameterNames, roadRate, roadStartMoves, roadValue } from './road';
import { prepareSuspensionDynamics, suspensionDynamicsAssembly } from '../../dynamics/model';
import { parseSuspensionResult } from './results';

import type { GeometrySource } from './source';
import { CHANGES, type Collected, type Probe } from './geometry-changes';
export type { GeometrySource } from './source';

const AXES = 'xyz';

/** The hardpoint sets of a file: [name prefix, points] (`''` on a corner, `left.` … on an axle). */
function hardpointSets(g: Geometry): [string, Record<string, Point3>][] {
  if (g.scope !== 'axle') return [['', g.corners[0].hardpoints]];
  const out: [string, Record<string, Point3>][] = g.corners.map((c) => [`${c.side}.`, c.hardpoints]);
  if (g.center) out.push(['center.', g.center]);
  return out;
}

/** Every number of the file a gradient may name, in file order (hardpoints, spring, dynamics); offered or not. */
export function geometryParameterNames(source: GeometrySource): string[] {
  const { geometry: g, spec } = source;
  const out: string[] = [];
  for (const [px, pts] of hardpointSets(g)) for (const name of Object.keys(pts)) for (const a of AXES) out.push(`${px}${name}.${a}`);
  for (const key of ['rate', 'damping', 'free_length'] as const) if (g.spring[key] !== undefined) out.push(`spring.${key}`);
  for (const [part, m] of Object.entries(spec.masses)) {
    out.push(`dynamics.masses.${part}.mass`);
    if (m.centre) for (const a of AXES) out.push(`dynamics.masses.${part}.centre.${a}`);
    if (m.inertia) for (const a of AXES) out.push(`dynamics.masses.${part}.inertia.${a}`);
    for (const k of ['spin_inertia', 'transverse_inertia'] as const) if (m[k] !== undefined) out.push(`dynamics.masses.${part}.${k}`);
  }
  for (const link of Object.keys(spec.links)) out.push(`dynamics.links.${link}`);
  if (spec.sprungMass !== null) out.push('dynamics.sprung_mass');
  out.push('dynamics.tyre.stiffness');
  if (spec.tyre.damping > 0) out.push('dynamics.tyre.damping');
  out.push(...roadParameterNames(g, spec));
  return out;
}

/** A copy of the source with the number `name` moved by d; null when the file has no such number. */
export function movedGeometrySource(source: GeometrySource, name: string, d: number): GeometrySource | null {
  const g = structuredClone({ ...source.geometry, raw: null }) as Geometry;
  const spec = structuredClone(source.spec);
  const out = { geometry: { ...g, raw: source.geometry.raw }, spec };
  const parts = name.split('.');
  if (parts[0] === 'spring' && parts.length === 2) {
    const key = parts[1] as 'rate' | 'damping' | 'free_length';
    if (!['rate', 'damping', 'free_length'].includes(key) || out.geometry.spring[key] === undefined) return null;
    out.geometry.spring[key]! += d;
    return out;
  }
  if (parts[0] === 'dynamics') {
    const [, group, key, field, axis] = parts;
    if (group === 'sprung_mass' && parts.length === 2 && spec.sprungMass !== null) { spec.sprungMass += d; return out; }
    if (group === 'tyre' && parts.length === 3 && (key === 'stiffness' || key === 'damping')) { spec.tyre[key] += d; return out; }
    if (group === 'links' && parts.length === 3 && spec.links[key] !== undefined) { spec.links[key] += d; return out; }
    if (group === 'road') return moveRoad(out.geometry, spec, name, d) ? out : null;
    const m = group === 'masses' ? spec.masses[key] : undefined;
    if (!m) return null;
    if (field === 'mass' && parts.length === 4) { m.mass += d; return out; }
    if ((field === 'spin_inertia' || field === 'transverse_inertia') && parts.length === 4 && m[field] !== undefined) { m[field]! += d; return out; }
    const c = AXES.indexOf(axis ?? '');
    if (parts.length !== 5 || c < 0) return null;
    if (field === 'centre' && m.centre) { m.centre[c] += d; return out; }
    if (field === 'inertia' && m.inertia) { m.inertia[c][c] += d; return out; }
    return null;
  }
  const c = AXES.indexOf(parts[parts.length - 1]);
  if (c < 0 || parts.length < 2) return null;
  const sets = hardpointSets(out.geometry);
  const set = parts.length === 2 ? (sets[0][0] === '' ? sets[0][1] : undefined) : sets.find(([px]) => px === `${parts[0]}.`)?.[1];
  const p = parts.length <= 3 ? set?.[parts[parts.length - 2]] : undefined;
  if (!p) return null;
  p[c] += d;
  return out;
}

/** Numeric leaves of a document: path → value (the roles section skipped: it names, it does not build). */
function leaves(x: unknown, path: string, out: Map<string, number>): Map<string, number> {
  if (typeof x === 'number') out.set(path, x);
  else if (Array.isArray(x)) x.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) if (!(path === '' && (k === 'suspension' || k === 'name'))) leaves(v, path ? `${path}.${k}` : k, out);
  return out;
}

const GROUPS = ['points', 'axes', 'planes', 'frames', 'circles'] as const;
type Group = (typeof GROUPS)[number];
const positionOf = (doc: AssemblyDoc, part: string, group: Group, entity: string): readonly number[] => entityPosition(doc.parts[part], group, entity)!;

/**
 * The geometry number `name` as a parameter of the assembly's run: what the build moves,
 * each differentiated in closed form. Throws DynamicSensitivityError on a name the file lacks
 * (with the file's list) and on one whose build moves something not differentiated yet.
 */
export function geometryParameter(source: GeometrySource, name: string, base?: AssemblyDoc, beams = false): CombinedParameter {
  const probe = probeMove(source, name, base);
  const c: Collected = {
    source, name, probe, axis: AXES.indexOf(name.slice(-1)) as 0 | 1 | 2,
    parts: [], rows: [], freeLengths: [], tyre: [], handled: new Set(), movedEntities: new Map(), roadMotions: new Set(),
    refuse: (what) => {
      throw new DynamicSensitivityError(`parameter "${name}": it also moves ${what.slice(0, 4).join(', ')}${what.length > 4 ? ` and ${what.length - 4} more` : ''} in the built assembly, which the gradient does not follow yet`);
    },
  };
  if (probe.hardpoint) copiedEntities(c);
  if (probe.hardpoint) axleMoves(c, beams);
  // masses the build places or combines (not a one-for-one copy of the number): their exact rates (sensitivity-lumps.ts)
  const lumps = massMoves(source, name, probe.doc0, probe.doc1, probe.delta, probe.changed, probe.hardpoint, probe.a, probe.b);
  if (typeof lumps === 'string') c.refuse([lumps]);
  else if (lumps) {
    for (const path of lumps.handled) c.handled.add(path);
    c.parts.push(...lumps.parts);
  }
  const road = name.startsWith('dynamics.road.') ? roadParameter(source.geometry, source.spec, name) : null;
  for (const path of probe.changed) {
    if (c.handled.has(path)) continue;
    if (!CHANGES.some((follow) => follow(c, path, road !== null))) c.refuse(probe.changed.filter((p) => !c.handled.has(p)));
  }
  return combined(c, lumps && typeof lumps !== 'string' ? lumps.rates : [], road);
}

// The steps of geometryParameter, in order: the probe build, the entities that copy the
// hardpoint, an axle point's moves, the masses, then each changed number of the build by
// the first of CHANGES that follows it, and the parameter put together.

/** The probe move (its size only needs to show which built numbers depend on θ); refuses a name the file lacks. */
function probeMove(source: GeometrySource, name: string, base: AssemblyDoc | undefined): Probe {
  const doc0 = base ?? suspensionDynamicsAssembly(source.geometry, source.spec).doc;
  const hardpoint = !name.startsWith('spring.') && !name.startsWith('dynamics.');
  const value0 = valueOf(source, name);
  const delta = hardpoint ? 0.5 : Math.max(1e-3 * Math.abs(value0 ?? 1), 1e-3);
  const moved = movedGeometrySource(source, name, delta);
  if (!moved || value0 === undefined) throw new DynamicSensitivityError(`parameter "${name}": not a number of this file (its numbers: ${geometryParameterNames(source).join(', ')})`);
  const doc1 = suspensionDynamicsAssembly(moved.geometry, moved.spec).doc;
  const a = leaves(doc0, '', new Map()), b = leaves(doc1, '', new Map());
  const changed: string[] = [];
  for (const [path, v] of a) { const w = b.get(path); if (w === undefined || Math.abs(w - v) > 1e-9 * Math.max(1, Math.abs(v))) changed.push(path); }
  for (const path of b.keys()) if (!a.has(path)) changed.push(path);
  return { doc0, doc1, a, b, changed, delta, hardpoint, hardpointAt: value0Point(source, name) };
}

/** Every entity at the hardpoint that moves with it one for one: a hardpoint parameter of its own. */
function copiedEntities(c: Collected): void {
  const { doc0, doc1, delta, changed } = c.probe, axis = c.axis;
  const hp = c.probe.hardpointAt!;
  for (const [part, p] of Object.entries(doc0.parts)) for (const group of GROUPS) {
    for (const entity of entityNames(p, group)) {
      const x = positionOf(doc0, part, group, entity), y = positionOf(doc1, part, group, entity);
      const same = x.every((v, i) => Math.abs(y[i] - v - (i === axis ? delta : 0)) <= 1e-9 * Math.max(1, Math.abs(v)));
      if (!same || !x.every((v, i) => v === hp[i]) || x.every((v, i) => v === y[i])) continue;
      const path = `parts.${part}.${group}.${entity}${group === 'points' ? '' : group === 'circles' ? '.center' : '.origin'}`;
      if (!changed.some((ch) => ch.startsWith(`${path}[`))) continue;
      for (let i = 0; i < 3; i++) c.handled.add(`${path}[${i}]`);
      c.parts.push({ parameter: { kind: 'hardpoint', part, entity, axis, group }, weight: 1 });
      c.movedEntities.set(`${part}.${entity}`, x);
    }
  }
}

/** An axle point turns the wheel's spin axis and moves the wheel centre and contact (sensitivity-axle-points.ts). */
function axleMoves(c: Collected, beams: boolean): void {
  const axle = axlePointMoves(c.source.geometry, c.probe.doc0, c.name, beams);
  if (!axle) return;
  const path = (q: CombinedParameter['parts'][number]['parameter']) => (q.kind === 'hardpoint' ? `parts.${q.part}.${q.group}.${q.entity}${q.group === 'points' ? '' : '.origin'}[0]` : '');
  c.parts = c.parts.filter(({ parameter: q }) => !axle.paths.has(path(q)));
  c.parts.push(...axle.parts);
  for (const p of axle.paths) c.handled.add(p);
}

/** The combined parameter from what was collected: its terms, each road it drives, its coefficients. */
function combined(c: Collected, massRates: LumpRate[], road: ReturnType<typeof roadParameter> | null): CombinedParameter {
  const { source, name, freeLengths, tyre } = c;
  const terms = [
    ...(freeLengths.length || tyre.length ? [(dyn: DynamicsModel) => extraTerms(dyn, name, freeLengths, tyre)] : []),
    ...(massRates.length ? [(dyn: DynamicsModel, layout: Int32Array) => lumpTerm(dyn, layout, massRates)] : []),
  ];
  // each road the number drives, by the build's motion id (the road part's name)
  const driven = road ? road.sides.map((side) => {
    const px = source.geometry.scope === 'axle' ? `${side}_` : '';
    if (!c.roadMotions.has(`${px}road`)) c.refuse([`motions.${px}road`]);
    const why = roadStartMoves(source.spec.road[side], road.field);
    if (why) throw new DynamicSensitivityError(`parameter "${name}": ${why}`);
    return { owner: `${px}road`, rate: roadRate(source.spec.road[side], road.field, -source.spec.drop) };
  }) : [];
  if (road && c.roadMotions.size !== driven.length) c.refuse([...c.roadMotions].map((r) => `motions.${r}`));
  return {
    kind: 'combined', name, parts: c.parts, rows: c.rows, ...(driven.length ? { driven } : {}),
    coefficients: [...freeLengths.map((f) => ({ ...f, what: 'free_length' as const })), ...tyre.map((f) => ({ ...f, what: name.endsWith('.damping') ? 'damping' as const : 'stiffness' as const }))],
    ...(terms.length === 1 ? { term: terms[0] } : terms.length ? { term: (dyn: DynamicsModel, layout: Int32Array) => sumTerms(terms.map((t) => t(dyn, layout))) } : {}),
  };
}

const sumTerms = (ts: ParameterTerm[]): ParameterTerm => (out, v, vdot, t) => { for (const f of ts) f(out, v, vdot, t); };

/**
 * The parts' masses θ moves other than as a copy of one number (a mass placed or shaped from
 * its part's points, lumps combined on a part, the sprung mass at the chassis points'
 * centroid with its heave axis): their exact rates, and the built paths they cover; null
 * when every moved mass number is a copy (the assembly's own mass, centre, inertia parameters).
 */
function massMoves(source: GeometrySource, name: string, doc0: AssemblyDoc, doc1: AssemblyDoc, delta: number, changed: string[], hardpoint: boolean,
  a: Map<string, number>, b: Map<string, number>): { rates: LumpRate[]; parts: CombinedParameter['parts'][number][]; handled: string[] } | string | null {
  const massPaths = changed.filter((p) => /^parts\.[^.]+\.mass\./.test(p));
  const heavePaths = changed.filter((p) => /^parts\.(ground|chassis)\.axes\.heave\.origin\[\d\]$/.test(p));
  // a copy: the number itself, one for one (mass, a centre or a diagonal inertia coordinate)
  const copy = (p: string) => !hardpoint && /\.mass\.(mass|centre\[\d\]|inertia\[(\d)\]\[\2\])$/.test(p) && Math.abs((b.get(p)! - a.get(p)!) / delta - 1) <= 1e-6;
  if (!heavePaths.length && massPaths.every(copy)) return null;
  const r = lumpRates(source.geometry, source.spec, name, doc0, doc1, delta);
  if (typeof r === 'string') return r;
  const parts: CombinedParameter['parts'][number][] = [];
  if (heavePaths.length) {
    for (const part of ['ground', 'chassis']) for (let k = 0; k < 3; k++) if (r.heave[k] !== 0) parts.push({ parameter: { kind: 'hardpoint', part, entity: 'heave', axis: k as 0 | 1 | 2, group: 'axes' }, weight: r.heave[k] });
  }
  return { rates: r.parts, parts, handled: [...massPaths, ...heavePaths] };
}

function valueOf(source: GeometrySource, name: string): number | undefined {
  const p = value0Point(source, name);
  if (p) return p[AXES.indexOf(name.slice(-1))];
  const { geometry: g, spec } = source;
  const parts = name.split('.');
  if (parts[0] === 'spring') return g.spring[parts[1] as 'rate'];
  if (parts[0] !== 'dynamics') return undefined;
  if (parts[1] === 'sprung_mass') return spec.sprungMass ?? undefined;
  if (parts[1] === 'tyre') return spec.tyre[parts[2] as 'stiffness'];
  if (parts[1] === 'links') return spec.links[parts[2]];
  if (parts[1] === 'road') return roadValue(g, spec, name);
  const m = parts[1] === 'masses' ? spec.masses[parts[2]] : undefined;
  if (!m) return undefined;
  if (parts[3] === 'mass') return m.mass;
  if ((parts[3] === 'spin_inertia' || parts[3] === 'transverse_inertia') && parts.length === 4) return m[parts[3]];
  const c = AXES.indexOf(parts[4] ?? '');
  return parts[3] === 'centre' ? m.centre?.[c] : parts[3] === 'inertia' ? m.inertia?.[c]?.[c] : undefined;
}

function value0Point(source: GeometrySource, name: string): Point3 | undefined {
  const parts = name.split('.');
  if (parts[0] === 'spring' || parts[0] === 'dynamics' || parts.length < 2 || parts.length > 3) return undefined;
  const sets = hardpointSets(source.geometry);
  const set = parts.length === 2 ? (sets[0][0] === '' ? sets[0][1] : undefined) : sets.find(([px]) => px === `${parts[0]}.`)?.[1];
  return set?.[parts[parts.length - 2]];
}

/**
 * Closed-form ∂R/∂θ of a spring's free length x₀ (the law k(x − x₀) + y₀: ∂/∂x₀ is the
 * constant −k) and of a tyre's stiffness and damping (its force N = k p − c ṗ acts along a
 * fixed line at the state, so Q is linear in N: ∂Q/∂k = (p/N) Q, ∂Q/∂c = ((N − k p)/(c N)) Q).
 */
function extraTerms(dyn: DynamicsModel, name: string, freeLengths: { element: string; w: number }[], tyres: { element: string; w: number }[]): ParameterTerm {
  const { system, forces } = dyn;
  const parts = [...freeLengths.map((f) => ({ ...f, free: true })), ...tyres.map((f) => ({ ...f, free: false }))].map(({ element, w, free }) => {
    const el = dyn.elements.find((e) => e.id === element)!;
    const slots = forces.slotsOf(el.index), offsets = forces.offsetsOf(el.index);
    const lv = new Float64Array(slots.length), lq = new Float64Array(slots.length);
    let evaluate: (t: number) => number;
    if (free) {
      const blk = el.block as PointToPointForce;
      if (!(blk instanceof PointToPointForce) || !(blk.spring instanceof LinearLaw)) throw new DynamicSensitivityError(`parameter "${name}": element "${element}" has no linear spring`);
      const unit = new PointToPointForce(`${blk.owner}'`, blk.vars[0], blk.a, blk.vars[1], blk.b, new LinearLaw(0, 0, -blk.spring.slope), null);
      evaluate = (t) => { unit.evaluate(system.state, offsets, lv, t, lq, null, null); return w; };
    } else {
      const blk = el.block as TyreForce;
      if (!(blk instanceof TyreForce)) throw new DynamicSensitivityError(`parameter "${name}": element "${element}" is not a tyre`);
      const damping = name.endsWith('.damping');
      if (damping && !(blk.damping > 0)) throw new DynamicSensitivityError(`parameter "${name}": the tyre has no damping to differentiate by`);
      evaluate = (t) => {
        blk.evaluate(system.state, offsets, lv, t, lq, null, null);
        const N = blk.last.force, p = blk.last.penetration;
        if (!(N > 0)) return 0;
        return (w * (damping ? (N - blk.stiffness * p) / blk.damping : p)) / N;
      };
    }
    return { slots, lv, lq, evaluate };
  });
  return (out, v, _vdot, t) => {
    for (const e of parts) {
      for (let k = 0; k < e.slots.length; k++) e.lv[k] = e.slots[k] < 0 ? 0 : v[e.slots[k]];
      e.lq.fill(0);
      const s = e.evaluate(t);
      if (s !== 0) for (let k = 0; k < e.slots.length; k++) if (e.slots[k] >= 0) out[e.slots[k]] -= s * e.lq[k];
    }
  };
}

/** A result of a geometry file's run: an assembly result with what its value is measured from (mm; 0 for a time). */
export interface GeometryResult { result: DynamicResult; from: number; travel?: { upright: string; cross: boolean } }

/**
 * Result names on a geometry file: the assembly's (`upright.wheel_centre.position.z@max`),
 * and the suspension frame's `wheel_travel` (`left.wheel_travel` on an axle, with @max,
 * @min, @cross=LEVEL): the wheel centre's height less its design height, which only the
 * axle points move: their gradient is less that height's rate (a level's: refused).
 */
export function parseGeometryResult(source: GeometrySource, name: string, doc?: AssemblyDoc): GeometryResult {
  const m = /^(?:([^.@]+)\.)?wheel_travel(?:@(max|min|final|cross=([-+0-9.eE]+)))?$/.exec(name);
  // the other printed columns (camber, element travel, tyre force, …): sensitivity-suspension-results.ts
  const own = m ? null : parseSuspensionResult(source, name, doc ?? suspensionDynamicsAssembly(source.geometry, source.spec).doc);
  if (own) return { result: own, from: 0 };
  if (!m) return { result: parseResult(name), from: 0 };
  const g = source.geometry, sides = g.corners.map((c) => c.side);
  const side = m[1] ?? (g.scope === 'axle' ? undefined : sides[0]);
  if (!side || !sides.includes(side as never)) throw new DynamicSensitivityError(`result "${name}": expected ${g.scope === 'axle' ? sides.map((s) => `${s}.wheel_travel`).join(' or ') : 'wheel_travel'}`);
  const upright = `${g.scope === 'axle' ? `${side}_` : ''}upright`;
  const z0 = (doc ?? suspensionDynamicsAssembly(g, source.spec).doc).parts[upright].points!.wheel_centre[2];
  const level = m[3] !== undefined ? Number(m[3]) : undefined;
  if (level !== undefined && !Number.isFinite(level)) throw new DynamicSensitivityError(`result "${name}": bad level`);
  const at = level !== undefined ? `@cross=${level + z0}` : m[2] ? `@${m[2]}` : '';
  return { result: parseResult(`${upright}.wheel_centre.position.z${at}`), from: level !== undefined ? 0 : z0, travel: { upright, cross: level !== undefined } };
}

/**
 * Gradients of results of a geometry file's run: the assembly built and settled as
 * `kinemate simulate` does (prepareSuspensionDynamics), each name a geometryParameter, each
 * result an assembly result or a name parseGeometryResult reads.
 */
export function geometrySimulationGradients(source: GeometrySource, names: readonly string[], results: readonly (DynamicResult | string)[], options: Omit<GradientOptions, 'start'>,
  method?: 'adjoint' | 'direct'): DynamicGradients {
  const model = prepareSuspensionDynamics(source.geometry, source.spec);
  const parameters: DynamicParameter[] = names.map((name) => geometryParameter(source, name, model.doc));
  const rs = results.map((r) => (typeof r === 'string' ? parseGeometryResult(source, r, model.doc) : { result: r, from: 0 }));
  model.ran = true;
  const g = simulationGradients(model.dyn, parameters, rs.map((r) => r.result), { ...options, start: source.spec.start === 'equilibrium' ? 'equilibrium' : 'fixed' }, method);
  g.results.forEach((r, k) => {
    r.value -= rs[k].from;
    const travel = rs[k].travel;
    if (!travel) return;
    // an axle point moves the design height the travel is measured from: less its rate
    parameters.forEach((p, j) => {
      const dz0 = p.kind !== 'combined' ? 0 : p.parts.reduce((sum, { parameter: q, weight }) => sum + (q.kind === 'hardpoint' && q.part === travel.upright && q.entity === 'wheel_centre' && (q.group ?? 'points') === 'points' && q.axis === 2 ? weight : 0), 0);
      // a crossing's level (LEVEL above the design height) moves with it: ∂T/∂level of it
      r.gradient[j] += travel.cross ? dz0 * r.perLevel! : -dz0;
    });
  });
  return g;
}

