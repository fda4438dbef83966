import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 60_000,
    pool: 'threads',
    // Vitest runs one worker fewer than the cores by default: on a 2-core machine, one, and
    // the suite's CPU-bound files then take turns on one core while the other idles (the
    // main thread only collects results). One worker per core, at least two.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
