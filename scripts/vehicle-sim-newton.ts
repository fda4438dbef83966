/**
 * Newton's work per step of the vehicle simulation's bench case (bench/vehicle-sim-case.ts:
 * the sedan over an ISO 8608 road at 60 km/h, h = 1 ms, R³ × SO(3)), from the sources of a
 * checkout: iterations and LU factorisations a step (the Integrator's `iterations` and
 * `factorisations`), how many steps took each number of iterations, and CPU µs a step
 * (process.cpuUsage; tsx's, slower than the bundled bench's, for comparing two trees):
 *
 *   npx tsx scripts/vehicle-sim-newton.ts [STEPS] [--class C] [--repo DIR]
 *
 * 100 warm-up steps first, then STEPS (default 1000; the 100 m road lasts 6 s, 5900 steps).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const repo = resolve(option('--repo', '.'));
const roadClass = option('--class', 'C');
const steps = Number(args.find((a, i) => /^\d+$/.test(a) && !['--class', '--repo'].includes(args[i - 1])) ?? 1000);
const SEDAN = join(repo, 'examples/vehicles/sedan.vehicle.yaml');
const ROAD = `\nroad:\n  left: { iso8608: { class: ${roadClass}, seed: 1, speed_kmh: 60, length_m: 100 } }\n  right: { iso8608: { class: ${roadClass}, seed: 2, speed_kmh: 60, length_m: 100 } }\n`;

const { readVehicleFile } = await import(join(repo, 'src/suspension/vehicle/file.ts'));
const { readVehicleRun } = await import(join(repo, 'src/suspension/vehicle/road.ts'));
const { prepareVehicleSimulation } = await import(join(repo, 'src/suspension/vehicle/simulate.ts'));
const { prepareSimulation } = await import(join(repo, 'src/mechanics/simulate.ts'));

const text = readFileSync(SEDAN, 'utf8') + ROAD;
const spec = readVehicleFile(text, SEDAN, (ref: string) => {
  const path = normalize(join(dirname(SEDAN), ref));
  return { path, text: readFileSync(path, 'utf8') };
});
const model = prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec));
const it = prepareSimulation(model.dyn, { lieGroup: 'R3xSO3' }).integrator;
let k = 0, iterations = 0;
const counts = new Map<number, number>();
const step = (): void => {
  k++;
  if (!it.step(0.001, k * 0.001)) throw new Error(`the step at ${k} ms failed`);
  iterations += it.iterations;
  counts.set(it.iterations, (counts.get(it.iterations) ?? 0) + 1);
};
for (let i = 0; i < 100; i++) step();
iterations = 0; counts.clear();
const factorisations = it.factorisations, t0 = process.cpuUsage();
for (let i = 0; i < steps; i++) step();
const t = process.cpuUsage(t0);
const histogram = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([n, c]) => `${n}: ${c}`).join(', ');
console.log(`${repo}, class ${roadClass}, ${steps} steps: ${(iterations / steps).toFixed(3)} iterations and ${((it.factorisations - factorisations) / steps).toFixed(3)} factorisations a step (steps by iterations: ${histogram}); ${((t.user + t.system) / steps).toFixed(0)} µs a step (CPU, tsx)`);
