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

/**
 * Each piece (name → make(integrator) → the function to time) of two checkouts' integrators in
 * turn, 2000 calls a round, who goes first alternating, CPU time (process.cpuUsage): prints the
 * medians in µs a call (A: its[0], B: its[1]) and of the rounds' B/A.
 */
export function timeInterleaved(its, pieces, rounds, width = 5) {
  const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
  const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
  for (const [name, make] of Object.entries(pieces)) {
    const fns = its.map(make), t = [[], []];
    for (let r = 0; r < rounds; r++) {
      for (const w of r % 2 ? [1, 0] : [0, 1]) { const f = fns[w], t0 = cpu(); for (let k = 0; k < 2000; k++) f(); t[w].push((cpu() - t0) / 2000); }
    }
    console.log(`${name.padEnd(width)} A ${median(t[0]).toFixed(3)} µs, B ${median(t[1]).toFixed(3)} µs; median of B/A ${median(t[1].map((x, i) => x / t[0][i])).toFixed(3)}`);
  }
}
