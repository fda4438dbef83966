/** loadAssemblyFile / saveAssemblyFile (src/cli/files.ts, exported by src/index.ts) on real files. */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssemblyError, loadAssemblyFile, saveAssemblyFile, serializeAssembly, validateAssembly } from '../../src/index.ts';
import type { AssemblyDoc } from '../../src/index.ts';
import { fourBarDoc } from '../../examples/fourbar.ts';
import { bitDifferences, fourBarText, numbersIn, tempFolder } from './helpers.ts';

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

/** The four-bar with numbers that a careless writer would not bring back: -0, a subnormal, 0.1 + 0.2, a huge and a tiny value. */
function awkwardDoc(): AssemblyDoc {
  const doc = fourBarDoc(30);
  return validateAssembly({
    ...doc,
    parts: {
      ...doc.parts,
      coupler: { ...doc.parts.coupler, points: { mid: [-0, 5e-324, 0.1 + 0.2], far: [1.7976931348623157e308, -2.2250738585072014e-308, 1 / 3] } },
    },
    'x-note': { values: [Math.PI, -0, 123456789012345680000] },
  });
}

describe('assembly files', () => {
  it('save → load → save is bit-exact: same numbers, same bytes', async () => {
    const doc = awkwardDoc();
    const first = folder.file('awkward.kinemate.json');
    await saveAssemblyFile(first, doc);
    const loaded = await loadAssemblyFile(first);
    expect(numbersIn(doc)).toContain(5e-324);
    expect(bitDifferences(numbersIn(loaded), numbersIn(doc))).toEqual([]);
    const second = folder.file('awkward-again.kinemate.json');
    await saveAssemblyFile(second, loaded);
    expect(readFileSync(second)).toEqual(readFileSync(first));
    expect(readFileSync(first, 'utf8')).toBe(serializeAssembly(doc));
  });

  it('load → save reproduces a file written by hand, byte for byte', async () => {
    const file = folder.file('four-bar.kinemate.json');
    writeFileSync(file, fourBarText());
    const copy = folder.file('four-bar-copy.kinemate.json');
    await saveAssemblyFile(copy, await loadAssemblyFile(file));
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(file, 'utf8'));
  });

  it('loads a file that starts with a byte-order mark', async () => {
    const file = folder.file('bom.kinemate.json');
    writeFileSync(file, `\uFEFF${fourBarText()}`);
    expect((await loadAssemblyFile(file)).name).toBe('four-bar');
  });

  it('a malformed file rejects with the AssemblyError naming the path', async () => {
    const file = folder.file('dangling.kinemate.json');
    writeFileSync(file, fourBarText().replace('"b": "coupler.start"', '"b": "coupler.nope"'));
    const error = await loadAssemblyFile(file).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(AssemblyError);
    expect((error as AssemblyError).path).toBe('mates.jB.b');
    expect((error as AssemblyError).message).toBe('mates.jB.b: no entity "nope" on part "coupler"');
  });

  it('a missing file rejects with Node\'s ENOENT error', async () => {
    await expect(loadAssemblyFile(folder.file('nope.kinemate.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('saving a document that would not load throws AssemblyError and leaves the file as it was', async () => {
    const file = folder.file('keep.kinemate.json');
    writeFileSync(file, fourBarText());
    const broken = { ...fourBarDoc(30), held: ['jZ.angle'] } as AssemblyDoc;
    await expect(saveAssemblyFile(file, broken)).rejects.toBeInstanceOf(AssemblyError);
    expect(readFileSync(file, 'utf8')).toBe(fourBarText());
  });
});
