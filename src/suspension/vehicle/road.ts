/**
 * A vehicle file's run (docs/vehicle-dynamics.md): `road`, the road under each wheel,
 * `steer`, a step at the steering rack, and `brake` and `drive`, a torque at the wheels. A road is one of the dynamics files' (a sine, a
 * (1 − cos) bump, a table of heights over time, an ISO 8608 random road of a class, seed,
 * speed and length: src/suspension/dynamics/road.ts). Given per side (`left`, `right`, or
 * one road for both), the front wheel sees it as written and the rear wheel the same road
 * wheelbase / speed later; given per corner it is that wheel's alone, as written. Heights
 * are mm above the design contact, times s.
 */
import { ProblemList } from '../files/errors';
import { isRecord, parseText } from '../files/read';
import { readNumber, readRoadSpec, type RoadSpec } from '../dynamics/road';
import { roadLaw } from '../dynamics/model';
import { CORNERS, type CornerName } from './assembly';
import type { VehicleSpec } from './file';

/** A road height's law over time, as a motion takes it (mm, s; a sine's phase in degrees). */
export type RoadLaw = { sine: { amplitude: number; frequency: number; phase: number; offset: number } } | { table: [number, number][] };

export interface SteerStep {
  /** The rack's travel at the end of the step (mm, the rack coordinate's unit), from its design travel. */
  rack: number;
  /** s: when the step begins, and how long its ramp takes. */
  start: number;
  ramp: number;
  /** km/h: the car's speed over the road. */
  speed_kmh: number;
}

/** A brake or drive torque at the wheels over time, on a flat road at a speed (wheel-torque.ts). */
export interface WheelTorqueRun {
  kind: 'brake' | 'drive';
  /** N·m: all the wheels' together at the end of the ramp (a brake's split by front_brake_bias, a drive's on the driven axle; left and right alike). */
  torque_nm: number;
  start: number;
  ramp: number;
  speed_kmh: number;
}

export interface VehicleRun {
  /** Per wheel; absent: a flat road. */
  roads: Partial<Record<CornerName, RoadLaw>>;
  /** s: the rear wheels' delay behind the front on the side roads (0 without them). */
  delay: number;
  steer: SteerStep | null;
  /** `brake` and `drive`, as given. */
  torques: WheelTorqueRun[];
}

const ROAD_KEYS = ['speed_kmh', 'left', 'right', ...CORNERS];
const ROAD_KINDS = ['sine', 'bump', 'table', 'iso8608'];
const STEER_KEYS = ['rack', 'start', 'ramp', 'speed_kmh'];
const TORQUE_KEYS = ['torque_nm', 'start', 'ramp', 'speed_kmh'];

/** The road moved `delay` s later: a sine by its phase, a table by its times (its first height held until then). */
export function delayed(law: RoadLaw, delay: number): RoadLaw {
  if (delay === 0) return law;
  if ('sine' in law) return { sine: { ...law.sine, phase: law.sine.phase - 360 * law.sine.frequency * delay } };
  return { table: [[0, law.table[0][1]], ...law.table.map(([t, z]): [number, number] => [t + delay, z])] };
}

function lawOf(road: RoadSpec): RoadLaw {
  const law = roadLaw(road, 0) as RoadLaw;
  return 'sine' in law ? { sine: { amplitude: law.sine.amplitude, frequency: law.sine.frequency, phase: law.sine.phase ?? 0, offset: law.sine.offset ?? 0 } } : law;
}

