/**
 * A `.tir` file's text to a tyre model: the property file parsed, the Magic Formula's
 * coefficients read (a missing one is an error naming its section and key), and the keys
 * it did not use listed once, one line per section, for the caller to warn with.
 */
import { PropertyFile } from './property-file';
import { mfTyreData } from './coefficients';
import { MagicFormulaTyre } from './magic-formula';

export interface TyreFileRead {
  readonly tyre: MagicFormulaTyre;
  /** `file: [SECTION] not used: KEY, KEY…`, one per section with unused keys. */
  readonly warnings: readonly string[];
}

/** `file` names the file in messages. */
export function readTyreText(file: string, text: string): TyreFileRead {
  const properties = new PropertyFile(file, text);
  const tyre = new MagicFormulaTyre(mfTyreData(properties));
  const warnings = properties.unused().map(({ section, keys }) => `${file}: [${section}] not used: ${keys.join(', ')}`);
  return { tyre, warnings };
}
