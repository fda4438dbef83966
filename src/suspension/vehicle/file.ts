/**
 * The vehicle file (`*.vehicle.yaml`, ../shared/design/vehicle.md): two axle files (or
 * corner files, mirrored), the vehicle's configuration, the sprung body and a tyre per
 * axle. Every field is read or refused; what the vehicle replaces in an axle file
 * (`dynamics.sprung_mass`, `road`, `start`, `drop`, a tyre stiffness) is said in `notes`,
 * one line each, for the command to print on stderr.
 */
import { ProblemList, SuspensionFileError } from '../files/errors';
import { isRecord, parseText, readBoundedNumber, readChoice, readPoint, type PlainRecord, type Point3 } from '../files/read';
import { mirrorHardpoints, validateGeometry } from '../files/geometry';
import { mirrorSetup } from '../files/devices';
import type { Geometry } from '../files';
import { readSuspensionDynamics, type SuspensionDynamicsSpec } from '../dynamics/model';
import { readTyreText, type MagicFormulaTyre } from '../../../mates/tyres';

export type AxleName = 'front' | 'rear';
export const AXLES: readonly AxleName[] = ['front', 'rear'];

export interface VehicleTyre {
  /** N/mm, vertical. */
  stiffness: number;
  /** N·s/mm, vertical (the axle file's `dynamics.tyre.damping`, else 0). */
  damping: number;
  /** N/deg of slip angle, N per unit slip ×1e-2 (the steady-state analyses). */
  cornering_stiffness?: number;
  longitudinal_stiffness?: number;
  /** A Magic Formula tyre (`tir:`): its file and model; the vertical stiffness is its VERTICAL_STIFFNESS. */
  tir?: { path: string; model: MagicFormulaTyre };
}

export interface VehicleAxle {
  /** The axle file as named in the vehicle file, and as opened. */
  ref: string;
  path: string;
  /** The axle (a corner file is mirrored into one). */
  geometry: Geometry;
  /** The axle file's part masses and link masses (its `dynamics` section; none when absent). */
  dynamics: SuspensionDynamicsSpec;
  tyre: VehicleTyre;
}

export interface VehicleSpec {
  name: string;
  front: VehicleAxle;
  rear: VehicleAxle;
  /** mm. */
  wheelbase: number;
  /** mm, as written: x measured rearward from the front axle's origin, y left, z up (see docs/vehicle.md). */
  cg_position: Point3;
  front_brake_bias?: number;
  driven_axle?: AxleName;
  body: { mass: number; inertia: number[][] };
  /**
   * The steering between the held steering wheel and the rack (column, pinion, rack mount) as
   * one stiffness at the rack (N/mm): its hold a spring about the held travel. Absent: held rigidly.
   */
  steering?: { rack_stiffness: number };
  /** Lines for stderr: what the vehicle replaced in the axle files. */
  notes: string[];
}

/**
 * Opens a file named in the vehicle file (relative to it); throws an Error whose message says
 * why it cannot. `parsed`: the text already parsed (a page's axle file, edited as data), read
 * in place of parsing the text again.
 */
export type OpenFile = (ref: string) => { path: string; text: string; parsed?: unknown };

// `road`, `steer`, `brake` and `drive` are the run's (road.ts readVehicleRun)
const TOP = ['vehicle', 'name', 'front', 'rear', 'vehicle_config', 'body', 'tyres', 'steering', 'road', 'steer', 'brake', 'drive'];
const CONFIG = ['wheelbase', 'cg_position', 'front_brake_bias', 'driven_axle'];
const TYRE = ['stiffness', 'cornering_stiffness', 'longitudinal_stiffness', 'tir'];
const REPLACED = ['sprung_mass', 'road', 'start', 'drop'];

/**
 * Read a vehicle file and the axle files it names; one SuspensionFileError listing every
 * problem. `parsed`: the text already parsed (a page reading the same vehicle file at every
 * frame of a drag), not modified here.
 */
