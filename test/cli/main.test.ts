/**
 * The `kinemate` command as a user runs it: on real files in a temporary folder, checking
 * stdout, stderr and the exit code against the contract (shared/design/assembly-format.md).
 * A few tests spawn the command, for what only a real process shows: the contract's solve
 * as `npx --no-install kinemate` (npx finds the package's own bin, which in a clone runs the
 * sources through tsx: ~2.5 s of CPU), and the built command (test/setup/built-command.ts)
 * on standard input, on a terminal (its progress bar) and on bad JSON (exit 1, no stack
 * trace). The rest run the command's `main` in this process, which is the same code
 * without the 0.3–2 s of a process start each.
 */
import { existsSync, readFileSync } from 'node:fs';
import { main } from '../../src/cli/main.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fourBarDoc, rockerAngle } from '../../examples/fourbar.ts';
import { validateAssembly } from '../../src/assembly/index.ts';
import {
  REPO, conflictingDoc, fourBarText, hasNoStackTrace, kinemate, memoryIO, spawnIn, tempFolder, wrapDegrees, writeModel, type Run,
} from './helpers.ts';

const deg = (rad: number): number => (rad * 180) / Math.PI;
const rad = (degrees: number): number => (degrees * Math.PI) / 180;

interface Pose { position: number[]; rotation: number[] }
interface SolveJson {
  status: string; converged: boolean; iterations: number; maxResidual: number; dof: number;
  redundant: string[]; conflicting: string[]; atLimit: string[];
  state: Record<string, number | Pose>;
}
interface DriveJson { steps: { value: number; status: string; state: Record<string, number | Pose> }[] }

let folder: ReturnType<typeof tempFolder>;
let fourBar: string;

beforeAll(() => {
  folder = tempFolder();
  fourBar = writeModel(folder.file('four-bar.kinemate.json'), fourBarText());
});
afterAll(() => folder.remove());

/** The run printed exactly one line on stderr, `kinemate: <message>`, nothing on stdout, and exited with 1. */
function expectBadInput(run: Run, message: string | RegExp): void {
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n')).toBe(true);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr.startsWith('kinemate: ')).toBe(true);
  if (typeof message === 'string') expect(run.stderr.trimEnd()).toBe(`kinemate: ${message}`);
  else expect(run.stderr).toMatch(message);
  expect(hasNoStackTrace(run.stderr)).toBe(true);
  expect(run.code).toBe(1);
}

/** `main` run in the test process on a memory IO, as a Run. */
async function inProcess(args: string[], stdin?: string): Promise<Run> {
  const io = memoryIO(stdin === undefined ? {} : { stdin });
  const code = await main(args, io);
  return { code, stdout: io.written.stdout, stderr: io.written.stderr };
}

/** The output parsed, after checking it is the 2-space pretty form with a final newline. */
function jsonOf<T>(run: Run): T {
  const value = JSON.parse(run.stdout) as T;
  expect(run.stdout).toBe(`${JSON.stringify(value, null, 2)}\n`);
  return value;
}

