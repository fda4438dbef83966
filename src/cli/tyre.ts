/**
 * `kinemate tyre FILE.tir [--load FZ] [--slip-angle A:B:N] [--slip-ratio A:B:N] [--camber DEG]
 * [--format json|csv] [--out FILE]`: a tyre's steady-state forces over slip (docs/tyres.md).
 */
import { rangeValues, tyreCurves, type TyreCurveStep } from '../../mates/tyres/index.ts';
import type { MagicFormulaTyre } from '../../mates/tyres/index.ts';
import { readTyreFile } from '../suspension/files/tyre.ts';
import { onePositional, parseCommandArgs, parseNumber, stringOption, type ParsedArgs } from './args.ts';
import type { Command } from './command.ts';
import { writeFile } from './fs-lazy.ts';
import { CliError, EXIT, toJsonText, type CliIO } from './io.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';

const OPTIONS = {
  load: { type: 'string' }, 'slip-angle': { type: 'string' }, 'slip-ratio': { type: 'string' }, camber: { type: 'string' },
  format: { type: 'string' }, out: { type: 'string' },
} as const;

/** Most steps of one run (slip angles × slip ratios): the output is built in memory (about 20 MB of JSON at most). */
export const MAX_TYRE_STEPS = 100_000;
const COLUMNS = ['load', 'slip_angle', 'slip_ratio', 'camber', 'fx', 'fy', 'mz'] as const;
export const TYRE_UNITS = { load: 'N', slip_angle: 'deg', slip_ratio: '1', camber: 'deg', fx: 'N', fy: 'N', mz: 'N·mm' } as const;

/** `A:B:N`: N values from A to B, both ends included (N = 1 only when A = B). */
export function parseRange(text: string, option: string): number[] {
  const parts = text.split(':');
  const usage = `expected A:B:N (N values from A to B, both ends included; N ≥ 2, or 1 when A = B), got "${text}"`;
  if (parts.length !== 3) throw new CliError(`${option}: ${usage}`);
  const from = parseNumber(parts[0], option), to = parseNumber(parts[1], option);
  const count = Number(parts[2].trim());
  if (!/^\+?\d+$/.test(parts[2].trim()) || !Number.isSafeInteger(count) || count < 1 || (count === 1 && from !== to)) throw new CliError(`${option}: ${usage}`);
  if (count > MAX_TYRE_STEPS) throw new CliError(`${option}: at most ${MAX_TYRE_STEPS} values, got ${count}`);
  return rangeValues(from, to, count);
}

/**
 * The slip ranges, load (undefined: the file's nominal load) and camber of `tyre` and
 * `plot FILE.tir`, checked before the file is read; `defaultAngles` when neither range is given (plot).
 */
export function tyreRequest(command: string, args: ParsedArgs, defaultAngles = '0:0:1'): { load: number | undefined; slipAngles: number[]; slipRatios: number[]; camber: number } {
  const angleText = stringOption(args, 'slip-angle'), ratioText = stringOption(args, 'slip-ratio');
  const slipAngles = parseRange(angleText ?? (ratioText === undefined ? defaultAngles : '0:0:1'), '--slip-angle');
  const slipRatios = parseRange(ratioText ?? '0:0:1', '--slip-ratio');
  if (slipAngles.length * slipRatios.length > MAX_TYRE_STEPS) throw new CliError(`${command}: at most ${MAX_TYRE_STEPS} steps (slip angles × slip ratios), got ${slipAngles.length * slipRatios.length}`);
  const loadText = stringOption(args, 'load');
  const load = loadText === undefined ? undefined : parseNumber(loadText, '--load');
  if (load !== undefined && !(load > 0)) throw new CliError(`--load: expected a positive vertical load in N, got "${loadText}"`);
  const camberText = stringOption(args, 'camber');
  const camber = camberText === undefined ? 0 : parseNumber(camberText, '--camber');
  if (Math.abs(camber) >= 90) throw new CliError(`--camber: expected degrees between -90 and 90, got ${camber}`);
  for (const [values, option] of [[slipAngles, '--slip-angle']] as const) {
    if (values.some((a) => Math.abs(a) >= 90)) throw new CliError(`${option}: slip angles are degrees between -90 and 90`);
  }
  return { load, slipAngles, slipRatios, camber };
}

