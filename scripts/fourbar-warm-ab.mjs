#!/usr/bin/env node
/**
 * `node scripts/fourbar-warm-ab.mjs DIR_A DIR_B [ROUNDS] [PROCESSES]`: the four-bar's warm drive
 * (fourbar_drive_warm_step_us' work: a fresh model, a 361-step drive) of two checkouts in one
 * process, alternating: each checkout bundled as `npm run bench` bundles (separate modules, so
 * separate compiled code and type feedback), both warmed by 30 drives, then ROUNDS pairs
 * (default 40) timed by the process's CPU time. One process shares the machine's load between
 * the two, which separate runs on the loaded machine do not. Prints, per process (default 3),
 * the least, first quartile and median µs a step of each and the median of the pairs' ratios.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleBench, root } from './bench-bundle.mjs';

const [dirA, dirB, rounds = '40', processes = '3'] = process.argv.slice(2);
if (!dirA || !dirB) { console.error('usage: node scripts/fourbar-warm-ab.mjs DIR_A DIR_B [ROUNDS] [PROCESSES]'); process.exit(1); }
const cache = join(root, 'node_modules/.cache/kinemate-fourbar-ab');
mkdirSync(cache, { recursive: true });

/** Bundle checkout `dir`'s drive into cache/NAME/drive.js. */
async function bundle(dir, name) {
  const repo = resolve(dir);
  const entry = join(cache, `${name}-entry.ts`);
  writeFileSync(entry, [
    `import { validateAssembly } from '${repo}/src/assembly';`,
    `import { buildModel } from '${repo}/src/model/build';`,
    `import { driveModel } from '${repo}/src/model/operations';`,
    `import { fourBarDoc } from '${repo}/examples/fourbar';`,
    `export const drive = () => driveModel(buildModel(validateAssembly(fourBarDoc(30))), 'jA.angle', 30, 390, 360);`,
  ].join('\n'));
  await bundleBench(join(cache, name), { drive: entry });
  return join(cache, name, 'drive.js');
}

const a = await bundle(dirA, 'a'), b = await bundle(dirB, 'b');
const runner = join(cache, 'run.mjs');
writeFileSync(runner, `
const A = (await import(${JSON.stringify(a)})).drive, B = (await import(${JSON.stringify(b)})).drive;
const cpu = () => { const c = process.cpuUsage(); return c.user + c.system; };
for (let i = 0; i < 30; i++) { A(); B(); }
const ta = [], tb = [], ratio = [];
for (let i = 0; i < ${Number(rounds)}; i++) {
  let t0 = cpu(); A(); const x = (cpu() - t0) / 361;
  t0 = cpu(); B(); const y = (cpu() - t0) / 361;
  ta.push(x); tb.push(y); ratio.push(y / x);
}
const q = (v, p) => { v = [...v].sort((s, t) => s - t); return v[Math.floor(p * (v.length - 1))]; };
const f = (v) => [0, 0.25, 0.5].map((p) => q(v, p).toFixed(2)).join(' / ');
console.log('A ' + f(ta) + '  B ' + f(tb) + '  (least / first quartile / median us a step)  B/A median of pairs ' + q(ratio, 0.5).toFixed(3));
`);
for (let k = 0; k < Number(processes); k++) {
  const run = spawnSync(process.execPath, [runner], { cwd: root, encoding: 'utf8' });
  console.log(run.status === 0 ? run.stdout.trim() : `failed: ${run.stderr.slice(0, 300)}`);
}
