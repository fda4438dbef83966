/**
 * The error of a design file (a DOE file, a fit's targets file) that cannot be used: the
 * file's name and the path in it in front of the reason, `<file>: <path>: <reason>`, as
 * the suspension files' own errors read.
 */
import { KinemateError } from '../../../kernel/errors';

export class DesignFileError extends KinemateError {
  override readonly name = 'DesignFileError';
  /** The file's name as given (or `doe`, `targets`). */
  readonly fileName: string;

  constructor(fileName: string, path: string, reason: string) {
    super(path, reason, `${fileName}: ${path}: ${reason}`);
    this.fileName = fileName;
  }
}
