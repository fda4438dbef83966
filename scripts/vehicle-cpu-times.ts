/**
 * CPU time (process.cpuUsage, not the wall clock: on a shared, loaded machine the wall clock
 * of the same run varies 2–3×) of the vehicle's three speed figures, from the sources of a
 * checkout, so that two trees can be measured one after the other:
 *
 *   npx tsx scripts/vehicle-cpu-times.ts [REPO]     (REPO: default this checkout)
 *
 * - ay: one 0.4 g state of the sedan from its state at rest (bench/vehicle-case.ts's case),
 *   median of 41 after 5 warm-ups, ms;
 * - sim: one 1 ms generalized-α step of the sedan over an ISO 8608 class C road
 *   (bench/vehicle-sim-case.ts's case), the median of 5 rounds of 100 steps after 100, µs;
 * - drag: one frame of the viewer's whole-car drag (quick figures, a front pickup moved 1 mm a
 *   frame on both sides), median of 12, ms: on the kept model (src/live/vehicle/kept.ts) where
 *   the checkout has one, else vehicleLiveFrame started from the last frame's state (a new
 *   model each frame, as before it).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';

const repo = resolve(process.argv[2] ?? '.');
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const median = (t: number[]) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)];
const at = (p: string) => join(repo, p);
const SEDAN = at('examples/vehicles/sedan.vehicle.yaml');
const ROAD = '\nroad:\n  left: { iso8608: { class: C, seed: 1, speed_kmh: 60, length_m: 100 } }\n  right: { iso8608: { class: C, seed: 2, speed_kmh: 60, length_m: 100 } }\n';

const { readVehicleFile } = await import(at('src/suspension/vehicle/file.ts'));
const { buildVehicle } = await import(at('src/suspension/vehicle/assembly.ts'));
const { solveVehicle } = await import(at('src/suspension/vehicle/analysis.ts'));
const { readVehicleRun } = await import(at('src/suspension/vehicle/road.ts'));
const { prepareVehicleSimulation } = await import(at('src/suspension/vehicle/simulate.ts'));
const { prepareSimulation } = await import(at('src/mechanics/simulate.ts'));
const live = await import(at('src/live/vehicle/index.ts'));

const readSpec = (text: string) => readVehicleFile(text, SEDAN, (ref: string) => {
  const path = normalize(join(dirname(SEDAN), ref));
  return { path, text: readFileSync(path, 'utf8') };
});

function ayState(): number {
  const m = buildVehicle(readSpec(readFileSync(SEDAN, 'utf8')));
  if (solveVehicle(m, { ax: 0, ay: 0 }).status !== 'solved') throw new Error('no state at rest');
  const rest = m.dyn.system.snapshot();
  const once = () => { m.dyn.system.restore(rest); if (solveVehicle(m, { ax: 0, ay: 0.4 }).status !== 'solved') throw new Error('0.4 g not solved'); };
  for (let i = 0; i < 5; i++) once();
  const t: number[] = [];
  for (let i = 0; i < 41; i++) { const t0 = cpu(); once(); t.push(cpu() - t0); }
  return median(t);
}

function simStep(): number {
  const text = readFileSync(SEDAN, 'utf8') + ROAD;
  const spec = readSpec(text);
  const model = prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec));
  const it = prepareSimulation(model.dyn, { lieGroup: 'R3xSO3' }).integrator;
  let k = 0;
  const step = () => { k++; if (!it.step(0.001, k * 0.001)) throw new Error(`the step at ${k} ms failed`); };
  for (let i = 0; i < 100; i++) step();
  const t: number[] = [];
  for (let r = 0; r < 5; r++) { const t0 = cpu(); for (let i = 0; i < 100; i++) step(); t.push(((cpu() - t0) / 100) * 1000); }
  return median(t);
}

function dragFrame(): number {
  const read = (p: string) => readFileSync(at(`examples/${p}`), 'utf8');
  const files = { 'double_wishbone_axle_front.yaml': read('suspension/double_wishbone_axle_front.yaml'), 'multi_link_axle_rear.yaml': read('suspension/multi_link_axle_rear.yaml') };
  let doc = live.readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), files);
  const pickup = { axle: 'front' as const, name: 'left_lower_wishbone_inboard_front' };
  const kept = live.KeptVehicle ? new live.KeptVehicle() : null;
  const frame = (key: number, start: Float64Array | null) => (kept ? kept.frame(doc, key, { quick: true }) : live.vehicleLiveFrame(doc, key, { quick: true, start }));
  let f = frame(1, null);
  const t: number[] = [];
  for (let i = 0; i < 12; i++) {
    const [x, y, z] = live.vehicleHardpointPosition(doc, pickup);
    doc = live.moveVehicleHardpoint(doc, pickup, [x, y, z + 1], true);
    const t0 = cpu();
    f = frame(2 + i, f.restState);
    t.push(cpu() - t0);
    if (f.error) throw new Error(f.error);
  }
  return median(t);
}

console.log(`${repo}: ay ${ayState().toFixed(2)} ms, sim ${simStep().toFixed(0)} µs, drag ${dragFrame().toFixed(1)} ms (CPU time)`);
