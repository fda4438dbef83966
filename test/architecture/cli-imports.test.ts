/**
 * The command imports the library's modules themselves, never the package index
 * (src/index.ts) as a value: the index brings the whole library (the live model, the
 * viewer's presenters) into dist/cli.cjs, ~120 KB the command never runs (issue 26).
 * Type imports are erased and allowed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(__dirname, '../../src/cli');

/** `file: statement` of each value import (static or dynamic) of ../index.ts in src/cli. */
function indexImports(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(CLI).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(CLI, name), 'utf8');
    for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+['"]\.\.\/index(?:\.ts)?['"]/gm)) out.push(`${name}: ${m[0]}`);
    for (const m of text.matchAll(/\bimport\(\s*['"]\.\.\/index(?:\.ts)?['"]\s*\)/g)) out.push(`${name}: ${m[0]}`);
  }
  return out;
}

describe('the command and the package index', () => {
  it('no module of src/cli imports src/index.ts but for types', () => {
    expect(indexImports()).toEqual([]);
  });
});