export function readVehicleFile(text: string, fileName: string, open: OpenFile, parsed?: unknown): VehicleSpec {
  const problems = new ProblemList();
  const raw = parsed !== undefined ? parsed : parseText(text, fileName);
  if (!isRecord(raw)) { problems.add('', 'expected a mapping (a vehicle file)'); problems.throwIfAny(fileName); }
  const v = raw as PlainRecord;
  for (const key of Object.keys(v)) if (!TOP.includes(key)) problems.add(key, `unknown field of a vehicle file (the fields: ${TOP.join(', ')})`);
  if (v.vehicle !== 1) problems.add('vehicle', `expected the format version 1, got ${JSON.stringify(v.vehicle) ?? 'nothing'}`);
  const cfg = isRecord(v.vehicle_config) ? v.vehicle_config : (problems.add('vehicle_config', 'missing: { wheelbase, cg_position, front_brake_bias?, driven_axle? }'), {});
  for (const key of Object.keys(cfg)) if (!CONFIG.includes(key)) problems.add(`vehicle_config.${key}`, `unknown field (expected ${CONFIG.join(', ')})`);
  const wheelbase = readBoundedNumber(problems, cfg.wheelbase, 'vehicle_config.wheelbase', (x) => x > 0, 'must be positive (mm)');
  const cg = readPoint(problems, cfg.cg_position, 'vehicle_config.cg_position');
  const bias = cfg.front_brake_bias === undefined ? undefined : readBoundedNumber(problems, cfg.front_brake_bias, 'vehicle_config.front_brake_bias', (x) => x >= 0 && x <= 1, 'must be a fraction in [0, 1]');
  const driven = cfg.driven_axle === undefined ? undefined : readChoice(problems, cfg.driven_axle, 'vehicle_config.driven_axle', AXLES, 'axle');
  const body = readBody(problems, v.body);
  const steering = readSteering(problems, v.steering);
  const tyres = isRecord(v.tyres) ? v.tyres : (v.tyres === undefined ? {} : (problems.add('tyres', 'expected { front: {...}, rear: {...} }'), {}));
  for (const key of Object.keys(tyres)) if (!AXLES.includes(key as AxleName)) problems.add(`tyres.${key}`, 'unknown axle (expected front, rear)');
  const notes: string[] = [];
  const axles: Partial<Record<AxleName, VehicleAxle>> = {};
  for (const axle of AXLES) {
    const read = readAxle(problems, axle, v[axle], open, tyres[axle], notes);
    if (read) axles[axle] = read;
  }
  // an axle file's own vehicle_config must agree with the vehicle's
  const mine: Record<string, unknown> = { wheelbase, cg_position: cg, front_brake_bias: bias, driven_axle: driven };
  for (const axle of AXLES) {
    const a = axles[axle];
    if (!a) continue;
    const theirs = a.geometry.vehicle as Record<string, unknown>;
    for (const key of CONFIG) {
      if (theirs[key] === undefined || mine[key] === undefined) continue;
      if (JSON.stringify(theirs[key]) !== JSON.stringify(mine[key])) {
        problems.add(`${axle}`, `"${a.path}" has vehicle_config.${key} ${show(theirs[key])} but the vehicle has ${show(mine[key])}`);
      }
    }
  }
  const front = axles.front?.geometry;
  if (steering && front && !(front.steering === 'rack' && front.topology !== 'trailing_arm')) problems.add('steering.rack_stiffness', `the front axle "${axles.front!.path}" has no steering rack to hold through it`);
  problems.throwIfAny(fileName);
  return {
    name: typeof v.name === 'string' ? v.name : fileName,
    front: axles.front!, rear: axles.rear!,
    wheelbase: wheelbase!, cg_position: cg!, ...(bias !== undefined ? { front_brake_bias: bias } : {}), ...(driven ? { driven_axle: driven } : {}),
    body: body!, ...(steering ? { steering } : {}), notes,
  };
}

const show = (x: unknown) => (Array.isArray(x) ? `[${x.join(', ')}]` : JSON.stringify(x));

function readBody(problems: ProblemList, raw: unknown): VehicleSpec['body'] | undefined {
  if (!isRecord(raw)) { problems.add('body', 'missing: { mass (kg), inertia (kg·mm², [Ixx, Iyy, Izz] or 3×3) }'); return undefined; }
  for (const key of Object.keys(raw)) if (!['mass', 'inertia'].includes(key)) problems.add(`body.${key}`, 'unknown field (expected mass, inertia)');
  const mass = readBoundedNumber(problems, raw.mass, 'body.mass', (x) => x > 0, 'must be positive (kg)');
  const inertia = readInertia(problems, raw.inertia, 'body.inertia');
  return mass !== undefined && inertia ? { mass, inertia } : undefined;
}

