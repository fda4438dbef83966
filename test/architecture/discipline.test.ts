/**
 * Error and type discipline, read off the sources (issue 26): what is thrown is an Error
 * (never a string), every error class of ours extends KinemateError, no `as unknown as` in
 * kernel/mates/src where a declared type can say it, and one Vec3 (kernel/vec3.ts, with its
 * plain-tuple twin Vec3Tuple). An exception is listed here with the reason it stands.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const PRODUCT = ['kernel', 'mates', 'src', 'viewer/src'];
const ENGINE = ['kernel', 'mates', 'src'];

/** `as unknown as` kept, by file, with why no declared type replaces it. */
const CAST_ALLOWED: Record<string, { count: number; why: string }> = {
  'src/live/live-model.ts': {
    count: 1,
    why: 'asModelFrame: the in-process frame as the model frame type F, which is LiveFrame<A> exactly when no solver is given; a type parameter cannot follow that default (the reads go through the isLiveFrame guard)',
  },
};

/** Error classes of ours that are not KinemateErrors, with why. */
const NOT_KINEMATE_ALLOWED: Record<string, string> = {
  InternalError: 'a broken promise of the code (a call out of order, a workspace overrun), not bad input: KinemateError means bad input, shown to the user',
  HistoryStateError: 'an InternalError: the history used out of order',
};

/** The classes of ours that extend a built-in error directly: the two roots. */
const ROOTS = ['KinemateError', 'InternalError'];

/** Plain `throw new Error/RangeError/TypeError(…)` in kernel, mates and src: none is left (issue 26). */
const PLAIN_THROWS_LEFT: Record<string, number> = {};

/** Error classes of the packages we use, thrown as those packages ask. */
const LIBRARY_ERRORS = new Set([
  'UnrecoverableError', // bullmq: a queued job that must not be retried
]);

const BUILT_IN_ERRORS = new Set(['Error', 'RangeError', 'TypeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.includes('node_modules'))
    .map((f) => join(dir, f).replaceAll('\\', '/'));
}

/** The source without its comments (block comments and whole-line `//` comments). */
function code(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

const sources = new Map(PRODUCT.flatMap(filesUnder).map((f) => [f, code(f)]));

/** `file:line: text` of each match of `re` (global) in the sources under `dirs`. */
function hits(re: RegExp, dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const [file, text] of sources) {
    if (!dirs.some((d) => file.startsWith(`${d}/`))) continue;
    for (const m of text.matchAll(re)) out.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
  }
  return out;
}

/** Each class of ours and the class it extends. */
function classParents(): Map<string, string> {
  const parents = new Map<string, string>();
  for (const text of sources.values()) for (const m of text.matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+(\w+)/g)) parents.set(m[1], m[2]);
  return parents;
}

/** The chain of classes from `name` up to a built-in (or a class not ours). */
function chain(name: string, parents: Map<string, string>): string[] {
  const out = [name];
  while (parents.has(out[out.length - 1]) && out.length < 20) out.push(parents.get(out[out.length - 1])!);
  return out;
}

describe('what is thrown', () => {
  it('is never a string, a template string or another literal', () => {
    expect(hits(/\bthrow\s+(?:['"`]|-?\d|\{|\[|null\b|undefined\b|true\b|false\b)/g, PRODUCT)).toEqual([]);
  });

  it('when constructed, is an Error: a built-in or a class of ours that extends one', () => {
    const parents = classParents();
    const notErrors = hits(/\bthrow\s+new\s+(\w+)/g, PRODUCT).filter((hit) => {
      const name = /new\s+(\w+)$/.exec(hit)![1];
      const root = chain(name, parents).at(-1)!;
      return !BUILT_IN_ERRORS.has(root) && !LIBRARY_ERRORS.has(root);
    });
    expect(notErrors).toEqual([]);
  });

  it('every error class of ours extends KinemateError (the exceptions say why)', () => {
    const parents = classParents();
    const errors = [...parents.keys()].filter((name) => BUILT_IN_ERRORS.has(chain(name, parents).at(-1)!));
    expect(errors).toContain('KinemateError');
    const outside = errors.filter((name) => name !== 'KinemateError' && !chain(name, parents).includes('KinemateError'));
    expect(outside.sort()).toEqual(Object.keys(NOT_KINEMATE_ALLOWED).sort());
    // KinemateError (bad input) and InternalError (a fault) are the only classes of ours on a built-in
    expect(errors.filter((name) => BUILT_IN_ERRORS.has(parents.get(name)!)).sort()).toEqual([...ROOTS].sort());
  });

  it('is never a plain built-in error in kernel, mates or src', () => {
    const counts: Record<string, number> = {};
    for (const hit of hits(/\bthrow\s+(?:new\s+)?(?:Error|RangeError|TypeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError)\s*\(/g, ENGINE)) {
      const file = hit.slice(0, hit.indexOf(':'));
      counts[file] = (counts[file] ?? 0) + 1;
    }
    expect(counts).toEqual(PLAIN_THROWS_LEFT);
  });
});

describe('casts', () => {
  it('no `as unknown as` in kernel, mates or src but the listed ones', () => {
    const counts: Record<string, number> = {};
    for (const hit of hits(/\bas\s+unknown\s+as\b/g, ENGINE)) {
      const file = hit.slice(0, hit.indexOf(':'));
      counts[file] = (counts[file] ?? 0) + 1;
    }
    expect(counts).toEqual(Object.fromEntries(Object.entries(CAST_ALLOWED).map(([file, { count }]) => [file, count])));
  });
});

describe('one Vec3', () => {
  it('Vec3 is declared once, in kernel/vec3.ts', () => {
    expect(hits(/^\s*(?:export\s+)?(?:declare\s+)?(?:type\s+Vec3\s*(?:<[^>]*>)?\s*=|interface\s+Vec3\b)/gm, PRODUCT).map((h) => h.slice(0, h.indexOf(':')))).toEqual(['kernel/vec3.ts']);
  });

  it('a plain [number, number, number] is named once, kernel/vec3.ts Vec3Tuple', () => {
    const tuples = hits(/\btype\s+\w+\s*=\s*(?:readonly\s+|Readonly<\s*)?\[number,\s*number,\s*number\]/g, PRODUCT);
    expect(tuples.map((h) => relative(ROOT, join(ROOT, h.slice(0, h.indexOf(':')))))).toEqual(['kernel/vec3.ts']);
  });
});
