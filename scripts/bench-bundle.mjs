/**
 * A bench entry bundled as `npm run bench` runs it (scripts/bench.mjs; scripts/fourbar-rounds.mjs
 * too): the package build's esbuild settings (build-command.mjs `commonOptions`) with the bench's
 * own tools left as imports, batch's worker beside it, into a fresh `out` folder whose .js files
 * are ES modules as in dist/.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { commonOptions } from './build-command.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundle `entries` (name → source path) into `out`. */
export async function bundleBench(out, entries) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const common = commonOptions(root, manifest);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  await build({
    ...common,
    // the bench's own tools (esbuild for the queue case's worker, …) stay imports too
    external: [...common.external, ...Object.keys(manifest.devDependencies ?? {})],
    entryPoints: { ...entries, 'batch-worker': 'src/suspension/design/batch-worker.ts' },
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
  });
}
