/**
 * Suspension dynamics from a geometry file (docs/dynamics.md "Suspension dynamics"): the
 * geometry's template assembly (src/suspension/build/template.ts, with its coilover, torsion bar,
 * bars and damper force elements) plus what its `dynamics` section gives — part masses, a
 * sprung mass on a vertical slider or a fixed chassis, a tyre per wheel on a road part that a
 * motion drives (a sine, a (1 − cos) bump or a table), a start at the static equilibrium or
 * at design dropped from a height — as a plain assembly document, run by simulate(). Each
 * frame gains the suspension's view: wheel-centre travel, camber, toe, element travel, link
 * forces, tyre force.
 */
import type { AssemblyDoc, ForceDoc, MateDoc } from '../../assembly/types';
import { validateAssembly } from '../../assembly/load';
import { ProblemList } from '../files/errors';
import { isRecord, type Point3 } from '../files/read';
import { tireRadius, type Geometry } from '../files';
import { SuspensionModel } from '../build/model';
import { suspensionAssembly } from '../build/template';
import type { SuspensionRoles } from '../build/roles';
import { IntegratorError } from '../../../kernel/integrator/integrator';
import { buildDynamics, type DynamicsModel } from '../../mechanics/build';
import { equilibrium, type EquilibriumResult } from '../../mechanics/equilibrium';
import { simulate, type SimulateOptions, type SimulationFrame, type SimulationResult } from '../../mechanics/simulate';
import { elementReports } from '../../mechanics/statics';
import { InternalError } from '../../../kernel/errors';
import { nonNegative, positive, readNumber, readRoadSpec, type RoadSpec } from './road';
import { wheelInertia, wheelMomentsProblem } from './wheel-inertia';

/** The wheel's moments about its own axes (wheel-inertia.ts). */
const MOMENTS = ['spin_inertia', 'transverse_inertia'] as const;

// ---- the `dynamics` section ----

export interface MassSpec {
  /** kg. */
  mass: number;
  /** mm, chassis axes at design; default the centroid of the part's points. */
  centre?: Point3;
  /** kg·mm² about the centre, chassis axes; default the part's points as equal point masses. */
  inertia?: number[][];
  /** The wheel's only: kg·mm² about its own spin axis and a diameter (wheel-inertia.ts). */
  spin_inertia?: number;
  transverse_inertia?: number;
}

export type { RoadSpec } from './road';

export interface SuspensionDynamicsSpec {
  /** Part (or per-corner part, without its side prefix) → mass; `wheel` rides on the upright. */
  masses: Record<string, MassSpec>;
  /** Two-force link (distance mate, without side prefix) → kg, half at each end. */
  links: Record<string, number>;
  /** kg on a vertical slider; null: the chassis is fixed. */
  sprungMass: number | null;
  tyre: { stiffness: number; damping: number };
  /** Per side; a side without a road sees a flat one. */
  road: Record<string, RoadSpec>;
  start: 'equilibrium' | 'design';
  /** mm: the road starts this far below the tyre (start at design). */
  drop: number;
}

const FIELDS = ['masses', 'links', 'sprung_mass', 'tyre', 'road', 'start', 'drop'];
/** Segments of the table a (1 − cos) bump is written as. */
const BUMP_SEGMENTS = 64;

