/**
 * The vehicle's numbers as parameters of its gradients (docs/vehicle.md "Gradients"): every
 * number an axle file offers its own simulation's gradients, under the axle's name —
 * `front.left.upper_wishbone_outboard.z` (one side), `front.upper_wishbone_outboard.z` (both
 * sides of an axle, the right's y mirrored: the axle kept symmetric), `rear.spring.rate`,
 * `front.dynamics.masses.upright.mass` — the anti-roll bar's rate `front.anti_roll.rate`, the
 * bushings' and links' rates of `compliance:` (`front.compliance.bushings.P.radial`,
 * `rear.compliance.links.trackrod`: compliance-parameters.ts),
 * the wheels' mass `front.dynamics.masses.wheel.mass` (both wheels of the axle, each a part of
 * its own on its bearing: a lump on it) and, where the file gives it, their inertia
 * `….wheel.inertia.x|y|z`, and the body's `body.mass`, `body.inertia.xx|yy|zz|xy|xz|yz`
 * (kg·mm², a product moving both of its entries) and `vehicle_config.cg_position.x|y|z`.
 *
 * An axle number reaches the vehicle through the axle's dynamics assembly, which the
 * vehicle renames (vehicle.ts: `chassis` → `body` with the axle's prefix on its entities,
 * every other part, mate and element prefixed): geometryParameter (the simulation
 * gradients' route, src/suspension/gradients/simulation/geometry.ts) says what the number
 * moves there, each piece exactly, and it is renamed here. What the vehicle builds on top
 * — the wheel on its bearing and the contact patch, both at the axle points; the half link
 * masses lumped onto the body — is followed here: an axle point (`front.left.axle_outboard.z`)
 * moves the wheel part's centre and spin axis, the bearing's axis on the upright, the wheel's
 * mass and the contact patch (`wheels`: what axle-points.ts turns into the contact's and the
 * road's terms).
 */
import type { AssemblyDoc } from '../../assembly/types';
import type { CombinedParameter, DynamicParameter } from '../../gradients/run';
import { geometryParameter, geometryParameterNames, movedGeometrySource } from '../gradients/simulation/geometry';
import { lumpRates, type LumpRate } from '../gradients/simulation/lumps';
import type { GeometrySource } from '../gradients/simulation/source';
import { suspensionDynamicsAssembly } from '../dynamics/model';
import { STEERING_SPRING, cgWorld, type CornerName } from './assembly';
import { wheelMove, type WheelMove } from './axle-points';
import { wheelMoments, type WheelMassSpec } from '../dynamics/wheel-inertia';
import { tireRadius, type Geometry } from '../files';
import { AXLES, type AxleName, type VehicleSpec } from './file';
import { VehicleInputError } from './errors';
import { complianceParameterNames, complianceParameterParts, movedComplianceGeometry } from './compliance-parameters';

type Plain = Exclude<DynamicParameter, CombinedParameter>;

/** One vehicle number as what it moves in the vehicle's assembly, each piece exact. */
export interface VehicleParameter {
  name: string;
  /** Assembly parameters (hardpoints, rates, masses, element coefficients) and their weights. */
  parts: { parameter: Plain; weight: number }[];
  /** Φ_θ of a mate's first row (a two-force link's length), by the mate's id. */
  rows: { owner: string; value: number }[];
  /** Springs whose free length moves (mm per unit), by element id. */
  freeLengths: { element: string; w: number }[];
  /** Parts' mass rates (lumps placed from points), by the vehicle's part names. */
  lumps: LumpRate[];
  /** mm per unit: the body's design centre of mass (where heave is measured). */
  cg: [number, number, number];
  /**
   * kg·mm² per unit: the rate of the body's inertia about its origin (3 × 3, row-major) — its
   * point masses (the file's body at cg_position, the half links) moving or growing; the body's
   * own inertia about its centre stays. The mass matrix's rate (frequency-rates.ts) reads it.
   */
  bodyInertia?: number[];
  /** An axle point's moves of each wheel's centre, spin axis and design contact (axle-points.ts). */
  wheels?: WheelMove[];
}

