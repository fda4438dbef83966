/**
 * The whole vehicle as one mated assembly (vehicle.md): each axle is the suspension-dynamics
 * assembly that `simulate` builds from its file (src/suspension/dynamics/model.ts: the
 * template's parts, mates, springs, bars and dampers, the file's part and link masses),
 * its roads and tyres left out; its parts and mates get the axle's name as a prefix, the
 * rear axle's parts sit `wheelbase` behind (ISO x forward, so at x − wheelbase), and both
 * axles' chassis become one free part, `body`, with the sprung mass. Each wheel is a part
 * on a revolute bearing (`<axle>_<side>_bearing`) in its upright; a contact patch per wheel
 * (contact.ts) stands on a flat road. Built on buildDynamics, so statics, equilibrium and
 * modes run on it as on any assembly.
 */
import type { AssemblyDoc, ForceDoc, MateDoc } from '../../assembly/types';
import { validateAssembly } from '../../assembly/load';
import { buildDynamics, type DynamicsModel } from '../../mechanics/build';
import type { Model } from '../../model/build';
import { suspensionDynamicsAssembly } from '../dynamics/model';
import { wheelInertia } from '../dynamics/wheel-inertia';
import { tireRadius, type Point3 } from '../files';
import type { SuspensionRoles } from '../build/roles';
import { ContactPatchForce } from './contact';
import { InertiaLoad } from './inertia-load';
import { BodyDatum } from './datum';
import { AXLES, type AxleName, type VehicleSpec, type VehicleTyre } from './file';

export type CornerName = 'front_left' | 'front_right' | 'rear_left' | 'rear_right';
export const CORNERS: readonly CornerName[] = ['front_left', 'front_right', 'rear_left', 'rear_right'];

export interface VehicleWheel {
  corner: CornerName;
  axle: AxleName;
  side: 'left' | 'right';
  /** Parts: the upright (a beam axle's beam) and the wheel. */
  upright: string;
  wheel: string;
  /** The bearing's angle coordinate (held in the quasi-static analyses: a brake, or the drive's hold). */
  bearing: string;
  /** Wheel centre and spin axis in the wheel's part frame; mm. */
  centre: Point3;
  axis: Point3;
  radius: number;
  /** World, at design. */
  designCentre: Point3;
  designContact: Point3;
  tyre: VehicleTyre;
  /** A beam axle's wheels: the drive reacts on the beam, not the body. */
  beam: boolean;
}

export interface VehicleModel {
  spec: VehicleSpec;
  doc: AssemblyDoc;
  dyn: DynamicsModel;
  wheels: VehicleWheel[];
  contacts: ContactPatchForce[];
  inertia: InertiaLoad;
  datum: BodyDatum;
  /** World, mm: the road plane's height (mean of the design contacts) and the body's centre of mass at design. */
  road: number;
  cgDesign: Point3;
  /** kg: every mass. */
  totalMass: number;
}

/**
 * Horizontal stiffness at the contacts, per N/mm of vertical: none. A rolling tyre holds no
 * displacement quasi-statically; the body's datum (datum.ts) holds x, y and yaw instead.
 */
export const HORIZONTAL_DATUM = 0;

/** The body's centre of mass in world axes: cg_position's x is measured rearward from the front axle (docs/vehicle.md). */
export function cgWorld(spec: VehicleSpec): Point3 {
  return [-spec.cg_position[0], spec.cg_position[1], spec.cg_position[2]];
}

type Part = { fixed?: boolean; pose: { position: number[]; rotation: number[] }; points?: Record<string, number[]>; axes?: Record<string, { origin: number[]; direction: number[] }>;
  planes?: Record<string, { origin: number[]; normal: number[] }>; frames?: Record<string, { origin: number[]; rotation: number[] }>; mass?: { mass: number; centre: number[]; inertia: number[][] } };