/** Read a geometry file's `dynamics` section strictly: every problem named by its path, all at once. */
export function readSuspensionDynamics(raw: unknown, geometry: Geometry, fileName?: string): SuspensionDynamicsSpec {
  const problems = new ProblemList();
  const spec: SuspensionDynamicsSpec = { masses: {}, links: {}, sprungMass: null, tyre: { stiffness: 0, damping: 0 }, road: {}, start: 'equilibrium', drop: 0 };
  if (!isRecord(raw)) {
    problems.add('dynamics', raw === undefined ? 'missing: a geometry file simulates with a dynamics section (masses, tyre, road)' : 'expected a mapping');
    problems.throwIfAny(fileName);
  }
  const d = raw as Record<string, unknown>;
  for (const key of Object.keys(d)) if (!FIELDS.includes(key)) problems.add(`dynamics.${key}`, `unknown field (expected ${FIELDS.join(', ')})`);
  const num = (x: unknown, path: string, check?: (v: number) => string | null) => readNumber(problems, x, path, check);
  const vec3 = (x: unknown, path: string): Point3 | undefined => {
    if (!Array.isArray(x) || x.length !== 3) { problems.add(path, 'expected [x, y, z]'); return undefined; }
    const v = x.map((c, i) => num(c, `${path}[${i}]`));
    return v.every((c) => c !== undefined) ? (v as Point3) : undefined;
  };
  const tensor = (x: unknown, path: string): number[][] | undefined => {
    if (Array.isArray(x) && x.length === 3 && x.every((r) => typeof r === 'number')) {
      const v = vec3(x, path);
      return v && [[v[0], 0, 0], [0, v[1], 0], [0, 0, v[2]]];
    }
    if (Array.isArray(x) && x.length === 3 && x.every((r) => Array.isArray(r))) {
      const rows = x.map((r, i) => vec3(r, `${path}[${i}]`));
      return rows.every((r) => r !== undefined) ? (rows as number[][]) : undefined;
    }
    problems.add(path, 'expected [Ixx, Iyy, Izz] or a 3×3 matrix (kg·mm²)');
    return undefined;
  };
  if (d.masses !== undefined) {
    if (!isRecord(d.masses)) problems.add('dynamics.masses', 'expected a mapping of part → { mass, centre?, inertia? }');
    else for (const [part, m] of Object.entries(d.masses)) {
      const path = `dynamics.masses.${part}`;
      if (typeof m === 'number') { const mass = num(m, path, positive); if (mass !== undefined) spec.masses[part] = { mass }; continue; }
      if (!isRecord(m)) { problems.add(path, 'expected a mass in kg or { mass, centre?, inertia? }'); continue; }
      const keys = part === 'wheel' ? ['mass', 'centre', 'inertia', ...MOMENTS] : ['mass', 'centre', 'inertia'];
      for (const key of Object.keys(m)) if (!keys.includes(key)) problems.add(`${path}.${key}`, `unknown field (expected ${keys.join(', ')})`);
      const mass = num(m.mass, `${path}.mass`, positive);
      const centre = m.centre === undefined ? undefined : vec3(m.centre, `${path}.centre`);
      if (part === 'wheel' && centre) problems.add(`${path}.centre`, 'the wheel sits at the wheel centre');
      const inertia = m.inertia === undefined ? undefined : tensor(m.inertia, `${path}.inertia`);
      const moments: Partial<Record<(typeof MOMENTS)[number], number>> = {};
      for (const key of MOMENTS) {
        if (part !== 'wheel' || m[key] === undefined) continue;
        if (inertia) problems.add(`${path}.${key}`, 'give the wheel\'s inertia or its moments (spin_inertia, transverse_inertia), not both');
        const v = num(m[key], `${path}.${key}`, positive);
        if (v !== undefined) moments[key] = v;
      }
      const why = mass !== undefined && part === 'wheel' ? wheelMomentsProblem({ mass, ...moments }, geometry) : null;
      if (why) problems.add(`${path}.spin_inertia`, why);
      if (mass !== undefined) spec.masses[part] = { mass, ...(centre ? { centre } : {}), ...(inertia ? { inertia } : {}), ...moments };
    }
  }
  if (d.links !== undefined) {
    if (!isRecord(d.links)) problems.add('dynamics.links', 'expected a mapping of link → mass (kg)');
    else for (const [link, m] of Object.entries(d.links)) { const mass = num(m, `dynamics.links.${link}`, positive); if (mass !== undefined) spec.links[link] = mass; }
  }
  if (d.sprung_mass !== undefined) spec.sprungMass = num(d.sprung_mass, 'dynamics.sprung_mass', positive) ?? null;
  if (!isRecord(d.tyre)) problems.add('dynamics.tyre', 'expected { stiffness (N/mm), damping? (N·s/mm) }');
  else {
    for (const key of Object.keys(d.tyre)) if (!['stiffness', 'damping'].includes(key)) problems.add(`dynamics.tyre.${key}`, 'unknown field (expected stiffness, damping)');
    spec.tyre.stiffness = num(d.tyre.stiffness, 'dynamics.tyre.stiffness', positive) ?? 0;
    spec.tyre.damping = d.tyre.damping === undefined ? 0 : num(d.tyre.damping, 'dynamics.tyre.damping', nonNegative) ?? 0;
  }
  const sides = geometry.corners.map((c) => c.side);
  const readRoad = (r: unknown, path: string) => readRoadSpec(problems, r, path);
  if (d.road !== undefined) {
    const r = d.road;
    if (isRecord(r) && Object.keys(r).some((k) => sides.includes(k as never))) {
      for (const [side, sr] of Object.entries(r)) {
        if (!sides.includes(side as never)) { problems.add(`dynamics.road.${side}`, `no such corner (expected ${sides.join(', ')})`); continue; }
        const road = readRoad(sr, `dynamics.road.${side}`);
        if (road) spec.road[side] = road;
      }
    } else {
      const road = readRoad(r, 'dynamics.road');
      if (road) for (const side of sides) spec.road[side] = road;
    }
  }
  if (d.start !== undefined) {
    if (d.start !== 'equilibrium' && d.start !== 'design') problems.add('dynamics.start', `expected "equilibrium" or "design", got ${JSON.stringify(d.start)}`);
    else spec.start = d.start;
  }
  if (d.drop !== undefined) {
    spec.drop = num(d.drop, 'dynamics.drop', nonNegative) ?? 0;
    if (d.start === 'equilibrium') problems.add('dynamics.drop', 'a drop starts at design, not at the equilibrium');
    spec.start = 'design';
  }
  problems.throwIfAny(fileName);
  return spec;
}

