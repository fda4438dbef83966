#!/usr/bin/env node
/**
 * The bench's reading of the whole car's step (`vehicle_sim_step_us`: the median of five rounds
 * of 100 steps after 100 of warm-up, in a fresh process) for two checkouts, their fresh
 * processes alternated (vehicle-sim-rounds.mjs of this checkout, each checkout's sources):
 *
 *   node scripts/vehicle-sim-rounds-ab.mjs A B [N] [--cpu]     (default 10 processes each, wall clock)
 *
 * Prints each process's 15 rounds, then per checkout the median over processes of each round, of
 * the median of rounds 1–5 (the bench's reading) and of rounds 6–15 (the warm step), and the
 * load average the runs saw. With --cpu the rounds are CPU time (V8's compiler threads count).
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const cpu = args.includes('--cpu');
const [a, b, n = '10'] = args.filter((x) => x !== '--cpu');
if (!a || !b) { console.error('usage: node scripts/vehicle-sim-rounds-ab.mjs A B [N] [--cpu]'); process.exit(1); }
const repos = [resolve(a), resolve(b)];
const script = fileURLToPath(new URL('./vehicle-sim-rounds.mjs', import.meta.url));
const rounds = [[], []], loads = [];
for (let i = 0; i < Number(n); i++) {
  for (const w of i % 2 ? [1, 0] : [0, 1]) {
    const out = execFileSync(process.execPath, [script, repos[w], '15', ...(cpu ? ['--cpu'] : [])], { encoding: 'utf8' });
    const us = out.split('\n')[0].split(': ')[1].split(' µs')[0].split(' ').map(Number);
    rounds[w].push(us);
    loads.push(loadavg()[0]);
    console.log(`${w ? 'B' : 'A'} ${us.join(' ')}`);
  }
}
const median = (v) => { const s = [...v].sort((x, y) => x - y), k = s.length >> 1; return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2; };
for (const w of [0, 1]) {
  const runs = rounds[w], first = runs.map((u) => median(u.slice(0, 5))), warm = runs.map((u) => median(u.slice(5)));
  console.log(`${w ? 'B' : 'A'} ${repos[w]}: per round ${Array.from({ length: 15 }, (_, r) => median(runs.map((u) => u[r])).toFixed(0)).join(' ')}`);
  console.log(`  median of rounds 1-5's median ${median(first).toFixed(1)} (${Math.min(...first).toFixed(0)}-${Math.max(...first).toFixed(0)}), of rounds 6-15's ${median(warm).toFixed(1)} µs a step`);
}
console.log(`${cpu ? 'CPU time' : 'wall clock'}, ${n} processes each; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