/**
 * Where an axle's own assembly (its dynamics assembly, before the vehicle renames it) comes
 * from: made by `make`, or one made earlier for the same axle (src/live/vehicle/kept.ts: the
 * axle a drag did not edit). Not modified here.
 */
export type AxleAssemblySource = (axle: AxleName, make: () => AssemblyDoc) => AssemblyDoc;

/** The vehicle's assembly document and its wheels. */
export function vehicleAssembly(spec: VehicleSpec, axleAssembly: AxleAssemblySource = (_, make) => make()): { doc: AssemblyDoc; wheels: VehicleWheel[] } {
  const parts: Record<string, Part> = { body: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: {}, axes: {}, mass: { mass: spec.body.mass, centre: cgWorld(spec), inertia: spec.body.inertia } } };
  const mates: Record<string, MateDoc> = {};
  const forces: Record<string, ForceDoc> = {};
  const held: string[] = [];
  const wheels: VehicleWheel[] = [];
  const bodyLumps: { mass: number; at: number[] }[] = [];
  for (const axle of AXLES) {
    const a = spec[axle];
    const shift = axle === 'rear' ? -spec.wheelbase : 0;
    const masses = { ...a.dynamics.masses };
    delete masses.wheel; // the wheel is a part of its own here
    const doc = axleAssembly(axle, () => suspensionDynamicsAssembly(a.geometry, { ...a.dynamics, masses, sprungMass: null, road: {}, start: 'design', drop: 0 }).doc);
    const roles = doc.suspension as SuspensionRoles;
    const src: Record<string, Part> = JSON.parse(JSON.stringify(doc.parts));
    const mateIds = new Set(Object.keys(doc.mates).filter((id) => !id.endsWith('road_slide')));
    const partName = (p: string) => (p === 'chassis' ? 'body' : `${axle}_${p}`);
    const rename = (x: unknown): unknown => {
      if (typeof x === 'string') {
        const dot = x.indexOf('.');
        if (dot < 0) return x;
        const head = x.slice(0, dot), tail = x.slice(dot + 1);
        if (src[head]) return `${partName(head)}.${head === 'chassis' ? `${axle}_${tail}` : tail}`;
        if (mateIds.has(head)) return `${axle}_${x}`;
        return x;
      }
      if (Array.isArray(x)) return x.map(rename);
      if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, rename(v)]));
      return x;
    };
    for (const [name, p] of Object.entries(src)) {
      if (name.endsWith('road')) continue;
      if (name === 'chassis') { mergeChassis(parts.body, p, `${axle}_`, shift); continue; }
      parts[partName(name)] = { ...p, pose: { position: [shift, 0, 0], rotation: [1, 0, 0, 0] } };
    }
    for (const id of mateIds) mates[`${axle}_${id}`] = rename(doc.mates[id]) as MateDoc;
    // a link's half on the chassis end: the axle's assembly has a fixed chassis and leaves it out; here it rides on the body
    for (const [key, mass] of Object.entries(a.dynamics.links)) {
      for (const id of [key, ...roles.corners.map((c) => `${c.side}_${key}`)]) {
        const mate = doc.mates[id] as { type: string; a: string; b: string } | undefined;
        if (mate?.type !== 'distance') continue;
        for (const end of [mate.a, mate.b]) {
          const [part, point] = end.split('.');
          if (part === 'chassis') bodyLumps.push({ mass: mass / 2, at: src.chassis.points![point].map((x, i) => x + (i === 0 ? shift : 0)) });
        }
      }
    }
    for (const [id, f] of Object.entries(doc.forces ?? {})) if (f.type !== 'tyre') forces[`${axle}_${id}`] = rename(f) as ForceDoc;
    for (const h of doc.held ?? []) held.push(rename(h) as string);
    const R = tireRadius(a.geometry.wheel.tire);
    roles.corners.forEach((c) => {
      const px = a.geometry.scope === 'axle' ? `${c.side}_` : '';
      const upright = partName(c.upright), own = c.upright === `${px}upright`;
      const up = parts[upright];
      const centre = up.points![own ? 'wheel_centre' : `${px}wheel_centre`] as Point3;
      const axis = up.axes![own ? 'spin' : `${px}spin`].direction as Point3;
      const corner = `${axle}_${c.side}` as CornerName, wheel = `${corner}_wheel`;
      const s = unit(axis);
      const wheelMass = a.dynamics.masses.wheel;
      parts[wheel] = {
        pose: { position: [shift, 0, 0], rotation: [1, 0, 0, 0] }, points: { centre }, axes: { spin: { origin: centre, direction: axis } },
        ...(wheelMass ? { mass: { mass: wheelMass.mass, centre, inertia: wheelInertia(wheelMass, a.geometry, s) } } : {}),
      };
      if (!own) up.axes![`${corner}_spin`] = { origin: centre, direction: axis };
      mates[`${corner}_bearing`] = { type: 'revolute', a: `${upright}.${own ? 'spin' : `${corner}_spin`}`, b: `${wheel}.spin` } as MateDoc;
      held.push(`${corner}_bearing.angle`);
      const designCentre: Point3 = [centre[0] + shift, centre[1], centre[2]];
      const down = [s[2] * s[0], s[2] * s[1], s[2] * s[2] - 1], dl = Math.hypot(down[0], down[1], down[2]);
      const designContact: Point3 = [designCentre[0] + (R * down[0]) / dl, designCentre[1] + (R * down[1]) / dl, designCentre[2] + (R * down[2]) / dl];
      wheels.push({ corner, axle, side: c.side as 'left' | 'right', upright, wheel, bearing: `${corner}_bearing.angle`, centre, axis, radius: R, designCentre, designContact, tyre: a.tyre, beam: !own });
    });
  }
  wheels.sort((x, y) => CORNERS.indexOf(x.corner) - CORNERS.indexOf(y.corner));
  steeringSpring(spec, held, forces);
  parts.body.mass = withPointMasses(parts.body.mass!, bodyLumps);
  const doc = validateAssembly({
    format: 'kinemate.assembly/1',
    name: `vehicle ${spec.name}`,
    units: { length: 'mm', angle: 'deg', mass: 'kg', time: 's', force: 'N' },
    parts, mates, forces, state: {}, held,
    gravity: [0, 0, -9806.65],
  });
  return { doc, wheels };
}

