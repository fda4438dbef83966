#!/usr/bin/env node
/**
 * `node scripts/fourbar-compiles.mjs [DIR]`: after `node scripts/fourbar-rounds.mjs N --trace-opt
 * --trace-deopt --trace-concurrent-recompilation`, each function's V8 events summed over the N
 * processes' logs (DIR, default node_modules/.cache/kinemate-fourbar), by drive R0–R5: marks for
 * optimisation, marks dropped because the compile queue was full, compiles completed, deopts,
 * and the median ms of its compile (the compiler's wall time). A count of 10 or more takes two
 * digits. Functions are listed by the mean drive their compiles completed in (docs/solver-warm-up.md).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './bench-bundle.mjs';

const dir = process.argv[2] ?? join(root, 'node_modules/.cache/kinemate-fourbar');
const logs = readdirSync(dir).filter((f) => /^log-\d+\.txt$/.test(f));
const fns = new Map();
const perRound = [0, 0, 0, 0, 0, 0];
const of = (name) => {
  if (!fns.has(name)) fns.set(name, { mark: [], drop: [], done: [], ms: [], deopt: [] });
  return fns.get(name);
};
for (const f of logs) {
  let round = -1;
  for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
    const r = /^=== round (\d)$/.exec(line);
    if (r) { round = Number(r[1]); continue; }
    if (round < 0) continue;
    const name = /<JSFunction (\S*) /.exec(line)?.[1] || '(anonymous)';
    if (line.startsWith('[marking')) of(name).mark.push(round);
    else if (line.includes('Compilation queue full')) of(name).drop.push(round);
    else if (line.startsWith('[bailout')) of(name).deopt.push(round);
    const done = /^\[completed compiling .* took [\d.]+, ([\d.]+),/.exec(line);
    if (done) { of(name).done.push(round); of(name).ms.push(Number(done[1])); perRound[round] += Number(done[1]); }
  }
}
const byRound = (a) => { const h = [0, 0, 0, 0, 0, 0]; for (const x of a) h[x]++; return h.join(''); };
const mean = (a) => (a.length ? a.reduce((s, x) => s + x, 0) / a.length : -1);
console.log(`${logs.length} logs; by drive R0..R5:`);
console.log('function'.padEnd(24), 'marked'.padEnd(9), 'dropped'.padEnd(9), 'compiled'.padEnd(9), 'deopts'.padEnd(9), 'median ms');
for (const [name, v] of [...fns].sort((a, b) => mean(a[1].done) - mean(b[1].done))) {
  const ms = [...v.ms].sort((a, b) => a - b);
  console.log(name.padEnd(24), byRound(v.mark).padEnd(9), byRound(v.drop).padEnd(9), byRound(v.done).padEnd(9), byRound(v.deopt).padEnd(9), (ms[ms.length >> 1] ?? 0).toFixed(1));
}
console.log('compile ms by drive, all logs:', perRound.map((x) => x.toFixed(0)).join(' '));
