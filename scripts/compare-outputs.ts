/**
 * Runs the `kinemate` command over every example and every command into a folder, and
 * compares two such folders byte for byte: the check that a refactor leaves every CLI
 * output as it was.
 *
 * Usage:
 *   npx tsx scripts/compare-outputs.ts run OUT_DIR [--repo DIR] [--spawn] [--only TEXT]
 *   npx tsx scripts/compare-outputs.ts compare DIR_A DIR_B [--tolerance T]
 *
 * `run` writes one folder per case (named after its arguments) holding `stdout`, `stderr`,
 * `code` and any file the command wrote (--out, --gltf). It runs the `main` of
 * DIR/src/cli/main.ts (default: this repository) in this process, which is the command's
 * own code without a process start per case; `--spawn` runs `node DIR/bin/kinemate.js`
 * per case instead. Paths of the output folder and the repository in stdout/stderr are
 * written as $OUT and $REPO, so runs from different checkouts compare equal.
 * `compare` lists every file that is in one folder only or differs, and exits 1 if any.
 * With `--tolerance T`, a text file whose only differences are numbers a, b with
 * |a − b| ≤ T·max(1, |a|, |b|) counts as equal (listed as "within", with its largest such
 * difference): the check for a change that moves results only inside the solver's tolerance.
 *
 * Durations, steps and sample counts are kept short: the whole run takes about a minute.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const USAGE = 'usage: npx tsx scripts/compare-outputs.ts run OUT_DIR [--repo DIR] [--spawn] [--only TEXT] | compare DIR_A DIR_B [--tolerance T]';

/** One command line; `{out}` in an argument is replaced by the case's own folder. */
type Case = readonly string[];

const EX = 'examples';
const SUS = `${EX}/suspension`;
const SENS = `${EX}/sensitivity`;

