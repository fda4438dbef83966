#!/usr/bin/env node
/**
 * The bench's vehicle simulation's rows (bench/vehicle-sim-case.ts: the sedan over the class C
 * road) by kind, two checkouts interleaved in one process:
 *
 *   node scripts/vehicle-sim-rows.mjs OTHER_CHECKOUT [ROUNDS]      (default 11)
 *
 * Both checkouts step 300 times; then each kind of row set (the revolutes, sliders, balls,
 * point distances: their `evaluateTurned` with the Jacobian, as ConstraintRows.evaluate calls
 * it; the distances' group, ResidualBlock.groupTurned, where a checkout has one) and all the
 * rows (ConstraintRows.evaluate) run 20 000 times in a loop, the checkouts in turn (who goes
 * first alternating), CPU time; prints the medians in µs a loop (A: OTHER_CHECKOUT, B: this
 * one) and of the rounds' B/A. It reads ConstraintRows' private fields (evalBlocks, turns,
 * turnA, turnB, phiOf, blockJac, groups, rotations): a checkout where they are named otherwise
 * needs this adapted. Bundles go to node_modules/.cache/vehicle-sim-rows/ of this checkout.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStepper } from './vehicle-sim-stepper.mjs';
import { timeInterleaved } from './interleaved-loops.mjs';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = join(here, 'node_modules/.cache/vehicle-sim-rows');
mkdirSync(out, { recursive: true });

/** A fresh integrator of REPO's bundle (scripts/vehicle-sim-stepper.mjs). */
async function bundleIntegrator(repo, name) {
  return (await bundleStepper(repo, out, name))().integrator;
}

/** The loops of one checkout: each kind's row sets, and all the rows. */
function loops(it) {
  for (let k = 1; k <= 300; k++) if (!it.step(0.001, k * 0.001)) throw new Error(`the step at ${k} ms failed`);
  const c = it.constraints, system = it.system, state = system.state;
  c.evaluate(true, false);
  const pick = (test) => {
    const idx = [];
    for (let i = 0; i < c.blocks.length; i++) if (c.turnA[i] >= 0 && test(c.evalBlocks[i])) idx.push(i);
    return () => {
      for (const i of idx) c.evalBlocks[i].evaluateTurned(state, system.blockOffsets(c.blocks[i]), c.turns[c.turnA[i]], c.turns[c.turnB[i]], c.phiOf[i], c.blockJac[i]);
    };
  };
  return {
    revolutes: pick((b) => b.type === 'revolute'),
    sliders: pick((b) => b.type === 'slider'),
    balls: pick((b) => b.type === 'ball'),
    // a checkout that evaluates its distances in one loop (ResidualBlock.groupTurned): that loop
    distances: c.groups?.length ? () => { for (const g of c.groups) g.evaluate(state, c.rotations, c.phi, c.slab); }
      : pick((b) => /PointDistanceBlock$/.test(b.constructor.name)),
    'all rows': () => c.evaluate(true, false),
  };
}

const [otherArg, roundsArg] = process.argv.slice(2);
if (!otherArg) { console.error('usage: node scripts/vehicle-sim-rows.mjs OTHER_CHECKOUT [ROUNDS]'); process.exit(1); }
const rounds = Number(roundsArg ?? 11);
const sets = [];
for (const [i, repo] of [resolve(otherArg), here].entries()) sets.push(loops(await bundleIntegrator(repo, `rows-${i}`)));
timeInterleaved(sets, rounds, 10);
