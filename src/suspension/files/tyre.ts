/**
 * A tyre property file (`.tir`) read from disk: the Magic Formula tyre and the lines to
 * warn with (keys the reader does not use). Unreadable files and missing keys are one-line
 * TyreFileErrors naming the path (and the section and key). A relative path is the
 * caller's to resolve (a vehicle file's `tir:` is relative to the vehicle file).
 */
import { MirroredTyre, TyreFileError, linearTyre, readTyreText, type TyreFileRead, type TyreModel } from '../../../mates/tyres';

export async function readTyreFile(path: string): Promise<TyreFileRead> {
  // node:fs loaded when a file is read, so the library entry stays importable in a browser
  const { readFileSync } = await import('node:fs');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new TyreFileError(path, `cannot read the tyre file: ${reason}`);
  }
  if (text.includes('\u0000')) throw new TyreFileError(path, 'not a text tyre property file (it holds binary data)');
  return readTyreText(path, text);
}

/**
 * A vehicle file's tyre entry (vehicle.md `tyres.front` / `tyres.rear`) as a tyre model for
 * one side: `{ tir: PATH }` (relative to `baseDir`) read as above and mirrored where the side
 * differs from the file's TYRESIDE, or the linear `{ stiffness, cornering_stiffness,
 * longitudinal_stiffness }` (N/mm, N/deg, N per percent of slip) on the geometry's `radius`
 * (mm). A tyre without stiffness, or with both forms, is refused naming `where` and the field.
 */
export async function tyreModelOf(entry: unknown, where: string, baseDir: string, radius: number, side: 'left' | 'right'): Promise<{ model: TyreModel; warnings: readonly string[] }> {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new TyreFileError(where, 'expected { tir: FILE } or { stiffness, cornering_stiffness, longitudinal_stiffness }');
  const fields = entry as Record<string, unknown>;
  const linear = ['stiffness', 'cornering_stiffness', 'longitudinal_stiffness'] as const;
  if (fields.tir !== undefined) {
    const extra = Object.keys(fields).find((key) => key !== 'tir');
    if (extra !== undefined) throw new TyreFileError(`${where}.${extra}`, 'a tyre is either a .tir file or linear stiffnesses, not both');
    if (typeof fields.tir !== 'string' || fields.tir === '') throw new TyreFileError(`${where}.tir`, 'expected the path of a .tir file');
    const { isAbsolute, join } = await import('node:path');
    const { tyre, warnings } = await readTyreFile(isAbsolute(fields.tir) ? fields.tir : join(baseDir, fields.tir));
    const mirrored = tyre.data.side !== 'symmetric' && tyre.data.side !== side;
    return { model: mirrored ? new MirroredTyre(tyre) : tyre, warnings };
  }
  const unknown = Object.keys(fields).find((key) => !(linear as readonly string[]).includes(key));
  if (unknown !== undefined) throw new TyreFileError(`${where}.${unknown}`, `not a tyre field (tir, or ${linear.join(', ')})`);
  const values: Record<string, number> = {};
  for (const key of linear) {
    const value = fields[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0)) {
      throw new TyreFileError(`${where}.${key}`, value === undefined ? 'missing: a tyre needs a stiffness (or a .tir file)' : `expected a positive number, got ${JSON.stringify(value)}`);
    }
    values[key] = value;
  }
  if (!(radius > 0)) throw new TyreFileError(where, `the tyre's radius must be positive, got ${radius}`);
  return { model: linearTyre({ stiffness: values.stiffness, cornering_stiffness: values.cornering_stiffness, longitudinal_stiffness: values.longitudinal_stiffness, radius }), warnings: [] };
}
