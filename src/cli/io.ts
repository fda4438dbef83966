/**
 * Where the `kinemate` command reads and writes, its exit codes, and the error it raises
 * for bad input. Commands never touch `process` directly: they get a CliIO, so the same
 * code runs under the real process (bin/kinemate.js) and in tests.
 */
import { KinemateError } from '../../kernel/errors.ts';

/** Exit codes of the command. */
export const EXIT = {
  /** Done; for solve/dof/drive: the model was solved. */
  ok: 0,
  /** Bad input: an unreadable or malformed file, a bad option, an unknown coordinate. A one-line message is on stderr. */
  badInput: 1,
  /** The input was fine but the model could not be solved (status `failed`); the JSON on stdout says why. */
  failed: 2,
} as const;

/**
 * Bad input found by the command itself (a bad option, a missing argument, an unreadable
 * file). Its message is printed as `kinemate: <message>` and the exit code is 1.
 */
export class CliError extends KinemateError {
  override readonly name = 'CliError';
  /** `message` names its place itself (`sweep: --format …`), so the path is left empty. */
  constructor(message: string) {
    super('', message);
  }
}

export interface CliIO {
  /** Writes to standard output; resolves once the text has been handed to the OS (flushed). */
  out(text: string): Promise<void>;
  /** Writes to standard error; resolves once flushed. */
  err(text: string): Promise<void>;
  /** True when standard error is a terminal: progress is drawn there only then. */
  readonly stderrIsTTY: boolean;
  /** All of standard input as UTF-8 text (for a MODEL given as `-`). */
  readStdin(): Promise<string>;
}

/** The command's JSON output: 2-space indented, numbers as JavaScript prints them, a final newline. */
export function toJsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
