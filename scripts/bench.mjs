#!/usr/bin/env node
/**
 * `npm run bench`: the benchmarks run on the code as the package ships it. bench/run.ts and
 * batch's worker are bundled by esbuild with the package build's own settings
 * (scripts/build-command.mjs `commonOptions`: ESM for Node 20, one chunk per shared module,
 * KINEMATE_BUILT) into node_modules/.cache/kinemate-bench/, then run there with this
 * command's arguments. Run from the TypeScript sources (`npm run bench:source`, tsx), each
 * file is compiled with esbuild's keepNames (every function and class made at run time is
 * passed through a naming helper: about 1 µs per named closure a state) and an inline
 * source map, costs that the installed command and library (dist/, bundled the same way)
 * do not pay: timing them would time the development set-up.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleBench, root } from './bench-bundle.mjs';

const out = join(root, 'node_modules/.cache/kinemate-bench');
await bundleBench(out, { run: 'bench/run.ts' });

const run = spawnSync(process.execPath, [join(out, 'run.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
