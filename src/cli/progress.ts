/** The command's one progress bar (drive, sweep, plot, report, export). */
import type { CliIO } from './io.ts';

/**
 * A one-line progress counter on a terminal's stderr, redrawn at most every 50 ms
 * (and at the end), erased by `clear`.
 */
export function progressLine(io: CliIO, what: string): { update: (done: number, total: number) => void; clear: () => Promise<void> } {
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < 50) return;
      last = now;
      drawn = true;
      const width = 30;
      const filled = Math.round((width * done) / total);
      void io.err(`\r${what} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    clear: async () => {
      if (drawn) await io.err('\r\x1b[K');
    },
  };
}
