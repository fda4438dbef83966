/** The queue's address and chunk checks (issue 31): every bad input named, nothing skipped in silence. */
import { describe, expect, it } from 'vitest';
import { parseQueueAddress } from '../../../src/suspension/design/queue-connection.ts';
import { checkChunkJob, checkRunName, chunkJobId, runToken, type RunRecord } from '../../../src/suspension/design/queue-protocol.ts';

describe('the queue address', () => {
  it('reads host, port and database, with Redis defaults', () => {
    expect(parseQueueAddress('redis://10.1.2.3:6380/4')).toEqual({ url: 'redis://10.1.2.3:6380/4', host: '10.1.2.3', port: 6380, db: 4 });
    expect(parseQueueAddress('redis://queue.local')).toMatchObject({ host: 'queue.local', port: 6379, db: 0 });
    expect(parseQueueAddress('redis://[::1]:7000')).toMatchObject({ host: '::1', port: 7000 });
  });

  it('refuses what is not redis://HOST:PORT[/DB], naming the option', () => {
    expect(() => parseQueueAddress('localhost:6379')).toThrow('--queue: expected redis://HOST:PORT[/DB], got "localhost:6379"');
    expect(() => parseQueueAddress('http://h:1')).toThrow(/only redis:\/\/ is understood/);
    expect(() => parseQueueAddress('redis://h:1/x')).toThrow('--queue: the database in "redis://h:1/x" must be a whole number ≥ 0');
  });
});

describe('a chunk job', () => {
  const good = { run: 'r', chunk: 2, first: 20, moves: [[1, 2], [3, 4]], build: 'b' };
  it('passes whole', () => expect(checkChunkJob(good)).toEqual(good));
  it.each([
    [null, 'not an object'],
    [{ ...good, run: 3 }, 'no run name'],
    [{ ...good, chunk: -1 }, 'chunk is not a whole number ≥ 0'],
    [{ ...good, first: 1.5 }, 'first is not a whole number ≥ 0'],
    [{ ...good, moves: [[1, Number.NaN]] }, 'moves is not a list of number lists'],
    [{ ...good, build: undefined }, 'no build'],
  ])('refuses %j: %s', (data, reason) => {
    expect(() => checkChunkJob(data)).toThrow(`chunk: malformed chunk job: ${reason}`);
  });
});

describe('run names and job ids', () => {
  const record: RunRecord = { geometryPath: 'g', geometryText: 'G', doePath: 'd', doeText: 'D', build: 'b', chunk: 10, variants: 100 };
  it('ids differ when what the run sweeps differs, and agree when it is the same', () => {
    expect(chunkJobId('n', runToken(record), 3)).toBe(chunkJobId('n', runToken({ ...record }), 3));
    for (const change of [{ doeText: 'D2' }, { geometryText: 'G2' }, { build: 'c' }, { chunk: 11 }]) {
      expect(runToken({ ...record, ...change })).not.toBe(runToken(record));
    }
  });
  it('a name is letters, digits, ".", "_" and "-"', () => {
    expect(checkRunName('study-2026.v1_a')).toBe('study-2026.v1_a');
    expect(() => checkRunName('a b')).toThrow('--name: expected 1 to 100 letters, digits, ".", "_" or "-", got "a b"');
    expect(() => checkRunName('a:b')).toThrow(/--name/);
  });
});
