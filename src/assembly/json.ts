/**
 * A strict JSON reader and a writer that keeps every number exactly.
 *
 * `JSON.parse` is not enough for assembly files: it silently keeps the last of two
 * duplicate keys (a duplicate part id would vanish), reports syntax errors without a
 * dependable line and column, and turns `1e400` into Infinity. `JSON.stringify` writes
 * -0 as `0`. Both are replaced here; numbers themselves still go through the engine's
 * correctly rounded `Number(text)` and shortest round-trip `String(number)`.
 */

import { AssemblyError, ROOT_PATH, itemPath, memberPath, type TextPosition } from './errors.ts';

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/**
 * Nesting deeper than this is refused rather than risking a stack overflow (a
 * RangeError would escape as the wrong exception type). Assembly files nest about 6 deep.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Sets an own, enumerable property even for the key `__proto__`, which plain
 * assignment would turn into a prototype change.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

const NUMBER_PATTERN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
};

/**
 * Parses JSON text (RFC 8259; a leading byte-order mark is skipped). Throws
 * AssemblyError: at path `$` with line and column for a syntax error, at the member's
 * path for a duplicate key or a number too large for a double.
 */
export function parseJson(text: string): JsonValue {
  return new JsonReader(text).readDocument();
}

class JsonReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  readDocument(): JsonValue {
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.skipWhitespace();
    const value = this.readValue(ROOT_PATH, 0);
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail('unexpected text after the end of the document');
    return value;
  }

  private readValue(path: string, depth: number): JsonValue {
    if (depth > MAX_JSON_DEPTH) this.fail(`nested more than ${MAX_JSON_DEPTH} levels deep`);
    const ch = this.text[this.pos];
    switch (ch) {
      case '{': return this.readObject(path, depth);
      case '[': return this.readArray(path, depth);
      case '"': return this.readString();
      case 't': return this.readLiteral('true', true);
      case 'f': return this.readLiteral('false', false);
      case 'n': return this.readLiteral('null', null);
      default:
        if (ch === '-' || (ch >= '0' && ch <= '9')) return this.readNumber(path);
        return this.fail(this.unexpected('a value'));
    }
  }

  private readObject(path: string, depth: number): JsonObject {
    const result: Record<string, JsonValue> = {};
    const seen = new Set<string>();
    this.pos++; // '{'
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return result;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail(this.unexpected('a key in double quotes'));
      const keyPosition = this.position();
      const key = this.readString();
      const childPath = memberPath(path, key);
      if (seen.has(key)) {
        throw new AssemblyError(
          childPath,
          `duplicate key "${key}" at line ${keyPosition.line}, column ${keyPosition.column}`,
          keyPosition,
        );
      }
      seen.add(key);
      this.skipWhitespace();
      this.expect(':');
      this.skipWhitespace();
      setOwn(result, key, this.readValue(childPath, depth + 1));
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
        this.skipWhitespace();
      } else if (next === '}') {
        this.pos++;
        return result;
      } else {
        this.fail(this.unexpected('"," or "}"'));
      }
    }
  }

  private readArray(path: string, depth: number): JsonValue[] {
    const result: JsonValue[] = [];
    this.pos++; // '['
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return result;
    }
    for (;;) {
      result.push(this.readValue(itemPath(path, result.length), depth + 1));
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
        this.skipWhitespace();
      } else if (next === ']') {
        this.pos++;
        return result;
      } else {
        this.fail(this.unexpected('"," or "]"'));
      }
    }
  }

  private readString(): string {
    this.pos++; // opening quote
    let result = '';
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= this.text.length) this.fail('unterminated string');
      const code = this.text.charCodeAt(this.pos);
      if (code === 0x22) {
        result += this.text.slice(chunkStart, this.pos);
        this.pos++;
        return result;
      }
      if (code < 0x20) this.fail('control character in a string (write it as an escape)');
      if (code === 0x5c) {
        result += this.text.slice(chunkStart, this.pos);
        result += this.readEscape();
        chunkStart = this.pos;
      } else {
        this.pos++;
      }
    }
  }

  private readEscape(): string {
    this.pos++; // backslash
    const ch = this.text[this.pos];
    if (ch === 'u') {
      const hex = this.text.slice(this.pos + 1, this.pos + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape (needs 4 hex digits)');
      this.pos += 5;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const replacement = ch !== undefined && Object.hasOwn(ESCAPES, ch) ? ESCAPES[ch] : undefined;
    if (replacement === undefined) return this.fail('invalid escape in a string');
    this.pos++;
    return replacement;
  }

  private readNumber(path: string): number {
    const start = this.pos;
    NUMBER_PATTERN.lastIndex = this.pos;
    const match = NUMBER_PATTERN.exec(this.text);
    if (match === null) return this.fail(this.unexpected('a number'));
    const lexeme = match[0];
    this.pos += lexeme.length;
    // A digit or dot right after the match means a malformed number such as `01` or `1.`.
    const after = this.text[this.pos];
    if (after !== undefined && /[0-9.eE+-]/.test(after)) this.fail('malformed number');
    const value = Number(lexeme);
    if (!Number.isFinite(value)) {
      const at = this.position(start);
      const where = `at line ${at.line}, column ${at.column}`;
      throw new AssemblyError(path, `number ${lexeme} ${where} is too large for a double`, at);
    }
    return value;
  }

  private readLiteral<T extends boolean | null>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    return this.fail(this.unexpected('a value'));
  }

  private expect(ch: string): void {
    if (this.text[this.pos] !== ch) this.fail(this.unexpected(`"${ch}"`));
    this.pos++;
  }

  private skipWhitespace(): void {
    for (;;) {
      const ch = this.text[this.pos];
      if (ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') return;
      this.pos++;
    }
  }

  private unexpected(wanted: string): string {
    if (this.pos >= this.text.length) return `unexpected end of text, expected ${wanted}`;
    return `unexpected ${JSON.stringify(this.text[this.pos])}, expected ${wanted}`;
  }

  /** Line and column of an offset; only computed when reporting, since it rescans the text. */
  private position(offset = this.pos): TextPosition {
    let line = 1;
    let lineStart = 0;
    for (let i = this.text.indexOf('\n'); i !== -1 && i < offset; i = this.text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line, column: offset - lineStart + 1 };
  }

  private fail(reason: string): never {
    const at = this.position();
    throw new AssemblyError(ROOT_PATH, `invalid JSON at line ${at.line}, column ${at.column}: ${reason}`, at);
  }
}

/** Containers whose one-line form fits in this many columns are written on one line. */
const LINE_WIDTH = 100;

/**
 * Writes a JSON value with 2-space indentation and a final newline, keys in the
 * value's own order. An object or array that fits within 100 columns stays on one
 * line (`"pose": { "position": [0, 0, 0], "rotation": [1, 0, 0, 0] }`). Numbers are
 * written so that reading them back gives the same double, -0 included. Throws
 * AssemblyError for anything JSON cannot hold (NaN, Infinity, undefined in an array,
 * functions, cycles); object members that are undefined are left out, as
 * JSON.stringify does.
 */
export function stringifyJson(value: unknown): string {
  // The one-line pass checks the whole value, so the layout pass below can trust it.
  writeFlat(value, ROOT_PATH, new Set());
  return `${writeLaidOut(value, '', 0)}\n`;
}

/** `value` on one line; also the check that it is JSON at all. */
function writeFlat(value: unknown, path: string, ancestors: Set<object>): string {
  if (typeof value !== 'object' || value === null) return writePrimitive(value, path);
  if (ancestors.has(value)) throw new AssemblyError(path, 'cannot write a circular structure as JSON');
  if (ancestors.size >= MAX_JSON_DEPTH) throw new AssemblyError(path, `nested more than ${MAX_JSON_DEPTH} levels deep`);
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    const texts: string[] = [];
    // An index loop, not map: map skips the holes of a sparse array.
    for (let i = 0; i < items.length; i++) texts.push(writeFlat(items[i], itemPath(path, i), ancestors));
    text = `[${texts.join(', ')}]`;
  } else {
    const members = definedEntries(value).map(
      ([key, member]) => `${JSON.stringify(key)}: ${writeFlat(member, memberPath(path, key), ancestors)}`,
    );
    text = members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
  }
  ancestors.delete(value);
  return text;
}

