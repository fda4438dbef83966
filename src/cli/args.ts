/**
 * Option parsing for the commands: Node's `util.parseArgs` in strict mode, with its
 * errors rewritten as short `kinemate` messages, and the value parsers the commands share.
 */
import { parseArgs } from 'node:util';
import { CliError } from './io.ts';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
}
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Parsed options: a string (or string list for `multiple`) per given string option, true per given flag. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | readonly (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/** A decimal number as written on a command line: `30`, `-12.5`, `.5`, `1e-3`. No hex, no `Infinity`. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when the arguments ask for help (`--help` or `-h` before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * Parses `argv` (the arguments after the command name) strictly: an unknown option, a
 * missing value or a value given to a flag is a CliError naming the option. A negative
 * number may follow a string option with a space (`--from -30`); parseArgs alone would
 * take it for an option.
 */
export function parseCommandArgs(command: string, argv: readonly string[], options: OptionSpecs): ParsedArgs {
  const args = joinNegativeValues(argv, options);
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals };
  } catch (error) {
    throw new CliError(parseErrorMessage(command, error, options));
  }
}

function joinNegativeValues(argv: readonly string[], options: OptionSpecs): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-(?:\d|\.\d)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

function parseErrorMessage(command: string, error: unknown, options: OptionSpecs): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const text = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(text)?.[1] ?? '';
  const option = quoted.replace(/ <value>$/, '').split(', ').pop() ?? quoted;
  const known = Object.keys(options).map((name) => `--${name}`).concat('--help');
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `${command}: unknown option ${option}; ${command} takes ${known.join(', ')}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(text)) return `${command}: ${option} needs a value`;
      if (/does not take an argument/.test(text)) return `${command}: ${option} does not take a value`;
      if (/ambiguous/.test(text)) return `${command}: ${option} needs a value (write ${option}=VALUE for a value starting with "-")`;
      return `${command}: ${text.split('\n')[0]}`;
    default:
      return `${command}: ${text.split('\n')[0]}`;
  }
}

/** The one string value of a non-multiple string option, or undefined. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Every value of a `multiple` string option, in order. */
export function stringOptions(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

/** A required string option. */
export function requiredOption(command: string, args: ParsedArgs, name: string, what: string): string {
  const value = stringOption(args, name);
  if (value === undefined) throw new CliError(`${command}: --${name} ${what} is required`);
  return value;
}

/** Exactly one positional argument (the file a command works on). */
export function onePositional(command: string, args: ParsedArgs, what: string): string {
  const { positionals } = args;
  if (positionals.length === 0) throw new CliError(`${command}: missing ${what} (see kinemate ${command} --help)`);
  if (positionals.length > 1) {
    throw new CliError(`${command}: unexpected argument "${positionals[1]}"; ${command} takes one ${what}`);
  }
  return positionals[0];
}

/** A finite decimal number; `where` names the option in the message. */
export function parseNumber(text: string, where: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!DECIMAL.test(trimmed) || !Number.isFinite(value)) throw new CliError(`${where}: expected a number, got "${text}"`);
  return value;
}

/** A whole number ≥ `min`. */
export function parseCount(text: string, where: string, min: number): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!/^\+?\d+$/.test(trimmed) || !Number.isSafeInteger(value) || value < min) {
    throw new CliError(`${where}: expected a whole number ≥ ${min}, got "${text}"`);
  }
  return value;
}

/**
 * A whole number from `min` to `max`. Too large a count is refused with `tooMany(got)`,
 * which names the maximum, however it is written: `1e9` is a number too large before it
 * is a count not written in digits.
 */
export function parseBoundedCount(text: string, where: string, min: number, max: number, tooMany: (got: string) => string): number {
  const trimmed = text.trim();
  if (DECIMAL.test(trimmed) && Number(trimmed) > max) throw new CliError(tooMany(trimmed));
  return parseCount(text, where, min);
}

/**
 * `--set COORD=VALUE` arguments as a record. A coordinate given twice is refused rather
 * than silently taking the last value.
 */
export function parseAssignments(items: readonly string[], option: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new CliError(`${option} ${item}: expected COORD=VALUE, e.g. ${option} jA.angle=90`);
    const name = item.slice(0, eq).trim();
    if (Object.hasOwn(out, name)) throw new CliError(`${option} ${name}: given more than once`);
    out[name] = parseNumber(item.slice(eq + 1), `${option} ${name}`);
  }
  return out;
}
