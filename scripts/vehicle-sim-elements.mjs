#!/usr/bin/env node
/**
 * The bench's vehicle simulation's force elements (bench/vehicle-sim-case.ts: the sedan over the
 * class C road) by kind, two checkouts interleaved in one process:
 *
 *   node scripts/vehicle-sim-elements.mjs OTHER_CHECKOUT [ROUNDS]      (default 11)
 *
 * Both checkouts step 300 times; then each kind of force block (the gravity blocks, springs,
 * the bushing, the tyres: their `evaluate` for Q alone, as ForceSet.assemble calls it, at the
 * state reached and one fixed set of moving velocities) runs 20 000 times in a loop, the
 * checkouts in turn (who goes first alternating), CPU time; prints the medians in µs a loop
 * (A: OTHER_CHECKOUT, B: this one) and of the rounds' B/A. It reads ForceSet's private `list`:
 * a checkout where it is named otherwise needs this adapted. Bundles go to
 * node_modules/.cache/vehicle-sim-elements/ of this checkout.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStepper } from './vehicle-sim-stepper.mjs';
import { timeInterleaved } from './interleaved-loops.mjs';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = join(here, 'node_modules/.cache/vehicle-sim-elements');
mkdirSync(out, { recursive: true });

/** Each kind's loop of one checkout, after 300 steps. */
async function loops(repo, name) {
  const step = (await bundleStepper(repo, out, name))();
  step(300);
  const it = step.integrator, system = it.system, state = system.state;
  // every body moving (the bushing's and the dampers' rates taken), the same numbers for both checkouts
  const velocity = Float64Array.from({ length: 12 }, (_, k) => 0.01 * (k + 1));
  const Q = new Float64Array(12), calls = {};
  for (const block of it.forces.list) {
    const offsets = Int32Array.from(block.vars, (v) => system.variables[v].offset);
    (calls[block.constructor.name] ??= []).push(() => block.evaluate(state, offsets, velocity, 0.3, Q, null, null));
  }
  return Object.fromEntries(Object.entries(calls).map(([kind, fs]) => [kind, () => { for (const f of fs) f(); }]));
}

const [otherArg, roundsArg] = process.argv.slice(2);
if (!otherArg) { console.error('usage: node scripts/vehicle-sim-elements.mjs OTHER_CHECKOUT [ROUNDS]'); process.exit(1); }
const rounds = Number(roundsArg ?? 11);
const sets = [];
for (const [i, repo] of [resolve(otherArg), here].entries()) sets.push(await loops(repo, `elements-${i}`));
timeInterleaved(sets, rounds, 18);
