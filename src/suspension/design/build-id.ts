/**
 * Which build sweeps a queued chunk. A coordinator and its workers must compute the same
 * rows, so they compare a hash of the code that computes them — the batch worker's code
 * as it runs (the package's dist/batch-worker.js, or from the sources the bundle of
 * batch-worker.ts and everything it imports) — and the Node version, not package.json's
 * version string, which stays the same across edits.
 */
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { batchWorkerUrl } from './batch-worker-url.ts';

let cached: Promise<string> | null = null;

/**
 * `<hash of the worker code>-node<version>`. KINEMATE_BUILD_SALT, when set, is mixed into
 * the hash: a way to make one process count as another build (the tests' version mismatch).
 */
export function buildId(): Promise<string> {
  return (cached ??= (async () => {
    const code = await readFile(await batchWorkerUrl());
    const hash = createHash('sha256').update(code);
    const salt = process.env.KINEMATE_BUILD_SALT;
    if (salt) hash.update('\0').update(salt);
    return `${hash.digest('hex').slice(0, 16)}-node${process.versions.node}`;
  })());
}
