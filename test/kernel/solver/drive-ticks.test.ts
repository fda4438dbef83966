/**
 * A fresh process's four-bar drives keep V8's count towards optimising the drive's
 * once-a-step functions from one drive to the next. V8 sets a function's count back to zero
 * whenever its feedback changes; feedback first seen at the second drive (a path only a
 * drive's first step runs, made before the function kept feedback; a second drive's new
 * closures; an options object of another shape) threw the first drive's ticks away, and
 * these functions were optimised a drive later, in the drives fourbar_drive_step_us times
 * (docs/solver-warm-up.md). V8 prints the count at every tick under --trace-opt-verbose:
 * it must rise each time until the function is marked for optimisation (a reset shows as a
 * fall: 1, 2, 3, then 1 again on the drive code before this test; by one a tick as a rule, but
 * a tick V8 does not print happens on a loaded machine: 1, 3, 4 in one CI run). driveLoop,
 * the generator that runs a drive's steps, is one of them: the steps ran in driveSteps
 * itself until session 14, whose count fell 6 → 1 at the second drive (its checks, hold and
 * first state's solve run before V8 keeps feedback for the first drive's generator).
 * (Continuation.accept was one of them; since session 14 its work is in moveTo.)
 * Two printed ticks are the fewest that can show a fall: modelState is marked at its fourth
 * tick, so it prints three, and a tick the loaded machine does not print left two.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./drive-ticks-run.ts', import.meta.url));
const ONCE_A_STEP = ['moveTo', 'solve', 'modelState', 'driveLoop'];

describe('a fresh process driving the four-bar', () => {
  it('keeps the tick counts of moveTo, solve, modelState and driveLoop from one drive to the next', () => {
    const run = spawnSync(process.execPath, ['--trace-opt-verbose', '--import', 'tsx', SCRIPT], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('done');
    for (const name of ONCE_A_STEP) {
      const ticks: number[] = [];
      for (const line of run.stdout.split('\n')) {
        if (line.includes(`<JSFunction ${name} `) && line.startsWith('[marking')) break;
        const m = new RegExp(`^\\[not yet optimizing ${name}, not enough ticks: (\\d+)/`).exec(line);
        if (m) ticks.push(Number(m[1]));
      }
      expect(ticks.length, `${name}: ticks reported`).toBeGreaterThanOrEqual(2);
      const falls = ticks.flatMap((t, i) => (i > 0 && t <= ticks[i - 1] ? [`${ticks[i - 1]} → ${t}`] : []));
      expect(falls, `${name}: ${ticks.join(', ')}`).toEqual([]);
    }
  });
});
