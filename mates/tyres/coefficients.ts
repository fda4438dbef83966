/**
 * The Magic Formula coefficients a `.tir` file gives, by version: which keys are read from
 * which section, which the 6.1 equations need that 5.2 lacks (set to the value that turns
 * the 6.1 term into the 5.2 one), and the scaling factors (1 when absent, as TNO does).
 * Units are the file's SI (N, m, rad); the reader refuses any other [UNITS].
 */
import type { PropertyFile } from './property-file';
import { TyreFileError } from './errors';

export type MfVersion = '5.2' | '6.1' | '6.2';

const LONGITUDINAL = ['PCX1', 'PDX1', 'PDX2', 'PDX3', 'PEX1', 'PEX2', 'PEX3', 'PEX4', 'PKX1', 'PKX2', 'PKX3', 'PHX1', 'PHX2', 'PVX1', 'PVX2',
  'RBX1', 'RBX2', 'RCX1', 'REX1', 'REX2', 'RHX1'] as const;
const LATERAL = ['PCY1', 'PDY1', 'PDY2', 'PDY3', 'PEY1', 'PEY2', 'PEY3', 'PEY4', 'PKY1', 'PKY2', 'PKY3', 'PHY1', 'PHY2', 'PVY1', 'PVY2', 'PVY3', 'PVY4',
  'RBY1', 'RBY2', 'RBY3', 'RCY1', 'REY1', 'REY2', 'RHY1', 'RHY2', 'RVY1', 'RVY2', 'RVY3', 'RVY4', 'RVY5', 'RVY6'] as const;
const ALIGNING = ['QBZ1', 'QBZ2', 'QBZ3', 'QBZ4', 'QBZ5', 'QBZ9', 'QBZ10', 'QCZ1', 'QDZ1', 'QDZ2', 'QDZ3', 'QDZ4', 'QDZ6', 'QDZ7', 'QDZ8', 'QDZ9',
  'QEZ1', 'QEZ2', 'QEZ3', 'QEZ4', 'QEZ5', 'QHZ1', 'QHZ2', 'QHZ3', 'QHZ4', 'SSZ1', 'SSZ2', 'SSZ3', 'SSZ4'] as const;
/** 6.1/6.2 only, with the value that gives the 5.2 equation. */
const SINCE_61 = { RBX3: 0, PEY5: 0, PKY4: 2, PKY5: 0, PKY6: 0, PKY7: 0, RBY4: 0, QDZ10: 0, QDZ11: 0 } as const;
const SECTION_61: Record<keyof typeof SINCE_61, string> = {
  RBX3: 'LONGITUDINAL_COEFFICIENTS', PEY5: 'LATERAL_COEFFICIENTS', PKY4: 'LATERAL_COEFFICIENTS', PKY5: 'LATERAL_COEFFICIENTS',
  PKY6: 'LATERAL_COEFFICIENTS', PKY7: 'LATERAL_COEFFICIENTS', RBY4: 'LATERAL_COEFFICIENTS', QDZ10: 'ALIGNING_COEFFICIENTS', QDZ11: 'ALIGNING_COEFFICIENTS',
};
const SCALING = ['LFZO', 'LCX', 'LMUX', 'LEX', 'LKX', 'LHX', 'LVX', 'LCY', 'LMUY', 'LEY', 'LKY', 'LKYC', 'LKZC', 'LHY', 'LVY', 'LTR', 'LRES',
  'LXAL', 'LYKA', 'LVYKA', 'LS'] as const;

export type MfKey = (typeof LONGITUDINAL)[number] | (typeof LATERAL)[number] | (typeof ALIGNING)[number] | keyof typeof SINCE_61 | (typeof SCALING)[number] | 'PHY3';

/** Everything the steady-state Magic Formula reads, SI. */
export interface MfTyreData {
  readonly version: MfVersion;
  /** FNOMIN (FZ0 in older 5.2 files), N. */
  readonly nominalLoad: number;
  /** UNLOADED_RADIUS, m. */
  readonly unloadedRadius: number;
  /** VERTICAL_STIFFNESS, N/m. */
  readonly verticalStiffness: number;
  /** LONGVL, m/s (16.7 when absent, TNO's default). */
  readonly referenceSpeed: number;
  /** [STRUCTURAL] LONGITUDINAL_STIFFNESS and LATERAL_STIFFNESS (N/m, MF-Swift files), where given. */
  readonly treadStiffness: readonly [number, number] | null;
  /** TYRESIDE: the side the tyre was measured on. */
  readonly side: 'left' | 'right' | 'symmetric';
  readonly c: Readonly<Record<MfKey, number>>;
}

/** The Magic Formula version of a file: [MODEL] FITTYP, else PROPERTY_FILE_FORMAT, else [MDI_HEADER] FILE_VERSION. */
export function mfVersion(file: PropertyFile): MfVersion {
  const fittyp = file.has('MODEL', 'FITTYP') ? file.number('MODEL', 'FITTYP') : undefined;
  if (fittyp !== undefined) {
    if (fittyp === 6 || fittyp === 21) return '5.2';
    if (fittyp === 61) return '6.1';
    if (fittyp === 62) return '6.2';
    throw new TyreFileError(file.place('MODEL', 'FITTYP'), `${fittyp} is not a Magic Formula this reader knows (6 or 21: MF 5.2; 61: MF 6.1; 62: MF 6.2)`);
  }
  const format = file.string('MODEL', 'PROPERTY_FILE_FORMAT')?.toUpperCase();
  if (format !== undefined) {
    if (/PAC2002|MF_?05|MF_?52|MF-TYRE 5/.test(format)) return '5.2';
    if (/MF_?61|MF-TYRE 6\.1/.test(format)) return '6.1';
    if (/MF_?62|MF-TYRE 6\.2/.test(format)) return '6.2';
  }
  const fileVersion = file.has('MDI_HEADER', 'FILE_VERSION') ? file.number('MDI_HEADER', 'FILE_VERSION') : undefined;
  if (fileVersion !== undefined && fileVersion >= 2 && fileVersion < 3) return '5.2';
  if (fileVersion !== undefined && fileVersion >= 3 && fileVersion < 4) return '6.1';
  throw new TyreFileError(`${file.file}: [MODEL] FITTYP`, 'missing, and neither PROPERTY_FILE_FORMAT nor [MDI_HEADER] FILE_VERSION tells the Magic Formula version (5.2, 6.1 or 6.2)');
}

