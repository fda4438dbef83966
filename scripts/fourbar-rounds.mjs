#!/usr/bin/env node
/**
 * `node scripts/fourbar-rounds.mjs [N] [node flags…]`: bundles bench/fourbar-rounds.ts as
 * `npm run bench` bundles bench/run.ts (the package build's esbuild settings) and runs it in
 * N fresh processes (default 1) with the given node flags (say --trace-opt --trace-deopt),
 * writing each process's output to node_modules/.cache/kinemate-fourbar/log-K.txt and
 * printing each one's `=== best` line: the drive rounds of fourbar_drive_step_us, to compare
 * a slow process's log with a fast one's (docs/solver-warm-up.md).
 *
 * With V8's traces among the flags, each line goes on with what landed in the drives the
 * figure reads (R3–R5; R0 is the warm-up): `R4+moveTo:146` a compile completed in R4 (ms of
 * the compiler's wall time), `R5m…` a function marked there, `R1Q…` a mark dropped because
 * V8's queue of concurrent compiles was full (--trace-concurrent-recompilation; the function
 * starts counting towards its mark again), `R3D…` a deopt (--trace-deopt), `R5GC:9` a
 * scavenge (--trace-gc, ms).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleBench, root } from './bench-bundle.mjs';

const out = join(root, 'node_modules/.cache/kinemate-fourbar');
const n = Number(process.argv[2] ?? 1);
const flags = process.argv.slice(3);

/** The events of a log that landed in R3–R5 (drops in any round), in order. */
function lateEvents(log) {
  let round = -1;
  const events = [];
  for (const line of log.split('\n')) {
    const r = /^=== round (\d)$/.exec(line);
    if (r) { round = Number(r[1]); continue; }
    const name = /<JSFunction (\S*) /.exec(line)?.[1] || '(anonymous)';
    if (line.includes('Compilation queue full')) events.push(`R${round}Q${name}`);
    if (round < 3) continue;
    const done = /^\[completed compiling .* took [\d.]+, ([\d.]+),/.exec(line);
    const gc = /Scavenge.* MB, ([\d.]+)/.exec(line);
    if (done) events.push(`R${round}+${name}:${Number(done[1]).toFixed(0)}`);
    else if (line.startsWith('[marking <') || line.startsWith('[marking 0x')) events.push(`R${round}m${name}`);
    else if (line.startsWith('[bailout')) events.push(`R${round}D${name}`);
    else if (gc) events.push(`R${round}GC:${Number(gc[1]).toFixed(0)}`);
  }
  return events;
}

await bundleBench(out, { rounds: 'bench/fourbar-rounds.ts' });
for (let k = 0; k < n; k++) {
  const run = spawnSync(process.execPath, [...flags, join(out, 'rounds.js')], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, BENCH_CLOCK: 'cpu' } });
  const log = run.stdout + run.stderr;
  writeFileSync(join(out, `log-${k}.txt`), log);
  const best = run.stdout.split('\n').find((l) => l.startsWith('=== best'));
  const late = flags.length > 0 ? ` | ${lateEvents(log).join(' ')}` : '';
  console.log(`${k} ${best ?? `failed: ${run.stderr.slice(0, 200)}`}${late}`);
}