/** The front rack's coordinate in the vehicle's assembly (`front_rack_slide.slide`), or null without a rack. */
export function rackCoordinate(doc: AssemblyDoc): string | null {
  const spring = doc.forces?.[STEERING_SPRING];
  if (spring?.type === 'coordinate_spring') return spring.coordinate;
  return (doc.held ?? []).find(isRackHold) ?? null;
}

/** A front axle's held coordinate that is not a wheel's bearing: its rack. */
const isRackHold = (h: string): boolean => h.startsWith('front_') && !h.endsWith('_bearing.angle');

/** The steering's stiffness at the rack (vehicle file `steering.rack_stiffness`): a coordinate spring. */
export const STEERING_SPRING = 'front_steering';

/**
 * With `steering.rack_stiffness`, the rack's hold becomes a spring about the held travel (its
 * free travel the rack's at design, which setRack moves as a hold's target): the column, pinion
 * and rack mount between the held steering wheel and the rack as one stiffness.
 */
function steeringSpring(spec: VehicleSpec, held: string[], forces: Record<string, ForceDoc>): void {
  if (!spec.steering) return;
  const at = held.findIndex(isRackHold);
  if (at < 0) return; // the file reader refuses a front axle without a rack
  const [coordinate] = held.splice(at, 1);
  forces[STEERING_SPRING] = { type: 'coordinate_spring', coordinate, stiffness: spec.steering.rack_stiffness, free: 0 } as ForceDoc;
}

function unit(v: readonly number[]): Point3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}