/** Every case, from the files in the examples folder of `repo`. */
function cases(repo: string): Case[] {
  const models = readdirSync(join(repo, EX)).filter((f) => f.endsWith('.kinemate.json')).sort().map((f) => `${EX}/${f}`);
  models.push(`${SUS}/solid_axle_watts.kinemate.json`);
  const yaml = readdirSync(join(repo, SUS)).filter((f) => f.endsWith('.yaml')).sort();
  const geometries = yaml.filter((f) => /^hardpoints:/m.test(readFileSync(join(repo, SUS, f), 'utf8'))).map((f) => `${SUS}/${f}`);
  const sweeps = yaml.filter((f) => !geometries.includes(`${SUS}/${f}`)).map((f) => `${SUS}/${f}`);
  const list: Case[] = [['--help'], ['--version']];
  for (const command of ['solve', 'dof', 'drive', 'sweep', 'sensitivity', 'fit', 'batch', 'statics', 'equilibrium', 'modes', 'simulate', 'plot', 'report', 'export']) {
    list.push([command, '--help']);
  }
  for (const model of models) {
    for (const command of ['solve', 'dof', 'statics', 'equilibrium', 'modes']) list.push([command, model]);
    list.push(['simulate', model, '--duration', '0.01', '--step', '0.001', '--format', 'csv']);
  }
  for (const geometry of geometries) {
    list.push(['solve', geometry]);
    list.push(['sweep', geometry, '--bump', '-20:20:3']);
    list.push(['sweep', geometry, '--roll', '-2:2:3', '--format', 'csv']);
    list.push(['sweep', geometry, '--steer', '-10:10:3', '--format', 'csv']);
    list.push(['sweep', geometry, '--roll', '-2:2:3', '--loads', `${SUS}/loads/cornering_1g.yaml`]);
    list.push(['sweep', geometry, '--bump', '-10:10:3', '--loads', `${SUS}/loads/corner_cornering_1g.yaml`, '--format', 'csv']);
    list.push(['sensitivity', geometry, '--at', 'bump=10', '--metric', 'camber', '--metric', 'toe_angle']);
    list.push(['sensitivity', geometry, '--bump', '-10:10:2', '--metric', 'kpi', '--format', 'csv']);
    list.push(['sensitivity', geometry, '--at', 'bump=10', '--loads', `${SUS}/loads/corner_cornering_1g.yaml`, '--metric', 'link_force.trackrod']);
    list.push(['export', geometry, '--bump', '-10:10:3', '--gltf', '{out}/sweep.glb']);
    list.push(['plot', geometry, '--bump', '-20:20:5', '--metric', 'camber', '--metric', 'toe_angle', '--out', '{out}/plot.svg']);
    list.push(['plot', geometry, '--roll', '-2:2:3', '--metric', 'axle.roll_center_z', '--out', '{out}/axle.svg']);
  }
  // the K&C rig on the compliant geometries: every event once
  for (const geometry of geometries.filter((g) => /^compliance:/m.test(readFileSync(join(repo, g), 'utf8')))) {
    list.push(['kc', geometry, '--event', 'lateral']);
    list.push(['kc', geometry, '--event', 'braking', '--format', 'csv']);
    list.push(['kc', geometry, '--event', 'traction', '--at', 'bump=20']);
    list.push(['kc', geometry, '--event', 'aligning', '--range', '-100000:100000:3']);
    list.push(['kc', geometry, '--event', 'vertical', '--range', '-20:20:5']);
  }
  for (const sweep of sweeps) {
    list.push(['sweep', `${SUS}/double_wishbone.yaml`, '--sweep', sweep]);
    list.push(['sweep', `${SUS}/double_wishbone_axle_heave_link.yaml`, '--sweep', sweep]);
  }
  list.push(
    ['drive', `${EX}/four-bar.kinemate.json`, '--coordinate', 'jA.angle', '--from', '30', '--to', '390', '--steps', '36'],
    ['drive', `${EX}/slider-crank.kinemate.json`, '--coordinate', 'jA.angle', '--from', '90', '--to', '-90', '--steps', '18'],
    ['drive', `${EX}/offset-slider-crank.kinemate.json`, '--coordinate', 'jA.angle', '--from', '90', '--to', '-90', '--steps', '18'],
    ['drive', `${EX}/cam.kinemate.json`, '--coordinate', 'jCam.angle', '--from', '0', '--to', '400', '--steps', '20'],
    ['solve', `${EX}/four-bar.kinemate.json`, '--set', 'jA.angle=90'],
    ['solve', `${EX}/stewart.kinemate.json`, '--hold', 'leg1.slide', '--set', 'leg1.slide=1.05'],
    ['statics', `${EX}/slider-crank-load.kinemate.json`, '--set', 'jA.angle=60'],
    ['sweep', `${SUS}/multi_link.yaml`, '--sweep', `${SUS}/bump_steer.yaml`, '--hold', 'damper_length'],
    ['sweep', `${SUS}/double_wishbone.yaml`, '--bump', '-50:50:11', '--format', 'csv', '--out', '{out}/sweep.csv'],
    ['sensitivity', `${SUS}/double_wishbone.yaml`, '--at', 'steer=8', '--metric', 'kpi_virtual'],
    ['sensitivity', `${SUS}/double_wishbone_axle.yaml`, '--at', 'bump=10', '--metric', 'roll_center_kinematic_z'],
    ['sensitivity', `${SUS}/double_wishbone_axle_u_bar_rates.yaml`, '--at', 'bump=10', '--loads', `${SUS}/loads/cornering_1g.yaml`, '--metric', 'link_force.left_pushrod'],
    ['sensitivity', `${SUS}/double_wishbone.yaml`, '--targets', `${SENS}/fit_camber_gain.yaml`],
    ['sensitivity', `${SUS}/double_wishbone.yaml`, '--targets', `${SENS}/fit_camber_roll_centre.yaml`, '--format', 'csv'],
    ['sensitivity', `${SUS}/double_wishbone_axle.yaml`, '--targets', `${SENS}/fit_axle_camber_gain.yaml`],
    ['fit', `${SUS}/double_wishbone.yaml`, '--targets', `${SENS}/fit_camber_gain.yaml`, '--out', '{out}/fitted.json'],
    ['fit', `${SUS}/double_wishbone.yaml`, '--targets', `${SENS}/fit_camber_roll_centre.yaml`, '--out', '{out}/fitted_rc.json'],
    ['fit', `${SUS}/double_wishbone_axle.yaml`, '--targets', `${SENS}/fit_axle_camber_gain.yaml`, '--out', '{out}/fitted_axle.json'],
    ['batch', `${SUS}/double_wishbone.yaml`, '--doe', '{out}/doe.yaml', '--threads', '1', '--out', '{out}/doe.csv'],
    ['simulate', `${EX}/pendulum.kinemate.json`, '--duration', '0.5', '--step', '0.001', '--every', '10', '--format', 'csv'],
    ['simulate', `${EX}/pendulum.kinemate.json`, '--duration', '0.2', '--step', '0.002', '--method', 'backward-euler'],
    ['simulate', `${EX}/slider-crank-torque.kinemate.json`, '--duration', '0.1', '--step', '0.0005', '--every', '20'],
    ['simulate', `${EX}/quarter-car-bump.kinemate.json`, '--duration', '0.2', '--step', '0.001', '--every', '10', '--format', 'csv', '--out', '{out}/bump.csv'],
    ['simulate', `${EX}/dw-corner-bump.kinemate.json`, '--duration', '0.1', '--step', '0.001', '--every', '10', '--format', 'csv'],
    ['simulate', `${SUS}/double_wishbone_dynamics.yaml`, '--duration', '0.05', '--step', '0.0005', '--every', '20', '--format', 'csv'],
    ['simulate', `${SUS}/double_wishbone_dynamics.yaml`, '--duration', '0.05', '--step', '0.0005', '--every', '20'],
    ['simulate', `${EX}/quarter-car-bump.kinemate.json`, '--duration', '0.2', '--step', '0.001', '--gradient', 'spring.stiffness', '--gradient', 'damper.damping', '--gradient', 'body.mass', '--result', 'body.position.z@max'],
    ['simulate', `${EX}/quarter-car-bump.kinemate.json`, '--duration', '0.2', '--step', '0.001', '--gradient', 'spring.stiffness', '--gradient', 'body.mass', '--result', 'body.position.z@max', '--gradient-method', 'direct'],
    ['simulate', `${EX}/pinewood.kinemate.json`, '--duration', '0.3', '--step', '0.002', '--rho-inf', '0.5', '--gradient', 'body.frontAxle.x', '--gradient', 'body.rearAxle.x', '--result', 'body.nose.position.x@cross=100', '--result', 'body.nose.velocity.x@max'],
    ['simulate', `${EX}/pinewood.kinemate.json`, '--duration', '0.3', '--step', '0.002', '--rho-inf', '0.5', '--gradient', 'body.mass', '--gradient', 'rearBearing.friction', '--result', 'body.nose.velocity.x@max'],
    ['simulate', `${EX}/slider-crank-torque.kinemate.json`, '--duration', '0.05', '--step', '0.0005', '--gradient', 'slider.mass', '--result', 'slider.position.x@max'],
    ['simulate', `${SUS}/double_wishbone_dynamics.yaml`, '--duration', '0.03', '--step', '0.001', '--gradient', 'strut_top.z', '--gradient', 'spring.rate', '--gradient', 'dynamics.masses.upright.mass', '--result', 'upright.wheel_centre.position.z@max'],
    ['simulate', `${SUS}/double_wishbone_dynamics.yaml`, '--duration', '0.03', '--step', '0.001', '--gradient', 'strut_top.z', '--gradient', 'spring.rate', '--result', 'upright.wheel_centre.position.z@max', '--gradient-method', 'direct'],
    ['plot', `${EX}/four-bar.kinemate.json`, '--drive', 'jA.angle', '--from', '30', '--to', '390', '--steps', '12', '--metric', 'jB.angle', '--out', '{out}/drive.svg'],
    ['plot', `${SUS}/double_wishbone.yaml`, '--bump', '-20:20:5', '--metric', 'camber', '--out', '{out}/plot.png'],
    ['plot', `${SUS}/double_wishbone.yaml`, '--bump', '-20:20:5', '--metric', 'camber', '--baseline', `${SUS}/double_wishbone_camber_shim.yaml`, '--out', '{out}/baseline.svg'],
    ['report', `${SUS}/double_wishbone.yaml`, '--bump', '-20:20:5', '--out', '{out}/report.html'],
    ['report', `${SUS}/double_wishbone_axle.yaml`, '--roll', '-2:2:3', '--baseline', `${SUS}/double_wishbone_axle_u_bar.yaml`, '--out', '{out}/report.html'],
    ['report', `${SUS}/macpherson.yaml`, '--out', '{out}/report.html'],
    ['export', `${EX}/four-bar.kinemate.json`, '--drive', 'jA.angle', '--from', '30', '--to', '390', '--steps', '12', '--gltf', '{out}/drive.glb'],
    ['export', `${EX}/pendulum.kinemate.json`, '--simulate', '0.1', '--step', '0.01', '--gltf', '{out}/pendulum.glb'],
    // the whole car, the tyres and the CAD example (appended: the cases above keep their numbers)
    ['vehicle', `${EX}/vehicles/sedan.vehicle.yaml`, '--static'],
    ['vehicle', `${EX}/vehicles/sedan.vehicle.yaml`, '--ay', '0:0.8:3', '--format', 'csv'],
    ['vehicle', `${EX}/vehicles/sedan.vehicle.yaml`, '--ax', '-0.8:0.4:4'],
    ['vehicle', `${EX}/vehicles/solid_axle.vehicle.yaml`, '--ax', '-0.8:0.4:4'],
    ['vehicle', `${EX}/vehicles/sedan.vehicle.yaml`, '--steady-state', '--radius', '40', '--speed', '20:60:3'],
    ['vehicle', `${EX}/vehicles/sedan_mf.vehicle.yaml`, '--steady-state', '--radius', '40', '--speed', '20:70:6'],
    ['vehicle', `${EX}/vehicles/sedan.vehicle.yaml`, '--steady-state', '--radius', '40', '--speed', '20:60:3', '--steer', 'rack'],
    ['modes', `${EX}/vehicles/sedan.vehicle.yaml`],
    ['simulate', `${EX}/vehicles/sedan_bump.vehicle.yaml`, '--duration', '0.05', '--step', '0.001', '--every', '10'],
    ['simulate', `${EX}/vehicles/sedan_step_steer.vehicle.yaml`, '--duration', '0.06', '--step', '0.002', '--every', '10', '--format', 'csv'],
    ['simulate', `${EX}/vehicles/sedan_braking.vehicle.yaml`, '--duration', '0.06', '--step', '0.002', '--every', '10'],
    ['sensitivity', `${EX}/vehicles/sedan.vehicle.yaml`, '--metric', 'vehicle.roll_gradient', '--parameter', 'rear.spring.rate'],
    ['tyre', `${EX}/tyres/pacejka_205_60R15.tir`, '--slip-angle', '-12:12:7', '--slip-ratio', '-0.1:0.1:3'],
    ['tyre', `${EX}/tyres/pacejka_205_60R15.tir`, '--slip-angle', '4:4:1', '--slip-ratio', '-0.2:0.2:9', '--camber', '2', '--format', 'csv'],
    ['clearance', `${EX}/cad/double_wishbone_stl.yaml`, '--grid', 'bump=-50:50:3,steer=-30:30:3', '--min', '5'],
    ['clearance', `${EX}/cad/double_wishbone_step.yaml`, '--bump', '-50:50:3', '--format', 'csv'],
    ['envelope', `${EX}/cad/double_wishbone_stl.yaml`, '--grid', 'bump=-50:50:3,steer=-30:30:3', '--voxel', '8', '--out', '{out}/envelope.stl'],
    // statics and equilibrium on a vehicle file: the car at rest (appended, as above)
    ['statics', `${EX}/vehicles/solid_axle.vehicle.yaml`],
    ['equilibrium', `${EX}/vehicles/sedan.vehicle.yaml`],
  );
  return list;
}