// ---- the assembly ----

type Mat3 = number[][];
const zero3 = (): Mat3 => [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
/** Inertia of point masses about c: Σ m (|r|² E − r rᵀ). */
function pointsInertia(points: readonly Point3[], mass: number, c: Point3): Mat3 {
  const I = zero3();
  for (const p of points) addPoint(I, mass, [p[0] - c[0], p[1] - c[1], p[2] - c[2]]);
  return I;
}
function addPoint(I: Mat3, m: number, r: Point3): void {
  const r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) I[i][j] += m * ((i === j ? r2 : 0) - r[i] * r[j]);
}
interface Lump { mass: number; centre: Point3; inertia: Mat3 }
/** One rigid body from several: masses add, centres average, inertias move to the common centre (parallel axes). */
function combine(lumps: readonly Lump[]): Lump {
  const mass = lumps.reduce((s, l) => s + l.mass, 0);
  const centre: Point3 = [0, 1, 2].map((i) => lumps.reduce((s, l) => s + l.mass * l.centre[i], 0) / mass) as Point3;
  const inertia = zero3();
  for (const l of lumps) {
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) inertia[i][j] += l.inertia[i][j];
    addPoint(inertia, l.mass, [l.centre[0] - centre[0], l.centre[1] - centre[1], l.centre[2] - centre[2]]);
  }
  return { mass, centre, inertia };
}

