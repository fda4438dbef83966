/**
 * The vehicle simulation's refactor and solve alone, two checkouts interleaved in one process
 * (docs/vehicle-dynamics.md, "Session 13"): steps the bench case (bench/vehicle-sim-case.ts: the
 * sedan over the class C road, h = 1 ms, R³ × SO(3)) with this checkout's sources, keeps the
 * iteration matrix of its last factorisation (its compact list, integrator/pattern.ts), then
 * times each checkout's OrderedLU (kernel/lu-ordered.ts) on it, in turn: a refactor from the
 * list (`factorCompact` where the checkout has it, else `factor` of the n² matrix with the
 * list, as its integrator calls it) and a solve, CPU time (process.cpuUsage), medians of the
 * rounds. Prints whether the two solutions are the same to the bit.
 *
 *   npx tsx scripts/vehicle-sim-factor.ts OTHER_CHECKOUT [ROUNDS] [STEPS]     (default 12 rounds, 300 steps)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';

const [otherArg, roundsArg, stepsArg] = process.argv.slice(2);
if (!otherArg) { console.error('usage: npx tsx scripts/vehicle-sim-factor.ts OTHER_CHECKOUT [ROUNDS] [STEPS]'); process.exit(1); }
const here = resolve('.'), other = resolve(otherArg), rounds = Number(roundsArg ?? 12), steps = Number(stepsArg ?? 300);
const SEDAN = join(here, 'examples/vehicles/sedan.vehicle.yaml');
const ROAD = '\nroad:\n  left: { iso8608: { class: C, seed: 1, speed_kmh: 60, length_m: 100 } }\n  right: { iso8608: { class: C, seed: 2, speed_kmh: 60, length_m: 100 } }\n';
const { readVehicleFile } = await import(join(here, 'src/suspension/vehicle/file.ts'));
const { readVehicleRun } = await import(join(here, 'src/suspension/vehicle/road.ts'));
const { prepareVehicleSimulation } = await import(join(here, 'src/suspension/vehicle/simulate.ts'));
const { prepareSimulation } = await import(join(here, 'src/mechanics/simulate.ts'));

const text = readFileSync(SEDAN, 'utf8') + ROAD;
const spec = readVehicleFile(text, SEDAN, (ref: string) => { const path = normalize(join(dirname(SEDAN), ref)); return { path, text: readFileSync(path, 'utf8') }; });
const integrator = prepareSimulation(prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec)).dyn, { lieGroup: 'R3xSO3' }).integrator;
for (let k = 1; k <= steps; k++) if (!integrator.step(0.001, k * 0.001)) throw new Error(`the step at ${k} ms failed`);
const pattern = (integrator as unknown as { lin: { pattern: { entries: Int32Array; values: Float64Array } | null } }).lin.pattern;
if (!pattern) throw new Error('the car\'s matrix has no compact pattern in this checkout');
const entries = pattern.entries.slice(), values = pattern.values.slice(), n = integrator.size + integrator.activeRows().length;
const dense = new Float64Array(n * n);
entries.forEach((e, k) => { dense[e] = values[k]; });

interface Factoring { factor(A: Float64Array, n: number, tol: number, list: Int32Array, count: number): boolean; factorCompact?(v: Float64Array, list: Int32Array, d: Float64Array, n: number, tol: number): boolean; solve(b: Float64Array): void; pivoted: number }
const luOf = async (repo: string): Promise<{ refactor: () => void; lu: Factoring }> => {
  const { OrderedLU } = await import(join(repo, 'kernel/lu-ordered.ts'));
  const lu: Factoring = new OrderedLU(n, true, true), work = new Float64Array(n * n);
  const refactor = lu.factorCompact ? () => { lu.factorCompact!(values, entries, work, n, 1e-15); } : () => { lu.factor(dense, n, 1e-15, entries, entries.length); };
  refactor(); refactor();
  return { refactor, lu };
};
const sides = [await luOf(other), await luOf(here)];
const b0 = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1)), x = sides.map(() => b0.slice());
sides.forEach((s, i) => s.lu.solve(x[i]));
let worst = 0;
for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(x[1][i] - x[0][i]) / Math.abs(x[0][i]));
console.log(`matrix ${n} × ${n}, ${entries.length} listed entries; pivoting LUs ${sides.map((s) => s.lu.pivoted).join(' / ')}; solutions ${worst === 0 ? 'the same to the bit' : `differ by ${worst.toExponential(2)} relative`}`);

const cpu = (): number => { const u = process.cpuUsage(); return u.user + u.system; };
const median = (v: number[]): number => [...v].sort((a, c) => a - c)[v.length >> 1];
const REPS = 400, tf: number[][] = [[], []], ts: number[][] = [[], []], b = b0.slice();
for (let r = 0; r < rounds; r++) {
  for (const w of r % 2 ? [1, 0] : [0, 1]) {
    const s = sides[w];
    let t0 = cpu();
    for (let q = 0; q < REPS; q++) s.refactor();
    tf[w].push((cpu() - t0) / REPS);
    t0 = cpu();
    for (let q = 0; q < 10 * REPS; q++) { b.set(b0); s.lu.solve(b); }
    ts[w].push((cpu() - t0) / (10 * REPS));
  }
}
const ratio = (t: number[][]): string => median(t[1].map((v, i) => v / t[0][i])).toFixed(3);
console.log(`refactor A ${median(tf[0]).toFixed(1)} µs, B ${median(tf[1]).toFixed(1)} µs (median B/A ${ratio(tf)}); solve A ${median(ts[0]).toFixed(2)} µs, B ${median(ts[1]).toFixed(2)} µs (median B/A ${ratio(ts)})  (A: ${other}, B: ${here})`);
