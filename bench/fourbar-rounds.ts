/**
 * Diagnostic of fourbar_drive_step_us (not a case): the case's work in a fresh process, with
 * the same module graph as bench/run.ts (it imports the cases), printing `=== round N` before
 * each drive and each drive's µs a step (CPU time) after, so that a log of
 * `node --trace-opt --trace-deopt --trace-gc` lines up with the drives. R0 is the warm-up
 * drive, R1–R5 the five the case takes the best of. Bundled and run by
 * scripts/fourbar-rounds.mjs.
 */
import { benchmarks } from './cases';
import { validateAssembly } from '../src/assembly';
import { buildModel } from '../src/model/build';
import { driveModel } from '../src/model/operations';
import { fourBarDoc } from '../examples/fourbar';

const cpuUs = (): number => { const c = process.cpuUsage(); return c.user + c.system; };
if (!benchmarks.some((b) => b.name === 'fourbar_drive_step_us')) throw new Error('fourbar_drive_step_us is gone');
const times: number[] = [];
for (let r = 0; r < 6; r++) {
  console.log(`=== round ${r}`);
  const m = buildModel(validateAssembly(fourBarDoc(30)));
  const t0 = cpuUs();
  driveModel(m, 'jA.angle', 30, 390, 360);
  const us = (cpuUs() - t0) / 361;
  times.push(us);
  console.log(`=== round ${r} done ${us.toFixed(2)} us/step`);
}
console.log(`=== best ${Math.min(...times.slice(1)).toFixed(2)} rounds ${times.map((t) => t.toFixed(1)).join(' ')}`);
