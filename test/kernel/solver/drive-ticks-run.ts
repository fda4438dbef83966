/**
 * Run by drive-ticks.test.ts under `node --trace-opt-verbose`: a fresh process's first
 * four-bar drives, nothing else (the work fourbar_drive_step_us times). V8 prints a
 * function's tick count towards optimisation at every tick; `=== drive N` lines mark the
 * drives.
 */
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { driveModel } from '../../../src/model/operations';
import { fourBarDoc } from '../../../examples/fourbar';

for (let r = 0; r < 3; r++) {
  console.log(`=== drive ${r}`);
  const steps = driveModel(buildModel(validateAssembly(fourBarDoc(30))), 'jA.angle', 30, 390, 360).steps;
  if (steps.length !== 361 || steps.some((s) => s.status !== 'solved')) throw new Error(`drive ${r} failed`);
}
console.log('done');
