/** `kinemate solve`, `kinemate dof` and `kinemate drive`: assembly files in, JSON out. */
// The modules themselves, not src/index.ts: the command starts without loading the whole
// library (the live model, dynamics, their packages).
import { AssemblyError } from '../assembly/errors.ts';
import { parseAssembly } from '../assembly/load.ts';
import { buildModel, type Model } from '../model/build.ts';
import { dofModel, driveSteps, MAX_DRIVE_STEPS, solveModel } from '../model/operations.ts';
import {
  onePositional, parseAssignments, parseBoundedCount, parseCommandArgs, parseNumber, requiredOption, stringOptions,
} from './args.ts';
import type { Command } from './command.ts';
import { readStdinText, readTextFile } from './files.ts';
import { CliError, EXIT, toJsonText, type CliIO } from './io.ts';
import { progressLine } from './progress.ts';

const UNITS_NOTE =
  'Values are in the file\'s units: lengths in its length unit (mm), angles in degrees\n' +
  '(radians when the file has "units": { "angle": "rad" }).';

const EXIT_NOTE = (failed: string): string =>
  `Exit codes: 0 solved; 1 bad input (one line on stderr, nothing on stdout);\n2 ${failed}.`;

/** Reads MODEL (a path, or `-` for standard input) and builds its model. */
export async function loadModel(file: string, io: CliIO): Promise<Model> {
  const text = file === '-' ? await readStdinText(io, 'model', 'JSON') : await readTextFile(file, 'model', 'JSON');
  let doc;
  try {
    doc = parseAssembly(text);
  } catch (error) {
    // A suspension geometry given to solve/dof/drive: say which command reads it.
    if (error instanceof AssemblyError && /^invalid JSON/.test(error.message.replace(/^\$: /, '')) && looksLikeYaml(file, text)) {
      throw new CliError(`model file "${file}": not an assembly (*.kinemate.json): it reads as YAML; a suspension geometry file is read by kinemate sweep (${error.message})`);
    }
    throw error;
  }
  return buildModel(doc);
}

