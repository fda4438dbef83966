/** Bad input found when an analysis starts (a field the asked analysis needs): path and reason, one line. */
import { KinemateError } from '../../../kernel/errors';

export class VehicleInputError extends KinemateError {
  override readonly name = 'VehicleInputError';
}

/** The reduced stiffness cannot be solved: a motion of the vehicle that nothing holds. */
export class VehicleSingularError extends KinemateError {
  override readonly name = 'VehicleSingularError';
}
