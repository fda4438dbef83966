/**
 * A tyre property file (`.tir`) read from disk: the Magic Formula tyre and the lines to
 * warn with (keys the reader does not use). Unreadable files and missing keys are one-line
 * TyreFileErrors naming the path (and the section and key). A relative path is the
 * caller's to resolve (a vehicle file's `tir:` is relative to the vehicle file).
 */
import { TyreFileError, readTyreText, type TyreFileRead } from '../../../mates/tyres';

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