/** I += dm (|a|² 1 − a aᵀ) + m (2 (a·da) 1 − da aᵀ − a daᵀ): a point mass m at a, growing by dm and moving by da. */
function addPointInertia(I: number[], m: number, dm: number, a: readonly number[], da: readonly number[]): void {
  const aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2], ada = a[0] * da[0] + a[1] * da[1] + a[2] * da[2];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) I[i * 3 + j] += dm * ((i === j ? aa : 0) - a[i] * a[j]) + m * ((i === j ? 2 * ada : 0) - da[i] * a[j] - a[i] * da[j]);
}

const AXES = 'xyz';
/** The wheel's moments about its own axes, numbers where the file gives no 3 × 3 inertia (wheel-inertia.ts). */
const MOMENTS = ['spin_inertia', 'transverse_inertia'] as const;
/** The body's inertia entries as numbers: the tensor's (row, column), a product moving both of its entries. */
const INERTIA_ENTRIES: Record<string, [number, number]> = { xx: [0, 0], yy: [1, 1], zz: [2, 2], xy: [0, 1], xz: [0, 2], yz: [1, 2] };

/** The axle's own source as the vehicle builds it (vehicleAssembly): no wheel mass, no sprung mass, no road. */
export function axleSource(spec: VehicleSpec, axle: AxleName): GeometrySource {
  const a = spec[axle];
  const masses = { ...a.dynamics.masses };
  delete masses.wheel;
  return { geometry: a.geometry, spec: { ...a.dynamics, masses, sprungMass: null, road: {}, start: 'design', drop: 0 } };
}

/** Every name a vehicle gradient may take, in order: per axle its file's, its symmetric pairs and bar rate; then the body's. */
export function vehicleParameterNames(spec: VehicleSpec): string[] {
  const out: string[] = [];
  for (const axle of AXLES) {
    const src = axleSource(spec, axle);
    const all = geometryParameterNames(src).filter((n) => !/^dynamics\.(tyre|road|sprung_mass)/.test(n));
    const point = (n: string) => /axle_(inboard|outboard)\.[xyz]$/.test(n);
    // the axle points after the axle's other numbers (pairs, then each side's), as they came last
    for (const own of [all.filter((n) => !point(n)), all.filter(point)]) {
      const sym = new Set<string>();
      for (const n of own) { const m = /^left\.(.+)$/.exec(n); if (m && own.includes(`right.${m[1]}`)) sym.add(m[1]); }
      out.push(...[...sym].map((n) => `${axle}.${n}`), ...own.map((n) => `${axle}.${n}`));
    }
    if (spec[axle].geometry.devices?.anti_roll_rate !== undefined && spec[axle].geometry.scope === 'axle') out.push(`${axle}.anti_roll.rate`);
    out.push(...complianceParameterNames(spec[axle].geometry).map((n) => `${axle}.${n}`));
    const wheel = spec[axle].dynamics.masses.wheel;
    if (wheel) out.push(`${axle}.dynamics.masses.wheel.mass`, ...(wheel.inertia ? [...AXES].map((a) => `${axle}.dynamics.masses.wheel.inertia.${a}`) : MOMENTS.map((k) => `${axle}.dynamics.masses.wheel.${k}`)));
  }
  out.push('body.mass', ...Object.keys(INERTIA_ENTRIES).map((e) => `body.inertia.${e}`), ...[...AXES].map((a) => `vehicle_config.cg_position.${a}`));
  if (spec.steering) out.push(STEERING_STIFFNESS);
  return out;
}

/** The steering's stiffness at the rack (N/mm), a number where the vehicle file gives it: the steering spring's coefficient. */
export const STEERING_STIFFNESS = 'steering.rack_stiffness';

