#!/usr/bin/env node
/**
 * The bench's vehicle simulation step (bench/vehicle-sim-case.ts: the sedan over an ISO 8608
 * class C road, h = 1 ms) round by round in a fresh process, to see how much of
 * `vehicle_sim_step_us` is V8 still compiling:
 *
 *   node scripts/vehicle-sim-rounds.mjs [CHECKOUT] [ROUNDS] [--cpu]     (default: this checkout, 15 rounds)
 *
 * As the bench case: 100 steps of warm-up, then rounds of 100 steps; prints each round's µs a
 * step (wall clock, or CPU time with --cpu, which counts V8's compiler threads too). The bench
 * reads the median of the first five rounds; the later rounds are the warm step. The checkout's
 * sources are bundled by esbuild into node_modules/.cache/vehicle-sim-rounds/ of this checkout.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStepper } from './vehicle-sim-stepper.mjs';

const args = process.argv.slice(2);
const cpu = args.includes('--cpu');
const [repoArg, roundsArg] = args.filter((a) => a !== '--cpu');
const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const repo = resolve(repoArg ?? here), rounds = Number(roundsArg ?? 15);
const out = join(here, 'node_modules/.cache/vehicle-sim-rounds');
mkdirSync(out, { recursive: true });
const now = () => {
  if (!cpu) return performance.now();
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const step = (await bundleStepper(repo, out, `rounds-${process.pid}`))();
step(100);
const us = [];
for (let r = 0; r < rounds; r++) {
  const t0 = now();
  step(100);
  us.push(((now() - t0) / 100) * 1000);
}
const firstFive = us.slice(0, 5).sort((a, b) => a - b)[2];
const rest = us.slice(5).sort((a, b) => a - b), warm = rest[rest.length >> 1];
console.log(`${repo}: ${us.map((u) => u.toFixed(0)).join(' ')} µs a step`);
console.log(`median of rounds 1-5 (the bench's reading) ${firstFive.toFixed(1)}, of the later rounds ${warm?.toFixed(1) ?? '-'}`);
