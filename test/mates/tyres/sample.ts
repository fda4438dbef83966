/** The sample .tir file's text, and edits of it for the reader's and formula's tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readTyreText } from '../../../mates/tyres';

export const SAMPLE_PATH = fileURLToPath(new URL('../../../examples/tyres/pacejka_205_60R15.tir', import.meta.url));
export const SAMPLE = readFileSync(SAMPLE_PATH, 'utf8');

/** The sample with KEY's line set to `KEY = value` (or removed, value null). */
export function withKey(key: string, value: string | number | null, text = SAMPLE): string {
  const line = new RegExp(`^${key}\\s*=.*$`, 'm');
  if (!line.test(text)) throw new Error(`no ${key} in the sample`);
  return text.replace(line, value === null ? '' : `${key} = ${value}`);
}

export function sampleTyre(text = SAMPLE) {
  return readTyreText('sample.tir', text).tyre;
}

/** The sample's coefficients as numbers, read straight from its text (not through the reader). */
export function coefficients(text = SAMPLE): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^([A-Z0-9_]+)\s*=\s*([-+0-9.eE]+)/gm)) out[m[1]] = Number(m[2]);
  return out;
}
