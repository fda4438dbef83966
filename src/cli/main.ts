/**
 * The `kinemate` command. bin/kinemate.js calls `main(process.argv.slice(2))` and exits
 * with the number it returns:
 *
 *   0  done (solve/dof/drive: the model was solved)
 *   1  bad input: an unreadable or malformed file, a bad option, an unknown coordinate.
 *      One line `kinemate: <message>` on stderr, nothing on stdout, never a stack trace.
 *   2  the model could not be solved: the JSON is printed, with `status: "failed"`.
 *
 * Results are JSON on stdout (2-space indented); help goes to stdout, errors to stderr.
 */
import { readFileSync } from 'node:fs';
import { InternalError, KinemateError } from '../../kernel/errors.ts';
import { SuspensionFileError } from '../suspension/files/errors.ts';
import { wantsHelp } from './args.ts';
import type { Command } from './command.ts';
import { COMMANDS } from './commands.ts';
import { fileErrorReason } from './files.ts';
import { CliError, EXIT, type CliIO } from './io.ts';
import { processIO } from './process-io.ts';

/**
 * Runs one command line (the arguments after `kinemate`) and returns the exit code.
 * `io` defaults to the process's streams and `commands` to the command table; tests pass
 * their own.
 */
export async function main(argv: readonly string[], io: CliIO = processIO(), commands: ReadonlyMap<string, Command> = COMMANDS): Promise<number> {
  try {
    return await dispatch(argv, io, commands);
  } catch (error) {
    await io.err(`kinemate: ${errorLine(error)}\n`);
    return EXIT.badInput;
  }
}

async function dispatch(argv: readonly string[], io: CliIO, commands: ReadonlyMap<string, Command>): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    await io.err(globalHelp(commands));
    return EXIT.badInput;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    if (topic === undefined) await io.out(globalHelp(commands));
    else await io.out(commandNamed(commands, topic).help);
    return EXIT.ok;
  }
  if (first === '--version' || first === '-v') {
    await io.out(`${version()}\n`);
    return EXIT.ok;
  }
  if (first.startsWith('-')) throw new CliError(`unknown option ${first}; expected a command (${[...commands.keys()].join(', ')}), --help or --version`);
  const command = commandNamed(commands, first);
  if (wantsHelp(rest)) {
    await io.out(command.help);
    return EXIT.ok;
  }
  return command.run(rest, io);
}

function commandNamed(commands: ReadonlyMap<string, Command>, name: string): Command {
  const command = commands.get(name);
  if (command === undefined) {
    throw new CliError(`unknown command "${name}"; the commands are ${[...commands.keys()].join(', ')} (see kinemate --help)`);
  }
  return command;
}

/**
 * Errors that mean a bug rather than bad input: an InternalError (a broken promise of the
 * code), the engine's own TypeErrors and the like. Everything else thrown is taken as bad
 * input whose message says what is wrong (every KinemateError, and a plain Error a library
 * throws).
 */
function isInternal(error: unknown): boolean {
  return !(error instanceof Error) || error instanceof InternalError || error instanceof TypeError || error instanceof ReferenceError ||
    error instanceof SyntaxError || error instanceof EvalError || error instanceof URIError;
}

/** The one line printed after `kinemate: ` for an error. */
function errorLine(error: unknown): string {
  let line: string;
  const reason = fileErrorReason(error);
  if (error instanceof SuspensionFileError) line = fileNamed(error.fileName, limitProblems(error));
  else if (error instanceof KinemateError) line = error.message;
  else if (reason !== undefined) {
    const path = typeof error === 'object' && error !== null && 'path' in error && typeof error.path === 'string' ? error.path : undefined;
    line = path === undefined ? reason : `"${path}": ${reason}`;
  } else if (!isInternal(error)) line = (error as Error).message;
  else {
    const message = error instanceof Error ? error.message : String(error);
    if (process.env.KINEMATE_DEBUG && error instanceof Error && error.stack) return `internal error: ${error.stack}`;
    line = `internal error: ${message} (set KINEMATE_DEBUG=1 for details)`;
  }
  // One line, whatever the message holds: control bytes escaped, never echoed; capped.
  return capped(escapeControls(line.replace(/\s*\r?\n\s*/g, ' ')));
}

/** Most characters of the error line; a longer one is cut and says how much was left out. */
export const MAX_ERROR_LINE = 1000;
/** Most problems of a suspension file listed in the error line. */
const MAX_PROBLEMS = 5;

function fileNamed(fileName: string | undefined, message: string): string {
  return fileName === undefined || message.includes(fileName) ? message : `"${fileName}": ${message}`;
}

function limitProblems(error: SuspensionFileError): string {
  const shown = error.problems.slice(0, MAX_PROBLEMS).map((problem) => `${problem.path}: ${problem.message}`);
  const more = error.problems.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more problem${more > 1 ? 's' : ''}` : '');
}

function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function capped(text: string): string {
  return text.length <= MAX_ERROR_LINE ? text : `${text.slice(0, MAX_ERROR_LINE)}… (${text.length - MAX_ERROR_LINE} more characters)`;
}

function globalHelp(commands: ReadonlyMap<string, Command>): string {
  const usage = [...commands.values()].map((command) => `  kinemate ${command.synopsis.replaceAll('\n', `\n${' '.repeat(11)}`)}`).join('\n');
  const summaries = [...commands.values()].map((command) => `  ${command.name.padEnd(6)} ${command.summary}`).join('\n');
  return `kinemate ${version()}: solve, analyse and drive *.kinemate.json assemblies

Usage:
${usage}
  kinemate <command> --help   help for one command
  kinemate --version

Commands:
${summaries}

MODEL is a *.kinemate.json file (see docs/assembly-format.md), or - for standard input.
Output is JSON on stdout. Values are in the file's units: lengths in its length unit,
angles in degrees (radians when the file's units.angle is "rad").

Exit codes: 0 solved; 1 bad input (one line "kinemate: <message>" on stderr);
2 the model cannot be solved (the JSON is printed with status "failed").
`;
}

let cachedVersion: string | undefined;

/** Set by the package build (scripts/build.mjs), where package.json is not beside this file. */
declare const KINEMATE_VERSION: string | undefined;

/** The package's version, from package.json. */
export function version(): string {
  if (cachedVersion === undefined && typeof KINEMATE_VERSION === 'string') cachedVersion = KINEMATE_VERSION;
  if (cachedVersion === undefined) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
      const value = typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>).version : undefined;
      cachedVersion = typeof value === 'string' ? value : 'unknown';
    } catch {
      cachedVersion = 'unknown';
    }
  }
  return cachedVersion;
}
