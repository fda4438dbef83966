/** Bad input found when an analysis starts (a field the asked analysis needs): path and reason, one line. */
import { KinemateError } from '../../../kernel/errors';

export class VehicleInputError extends KinemateError {
  override readonly name = 'VehicleInputError';
}