/** The vehicle parameter of a name; throws VehicleInputError naming the list on a name it does not have. */
export function vehicleParameter(spec: VehicleSpec, doc: AssemblyDoc, name: string): VehicleParameter {
  const names = vehicleParameterNames(spec);
  const bad = (why: string): never => { throw new VehicleInputError(`parameter "${name}"`, why); };
  if (!names.includes(name)) bad(`not a number of this vehicle (its numbers: ${names.slice(0, 12).join(', ')} … and ${Math.max(0, names.length - 12)} more; see docs/vehicle.md)`);
  const out: VehicleParameter = { name, parts: [], rows: [], freeLengths: [], lumps: [], cg: [0, 0, 0], bodyInertia: new Array<number>(9).fill(0) };
  const body = doc.parts.body.mass!;
  const M = body.mass, C = body.centre as readonly number[];
  if (name === 'body.mass') {
    // one kg more at cg_position: the body part's centre moves towards it
    const c = cgWorld(spec);
    out.parts.push({ parameter: { kind: 'mass', part: 'body' }, weight: 1 });
    for (let k = 0; k < 3; k++) out.parts.push({ parameter: { kind: 'centre', part: 'body', axis: k as 0 | 1 | 2 }, weight: (c[k] - C[k]) / M });
    addPointInertia(out.bodyInertia!, 0, 1, c, [0, 0, 0]);
    return out;
  }
  const inertia = /^body\.inertia\.(\w\w)$/.exec(name);
  if (inertia) {
    // the body's own inertia about its centre: the mass matrix's rate only (the quasi-static loads have no rotational part)
    const [i, j] = INERTIA_ENTRIES[inertia[1]];
    out.bodyInertia![i * 3 + j] += 1;
    if (i !== j) out.bodyInertia![j * 3 + i] += 1;
    return out;
  }
  const cgm = /^vehicle_config\.cg_position\.([xyz])$/.exec(name);
  if (cgm) {
    const k = AXES.indexOf(cgm[1]) as 0 | 1 | 2, sign = k === 0 ? -1 : 1; // x is measured rearward
    out.parts.push({ parameter: { kind: 'centre', part: 'body', axis: k }, weight: (sign * spec.body.mass) / M });
    out.cg[k] = sign;
    const da = [0, 0, 0];
    da[k] = sign;
    addPointInertia(out.bodyInertia!, spec.body.mass, 0, cgWorld(spec), da);
    return out;
  }
  if (name === STEERING_STIFFNESS) { out.parts.push({ parameter: { kind: 'coefficient', element: STEERING_SPRING, field: 'stiffness' }, weight: 1 }); return out; }
  const axle = name.split('.')[0] as AxleName, rest = name.slice(axle.length + 1);
  if (rest === 'anti_roll.rate') {
    out.parts.push({ parameter: { kind: 'coefficient', element: `${axle}_arb`, field: 'rotational_stiffness.x' }, weight: 1 });
    return out;
  }
  const wheel = /^dynamics\.masses\.wheel\.(mass|inertia\.([xyz])|spin_inertia|transverse_inertia)$/.exec(rest);
  if (wheel) {
    const which = wheel[2] !== undefined ? AXES.indexOf(wheel[2]) : wheel[1] === 'mass' ? -1 : wheel[1] as 'spin_inertia' | 'transverse_inertia';
    addWheelLumps(out, doc, axle, which, spec[axle].dynamics.masses.wheel!, spec[axle].geometry);
    return out;
  }
  const src = axleSource(spec, axle);
  // a bushing's or link's rate (compliance-parameters.ts): the elements it sets
  if (rest.startsWith('compliance.')) { out.parts.push(...complianceParameterParts(src, axle, rest)!); return out; }
  const base = suspensionDynamicsAssembly(src.geometry, src.spec).doc;
  const sides: [string, number][] = src.geometry.scope === 'axle' && !/^(left|right|center)\.|^(spring|dynamics)\./.test(rest) ? [[`left.${rest}`, 1], [`right.${rest}`, 1]] : [[rest, 1]];
  for (const [own, w0] of sides) {
    const mirrored = own.startsWith('right.') && sides.length > 1 && own.endsWith('.y');
    const w = mirrored ? -w0 : w0;
    addAxleParameter(out, src, base, axle, own, w, spec, M, C, doc);
  }
  return out;
}

