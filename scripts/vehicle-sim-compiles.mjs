#!/usr/bin/env node
/**
 * Which functions TurboFan compiles in which step of the bench's whole-car case
 * (bench/vehicle-sim-case.ts: 100 steps of warm-up, then rounds of 100) in a fresh process:
 *
 *   node scripts/vehicle-sim-compiles.mjs [CHECKOUT] [ROUNDS] [--from STEP] [--concurrent]
 *
 * (default: this checkout, 10 rounds, from warm-up step 80). The checkout's sources are bundled
 * as vehicle-sim-rounds.mjs bundles them and run in a child under `--trace-opt
 * --print-opt-source`, with compiles synchronous (`--no-concurrent-recompilation`, so that the
 * step a function is compiled at is the code's doing, not the machine's load) unless
 * --concurrent. Prints one line per compile: the step (`s87`) or round (`r2`) it started in, the
 * file and function, and what it inlined, then the child's CPU µs a step per round.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleStepper } from './vehicle-sim-stepper.mjs';

const args = process.argv.slice(2);
const flag = (key) => { const i = args.indexOf(key); return i < 0 ? null : args.splice(i, 2)[1]; };
const from = Number(flag('--from') ?? 80), concurrent = args.includes('--concurrent');
const [repoArg, roundsArg] = args.filter((a) => a !== '--concurrent');
const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const repo = resolve(repoArg ?? here), rounds = Number(roundsArg ?? 10);
const out = join(here, 'node_modules/.cache/vehicle-sim-compiles');
mkdirSync(out, { recursive: true });
const name = `compiles-${process.pid}`;
await bundleStepper(repo, out, name);
const bundle = join(out, `${name}.mjs`), runner = join(out, `${name}-run.mjs`);
writeFileSync(runner, `import { makeStepper } from ${JSON.stringify(pathToFileURL(bundle).href)};
const cpu = () => { const c = process.cpuUsage(); return c.user + c.system; };
const step = makeStepper(), us = [];
for (let k = 1; k <= 100; k++) { console.log('=== s ' + k); step(1); }
for (let r = 1; r <= ${rounds}; r++) { console.log('=== r ' + r); const t0 = cpu(); step(100); us.push(((cpu() - t0) / 100).toFixed(0)); }
console.log('=== end ' + us.join(' '));
`);
const flags = ['--trace-opt', '--print-opt-source', ...(concurrent ? [] : ['--no-concurrent-recompilation'])];
// into a file, not a pipe: V8 buffers its trace to a pipe, which then comes after every marker
const log = join(out, `${name}.log`), fd = openSync(log, 'w');
const run = spawnSync(process.execPath, [...flags, runner], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
closeSync(fd);
if (run.status !== 0) { console.error(run.stderr); process.exit(1); }

// the bundle's `// path.ts` section comments: a function's start offset names its file
const source = readFileSync(bundle, 'utf8'), sections = [];
for (const m of source.matchAll(/^\/\/ (\S+\.ts)$/gm)) sections.push([m.index, m[1]]);
const fileAt = (at) => { let f = '?'; for (const [i, n] of sections) { if (i > at) break; f = n; } return f; };
let phase = '', shown = false, last = null, times = '';
const compiles = [];
for (const l of readFileSync(log, 'utf8').split('\n')) {
  const marker = /^=== (s|r|end) ?(.*)$/.exec(l);
  if (marker) {
    if (marker[1] === 'end') { times = marker[2]; shown = false; continue; }
    phase = marker[1] + marker[2]; shown = marker[1] === 'r' || Number(marker[2]) >= from; continue;
  }
  const f = /--- FUNCTION SOURCE \((.*):(\S*)\) id\{\d+,(-?\d+)\} start\{(\d+)\}/.exec(l);
  if (!f || !shown || !f[1].endsWith(`${name}.mjs`)) continue;
  if (f[3] === '-1') { last = { phase, where: `${fileAt(Number(f[4]))}:${f[2]}`, inlined: [] }; compiles.push(last); }
  else if (last) last.inlined.push(f[2]);
}
for (const c of compiles) console.log(`${c.phase.padEnd(4)} ${c.where}${c.inlined.length ? `  [${c.inlined.join(' ')}]` : ''}`);
console.log(`${repo}: rounds ${times} µs a step (CPU, under the trace)`);
