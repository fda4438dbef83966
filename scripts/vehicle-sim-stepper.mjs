/**
 * The bench's vehicle simulation (bench/vehicle-sim-case.ts: the sedan over an ISO 8608 class C
 * road, h = 1 ms, R³ × SO(3)) of one checkout, for the scripts that time or profile it
 * (vehicle-sim-ab.mjs, vehicle-sim-alloc.mjs): its sources bundled by esbuild (packages left as
 * imports, resolved from the calling checkout's node_modules) into OUT/NAME.mjs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** makeStepper of REPO's bundle: each call a fresh model and its integrator (the stepper's `integrator`), stepped n at a time. */
export async function bundleStepper(repo, out, name) {
  const src = join(out, `${name}.ts`), bundle = join(out, `${name}.mjs`);
  writeFileSync(src, entry(repo));
  await build({ entryPoints: [src], bundle: true, platform: 'node', format: 'esm', outfile: bundle, packages: 'external', logLevel: 'error', define: { 'process.env.KINEMATE_BUILT': '"1"' } });
  return (await import(pathToFileURL(bundle).href)).makeStepper;
}

/** The stepper module of one checkout: a fresh model and its integrator, stepped n at a time. */
function entry(repo) {
  const at = (p) => JSON.stringify(join(repo, p));
  return `import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { readVehicleFile } from ${at('src/suspension/vehicle/file')};
import { readVehicleRun } from ${at('src/suspension/vehicle/road')};
import { prepareVehicleSimulation } from ${at('src/suspension/vehicle/simulate')};
import { prepareSimulation } from ${at('src/mechanics/simulate')};
const ROAD = '\\nroad:\\n  left: { iso8608: { class: C, seed: 1, speed_kmh: 60, length_m: 100 } }\\n  right: { iso8608: { class: C, seed: 2, speed_kmh: 60, length_m: 100 } }\\n';
export function makeStepper() {
  const file = ${at('examples/vehicles/sedan.vehicle.yaml')};
  const text = readFileSync(file, 'utf8') + ROAD;
  const spec = readVehicleFile(text, file, (ref) => { const path = normalize(join(dirname(file), ref)); return { path, text: readFileSync(path, 'utf8') }; });
  const it = prepareSimulation(prepareVehicleSimulation(spec, readVehicleRun(text, file, spec)).dyn, { lieGroup: 'R3xSO3' }).integrator;
  let k = 0;
  const step = (n) => { for (let i = 0; i < n; i++) { k++; if (!it.step(0.001, k * 0.001)) throw new Error('the step at ' + k + ' ms failed'); } };
  step.integrator = it;
  return step;
}
`;
}