/** One axle number's pieces, renamed to the vehicle's parts, mates and elements, with weight w. */
function addAxleParameter(out: VehicleParameter, src: GeometrySource, base: AssemblyDoc, axle: AxleName, own: string, w: number, spec: VehicleSpec, bodyMass: number, bodyCentre: readonly number[], doc: AssemblyDoc): void {
  const c = geometryParameter(src, own, base, true);
  const part = (p: string) => (p === 'chassis' ? 'body' : `${axle}_${p}`);
  const point = /^(left|right)\.axle_(inboard|outboard)\.([xyz])$/.exec(own);
  if (point) addWheelMove(out, src, doc, `${axle}_${point[1]}` as CornerName, point[1], point[2] === 'outboard', AXES.indexOf(point[3]) as 0 | 1 | 2, w, spec[axle].dynamics.masses.wheel);
  for (const { parameter: q, weight } of c.parts) {
    // the axle's road (its surface, the guides) is the vehicle's own: moved by the level (axle-points.ts)
    if (q.kind === 'hardpoint' && (q.part.endsWith('road') || (q.part === 'chassis' && q.entity.endsWith('road_guide')))) continue;
    let r: Plain;
    if (q.kind === 'hardpoint') r = { ...q, part: part(q.part), entity: q.part === 'chassis' ? `${axle}_${q.entity}` : q.entity };
    else if ('element' in q) r = { ...q, element: `${axle}_${q.element}` };
    else r = { ...q, part: part(q.part) };
    if (r.kind === 'hardpoint' && q.kind === 'hardpoint' && q.part === 'chassis') addLinkLump(out, base, axle, q.entity, q.axis, w * weight, spec, bodyMass);
    out.parts.push({ parameter: r, weight: w * weight });
  }
  const link = /^dynamics\.links\.([^.]+)$/.exec(own);
  if (link) addLinkHalfOnBody(out, base, axle, link[1], w, spec, bodyMass, bodyCentre);
  for (const row of c.rows ?? []) out.rows.push({ owner: `${axle}_${row.owner}`, value: w * row.value });
  for (const f of c.coefficients ?? []) {
    if (f.what !== 'free_length') throw new VehicleInputError(`parameter "${axle}.${own}"`, `it moves the tyre's ${f.what}, which the vehicle replaces`);
    out.freeLengths.push({ element: `${axle}_${f.element}`, w: w * f.w });
  }
  // the masses the build places from the part's points: their rates (the term geometryParameter built is by the axle's names)
  const moved = movedGeometrySource(src, own, 0.5);
  if (c.term && moved) {
    const doc1 = suspensionDynamicsAssembly(moved.geometry, moved.spec).doc;
    const r = lumpRates(src.geometry, src.spec, own, base, doc1, 0.5);
    if (typeof r === 'string') throw new VehicleInputError(`parameter "${axle}.${own}"`, r);
    for (const l of r.parts) out.lumps.push({ ...l, part: part(l.part), dmass: w * l.dmass, dcentre: l.dcentre.map((x) => w * x), dinertia: l.dinertia.map((x) => w * x) });
  }
}

/**
 * An axle point of one corner: the vehicle's wheel part (its centre and spin axis, the bearing's
 * other half), a beam's bearing axis, the wheel's mass (its centre; a cylinder's inertia turns with
 * the spin axis, a file's stays) and the contact patch and design contact (`wheels`).
 */
function addWheelMove(out: VehicleParameter, src: GeometrySource, doc: AssemblyDoc, corner: CornerName, side: string, outboard: boolean, axis: 0 | 1 | 2, w: number, wheel: WheelMassSpec | undefined): void {
  const hardpoints = src.geometry.corners.find((c) => c.side === side)!.hardpoints;
  const mass = doc.parts[`${corner}_wheel`]?.mass;
  const move = wheelMove(src.geometry, hardpoints, corner, outboard, axis, w, mass && wheel ? wheel : null);
  (out.wheels ??= []).push(move.wheel);
  const bearing = doc.mates[`${corner}_bearing`];
  const [upright, upAxis] = ('a' in bearing && typeof bearing.a === 'string' ? bearing.a : '').split('.');
  const axes: [string, string][] = [[`${corner}_wheel`, 'spin'], ...(upAxis === `${corner}_spin` ? [[upright, upAxis] as [string, string]] : [])];
  for (let k = 0; k < 3; k++) if (move.wheel.centre[k] !== 0) out.parts.push({ parameter: { kind: 'hardpoint', part: `${corner}_wheel`, entity: 'centre', axis: k as 0 | 1 | 2, group: 'points' }, weight: move.wheel.centre[k] });
  for (const [p, e] of axes) {
    for (let k = 0; k < 3; k++) if (move.wheel.centre[k] !== 0) out.parts.push({ parameter: { kind: 'hardpoint', part: p, entity: e, axis: k as 0 | 1 | 2, group: 'axes' }, weight: move.wheel.centre[k] });
    out.parts.push({ parameter: { kind: 'hardpoint', part: p, entity: e, axis, group: 'axes', turn: { rate: move.turn }, still: true }, weight: w });
  }
  if (mass) out.lumps.push({ part: `${corner}_wheel`, mass: mass.mass, centre: [...mass.centre], inertia: mass.inertia.flat(), ...move.lump });
}

