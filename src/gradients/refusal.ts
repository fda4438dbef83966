/**
 * Why a gradient run cannot take one parameter or result, said without naming which: the
 * helper that reads an element, a mate or a coordinate knows what is wrong, and the run that
 * called it knows what was asked (`parameter "spring.k"`, `result`), so the run re-throws it
 * as a DynamicSensitivityError with that name in front. A leaf module, so that every helper
 * can throw it without importing the run.
 */
import { KinemateError } from '../../kernel/errors';

export class GradientRefusal extends KinemateError {
  override readonly name = 'GradientRefusal';
  constructor(reason: string) { super('', reason); }
}
