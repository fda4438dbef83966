/**
 * A road under a wheel as the dynamics files give it (docs/dynamics.md "Suspension
 * dynamics"): a sine, a (1 − cos) bump, a table of heights over time, or an ISO 8608 random
 * road (iso8608.ts), read as the table it generates at its speed. Read strictly, every
 * problem named by its path; shared by a geometry file's `dynamics.road` and a vehicle
 * file's `road` (src/suspension/vehicle/road.ts).
 */
import type { ProblemList } from '../files/errors';
import { isRecord } from '../files/read';
import { ArgumentError } from '../../../kernel/errors';
import { ISO8608_CLASSES, ISO8608_MAX_LENGTH, iso8608Road, type Iso8608Class } from './iso8608';

/** A road height (mm above the design contact) over time (s). */
export type RoadSpec =
  | { sine: { amplitude: number; frequency: number; phase?: number; offset?: number } }
  | { bump: { height: number; duration: number; start: number } }
  | { table: [number, number][] };

const ROAD_KINDS = ['sine', 'bump', 'table', 'iso8608'];
const ISO8608_FIELDS = ['class', 'seed', 'speed_kmh', 'length_m'];

/** A finite number (and `check` passed), or undefined with the problem added. */
export function readNumber(problems: ProblemList, x: unknown, path: string, check: (v: number) => string | null = () => null): number | undefined {
  // JSON.stringify writes NaN (YAML .nan) and the infinities as null: name them
  if (typeof x !== 'number' || !Number.isFinite(x)) { problems.add(path, typeof x === 'number' ? `not a finite number (got ${x})` : `expected a finite number, got ${JSON.stringify(x)}`); return undefined; }
  const why = check(x);
  if (why) { problems.add(path, why); return undefined; }
  return x;
}
export const positive = (v: number) => (v > 0 ? null : `must be > 0 (got ${v})`);
export const nonNegative = (v: number) => (v >= 0 ? null : `must be ≥ 0 (got ${v})`);

/** One road: exactly one of sine, bump, table, iso8608. */
export function readRoadSpec(problems: ProblemList, r: unknown, path: string): RoadSpec | undefined {
const num = (x: unknown, at: string, check?: (v: number) => string | null) => readNumber(problems, x, at, check);
  if (!isRecord(r)) { problems.add(path, 'expected { sine }, { bump }, { table } or { iso8608 }'); return undefined; }
  const kinds = Object.keys(r);
  if (kinds.length !== 1 || !ROAD_KINDS.includes(kinds[0])) { problems.add(path, `expected exactly one of ${ROAD_KINDS.join(', ')}`); return undefined; }
  const body = r[kinds[0]];
  const sub = `${path}.${kinds[0]}`;
  if (kinds[0] === 'table') {
    if (!Array.isArray(body) || body.length < 2) { problems.add(sub, 'expected [[t, height], …], at least 2 rows'); return undefined; }
    const rows = body.map((row, i) => (Array.isArray(row) && row.length === 2 ? [num(row[0], `${sub}[${i}][0]`), num(row[1], `${sub}[${i}][1]`)] : (problems.add(`${sub}[${i}]`, 'expected [t, height]'), [undefined, undefined])));
    if (rows.some((row) => row[0] === undefined || row[1] === undefined)) return undefined;
    for (let i = 1; i < rows.length; i++) if (!(rows[i][0]! > rows[i - 1][0]!)) { problems.add(`${sub}[${i}][0]`, 'times must increase strictly'); return undefined; }
    return { table: rows as [number, number][] };
  }
  if (!isRecord(body)) { problems.add(sub, 'expected a mapping'); return undefined; }
  if (kinds[0] === 'iso8608') return readIso8608(problems, body, sub);
  const allowed = kinds[0] === 'sine' ? ['amplitude', 'frequency', 'phase', 'offset'] : ['height', 'duration', 'start'];
  for (const key of Object.keys(body)) if (!allowed.includes(key)) problems.add(`${sub}.${key}`, `unknown field (expected ${allowed.join(', ')})`);
  if (kinds[0] === 'sine') {
    const amplitude = num(body.amplitude, `${sub}.amplitude`), frequency = num(body.frequency, `${sub}.frequency`, positive);
    const phase = body.phase === undefined ? 0 : num(body.phase, `${sub}.phase`), offset = body.offset === undefined ? 0 : num(body.offset, `${sub}.offset`);
    if ([amplitude, frequency, phase, offset].some((x) => x === undefined)) return undefined;
    return { sine: { amplitude: amplitude!, frequency: frequency!, phase: phase!, offset: offset! } };
  }
  const height = num(body.height, `${sub}.height`), duration = num(body.duration, `${sub}.duration`, positive);
  const start = body.start === undefined ? 0 : num(body.start, `${sub}.start`, nonNegative);
  if ([height, duration, start].some((x) => x === undefined)) return undefined;
  return { bump: { height: height!, duration: duration!, start: start! } };
}

// an ISO 8608 random road is read as the table it generates (iso8608.ts)
function readIso8608(problems: ProblemList, body: Record<string, unknown>, sub: string): RoadSpec | undefined {
const num = (x: unknown, at: string, check?: (v: number) => string | null) => readNumber(problems, x, at, check);
  for (const key of Object.keys(body)) if (!ISO8608_FIELDS.includes(key)) problems.add(`${sub}.${key}`, `unknown field (expected ${ISO8608_FIELDS.join(', ')})`);
  const roadClass = body.class as Iso8608Class;
  if (!ISO8608_CLASSES.includes(roadClass)) problems.add(`${sub}.class`, `expected one of ${ISO8608_CLASSES.join(', ')}, got ${JSON.stringify(body.class)}`);
  const seed = num(body.seed, `${sub}.seed`, (v) => (Number.isInteger(v) && v >= 0 && v < 2 ** 32 ? null : `expected an integer 0 ≤ seed < 2^32 (got ${v})`));
  const speed = num(body.speed_kmh, `${sub}.speed_kmh`, positive);
  const length = num(body.length_m, `${sub}.length_m`, (v) => (v > 0 && v <= ISO8608_MAX_LENGTH ? null : `must be > 0 and at most ${ISO8608_MAX_LENGTH} m (got ${v})`));
  if (!ISO8608_CLASSES.includes(roadClass) || seed === undefined || speed === undefined || length === undefined) return undefined;
  try {
    return { table: iso8608Road({ roadClass, seed, length, speedMps: speed / 3.6 }) };
  } catch (e) {
    if (!(e instanceof ArgumentError)) throw e;
    // left after the checks above: a road too short for the band
    problems.add(`${sub}.${e.path === 'length' ? 'length_m' : e.path}`, e.reason);
    return undefined;
  }
}
