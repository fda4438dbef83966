import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AssemblyError } from '../../src/assembly/errors.ts';
import { MAX_JSON_DEPTH, parseJson, stringifyJson } from '../../src/assembly/json.ts';
import { errorOf, expectSameNumbers, numbersOf } from './helpers.ts';

describe('parseJson', () => {
  it('reads what JSON.parse reads, number for number', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const ours = parseJson(text);
        const theirs: unknown = JSON.parse(text);
        expect(stringifyJson(ours)).toBe(stringifyJson(theirs));
        expectSameNumbers(numbersOf(ours), numbersOf(theirs));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps -0 and reads numbers with correct rounding', () => {
    expect(Object.is(parseJson('-0'), -0)).toBe(true);
    expect(parseJson('[0.1, 5e-324, 1e-400, 2.2250738585072011e-308]')).toEqual([0.1, 5e-324, 0, 2.2250738585072011e-308]);
    expect(Object.is(parseJson('-1e-400'), -0)).toBe(true);
  });

  it('decodes escapes, surrogate pairs and a leading byte-order mark', () => {
    expect(parseJson('"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"')).toBe('a"b\\c/d\b\f\n\r\té😀');
    expect(parseJson('\ufeff{"a": 1}')).toEqual({ a: 1 });
  });

  it('keeps a "__proto__" key as an own member, not a prototype', () => {
    const value = parseJson('{"__proto__": {"polluted": true}}');
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it.each([
    ['', 1, 1, 'unexpected end of text, expected a value'],
    ['{"a": 1,}', 1, 9, 'unexpected "}", expected a key in double quotes'],
    ['[1, 2', 1, 6, 'unexpected end of text, expected "," or "]"'],
    ['{"a" 1}', 1, 6, 'unexpected "1", expected ":"'],
    ['{"a": 1} x', 1, 10, 'unexpected text after the end of the document'],
    ["{'a': 1}", 1, 2, 'unexpected "\'", expected a key in double quotes'],
    ['[NaN]', 1, 2, 'unexpected "N", expected a value'],
    ['[Infinity]', 1, 2, 'unexpected "I", expected a value'],
    ['[tru]', 1, 2, 'unexpected "t", expected a value'],
    ['[01]', 1, 3, 'malformed number'],
    ['[1.]', 1, 3, 'malformed number'],
    ['[.5]', 1, 2, 'unexpected ".", expected a value'],
    ['[+1]', 1, 2, 'unexpected "+", expected a value'],
    ['[-]', 1, 2, 'unexpected "-", expected a number'],
    ['[1e]', 1, 3, 'malformed number'],
    ['"abc', 1, 5, 'unterminated string'],
    ['"a\nb"', 1, 3, 'control character in a string (write it as an escape)'],
    ['"\\x"', 1, 3, 'invalid escape in a string'],
    ['"\\u12g4"', 1, 3, 'invalid \\u escape (needs 4 hex digits)'],
    ['{\n  "a": [\n    1,\n    2\n  }', 5, 3, 'unexpected "}", expected "," or "]"'],
  ])('refuses %j at line %i, column %i', (text, line, column, reason) => {
    const error = errorOf(() => parseJson(text));
    expect(error.path).toBe('$');
    expect([error.line, error.column]).toEqual([line, column]);
    expect(error.message).toBe(`$: invalid JSON at line ${line}, column ${column}: ${reason}`);
  });

  it('refuses a duplicate key at the duplicate\'s path', () => {
    const error = errorOf(() => parseJson('{"a": {"b": [1, {"c": 1,\n "c": 2}]}}'));
    expect(error.path).toBe('a.b[1].c');
    expect(error.message).toBe('a.b[1].c: duplicate key "c" at line 2, column 2');
    expect([error.line, error.column]).toEqual([2, 2]);
  });

  it('refuses numbers beyond the double range at their path', () => {
    expect(errorOf(() => parseJson('{"x": [0, -1e309]}')).message).toBe(
      'x[1]: number -1e309 at line 1, column 11 is too large for a double',
    );
  });

  it('refuses very deep nesting with an AssemblyError rather than a stack overflow', () => {
    const deep = '['.repeat(100_000);
    expect(errorOf(() => parseJson(deep)).reason).toMatch(`nested more than ${MAX_JSON_DEPTH} levels deep`);
    const justDeepEnough = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => parseJson(justDeepEnough)).not.toThrow();
  });

  it('never throws anything but an AssemblyError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json().map((t) => t.slice(0, -1)), fc.string({ unit: 'binary' })), (text) => {
        try {
          parseJson(text);
        } catch (error) {
          expect(error).toBeInstanceOf(AssemblyError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('stringifyJson', () => {
  it('writes -0 as -0 and every double so that it reads back the same', () => {
    expect(stringifyJson([-0, 0, 5e-324, 1e21, 0.1])).toBe('[-0, 0, 5e-324, 1e+21, 0.1]\n');
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true })), (numbers) => {
        expectSameNumbers(parseJson(stringifyJson(numbers)) as number[], numbers);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stringifyJson(value);
        expect(stringifyJson(parseJson(text))).toBe(text);
        // JSON.parse as an independent reader; -0 must survive, which JSON.stringify would lose.
        expect(JSON.parse(text)).toEqual(value);
        expectSameNumbers(numbersOf(JSON.parse(text)), numbersOf(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps short containers on one line and breaks long ones', () => {
    expect(stringifyJson({ a: [1, 2], b: {} , c: []})).toBe('{ "a": [1, 2], "b": {}, "c": [] }\n');
    const long = { points: Array.from({ length: 12 }, (_, i) => [i, i + 0.5, i * 1000]) };
    const lines = stringifyJson(long).split('\n');
    expect(lines[0]).toBe('{');
    expect(lines[1]).toBe('  "points": [');
    expect(lines[2]).toBe('    [0, 0.5, 0],');
    expect(lines.every((line) => line.length <= 100)).toBe(true);
  });

  it('leaves out undefined members and escapes strings', () => {
    expect(stringifyJson({ a: undefined, 'q"': 'line\nbreak' })).toBe('{ "q\\"": "line\\nbreak" }\n');
  });

  it.each([
    ['NaN', { a: [1, NaN] }, 'a[1]: cannot write NaN as JSON'],
    ['Infinity', { a: -Infinity }, 'a: cannot write -Infinity as JSON'],
    ['undefined in an array', [1, undefined], '$[1]: cannot write undefined as JSON'],
    ['a hole in an array', [1, , 2], '$[1]: cannot write undefined as JSON'],
    ['a function', { f: () => 1 }, 'f: cannot write a function as JSON'],
    ['a bigint', { n: 1n }, 'n: cannot write a bigint as JSON'],
  ])('refuses %s', (_title, value, message) => {
    expect(errorOf(() => stringifyJson(value)).message).toBe(message);
  });

  it('refuses a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { back: cyclic };
    expect(errorOf(() => stringifyJson(cyclic)).message).toBe('self.back: cannot write a circular structure as JSON');
  });
});
