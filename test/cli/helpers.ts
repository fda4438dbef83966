/** Running the real `kinemate` command on real files, as a user would. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { serializeAssembly, validateAssembly } from '../../src/assembly/index.ts';
import type { AssemblyDoc } from '../../src/assembly/index.ts';
import { fourBarDoc } from '../../examples/fourbar.ts';
import type { CliIO } from '../../src/cli/io.ts';

/** The repository root: the commands run from here. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `command args…` in the repository root and collects everything it writes. */
export function spawnIn(command: string, args: readonly string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? REPO, env: options.env ?? process.env, stdio: 'pipe' });
    const out: Buffer[] = [], err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The command as installed (`kinemate …args` in the repository root): this checkout built into
 * the package's form by the tests' setup (test/setup/built-command.ts), where a start takes
 * ~0.1 s rather than tsx's ~0.7 s (test/cli/main.test.ts starts bin/kinemate.js itself, through
 * npx, as a clone's user does).
 */
export function kinemate(args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return spawnIn(process.execPath, [inject('builtCommand'), ...args], options);
}

/** A fresh temporary folder, and a way to remove it. */
export function tempFolder(): { dir: string; file: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kinemate-cli-'));
  return { dir, file: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a document (checked and serialised) or raw text to `path`; returns the path. */
export function writeModel(path: string, doc: AssemblyDoc | string): string {
  writeFileSync(path, typeof doc === 'string' ? doc : serializeAssembly(doc));
  return path;
}

/** The four-bar at crank 30° as the text of a file. */
export function fourBarText(): string {
  return serializeAssembly(fourBarDoc(30));
}

const FRAME0 = { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } as const;

/**
 * A link on the ground by two revolutes on parallel but distinct axes: the ground's
 * pivots are 100 apart, the link's 60. They cannot both hold.
 */
export function conflictingDoc(): AssemblyDoc {
  return validateAssembly({
    format: 'kinemate.assembly/1',
    name: 'two hinges that disagree',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { p1: FRAME0, p2: { origin: [100, 0, 0], rotation: [1, 0, 0, 0] } } },
      link: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { a: FRAME0, b: { origin: [60, 0, 0], rotation: [1, 0, 0, 0] } } },
    },
    mates: {
      j1: { type: 'revolute', a: 'ground.p1', b: 'link.a' },
      j2: { type: 'revolute', a: 'ground.p2', b: 'link.b' },
    },
  });
}

/** An angle in degrees, wrapped to (−180, 180]. */
export function wrapDegrees(angle: number): number {
  const wrapped = ((((angle + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 ? 180 : wrapped;
}

/** True when the text has no stack-trace line. */
export function hasNoStackTrace(text: string): boolean {
  return !/^\s+at /m.test(text) && !/node:internal/.test(text);
}

/** A CliIO that keeps what is written, for running `main` in the test process. */
export interface MemoryIO extends CliIO {
  readonly written: { stdout: string; stderr: string };
}

export function memoryIO(options: { tty?: boolean; stdin?: string } = {}): MemoryIO {
  const written = { stdout: '', stderr: '' };
  return {
    written,
    stderrIsTTY: options.tty ?? false,
    out: async (text) => { written.stdout += text; },
    err: async (text) => { written.stderr += text; },
    readStdin: async () => options.stdin ?? '',
  };
}

/** Every number in a value, in traversal order. */
export function numbersIn(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'number') out.push(value);
  else if (Array.isArray(value)) for (const item of value as unknown[]) numbersIn(item, out);
  else if (typeof value === 'object' && value !== null) for (const member of Object.values(value)) numbersIn(member, out);
  return out;
}

/** Indices where two number lists differ bit for bit (Object.is tells -0 from 0), or a length mismatch. */
export function bitDifferences(actual: readonly number[], expected: readonly number[]): string[] {
  if (actual.length !== expected.length) return [`length ${actual.length} ≠ ${expected.length}`];
  return expected.flatMap((n, i) => (Object.is(n, actual[i]) ? [] : [`#${i}: ${actual[i]} ≠ ${n}`]));
}

/**
 * The command's `main` run in the test process on a memory IO, as a Run: everything but
 * the process itself (for tests of what the command says, not of how a process starts).
 */
export async function runMain(args: readonly string[], options: { stdin?: string; tty?: boolean } = {}): Promise<Run> {
  const { main } = await import('../../src/cli/main.ts');
  const io = memoryIO(options);
  const code = await main(args, io);
  return { code, stdout: io.written.stdout, stderr: io.written.stderr };
}
