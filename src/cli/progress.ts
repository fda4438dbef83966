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

/** As progressLine, with the rate (per second) and the time left, for long runs (`batch`). */
export function rateProgressLine(io: CliIO, what: string): { update: (done: number, total: number) => void; clear: () => Promise<void> } {
  const start = Date.now();
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < 200) return;
      last = now;
      drawn = true;
      const seconds = Math.max(1e-3, (now - start) / 1000);
      const rate = done / seconds;
      const left = rate > 0 ? (total - done) / rate : Infinity;
      const width = 30;
      const filled = Math.round((width * done) / total);
      void io.err(`\r${what} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  ${rate.toFixed(rate < 10 ? 1 : 0)}/s  ${formatSeconds(left)} left\x1b[K`);
    },
    clear: async () => {
      if (drawn) await io.err('\r\x1b[K');
    },
  };
}

/** 42 s, 3 min 05 s, 2 h 07 min; "?" before a rate is known. */
function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.ceil(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.round((s % 3600) / 60)).padStart(2, '0')} min`;
}
