/**
 * Browser stand-in for `node:fs/promises`. The viewer never reads or writes files through
 * Node (it opens them with the File API); this only satisfies the import of the command
 * line's sweep command, which the module graph reaches through a re-export.
 */
function unavailable(): never {
  throw new Error('node:fs is not available in the browser');
}
export async function readFile(..._args: unknown[]): Promise<string> {
  return unavailable();
}
export async function writeFile(..._args: unknown[]): Promise<void> {
  return unavailable();
}
export async function open(..._args: unknown[]): Promise<never> {
  return unavailable();
}