/**
 * The axle's wheels' mass (−1), a diagonal entry of their inertia (0–2) or a moment about their own
 * axes (`spin_inertia`, `transverse_inertia`): each wheel a part of its own on its bearing
 * (vehicleAssembly), its mass at the wheel centre, which stays. A moment the file does not give is
 * the solid cylinder's, linear in the mass: it grows with it; a moment's unit is s sᵀ or 1 − s sᵀ
 * about each wheel's own unit spin axis s (wheel-inertia.ts).
 */
function addWheelLumps(out: VehicleParameter, doc: AssemblyDoc, axle: AxleName, which: number | 'spin_inertia' | 'transverse_inertia', spec: WheelMassSpec, geometry: Geometry): void {
  const R = tireRadius(geometry.wheel.tire), width = geometry.wheel.tire.section_width;
  const moments = spec.spin_inertia !== undefined || spec.transverse_inertia !== undefined;
  for (const [part, p] of Object.entries(doc.parts)) {
    if (!new RegExp(`^${axle}_(left|right)_wheel$`).test(part) || !p.mass) continue;
    const { mass, centre } = p.mass, inertia = p.mass.inertia.flat();
    const d = p.axes!.spin.direction, l = Math.hypot(d[0], d[1], d[2]), s = d.map((x) => x / l);
    // I = I_p 1 + (I_a − I_p) s sᵀ: its rate from dI_a and dI_p
    const unit = (dIa: number, dIp: number) => inertia.map((_, k) => dIp * (k % 4 === 0 ? 1 : 0) + (dIa - dIp) * s[Math.floor(k / 3)] * s[k % 3]);
    let dinertia: number[];
    if (typeof which === 'string') dinertia = which === 'spin_inertia' ? unit(1, 0) : unit(0, 1);
    else if (which >= 0) dinertia = inertia.map((_, k) => (k === which * 4 ? 1 : 0));
    else if (spec.inertia) dinertia = inertia.map(() => 0);
    else if (!moments) dinertia = inertia.map((x) => x / mass);
    else dinertia = unit(spec.spin_inertia !== undefined ? 0 : (R * R) / 2, spec.transverse_inertia !== undefined ? 0 : (3 * R * R + width * width) / 12);
    out.lumps.push({ part, mass, centre: [...centre], inertia, dmass: which === -1 ? 1 : 0, dcentre: [0, 0, 0], dinertia });
  }
}

/**
 * A chassis point that is a link's end: the vehicle lumps half the link's mass there onto the
 * body (vehicleAssembly), so the body's centre moves by (m/2)/M per mm of the point.
 */
function addLinkLump(out: VehicleParameter, base: AssemblyDoc, axle: AxleName, entity: string, axis: 0 | 1 | 2, w: number, spec: VehicleSpec, M: number): void {
  const links = spec[axle].dynamics.links;
  let m = 0;
  for (const [key, mass] of Object.entries(links)) {
    for (const id of [key, `left_${key}`, `right_${key}`]) {
      const mate = base.mates[id] as { type: string; a: string; b: string } | undefined;
      if (mate?.type !== 'distance') continue;
      for (const end of [mate.a, mate.b]) if (end === `chassis.${entity}`) m += mass / 2;
    }
  }
  if (m > 0) {
    out.parts.push({ parameter: { kind: 'centre', part: 'body', axis }, weight: (w * m) / M });
    const shift = axle === 'rear' ? -spec.wheelbase : 0, da = [0, 0, 0];
    da[axis] = w;
    addPointInertia(out.bodyInertia!, m, 0, base.parts.chassis.points![entity].map((x, i) => x + (i === 0 ? shift : 0)), da);
  }
}

/** The chassis ends of an axle's link `key` (mm, world), where the vehicle lumps half its mass onto the body. */
function chassisEnds(base: AssemblyDoc, axle: AxleName, key: string, spec: VehicleSpec): number[][] {
  const shift = axle === 'rear' ? -spec.wheelbase : 0, out: number[][] = [];
  for (const id of [key, `left_${key}`, `right_${key}`]) {
    const mate = base.mates[id] as { type: string; a: string; b: string } | undefined;
    if (mate?.type !== 'distance') continue;
    for (const end of [mate.a, mate.b]) {
      const [part, point] = end.split('.');
      if (part === 'chassis') out.push(base.parts.chassis.points![point].map((x, i) => x + (i === 0 ? shift : 0)));
    }
  }
  return out;
}

