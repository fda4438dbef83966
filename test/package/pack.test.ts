/**
 * The package as others get it: `npm pack` (its prepack builds dist/), the tarball
 * installed into an empty Node ESM project, then the installed `kinemate` command and
 * `import … from 'kinemate'` used there with plain node: no tsx, no TypeScript sources.
 *
 * The tarball is kept in node_modules/.cache/kinemate-test-pack/, named by a hash of everything
 * that goes into it (the sources, bin/, the build scripts, the manifest, lock and tsconfigs,
 * README and LICENSE): while none of them changes, a run reuses the tarball `npm pack` made from
 * them (its build is ~14 s of CPU); any change packs again. A fresh clone always packs.
 *
 * Installing: `npm install <tarball> --offline` (the dependencies come from npm's cache,
 * as on a machine where `npm ci` has run). Where the cache lacks them, the tarball is
 * unpacked into node_modules/kinemate the way npm would, and the package's runtime
 * dependencies (the lock file's non-dev packages, nothing else: no tsx, no typescript)
 * are linked from this repository's node_modules.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../src/suspension/files/index.ts';
import { SuspensionModel } from '../../src/suspension/build/model.ts';
import { runSweep } from '../../src/suspension/sweep/sweep.ts';
import { suspensionAssembly } from '../../src/suspension/build/template.ts';
import { inputsKey } from '../../src/suspension/design/batch-worker-url.ts';
import { REPO } from '../cli/helpers.ts';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const GEOMETRY = join(REPO, 'examples/suspension/double_wishbone.yaml');
const FOUR_BAR = join(REPO, 'examples/four-bar.kinemate.json');

let work: string;
let project: string;

/** The lock file's runtime packages at the top of node_modules (names like `yaml`, `@scope/x`). */
function runtimePackages(): string[] {
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; optional?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !path.slice(13).includes('node_modules/') && entry.dev !== true)
    .map(([path]) => path.slice(13))
    .filter((name) => existsSync(join(REPO, 'node_modules', name)));
}

function installByHand(tarball: string): void {
  const modules = join(project, 'node_modules');
  const target = join(modules, 'kinemate');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  for (const name of runtimePackages()) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', name), join(modules, name), 'dir');
  }
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync('../kinemate/bin/kinemate.js', join(modules, '.bin', 'kinemate'));
}

/** What the tarball is made of: the folders its build reads and the files npm packs or builds by. */
const PACK_FOLDERS = ['src', 'kernel', 'mates', 'bin', 'scripts'];
const PACK_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE'];
const PACK_CACHE = join(REPO, 'node_modules/.cache/kinemate-test-pack');