/** `value` starting at a column `indent.length + prefixWidth`, broken over lines if it does not fit. */
function writeLaidOut(value: unknown, indent: string, prefixWidth: number): string {
  const flat = writeFlat(value, ROOT_PATH, new Set());
  // One column is kept for the comma that may follow.
  if (typeof value !== 'object' || value === null || indent.length + prefixWidth + flat.length < LINE_WIDTH) {
    return flat;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    const lines: string[] = [];
    for (let i = 0; i < items.length; i++) lines.push(`${inner}${writeLaidOut(items[i], inner, 0)}`);
    return `[\n${lines.join(',\n')}\n${indent}]`;
  }
  const lines = definedEntries(value).map(([key, member]) => {
    const prefix = `${JSON.stringify(key)}: `;
    return `${inner}${prefix}${writeLaidOut(member, inner, prefix.length)}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function definedEntries(object: object): [string, unknown][] {
  return Object.entries(object).filter(([, member]) => member !== undefined);
}

function writePrimitive(value: unknown, path: string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new AssemblyError(path, `cannot write ${value} as JSON`);
    // String() gives the shortest text that reads back as the same double, but drops the sign of -0.
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value === 'boolean') return String(value);
  throw new AssemblyError(path, `cannot write ${value === undefined ? 'undefined' : `a ${typeof value}`} as JSON`);
}
