/**
 * Shared readers for the suspension file validators: YAML/JSON text to plain data, and
 * field checks that record a problem and return `undefined` instead of throwing, so a
 * validator can keep walking and report everything at once.
 */
import { LineCounter, parseDocument } from 'yaml';
import type { Vec3Tuple } from '../../../kernel/vec3';
import { ProblemList, ROOT_PATH, SuspensionFileError } from './errors';

/** A point in millimetres, ISO 8855 chassis axes (x forward, y left, z up). */
export type Point3 = Vec3Tuple;

export type PlainRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is PlainRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as written in a message: strings quoted (`"inches"`), others described. */
export function quoted(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describe(value);
}

/** `a.b`, `a[2]`, or just `b` at the root. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** A short description of a value for messages: `the string "250"`, `a list`, `null`. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

/**
 * Parses YAML or JSON (JSON is YAML 1.2 flow syntax, so one parser serves both).
 * Syntax errors, duplicate keys included, are thrown as one SuspensionFileError whose
 * paths are `line L, column C`.
 */
export function parseText(text: string, fileName?: string): unknown {
  // Binary data would come back as pages of parser messages quoting its bytes.
  if (isBinaryText(text)) fail(ROOT_PATH, 'not a text YAML or JSON file (it holds binary data)', fileName);
  const lineCounter = new LineCounter();
  // prettyErrors off: its messages span several lines, and ours are one problem a line.
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    const problems = new ProblemList();
    for (const error of document.errors.slice(0, MAX_SYNTAX_PROBLEMS)) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      problems.add(`line ${line}, column ${col}`, withoutControls(error.message));
    }
    const more = document.errors.length - MAX_SYNTAX_PROBLEMS;
    if (more > 0) problems.add(ROOT_PATH, `and ${more} more syntax error${more > 1 ? 's' : ''}`);
    problems.throwIfAny(fileName);
  }
  return document.toJS();
}

/** Most syntax errors reported for one file (the first ones; a count of the rest). */
const MAX_SYNTAX_PROBLEMS = 10;

/**
 * True when decoded text is not text: a NUL, a replacement character from invalid UTF-8,
 * or more control characters (besides tab, newline, carriage return, form feed) than a
 * text file has.
 */
export function isBinaryText(text: string): boolean {
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || c === 0xfffd) return true;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 127) control++;
  }
  return control > Math.max(2, text.length / 100);
}

/** A message with control characters written as \xHH (never echoed to a terminal). */
function withoutControls(message: string): string {
  // eslint-disable-next-line no-control-regex
  return message.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Throws with a single problem: for callers that have nothing else to collect. */
export function fail(path: string, message: string, fileName?: string): never {
  throw new SuspensionFileError([{ path, message }], fileName);
}

/**
 * A sub-mapping that may be absent: returns `{}` when missing, records a problem and
 * returns `{}` when it is not a mapping.
 */
export function readSection(problems: ProblemList, parent: PlainRecord, key: string, path: string): PlainRecord {
  const value = parent[key];
  if (value === undefined) return {};
  if (!isRecord(value)) {
    problems.add(childPath(path, key), `expected a mapping, got ${describe(value)}`);
    return {};
  }
  return value;
}

/** A finite number; NaN, infinities and numeric strings are refused. */
export function readNumber(problems: ProblemList, value: unknown, path: string): number | undefined {
  if (typeof value !== 'number') {
    problems.add(path, value === undefined ? 'missing number' : `expected a number, got ${describe(value)}`);
    return undefined;
  }
  if (!Number.isFinite(value)) {
    problems.add(path, `not a finite number (got ${value})`);
    return undefined;
  }
  return value;
}

/** Like readNumber, with a bound check explained by `requirement` (`must be > 0`). */
export function readBoundedNumber(
  problems: ProblemList,
  value: unknown,
  path: string,
  accept: (x: number) => boolean,
  requirement: string,
): number | undefined {
  const number = readNumber(problems, value, path);
  if (number === undefined) return undefined;
  if (!accept(number)) {
    problems.add(path, `${requirement} (got ${number})`);
    return undefined;
  }
  return number;
}

/** One of `choices`; `what` names the kind of thing in the message (`topology`, `side`). */
export function readChoice<T extends string>(
  problems: ProblemList,
  value: unknown,
  path: string,
  choices: readonly T[],
  what: string,
): T | undefined {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  const expected = listChoices(choices);
  if (value === undefined) problems.add(path, `missing ${what} (expected ${expected})`);
  else if (typeof value === 'string') problems.add(path, `unknown ${what} "${value}" (expected ${expected})`);
  else problems.add(path, `expected a ${what} (${expected}), got ${describe(value)}`);
  return undefined;
}

/** `a, b or c`: the choices as a reader would type them. */
export function listChoices(choices: readonly string[]): string {
  if (choices.length <= 1) return choices.join('');
  return `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}`;
}

const AXES = ['x', 'y', 'z'] as const;

/**
 * A point written `{ x, y, z }` (the suspension-explorer-core layout) or `[x, y, z]`.
 * Records one problem per bad coordinate.
 */
export function readPoint(problems: ProblemList, value: unknown, path: string): Point3 | undefined {
  if (Array.isArray(value)) {
    if (value.length !== 3) {
      problems.add(path, `expected 3 coordinates [x, y, z], got ${value.length}`);
      return undefined;
    }
    const before = problems.count;
    const coordinates = value.map((coordinate, index) => readNumber(problems, coordinate, childPath(path, index)));
    return problems.count === before ? (coordinates as Point3) : undefined;
  }
  if (!isRecord(value)) {
    problems.add(path, `expected a point { x, y, z }, got ${describe(value)}`);
    return undefined;
  }
  const before = problems.count;
  for (const key of Object.keys(value)) {
    if (!(AXES as readonly string[]).includes(key)) problems.add(childPath(path, key), 'unknown coordinate (expected x, y and z)');
  }
  const coordinates = AXES.map((axis) => {
    const coordinatePath = childPath(path, axis);
    if (value[axis] === undefined) {
      problems.add(coordinatePath, 'missing coordinate');
      return undefined;
    }
    return readNumber(problems, value[axis], coordinatePath);
  });
  return problems.count === before ? (coordinates as Point3) : undefined;
}

/** A known name within two edits of a misspelt one, for a "did you mean" hint. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const edits = editDistance(name, candidate);
    if (edits < bestDistance) {
      best = candidate;
      bestDistance = edits;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
