/**
 * The `kinemate` command as the package installs it (dist/cli.cjs with its code cache, started
 * by a copy of bin/kinemate.js), built from this checkout's sources once per change of them,
 * for the tests that spawn the command (test/cli/helpers.ts `kinemate`). Run from the sources
 * through tsx, every start compiles the whole command again (~0.7 s of CPU; the suite starts
 * it ~90 times); the built command starts in ~0.1 s and is the same code, bundled by the same
 * compiler tsx uses. A few tests still start bin/kinemate.js itself, as a clone's user does.
 *
 * The build lives in node_modules/.cache/kinemate-test-command/: `current.json` names the
 * build and the source files it read, with a hash of their contents; while the hash holds, the
 * build is reused (a typical edit-and-test run pays nothing), otherwise a new one is made
 * (~1 s) by scripts/build-command.mjs in a process of its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { inputsKey } from '../../src/suspension/design/batch-worker-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** bin/kinemate.js of the built command (see test/setup/built-command.ts). */
    builtCommand: string;
  }
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(REPO, 'node_modules/.cache/kinemate-test-command');
const CURRENT = join(CACHE, 'current.json');
/** Builds older than this that are not current are removed (a concurrent run may still use a recent one). */
const STALE_MS = 3_600_000;

interface Current { dir: string; inputs: string[]; key: string }

export default function setup(project: TestProject): void {
  project.provide('builtCommand', join(currentBuild(), 'bin/kinemate.js'));
}

function currentBuild(): string {
  try {
    const current = JSON.parse(readFileSync(CURRENT, 'utf8')) as Current;
    if (existsSync(join(current.dir, 'dist/cli.cjs')) && inputsKey(current.inputs, '') === current.key) return current.dir;
  } catch {
    // no build yet, or one of its inputs is gone: build
  }
  const dir = join(CACHE, `build-${Date.now()}-${process.pid}`);
  mkdirSync(CACHE, { recursive: true });
  const run = spawnSync(process.execPath, [join(REPO, 'scripts/build-command.mjs'), dir], { cwd: REPO, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`test setup: scripts/build-command.mjs failed (exit ${run.status}):\n${run.stderr}`);
  const inputs = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8')) as string[];
  const partial = `${CURRENT}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ dir, inputs, key: inputsKey(inputs, '') } satisfies Current));
  renameSync(partial, CURRENT);
  removeStaleBuilds(dir);
  return dir;
}


function removeStaleBuilds(keep: string): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path === keep || !name.startsWith('build-')) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed by a concurrent run
    }
  }
}
