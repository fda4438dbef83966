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
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { commonOptions } from './build-command.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'node_modules/.cache/kinemate-bench');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const common = commonOptions(root, manifest);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// .js files there are ES modules, as in dist/ (the package's "type": "module")
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
await build({
  ...common,
  // the bench's own tools (esbuild for the queue case's worker, …) stay imports too
  external: [...common.external, ...Object.keys(manifest.devDependencies ?? {})],
  entryPoints: { run: 'bench/run.ts', 'batch-worker': 'src/suspension/design/batch-worker.ts' },
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
});

const run = spawnSync(process.execPath, [join(out, 'run.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
