#!/usr/bin/env node
/**
 * `node scripts/startup.mjs [RUNS]`: how fast the command starts. Times, interleaved RUNS times (9),
 * a bare `node -e 0`, the 101-state sweep
 * `kinemate sweep examples/suspension/double_wishbone.yaml --bump -50:50:101` through the
 * built command (dist/, as installed: run `npm run build` first) and through tsx from the
 * sources (what a clone runs), and prints the medians in seconds and as multiples of bare
 * node. Wall-clock on a shared machine: compare figures from one run only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(new URL('../dist/cli.cjs', import.meta.url))) throw new Error('no dist/cli.cjs: run `npm run build` first');
const sweep = ['bin/kinemate.js', 'sweep', 'examples/suspension/double_wishbone.yaml', '--bump', '-50:50:101'];
const cases = {
  'node -e 0': { args: ['-e', '0'], env: {} },
  'built (dist)': { args: sweep, env: { KINEMATE_BUILT: '1' } },
  'tsx (sources)': { args: sweep, env: { KINEMATE_BUILT: '0' } },
};
const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
const runs = Number(process.argv[2] ?? 9);
for (let i = 0; i < runs; i++) {
  for (const [name, { args, env }] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (run.status !== 0) throw new Error(`${name} exited ${run.status}: ${run.stderr}`);
    times[name].push(seconds);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const bare = median(times['node -e 0']);
for (const [name, xs] of Object.entries(times)) console.log(`${name.padEnd(14)} median ${median(xs).toFixed(3)} s  (${(median(xs) / bare).toFixed(2)}× node -e 0; runs ${xs.map((x) => x.toFixed(3)).join(' ')})`);
