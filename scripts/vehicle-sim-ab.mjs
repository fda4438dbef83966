#!/usr/bin/env node
/**
 * The bench's vehicle simulation step (bench/vehicle-sim-case.ts: the sedan over an ISO 8608
 * class C road, h = 1 ms, R³ × SO(3)) of two checkouts, interleaved in one process:
 *
 *   node scripts/vehicle-sim-ab.mjs OTHER_CHECKOUT [ROUNDS] [STEPS]      (default 10 rounds of 500 steps)
 *
 * On the shared machine the load moves CPU time ±30 % between two runs a minute apart;
 * here both step 50 at a time in turn, so the load falls on both alike (the rounds' ratios
 * spread a few per cent). Each round builds both models afresh and times steps 100–600, the
 * bench's window (STEPS: steps 100 to 100 + STEPS, in chunks of 50; a longer window takes in
 * the rare re-analyses and pivoting factorisations of the refactor, none of which fall in
 * steps 100–600), in CPU time (process.cpuUsage). Each checkout's sources are bundled by
 * esbuild (packages left as imports, resolved from this checkout's node_modules) into
 * node_modules/.cache/vehicle-sim-ab/ of this checkout; nothing is written to the other.
 * Prints each round's µs a step (A: OTHER_CHECKOUT, B: this one) and the medians.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStepper } from './vehicle-sim-stepper.mjs';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const [otherArg, roundsArg, stepsArg] = process.argv.slice(2);
if (!otherArg) { console.error('usage: node scripts/vehicle-sim-ab.mjs OTHER_CHECKOUT [ROUNDS] [STEPS]'); process.exit(1); }
const other = resolve(otherArg), rounds = Number(roundsArg ?? 10), chunks = Math.max(1, Math.round(Number(stepsArg ?? 500) / 50)), steps = 50 * chunks;
const out = join(here, 'node_modules/.cache/vehicle-sim-ab');
mkdirSync(out, { recursive: true });


const modules = [];
for (const [name, repo] of [['a', other], ['b', here]]) modules.push(await bundleStepper(repo, out, name));

const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
const ta = [], tb = [];
for (let round = 0; round < rounds; round++) {
  const a = modules[0](), b = modules[1]();
  a(100); b(100);
  let ca = 0, cb = 0;
  for (let c = 0; c < chunks; c++) {
    // who goes first alternates, chunk by chunk and round by round
    const first = (c + round) % 2 === 0;
    for (const which of first ? [0, 1] : [1, 0]) {
      const t0 = cpu();
      (which === 0 ? a : b)(50);
      if (which === 0) ca += cpu() - t0; else cb += cpu() - t0;
    }
  }
  ta.push(ca / steps); tb.push(cb / steps);
  console.log(`round ${round + 1}: A ${(ca / steps).toFixed(1)} µs, B ${(cb / steps).toFixed(1)} µs, B/A ${(cb / ca).toFixed(3)}`);
}
console.log(`median A ${median(ta).toFixed(1)} µs, B ${median(tb).toFixed(1)} µs; median of B/A ${median(ta.map((x, i) => tb[i] / x)).toFixed(3)} (A: ${other}, B: ${here})`);