function looksLikeYaml(file: string, text: string): boolean {
  return /\.ya?ml$/i.test(file) || /^\s*(?:#|---|[A-Za-z_][\w-]*\s*:)/.test(text);
}

export const solveCommand: Command = {
  name: 'solve',
  synopsis: 'solve  MODEL [--set COORD=VALUE]... [--hold COORD]...',
  summary: 'solve the assembly and print its status, freedom and state',
  help: `Usage: kinemate solve MODEL [--set COORD=VALUE]... [--hold COORD]...

Solves the assembly in MODEL (a *.kinemate.json file, or - for standard input) and
prints { status, converged, iterations, maxResidual, dof, redundant, conflicting,
atLimit, state } as JSON on stdout. state holds every moving part's pose
("crank.pose") and every joint coordinate ("jA.angle").

Options:
  --set COORD=VALUE  give a coordinate a value, as the file's "state" does. A held
                     coordinate (the file's "held", or --hold) is driven there; a free
                     one only starts there. Repeatable: --set jA.angle=90 --set jB.angle=0
  --hold COORD       also hold COORD at its value (a driver), as the file's "held" does.
                     Repeatable.
  -h, --help         this text

${UNITS_NOTE}
${EXIT_NOTE('the model cannot be solved: status "failed", and "conflicting" names a minimal\nset of mates that cannot hold together')}

Example: kinemate solve four-bar.kinemate.json --set jA.angle=90
`,
  async run(argv, io) {
    const args = parseCommandArgs('solve', argv, {
      set: { type: 'string', multiple: true },
      hold: { type: 'string', multiple: true },
    });
    const file = onePositional('solve', args, 'MODEL file');
    const set = parseAssignments(stringOptions(args, 'set'), '--set');
    const hold = stringOptions(args, 'hold');
    const model = await loadModel(file, io);
    const result = solveModel(model, { set, hold });
    await io.out(toJsonText(result));
    return result.status === 'solved' ? EXIT.ok : EXIT.failed;
  },
};

export const dofCommand: Command = {
  name: 'dof',
  synopsis: 'dof    MODEL',
  summary: 'print the degrees of freedom, per part, and redundant or conflicting mates',
  help: `Usage: kinemate dof MODEL

Solves the assembly in MODEL (a *.kinemate.json file, or - for standard input) where
it stands and prints { dof, parts, redundant, conflicting } as JSON on stdout: the
mechanism's degrees of freedom (held coordinates are drivers and do not reduce it),
each part's own freedom (0 for a fixed part), the mates whose rows repeat others, and
(when the solve fails) a minimal set of mates that cannot hold together.

Options:
  -h, --help         this text

${EXIT_NOTE('the model cannot be solved ("conflicting" is not empty)')}
`,
  async run(argv, io) {
    const args = parseCommandArgs('dof', argv, {});
    const file = onePositional('dof', args, 'MODEL file');
    const result = dofModel(await loadModel(file, io));
    await io.out(toJsonText(result));
    return result.conflicting.length === 0 ? EXIT.ok : EXIT.failed;
  },
};

export const driveCommand: Command = {
  name: 'drive',
  synopsis: 'drive  MODEL --coordinate COORD --from A --to B --steps N',
  summary: 'step a coordinate from A to B and print the state at every step',
  help: `Usage: kinemate drive MODEL --coordinate COORD --from A --to B --steps N

Drives COORD from A to B in N equal steps, each solved from the last, and prints
{ "steps": [ { value, status, state }, ... ] } as JSON on stdout: N + 1 states (N
counts the steps between them, unlike sweep's A:B:N, which counts states), the first
at A, the last at B. Joint angles are reported continuously (no jump of 360° between
steps). A drive that cannot go on ends with one step of status "failed" at the last
state that solves: where a joint limit stops it, exactly at the limit, with the joint
in "atLimit" and a message naming the limit and where the coordinate stopped. The
states are printed as they are solved. Progress is shown on stderr when stderr is a
terminal.

Options:
  --coordinate COORD  the coordinate to drive, e.g. jA.angle (held during the drive)
  --from A            first value (a negative value may follow with a space: --from -30)
  --to B              last value
  --steps N           number of steps, a whole number from 1 to ${MAX_DRIVE_STEPS} (N + 1 states)
  -h, --help          this text

${UNITS_NOTE}
${EXIT_NOTE('a step could not be solved (a joint limit, a dead point, a branch change)')}

Example: kinemate drive four-bar.kinemate.json --coordinate jA.angle --from 30 --to 390 --steps 36
`,
  async run(argv, io) {
    const args = parseCommandArgs('drive', argv, {
      coordinate: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      steps: { type: 'string' },
    });
    const file = onePositional('drive', args, 'MODEL file');
    const coordinate = requiredOption('drive', args, 'coordinate', 'COORD');
    const from = parseNumber(requiredOption('drive', args, 'from', 'A'), '--from');
    const to = parseNumber(requiredOption('drive', args, 'to', 'B'), '--to');
    const steps = parseBoundedCount(requiredOption('drive', args, 'steps', 'N'), '--steps', 1, MAX_DRIVE_STEPS,
      (got) => `--steps: at most ${MAX_DRIVE_STEPS} steps (${MAX_DRIVE_STEPS + 1} states), got ${got}; drive a shorter range, or fewer steps`);
    const model = await loadModel(file, io);
    const progress = io.stderrIsTTY ? progressLine(io, 'drive') : undefined;
    // Streamed: each state is printed as it is solved (in chunks), never built as one string.
    let chunk = '{\n  "steps": [\n';
    let first = true;
    let failed = false;
    for (const step of driveSteps(model, coordinate, from, to, steps, progress ? { onProgress: progress.update } : {})) {
      chunk += `${first ? '' : ',\n'}    ${JSON.stringify(step, null, 2).replaceAll('\n', '\n    ')}`;
      first = false;
      failed ||= step.status !== 'solved';
      if (chunk.length > 1 << 16) {
        await io.out(chunk);
        chunk = '';
      }
    }
    await progress?.clear();
    await io.out(`${chunk}\n  ]\n}\n`);
    return failed ? EXIT.failed : EXIT.ok;
  },
};

export { progressLine } from './progress.ts';