/** Road height over time as a motion law (sine or table), `shift` mm added (a drop lowers the road). */
export function roadLaw(road: RoadSpec | undefined, shift: number): Record<string, unknown> {
  if (!road) return { table: [[0, shift], [1, shift]] };
  if ('sine' in road) return { sine: { ...road.sine, offset: (road.sine.offset ?? 0) + shift } };
  if ('table' in road) return { table: road.table.map(([t, z]) => [t, z + shift]) };
  const { height, duration, start } = road.bump;
  const rows: [number, number][] = [];
  if (start > 0) rows.push([0, shift]);
  for (let k = 0; k <= BUMP_SEGMENTS; k++) {
    const s = k / BUMP_SEGMENTS;
    rows.push([start + s * duration, shift + 0.5 * height * (1 - Math.cos(2 * Math.PI * s))]);
  }
  return { table: rows };
}

export interface SuspensionDynamicsModel {
  doc: AssemblyDoc;
  dyn: DynamicsModel;
  sm: SuspensionModel;
  spec: SuspensionDynamicsSpec;
  /** Per corner side: the road's coordinate. */
  roads: Record<string, string>;
  /** Spring, damper and springdamper lengths at design (mm). */
  designLengths: Record<string, number>;
  /** The static equilibrium the run starts from (start: equilibrium). */
  equilibrium?: EquilibriumResult;
  /** Set by a run: the run adds the roads' motion rows to the system, so a prepared model runs once. */
  ran?: boolean;
}

