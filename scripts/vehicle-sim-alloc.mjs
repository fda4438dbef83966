#!/usr/bin/env node
/**
 * What a step of the bench's vehicle simulation (bench/vehicle-sim-case.ts: the sedan over an
 * ISO 8608 class C road, h = 1 ms, R³ × SO(3)) allocates, by V8's sampling heap profiler with
 * the objects the collector took counted too:
 *
 *   node scripts/vehicle-sim-alloc.mjs [CHECKOUT] [STEPS]      (default this one, 2000 steps)
 *
 * The checkout's sources are bundled by esbuild (scripts/vehicle-sim-stepper.mjs)
 * (into node_modules/.cache/vehicle-sim-alloc/ of this checkout); a fresh model steps 100
 * times, then STEPS under the profiler. Prints the bytes a step and the allocation sites (the
 * allocating function and its three callers, bundle line numbers) with their bytes a step. The
 * figures move run to run (the sampling, and V8's inlining, which decides where a number is
 * boxed): compare a few runs.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { bundleStepper } from './vehicle-sim-stepper.mjs';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const repo = resolve(process.argv[2] ?? here), steps = Number(process.argv[3] ?? 2000);
const out = join(here, 'node_modules/.cache/vehicle-sim-alloc');
mkdirSync(out, { recursive: true });
const makeStepper = await bundleStepper(repo, out, 'entry');

const step = makeStepper();
step(100);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
step(steps);
const { profile } = await session.post('HeapProfiler.stopSampling');
const sites = new Map();
let total = 0;
const walk = (node, stack) => {
  const name = `${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
  if (node.selfSize) {
    const key = [name, ...stack.slice(-3).reverse()].join(' < ');
    sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
  }
  for (const child of node.children) walk(child, [...stack, name]);
};
walk(profile.head, []);
console.log(`${(total / steps).toFixed(0)} bytes a step (${steps} steps after 100; ${repo})`);
for (const [key, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${(bytes / steps).toFixed(0).padStart(7)}  ${key}`);
