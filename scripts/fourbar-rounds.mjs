#!/usr/bin/env node
/**
 * `node scripts/fourbar-rounds.mjs [N] [node flags…]`: bundles bench/fourbar-rounds.ts as
 * `npm run bench` bundles bench/run.ts (the package build's esbuild settings) and runs it in
 * N fresh processes (default 1) with the given node flags (say --trace-opt --trace-deopt),
 * writing each process's output to node_modules/.cache/kinemate-fourbar/log-K.txt and
 * printing each one's `=== best` line: the drive rounds of fourbar_drive_step_us, to compare
 * a slow process's log with a fast one's (docs/solver-warm-up.md).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleBench, root } from './bench-bundle.mjs';

const out = join(root, 'node_modules/.cache/kinemate-fourbar');
const n = Number(process.argv[2] ?? 1);
const flags = process.argv.slice(3);

await bundleBench(out, { rounds: 'bench/fourbar-rounds.ts' });
for (let k = 0; k < n; k++) {
  const run = spawnSync(process.execPath, [...flags, join(out, 'rounds.js')], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, BENCH_CLOCK: 'cpu' } });
  writeFileSync(join(out, `log-${k}.txt`), run.stdout + run.stderr);
  const best = run.stdout.split('\n').find((l) => l.startsWith('=== best'));
  console.log(`${k} ${best ?? `failed: ${run.stderr.slice(0, 200)}`}`);
}
