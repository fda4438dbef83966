import { KinemateError } from '../errors';

/** Why a run cannot start (a singular augmented system names the parts). */
export class IntegratorError extends KinemateError {
  override readonly name = 'IntegratorError';
  constructor(message: string) { super('', message); }
}
