/**
 * `kinemate clearance` and `kinemate envelope`: the command lines parsed here, the work in
 * ./clearance-run.ts and ./envelope-run.ts, imported when a command runs (they bring three
 * and three-mesh-bvh, which no other command needs at start).
 */
import { onePositional, parseBoundedCount, parseCommandArgs, parseNumber, requiredOption, stringOption, type ParsedArgs } from './args.ts';
import type { Command } from './command.ts';
import { CliError } from './io.ts';
import { loadGeometryLibraries } from './geometry-libraries.ts';
import { MAX_DRIVE_STEPS } from '../model/operations.ts';

const CLEARANCE_OPTIONS = {
  sweep: { type: 'string' }, bump: { type: 'string' }, steer: { type: 'string' }, grid: { type: 'string' },
  drive: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, steps: { type: 'string' },
  pairs: { type: 'string' }, min: { type: 'string' }, 'fail-under': { type: 'string' },
  format: { type: 'string' }, out: { type: 'string' },
} as const;

function optionalNumber(args: ParsedArgs, name: string): number | undefined {
  const text = stringOption(args, name);
  return text === undefined ? undefined : parseNumber(text, `--${name}`);
}

export const clearanceCommand: Command = {
  name: 'clearance',
  synopsis:
    'clearance GEOMETRY [--sweep FILE | --bump A:B:N | --steer A:B:N | --grid bump=A:B:N,steer=A:B:N]\n' +
    '          [--pairs a:b,...] [--min D] [--fail-under D] [--format json|csv] [--out FILE]\n' +
    'clearance MODEL --drive COORD --from A --to B --steps N [same options]',
  summary: 'minimum distance between parts with geometry over a sweep, grid or drive',
  help: `Usage: kinemate clearance GEOMETRY [--sweep FILE | --bump A:B:N | --steer A:B:N |
                          --grid bump=A:B:N,steer=A:B:N] [--pairs a:b,...] [--min D]
                          [--fail-under D] [--format json|csv] [--out FILE]
       kinemate clearance MODEL --drive COORD --from A --to B --steps N [same options]

For every state of a suspension sweep (or a bump x steer grid, or the drive of an
assembly's coordinate), the minimum distance between every pair of parts that carry
geometry and no mate joins (or the pairs listed), the two closest points (mm, world axes)
and whether they touch; where two parts overlap the distance is negative by the
penetration depth. Prints { "states": [...], "summary": { "a:b": { min_distance, state,
a_point, b_point } } } (see docs/geometry.md). Progress on stderr when it is a terminal.

Options:
  --sweep FILE       a sweep file
  --bump A:B:N       wheel travel (mm from design), N states, rack held
  --steer A:B:N      rack travel (mm from design), N states, wheel travel held
  --grid bump=A:B:N,steer=A:B:N   every bump at every steer (a serpentine walk)
  --drive COORD      on an assembly: the coordinate to drive, with --from, --to, --steps N
                     (N steps, N + 1 states, as kinemate drive)
  --pairs a:b,...    only these pairs (default: every pair no mate joins)
  --min D            summary: the pairs whose clearance falls below D mm listed first
  --fail-under D     exit 3 when any clearance is below D mm (for scripts)
  --format json|csv  csv: one row per state and pair
  --out FILE         write there instead of stdout

Exit codes: 0 done; 1 bad input (one line on stderr: a missing or unreadable geometry
file names its path); 3 with --fail-under, a clearance below D.
`,
  async run(argv, io) {
    const args = parseCommandArgs('clearance', argv, CLEARANCE_OPTIONS);
    const geometry = onePositional('clearance', args, 'GEOMETRY or MODEL file');
    const format = stringOption(args, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw new CliError(`clearance: --format must be json or csv, got "${format}"`);
    const coordinate = stringOption(args, 'drive');
    const sweepKinds = (['sweep', 'bump', 'steer', 'grid'] as const).filter((k) => stringOption(args, k) !== undefined);
    if (coordinate !== undefined && sweepKinds.length > 0) throw new CliError(`clearance: --drive drives an assembly; --${sweepKinds[0]} sweeps a suspension: give one`);
    if (stringOption(args, 'grid') !== undefined && sweepKinds.length > 1) throw new CliError(`clearance: --grid is the whole sweep; leave out --${sweepKinds.find((k) => k !== 'grid')}`);
    const drive = coordinate === undefined ? undefined : {
      coordinate,
      from: parseNumber(requiredOption('clearance', args, 'from', 'A'), '--from'),
      to: parseNumber(requiredOption('clearance', args, 'to', 'B'), '--to'),
      steps: parseBoundedCount(requiredOption('clearance', args, 'steps', 'N'), '--steps', 1, MAX_DRIVE_STEPS, (got) => `--steps: at most ${MAX_DRIVE_STEPS} steps, got ${got}`),
    };
    if (coordinate === undefined) for (const k of ['from', 'to', 'steps']) if (stringOption(args, k) !== undefined) throw new CliError(`clearance: --${k} goes with --drive COORD`);
    const pick = (name: string): Record<string, string> => {
      const v = stringOption(args, name);
      return v === undefined ? {} : { [name]: v };
    };
    const min = optionalNumber(args, 'min');
    const failUnder = optionalNumber(args, 'fail-under');
    await loadGeometryLibraries();
    const { runClearanceCommand } = await import('./clearance-run.ts');
    return runClearanceCommand({
      geometry, format, io,
      ...pick('sweep'), ...pick('bump'), ...pick('steer'), ...pick('grid'), ...pick('pairs'), ...pick('out'),
      ...(drive ? { drive } : {}),
      ...(min !== undefined ? { min } : {}),
      ...(failUnder !== undefined ? { failUnder } : {}),
    });
  },
};

export const envelopeCommand: Command = {
  name: 'envelope',
  synopsis: 'envelope GEOMETRY --grid bump=A:B:N,steer=A:B:N [--part NAME] [--voxel MM] [--out FILE.glb|.stl]',
  summary: 'the volume the tyre (or a part) sweeps over a bump x steer grid, as a closed mesh',
  help: `Usage: kinemate envelope GEOMETRY --grid bump=A:B:N,steer=A:B:N [--part NAME] [--voxel MM]
                         [--out FILE.glb|.stl]

Runs the bump x steer grid on the suspension GEOMETRY and writes the volume the tyre (or
the body --part names) sweeps through it as one closed mesh (binary STL, or GLB in metres
as glTF wants), for the wheelhouse designer's CAD. It contains the body at every state of
the grid: it is the swept solid grown by at most about 2.7 voxels (docs/geometry.md).
Prints { part, states, failed, voxel, growth, triangles, out } on stdout.

Options:
  --grid bump=A:B:N,steer=A:B:N   wheel travel and rack travel, mm from design
  --part NAME        the body (default tyre)
  --voxel MM         the grid's cell size (default: the swept extent / 160, grown to keep
                     the grid at most 4 million nodes)
  --out FILE         .stl or .glb; without it nothing but the summary is written

Exit codes: 0 done; 1 bad input (one line on stderr).
`,
  async run(argv, io) {
    const args = parseCommandArgs('envelope', argv, { grid: { type: 'string' }, part: { type: 'string' }, voxel: { type: 'string' }, out: { type: 'string' } });
    const geometry = onePositional('envelope', args, 'GEOMETRY file');
    const grid = requiredOption('envelope', args, 'grid', 'bump=A:B:N,steer=A:B:N');
    const out = stringOption(args, 'out');
    if (out !== undefined && !/\.(stl|glb)$/i.test(out)) throw new CliError(`envelope: --out "${out}": expected a .stl or .glb file`);
    const voxel = optionalNumber(args, 'voxel');
    if (voxel !== undefined && !(voxel > 0)) throw new CliError(`--voxel: expected a positive size in mm, got ${voxel}`);
    await loadGeometryLibraries();
    const { runEnvelopeCommand } = await import('./clearance-run.ts');
    return runEnvelopeCommand({ geometry, grid, part: stringOption(args, 'part') ?? 'tyre', io, ...(out ? { out } : {}), ...(voxel !== undefined ? { voxel } : {}) });
  },
};
