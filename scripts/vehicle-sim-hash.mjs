#!/usr/bin/env node
/**
 * Whether this checkout steps the bench's vehicle case (bench/vehicle-sim-case.ts: the sedan
 * over the class C road, h = 1 ms, R³ × SO(3)) to the same bits as another: both bundled
 * (vehicle-sim-stepper.mjs), each run STEPS steps (default 1500), the state, v and λ hashed
 * every 50 steps (FNV-1a over their bytes), with the Newton iterations and factorisations.
 * For changes meant to do the same operations in the same order (docs/vehicle-dynamics.md).
 *
 *   node scripts/vehicle-sim-hash.mjs OTHER_CHECKOUT [STEPS]
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStepper } from './vehicle-sim-stepper.mjs';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const [otherArg, stepsArg] = process.argv.slice(2);
if (!otherArg) { console.error('usage: node scripts/vehicle-sim-hash.mjs OTHER_CHECKOUT [STEPS]'); process.exit(1); }
const other = resolve(otherArg), steps = Number(stepsArg ?? 1500);
const out = join(here, 'node_modules/.cache/vehicle-sim-hash');
mkdirSync(out, { recursive: true });

/** FNV-1a (32 bits) of the arrays' bytes, continuing from h. */
function fnv(h, ...arrays) {
  for (const a of arrays) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  }
  return h;
}

const runs = [];
for (const [name, repo] of [['a', other], ['b', here]]) {
  const step = (await bundleStepper(repo, out, name))();
  const it = step.integrator;
  let h = 2166136261, iterations = 0;
  for (let k = 0; k < steps; k++) {
    step(1);
    iterations += it.iterations;
    if ((k + 1) % 50 === 0) h = fnv(h, it.system.state, it.v, it.lambda);
  }
  runs.push({ hash: h.toString(16), iterations, factorisations: it.factorisations });
  console.log(`${name === 'a' ? 'A' : 'B'} ${repo}: hash ${runs.at(-1).hash}, ${iterations} iterations, ${it.factorisations} factorisations`);
}
console.log(runs[0].hash === runs[1].hash ? 'the same to the bit' : 'DIFFERENT');
