/**
 * Writing an assembly back to text. Load then save reproduces every number exactly
 * (-0 and subnormals included) and keeps keys in the order they were read; poses are
 * written as they are, never normalised.
 */

import { stringifyJson } from './json.ts';
import { validateAssembly } from './load.ts';
import type { AssemblyDoc } from './types.ts';

/**
 * The text of a `*.kinemate.json` file: 2-space indented JSON ending in a newline,
 * short number and id lists on one line. The document is checked first, so a file
 * that saves is one that loads; throws AssemblyError for a document that would not.
 */
export function serializeAssembly(doc: AssemblyDoc): string {
  return stringifyJson(validateAssembly(doc));
}