/** The tyre as the output describes it. */
export function tyreInfo(path: string, tyre: MagicFormulaTyre): Record<string, unknown> {
  return {
    file: path, model: `Magic Formula ${tyre.data.version}`, side: tyre.data.side,
    nominal_load: tyre.nominalLoad, unloaded_radius: tyre.unloadedRadius, vertical_stiffness: tyre.verticalStiffness,
  };
}

/** Reads the file and prints its warnings (keys not used), one line each. */
export async function loadTyre(command: string, path: string, io: CliIO): Promise<MagicFormulaTyre> {
  const { tyre, warnings } = await readTyreFile(path);
  for (const line of warnings) await io.err(`kinemate: ${command}: warning: ${line}\n`);
  return tyre;
}

function csvOf(steps: readonly TyreCurveStep[]): string {
  return `${COLUMNS.join(',')}\n${steps.map((s) => COLUMNS.map((c) => String(s[c])).join(',')).join('\n')}\n`;
}

async function runTyre(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs('tyre', argv, OPTIONS);
  const path = onePositional('tyre', args, 'tyre property file (.tir)');
  const format = stringOption(args, 'format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new CliError(`tyre: --format must be json or csv, got "${format}"`);
  const out = stringOption(args, 'out');
  refuseOverwritingInputs('tyre', '--out', out, [['tyre', path]]);
  const request = tyreRequest('tyre', args);
  const tyre = await loadTyre('tyre', path, io);
  const steps = tyreCurves(tyre, { ...request, load: request.load ?? tyre.nominalLoad });
  const text = format === 'csv' ? csvOf(steps) : toJsonText({ tyre: tyreInfo(path, tyre), units: TYRE_UNITS, steps });
  if (out !== undefined) await writeFile(out, text);
  else await io.out(text);
  return EXIT.ok;
}

export const tyreCommand: Command = {
  name: 'tyre',
  synopsis: 'tyre   FILE.tir [--load FZ] [--slip-angle A:B:N] [--slip-ratio A:B:N] [--camber DEG]\n       [--format json|csv] [--out FILE]',
  summary: 'a tyre\'s steady-state forces (Magic Formula from a TNO .tir file) over slip',
  help: `Usage: kinemate tyre FILE.tir [--load FZ] [--slip-angle A:B:N] [--slip-ratio A:B:N]
                     [--camber DEG] [--format json|csv] [--out FILE]

Reads a TNO MF-Tyre property file (Magic Formula 5.2, 6.1 or 6.2) and prints the
steady-state forces of the tyre at one vertical load and camber, for every combination
of the slip angles and slip ratios (slip angle varying slowest):
{ tyre, units, steps: [ { load, slip_angle, slip_ratio, camber, fx, fy, mz } ] }.
ISO-W axes and signs: a positive slip angle gives a negative fy, a positive slip ratio
(driving) a positive fx. Keys of the file the reader does not use are listed once on
stderr; a missing key it needs is an error naming its section and key.

Options:
  --load FZ          vertical load, N (default the file's FNOMIN, FZ0 in 5.2 files)
  --slip-angle A:B:N slip angles, degrees (default 0:0:1)
  --slip-ratio A:B:N slip ratios (default 0:0:1)
  --camber DEG       camber (inclination) angle, degrees (default 0)
  --format json|csv  output format (default json)
  --out FILE         write the output to FILE instead of stdout
  -h, --help         this text

Units: load, fx, fy in N; mz in N·mm; slip angle and camber in degrees. See docs/tyres.md.

Exit codes: 0 done; 1 bad input (one line on stderr).
`,
  run: runTyre,
};