/** `steering: { rack_stiffness }` (N/mm, above 0 and finite), or nothing. */
function readSteering(problems: ProblemList, raw: unknown): VehicleSpec['steering'] | undefined {
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) { problems.add('steering', 'expected { rack_stiffness (N/mm) }'); return undefined; }
  for (const key of Object.keys(raw)) if (key !== 'rack_stiffness') problems.add(`steering.${key}`, 'unknown field (expected rack_stiffness)');
  const k = readBoundedNumber(problems, raw.rack_stiffness, 'steering.rack_stiffness', (x) => x > 0 && Number.isFinite(x), 'must be a positive stiffness (N/mm at the rack)');
  return k === undefined ? undefined : { rack_stiffness: k };
}

/** Principal [Ixx, Iyy, Izz] or a symmetric 3×3; positive definite, each principal moment ≤ the sum of the others. */
function readInertia(problems: ProblemList, raw: unknown, path: string): number[][] | undefined {
  const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  let I: number[][];
  if (Array.isArray(raw) && raw.length === 3 && raw.every(finite)) I = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? (raw[i] as number) : 0)));
  else if (Array.isArray(raw) && raw.length === 3 && raw.every((r) => Array.isArray(r) && r.length === 3 && r.every(finite))) I = raw as number[][];
  else { problems.add(path, 'expected [Ixx, Iyy, Izz] or a 3×3 matrix of finite numbers (kg·mm²)'); return undefined; }
  for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) {
    if (Math.abs(I[i][j] - I[j][i]) > 1e-9 * (Math.abs(I[i][i]) + Math.abs(I[j][j]))) { problems.add(`${path}[${i}][${j}]`, `not symmetric (${I[i][j]} against ${I[j][i]})`); return undefined; }
  }
  // Sylvester: every leading minor positive
  const m1 = I[0][0], m2 = I[0][0] * I[1][1] - I[0][1] * I[1][0];
  const m3 = I[0][0] * (I[1][1] * I[2][2] - I[1][2] * I[2][1]) - I[0][1] * (I[1][0] * I[2][2] - I[1][2] * I[2][0]) + I[0][2] * (I[1][0] * I[2][1] - I[1][1] * I[2][0]);
  if (!(m1 > 0 && m2 > 0 && m3 > 0)) { problems.add(path, 'not positive definite (a body has a positive moment about every axis)'); return undefined; }
  const d = [I[0][0], I[1][1], I[2][2]];
  if (!Array.isArray(raw[0]) && d.some((x, i) => x > d[(i + 1) % 3] + d[(i + 2) % 3])) { problems.add(path, `not a body's inertia: each principal moment is at most the sum of the other two (got ${d.join(', ')})`); return undefined; }
  return I;
}

/** One axle: its file opened and validated (a corner mirrored), its dynamics read, its tyre. */
function readAxle(problems: ProblemList, axle: AxleName, ref: unknown, open: OpenFile, tyreRaw: unknown, notes: string[]): VehicleAxle | undefined {
  if (typeof ref !== 'string' || ref === '') { problems.add(axle, 'expected the path of an axle or corner file'); return undefined; }
  let path = ref, text: string, parsed: unknown;
  try { ({ path, text, parsed } = open(ref)); } catch (e) { problems.add(axle, `cannot read "${ref}": ${(e as Error).message}`); return undefined; }
  let geometry: Geometry;
  try { geometry = validateGeometry(parsed !== undefined ? parsed : parseText(text, path), path); } catch (e) {
    const first = e instanceof SuspensionFileError ? `${e.problems[0].path}: ${e.problems[0].message}` : (e as Error).message;
    problems.add(axle, `"${path}" is not an axle or corner file (${first})`);
    return undefined;
  }
  if (geometry.axle_position !== axle) { problems.add(axle, `"${path}" is a ${geometry.axle_position} axle (axle_position)`); return undefined; }
  if (geometry.scope === 'corner') geometry = mirrored(geometry);
  const file = geometry.raw as PlainRecord;
  const dyn: PlainRecord = isRecord(file.dynamics) ? { ...file.dynamics } : {};
  const replaced = REPLACED.filter((k) => dyn[k] !== undefined);
  if (replaced.length) notes.push(`${axle}: "${path}" dynamics.${replaced.join(', dynamics.')} replaced by the vehicle's body and flat road`);
  for (const k of REPLACED) delete dyn[k];
  const fileTyre = isRecord(dyn.tyre) ? dyn.tyre : undefined;
  const tyre = readTyre(problems, axle, tyreRaw, fileTyre, path, notes, open);
  dyn.tyre = { stiffness: tyre?.stiffness ?? 1, ...(fileTyre?.damping !== undefined ? { damping: fileTyre.damping } : {}) };
  let dynamics: SuspensionDynamicsSpec;
  try { dynamics = readSuspensionDynamics(dyn, geometry, path); } catch (e) {
    const p = e instanceof SuspensionFileError ? e.problems[0] : { path: '', message: (e as Error).message };
    problems.add(axle, `"${path}" ${p.path}: ${p.message}`);
    return undefined;
  }
  if (!tyre) return undefined;
  tyre.damping = dynamics.tyre.damping;
  if (Object.keys(dynamics.masses).length === 0) notes.push(`${axle}: "${path}" has no dynamics.masses: its moving parts are massless (statics only; modes need masses)`);
  return { ref, path, geometry, dynamics, tyre };
}

