/**
 * Diagnostic of fourbar_drive_step_us (not a case): the case's work in a fresh process, with
 * the same module graph as bench/run.ts (it imports the cases), printing `=== round N` before
 * each drive and each drive's µs a step (CPU time) after, split into the main thread's and the
 * other threads' (V8's compiler and GC helpers; /proc's schedstat), so that a log of
 * `node --trace-opt --trace-deopt --trace-gc` lines up with the drives. R0 is the warm-up
 * drive, R1–R5 the five the case takes the best of. Bundled and run by
 * scripts/fourbar-rounds.mjs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { benchmarks } from './cases';
import { validateAssembly } from '../src/assembly';
import { buildModel } from '../src/model/build';
import { driveModel } from '../src/model/operations';
import { fourBarDoc } from '../examples/fourbar';

const cpuUs = (): number => { const c = process.cpuUsage(); return c.user + c.system; };
/** ns on a CPU of this process's main thread and of its other threads (V8's compiler and GC helpers), from /proc (Linux). */
function threadNs(): [number, number] {
  let main = 0, other = 0;
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      if (Number(tid) === process.pid) main += ns; else other += ns;
    }
  } catch { return [NaN, NaN]; }
  return [main, other];
}
if (!benchmarks.some((b) => b.name === 'fourbar_drive_step_us')) throw new Error('fourbar_drive_step_us is gone');
const times: number[] = [];
for (let r = 0; r < 6; r++) {
  console.log(`=== round ${r}`);
  const m = buildModel(validateAssembly(fourBarDoc(30)));
  const [m0, o0] = threadNs();
  const t0 = cpuUs();
  driveModel(m, 'jA.angle', 30, 390, 360);
  const us = (cpuUs() - t0) / 361;
  const [m1, o1] = threadNs();
  times.push(us);
  console.log(`=== round ${r} done ${us.toFixed(2)} us/step (main thread ${((m1 - m0) / 361e3).toFixed(1)}, other threads ${((o1 - o0) / 361e3).toFixed(1)})`);
}
console.log(`=== best ${Math.min(...times.slice(1)).toFixed(2)} rounds ${times.map((t) => t.toFixed(1)).join(' ')}`);
