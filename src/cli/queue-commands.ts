/**
 * `kinemate worker` and the queued form of `kinemate batch` (`--queue URL`): a design study
 * spread over every machine that can reach one Redis (docs/queue.md).
 */
import { parseCommandArgs, parseCount, requiredOption, stringOption, type ParsedArgs } from './args.ts';
import type { Command } from './command.ts';
import { CliError, type CliIO } from './io.ts';
import { readTextFile } from './files.ts';
import { writeBatchCsv } from './batch-output.ts';
import { parseQueueAddress } from '../suspension/design/queue-connection.ts';
import { checkRunName } from '../suspension/design/queue-protocol.ts';
import { doeSweepPath, inlineDoeSweep } from '../suspension/design/doe-sweep.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
// bullmq and ioredis are loaded only by these two commands (imported where used), not at every command's start

/** `batch GEOMETRY --doe FILE --queue URL [--name RUN] [--chunk N] [--out FILE]`: exit 2 when a variant failed. */
export async function queuedBatch(args: ParsedArgs, io: CliIO, paths: { geometry: string; doe: string; out?: string }): Promise<number> {
  const address = parseQueueAddress(stringOption(args, 'queue')!);
  const nameText = stringOption(args, 'name');
  const chunkText = stringOption(args, 'chunk');
  const geometryText = await readTextFile(paths.geometry, 'geometry');
  // a sweep file the DOE names is read here and stored in the run, so every worker sweeps the same
  const doeFileText = await readTextFile(paths.doe, 'DOE');
  refuseOverwritingInputs('batch', '--out', paths.out, [['sweep', doeSweepPath(doeFileText, paths.doe)]]);
  const doeText = await inlineDoeSweep(doeFileText, paths.doe, (path) => readTextFile(path, 'sweep'));
  const { runQueuedBatch } = await import('../suspension/design/queued-batch.ts');
  return writeBatchCsv(io, paths.out, (sink) => runQueuedBatch({
    address, geometryPath: paths.geometry, geometryText, doePath: paths.doe, doeText,
    ...(nameText !== undefined ? { name: checkRunName(nameText) } : {}),
    ...(chunkText !== undefined ? { chunk: parseCount(chunkText, '--chunk', 1) } : {}),
    ...sink,
  }));
}

export const workerCommand: Command = {
  name: 'worker',
  synopsis: 'worker --queue redis://HOST:PORT[/DB] [--concurrency N]',
  summary: 'take queued batch chunks from Redis and sweep them (a design study on many machines)',
  help: `Usage: kinemate worker --queue redis://HOST:PORT[/DB] [--concurrency N] [--lock MS]

Takes chunks of variants that \`kinemate batch … --queue\` put on the queue, sweeps them
with the same code as the local batch, and returns their rows. Run one per machine; every
machine must run the same build of Kinemate on the same Node version (a chunk from another
build is refused, and its coordinator stops saying so). docs/queue.md.

Options:
  --queue URL        the Redis server (redis://HOST:PORT[/DB]; port 6379, database 0 by default)
  --concurrency N    chunks swept at once, each on its own thread (default: one per core)
  --lock MS          how long a chunk stays locked without renewal (default 30000): the
                     chunk of a worker killed mid-chunk is taken by another after about this
  -h, --help         this text

SIGTERM or SIGINT: stops taking chunks, finishes those it holds, and exits 0.
Exit codes: 0 stopped by a signal; 1 bad input or the queue cannot be reached.
`,
  async run(argv, io) {
    const args = parseCommandArgs('worker', argv, { queue: { type: 'string' }, concurrency: { type: 'string' }, lock: { type: 'string' } });
    if (args.positionals.length > 0) throw new CliError(`worker: unexpected argument "${args.positionals[0]}"; worker takes options only`);
    const queue = requiredOption('worker', args, 'queue', 'redis://HOST:PORT[/DB]');
    const concurrency = stringOption(args, 'concurrency');
    const lock = stringOption(args, 'lock');
    const { startQueueWorker } = await import('../suspension/design/queue-worker.ts');
    const worker = await startQueueWorker({
      address: parseQueueAddress(queue),
      ...(concurrency !== undefined ? { concurrency: parseCount(concurrency, '--concurrency', 1) } : {}),
      ...(lock !== undefined ? { lockMs: parseCount(lock, '--lock', 100) } : {}),
      log: (line) => { void io.err(`worker: ${line}\n`); },
    });
    await io.err(`worker: taking chunks from ${queue}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => { process.off('SIGTERM', stop); process.off('SIGINT', stop); resolve(); };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    await io.err('worker: stopping: finishing the chunks held\n');
    await worker.close();
    return 0;
  },
};
