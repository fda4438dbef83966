/**
 * A geometry file that cannot be used: missing, unreadable, of an unknown kind, without
 * triangles, with non-finite coordinates. `path` is the file as the document names it
 * (or the document path of a bad field, e.g. `parts.upright.geometry[0].frame.rotation`),
 * so the message is one line a user can act on.
 */
import { KinemateError } from '../../../kernel/errors.ts';

export class GeometryError extends KinemateError {
  override readonly name = 'GeometryError';
}
