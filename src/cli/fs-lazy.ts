/**
 * `writeFile` and `open` of node:fs/promises, loaded when first called: a command that
 * writes no file (a sweep to stdout) does not load node:fs/promises and what it brings
 * (readline, watchers), which costs a short command's start a few milliseconds.
 */
import type { FileHandle } from 'node:fs/promises';

export async function writeFile(path: string, data: string | Uint8Array): Promise<void> {
  const fs = await import('node:fs/promises');
  await fs.writeFile(path, data);
}

export async function open(path: string, flags: string): Promise<FileHandle> {
  const fs = await import('node:fs/promises');
  return fs.open(path, flags);
}