/** The dynamic assembly of a geometry with its dynamics spec: a document any `simulate` runs. */
export function suspensionDynamicsAssembly(geometry: Geometry, spec: SuspensionDynamicsSpec): { doc: AssemblyDoc; roads: Record<string, string> } {
  const base = suspensionAssembly(geometry, `${geometry.topology} ${geometry.scope} dynamics`);
  type MutablePart = { fixed?: boolean; pose: unknown; points?: Record<string, Point3>; axes?: Record<string, unknown>; mass?: unknown; [k: string]: unknown };
  const parts: Record<string, MutablePart> = JSON.parse(JSON.stringify(base.parts));
  const mates: Record<string, MateDoc> = JSON.parse(JSON.stringify(base.mates));
  const forces: Record<string, ForceDoc> = JSON.parse(JSON.stringify(base.forces ?? {}));
  const problems = new ProblemList();
  const prefixes = geometry.corners.map((c) => (geometry.scope === 'axle' ? `${c.side}_` : ''));
  const pointsOf = (part: string): Point3[] => Object.values(parts[part].points ?? {});
  const lumps = new Map<string, Lump[]>();
  const addLump = (part: string, l: Lump) => { if (!lumps.has(part)) lumps.set(part, []); lumps.get(part)!.push(l); };
  const partsFor = (key: string): string[] => (parts[key] ? [key] : prefixes.map((px) => `${px}${key}`).filter((p) => parts[p]));
  const chassis = 'chassis';
  const roles = base.suspension as SuspensionRoles;
  for (const [key, m] of Object.entries(spec.masses)) {
    if (key === 'wheel') continue;
    const targets = partsFor(key).filter((p) => p !== chassis);
    if (targets.length === 0) { problems.add(`dynamics.masses.${key}`, `no moving part "${key}" (parts: ${Object.keys(parts).filter((p) => p !== chassis).join(', ')}, wheel)`); continue; }
    for (const part of targets) {
      const pts = pointsOf(part);
      const centre = m.centre ?? (pts.length ? ([0, 1, 2].map((i) => pts.reduce((s, p) => s + p[i], 0) / pts.length) as Point3) : undefined);
      if (!centre) { problems.add(`dynamics.masses.${key}.centre`, `part "${part}" has no points to place its mass: give a centre`); continue; }
      addLump(part, { mass: m.mass, centre, inertia: m.inertia ?? pointsInertia(pts, m.mass / Math.max(1, pts.length), centre) });
    }
  }
  const roads: Record<string, string> = {};
  const motions: Record<string, unknown> = {};
  const R = tireRadius(geometry.wheel.tire);
  const support = spec.sprungMass !== null ? 'ground' : chassis;
  if (spec.sprungMass !== null) {
    // the chassis heaves on a vertical slider from a fixed ground
    const cpts = pointsOf(chassis);
    const centre = (geometry.vehicle.cg_position ?? [0, 1, 2].map((i) => cpts.reduce((s, p) => s + p[i], 0) / cpts.length)) as Point3;
    delete parts[chassis].fixed;
    parts.ground = { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, axes: { heave: { origin: centre, direction: [0, 0, 1] } } };
    parts[chassis].axes = { ...(parts[chassis].axes ?? {}), heave: { origin: centre, direction: [0, 0, 1] } };
    mates.heave = { type: 'slider', a: 'ground.heave', b: `${chassis}.heave` } as MateDoc;
    addLump(chassis, { mass: spec.sprungMass, centre, inertia: zero3() });
  }
  geometry.corners.forEach((corner, i) => {
    // a beam axle's corners share one part (roles' upright): their wheel points are named per side there
    const px = prefixes[i], upright = roles.corners[i].upright, hp = corner.hardpoints;
    const own = upright === `${px}upright`, wcName = own ? 'wheel_centre' : `${px}wheel_centre`, spinName = own ? 'spin' : `${px}spin`;
    const ai = hp.axle_inboard, ao = hp.axle_outboard;
    const a = [ao[0] - ai[0], ao[1] - ai[1], ao[2] - ai[2]], l = Math.hypot(a[0], a[1], a[2]);
    const s = a.map((x) => x / l) as Point3;
    const off = geometry.wheel.offset;
    const wc: Point3 = [ao[0] - off * s[0], ao[1] - off * s[1], ao[2] - off * s[2]];
    // the contact centre at design: the lowest point of the wheel's circle
    const down = [s[2] * s[0], s[2] * s[1], s[2] * s[2] - 1], dl = Math.hypot(down[0], down[1], down[2]);
    const contact: Point3 = [wc[0] + (R * down[0]) / dl, wc[1] + (R * down[1]) / dl, wc[2] + (R * down[2]) / dl];
    const up = parts[upright];
    up.points = { ...up.points, [wcName]: wc };
    up.axes = { ...(up.axes ?? {}), [spinName]: { origin: wc, direction: s } };
    const wheel = spec.masses.wheel;
    if (wheel) {
      // a solid cylinder of the tyre's radius and width unless given
      addLump(upright, { mass: wheel.mass, centre: wc, inertia: wheelInertia(wheel, geometry, s) });
    }
    const road = `${px}road`;
    parts[road] = { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: { surface: contact }, axes: { guide: { origin: contact, direction: [0, 0, 1] } } };
    parts[support].axes = { ...(parts[support].axes ?? {}), [`${px}road_guide`]: { origin: contact, direction: [0, 0, 1] } };
    mates[`${px}road_slide`] = { type: 'slider', a: `${support}.${px}road_guide`, b: `${road}.guide` } as MateDoc;
    roads[corner.side] = `${px}road_slide.slide`;
    motions[road] = { coordinate: roads[corner.side], ...roadLaw(spec.road[corner.side], -spec.drop) };
    forces[`${px}tyre`] = {
      type: 'tyre', centre: `${upright}.${wcName}`, axis: `${upright}.${spinName}`, radius: R, stiffness: spec.tyre.stiffness,
      ...(spec.tyre.damping > 0 ? { damping: spec.tyre.damping } : {}), road: `${road}.surface`,
    } as ForceDoc;
  });
  // two-force links: half the mass at each end, a point mass on the part that carries it
  for (const [key, m] of Object.entries(spec.links)) {
    const ids = (mates[key] ? [key] : prefixes.map((px) => `${px}${key}`)).filter((id) => mates[id]?.type === 'distance');
    if (ids.length === 0) {
      const links = Object.entries(mates).filter(([, mt]) => mt.type === 'distance').map(([id]) => id);
      problems.add(`dynamics.links.${key}`, `no two-force link "${key}" (links: ${links.join(', ') || 'none'})`);
      continue;
    }
    for (const id of ids) {
      const mate = mates[id] as { a: string; b: string };
      for (const ref of [mate.a, mate.b]) {
        const [part, point] = ref.split('.');
        if (parts[part].fixed) continue;
        addLump(part, { mass: m / 2, centre: parts[part].points![point], inertia: zero3() });
      }
    }
  }
  problems.throwIfAny();
  for (const [part, ls] of lumps) {
    const b = combine(ls);
    parts[part].mass = { mass: b.mass, centre: b.centre, inertia: b.inertia };
  }
  const steering = (base.suspension as { steering: string | null }).steering;
  const doc = validateAssembly({
    ...base,
    units: { length: 'mm', angle: 'deg', mass: 'kg', time: 's', force: 'N' },
    parts, mates, forces,
    gravity: [0, 0, -9806.65],
    held: steering ? [steering] : [],
    motions,
  });
  return { doc, roads };
}