/** Read the vehicle file's `road` and `steer` (both optional); every problem named by its path. */
export function readVehicleRun(text: string, fileName: string, spec: VehicleSpec): VehicleRun {
  const problems = new ProblemList();
  const raw = parseText(text, fileName) as Record<string, unknown>;
  const run: VehicleRun = { roads: {}, delay: 0, steer: null, torques: [] };
  const r = raw.road;
  if (r !== undefined && !isRecord(r)) problems.add('road', 'expected a road ({ bump }, { table }, { sine }, { iso8608 }) or { speed_kmh, left, right, front_left, … }');
  else if (r !== undefined) {
    const single = Object.keys(r).some((k) => ROAD_KINDS.includes(k));
    for (const key of Object.keys(r)) if (!(single ? [...ROAD_KINDS, 'speed_kmh'] : ROAD_KEYS).includes(key)) problems.add(`road.${key}`, `unknown field (expected ${single ? 'one of sine, bump, table, iso8608, and speed_kmh' : ROAD_KEYS.join(', ')})`);
    const given = r.speed_kmh === undefined ? undefined : readNumber(problems, r.speed_kmh, 'road.speed_kmh', (v) => (v > 0 ? null : `must be > 0 (got ${v})`));
    const rest = Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'speed_kmh'));
    const sides: [('left' | 'right')[], unknown, string][] = single ? [[['left', 'right'], rest, 'road']] : (['left', 'right'] as const).map((s) => [[s], r[s], `road.${s}`]);
    const speed = speedOf(problems, given, sides.map((x) => x[1]));
    for (const [which, value, path] of sides) {
      if (value === undefined) continue;
      if (speed === undefined) { problems.add('road.speed_kmh', 'needed: the rear wheels see the side roads wheelbase / speed after the front'); break; }
      const road = readRoadSpec(problems, value, path);
      if (!road) continue;
      run.delay = spec.wheelbase / 1000 / (speed / 3.6);
      const law = lawOf(road);
      for (const side of which) { run.roads[`front_${side}`] = law; run.roads[`rear_${side}`] = delayed(law, run.delay); }
    }
    if (!single) for (const corner of CORNERS) {
      if (r[corner] === undefined) continue;
      const road = readRoadSpec(problems, r[corner], `road.${corner}`);
      if (road) run.roads[corner] = lawOf(road);
    }
  }
  if (raw.steer !== undefined) run.steer = readSteer(problems, raw.steer);
  for (const kind of ['brake', 'drive'] as const) {
    if (raw[kind] === undefined) continue;
    const t = readTorque(problems, raw[kind], kind);
    if (t) run.torques.push(t);
  }
  // one car, one speed
  const first = run.steer?.speed_kmh ?? run.torques[0]?.speed_kmh;
  for (const t of run.torques) if (t.speed_kmh !== first) problems.add(`${t.kind}.speed_kmh`, `the car has one speed: steer, brake and drive give the same speed_kmh (${first} and ${t.speed_kmh} here)`);
  problems.throwIfAny(fileName);
  return run;
}

/** The speed the rear wheels' delay needs: road.speed_kmh, else the side roads' ISO 8608 speed (all the same). */
function speedOf(problems: ProblemList, given: number | undefined, roads: readonly unknown[]): number | undefined {
  if (given !== undefined) return given;
  const own = roads.map((x) => (isRecord(x) && isRecord(x.iso8608) ? x.iso8608.speed_kmh : undefined)).filter((x): x is number => typeof x === 'number' && x > 0);
  if (own.some((x) => x !== own[0])) problems.add('road.speed_kmh', `the side roads' ISO 8608 speeds differ (${own.join(', ')} km/h): give the car's speed here`);
  return own[0];
}

function readSteer(problems: ProblemList, raw: unknown): SteerStep | null {
  if (!isRecord(raw)) { problems.add('steer', 'expected { rack (mm), start (s), ramp (s), speed_kmh }'); return null; }
  for (const key of Object.keys(raw)) if (!STEER_KEYS.includes(key)) problems.add(`steer.${key}`, `unknown field (expected ${STEER_KEYS.join(', ')})`);
  const rack = readNumber(problems, raw.rack, 'steer.rack');
  const start = raw.start === undefined ? 0 : readNumber(problems, raw.start, 'steer.start', (v) => (v >= 0 ? null : `must be ≥ 0 (got ${v})`));
  const ramp = raw.ramp === undefined ? 0.05 : readNumber(problems, raw.ramp, 'steer.ramp', (v) => (v > 0 ? null : `must be > 0 (got ${v})`));
  const speed = readNumber(problems, raw.speed_kmh, 'steer.speed_kmh', (v) => (v > 0 ? null : `must be > 0 (got ${v})`));
  if (rack === undefined || start === undefined || ramp === undefined || speed === undefined) return null;
  return { rack, start, ramp, speed_kmh: speed };
}

function readTorque(problems: ProblemList, raw: unknown, kind: 'brake' | 'drive'): WheelTorqueRun | null {
  if (!isRecord(raw)) { problems.add(kind, 'expected { torque_nm (N·m, all wheels together), start (s), ramp (s), speed_kmh }'); return null; }
  for (const key of Object.keys(raw)) if (!TORQUE_KEYS.includes(key)) problems.add(`${kind}.${key}`, `unknown field (expected ${TORQUE_KEYS.join(', ')})`);
  const torque = readNumber(problems, raw.torque_nm, `${kind}.torque_nm`, (v) => (v >= 0 ? null : `must be ≥ 0 (got ${v}): a ${kind} torque's sign is its kind's`));
  const start = raw.start === undefined ? 0 : readNumber(problems, raw.start, `${kind}.start`, (v) => (v >= 0 ? null : `must be ≥ 0 (got ${v})`));
  const ramp = raw.ramp === undefined ? 0.05 : readNumber(problems, raw.ramp, `${kind}.ramp`, (v) => (v > 0 ? null : `must be > 0 (got ${v})`));
  const speed = readNumber(problems, raw.speed_kmh, `${kind}.speed_kmh`, (v) => (v > 0 ? null : `must be > 0 (got ${v})`));
  if (torque === undefined || start === undefined || ramp === undefined || speed === undefined) return null;
  return { kind, torque_nm: torque, start, ramp, speed_kmh: speed };
}
