/**
 * No file of the product over 500 lines and no function over 150 (issue 26: a file that grew
 * past that is split by job, a function into named stages). Measured by sizes.ts with the
 * TypeScript parser; the measurer is first run on made-up sources that break the limits, so
 * the checks cannot pass by measuring nothing.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionSizes, lineCount, longFiles, longFunctions, sourceFiles } from './sizes';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 150;

/** A function of `n` lines in the given form. */
const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const x${i} = ${i};`).join('\n');

describe('the measurer', () => {
  it('counts lines as wc -l does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });

  it('finds every kind of function with its name and length, nested ones inside their owner', () => {
    const text = [
      `export function outer(): void {\n${body(151)}\n}`, // lines 1–151
      `class Box {\n  method(): void {\n${body(10)}\n  }\n  constructor() {}\n}`,
      `const arrow = () => {\n${body(5)}\n};`,
      `const holder = { run: function () {\n${body(4)}\n} };`,
      `function withInner() {\n  const inner = (a: number) => a;\n  return inner;\n}`,
      `/**\n * A comment above is not the function's.\n */\nfunction documented() {\n${body(3)}\n}`, // lines 178–183, the function from 181
    ].join('\n');
    const sizes = functionSizes(text);
    const byName = Object.fromEntries(sizes.map((s) => [s.name, s]));
    expect(byName.outer).toEqual({ name: 'outer', line: 1, lines: 151 });
    expect(byName['Box.method'].lines).toBe(10);
    expect(byName['Box.constructor'].lines).toBe(1);
    expect(byName.arrow.lines).toBe(5);
    expect(byName.run.lines).toBe(4);
    expect(byName.withInner.lines).toBe(4);
    expect(byName.inner.lines).toBe(1);
    expect(byName.documented).toEqual({ name: 'documented', line: 181, lines: 3 });
    // signatures without a body are not functions to measure
    expect(functionSizes('interface I { f(): void }\ndeclare function g(): void;')).toEqual([]);
  });

  it('reports what is over the limits, and the product has sources to read', () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('kernel/dual.ts');
    expect(files).toContain('viewer/src/app.ts');
    // the limits in force, lowered until something must show
    expect(longFiles(ROOT, ['src/live/live-model.ts'], 100)).toEqual([expect.stringMatching(/^src\/live\/live-model\.ts: \d+ lines$/)]);
    expect(longFunctions(ROOT, ['src/gradients/adjoint.ts'], 20).some((l) => l.includes(' adjointSweep: '))).toBe(true);
  });
});

describe('sizes of the product (kernel, mates, src, viewer/src)', () => {
  const files = sourceFiles(ROOT);

  it(`no file over ${MAX_FILE_LINES} lines`, () => {
    expect(longFiles(ROOT, files, MAX_FILE_LINES)).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(ROOT, files, MAX_FUNCTION_LINES)).toEqual([]);
  });
});
