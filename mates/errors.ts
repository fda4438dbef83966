/**
 * The error of a mate the catalogue cannot build from what it was given: two ends on one
 * part, a pair of entity kinds the mate does not take, a wheel that cannot roll on its
 * track. `path` is the mate's id, so the message reads `<id>: <reason>`; the model builder
 * puts the document path in front (`mates.<id>: <reason>`).
 */
import { KinemateError } from '../kernel/errors';

export class MateError extends KinemateError {
  override name = 'MateError';
}
