/**
 * Bad input in a tyre property file (`.tir`): the message names the file, the section and
 * the key (`tyre.tir: [LATERAL_COEFFICIENTS] PKY1: missing, …`), or the line of a syntax error.
 */
import { KinemateError } from '../../kernel/errors';

export class TyreFileError extends KinemateError {
  override readonly name = 'TyreFileError';
  /** `where` is the file (and `[SECTION] KEY` or `line N` in it); `reason` what is wrong there. */
  constructor(where: string, reason: string) {
    super(where, reason);
  }
}
