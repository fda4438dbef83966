/**
 * Run by deopt.test.ts under `node --trace-deopt`: a fresh process's first drag of the
 * 100-link chain (the sparse path) and first four-bar drives (the dense path), the work
 * the bench's chain100_drag_frame_ms and fourbar_drive_step_us time before V8 has settled.
 * `=== settled` and `=== unsettled` lines mark the parts past the first frames and drive
 * (a function's first calls may deopt once, as V8 happens to time its compile).
 */
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { driveModel } from '../../../src/model/operations';
import { solve } from '../../../kernel/solver/solve';
import * as P from '../../../kernel/pose';
import { chainDoc } from '../../../bench/models';
import { fourBarDoc } from '../../../examples/fourbar';

const chain = buildModel(validateAssembly(chainDoc(99, (3.6 * Math.PI) / 180)));
const tip = chain.parts.get('link99')!;
const p = P.applyPoint(new Float64Array(3), chain.system.getPose(tip), [1, 0, 0]);
for (let f = 0; f < 40; f++) {
  const target = [p[0] - 0.3 + 0.3 * Math.cos(f / 20), p[1] + 0.3 * Math.sin(f / 20), 0];
  if (!solve(chain.system, { pulls: [{ variable: tip, point: [1, 0, 0], target }] }).converged) throw new Error(`chain frame ${f} failed`);
  if (f === 5) console.log('=== settled');
}
console.log('=== unsettled');
for (let r = 0; r < 3; r++) {
  const steps = driveModel(buildModel(validateAssembly(fourBarDoc(30))), 'jA.angle', 30, 390, 360).steps;
  if (steps.length !== 361 || steps.some((s) => s.status !== 'solved')) throw new Error(`drive ${r} failed`);
  if (r === 0) console.log('=== settled');
}
console.log('done');