/** A body's mass with point masses added: masses add, the centre moves, the inertia by parallel axes about the new centre. */
function withPointMasses(body: { mass: number; centre: number[]; inertia: number[][] }, points: readonly { mass: number; at: number[] }[]) {
  const all = [{ mass: body.mass, at: body.centre }, ...points];
  const mass = all.reduce((t, p) => t + p.mass, 0);
  const centre = [0, 1, 2].map((i) => all.reduce((t, p) => t + p.mass * p.at[i], 0) / mass);
  const inertia = body.inertia.map((r) => [...r]);
  for (const p of all) {
    const r = [0, 1, 2].map((i) => p.at[i] - centre[i]), r2 = r[0] ** 2 + r[1] ** 2 + r[2] ** 2;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) inertia[i][j] += p.mass * ((i === j ? r2 : 0) - r[i] * r[j]);
  }
  return { mass, centre, inertia };
}

/** An axle's chassis entities onto the body, named with the axle's prefix and moved by `shift` in x. */
function mergeChassis(body: Part, chassis: Part, prefix: string, shift: number): void {
  const at = (p: readonly number[]) => [p[0] + shift, p[1], p[2]];
  for (const [n, p] of Object.entries(chassis.points ?? {})) (body.points ??= {})[`${prefix}${n}`] = at(p);
  for (const [n, a] of Object.entries(chassis.axes ?? {})) if (!n.endsWith('road_guide')) (body.axes ??= {})[`${prefix}${n}`] = { origin: at(a.origin), direction: a.direction };
  for (const [n, p] of Object.entries(chassis.planes ?? {})) (body.planes ??= {})[`${prefix}${n}`] = { origin: at(p.origin), normal: p.normal };
  for (const [n, f] of Object.entries(chassis.frames ?? {})) (body.frames ??= {})[`${prefix}${n}`] = { origin: at(f.origin), rotation: f.rotation };
}

/**
 * The start: the whole vehicle turned rigidly (pitch, then roll) so that its four design
 * contacts lie in a level plane, the road. Axle files need not share a ground height (a
 * wheel centre at the tyre's radius, or not); the solve then begins from a car standing on
 * all four wheels, not from one with two wheels in the air and two in the ground.
 * Returns the road's height, the body's centre of mass and heading at that start.
 */
function levelOnRoad(dyn: DynamicsModel, wheels: readonly VehicleWheel[], cg: Point3): { road: number; cg: Point3; yaw: number } {
  const R = levelRotation(wheels), q = R.q;
  const sys = dyn.system;
  for (const v of sys.variables) {
    if (v.kind !== 'pose' || v.fixed) continue;
    const o = v.offset, st = sys.state;
    const p = R([st[o], st[o + 1], st[o + 2]]), qq = qmul(q, [st[o + 3], st[o + 4], st[o + 5], st[o + 6]]);
    st.set(p, o); st.set(qq, o + 3);
  }
  const road = wheels.reduce((t, w) => t + R(w.designContact)[2], 0) / wheels.length;
  const ex = R([1, 0, 0]);
  return { road, cg: R(cg) as Point3, yaw: Math.atan2(ex[1], ex[0]) };
}

/**
 * The datum's yaw stiffness (N·mm/rad): the tyres' vertical stiffness together times the mean
 * square of the design contacts' horizontal distance from the centre of mass. With the rates
 * of the contacts (`dc`, per wheel) and of the centre of mass (`dcg`) along a number: its rate
 * (an axle point or cg_position moves it, and the datum carries the aligning moments' yaw in a
 * turn, so the turn's gradients need it).
 */
export function datumYawStiffness(wheels: readonly VehicleWheel[], cg: readonly number[], dc?: readonly (readonly number[])[], dcg: readonly number[] = [0, 0, 0]): number {
  const kz = wheels.reduce((s, w) => s + w.tyre.stiffness, 0);
  const sum = wheels.reduce((s, w, i) => {
    const x = w.designContact[0] - cg[0], y = w.designContact[1] - cg[1];
    return s + (dc ? 2 * (x * (dc[i][0] - dcg[0]) + y * (dc[i][1] - dcg[1])) : x * x + y * y);
  }, 0);
  return (kz * sum) / wheels.length;
}

