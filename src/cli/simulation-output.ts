/**
 * `simulate`'s output written as the run goes, so that a long run's memory stays bounded
 * (issue 27: frames were collected until the end, ~20 MB/s). CSV rows go out as their
 * frames come. JSON's document opens with its "status", known only at the end, so its
 * frames wait in a spool (memory up to 1 MiB, then a temporary file) and are copied out
 * after the last. Either way the bytes are those of the whole result printed at once.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { SimulationFrame, SimulationResult, SuspensionSimulationResult } from '../index.ts';
import { toJsonText, type CliIO } from './io.ts';
import { csvColumns, type CsvColumns } from './simulation-csv.ts';

/** Where the text goes, in order; `close` resolves once it has all been handed on. */
export interface Sink {
  write(text: string): void;
  close(): Promise<void>;
}

/** Frames as they come, then the result (its frames not kept) once the run is done. */
export interface FrameWriter {
  frame(frame: SimulationFrame): void;
  end(result: SimulationResult | SuspensionSimulationResult): Promise<void>;
  /** After an error: drop what is spooled. */
  discard(): void;
}

/** Text is handed on in chunks of about this many characters (one write per frame would be a system call each). */
const CHUNK = 1 << 16;

/** Standard output: io.out writes at once (process-io.ts), so nothing piles up while the run computes. */
export function stdoutSink(io: CliIO): Sink {
  let last: Promise<void> = Promise.resolve();
  return { write: (text) => { last = io.out(text); }, close: () => last };
}

/** A file, opened (and emptied) at the first write, so a run that cannot start leaves it as it was. */
export function fileSink(path: string): Sink {
  let fd: number | undefined;
  const open = () => (fd ??= openSync(path, 'w'));
  return {
    write: (text) => writeFileSync(open(), text),
    close: async () => closeSync(open()),
  };
}

/** Text gathered into chunks for a sink. */
function chunked(sink: Sink): { write: (text: string) => void; flush: () => void } {
  let pending = '';
  const flush = () => { if (pending) sink.write(pending); pending = ''; };
  return { write: (text) => { pending += text; if (pending.length >= CHUNK) flush(); }, flush };
}

/** Text kept until asked for again: in memory up to `memory` characters, the rest in a temporary file. */
export class Spool {
  private pending = '';
  private dir: string | undefined;
  private fd: number | undefined;
  constructor(private readonly memory = 1 << 20) {}

  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= this.memory) this.spill();
  }

  /** Everything written, in order, in chunks. */
  replay(write: (text: string) => void): void {
    if (this.fd === undefined) { if (this.pending) write(this.pending); return; }
    this.spill();
    const buffer = Buffer.alloc(CHUNK * 16), decoder = new StringDecoder('utf8');
    for (let at = 0, n; (n = readSync(this.fd, buffer, 0, buffer.length, at)) > 0; at += n) write(decoder.write(buffer.subarray(0, n)));
    const rest = decoder.end();
    if (rest) write(rest);
  }

  /** Whether text went to the temporary file (a long run). */
  get spilled(): boolean { return this.fd !== undefined; }

  remove(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
    this.fd = this.dir = undefined;
    this.pending = '';
  }

  private spill(): void {
    if (this.fd === undefined) {
      this.dir = mkdtempSync(join(tmpdir(), 'kinemate-simulate-'));
      this.fd = openSync(join(this.dir, 'frames.json'), 'w+');
    }
    writeFileSync(this.fd, this.pending);
    this.pending = '';
  }
}

/** CSV: the header at the first frame (its columns fixed by it), a row per frame. */
function csvWriter(sink: Sink, suspension: boolean): FrameWriter {
  const out = chunked(sink);
  let cols: CsvColumns | undefined;
  return {
    frame(f) {
      if (!cols) { cols = csvColumns(f, suspension); out.write(`${cols.header}\n`); }
      out.write(`${cols.row(f)}\n`);
    },
    async end() { out.flush(); await sink.close(); },
    discard() {},
  };
}

/** Stands for the frames in the document printed without them: a string no result holds. */
const MARK = '\u0000frames';
/** The mark's line in the printed document: an element of "frames" (4 spaces in). */
const MARK_LINE = `    ${JSON.stringify(MARK)}`;

/** JSON: each frame printed as it would be inside the document, spooled; the document around them at the end. */
export function jsonWriter(sink: Sink, spool = new Spool()): FrameWriter {
  let count = 0;
  return {
    frame(f) {
      spool.write(`${count++ ? ',\n' : ''}    ${JSON.stringify(f, null, 2).replace(/\n/g, '\n    ')}`);
    },
    async end(result) {
      const text = toJsonText(count ? { ...result, frames: [MARK] } : result);
      const at = count ? text.indexOf(MARK_LINE) : text.length;
      const out = chunked(sink);
      out.write(text.slice(0, at));
      spool.replay(out.write);
      out.write(text.slice(at + MARK_LINE.length));
      out.flush();
      spool.remove();
      await sink.close();
    },
    discard: () => spool.remove(),
  };
}

/** The writer for `--format`: `suspension` for a geometry file's run (its CSV columns appended). */
export function frameWriter(format: 'json' | 'csv', sink: Sink, suspension: boolean): FrameWriter {
  return format === 'csv' ? csvWriter(sink, suspension) : jsonWriter(sink);
}
