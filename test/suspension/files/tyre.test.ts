/** A .tir read from disk: the model and its warnings; an unreadable file is one line naming the path. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { MagicFormulaTyre, MirroredTyre, TyreFileError, steadyForces } from '../../../mates/tyres';
import { readTyreFile, tyreModelOf } from '../../../src/suspension/files/tyre';

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

describe('tyreModelOf: a vehicle file\'s tyre entry', () => {
  const examples = fileURLToPath(new URL('../../../examples/vehicles/', import.meta.url));
  it('{ tir } relative to the vehicle file, mirrored on the side opposite TYRESIDE; linear stiffnesses in the file\'s units', async () => {
    const left = await tyreModelOf({ tir: '../tyres/pacejka_205_60R15.tir' }, 'tyres.rear', examples, 300, 'left');
    const right = await tyreModelOf({ tir: '../tyres/pacejka_205_60R15.tir' }, 'tyres.rear', examples, 300, 'right');
    expect(left.model).toBeInstanceOf(MagicFormulaTyre);
    expect(right.model).toBeInstanceOf(MirroredTyre);
    expect(steadyForces(right.model, 0.05, 0, 4000, 0).fy).toBeCloseTo(-steadyForces(left.model, -0.05, 0, 4000, 0).fy, 9);
    const lin = await tyreModelOf({ stiffness: 250, cornering_stiffness: 1200, longitudinal_stiffness: 1500 }, 'tyres.front', examples, 310, 'left');
    expect([lin.model.unloadedRadius, lin.model.verticalStiffness]).toEqual([310, 250]);
    expect(steadyForces(lin.model, Math.PI / 180, 0, 3000, 0).fy).toBeCloseTo(-1200, 9);
  });
  it('a tyre without stiffness, with both forms, or with a wrong field is refused naming the field', async () => {
    await expect(tyreModelOf({ cornering_stiffness: 1200, longitudinal_stiffness: 1500 }, 'tyres.front', examples, 300, 'left'))
      .rejects.toThrow('tyres.front.stiffness: missing: a tyre needs a stiffness (or a .tir file)');
    await expect(tyreModelOf({ tir: 'x.tir', stiffness: 250 }, 'tyres.rear', examples, 300, 'left')).rejects.toThrow('tyres.rear.stiffness: a tyre is either a .tir file or linear stiffnesses, not both');
    await expect(tyreModelOf({ stiffness: 250, cornering: 1 }, 'tyres.rear', examples, 300, 'left')).rejects.toThrow(/^tyres\.rear\.cornering: not a tyre field/);
    await expect(tyreModelOf({ tir: 'missing.tir' }, 'tyres.rear', examples, 300, 'left')).rejects.toThrow(/missing\.tir: cannot read the tyre file: no such file or directory$/);
  });
});
