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
