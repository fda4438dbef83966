/** The vehicle simulation's bench case: one generalized-α step of the sedan over an ISO 8608 class C road. */
import { readFileSync } from 'node:fs';
import { nowMs } from './clock';
import { dirname, join, normalize } from 'node:path';
import { readVehicleFile } from '../src/suspension/vehicle/file';
import { readVehicleRun } from '../src/suspension/vehicle/road';
import { prepareVehicleSimulation } from '../src/suspension/vehicle/simulate';
import { prepareSimulation } from '../src/mechanics/simulate';

const ROAD = `
road:
  left: { iso8608: { class: C, seed: 1, speed_kmh: 60, length_m: 100 } }
  right: { iso8608: { class: C, seed: 2, speed_kmh: 60, length_m: 100 } }
`;

/** µs per step at h = 1 ms (Newton to the integrator's tolerances, energy bookkeeping): 100 warm-up steps, then the median of 5 rounds of 100. */
export function vehicleSimStepUs(): number {
  const file = 'examples/vehicles/sedan.vehicle.yaml';
  const text = readFileSync(file, 'utf8') + ROAD;
  const spec = readVehicleFile(text, file, (ref) => {
    const path = normalize(join(dirname(file), ref));
    return { path, text: readFileSync(path, 'utf8') };
  });
  const model = prepareVehicleSimulation(spec, readVehicleRun(text, file, spec));
  const it = prepareSimulation(model.dyn, { lieGroup: 'R3xSO3' }).integrator;
  const h = 0.001;
  let k = 0;
  const step = () => { k++; if (!it.step(h, k * h)) throw new Error(`vehicle_sim_step_us: the step at ${k * h} s failed`); };
  for (let i = 0; i < 100; i++) step();
  const t: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = nowMs();
    for (let i = 0; i < 100; i++) step();
    t.push(((nowMs() - t0) / 100) * 1000);
  }
  t.sort((a, b) => a - b);
  return t[2];
}
