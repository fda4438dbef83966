/**
 * `kinemate plot` and `kinemate export` (and the sweeps `kinemate report` runs, report-command.ts): pictures of sweeps and drives
 * without a browser. The pictures are built by src/pictures/ (plain functions: data in,
 * SVG / HTML / glTF bytes out); this module runs the sweeps and drives, checks the options
 * and writes the files.
 */
import { existsSync, statSync } from 'node:fs';
import { writeFile } from './fs-lazy.ts';
import { basename, dirname, extname, resolve } from 'node:path';
// The modules themselves, not src/index.ts: the command would carry the whole library (the
// live model, the gradients) in its bundle for these few functions.
import { buildModel, type Model } from '../model/build.ts';
import { driveSteps, modelState, solveModel, type StateJSON } from '../model/operations.ts';
import { simulate } from '../mechanics/simulate.ts';
import type { AssemblyDoc } from '../assembly/types.ts';
import type { Geometry, SweepSpec } from '../suspension/files/index.ts';
import { checkHold, loadSuspension, sweepSpecsOf } from './sweep-run.ts';
import { SuspensionModel } from '../suspension/build/model.ts';
import { evaluateState } from '../suspension/metrics/state.ts';
import { runSweep, type SweepRun } from '../suspension/sweep/sweep.ts';
import { chartSvg, type Chart, type ChartSize } from '../pictures/plot.ts';
import { plottableMetrics, sweepAxis, sweepChart, type DesignState, type SweepSeries } from '../pictures/sweep-chart.ts';
import { assemblyScene } from '../pictures/scene.ts';
import { sceneToGlb } from '../pictures/gltf.ts';
import {
  onePositional, parseBoundedCount, parseCommandArgs, parseCount, parseNumber, stringOption, stringOptions, type ParsedArgs,
} from './args.ts';
import { fileErrorReason, loadAssemblyFile } from './files.ts';
import { CliError, EXIT, type CliIO } from './io.ts';
import { progressLine } from './progress.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import { knownFontFound, svgToPng } from './png.ts';
import { tyreChart, TYRE_METRICS, type TyreMetric } from '../pictures/tyre-chart.ts';
import { tyreCurves } from '../../mates/tyres/index.ts';
import { loadTyre, tyreRequest } from './tyre.ts';

export const SWEEP_OPTIONS = {
  sweep: { type: 'string' }, bump: { type: 'string' }, steer: { type: 'string' }, roll: { type: 'string' }, hold: { type: 'string' },
} as const;
const DRIVE_OPTIONS = { drive: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, steps: { type: 'string' } } as const;

// ---- shared: options, output files ----

/**
 * Checks an output path before any work: its extension is one of `extensions` and its
 * folder exists. Returns the extension (lower case, with the dot).
 */
export function checkOutput(command: string, option: string, path: string | undefined, extensions: readonly string[]): string {
  if (path === undefined) throw new CliError(`${command}: ${option} ${extensions.map((e) => `FILE${e}`).join('|')} is required`);
  const extension = extname(path).toLowerCase();
  if (!extensions.includes(extension)) throw new CliError(`${command}: ${option} "${path}": the file must end in ${extensions.join(' or ')}`);
  const folder = dirname(resolve(path));
  if (!existsSync(folder)) throw new CliError(`${command}: ${option} "${path}": the folder "${dirname(path)}" does not exist`);
  if (!statSync(folder).isDirectory()) throw new CliError(`${command}: ${option} "${path}": "${dirname(path)}" is not a folder`);
  return extension;
}

export async function writeOutput(command: string, path: string, data: string | Uint8Array): Promise<void> {
  try {
    await writeFile(path, data);
  } catch (error) {
    const reason = fileErrorReason(error);
    throw new CliError(`${command}: cannot write "${path}": ${reason ?? (error as Error).message}`);
  }
}

