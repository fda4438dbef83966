/**
 * The `geometry` field of a part (assembly files) and of a suspension geometry file
 * (keyed by template part name): a list of files, each placed in the part's frame.
 * The checker here is the one both documents use; it checks the shape only (a file is
 * read later, lazily: see load.ts), and reports through the caller's `fail` so each
 * document throws its own error type.
 */
import type { Vec3Tuple } from '../../../kernel/vec3.ts';

/** Length units a geometry file may be in, and millimetres per unit. */
export const GEOMETRY_UNITS = { mm: 1, cm: 10, m: 1000, in: 25.4, ft: 304.8 } as const;
export type GeometryUnit = keyof typeof GEOMETRY_UNITS;

export interface GeometryFrameDoc {
  /** Default [0, 0, 0]. */
  readonly origin?: Readonly<Vec3Tuple>;
  /** `[w, x, y, z]`, any non-zero length (normalised when applied, kept as written); default identity. */
  readonly rotation?: readonly [number, number, number, number];
}

export interface GeometryDoc {
  /** Path relative to the document's file; the extension picks the reader. */
  readonly file: string;
  /** Places the file's coordinates in the part's frame: p_part = R·p_file·scale + origin. Default identity. */
  readonly frame?: GeometryFrameDoc;
  /** The file's length unit where the format does not say (STL, OBJ; glTF default m); default mm. */
  readonly units?: GeometryUnit;
}

export type Fail = (path: string, reason: string) => never;

const ENTRY_FIELDS = ['file', 'frame', 'units'];

/** Checks a part's `geometry` list; returns a fresh copy (keys in read order). */
export function checkGeometryList(value: unknown, path: string, fail: Fail): GeometryDoc[] {
  if (!Array.isArray(value)) fail(path, `expected a list of geometry files [{ "file": … }], got ${kindOf(value)}`);
  return (value as unknown[]).map((entry, i) => checkEntry(entry, `${path}[${i}]`, fail));
}

function checkEntry(value: unknown, path: string, fail: Fail): GeometryDoc {
  if (!isObject(value)) fail(path, `expected a geometry file { "file": …, "frame"?: …, "units"?: … }, got ${kindOf(value)}`);
  const entry = value as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (entry[key] !== undefined && !ENTRY_FIELDS.includes(key)) fail(`${path}.${key}`, `unknown field "${key}" in a geometry file; expected ${ENTRY_FIELDS.join(', ')}`);
  }
  const file = entry.file;
  if (typeof file !== 'string' || file.length === 0) fail(`${path}.file`, file === undefined ? 'missing; the path of a STEP, IGES, STL, OBJ, glTF or GLB file' : `expected a file path, got ${kindOf(file)}`);
  // keys in the order read, so a saved file keeps it
  let out: { file: string; frame?: GeometryFrameDoc; units?: GeometryUnit } = { file: file as string };
  for (const key of Object.keys(entry)) {
    if (key === 'frame' && entry.frame !== undefined) out = { ...out, frame: checkFrame(entry.frame, `${path}.frame`, fail) };
    else if (key === 'units' && entry.units !== undefined) {
      if (typeof entry.units !== 'string' || !Object.hasOwn(GEOMETRY_UNITS, entry.units)) {
        fail(`${path}.units`, `expected one of ${Object.keys(GEOMETRY_UNITS).join(', ')}, got ${kindOf(entry.units)}`);
      }
      out = { ...out, units: entry.units as GeometryUnit };
    }
  }
  return out;
}

function checkFrame(value: unknown, path: string, fail: Fail): GeometryFrameDoc {
  if (!isObject(value)) fail(path, `expected a frame { "origin": [x, y, z], "rotation": [w, x, y, z] }, got ${kindOf(value)}`);
  const frame = value as Record<string, unknown>;
  for (const key of Object.keys(frame)) {
    if (frame[key] !== undefined && key !== 'origin' && key !== 'rotation') fail(`${path}.${key}`, `unknown field "${key}" in a frame; expected origin, rotation`);
  }
  const origin = frame.origin === undefined ? [0, 0, 0] : numbers(frame.origin, 3, `${path}.origin`, fail);
  const rotation = frame.rotation === undefined ? [1, 0, 0, 0] : numbers(frame.rotation, 4, `${path}.rotation`, fail);
  if (rotation.every((c) => c === 0)) fail(`${path}.rotation`, 'the zero quaternion is no rotation; expected [w, x, y, z] not all zero');
  // only the fields written, in their order: load then save gives the same text
  let out: { origin?: Vec3Tuple; rotation?: [number, number, number, number] } = {};
  for (const key of Object.keys(frame)) {
    if (key === 'origin' && frame.origin !== undefined) out = { ...out, origin: origin as Vec3Tuple };
    if (key === 'rotation' && frame.rotation !== undefined) out = { ...out, rotation: rotation as [number, number, number, number] };
  }
  return out;
}

function numbers(value: unknown, n: number, path: string, fail: Fail): number[] {
  if (!Array.isArray(value) || value.length !== n) fail(path, `expected ${n} numbers, got ${kindOf(value)}`);
  (value as unknown[]).forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${path}[${i}]`, `expected a finite number, got ${kindOf(v)}`);
  });
  return [...(value as number[])];
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : String(value);
}
