/**
 * Assembly files on disk. `node:fs` is imported when a helper runs, not when this module
 * loads, so the library entry (src/index.ts) stays importable in a browser bundle.
 */
import { parseAssembly } from '../assembly/load.ts';
import { serializeAssembly } from '../assembly/save.ts';
import type { AssemblyDoc } from '../assembly/types.ts';
import { isBinaryText } from '../suspension/files/read.ts';
import { CliError, type CliIO } from './io.ts';

/**
 * Reads and checks a `*.kinemate.json` file (UTF-8, a leading byte-order mark allowed).
 * Numbers are kept exactly as written; the result is deeply frozen.
 *
 * Throws `AssemblyError` for a malformed document (its `path` names the offending place,
 * e.g. `mates.tie.b`), and Node's own file error (`code` `ENOENT`, `EACCES`, `EISDIR`, …)
 * when the file cannot be read. Nothing else.
 */
export async function loadAssemblyFile(file: string): Promise<AssemblyDoc> {
  const { readFile } = await import('node:fs/promises');
  return parseAssembly(await readFile(file, 'utf8'));
}

/**
 * Writes `doc` to `file` as `serializeAssembly` does (2-space JSON, every number bit-exact,
 * keys in their read order, a final newline), replacing the file.
 *
 * The document is checked before the file is opened: a document that would not load
 * throws `AssemblyError` and leaves any existing file untouched. A file that cannot be
 * written throws Node's file error.
 */
export async function saveAssemblyFile(file: string, doc: AssemblyDoc): Promise<void> {
  const text = serializeAssembly(doc);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(file, text, 'utf8');
}

/** A short, human reason for a Node file error (`no such file or directory`), or undefined for other errors. */
export function fileErrorReason(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error) || typeof error.code !== 'string') return undefined;
  switch (error.code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'it is a directory';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    case 'EMFILE':
    case 'ENFILE': return 'too many open files';
    default:
      if (!('syscall' in error)) return undefined;
      return error instanceof Error ? error.message : error.code;
  }
}

/**
 * Reads a text file a command was given, for every command alike: a file that cannot be
 * read is a CliError `cannot read <what> file "<path>": <reason>`, and one that is not
 * UTF-8 text (a NUL byte, invalid UTF-8, or mostly control bytes) is refused in one line,
 * `<what> file "<path>": not a text YAML or JSON file`, before any parser quotes its bytes.
 */
export async function readTextFile(file: string, what: string, formats = 'YAML or JSON'): Promise<string> {
  // Read at once (a command's input is small): node:fs/promises (with readline and watchers)
  // and the thread pool's round trips of an asynchronous read cost a short command's start
  // more than the read itself.
  const { readFileSync } = await import('node:fs');
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const reason = fileErrorReason(error);
    if (reason !== undefined) throw new CliError(`cannot read ${what} file "${file}": ${reason}`);
    throw error;
  }
  const text = textOf(bytes);
  if (text === undefined) throw new CliError(`${what} file "${file}": not a text ${formats} file (it holds binary data)`);
  return checkedText(text, `${what} file "${file}"`, formats);
}

/**
 * Standard input (a MODEL given as `-`) refused as a file is: binary data in one line
 * rather than a parser's message quoting it, and nothing at all named as such.
 */
export async function readStdinText(io: Pick<CliIO, 'readStdin'>, what: string, formats = 'YAML or JSON'): Promise<string> {
  const text = await io.readStdin();
  const where = `${what} file "-" (standard input)`;
  if (isBinaryText(text)) throw new CliError(`${where}: not a text ${formats} file (it holds binary data)`);
  return checkedText(text, where, formats);
}

/** The text, unless it holds nothing but white space: then a line naming where it came from. */
function checkedText(text: string, where: string, formats: string): string {
  if (text.trim() === '') throw new CliError(`${where}: empty (no ${formats} in it)`);
  return text;
}

/** The bytes as UTF-8 text (a leading byte-order mark dropped), or undefined when they are not text. */
export function textOf(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  return isBinaryText(text) ? undefined : text;
}