export function sweepArgs(args: ParsedArgs): { sweep?: string; bump?: string; steer?: string; roll?: string; hold?: string } {
  const out: Record<string, string> = {};
  for (const name of Object.keys(SWEEP_OPTIONS)) {
    const value = stringOption(args, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

// ---- suspension sweeps ----

/** One geometry swept: what every picture of it needs. */
export interface SuspensionSweep {
  readonly path: string;
  readonly doc: AssemblyDoc;
  readonly geometry: Geometry | null;
  readonly model: SuspensionModel;
  readonly kind: string;
  readonly spec: SweepSpec;
  readonly run: SweepRun;
  readonly design: DesignState;
  /** Every moving part's pose at each step (with `poses: true`); a failed step keeps the last good pose. */
  readonly states?: StateJSON[];
}

/**
 * Loads GEOMETRY, evaluates its design state and runs the one sweep the options ask for
 * (the sweep command's default, a −50…50 mm bump in 11 steps, when none), evaluated as
 * kinemate sweep evaluates it. With `poses: true` (for animation) it records every moving
 * part's pose at each step instead, and runs the sweep values-only (no derivatives, no
 * steering response: the same solved states, found faster), without the design evaluation.
 */
export async function sweepSuspension(command: string, path: string, options: ReturnType<typeof sweepArgs>, poses = false, onProgress?: Progress): Promise<SuspensionSweep> {
  const { doc, geometry } = await loadSuspension(path);
  const specs = await sweepSpecsOf(options, geometry);
  if (specs.length > 1) throw new CliError(`${command}: one sweep at a time (got ${specs.map(([kind]) => `--${kind}`).join(', ')})`);
  const [kind, spec] = specs[0];
  const model = new SuspensionModel(doc);
  checkHold(model, options.hold);
  const hold = options.hold ?? spec.analysis.virtual_steering.suspension_hold;
  let design: DesignState = { positions: null, metrics: null };
  if (!poses) {
    model.resetToDesign();
    const designState = evaluateState(model, hold);
    design = { positions: designState.positions, metrics: designState.metrics };
  }
  const states: StateJSON[] = [];
  const run = runSweep(model, spec, poses
    ? { valuesOnly: true, onProgress: (done, total) => { states.push(modelState(model.model)); onProgress?.(done, total); } }
    : { ...(options.hold ? { hold: options.hold } : {}), ...(onProgress ? { onProgress } : {}) });
  return { path, doc, geometry, model, kind, spec, run, design, ...(poses ? { states } : {}) };
}

/** Called after each step of a sweep or drive (a progress bar's update). */
type Progress = (done: number, total: number) => void;

/** A progress bar for `what` on a terminal's stderr (the drive command's), or nothing off a terminal. */
export function progressFor(io: CliIO, what: string): { update?: Progress; clear: () => Promise<void> } {
  if (!io.stderrIsTTY) return { clear: async () => {} };
  return progressLine(io, what);
}

export function failedSteps(run: SweepRun): boolean {
  return run.steps.some((s) => s.status === 'failed');
}

// ---- drives of any assembly ----

interface DriveRun {
  readonly path: string;
  readonly model: Model;
  readonly doc: AssemblyDoc;
  readonly coordinate: string;
  readonly values: number[];
  readonly states: StateJSON[];
  readonly solved: boolean[];
  /** The state at the file's pose, solved. */
  readonly design: StateJSON;
}

function driveOptions(command: string, args: ParsedArgs): { coordinate: string; from: number; to: number; steps: number } | null {
  const coordinate = stringOption(args, 'drive');
  const given = (['from', 'to', 'steps'] as const).filter((name) => stringOption(args, name) !== undefined);
  if (coordinate === undefined) {
    if (given.length > 0) throw new CliError(`${command}: --${given[0]} goes with --drive COORD`);
    return null;
  }
  for (const name of ['from', 'to', 'steps'] as const) if (stringOption(args, name) === undefined) throw new CliError(`${command}: --drive needs --from A --to B --steps N`);
  for (const name of Object.keys(SWEEP_OPTIONS)) if (stringOption(args, name) !== undefined) throw new CliError(`${command}: --${name} is for suspension sweeps, not with --drive`);
  return {
    coordinate,
    from: parseNumber(stringOption(args, 'from')!, '--from'),
    to: parseNumber(stringOption(args, 'to')!, '--to'),
    steps: parseCount(stringOption(args, 'steps')!, '--steps', 1),
  };
}

async function readModelFile(path: string): Promise<AssemblyDoc> {
  try {
    return await loadAssemblyFile(path);
  } catch (error) {
    const reason = fileErrorReason(error);
    if (reason !== undefined) throw new CliError(`cannot read model file "${path}": ${reason}`);
    throw error;
  }
}

async function driveAssembly(path: string, drive: NonNullable<ReturnType<typeof driveOptions>>, onProgress?: Progress): Promise<DriveRun> {
  const doc = await readModelFile(path);
  // the design point on a model of its own, so that the drive starts exactly as kinemate drive's
  const design = solveModel(buildModel(doc)).state;
  const model = buildModel(doc);
  if (!model.coordinates.has(drive.coordinate)) {
    throw new CliError(`--drive ${drive.coordinate}: no such coordinate in ${basename(path)}; the coordinates are ${[...model.coordinates.keys()].join(', ')}`);
  }
  const result = { steps: [...driveSteps(model, drive.coordinate, drive.from, drive.to, drive.steps, onProgress ? { onProgress } : {})] };
  const values = Array.from({ length: drive.steps + 1 }, (_, i) => (i === drive.steps ? drive.to : drive.from + ((drive.to - drive.from) * i) / drive.steps));
  // the drive stops at its first failure: the rest of the states are the last good one, unsolved
  const states = values.map((_, i) => result.steps[Math.min(i, result.steps.length - 1)].state);
  const solved = values.map((_, i) => result.steps[i]?.status === 'solved');
  return { path, model, doc, coordinate: drive.coordinate, values, states, solved, design };
}

function coordinateTitle(model: Model, name: string): string {
  const info = model.coordinates.get(name)!;
  const unit = info.kind === 'angle' ? (model.angleFactor === 1 ? 'rad' : '°') : model.doc.units.length;
  return `${name} (${unit})`;
}

function driveChart(runs: readonly DriveRun[], metrics: readonly string[]): Chart {
  const [first] = runs;
  return {
    xTitle: coordinateTitle(first.model, first.coordinate),
    panels: metrics.map((metric) => ({
      yTitle: coordinateTitle(first.model, metric),
      curves: runs.map((run, k) => ({
        source: basename(run.path),
        x: run.values,
        y: run.states.map((state, i) => (run.solved[i] && typeof state[metric] === 'number' ? state[metric] as number : null)),
        ...(k > 0 ? { dashed: true } : {}),
      })),
      design: runs.flatMap((run) => {
        const x = run.design[run.coordinate], y = run.design[metric];
        return typeof x === 'number' && typeof y === 'number' ? [{ source: basename(run.path), x, y }] : [];
      }),
    })),
  };
}

// ---- kinemate plot ----

const PLOT_OPTIONS = {
  ...SWEEP_OPTIONS, ...DRIVE_OPTIONS,
  metric: { type: 'string', multiple: true }, baseline: { type: 'string' }, out: { type: 'string' },
  width: { type: 'string' }, height: { type: 'string' },
  kc: { type: 'string' }, range: { type: 'string' }, at: { type: 'string' },
  load: { type: 'string' }, 'slip-angle': { type: 'string' }, 'slip-ratio': { type: 'string' }, camber: { type: 'string' },
} as const;
const TYRE_OPTIONS = ['load', 'slip-angle', 'slip-ratio', 'camber'] as const;

/** The largest picture side: a PNG of 10000 × 10000 px is already 400 MB of pixels to render. */
const MAX_PIXELS = 10000;

/** `kinemate plot` (the command's table entry, with its help, is in picture-commands.ts). */
export async function runPlot(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs('plot', argv, PLOT_OPTIONS);
  const path = onePositional('plot', args, 'GEOMETRY file');
  const extension = checkOutput('plot', '--out', stringOption(args, 'out'), ['.svg', '.png']);
  const out = stringOption(args, 'out')!;
  refuseOverwritingInputs('plot', '--out', out, [['geometry', path], ['sweep', stringOption(args, 'sweep')], ['baseline', stringOption(args, 'baseline')]]);
  const metrics = stringOptions(args, 'metric');
  if (metrics.length === 0) throw new CliError('plot: --metric NAME is required (e.g. --metric camber)');
  const pixels = (name: 'width' | 'height'): number | undefined => {
    const text = stringOption(args, name);
    if (text === undefined) return undefined;
    return parseBoundedCount(text, `--${name}`, 16, MAX_PIXELS, (got) => `--${name}: at most ${MAX_PIXELS} px, got ${got}`);
  };
  const width = pixels('width'), height = pixels('height');
  const size: ChartSize = { ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) };
  const baseline = stringOption(args, 'baseline');
  const format = extension === '.png' ? 'png' : 'svg';
  if (isTyreFile(path)) return writePicture(io, out, format, await tyrePlot(args, path, baseline, metrics, size, format, io));
  const tyreOption = TYRE_OPTIONS.find((name) => stringOption(args, name) !== undefined);
  if (tyreOption !== undefined) throw new CliError(`plot: --${tyreOption} is for a tyre file (FILE.tir)`);
  const kc = stringOption(args, 'kc');
  if (kc === undefined && (stringOption(args, 'range') !== undefined || stringOption(args, 'at') !== undefined)) throw new CliError('plot: --range and --at go with --kc EVENT');
  if (kc !== undefined) {
    const progress = progressFor(io, 'plot');
    const range = stringOption(args, 'range'), at = stringOption(args, 'at');
    const { kcPicture } = await import('./kc-plot.ts');
    const picture = await kcPicture(path, {
      event: kc, metrics, size, format,
      ...(range ? { range } : {}), ...(at ? { at } : {}), ...(progress.update ? { onProgress: progress.update } : {}),
    });
    await progress.clear();
    return writePicture(io, out, format, picture);
  }
  const drive = driveOptions('plot', args);
  const progress = progressFor(io, 'plot');
  const picture = await plotPicture(path, {
    metrics, size, format: extension === '.png' ? 'png' : 'svg', ...(progress.update ? { onProgress: progress.update } : {}),
    ...(baseline !== undefined ? { baseline } : {}),
    ...(drive ? { drive } : { sweep: sweepArgs(args) }),
  });
  await progress.clear();
  return writePicture(io, out, format, picture);
}

async function writePicture(io: CliIO, out: string, format: 'svg' | 'png', picture: { data: string | Uint8Array; failed: boolean }): Promise<number> {
  if (format === 'png' && !knownFontFound()) {
    await io.err('kinemate: plot: warning: neither DejaVu Sans nor Liberation Sans is installed; the PNG\'s text uses whatever font the system has (Debian: apt-get install fonts-dejavu-core)\n');
  }
  await writeOutput('plot', out, picture.data);
  return picture.failed ? EXIT.failed : EXIT.ok;
}

function isTyreFile(path: string): boolean {
  return extname(path).toLowerCase() === '.tir';
}

/** `plot FILE.tir --metric fy …`: the tyre's curves (default: slip angle −15…15°), a baseline tyre dashed. */
async function tyrePlot(args: ParsedArgs, path: string, baseline: string | undefined, metrics: readonly string[], size: ChartSize, format: 'svg' | 'png', io: CliIO): Promise<{ data: string | Uint8Array; failed: boolean }> {
  const wrong = metrics.find((m) => !(TYRE_METRICS as readonly string[]).includes(m));
  if (wrong !== undefined) throw new CliError(`plot: --metric ${wrong}: a tyre's metrics are ${TYRE_METRICS.join(', ')}`);
  const other = [...Object.keys(SWEEP_OPTIONS), ...Object.keys(DRIVE_OPTIONS)].find((name) => stringOption(args, name) !== undefined);
  if (other !== undefined) throw new CliError(`plot: --${other} is not for a tyre file`);
  if (baseline !== undefined && !isTyreFile(baseline)) throw new CliError(`plot: --baseline "${baseline}": a tyre is compared with a tyre file (.tir)`);
  const request = tyreRequest('plot', args, '-15:15:61');
  const series = [];
  for (const [file, dashed] of [[path, false], ...(baseline !== undefined ? [[baseline, true] as const] : [])] as const) {
    const tyre = await loadTyre('plot', file, io);
    series.push({ source: basename(file), steps: tyreCurves(tyre, { ...request, load: request.load ?? tyre.nominalLoad }), dashed });
  }
  const svg = await chartSvg(tyreChart(series, metrics as TyreMetric[]), size);
  return { data: format === 'png' ? svgToPng(svg) : svg, failed: false };
}

/** What `kinemate plot` draws, given as options (paths as given on the command line). */
export interface PlotRequest {
  readonly metrics: readonly string[];
  readonly size?: ChartSize;
  readonly format: 'svg' | 'png';
  readonly baseline?: string;
  /** A suspension sweep (one of --sweep/--bump/--steer/--roll; none: the default bump) … */
  readonly sweep?: { sweep?: string; bump?: string; steer?: string; roll?: string; hold?: string };
  /** … or a drive of any assembly. */
  readonly drive?: { coordinate: string; from: number; to: number; steps: number };
  /** Called after each step of each sweep or drive. */
  readonly onProgress?: Progress;
}

/**
 * The picture `kinemate plot` writes, in memory: runs the sweep (or drive) of `path` and of
 * the baseline, checks the metric names, draws the chart. `failed`: some step was not solved.
 */
export async function plotPicture(path: string, request: PlotRequest): Promise<{ data: string | Uint8Array; failed: boolean }> {
  const { metrics, baseline, drive, onProgress } = request;
  let chart: Chart;
  let failed: boolean;
  if (drive) {
    const runs = [await driveAssembly(path, drive, onProgress)];
    const known = [...runs[0].model.coordinates.keys()];
    const unknown = metrics.find((m) => !known.includes(m));
    if (unknown !== undefined) throw new CliError(`plot: --metric ${unknown}: no such coordinate; the coordinates are ${known.join(', ')}`);
    if (baseline !== undefined) {
      const other = await driveAssembly(baseline, drive, onProgress);
      const missing = metrics.find((m) => !other.model.coordinates.has(m));
      if (missing !== undefined) throw new CliError(`plot: --metric ${missing}: the baseline ${basename(baseline)} has no such coordinate`);
      runs.push(other);
    }
    chart = driveChart(runs, metrics);
    failed = runs.some((run) => run.solved.includes(false));
  } else {
    const options = request.sweep ?? {};
    const current = await sweepSuspension('plot', path, options, false, onProgress);
    const known = plottableMetrics(current.design);
    const unknown = metrics.find((m) => !known.includes(m));
    if (unknown !== undefined) throw new CliError(`plot: --metric ${unknown}: no such metric; the metrics are ${known.join(', ')}`);
    const sweeps = [current];
    if (baseline !== undefined) {
      const other = await sweepSuspension('plot', baseline, options, false, onProgress);
      const missing = metrics.find((m) => !plottableMetrics(other.design).includes(m));
      if (missing !== undefined) throw new CliError(`plot: --metric ${missing}: the baseline ${basename(baseline)} has no such metric (a corner against an axle?)`);
      sweeps.push(other);
    }
    chart = sweepChart(sweeps.map(seriesOf), metrics);
    failed = sweeps.some((s) => failedSteps(s.run));
  }
  const svg = await chartSvg(chart, request.size);
  return { data: request.format === 'png' ? svgToPng(svg) : svg, failed };
}

export function seriesOf(sweep: SuspensionSweep): SweepSeries {
  return { source: basename(sweep.path), run: sweep.run, axis: sweepAxis(sweep.spec, sweep.design), design: sweep.design };
}

// ---- kinemate export ----

const SIMULATE_OPTIONS = { simulate: { type: 'string' }, step: { type: 'string' } } as const;
const EXPORT_OPTIONS = { ...SWEEP_OPTIONS, ...DRIVE_OPTIONS, ...SIMULATE_OPTIONS, gltf: { type: 'string' }, fps: { type: 'string' } } as const;

/** `--simulate DURATION [--step H]`: a time simulation of any assembly with masses, as `kinemate simulate` runs it. */
function simulateOptions(args: ParsedArgs): { duration: number; step: number } | null {
  const duration = stringOption(args, 'simulate');
  if (duration === undefined) {
    if (stringOption(args, 'step') !== undefined) throw new CliError('export: --step goes with --simulate DURATION');
    return null;
  }
  for (const name of [...Object.keys(SWEEP_OPTIONS), ...Object.keys(DRIVE_OPTIONS)]) if (stringOption(args, name) !== undefined) throw new CliError(`export: --${name} does not go with --simulate`);
  const seconds = parseNumber(duration, '--simulate');
  if (!(seconds > 0)) throw new CliError(`export: --simulate must be a positive duration in seconds, got ${seconds}`);
  const step = stringOption(args, 'step') === undefined ? 0.001 : parseNumber(stringOption(args, 'step')!, '--step');
  if (!(step > 0 && step <= seconds)) throw new CliError(`export: --step must be positive and at most the duration, got ${step}`);
  return { duration: seconds, step };
}

/** `kinemate export` (the command's table entry, with its help, is in picture-commands.ts). */
export async function runExport(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs('export', argv, EXPORT_OPTIONS);
  const path = onePositional('export', args, 'GEOMETRY or MODEL file');
  checkOutput('export', '--gltf', stringOption(args, 'gltf'), ['.glb']);
  const out = stringOption(args, 'gltf')!;
  refuseOverwritingInputs('export', '--gltf', out, [['input', path], ['sweep', stringOption(args, 'sweep')]]);
  const fps = stringOption(args, 'fps') === undefined ? 25 : parseNumber(stringOption(args, 'fps')!, '--fps');
  if (!(fps > 0)) throw new CliError(`export: --fps must be positive, got ${fps}`);
  const simulation = simulateOptions(args);
  const drive = simulation ? null : driveOptions('export', args);
  const progress = progressFor(io, 'export');
  const { glb, failed } = await exportGlb(path, { fps, ...(simulation ? { simulation } : drive ? { drive } : { sweep: sweepArgs(args) }), ...(progress.update ? { onProgress: progress.update } : {}) });
  await progress.clear();
  await writeOutput('export', out, glb);
  return failed ? EXIT.failed : EXIT.ok;
}

/**
 * The .glb `kinemate export` writes, in memory: the sweep (or drive) of `path`, each state's
 * part poses, the animated scene. `failed`: some step was not solved (it keeps the last good pose).
 */
export async function exportGlb(path: string, request: { fps: number; sweep?: PlotRequest['sweep']; drive?: PlotRequest['drive']; simulation?: { duration: number; step: number }; onProgress?: Progress }): Promise<{ glb: Uint8Array; failed: boolean }> {
  let doc: AssemblyDoc, states: StateJSON[], failed: boolean, extras: Record<string, unknown>;
  let interval = 1 / request.fps;
  if (request.simulation) {
    doc = await readModelFile(path);
    const { duration, step } = request.simulation;
    // one frame per picture: the keyframes then sit at the simulation's own times
    const every = Math.max(1, Math.round(1 / (request.fps * step)));
    interval = every * step;
    const total = Math.round(duration / step);
    const result = simulate(doc, { duration, step, every, ...(request.onProgress ? { onFrame: (f: { t: number }) => request.onProgress!(Math.round(f.t / step), total) } : {}) });
    states = result.frames.map((f) => f.state);
    failed = result.status !== 'completed';
    extras = { source: basename(path), simulation: { duration, step, every, status: result.status }, times: result.frames.map((f) => f.t) };
  } else if (request.drive) {
    const run = await driveAssembly(path, request.drive, request.onProgress);
    ({ doc, states } = run);
    failed = run.solved.includes(false);
    extras = { source: basename(path), drive: run.coordinate, values: run.values, status: run.solved.map((s) => (s ? 'solved' : 'failed')) };
  } else {
    const sweep = await sweepSuspension('export', path, request.sweep ?? {}, true, request.onProgress);
    doc = sweep.doc;
    states = sweep.states!;
    failed = failedSteps(sweep.run);
    extras = { source: basename(path), sweep: sweep.kind, drivers: sweep.run.steps.map((s) => s.drivers), status: sweep.run.steps.map((s) => s.status) };
  }
  return { glb: await sceneToGlb(assemblyScene(doc, states, { interval, extras })), failed };
}