const SI_UNITS: Record<string, RegExp> = { LENGTH: /^(m|meters?|metres?)$/i, FORCE: /^(n|newtons?)$/i, ANGLE: /^(rad|radians?)$/i, MASS: /^(kg|kilograms?)$/i, TIME: /^(s|sec|seconds?)$/i };

/** [UNITS] must be SI (as every MF-Tyre file is); absent, SI is assumed. */
function checkUnits(file: PropertyFile): void {
  for (const [key, pattern] of Object.entries(SI_UNITS)) {
    const unit = file.sections.get('UNITS')?.has(key) ? file.string('UNITS', key) : undefined;
    if (unit !== undefined && !pattern.test(unit.trim())) throw new TyreFileError(`${file.file}: [UNITS] ${key}`, `"${unit}" is not supported: the reader takes SI files (meter, newton, radians, kg, second)`);
  }
}

/** Reads every coefficient the steady-state formula needs; a missing one is an error naming section and key. */
export function mfTyreData(file: PropertyFile): MfTyreData {
  checkUnits(file);
  // the header names the format (FILE_VERSION may give the version below): read, not warned about
  for (const key of ['FILE_TYPE', 'FILE_VERSION', 'FILE_FORMAT']) if (file.sections.get('MDI_HEADER')?.has(key)) file.string('MDI_HEADER', key);
  const version = mfVersion(file);
  const c: Partial<Record<MfKey, number>> = {};
  for (const key of LONGITUDINAL) c[key] = file.number('LONGITUDINAL_COEFFICIENTS', key);
  for (const key of LATERAL) c[key] = file.number('LATERAL_COEFFICIENTS', key);
  for (const key of ALIGNING) c[key] = file.number('ALIGNING_COEFFICIENTS', key);
  for (const [key, value] of Object.entries(SINCE_61) as [keyof typeof SINCE_61, number][]) {
    c[key] = version === '5.2' ? value : file.number(SECTION_61[key], key);
  }
  c.PHY3 = version === '5.2' ? file.number('LATERAL_COEFFICIENTS', 'PHY3') : 0;
  for (const key of SCALING) c[key] = file.number('SCALING_COEFFICIENTS', key, 1);
  if (version === '5.2') {
    // 5.2's camber scaling factors are the 6.1 ones under older names
    if (file.has('SCALING_COEFFICIENTS', 'LGAY')) c.LKYC = file.number('SCALING_COEFFICIENTS', 'LGAY');
    if (file.has('SCALING_COEFFICIENTS', 'LGAZ')) c.LKZC = file.number('SCALING_COEFFICIENTS', 'LGAZ');
  }
  const nominalLoad = version === '5.2' && !file.has('VERTICAL', 'FNOMIN') && file.has('VERTICAL', 'FZ0')
    ? file.number('VERTICAL', 'FZ0') : file.number('VERTICAL', 'FNOMIN');
  const positive = (section: string, key: string, value: number): number => {
    if (!(value > 0)) throw new TyreFileError(file.place(section, key), `must be positive, got ${value}`);
    return value;
  };
  const sideText = (file.string('MODEL', 'TYRESIDE') ?? 'LEFT').trim().toUpperCase();
  const side = sideText === 'RIGHT' ? 'right' : sideText === 'SYMMETRIC' ? 'symmetric' : sideText === 'LEFT' ? 'left' : null;
  if (side === null) throw new TyreFileError(file.place('MODEL', 'TYRESIDE'), `expected 'LEFT', 'RIGHT' or 'SYMMETRIC', got '${sideText}'`);
  return {
    version,
    nominalLoad: positive('VERTICAL', 'FNOMIN', nominalLoad),
    unloadedRadius: positive('DIMENSION', 'UNLOADED_RADIUS', file.number('DIMENSION', 'UNLOADED_RADIUS')),
    verticalStiffness: positive('VERTICAL', 'VERTICAL_STIFFNESS', file.number('VERTICAL', 'VERTICAL_STIFFNESS')),
    referenceSpeed: positive('MODEL', 'LONGVL', file.number('MODEL', 'LONGVL', 16.7)),
    side,
    treadStiffness: file.has('STRUCTURAL', 'LONGITUDINAL_STIFFNESS') && file.has('STRUCTURAL', 'LATERAL_STIFFNESS')
      ? [positive('STRUCTURAL', 'LONGITUDINAL_STIFFNESS', file.number('STRUCTURAL', 'LONGITUDINAL_STIFFNESS')),
        positive('STRUCTURAL', 'LATERAL_STIFFNESS', file.number('STRUCTURAL', 'LATERAL_STIFFNESS'))]
      : null,
    c: c as Record<MfKey, number>,
  };
}
