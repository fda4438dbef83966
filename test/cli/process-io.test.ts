/** The command's own stdout/stderr writer (src/cli/process-io.ts): written with writeSync, the stream only when the descriptor would block. */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FdWriter, isTerminal } from '../../src/cli/process-io.ts';
import { tempFolder } from './helpers.ts';

/** The descriptor under a child's stdin pipe: Node opens its end non-blocking, as a descriptor that would block (EAGAIN). */
function fdOf(stream: unknown): number {
  return ((stream as Socket & { _handle: { fd: number } })._handle).fd;
}

describe('FdWriter', () => {
  it('writes UTF-8 text to a file descriptor as it is given, in order', async () => {
    const temp = tempFolder();
    try {
      const path = temp.file('out.txt');
      const fd = openSync(path, 'w');
      const writer = new FdWriter(fd, () => { throw new Error('the stream is not needed for a file'); });
      const parts = ['{\n  "camber": 1.5e-7,', ' "unit": "°"', '', '\n}\n', 'ü'.repeat(70_000)];
      for (const part of parts) await writer.write(part);
      closeSync(fd);
      expect(writer.mode).toBe('direct');
      expect(readFileSync(path, 'utf8')).toBe(parts.join(''));
    } finally {
      temp.remove();
    }
  });

  it('hands a descriptor that would block to its stream, every byte kept in order', async () => {
    const cat = spawn('cat', [], { stdio: ['pipe', 'pipe', 'inherit'] });
    const received: Buffer[] = [];
    cat.stdout.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise((resolve) => cat.on('close', resolve));
    const writer = new FdWriter(fdOf(cat.stdin), () => cat.stdin);
    // far more than a pipe holds (64 KiB): writeSync meets EAGAIN part-way through a write
    const parts = Array.from({ length: 12 }, (_, k) => `${k}:${'é'.repeat(40_000 + k)}\n`);
    for (const part of parts) await writer.write(part);
    expect(writer.mode).toBe('stream');
    cat.stdin.end();
    await closed;
    expect(Buffer.concat(received).toString('utf8')).toBe(parts.join(''));
  });

  it('ends quietly when the reader has gone (EPIPE)', async () => {
    // a reader that closes its end of the pipe, says so and waits
    const child = spawn(process.execPath, ['-e', "require('fs').closeSync(0); process.stdout.write('closed'); setTimeout(() => {}, 20000)"], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdin.on('error', () => {});
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const writer = new FdWriter(fdOf(child.stdin), () => child.stdin);
    await writer.write('x'.repeat(200_000));
    expect(writer.mode).toBe('closed');
    await writer.write('more');
    child.kill();
  });
});

describe('isTerminal', () => {
  it('is false for a file and a pipe', () => {
    const temp = tempFolder();
    const fd = openSync(temp.file('f'), 'w');
    try {
      expect(isTerminal(fd)).toBe(false);
    } finally {
      closeSync(fd);
      temp.remove();
    }
    const cat = spawn('cat', [], { stdio: ['pipe', 'ignore', 'ignore'] });
    expect(isTerminal(fdOf(cat.stdin))).toBe(false);
    cat.kill();
  });
});
