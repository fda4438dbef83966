/**
 * How far a vehicle run's Newton stops from the discrete solution: the sedan's bump, ISO road
 * and step steer examples (examples/vehicles/), h = 1 ms, R³ × SO(3), run at the integrator's
 * tolerances and at 1000× tighter ones (|Φ| 1e-13 of the model's size, the dynamic residual
 * 1e-12 of the force scale), side by side; prints the largest difference of the poses'
 * positions (mm), of v (mm/s, rad/s) and of λ (N, N·mm) over the run, sampled every step,
 * for the sources of a checkout:
 *
 *   npx tsx scripts/vehicle-sim-tolerance.ts [DURATION_S] [--repo DIR]
 *
 * (default 0.5 s). docs/dynamics.md: a change that moves where Newton stops must stay
 * within what the tolerance allows, and no worse than before.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--repo');
const repo = resolve(at >= 0 ? args[at + 1] : '.');
const duration = Number(args.find((a, i) => /^[\d.]+$/.test(a) && args[i - 1] !== '--repo') ?? 0.5);
const { readVehicleFile } = await import(join(repo, 'src/suspension/vehicle/file.ts'));
const { readVehicleRun } = await import(join(repo, 'src/suspension/vehicle/road.ts'));
const { prepareVehicleSimulation } = await import(join(repo, 'src/suspension/vehicle/simulate.ts'));
const { prepareSimulation } = await import(join(repo, 'src/mechanics/simulate.ts'));

const h = 0.001, steps = Math.round(duration / h);
for (const example of ['sedan_bump', 'sedan_iso_road', 'sedan_step_steer']) {
  const file = join(repo, `examples/vehicles/${example}.vehicle.yaml`);
  const text = readFileSync(file, 'utf8');
  const spec = readVehicleFile(text, file, (ref: string) => { const path = normalize(join(dirname(file), ref)); return { path, text: readFileSync(path, 'utf8') }; });
  const make = (tight: boolean) => {
    const dyn = prepareVehicleSimulation(spec, readVehicleRun(text, file, spec)).dyn;
    const it = prepareSimulation(dyn, { lieGroup: 'R3xSO3', ...(tight ? { constraintTolerance: 1e-13, residualTolerance: 1e-12 } : {}) }).integrator;
    return { it, state: dyn.system.state as Float64Array, positions: (dyn.system.variables as { kind: string; offset: number; dim: number }[]).flatMap((v) => (v.kind === 'pose' ? [v.offset, v.offset + 1, v.offset + 2] : [v.offset])) };
  };
  const a = make(false), b = make(true);
  let dq = 0, dv = 0, dl = 0, iterations = 0;
  for (let k = 1; k <= steps; k++) {
    if (!a.it.step(h, k * h) || !b.it.step(h, k * h)) throw new Error(`${example}: the step at ${k} ms failed`);
    iterations += a.it.iterations;
    for (const o of a.positions) dq = Math.max(dq, Math.abs(a.state[o] - b.state[o]));
    for (let i = 0; i < a.it.v.length; i++) dv = Math.max(dv, Math.abs(a.it.v[i] - b.it.v[i]));
    for (let i = 0; i < a.it.lambda.length; i++) dl = Math.max(dl, Math.abs(a.it.lambda[i] - b.it.lambda[i]));
  }
  console.log(`${example}, ${steps} steps (${(iterations / steps).toFixed(2)} evaluations a step): positions within ${dq.toExponential(2)} mm, v within ${dv.toExponential(2)}, λ within ${dl.toExponential(2)} of the run at 1000× tighter tolerances`);
}
