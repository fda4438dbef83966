/**
 * The solver's hot functions are not sent back to the interpreter in a fresh process once
 * past the first frames of a drag and the first drive: no code that only ran after V8
 * optimised its function (a store after a loop entered by on-stack replacement, a loop
 * update or a comparison first reached mid-drag, a `new` that ran before feedback was
 * kept), and no loop whose on-stack-replacement code, made on one linear-algebra path, is
 * entered again on the other (46 deopts a four-bar drive after a chain's drag). Each cost
 * the interpreter's speed until a recompile, in the frames a user's first drag is made of.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./deopt-run.ts', import.meta.url));
/**
 * The solver's functions a drag or a drive runs at every step. (newton holds the chord
 * trial since session 18; its rejected chord's restore, a call first made mid-drive once,
 * came before newton was optimised in every traced process: this test holds newton to it.)
 */
const HOT = ['normalise', 'refinedPull', 'refinedNewton', 'newton', 'fullStep', 'dragIterations', 'factor', 'solve', 'moveTo'];

/** Function → deopts past the first frames and drive, and the hot ones that deopted for want of feedback. */
function bailoutsPastStart(v8Flags: string[]): { count: Map<string, number>; starved: string[] } {
  const run = spawnSync(process.execPath, ['--trace-deopt', ...v8Flags, '--import', 'tsx', SCRIPT], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain('done');
  // past the first frames and drive (marked by the script)
  let settled = false;
  const bailouts = run.stdout.split('\n').filter((l) => {
    if (l === '=== settled' || l === '=== unsettled') settled = l === '=== settled';
    return settled && l.includes('bailout (kind:');
  });
  const name = (l: string) => /<JSFunction (\S+)/.exec(l)?.[1] ?? '';
  const starved = bailouts.filter((l) => l.includes('Insufficient type feedback')).map(name).filter((f) => HOT.includes(f));
  const count = new Map<string, number>();
  for (const l of bailouts) count.set(name(l), (count.get(name(l)) ?? 0) + 1);
  return { count, starved };
}

describe('a fresh process', () => {
  it('drags the 100-link chain and drives the four-bar with no deopt of the solver for want of feedback, and no deopt loop', () => {
    const { count, starved } = bailoutsPastStart([]);
    expect(starved).toEqual([]);
    expect([...count].filter(([, k]) => k > 2)).toEqual([]);
  });

  // V8 compiles a long loop by on-stack replacement when its function is already queued for
  // optimisation; how soon depends on the machine's timing. Asking for it after 50 calls
  // instead of 500 makes the case that came up once in CI every time: the sparse rows'
  // loop compiled in a 100-link pattern's first pass, before the row cache's store after it
  // had run, entered and thrown away again at every later call (56–102 deopts).
  it('has no deopt loop when V8 compiles loops by on-stack replacement early', () => {
    const { count } = bailoutsPastStart(['--invocation-count-for-osr=50']);
    expect([...count].filter(([, k]) => k > 2)).toEqual([]);
  });
});
