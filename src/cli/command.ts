/** What one `kinemate <name>` subcommand is. */
import type { CliIO } from './io.ts';

export interface Command {
  /** The word after `kinemate`. */
  readonly name: string;
  /** The usage line(s) shown in `kinemate --help`, without the leading `kinemate`. */
  readonly synopsis: string;
  /** One line saying what it does. */
  readonly summary: string;
  /** The full text of `kinemate <name> --help`. */
  readonly help: string;
  /**
   * Runs the command on the arguments after its name and returns the exit code (see
   * EXIT). Bad input may be thrown (CliError, AssemblyError, ModelError): the caller prints
   * it as one `kinemate: <message>` line and exits with code 1.
   */
  run(argv: readonly string[], io: CliIO): Promise<number>;
}
