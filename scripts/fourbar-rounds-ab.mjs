#!/usr/bin/env node
/**
 * `node scripts/fourbar-rounds-ab.mjs DIR_A DIR_B [PAIRS]`: fourbar_drive_step_us' six drives
 * (bench/fourbar-rounds.ts, bundled by scripts/fourbar-rounds.mjs in each checkout) in fresh
 * processes, A and B alternated, PAIRS times (default 20), CPU clock. Prints for each the median
 * of the processes' figures (the best of R1–R5), how many read over 20 µs, in how many R4 or R5
 * had no compile in it (the other threads' CPU under 1 µs a step), and the other threads' µs a
 * step (V8's compiler and GC helpers) in R3–R5: what decides a slow process (docs/solver-warm-up.md).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const [dirA, dirB, pairs = '20'] = process.argv.slice(2);
if (!dirA || !dirB) { console.error('usage: node scripts/fourbar-rounds-ab.mjs DIR_A DIR_B [PAIRS]'); process.exit(1); }
const trees = [resolve(dirA), resolve(dirB)];
for (const t of trees) execFileSync(process.execPath, ['scripts/fourbar-rounds.mjs', '0'], { cwd: t });
/** One fresh process: its figure, and each drive's µs a step of the other threads. */
function run(tree) {
  const out = execFileSync(process.execPath, ['node_modules/.cache/kinemate-fourbar/rounds.js'], { cwd: tree, encoding: 'utf8', env: { ...process.env, BENCH_CLOCK: 'cpu' } });
  return { best: Number(/=== best ([\d.]+)/.exec(out)[1]), other: [...out.matchAll(/other threads ([\d.]+)/g)].map((m) => Number(m[1])) };
}
const results = [[], []];
for (let i = 0; i < Number(pairs); i++) for (let k = 0; k < 2; k++) results[k].push(run(trees[k]));
const median = (x) => [...x].sort((a, b) => a - b)[x.length >> 1];
results.forEach((r, k) => {
  const clean = r.filter((p) => p.other[4] < 1 || p.other[5] < 1).length;
  const other = [3, 4, 5].map((d) => median(r.map((p) => p.other[d])).toFixed(1)).join(' / ');
  console.log(`${'AB'[k]} ${trees[k]}: median ${median(r.map((p) => p.best)).toFixed(1)} µs, over 20 in ${r.filter((p) => p.best > 20).length} of ${r.length}, R4 or R5 free of compiles in ${clean}, other threads R3 / R4 / R5 ${other} µs a step (medians)`);
  console.log(`  ${r.map((p) => p.best.toFixed(1)).join(' ')}`);
});
