/**
 * One failure type for every suspension file (geometry, sweep, command-line shortcut).
 *
 * Validation collects every problem it finds before throwing, so a user fixes a file in
 * one pass instead of one error per run.
 */
import { InternalError, KinemateError } from '../../../kernel/errors.ts';

/** One problem in a file: `path` names the offending field (`hardpoints.left.axle_inboard.z`). */
export interface FileProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown by the parsers and validators of `src/suspension/files`. `message` lists every
 * problem, one per line, each as `path: message`; `path` is the first problem's path.
 * `fileName`, when the caller gave one, is kept apart so the message stays path-first.
 */
export class SuspensionFileError extends KinemateError {
  override readonly name = 'SuspensionFileError';
  readonly problems: readonly FileProblem[];
  readonly fileName: string | undefined;

  constructor(problems: readonly FileProblem[], fileName?: string) {
    if (problems.length === 0) throw new InternalError('SuspensionFileError needs at least one problem');
    // path and reason: the first problem's; the message lists them all
    super(problems[0].path, problems[0].message, problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
    this.problems = problems;
    this.fileName = fileName;
  }
}

/** Path of the document itself, for problems that belong to no field. */
export const ROOT_PATH = '(root)';

/** Collects problems while a validator walks a document. */
export class ProblemList {
  readonly problems: FileProblem[] = [];

  add(path: string, message: string): void {
    this.problems.push({ path: path === '' ? ROOT_PATH : path, message });
  }

  get count(): number {
    return this.problems.length;
  }

  throwIfAny(fileName?: string): void {
    if (this.problems.length > 0) throw new SuspensionFileError(this.problems, fileName);
  }
}
