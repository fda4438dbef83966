/** The vehicle's bench case: one lateral-acceleration state of the sedan solved and evaluated. */
import { readFileSync } from 'node:fs';
import { nowMs } from './clock';
import { dirname, join, normalize } from 'node:path';
import { readVehicleFile } from '../src/suspension/vehicle/file';
import { buildVehicle } from '../src/suspension/vehicle/assembly';
import { solveVehicle } from '../src/suspension/vehicle/analysis';

export function vehicleAyStateMs(): number {
  const file = 'examples/vehicles/sedan.vehicle.yaml';
  const spec = readVehicleFile(readFileSync(file, 'utf8'), file, (ref) => {
    const path = normalize(join(dirname(file), ref));
    return { path, text: readFileSync(path, 'utf8') };
  });
  const m = buildVehicle(spec);
  if (solveVehicle(m, { ax: 0, ay: 0 }).status !== 'solved') throw new Error('vehicle_ay_state_ms: no state at rest');
  const rest = m.dyn.system.snapshot();
  const once = () => {
    m.dyn.system.restore(rest);
    if (solveVehicle(m, { ax: 0, ay: 0.4 }).status !== 'solved') throw new Error('vehicle_ay_state_ms: the 0.4 g state did not converge');
  };
  for (let i = 0; i < 5; i++) once();
  const t: number[] = [];
  for (let i = 0; i < 15; i++) { const t0 = nowMs(); once(); t.push(nowMs() - t0); }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)];
}
