/**
 * Where a batch's CSV goes (local or queued alike): the --out file or stdout, with the
 * batch's progress bar (count, rate, time left) on a terminal; exit 2 when a variant failed.
 */
import { open } from './fs-lazy.ts';
import type { CliIO } from './io.ts';
import { progressLine } from './progress.ts';

export interface BatchSink {
  write: (text: string) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
}

export async function writeBatchCsv(io: CliIO, outPath: string | undefined, run: (sink: BatchSink) => Promise<{ failed: number }>): Promise<number> {
  const file = outPath ? await open(outPath, 'w') : null;
  const progress = io.stderrIsTTY ? progressLine(io, 'batch', { rate: true }) : null;
  try {
    const result = await run({
      write: async (text) => { if (file) await file.write(text); else await io.out(text); },
      ...(progress ? { onProgress: progress.update } : {}),
    });
    await progress?.clear();
    return result.failed > 0 ? 2 : 0;
  } finally {
    await file?.close();
  }
}
