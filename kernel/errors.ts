/**
 * The one base type of every error that reports bad input: `path` names the offending
 * place (a document path such as `mates.tie.b`, a command-line option such as `--set jA.angle`;
 * empty when the input as a whole is meant) and `reason` says what is wrong there. The
 * message is `<path>: <reason>`, or the reason alone without a path. AssemblyError,
 * ModelError, RolesError, SuspensionFileError, PoseFormatError and CliError extend it, so
 * a caller tells bad input from a fault with one `instanceof KinemateError`.
 */
export class KinemateError extends Error {
  override name = 'KinemateError';
  /** Where the problem is; '' when no single place is meant. */
  readonly path: string;
  /** What is wrong, without the path in front. */
  readonly reason: string;

  /** `message` defaults to `<path>: <reason>` (the reason alone when `path` is ''). */
  constructor(path: string, reason: string, message: string = path === '' ? reason : `${path}: ${reason}`) {
    super(message);
    this.path = path;
    this.reason = reason;
  }
}

/**
 * Bad input to a function of the library API: an argument outside what the function takes
 * (a step count, a length scale, a duration, a state that is not a pose). `path` names the
 * argument (`steps`, `lengthScale`, `states[2]["crank.pose"]`).
 */
export class ArgumentError extends KinemateError {
  override name = 'ArgumentError';
}

/**
 * A broken promise of the code itself, never of its input: a call out of order (a drag
 * ended twice, a prepared model run twice), a workspace given more than it was sized for, a
 * case the callers rule out. Not a KinemateError: the CLI prints it as an internal error, the
 * live model lets it through. The message names the function and what went wrong.
 */
export class InternalError extends Error {
  override name = 'InternalError';
}
