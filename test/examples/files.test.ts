/**
 * Every `examples/*.kinemate.json` loads, saves back bit for bit, and solves; and the ones
 * the generators write are what the generators produce now (rerun
 * `npx tsx examples/mechanisms/write-all.ts` after changing a generator).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parseAssembly, serializeAssembly, validateAssembly } from '../../src/assembly';
import { buildModel } from '../../src/model/build';
import { solveModel } from '../../src/model/operations';
import { EXAMPLE_FILES } from '../../examples/mechanisms';

const dir = fileURLToPath(new URL('../../examples/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.kinemate.json')).sort();

describe('examples/*.kinemate.json', () => {
  it('include every generated example', () => {
    for (const { file } of EXAMPLE_FILES) expect(files).toContain(file);
  });

  for (const file of files) {
    it(`${file}: loads, saves bit-exactly, solves`, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const doc = parseAssembly(text);
      expect(serializeAssembly(doc)).toBe(text);
      const result = solveModel(buildModel(doc));
      expect(result.status, result.message).toBe('solved');
      expect(result.conflicting).toEqual([]);
    });
  }

  for (const { file, doc } of EXAMPLE_FILES) {
    it(`${file} is what its generator writes`, () => {
      expect(readFileSync(join(dir, file), 'utf8')).toBe(serializeAssembly(validateAssembly(doc())));
    });
  }
});
