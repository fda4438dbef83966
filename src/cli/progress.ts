/** The command's one progress bar (drive, sweep, plot, report, export). */
import type { CliIO } from './io.ts';

/**
 * A one-line progress counter on a terminal's stderr, redrawn at most every 50 ms
 * (and at the end), erased by `clear`. With `rate`, for long runs (`batch`): the rate per
 * second and the time left follow the count, redrawn at most every 200 ms.
 */
export function progressLine(io: CliIO, what: string, options: { rate?: boolean } = {}): { update: (done: number, total: number) => void; clear: () => Promise<void> } {
  const start = Date.now();
  const every = options.rate ? 200 : 50;
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < every) return;
      last = now;
      drawn = true;
      const width = 30;
      const filled = Math.round((width * done) / total);
      const bar = `\r${what} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
      void io.err(options.rate ? `${bar}${rateAndTimeLeft(done, total, (now - start) / 1000)}\x1b[K` : bar);
    },
    clear: async () => {
      if (drawn) await io.err('\r\x1b[K');
    },
  };
}

/** "  123/s  42 s left" after `seconds` of a run that has done `done` of `total`. */
function rateAndTimeLeft(done: number, total: number, seconds: number): string {
  const rate = done / Math.max(1e-3, seconds);
  const left = rate > 0 ? (total - done) / rate : Infinity;
  return `  ${rate.toFixed(rate < 10 ? 1 : 0)}/s  ${formatSeconds(left)} left`;
}

/** 42 s, 3 min 05 s, 2 h 07 min; "?" before a rate is known. */
function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.ceil(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.round((s % 3600) / 60)).padStart(2, '0')} min`;
}