/** The rigid turn (pitch, then roll) that brings the four design contacts into a level plane, as a map (its quaternion `q`). */
export function levelRotation(wheels: readonly VehicleWheel[]): ((p: readonly number[]) => number[]) & { q: number[] } {
  // least squares z = a + b x + c y through the contacts
  const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], r = [0, 0, 0];
  for (const w of wheels) {
    const row = [1, w.designContact[0], w.designContact[1]];
    for (let i = 0; i < 3; i++) { r[i] += row[i] * w.designContact[2]; for (let j = 0; j < 3; j++) A[i][j] += row[i] * row[j]; }
  }
  const [, b, c] = solve3(A, r);
  const th = Math.atan(b), ps = Math.atan(-c);
  // R = Rx(ψ) Ry(θ) as a quaternion (w, x, y, z)
  const qy = [Math.cos(th / 2), 0, Math.sin(th / 2), 0], qx = [Math.cos(ps / 2), Math.sin(ps / 2), 0, 0];
  const q = qmul(qx, qy);
  return Object.assign((p: readonly number[]) => rotate(q, p), { q });
}

function qmul(a: readonly number[], b: readonly number[]): number[] {
  return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]];
}
function rotate(q: readonly number[], p: readonly number[]): number[] {
  const r = qmul(qmul(q, [0, p[0], p[1], p[2]]), [q[0], -q[1], -q[2], -q[3]]);
  return [r[1], r[2], r[3]];
}
function solve3(A: number[][], r: number[]): number[] {
  const det = (M: number[][]) => M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) + M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  const d = det(A);
  return [0, 1, 2].map((k) => det(A.map((row, i) => row.map((x, j) => (j === k ? r[i] : x)))) / d);
}

/**
 * Build the vehicle: its assembly on the dynamics builder, a contact patch per wheel and the
 * inertial (d'Alembert) loads. `assembled` and `model`: the assembly already made and its
 * kinematic model renewed in place (src/live/vehicle/kept.ts: a drag's next frame), the same
 * numbers as a build of it.
 */
export function buildVehicle(spec: VehicleSpec, assembled = vehicleAssembly(spec), model?: Model): VehicleModel {
  const { doc, wheels } = assembled;
  const dyn = buildDynamics(model ?? doc);
  const cg = cgWorld(spec);
  const level = levelOnRoad(dyn, wheels, cg), road = level.road;
  const bodyVar = dyn.model.parts.get('body')!;
  // on the upright, not the wheel: the contact does not turn with the spin, and the held
  // bearing would pass the same wrench on; this way the bearing's moment rows carry no load,
  // which keeps the reduced stiffness exact (src/mechanics/reduced.ts)
  const contacts = wheels.map((w) => new ContactPatchForce(`${w.corner}_tyre`, dyn.model.parts.get(w.upright)!, w.centre, w.axis, w.radius,
    w.tyre.stiffness, HORIZONTAL_DATUM * w.tyre.stiffness, w.designContact, road, !w.beam, bodyVar));
  for (const c of contacts) dyn.forces.add(c);
  const inertia = new InertiaLoad(dyn);
  dyn.forces.add(inertia);
  // the datum as stiff as the tyres together vertically, turning about the centre of the four
  const kz = wheels.reduce((s, w) => s + w.tyre.stiffness, 0);
  const datum = new BodyDatum(bodyVar, cg, level.cg, level.yaw, kz, datumYawStiffness(wheels, cg));
  dyn.forces.add(datum);
  const totalMass = dyn.bodies.reduce((s, b) => s + b.body.mass, 0) * 1000;
  return { spec, doc, dyn, wheels, contacts, inertia, datum, road, cgDesign: cg, totalMass };
}
