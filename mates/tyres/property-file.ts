/**
 * The TNO / MSC property-file syntax of a `.tir` file: `[SECTION]` headers, `KEY = value`
 * lines (a number, a quoted string, or a bare word), `$` comments to the end of a line and
 * `!` comment lines, MDI comment blocks (`(COMMENTS)`, `{…}` and quoted lines). Tables
 * (`{…}` headers and rows of numbers, as in [SHAPE]) are skipped and named as unused. Keys and sections are matched without regard to case.
 *
 * Every key read through `PropertyFile.number` / `string` is marked used; `unused()` lists
 * the rest, once each, for the caller's warning.
 */
import { TyreFileError } from './errors';

export interface PropertyEntry {
  readonly value: number | string;
  readonly line: number;
}

/** A number as written in these files: `1.5`, `-2e-3`, `.5`, Fortran's `1.5D+02`. */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?$/;

export class PropertyFile {
  /** Section (upper case) → key (upper case) → entry. */
  readonly sections = new Map<string, Map<string, PropertyEntry>>();
  /** Sections that hold a table (rows of numbers), not keys. */
  readonly tables = new Set<string>();
  private readonly used = new Set<string>();

  constructor(readonly file: string, text: string) {
    let section: string | null = null;
    const lines = text.split(/\r\n|\r|\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = stripComment(lines[i]).trim();
      if (line === '' || line.startsWith('!')) continue;
      const header = /^\[([^\]]+)\]$/.exec(line);
      if (header) {
        section = header[1].trim().toUpperCase();
        if (!this.sections.has(section)) this.sections.set(section, new Map());
        continue;
      }
      const eq = line.indexOf('=');
      if (eq < 0) {
        // a table: its header ({…}) and rows of numbers; an MDI comment block: (COMMENTS) and quoted lines
        if (section !== null && line.split(/\s+/).every((w) => NUMBER.test(w))) { this.tables.add(section); continue; }
        if (line.startsWith('{') || /^\(.*\)$/.test(line) || /^(['"]).*\1$/.test(line)) continue;
        throw new TyreFileError(`${file}: line ${i + 1}`, `expected KEY = value or [SECTION], got ${JSON.stringify(lines[i].trim())}`);
      }
      const key = line.slice(0, eq).trim().toUpperCase();
      if (!/^[A-Z_][A-Z0-9_]*$/.test(key)) throw new TyreFileError(`${file}: line ${i + 1}`, `${JSON.stringify(line.slice(0, eq).trim())} is not a key`);
      if (section === null) throw new TyreFileError(`${file}: line ${i + 1}`, `${key} before any [SECTION]`);
      const entries = this.sections.get(section)!;
      if (entries.has(key)) throw new TyreFileError(`${file}: [${section}] ${key}`, `given twice (lines ${entries.get(key)!.line} and ${i + 1})`);
      entries.set(key, { value: parseValue(line.slice(eq + 1).trim()), line: i + 1 });
    }
  }

  /** The entry of KEY in SECTION, or (written in another section, as some writers do) the first elsewhere. */
  find(section: string, key: string): { section: string; entry: PropertyEntry } | undefined {
    const own = this.sections.get(section)?.get(key);
    if (own) return { section, entry: own };
    for (const [name, entries] of this.sections) {
      const entry = entries.get(key);
      if (entry) return { section: name, entry };
    }
    return undefined;
  }

  has(section: string, key: string): boolean {
    return this.find(section, key) !== undefined;
  }

  /** A number; `fallback` when absent (undefined: the key is required, its absence an error). */
  number(section: string, key: string, fallback?: number): number {
    const found = this.find(section, key);
    if (!found) {
      if (fallback === undefined) throw new TyreFileError(`${this.file}: [${section}] ${key}`, 'missing (the Magic Formula needs it)');
      return fallback;
    }
    this.used.add(`${found.section}\u0000${key}`);
    const { value } = found.entry;
    if (typeof value !== 'number') throw new TyreFileError(`${this.file}: [${found.section}] ${key}`, `expected a number, got ${JSON.stringify(value)} (line ${found.entry.line})`);
    return value;
  }

  /** A string (a number written there is returned as its text); undefined when absent. */
  string(section: string, key: string): string | undefined {
    const found = this.find(section, key);
    if (!found) return undefined;
    this.used.add(`${found.section}\u0000${key}`);
    return String(found.entry.value);
  }

  /** Where a key is, for messages: `[SECTION] KEY`. */
  place(section: string, key: string): string {
    return `${this.file}: [${this.find(section, key)?.section ?? section}] ${key}`;
  }

  /** Keys never read, by section (and tables), in file order. */
  unused(): { section: string; keys: string[] }[] {
    const out: { section: string; keys: string[] }[] = [];
    for (const [section, entries] of this.sections) {
      const keys = [...entries.keys()].filter((key) => !this.used.has(`${section}\u0000${key}`));
      if (this.tables.has(section)) keys.push('(table)');
      if (keys.length > 0) out.push({ section, keys });
    }
    return out;
  }
}

/** The line without its `$` comment (a `$` inside quotes is kept). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) { if (ch === quote) quote = null; } else if (ch === '\'' || ch === '"') quote = ch;
    else if (ch === '$') return line.slice(0, i);
  }
  return line;
}

function parseValue(text: string): number | string {
  const quoted = /^(['"])(.*)\1$/.exec(text);
  if (quoted) return quoted[2];
  if (NUMBER.test(text)) return Number(text.replace(/[dD]/, 'e'));
  return text;
}
