/** The .tir reader: syntax, versions 5.2 and 6.1, missing keys named with their section, unused keys listed once, scaling defaults. */
import { describe, expect, it } from 'vitest';
import { PropertyFile, TyreFileError, readTyreText, steadyForces } from '../../../mates/tyres';
import { SAMPLE, sampleTyre, withKey } from './sample';

const DEG = Math.PI / 180;

function error(text: string): TyreFileError {
  try { readTyreText('sample.tir', text); } catch (e) { if (e instanceof TyreFileError) return e; throw e; }
  throw new Error('no error');
}

/** The sample as a 5.2 file: FITTYP 21, the 6.1-only keys removed, PHY3 given. */
function as52(text = SAMPLE): string {
  let out = withKey('FITTYP', 21, text);
  for (const key of ['RBX3', 'PEY5', 'PKY4', 'PKY5', 'PKY6', 'PKY7', 'RBY4', 'QDZ10', 'QDZ11']) out = withKey(key, null, out);
  return out.replace(/^PHY2 = .*$/m, (line) => `${line}\nPHY3 = 0`);
}

describe('the property-file syntax', () => {
  it('reads sections, numbers (D exponents too), quoted strings with $ inside, comments, ! lines and MDI comment blocks, any case', () => {
    const file = new PropertyFile('t.tir', "! a header line\n[MDI_HEADER]\n(COMMENTS)\n{comment_string}\n'Tire - 205/60R15'\n[model]\n tyreside = 'LEFT $ not a comment' $ a comment\n[Vertical]\nfnomin = 4.0D+03\nNAME = bare_word\n[SHAPE]\n{radial width}\n 1.0 0.0\n");
    expect(file.string('MODEL', 'TYRESIDE')).toBe('LEFT $ not a comment');
    expect(file.number('VERTICAL', 'FNOMIN')).toBe(4000);
    expect(file.unused()).toEqual([{ section: 'VERTICAL', keys: ['NAME'] }, { section: 'SHAPE', keys: ['(table)'] }]);
  });
  it('a line that is not KEY = value is an error naming the line; a key given twice names both lines', () => {
    expect(error(SAMPLE.replace('[MODEL]', '[MODEL]\nthis is not a key line')).message).toMatch(/^sample\.tir: line \d+: expected KEY = value/);
    expect(error(SAMPLE.replace('LONGVL = 16.67', 'LONGVL = 16.67\nLONGVL = 20')).message).toMatch(/^sample\.tir: \[MODEL\] LONGVL: given twice \(lines \d+ and \d+\)$/);
  });
});