/** A link's mass: half of it at each chassis end joins the body (its mass, and its centre moving toward the end). */
function addLinkHalfOnBody(out: VehicleParameter, base: AssemblyDoc, axle: AxleName, key: string, w: number, spec: VehicleSpec, M: number, C: readonly number[]): void {
  for (const x of chassisEnds(base, axle, key, spec)) {
    out.parts.push({ parameter: { kind: 'mass', part: 'body' }, weight: w / 2 });
    for (let k = 0; k < 3; k++) out.parts.push({ parameter: { kind: 'centre', part: 'body', axis: k as 0 | 1 | 2 }, weight: (w / 2) * (x[k] - C[k]) / M });
    addPointInertia(out.bodyInertia!, 0, w / 2, x, [0, 0, 0]);
  }
}

/** A copy of the vehicle spec with the number `name` moved by d (the tests' re-solved states, the fit's steps). */
export function movedVehicleSpec(spec: VehicleSpec, name: string, d: number): VehicleSpec {
  const out: VehicleSpec = { ...spec, body: { ...spec.body }, cg_position: [...spec.cg_position] as VehicleSpec['cg_position'] };
  if (name === 'body.mass') { out.body.mass += d; return out; }
  const cgm = /^vehicle_config\.cg_position\.([xyz])$/.exec(name);
  if (cgm) { out.cg_position[AXES.indexOf(cgm[1])] += d; return out; }
  const inertia = /^body\.inertia\.(\w\w)$/.exec(name);
  if (name === STEERING_STIFFNESS && spec.steering) { out.steering = { rack_stiffness: spec.steering.rack_stiffness + d }; return out; }
  if (inertia && INERTIA_ENTRIES[inertia[1]]) {
    const [i, j] = INERTIA_ENTRIES[inertia[1]];
    out.body.inertia = spec.body.inertia.map((r) => [...r]);
    out.body.inertia[i][j] += d;
    if (i !== j) out.body.inertia[j][i] += d;
    return out;
  }
  const axle = name.split('.')[0] as AxleName, rest = name.slice(axle.length + 1);
  const a = spec[axle];
  const wheel = /^dynamics\.masses\.wheel\.(mass|inertia\.([xyz])|spin_inertia|transverse_inertia)$/.exec(rest);
  if (wheel && a?.dynamics.masses.wheel) {
    const w = { ...a.dynamics.masses.wheel };
    if (wheel[1] === 'spin_inertia') w.spin_inertia = wheelMoments(w, a.geometry).Ia + d;
    else if (wheel[1] === 'transverse_inertia') w.transverse_inertia = wheelMoments(w, a.geometry).Ip + d;
    else if (wheel[2] === undefined) w.mass += d;
    else { const k = AXES.indexOf(wheel[2]); w.inertia = w.inertia!.map((r) => [...r]) as typeof w.inertia; w.inertia![k][k] += d; }
    out[axle] = { ...a, dynamics: { ...a.dynamics, masses: { ...a.dynamics.masses, wheel: w } } };
    return out;
  }
  if (rest === 'anti_roll.rate') {
    const g = structuredClone({ ...a.geometry, raw: null });
    g.devices!.anti_roll_rate! += d;
    out[axle] = { ...a, geometry: { ...g, raw: a.geometry.raw } };
    return out;
  }
  const compliant = rest.startsWith('compliance.') ? movedComplianceGeometry(a.geometry, rest, d) : null;
  if (compliant) { out[axle] = { ...a, geometry: compliant }; return out; }
  let src: GeometrySource = { geometry: a.geometry, spec: a.dynamics };
  const sides = a.geometry.scope === 'axle' && !/^(left|right|center)\.|^(spring|dynamics)\./.test(rest) ? [[`left.${rest}`, d], [`right.${rest}`, rest.endsWith('.y') ? -d : d]] as const : [[rest, d]] as const;
  for (const [own, dd] of sides) {
    const moved = movedGeometrySource(src, own, dd);
    if (!moved) throw new VehicleInputError(`parameter "${name}"`, 'not a number of this vehicle');
    src = moved;
  }
  out[axle] = { ...a, geometry: src.geometry, dynamics: src.spec };
  return out;
}
