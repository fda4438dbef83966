/**
 * No command writes over a file it reads: `sweep dw.yaml --format csv --out dw.yaml` would
 * replace the geometry with its own sweep. Every command with an output file and input
 * files asks here before any work, so the refusal reads the same in each.
 */
import { realpathSync, statSync, type BigIntStats } from 'node:fs';
import { CliError } from './io.ts';

/** An input file as the command names it in messages (`geometry`, `sweep`, `targets`), and its path (`-`: standard input). */
export type InputFile = readonly [what: string, path: string | undefined];

/**
 * Throws a one-line CliError when `out` is one of `inputs`: the same file by its real path
 * (a symbolic link to it, `./dw.yaml` for `dw.yaml`) or by its device and inode (a hard
 * link). An output that does not exist yet cannot be a file read, so it passes.
 */
export function refuseOverwritingInputs(command: string, option: string, out: string | undefined, inputs: readonly InputFile[]): void {
  if (out === undefined || out === '-') return;
  const target = identity(out);
  if (target === undefined) return;
  for (const [what, path] of inputs) {
    if (path === undefined || path === '-') continue;
    const source = identity(path);
    if (source === undefined || !sameFile(source, target)) continue;
    const named = path === out ? '' : ` ("${path}")`;
    throw new CliError(`${command}: ${option} "${out}" is the ${what} file it reads${named}: give another output file`);
  }
}

interface FileIdentity {
  readonly real: string;
  readonly stats: BigIntStats;
}

/** The file's real path and stats, following symbolic links; undefined when it cannot be found. */
function identity(path: string): FileIdentity | undefined {
  try {
    return { real: realpathSync.native(path), stats: statSync(path, { bigint: true }) };
  } catch {
    return undefined;
  }
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  if (a.real === b.real) return true;
  // an inode of 0 (some file systems) identifies nothing
  return a.stats.ino !== 0n && a.stats.dev === b.stats.dev && a.stats.ino === b.stats.ino;
}
