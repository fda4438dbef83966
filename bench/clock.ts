/**
 * ms now for the cases timed in their own files: the wall clock, or with BENCH_CLOCK=cpu this
 * process's CPU time (user + system, µs resolution), as bench/cases.ts: on a machine shared
 * by many jobs the wall clock counts the time others ran.
 */
export function nowMs(): number {
  if (process.env.BENCH_CLOCK !== 'cpu') return performance.now();
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}
