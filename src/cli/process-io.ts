/**
 * The real process's standard streams as a CliIO (./io.ts), for bin/kinemate.js. Apart
 * from io.ts because it needs node:fs, which the library's browser bundle must not load.
 */
import { fstatSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import type { CliIO } from './io.ts';

/**
 * Writes `text` and resolves when the stream has taken it (its write callback ran), so a
 * large output piped to another program is complete before the process exits. A reader
 * that went away (EPIPE, e.g. `kinemate drive … | head`) ends the write quietly.
 */
function writeTo(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (text.length === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write(text, () => resolve());
  });
}

/**
 * Standard output or error written with `writeSync` on its file descriptor: creating
 * `process.stdout` loads Node's stream modules, which costs a short command's start more
 * than its whole output takes to write. Writes are synchronous, so handed to the OS when
 * the promise resolves, as with the stream. A descriptor that would block (EAGAIN: one set
 * non-blocking by whoever started us) hands this and every later write to the stream, in
 * order; any other error (EPIPE: the reader went away) ends output on it quietly.
 */
export class FdWriter {
  /** How it writes now: with writeSync, through the stream (after EAGAIN), or not at all (after an error). */
  get mode(): 'direct' | 'stream' | 'closed' { return this.state; }
  private state: 'direct' | 'stream' | 'closed' = 'direct';
  constructor(private readonly fd: number, private readonly stream: () => Writable) {}

  write(text: string): Promise<void> {
    if (text === '' || this.state === 'closed') return Promise.resolve();
    if (this.state === 'stream') return writeTo(this.guarded(), text);
    let bytes: Uint8Array | null = null;
    let at = 0;
    try {
      const written = writeSync(this.fd, text);
      if (written === Buffer.byteLength(text)) return Promise.resolve();
      bytes = Buffer.from(text, 'utf8');
      at = written;
      while (at < bytes.length) at += writeSync(this.fd, bytes, at);
      return Promise.resolve();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
        this.state = 'closed';
        return Promise.resolve();
      }
      this.state = 'stream';
      return writeTo(this.guarded(), bytes === null ? text : bytes.subarray(at));
    }
  }

  /** The stream, with a listener: without one, a closed pipe (EPIPE) would crash the process with a stack trace. */
  private guarded(): Writable {
    const stream = this.stream();
    if (stream.listenerCount('error') === 0) stream.on('error', () => {});
    return stream;
  }
}

/** The real process's streams. */
export function processIO(): CliIO {
  const stdout = new FdWriter(1, () => process.stdout);
  const stderr = new FdWriter(2, () => process.stderr);
  return {
    out: (text) => stdout.write(text),
    err: (text) => stderr.write(text),
    stderrIsTTY: isTerminal(2),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Whether `fd` is a terminal. A terminal is a character device, so a pipe or a file is told
 * apart by its fstat alone, without loading node:tty (which loads net and the streams).
 */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  const { isatty } = createRequire(import.meta.url)('node:tty') as typeof import('node:tty');
  return isatty(fd);
}
