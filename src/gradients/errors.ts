/** A gradient run's refusals: a parameter or result the model does not have or the run does not offer; the message names it. */
import { KinemateError } from '../../kernel/errors';

export class DynamicSensitivityError extends KinemateError {
  override readonly name = 'DynamicSensitivityError';
  constructor(message: string) { super('', message); }
}