function readTyre(problems: ProblemList, axle: AxleName, raw: unknown, fileTyre: PlainRecord | undefined, path: string, notes: string[], open: OpenFile): VehicleTyre | undefined {
  const at = `tyres.${axle}`;
  if (raw !== undefined && !isRecord(raw)) { problems.add(at, 'expected { stiffness, cornering_stiffness, longitudinal_stiffness } or { tir }'); return undefined; }
  const t = (raw ?? {}) as PlainRecord;
  for (const key of Object.keys(t)) if (!TYRE.includes(key)) problems.add(`${at}.${key}`, `unknown field (expected ${TYRE.join(', ')})`);
  if (t.tir !== undefined) return readTir(problems, at, t, open, notes);
  const positive = (x: number) => x > 0;
  const opt = (key: string) => (t[key] === undefined ? undefined : readBoundedNumber(problems, t[key], `${at}.${key}`, positive, 'must be positive'));
  let stiffness = opt('stiffness');
  if (t.stiffness === undefined) {
    if (fileTyre?.stiffness !== undefined) stiffness = readBoundedNumber(problems, fileTyre.stiffness, `${at} ("${path}" dynamics.tyre.stiffness)`, positive, 'must be positive (N/mm)');
    else { problems.add(`${at}.stiffness`, `a tyre without stiffness (N/mm): give it here or as dynamics.tyre.stiffness in "${path}"`); return undefined; }
  } else if (fileTyre?.stiffness !== undefined) notes.push(`${axle}: "${path}" dynamics.tyre.stiffness ${fileTyre.stiffness} replaced by the vehicle's ${t.stiffness} N/mm`);
  const cornering = opt('cornering_stiffness'), longitudinal = opt('longitudinal_stiffness');
  if (stiffness === undefined) return undefined;
  return { stiffness, damping: 0, ...(cornering !== undefined ? { cornering_stiffness: cornering } : {}), ...(longitudinal !== undefined ? { longitudinal_stiffness: longitudinal } : {}) };
}

/** `{ tir: FILE }`: the Magic Formula file read (a key it needs missing is an error naming section and key); its vertical stiffness. */
function readTir(problems: ProblemList, at: string, t: PlainRecord, open: OpenFile, notes: string[]): VehicleTyre | undefined {
  const others = Object.keys(t).filter((k) => k !== 'tir');
  if (others.length) { problems.add(`${at}.${others[0]}`, 'a .tir tyre takes its numbers from the file: give tir alone'); return undefined; }
  if (typeof t.tir !== 'string' || t.tir === '') { problems.add(`${at}.tir`, 'expected the path of a .tir file'); return undefined; }
  let path = t.tir, text: string;
  try { ({ path, text } = open(t.tir)); } catch (e) { problems.add(`${at}.tir`, `cannot read "${t.tir}": ${(e as Error).message}`); return undefined; }
  try {
    const { tyre, warnings } = readTyreText(path, text);
    notes.push(...warnings.filter((w) => !notes.includes(w))); // a .tir on both axles: its unused keys said once
    return { stiffness: tyre.verticalStiffness, damping: 0, tir: { path, model: tyre } }; // N/mm (the model converts)
  } catch (e) { problems.add(`${at}.tir`, (e as Error).message); return undefined; }
}

/** A corner file as the symmetric axle it stands for: the other side is its mirror (y → −y), setup included. */
function mirrored(g: Geometry): Geometry {
  const c = g.corners[0];
  const other = { side: c.side === 'left' ? 'right' : 'left', hardpoints: mirrorHardpoints(c.hardpoints), ...(c.setup ? { setup: mirrorSetup(c.setup) } : {}) } as Geometry['corners'][number];
  const corners = c.side === 'left' ? [c, other] : [other, c];
  return { ...g, scope: 'axle', corners };
}
