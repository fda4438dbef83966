/**
 * `kinemate sweep`: the command line is parsed here (the contract's options, strictly);
 * the work is done by `runSweepCommand(args: SweepArgs)` in ./sweep-run.ts. The runner is
 * found through a function so that tests can hand in their own (or none: the command then
 * says it is not available and exits with code 1).
 */
import { onePositional, parseCommandArgs, stringOption } from './args.ts';
import type { Command } from './command.ts';
import { CliError, type CliIO } from './io.ts';

import type { SweepArgs } from './sweep-run.ts';
export type { SweepArgs } from './sweep-run.ts';

export type SweepRunner = (args: SweepArgs) => Promise<number>;

/** The sweep's runner (a function, so that tests can substitute one, or none). */
export async function findSweepRunner(): Promise<SweepRunner | undefined> {
  const { runSweepCommand } = await import('./sweep-run.ts');
  return runSweepCommand;
}

export const NOT_AVAILABLE =
  'sweep is not available in this build (no sweep runner)';

const SWEEP_OPTIONS = {
  sweep: { type: 'string' },
  bump: { type: 'string' },
  steer: { type: 'string' },
  roll: { type: 'string' },
  hold: { type: 'string' },
  loads: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
} as const;

/** Parses the sweep command line into SweepArgs (exported for tests). */
export function parseSweepArgs(argv: readonly string[], io: CliIO): SweepArgs {
  const args = parseCommandArgs('sweep', argv, SWEEP_OPTIONS);
  const geometry = onePositional('sweep', args, 'GEOMETRY file');
  const format = stringOption(args, 'format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new CliError(`sweep: --format must be json or csv, got "${format}"`);
  const optional = (name: keyof typeof SWEEP_OPTIONS): Record<string, string> => {
    const value = stringOption(args, name);
    return value === undefined ? {} : { [name]: value };
  };
  return {
    geometry,
    ...optional('sweep'), ...optional('bump'), ...optional('steer'), ...optional('roll'),
    ...optional('hold'), ...optional('loads'), ...optional('out'),
    format,
    io,
  };
}

/** The sweep command, finding its runner with `find` (tests pass their own). */
export function makeSweepCommand(find: () => Promise<SweepRunner | undefined> = findSweepRunner): Command {
  return {
    name: 'sweep',
    synopsis:
      'sweep  GEOMETRY [--sweep SWEEP] [--bump A:B:N] [--steer A:B:N] [--roll A:B:N]\n' +
      '       [--hold ID] [--loads FILE] [--format json|csv] [--out FILE]',
    summary: 'suspension sweep: geometry in, metrics per step out',
    help: `Usage: kinemate sweep GEOMETRY [--sweep SWEEP] [--bump A:B:N] [--steer A:B:N] [--roll A:B:N]
                      [--hold ID] [--loads FILE] [--format json|csv] [--out FILE]

Runs a suspension sweep on GEOMETRY and prints the metrics at every step (JSON, or CSV
with --format csv), with a progress bar on stderr when stderr is a terminal.

Options:
  --sweep SWEEP      a sweep file (targets and steps)
  --bump A:B:N       wheel travel from A to B (mm: the wheel centre's z from its design
                     value, -50 is 50 mm below design), rack held
  --steer A:B:N      rack travel from A to B (mm from design, + toward the left),
                     wheel travel held at 0
  --roll A:B:N       axle roll (degrees) from A to B: left up, right down
  --hold ID          the suspension hold for the steering response
  --loads FILE       a load case at the contact centres (YAML or JSON: per side
                     force/moment, or corner_mass with braking_g, traction_g,
                     cornering_g, bump_g; at: wheel_center to load the wheel
                     centre); each step then gets "loads": link forces, joint
                     wrenches, spring forces, rack force, holds. A geometry with
                     compliance: settles in its equilibrium at every step
                     (docs/compliance.md)
  --format json|csv  output format (default json)
  --out FILE         write the output to FILE instead of stdout
  -h, --help         this text

The CSV's driver.wheel_center_z (left_/right_ on an axle) is the wheel centre's absolute z
(mm, chassis axes); its wheel_travel is the travel from design that --bump gives.

N counts states, both ends included (as a sweep file's steps): -50:50:11 is every
10 mm, 11 states. N is from 2 to 10001 (1 only when A = B). Unlike drive's --steps,
which counts the steps between states.

The metrics' definitions, units and signs: docs/metrics.md.

Exit codes: 0 done; 1 bad input (one line on stderr); 2 a step could not be solved.
`,
    async run(argv, io) {
      const runner = await find();
      if (runner === undefined) throw new CliError(NOT_AVAILABLE);
      return runner(parseSweepArgs(argv, io));
    },
  };
}

export const sweepCommand: Command = makeSweepCommand();