/** A short DOE (the example's, with fewer samples) written into the batch case's folder. */
function prepare(repo: string, dir: string, args: Case): void {
  if (args[0] !== 'batch') return;
  const doe = readFileSync(join(repo, SENS, 'doe_upper_arm.yaml'), 'utf8').replace('samples: 400', 'samples: 6').replace('"-50:50:21"', '"-50:50:5"');
  writeFileSync(join(dir, 'doe.yaml'), doe);
}

/** A folder name for a case: its arguments, file names shortened, unsafe characters replaced. */
function caseName(index: number, args: Case): string {
  const words = args.map((a) => a.replace(/^.*\//, '').replace(/\.kinemate\.json$|\.yaml$/, '').replace(/^\{out\}/, ''));
  return `${String(index).padStart(3, '0')}-${words.join('_').replace(/[^A-Za-z0-9.=@_-]+/g, '-')}`.slice(0, 150);
}

interface Result { code: number | null; stdout: string; stderr: string }

type Runner = (args: readonly string[]) => Promise<Result>;

async function inProcess(repo: string): Promise<Runner> {
  const { main } = (await import(pathToFileURL(join(repo, 'src/cli/main.ts')).href)) as {
    main: (argv: readonly string[], io: unknown) => Promise<number>;
  };
  return async (args) => {
    let stdout = '', stderr = '';
    const io = {
      out: async (text: string) => { stdout += text; },
      err: async (text: string) => { stderr += text; },
      stderrIsTTY: false,
      readStdin: async () => '',
    };
    const code = await main(args, io);
    return { code, stdout, stderr };
  };
}

function spawned(repo: string): Runner {
  return (args) => new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(repo, 'bin/kinemate.js'), ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [], err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

async function run(outDir: string, repo: string, useSpawn: boolean, only: string | undefined): Promise<void> {
  const out = resolve(outDir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  process.chdir(repo);
  const runner = useSpawn ? spawned(repo) : await inProcess(repo);
  const all = cases(repo);
  const started = Date.now();
  let ran = 0;
  for (const [index, args] of all.entries()) {
    const name = caseName(index, args);
    if (only !== undefined && !name.includes(only)) continue;
    const dir = join(out, name);
    mkdirSync(dir);
    prepare(repo, dir, args);
    const argv = args.map((a) => a.replace('{out}', dir));
    const t0 = Date.now();
    const result = await runner(argv);
    const clean = (text: string) => text.split(dir).join('$OUT').split(repo).join('$REPO');
    writeFileSync(join(dir, 'stdout'), clean(result.stdout));
    writeFileSync(join(dir, 'stderr'), clean(result.stderr));
    writeFileSync(join(dir, 'code'), `${result.code}\n`);
    ran++;
    const ms = Date.now() - t0;
    if (ms > 3000) process.stderr.write(`  slow: ${name} ${ms} ms\n`);
  }
  process.stderr.write(`${ran} cases in ${((Date.now() - started) / 1000).toFixed(1)} s → ${out}\n`);
}

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found;
}

/** The first differing line of two texts, for the listing. */
function firstDifference(a: Buffer, b: Buffer): string {
  const la = a.toString('utf8').split('\n'), lb = b.toString('utf8').split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}: ${JSON.stringify((la[i] ?? '').slice(0, 120))} vs ${JSON.stringify((lb[i] ?? '').slice(0, 120))}`;
  }
  return 'bytes differ';
}

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

/**
 * The largest |a − b| / max(1, |a|, |b|) over the numbers of two texts that are the same
 * but for their numbers; Infinity when anything else differs (or the counts of numbers).
 */
function numericDistance(a: string, b: string): number {
  const textA = a.split(NUMBER), textB = b.split(NUMBER);
  if (textA.length !== textB.length || textA.some((t, i) => t !== textB[i])) return Infinity;
  const numbersA = a.match(NUMBER) ?? [], numbersB = b.match(NUMBER) ?? [];
  let worst = 0;
  for (let i = 0; i < numbersA.length; i++) {
    const x = Number(numbersA[i]), y = Number(numbersB[i]);
    if (x === y) continue;
    worst = Math.max(worst, Math.abs(x - y) / Math.max(1, Math.abs(x), Math.abs(y)));
  }
  return worst;
}

function compare(dirA: string, dirB: string, tolerance: number | undefined): number {
  const a = new Set(filesUnder(dirA)), b = new Set(filesUnder(dirB));
  let differences = 0, within = 0;
  for (const file of [...new Set([...a, ...b])].sort()) {
    if (!a.has(file) || !b.has(file)) {
      console.log(`only in ${a.has(file) ? dirA : dirB}: ${file}`);
      differences++;
      continue;
    }
    const bytesA = readFileSync(join(dirA, file)), bytesB = readFileSync(join(dirB, file));
    if (bytesA.equals(bytesB)) continue;
    const distance = tolerance === undefined ? Infinity : numericDistance(bytesA.toString('utf8'), bytesB.toString('utf8'));
    if (distance <= tolerance!) {
      console.log(`within: ${file} (largest relative difference ${distance.toExponential(2)})`);
      within++;
      continue;
    }
    console.log(`differs: ${file} (${firstDifference(bytesA, bytesB)})`);
    differences++;
  }
  const same = within ? `${a.size - within} files identical, ${within} within ${tolerance}` : `identical: ${a.size} files`;
  console.log(differences === 0 ? same : `${differences} difference(s)`);
  return differences === 0 ? 0 : 1;
}

async function cli(argv: string[]): Promise<number> {
  const [mode, ...rest] = argv;
  const option = (name: string) => {
    const at = rest.indexOf(name);
    if (at < 0) return undefined;
    const value = rest[at + 1];
    rest.splice(at, 2);
    return value;
  };
  if (mode === 'run') {
    const repo = resolve(option('--repo') ?? join(import.meta.dirname, '..'));
    const only = option('--only');
    const useSpawn = rest.includes('--spawn');
    const positional = rest.filter((r) => r !== '--spawn');
    if (positional.length !== 1 || !existsSync(join(repo, 'src/cli/main.ts'))) { console.error(USAGE); return 1; }
    await run(positional[0]!, repo, useSpawn, only);
    return 0;
  }
  if (mode === 'compare') {
    const text = option('--tolerance');
    const tolerance = text === undefined ? undefined : Number(text);
    if (rest.length === 2 && (tolerance === undefined || tolerance >= 0)) return compare(rest[0]!, rest[1]!, tolerance);
  }
  console.error(USAGE);
  return 1;
}

process.exit(await cli(process.argv.slice(2)));
