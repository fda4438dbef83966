#!/usr/bin/env node
/**
 * A small example's simulation step (the bench's simulationStepUs: h = 1 ms, R³ × SO(3), one run
 * stepped on) of two checkouts, interleaved in one process:
 *
 *   node scripts/small-sim-ab.mjs OTHER_CHECKOUT [EXAMPLE] [ROUNDS]   (default examples/pendulum.kinemate.json, 15 rounds)
 *
 * As the bench: 2000 steps of warm-up, then rounds of 2000 steps; here the two checkouts' runs
 * take their rounds in turn (who goes first alternating), so the machine's load falls on both
 * alike. CPU time (process.cpuUsage). Each checkout's sources are bundled by esbuild into
 * node_modules/.cache/small-sim-ab/ of this checkout (nothing is written to the other).
 * Prints the medians of µs a step (A: OTHER_CHECKOUT, B: this one) and of the rounds' B/A.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const [otherArg, exampleArg, roundsArg] = process.argv.slice(2);
if (!otherArg) { console.error('usage: node scripts/small-sim-ab.mjs OTHER_CHECKOUT [EXAMPLE] [ROUNDS]'); process.exit(1); }
const other = resolve(otherArg), example = exampleArg ?? 'examples/pendulum.kinemate.json', rounds = Number(roundsArg ?? 15);
const out = join(here, 'node_modules/.cache/small-sim-ab');
mkdirSync(out, { recursive: true });

/** The stepper module of one checkout: the example's integrator, stepped n at a time. */
function entry(repo) {
  const at = (p) => JSON.stringify(join(repo, p));
  return `import { readFileSync } from 'node:fs';
import { parseAssembly } from ${at('src/assembly/load')};
import { prepareSimulation } from ${at('src/mechanics/simulate')};
export function makeStepper(file) {
  const it = prepareSimulation(parseAssembly(readFileSync(file, 'utf8')), { lieGroup: 'R3xSO3' }).integrator;
  return (n) => { for (let i = 0; i < n; i++) if (!it.step(0.001)) throw new Error(file + ': a step failed'); };
}
`;
}

const makers = [];
for (const [name, repo] of [['a', other], ['b', here]]) {
  const src = join(out, `${name}.ts`), bundle = join(out, `${name}.mjs`);
  writeFileSync(src, entry(repo));
  await build({ entryPoints: [src], bundle: true, platform: 'node', format: 'esm', outfile: bundle, packages: 'external', logLevel: 'error', define: { 'process.env.KINEMATE_BUILT': '"1"' } });
  makers.push((await import(pathToFileURL(bundle).href)).makeStepper);
}

const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
const steppers = makers.map((m) => m(example));
steppers[0](2000); steppers[1](2000);
const t = [[], []];
for (let round = 0; round < rounds; round++) {
  for (const which of round % 2 === 0 ? [0, 1] : [1, 0]) {
    const t0 = cpu();
    steppers[which](2000);
    t[which].push((cpu() - t0) / 2000);
  }
}
console.log(`${example}: median A ${median(t[0]).toFixed(3)} µs, B ${median(t[1]).toFixed(3)} µs; median of B/A ${median(t[0].map((x, i) => t[1][i] / x)).toFixed(3)} (A: ${other}, B: ${here})`);