describe('the Magic Formula coefficients', () => {
  it('a missing key is one line naming the file, its section and the key', () => {
    for (const [key, section] of [['PKY1', 'LATERAL_COEFFICIENTS'], ['QDZ8', 'ALIGNING_COEFFICIENTS'], ['PCX1', 'LONGITUDINAL_COEFFICIENTS'],
      ['UNLOADED_RADIUS', 'DIMENSION'], ['VERTICAL_STIFFNESS', 'VERTICAL'], ['FNOMIN', 'VERTICAL'], ['PKY6', 'LATERAL_COEFFICIENTS']] as const) {
      const e = error(withKey(key, null));
      expect(e.message).toBe(`sample.tir: [${section}] ${key}: missing (the Magic Formula needs it)`);
      expect(e.message).not.toContain('\n');
    }
  });
  it('a value that is not a number, a non-SI unit, an unknown FITTYP and a non-positive radius are refused by name', () => {
    expect(error(withKey('PKY1', "'abc'")).message).toMatch(/^sample\.tir: \[LATERAL_COEFFICIENTS\] PKY1: expected a number, got "abc"/);
    expect(error(SAMPLE.replace("LENGTH = 'meter'", "LENGTH = 'mm'")).message).toMatch(/^sample\.tir: \[UNITS\] LENGTH: "mm" is not supported/);
    expect(error(withKey('FITTYP', 7)).message).toMatch(/^sample\.tir: \[MODEL\] FITTYP: 7 is not a Magic Formula/);
    expect(error(withKey('UNLOADED_RADIUS', 0)).message).toBe('sample.tir: [DIMENSION] UNLOADED_RADIUS: must be positive, got 0');
  });
  it('without FITTYP the version comes from FILE_VERSION (3.x: 6.1); without either it is an error naming FITTYP', () => {
    expect(readTyreText('sample.tir', withKey('FITTYP', null)).tyre.data.version).toBe('6.1');
    expect(error(withKey('FILE_VERSION', null, withKey('FITTYP', null))).message).toMatch(/^sample\.tir: \[MODEL\] FITTYP: missing/);
  });
  it('keys the reader does not use are listed once, one line per section', () => {
    const { warnings } = readTyreText('sample.tir', SAMPLE.replace('LONGVL = 16.67', 'LONGVL = 16.67\nVXLOW = 1\nLONGVL2 = 3'));
    expect(warnings).toEqual([
      'sample.tir: [MODEL] not used: VXLOW, LONGVL2',
      'sample.tir: [DIMENSION] not used: WIDTH, ASPECT_RATIO, RIM_RADIUS',
    ]);
  });
  it('[STRUCTURAL] LONGITUDINAL_STIFFNESS and LATERAL_STIFFNESS (N/m) give the tread stiffness at rest in N/mm; absent, none', () => {
    expect(sampleTyre().treadStiffness).toBeNull();
    const text = `${SAMPLE}\n[STRUCTURAL]\nLONGITUDINAL_STIFFNESS = 358066\nLATERAL_STIFFNESS = 102673\n`;
    const { tyre, warnings } = readTyreText('sample.tir', text);
    expect(tyre.treadStiffness).toEqual([358.066, 102.673]);
    expect(warnings.some((w) => w.includes('STRUCTURAL'))).toBe(false);
  });
  it('missing scaling factors are 1, as TNO takes them; LMUY scales the peak side force', () => {
    const base = steadyForces(sampleTyre(), 5 * DEG, 0, 4000, 0);
    expect(steadyForces(sampleTyre(withKey('LMUY', null)), 5 * DEG, 0, 4000, 0)).toEqual(base);
    let text = withKey('LMUY', 0.5);
    for (const key of ['PVY1', 'PVY2', 'PHY1', 'PHY2']) text = withKey(key, 0, text);
    const peak = (t: string) => Math.min(...Array.from({ length: 301 }, (_, i) => steadyForces(sampleTyre(t), (i / 10) * DEG, 0, 4000, 0).fy));
    expect(peak(text)).toBeCloseTo(0.5 * 0.99 * -4000, 0);
  });
});

describe('5.2 files', () => {
  it('read with FITTYP 21: PKY4 = 2 and SHy with PHY3; at zero camber the same forces as the 6.1 equations', () => {
    const t52 = readTyreText('old.tir', as52()).tyre;
    expect(t52.data.version).toBe('5.2');
    for (const [a, k] of [[3, 0], [-6, 0], [0, 0.08], [4, 0.05]]) {
      const f52 = steadyForces(t52, a * DEG, k, 4500, 0), f61 = steadyForces(sampleTyre(), a * DEG, k, 4500, 0);
      expect(f52.fx).toBeCloseTo(f61.fx, 9);
      expect(f52.fy).toBeCloseTo(f61.fy, 9);
      if (k === 0) expect(f52.mz).toBeCloseTo(f61.mz, 6);
    }
    // PHY3 shifts the curve with camber in 5.2 (and is what a 5.2 file must give)
    const shifted = readTyreText('old.tir', as52().replace('PHY3 = 0', 'PHY3 = 0.05')).tyre;
    expect(steadyForces(shifted, 0, 0, 4000, 2 * DEG).fy).not.toBeCloseTo(steadyForces(t52, 0, 0, 4000, 2 * DEG).fy, 0);
    expect(error(withKey('PHY3', null, as52())).message).toBe('sample.tir: [LATERAL_COEFFICIENTS] PHY3: missing (the Magic Formula needs it)');
  });
  it('take the nominal load from FZ0 where FNOMIN is absent', () => {
    const text = as52().replace(/^FNOMIN = .*$/m, 'FZ0 = 4200');
    expect(readTyreText('old.tir', text).tyre.nominalLoad).toBe(4200);
  });
});
