/**
 * The whole car's step reaches its final optimised code within the bench's 100 steps of
 * warm-up (docs/vehicle-dynamics.md, Session 17): the integrator's Newton iteration holds no
 * code first reached after V8 optimised it. At Session 16's end `attempt` (the whole Newton
 * loop) was deoptimised twice for want of type feedback, at the first deferred refactor
 * (`it > 0` after `fresh &&`) and at the first refactor keeping K and C (the inlined
 * residual's `blockN` read), each a recompile of its 1632 bytes and what it inlines.
 * Synchronous compiles make the steps where V8 optimises independent of the machine's load.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./step-deopt-run.ts', import.meta.url));
/** The integrator's functions of every step (kernel/integrator/integrator.ts, iteration.ts). */
const STEP = ['step', 'advance', 'attempt', 'iterate', 'refreshMatrix', 'residual', 'deferredMatrix'];
/**
 * The matrix's and the LU's functions, none deoptimised for want of feedback at all: at
 * Session 17's start `writeDynamic` (the inlined forceProducts' kcInv), `placeOf` and
 * `refactorCompact` (a kept list's fields) once each in steps 23–36, `neighbours` (the OSR
 * compile of its first n² pass, reused) twice at each of the four analyses; at Session 18's,
 * `refactor` (its entry scales, first read at the first scaled refactor). The matrix written in
 * place of the factors (Session 18): `placeList` (a list's fields, as refactorCompact's),
 * `factorDeclined` (the OSR compile of its copy, reused at each decline: three before writeOut).
 */
const SETTLED = [
  'writeDynamic', 'forceProducts', 'placeOf', 'neighbours', 'refactor',
  'factorFused', 'placeCompact', 'placeList', 'directTo', 'writeOutside', 'refactorPlaced', 'factorDeclined', 'writeOut',
];
/**
 * Functions of the step that TurboFan must not mark for a compile of their own in the bench's
 * five timed rounds (steps 101–600): at Session 18's start the integrator's `setTime` (~step
 * 480), the bushing's `rates` and `atRest` (rounds 1–2), ForceSet's `refresh` (called through
 * the energy account's slotsOf and offsetsOf), and, once setTime's loop was in `iterate`,
 * `retract` and `followProduct` (out of iterate's inlining budget): each a small function
 * called from optimised code without being inlined, compiled when its own ticks came.
 */
const INLINE = ['setTime', 'rates', 'atRest', 'refresh', 'retract', 'followProduct'];

describe('the whole car in a fresh process', () => {
  it('deoptimises the step for want of type feedback at most once a function, and not past the warm-up; the matrix and the LU not at all; compiles none of INLINE on its own in the timed rounds', () => {
    const run = spawnSync(process.execPath, ['--trace-deopt', '--trace-opt', '--no-concurrent-recompilation', '--import', 'tsx', SCRIPT], { encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('done');
    let phase = '';
    const starved: string[] = [], settled: string[] = [], timed: string[] = [];
    for (const l of run.stdout.split('\n')) {
      if (l.startsWith('=== ')) phase = l.slice(4);
      const name = /<JSFunction (\S+)/.exec(l)?.[1] ?? '';
      if (phase === 'warm' && l.startsWith('[marking') && INLINE.includes(name)) timed.push(name);
      const hungry = phase !== '' && l.includes('bailout (kind:') && l.includes('Insufficient type feedback');
      if (hungry && STEP.includes(name)) starved.push(`${name} (${phase})`);
      if (hungry && SETTLED.includes(name)) settled.push(`${name} (${phase})`);
    }
    expect(settled).toEqual([]);
    expect(timed, 'compiled on its own in the timed rounds').toEqual([]);
    expect(starved.filter((s) => s.endsWith('(warm)'))).toEqual([]);
    const count = new Map<string, number>();
    for (const s of starved) count.set(s, (count.get(s) ?? 0) + 1);
    expect([...count].filter(([, k]) => k > 1)).toEqual([]);
  }, 180_000);
});