function filesUnder(folder: string): string[] {
  return readdirSync(folder).sort().flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** `npm pack` of this checkout, or the tarball it made from the same inputs (see the module comment). */
function packedTarball(): string {
  const inputs = [...PACK_FOLDERS.flatMap((name) => filesUnder(join(REPO, name))), ...PACK_FILES.map((name) => join(REPO, name)).filter((path) => existsSync(path))];
  const kept = join(PACK_CACHE, `${inputsKey(inputs, 'npm pack')}.tgz`);
  if (existsSync(kept)) return kept;
  const fresh = mkdtempSync(join(tmpdir(), 'kinemate-packing-'));
  try {
    execFileSync(NPM, ['pack', '--pack-destination', fresh, '--silent'], { cwd: REPO, stdio: 'pipe' });
    mkdirSync(PACK_CACHE, { recursive: true });
    for (const old of readdirSync(PACK_CACHE)) rmSync(join(PACK_CACHE, old), { force: true });
    const partial = `${kept}.${process.pid}`;
    copyFileSync(join(fresh, readdirSync(fresh).find((name) => name.endsWith('.tgz'))!), partial);
    renameSync(partial, kept);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
  return kept;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kinemate-pack-'));
  const tarball = join(work, 'kinemate.tgz');
  copyFileSync(packedTarball(), tarball);
  project = join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  const npm = spawnSync(NPM, ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, encoding: 'utf8' });
  if (npm.status !== 0) {
    rmSync(join(project, 'node_modules'), { recursive: true, force: true });
    installByHand(tarball);
  }
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Plain node in the consumer project, with no loader or option inherited from the test runner. */
function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  return spawnSync(process.execPath, args, { cwd: project, env, encoding: 'utf8', maxBuffer: 64 << 20 });
}

describe('the packed package', () => {
  it('ships built JavaScript, declarations and the command; no sources, no tsx', () => {
    const installed = join(project, 'node_modules/kinemate');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(existsSync(join(installed, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, manifest.exports['.'].types))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    // three is a runtime dependency since clearance (docs/geometry.md): three-mesh-bvh's BVHs are built on its geometry; it comes only with that
    expect(Object.keys(manifest.dependencies).includes('three')).toBe(Object.keys(manifest.dependencies).includes('three-mesh-bvh'));
    expect(Object.keys(manifest.dependencies)).not.toContain('vitest');
    expect(existsSync(join(project, 'node_modules/tsx'))).toBe(false);
  });

  it('runs `kinemate solve` from node_modules/.bin', () => {
    const run = node([join(project, 'node_modules/.bin/kinemate'), 'solve', FOUR_BAR, '--set', 'jA.angle=60']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.status).toBe('solved');
    expect(result.state['jA.angle']).toBeCloseTo(60, 9);
    expect(result.maxResidual).toBeLessThan(1e-6);
    const version = node([join(project, 'node_modules/.bin/kinemate'), '--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
  });

  it("starts the installed command from the build's code cache, and loads ES-module-only packages from it (plot: vega)", () => {
    const loader = join(project, 'node_modules/kinemate/bin/load-command.js');
    const loaded = node(['--input-type=module', '-e', `const { loadCommand } = await import(${JSON.stringify(loader)}); console.log(loadCommand().cache);`]);
    expect(loaded.stderr).toBe('');
    expect(loaded.stdout.trim()).toBe('accepted');
    const svg = join(project, 'camber.svg');
    const plot = node([join(project, 'node_modules/.bin/kinemate'), 'plot', GEOMETRY, '--bump', '-40:40:5', '--metric', 'camber', '--out', svg]);
    expect(plot.stderr).toBe('');
    expect(plot.status).toBe(0);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg[^>]* width="\d+" height="\d+"/);
    // three as an ES module (its CommonJS build, if required, prints a deprecation warning)
    const clearance = node([join(project, 'node_modules/.bin/kinemate'), 'clearance', join(REPO, 'examples/cad/double_wishbone_stl.yaml'), '--bump', '-10:10:2']);
    expect(clearance.stderr).toBe('');
    expect(clearance.status).toBe(0);
    expect(Object.keys(JSON.parse(clearance.stdout).summary).length).toBeGreaterThan(0);
  });

  it('runs `kinemate batch` on worker threads from the installed package (its workers need no tsx)', () => {
    const geometry = join(REPO, 'examples/suspension/double_wishbone.yaml');
    const doe = join(REPO, 'examples/sensitivity/doe_upper_arm.yaml');
    const threaded = node([join(project, 'node_modules/.bin/kinemate'), 'batch', geometry, '--doe', doe, '--threads', '2']);
    expect(threaded.stderr).toBe('');
    expect(threaded.status).toBe(0);
    const inline = node([join(project, 'node_modules/.bin/kinemate'), 'batch', geometry, '--doe', doe, '--threads', '0']);
    expect(inline.status).toBe(0);
    const rows = threaded.stdout.trim().split('\n');
    expect(rows.length).toBeGreaterThan(10);
    expect(threaded.stdout).toBe(inline.stdout);
  }, 120_000);

  it("runs a sweep through `import … from 'kinemate'`, matching the sources' sweep", () => {
    writeFileSync(join(project, 'sweep.mjs'), `
      import { readFileSync } from 'node:fs';
      import { parseGeometry, suspensionAssembly, SuspensionModel, runSweep, sweepFromShortcut, AssemblyError, parseAssembly } from 'kinemate';
      const geometry = parseGeometry(readFileSync(${JSON.stringify(GEOMETRY)}, 'utf8'));
      const run = runSweep(new SuspensionModel(suspensionAssembly(geometry)), sweepFromShortcut('bump', '-40:40:5', geometry));
      let refused = '';
      try { parseAssembly('{}'); } catch (error) { refused = error instanceof AssemblyError ? 'AssemblyError' : String(error); }
      console.log(JSON.stringify({ steps: run.steps.map((s) => ({ status: s.status, camber: s.metrics.camber })), refused }));
    `);
    const run = node(['sweep.mjs']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const installed = JSON.parse(run.stdout) as { steps: { status: string; camber: number }[]; refused: string };
    const geometry = parseGeometry(readFileSync(GEOMETRY, 'utf8'));
    const here = runSweep(new SuspensionModel(suspensionAssembly(geometry)), sweepFromShortcut('bump', '-40:40:5', geometry));
    expect(installed.steps.map((s) => s.status)).toEqual(['solved', 'solved', 'solved', 'solved', 'solved']);
    const camber = here.steps.map((s) => (s.metrics as Record<string, number>).camber);
    expect(camber.every(Number.isFinite)).toBe(true);
    installed.steps.forEach((s, i) => expect(s.camber).toBeCloseTo(camber[i], 9));
    expect(installed.refused).toBe('AssemblyError');
  });

  it('type-checks a consumer against the declarations (moduleResolution nodenext)', () => {
    writeFileSync(join(project, 'use.ts'), `
      import { buildModel, parseAssembly, solveModel, type SolveResult } from 'kinemate';
      import { chartSvg } from 'kinemate/pictures';
      const result: SolveResult = solveModel(buildModel(parseAssembly('{}')));
      const status: 'solved' | 'failed' = result.status;
      export { status, chartSvg };
    `);
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node', '--typeRoots', join(REPO, 'node_modules/@types'), 'use.ts'], { cwd: project, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