describe.concurrent('kinemate solve', () => {
  it('prints the contract JSON for the four-bar: solved, dof 1, the crank pose and the joint angles', async () => {
    // the package's own bin from the repository root, as the README's commands run it
    const run = await spawnIn('npx', ['--no-install', 'kinemate', 'solve', fourBar]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = jsonOf<SolveJson>(run);
    expect(Object.keys(result)).toEqual(['status', 'converged', 'iterations', 'maxResidual', 'dof', 'redundant', 'conflicting', 'atLimit', 'state']);
    expect(result.status).toBe('solved');
    expect(result.converged).toBe(true);
    expect(result.dof).toBe(1);
    expect(result.conflicting).toEqual([]);
    expect(result.maxResidual).toBeLessThan(1e-9);
    const crank = result.state['crank.pose'] as Pose;
    expect(crank.position).toHaveLength(3);
    expect(crank.rotation).toHaveLength(4);
    expect(crank.rotation[0]).toBeCloseTo(Math.cos(rad(15)), 12);
    expect(crank.rotation[3]).toBeCloseTo(Math.sin(rad(15)), 12);
    expect(result.state['jA.angle']).toBeCloseTo(30, 9);
    expect(result.state['jD.angle']).toBeCloseTo(deg(rockerAngle(rad(30))), 6);
    expect(result.state).not.toHaveProperty('ground.pose'); // fixed parts do not move
  });

  it('--set jA.angle=90 turns the crank, and the rocker follows the closed-form angle to 1e-6°', async () => {
    const run = await inProcess(['solve', fourBar, '--set', 'jA.angle=90']);
    expect(run.code).toBe(0);
    const result = jsonOf<SolveJson>(run);
    expect(result.status).toBe('solved');
    expect(result.state['jA.angle']).toBeCloseTo(90, 9);
    expect(Math.abs(wrapDegrees((result.state['jD.angle'] as number) - deg(rockerAngle(rad(90)))))).toBeLessThan(1e-6);
    const crank = result.state['crank.pose'] as Pose;
    expect(Math.abs(crank.rotation[0])).toBeCloseTo(Math.SQRT1_2, 9);
    expect(Math.abs(crank.rotation[3])).toBeCloseTo(Math.SQRT1_2, 9);
  });

  it('--hold makes a driver of a free coordinate, and --set takes a negative value', async () => {
    const free = writeModel(folder.file('four-bar-free.kinemate.json'), validateAssembly({ ...fourBarDoc(30), held: [] }));
    const run = await inProcess(['solve', free, '--hold', 'jA.angle', '--set', 'jA.angle=-45']);
    expect(run.code).toBe(0);
    const result = jsonOf<SolveJson>(run);
    expect(result.state['jA.angle']).toBeCloseTo(-45, 9);
    expect(Math.abs(wrapDegrees((result.state['jD.angle'] as number) - deg(rockerAngle(rad(-45)))))).toBeLessThan(1e-6);
  });

  it('reads values in radians from a file whose angle unit is rad', async () => {
    const doc = fourBarDoc(30);
    const radians = writeModel(folder.file('four-bar-rad.kinemate.json'), validateAssembly({ ...doc, units: { length: 'mm', angle: 'rad' }, state: { 'jA.angle': rad(30) } }));
    const run = await inProcess(['solve', radians, '--set', `jA.angle=${Math.PI / 2}`]);
    expect(run.code).toBe(0);
    const result = jsonOf<SolveJson>(run);
    expect(result.state['jA.angle']).toBeCloseTo(Math.PI / 2, 12);
    expect(result.state['jD.angle']).toBeCloseTo(rockerAngle(Math.PI / 2), 8);
  });

  it('reads the model from standard input when MODEL is -', async () => {
    const run = await kinemate(['solve', '-'], { input: fourBarText() });
    expect(run.code).toBe(0);
    expect(jsonOf<SolveJson>(run).status).toBe('solved');
  });

  it('a model that cannot hold together: status failed, exit 2, conflicting names exactly the two revolutes', async () => {
    const file = writeModel(folder.file('conflict.kinemate.json'), conflictingDoc());
    const run = await inProcess(['solve', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    const result = jsonOf<SolveJson>(run);
    expect(result.status).toBe('failed');
    expect(result.converged).toBe(false);
    expect([...result.conflicting].sort()).toEqual(['j1', 'j2']);
  });
});

describe.concurrent('kinemate dof', () => {
  it('prints { dof, parts, redundant, conflicting }', async () => {
    const run = await inProcess(['dof', fourBar]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const result = jsonOf<{ dof: number; parts: Record<string, number>; redundant: string[]; conflicting: string[] }>(run);
    expect(Object.keys(result)).toEqual(['dof', 'parts', 'redundant', 'conflicting']);
    expect(result.dof).toBe(1);
    expect(result.parts).toEqual({ ground: 0, crank: 1, coupler: 1, rocker: 1 });
    expect(result.conflicting).toEqual([]);
    // a planar four-bar of revolutes in space over-constrains the out-of-plane rows
    expect(result.redundant.length).toBeGreaterThan(0);
  });

  it('exits with 2 and names the conflict when the model cannot be solved', async () => {
    const file = writeModel(folder.file('conflict-dof.kinemate.json'), conflictingDoc());
    const run = await inProcess(['dof', file]);
    expect(run.code).toBe(2);
    expect([...jsonOf<{ conflicting: string[] }>(run).conflicting].sort()).toEqual(['j1', 'j2']);
  });
});

describe.concurrent('kinemate drive', () => {
  it('drives the crank a full turn: 37 steps, all solved, jD.angle continuous and on the closed form', async () => {
    const run = await inProcess(['drive', fourBar, '--coordinate', 'jA.angle', '--from', '30', '--to', '390', '--steps', '36']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(''); // stderr is not a terminal: no progress
    const { steps } = jsonOf<DriveJson>(run);
    expect(steps).toHaveLength(37);
    steps.forEach((step, i) => {
      expect(step.status).toBe('solved');
      expect(step.value).toBe(30 + 10 * i);
      expect(step.state['jA.angle']).toBeCloseTo(30 + 10 * i, 9); // past 360, not wrapped
      expect(Math.abs(wrapDegrees((step.state['jD.angle'] as number) - deg(rockerAngle(rad(step.value)))))).toBeLessThan(1e-6);
    });
    for (let i = 1; i < steps.length; i++) {
      for (const name of ['jB.angle', 'jC.angle', 'jD.angle']) {
        expect(Math.abs((steps[i].state[name] as number) - (steps[i - 1].state[name] as number))).toBeLessThan(90);
      }
    }
    // one full turn brings the rocker back to where it started
    expect(steps[36].state['jD.angle']).toBeCloseTo(steps[0].state['jD.angle'] as number, 6);
  });

  it('takes a negative --from after a space', async () => {
    const run = await inProcess(['drive', fourBar, '--coordinate', 'jA.angle', '--from', '-30', '--to', '30', '--steps', '6']);
    expect(run.code).toBe(0);
    expect(jsonOf<DriveJson>(run).steps.map((s) => s.value)).toEqual([-30, -20, -10, 0, 10, 20, 30]);
  });

  it('writes a large output completely through a pipe before exiting', async () => {
    const run = await inProcess(['drive', fourBar, '--coordinate', 'jA.angle', '--from', '0', '--to', '720', '--steps', '2000']);
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(1_000_000);
    const { steps } = JSON.parse(run.stdout) as DriveJson;
    expect(steps).toHaveLength(2001);
    expect(steps[2000].value).toBe(720);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('draws progress on stderr when stderr is a terminal, keeping stdout clean', async () => {
    const out = folder.file('drive-tty.json');
    // `script` gives the command a pseudo-terminal; stdout goes to a file, stderr stays on the terminal
    // (the built command, as the other spawned runs but the contract's solve and the bare command)
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(inject('builtCommand'))} drive ${JSON.stringify(fourBar)} --coordinate jA.angle --from 30 --to 390 --steps 36 > ${JSON.stringify(out)}`;
    const run = await spawnIn('script', ['-qec', command, '/dev/null']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/drive \[#+\.*\] \d+\/37/);
    expect((JSON.parse(readFileSync(out, 'utf8')) as DriveJson).steps).toHaveLength(37);
  });

  it('a drive that cannot go on ends with a failed step and exit 2', async () => {
    const file = writeModel(folder.file('conflict-drive.kinemate.json'), conflictingDoc());
    const run = await inProcess(['drive', file, '--coordinate', 'j1.angle', '--from', '0', '--to', '10', '--steps', '2']);
    expect(run.code).toBe(2);
    const { steps } = jsonOf<DriveJson>(run);
    expect(steps.at(-1)!.status).toBe('failed');
  });
});

describe.concurrent('bad input: exit 1, one line on stderr naming the place, no stack trace', () => {
  it('a file that is not JSON', async () => {
    const file = writeModel(folder.file('bad-json.kinemate.json'), fourBarText().replace('"parts": {', '"parts": {,'));
    expectBadInput(await kinemate(['solve', file]), /^kinemate: \$: invalid JSON at line \d+, column \d+: /);
  });

  it('a reference to a missing entity', async () => {
    const file = writeModel(folder.file('missing-entity.kinemate.json'), fourBarText().replace('"b": "coupler.start"', '"b": "coupler.nope"'));
    expectBadInput(await inProcess(['solve', file]), 'mates.jB.b: no entity "nope" on part "coupler"');
  });

  it('the same through dof and drive', async () => {
    const file = writeModel(folder.file('missing-entity-2.kinemate.json'), fourBarText().replace('"b": "coupler.start"', '"b": "coupler.nope"'));
    expectBadInput(await inProcess(['dof', file]), 'mates.jB.b: no entity "nope" on part "coupler"');
    expectBadInput(await inProcess(['drive', file, '--coordinate', 'jA.angle', '--from', '0', '--to', '1', '--steps', '1']), 'mates.jB.b: no entity "nope" on part "coupler"');
  });

  it('an unknown coordinate in --set', async () => {
    expectBadInput(await inProcess(['solve', fourBar, '--set', 'jX.angle=3']), /^kinemate: --set jX\.angle: no coordinate "jX\.angle" \(coordinates: jA\.angle, /);
  });

  it('a file that is not there', async () => {
    const missing = join(folder.dir, 'nope.kinemate.json');
    expectBadInput(await inProcess(['solve', missing]), `cannot read model file "${missing}": no such file or directory`);
  });

  it('an unknown option', async () => {
    expectBadInput(await inProcess(['solve', fourBar, '--bogus']), 'solve: unknown option --bogus; solve takes --set, --hold, --help');
  });
});

// The same code as the spawned runs, in the test process (cheaper): every other kind of bad input.
describe.concurrent('bad input, in process', () => {
  it('unknown coordinates in --hold and --coordinate', async () => {
    expectBadInput(await inProcess(['solve', fourBar, '--hold', 'crank.pose']), /^kinemate: --hold crank\.pose: no coordinate "crank\.pose"/);
    expectBadInput(await inProcess(['drive', fourBar, '--coordinate', 'jA.slide', '--from', '0', '--to', '1', '--steps', '1']), /^kinemate: --coordinate: no coordinate "jA\.slide"/);
  });

  it('a folder given as MODEL', async () => {
    expectBadInput(await inProcess(['dof', folder.dir]), `cannot read model file "${folder.dir}": it is a directory`);
  });

  it('a model on standard input that is not JSON', async () => {
    expectBadInput(await inProcess(['solve', '-'], 'not json'), /^kinemate: \$: invalid JSON at line 1, column 1: /);
  });

  it('bad options and arguments', async () => {
    expectBadInput(await inProcess(['solve', fourBar, '--set', 'jA.angle']), '--set jA.angle: expected COORD=VALUE, e.g. --set jA.angle=90');
    expectBadInput(await inProcess(['solve', fourBar, '--set', 'jA.angle=ninety']), '--set jA.angle: expected a number, got "ninety"');
    expectBadInput(await inProcess(['solve', fourBar, '--set', 'jA.angle=1', '--set', 'jA.angle=2']), '--set jA.angle: given more than once');
    expectBadInput(await inProcess(['solve']), 'solve: missing MODEL file (see kinemate solve --help)');
    expectBadInput(await inProcess(['solve', fourBar, fourBar]), `solve: unexpected argument "${fourBar}"; solve takes one MODEL file`);
    expectBadInput(await inProcess(['drive', fourBar, '--coordinate', 'jA.angle', '--from', '0', '--to', '1']), 'drive: --steps N is required');
    expectBadInput(await inProcess(['drive', fourBar, '--coordinate', 'jA.angle', '--from', '0', '--to', '1', '--steps', '2.5']), '--steps: expected a whole number ≥ 1, got "2.5"');
    expectBadInput(await inProcess(['drive', fourBar, '--coordinate', 'jA.angle', '--from', 'NaN', '--to', '1', '--steps', '2']), '--from: expected a number, got "NaN"');
    expectBadInput(await inProcess(['drive', fourBar, '--coordinate']), 'drive: --coordinate needs a value');
    expectBadInput(await inProcess(['frobnicate']), 'unknown command "frobnicate"; the commands are solve, dof, drive, sweep, kc, sensitivity, fit, batch, worker, statics, equilibrium, modes, simulate, vehicle, plot, report, export, tyre, clearance, envelope (see kinemate --help)');
    expectBadInput(await inProcess(['--frob']), 'unknown option --frob; expected a command (solve, dof, drive, sweep, kc, sensitivity, fit, batch, worker, statics, equilibrium, modes, simulate, vehicle, plot, report, export, tyre, clearance, envelope), --help or --version');
  });
});

describe.concurrent('help, version, sweep', () => {
  it('--help lists the commands on stdout; each command has its own --help', async () => {
    const run = await inProcess(['--help']);
    expect(run.code).toBe(0);
    for (const usage of ['kinemate solve  MODEL [--set COORD=VALUE]... [--hold COORD]...', 'kinemate dof    MODEL', 'kinemate drive  MODEL --coordinate COORD --from A --to B --steps N', 'kinemate sweep  GEOMETRY']) {
      expect(run.stdout).toContain(usage);
    }
    const solve = await inProcess(['solve', '--help']);
    expect(solve.code).toBe(0);
    expect(solve.stdout).toMatch(/^Usage: kinemate solve MODEL/);
    const drive = await inProcess(['drive', fourBar, '-h']);
    expect(drive.code).toBe(0);
    expect(drive.stdout).toMatch(/^Usage: kinemate drive MODEL --coordinate COORD/);
    const dof = await inProcess(['help', 'dof']);
    expect(dof.stdout).toMatch(/^Usage: kinemate dof MODEL/);
  });

  it('with no arguments prints the help on stderr and exits with 1', async () => {
    const run = await inProcess([]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage:');
  });

  it('--version prints the package version', async () => {
    const run = await inProcess(['--version']);
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(run.stdout).toBe(`${manifest.version}\n`);
    expect(run.code).toBe(0);
  });

  it('sweep --help prints its usage', async () => {
    const help = await inProcess(['sweep', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: kinemate sweep GEOMETRY/);
  });
});

describe('main in the test process', () => {
  it('draws and then erases a progress bar on a terminal stderr; stdout holds only the JSON', async () => {
    const io = memoryIO({ tty: true });
    expect(await main(['drive', fourBar, '--coordinate', 'jA.angle', '--from', '30', '--to', '90', '--steps', '6'], io)).toBe(0);
    expect(io.written.stderr).toMatch(/^\rdrive \[/);
    expect(io.written.stderr).toContain('7/7');
    expect(io.written.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect((JSON.parse(io.written.stdout) as DriveJson).steps).toHaveLength(7);
  });

  it('no progress when stderr is not a terminal', async () => {
    const io = memoryIO({ tty: false });
    expect(await main(['drive', fourBar, '--coordinate', 'jA.angle', '--from', '30', '--to', '40', '--steps', '2'], io)).toBe(0);
    expect(io.written.stderr).toBe('');
  });
});
