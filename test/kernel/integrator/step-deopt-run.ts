/**
 * Run by step-deopt.test.ts under `node --trace-deopt --trace-opt --no-concurrent-recompilation`: the
 * bench's whole car (bench/vehicle-sim-case.ts: the sedan over the class C road, h = 1 ms,
 * R³ × SO(3)) in a fresh process, 100 steps of warm-up (the bench's) marked `=== warm`, then
 * 500 more (the bench's five timed rounds), `=== after` past them. Compiled synchronously, V8
 * optimises each function at the same step whatever the machine's load, so where a deopt or a
 * compile falls is the code's doing, not the compiler thread's.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { readVehicleFile } from '../../../src/suspension/vehicle/file';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation } from '../../../src/suspension/vehicle/simulate';
import { prepareSimulation } from '../../../src/mechanics/simulate';

const ROAD = `
road:
  left: { iso8608: { class: C, seed: 1, speed_kmh: 60, length_m: 100 } }
  right: { iso8608: { class: C, seed: 2, speed_kmh: 60, length_m: 100 } }
`;
const file = 'examples/vehicles/sedan.vehicle.yaml';
const text = readFileSync(file, 'utf8') + ROAD;
const spec = readVehicleFile(text, file, (ref) => {
  const path = normalize(join(dirname(file), ref));
  return { path, text: readFileSync(path, 'utf8') };
});
const it = prepareSimulation(prepareVehicleSimulation(spec, readVehicleRun(text, file, spec)).dyn, { lieGroup: 'R3xSO3' }).integrator;
console.log('=== warm-up');
for (let k = 1; k <= 600; k++) {
  if (!it.step(0.001, k * 0.001)) throw new Error(`the step at ${k} ms failed`);
  if (k === 100) console.log('=== warm');
  if (k === 600) console.log('=== after');
}
console.log('done');