/** A road's motion as suspensionDynamicsAssembly writes it (roadLaw): its slide driven by a sine or a table. */
interface RoadMotionDoc { coordinate: string; sine?: { amplitude: number; frequency: number; phase?: number; offset?: number }; table?: [number, number][] }

/** Build, and (start: equilibrium) settle on the road: the model a run starts from. */
export function prepareSuspensionDynamics(geometry: Geometry, spec: SuspensionDynamicsSpec): SuspensionDynamicsModel {
  const { doc, roads } = suspensionDynamicsAssembly(geometry, spec);
  const dyn = buildDynamics(doc);
  const sm = new SuspensionModel(doc, dyn.model);
  const designLengths: Record<string, number> = {};
  for (const [id, r] of Object.entries(elementReports(dyn))) if ('length' in r && typeof r.length === 'number') designLengths[id] = r.length;
  const out: SuspensionDynamicsModel = { doc, dyn, sm, spec, roads, designLengths };
  if (spec.start === 'equilibrium') {
    // the roads held where their motions start, the steering held by the file
    const motions = (doc as AssemblyDoc & { motions: Record<string, RoadMotionDoc> }).motions;
    const held: number[] = [];
    for (const m of Object.values(motions)) {
      const info = dyn.model.coordinates.get(m.coordinate)!;
      const value = m.table ? m.table[0][1] : m.sine!.offset! + m.sine!.amplitude * Math.sin(((m.sine!.phase ?? 0) * Math.PI) / 180);
      dyn.system.hold(info.variable, value);
      held.push(info.variable);
    }
    // a sprung mass starts the search with the tyres already carrying the weight: at design they
    // just touch, and with no stiffness in heave there Newton has nothing to go on
    if (spec.sprungMass !== null) {
      const weight = dyn.bodies.reduce((s, b) => s + b.body.mass, 0) * Math.hypot(...dyn.gravity);
      const heave = dyn.model.coordinates.get('heave.slide')!.variable;
      // first the corners under the body held there, then the body let go
      dyn.system.hold(heave, -weight / (spec.tyre.stiffness * geometry.corners.length));
      const first = equilibrium(dyn);
      dyn.system.release(heave);
      if (first.status !== 'solved') out.equilibrium = first;
    }
    out.equilibrium ??= equilibrium(dyn);
    for (const v of held) dyn.system.release(v);
    if (out.equilibrium.status !== 'solved') throw new IntegratorError(`the static equilibrium on the road was not found: ${out.equilibrium.message ?? 'unbalanced'}`);
  }
  return out;
}

