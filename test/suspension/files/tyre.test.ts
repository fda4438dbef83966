/** A .tir read from disk: the model and its warnings; an unreadable file is one line naming the path. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { TyreFileError } from '../../../mates/tyres';
import { readTyreFile } from '../../../src/suspension/files/tyre';

const SAMPLE = fileURLToPath(new URL('../../../examples/tyres/pacejka_205_60R15.tir', import.meta.url));

describe('readTyreFile', () => {
  it('reads the sample: MF 6.1, its nominal load, radius (mm) and vertical stiffness (N/mm), the unused keys as warnings', async () => {
    const { tyre, warnings } = await readTyreFile(SAMPLE);
    expect([tyre.data.version, tyre.nominalLoad, tyre.unloadedRadius, tyre.verticalStiffness]).toEqual(['6.1', 4000, 313, 170.863]);
    expect(warnings).toEqual([`${SAMPLE}: [DIMENSION] not used: WIDTH, ASPECT_RATIO, RIM_RADIUS`]);
  });
  it('a missing file and a folder are TyreFileErrors naming the path', async () => {
    await expect(readTyreFile('/nonexistent/x.tir')).rejects.toThrow(new TyreFileError('/nonexistent/x.tir', 'cannot read the tyre file: no such file or directory'));
    const folder = fileURLToPath(new URL('.', import.meta.url));
    await expect(readTyreFile(folder)).rejects.toBeInstanceOf(TyreFileError);
  });
});