/** What a frame says about the suspension. */
export interface SuspensionFrame {
  /** Per corner side. */
  corners: Record<string, {
    /** mm: wheel-centre height change since design (world z). */
    wheel_travel: number;
    /** mm: the same relative to the chassis (differs from wheel_travel with a sprung mass). */
    suspension_travel: number;
    /** deg. */
    camber: number | null;
    toe_angle: number | null;
    /** mm: the road's height above the design contact centre. */
    road: number;
    /** N, and mm of tyre compression. */
    tyre_force: number;
    tyre_penetration: number;
  }>;
  /** Springs, dampers, springdampers: length (mm), travel since design (mm, + longer), rate (mm/s), tension (N, + pulls the ends together). */
  elements: Record<string, { length: number; travel: number; rate: number; tension: number }>;
  /** Two-force links: axial force (N, tension +). */
  links: Record<string, number>;
  /** mm: the sprung mass's heave since design (with a sprung mass). */
  chassis_heave?: number;
}

export type SuspensionSimulationFrame = SimulationFrame & { suspension: SuspensionFrame };
export type SuspensionSimulationResult = Omit<SimulationResult, 'frames'> & {
  frames: SuspensionSimulationFrame[];
  /** The equilibrium the run started from: wheel travel (mm) and tyre force (N) per side, spring tensions (N). */
  start: { from: 'equilibrium' | 'design'; drop: number };
};

/** The suspension's view of the current state with a frame's reports. */
export function suspensionFrame(model: SuspensionDynamicsModel, frame: SimulationFrame): SuspensionFrame {
  const { sm, roads, designLengths } = model;
  const ev = sm.evaluate({ derivatives: false });
  const metricsOf = (side: string) => (sm.roles.scope === 'axle' ? (ev.metrics as Record<string, Record<string, number | null>>)[side] : ev.metrics as Record<string, number | null>);
  const heave = model.spec.sprungMass !== null ? (frame.state['heave.slide'] as number) : 0;
  const corners: SuspensionFrame['corners'] = {};
  sm.corners.forEach((c) => {
    const side = c.roles.side, px = sm.roles.scope === 'axle' ? `${side}_` : '';
    const m = metricsOf(side);
    const tyre = frame.forces[`${px}tyre`] as { penetration: number; force: number };
    const travel = m.wheel_travel ?? 0;
    corners[side] = {
      wheel_travel: travel, suspension_travel: travel - heave, camber: m.camber, toe_angle: m.toe_angle,
      road: frame.state[roads[side]] as number, tyre_force: tyre.force, tyre_penetration: Math.max(0, tyre.penetration),
    };
  });
  const elements: SuspensionFrame['elements'] = {};
  for (const [id, r] of Object.entries(frame.forces)) {
    if (!(id in designLengths) || !('length' in r)) continue;
    const e = r as { length: number; rate: number; tension: number };
    elements[id] = { length: e.length, travel: e.length - designLengths[id], rate: e.rate, tension: e.tension };
  }
  const links: SuspensionFrame['links'] = {};
  for (const [id, w] of Object.entries(frame.reactions)) if ('tension' in w && typeof w.tension === 'number') links[id] = w.tension;
  return { corners, elements, links, ...(model.spec.sprungMass !== null ? { chassis_heave: heave } : {}) };
}

/** Run a geometry's dynamics: simulate() on its assembly, each frame with its `suspension` view. */
export function simulateSuspension(source: SuspensionDynamicsModel | { geometry: Geometry; spec: SuspensionDynamicsSpec }, options: SimulateOptions): SuspensionSimulationResult {
  const model = 'dyn' in source ? source : prepareSuspensionDynamics(source.geometry, source.spec);
  if (model.ran) throw new InternalError('simulateSuspension: this prepared model has run already (its roads are driven now); prepare it again');
  model.ran = true;
  const result = simulate(model.dyn, {
    ...options,
    onFrame: (f) => { (f as SuspensionSimulationFrame).suspension = suspensionFrame(model, f); options.onFrame?.(f); },
  });
  return { ...result, frames: result.frames as SuspensionSimulationFrame[], start: { from: model.spec.start, drop: model.spec.drop } };
}
