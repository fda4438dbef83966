/**
 * Design of experiments: many variants of one geometry file (its hardpoint coordinates,
 * rates, masses, shims … moved by a grid, a Latin hypercube, or a list: doe-parameters.ts),
 * each swept alone exactly as `kinemate sweep` would sweep that variant's file (values
 * only; any sweep: doe-sweep.ts), one CSV row per variant and step. The work is split over worker threads
 * by src/suspension/design/batch-pool.ts; this module is the part each thread runs.
 */
import type { Geometry, SweepSpec } from '../files';
import { parseText, sweepValues } from '../files';
import { suspensionAssembly } from '../build/template';
import { SuspensionModel } from '../build/model';
import { flattenMetrics, runSweep } from '../sweep/sweep';
import { metricValues } from '../metrics/values';
import type { VariantModels } from './variant-models';
import { movedFile, movedGeometry, placesOf, sidedFile, type DoePlace } from './doe-parameters';
import { variantSource, type DoeVariantSource } from './doe-sampling';
import { doeSweep, sweptColumns } from './doe-sweep';
import { parseDoeSimulation, type DoeSimulation } from './doe-simulate';
import { DesignFileError } from './errors';
import { InternalError } from '../../../kernel/errors';

export interface DoeCoordinate {
  key: string;
  /** Range of the move relative to the file's value, in the number's unit (mm for a point). */
  low: number;
  high: number;
  /** The numbers of the file it moves (doe-parameters.ts). */
  places: DoePlace[];
}

export interface DoeSpec {
  vary: DoeCoordinate[];
  sampling: { type: 'grid'; levels: number } | { type: 'latin_hypercube'; samples: number; seed: number } | { type: 'list'; variants: number[][] };
  /** The sweep each variant runs (default: bump -50:50:21); null when it simulates instead. */
  sweep: SweepSpec | null;
  /** Instead of a sweep, a simulation of the file's dynamics section and its results (doe-simulate.ts). */
  simulate?: DoeSimulation;
  /** Metric columns (default camber, toe_angle; an axle's left.… and right.…). */
  metrics: string[];
  /** The geometry file as parsed, the variants' starting point (an axle's right side written out when one side moves alone). */
  file: unknown;
  fileName: string;
  /** The DOE file's name, for messages. */
  doeName: string;
}

/** Most variants one file may ask for (they are generated as they are swept, never all held). */
export const MAX_VARIANTS = 10_000_000;

/** Parse and check a DOE file; every problem names the file and its path. */
export function parseDoe(text: string, geometry: Geometry, fileName = 'doe', geometryName = 'geometry'): DoeSpec {
  const raw = parseText(text, fileName) as Record<string, unknown>;
  const bad = (path: string, message: string): never => { throw new DesignFileError(fileName, path, message); };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('(top)', 'expected a mapping with vary and sampling');
  const vary = raw.vary as Record<string, unknown>;
  if (typeof vary !== 'object' || vary === null || Array.isArray(vary) || Object.keys(vary).length === 0) bad('vary', 'expected a mapping "<hardpoint>.<x|y|z>": [low, high]');
  const file = sidedFile(geometry.raw, Object.keys(vary), geometry);
  const coords: DoeCoordinate[] = Object.entries(vary).map(([key, range]) => {
    const places = placesOf(file, geometry, key);
    if (typeof places === 'string') return bad(`vary.${key}`, places);
    if (!Array.isArray(range) || range.length !== 2 || !range.every((v) => typeof v === 'number' && Number.isFinite(v)) || range[0] > range[1]) bad(`vary.${key}`, 'expected [low, high] relative to the file\'s value (mm for a point), low ≤ high');
    const r = range as number[];
    return { key, low: r[0], high: r[1], places };
  });
  const sampling = readSampling(raw.sampling as Record<string, unknown>, coords.length, bad);
  if (raw.simulate !== undefined) {
    const other = ['sweep', 'bump', 'steer', 'roll', 'metrics'].find((k) => raw[k] !== undefined);
    if (other) bad(other, 'a DOE that simulates has results, not a sweep or metrics (drop this or simulate)');
    return { vary: coords, sampling, sweep: null, simulate: parseDoeSimulation(raw.simulate, geometry, bad), metrics: [], file, fileName: geometryName, doeName: fileName };
  }
  const sweep = doeSweep(raw, geometry, bad);
  const axle = geometry.scope === 'axle';
  const metrics = raw.metrics === undefined ? (axle ? ['left.camber', 'right.camber', 'left.toe_angle', 'right.toe_angle'] : ['camber', 'toe_angle'])
    : Array.isArray(raw.metrics) && raw.metrics.every((m) => typeof m === 'string') ? raw.metrics as string[] : bad('metrics', 'expected a list of metric names');
  const ungrouped = axle ? metrics.find((m) => !/^(left|right|axle)\./.test(m)) : undefined;
  if (ungrouped !== undefined) bad('metrics', `an axle's metrics are named <left|right|axle>.<metric> (as kinemate sweep --format csv names them), got "${ungrouped}"`);
  return { vary: coords, sampling, sweep, metrics, file, fileName: geometryName, doeName: fileName };
}

function readSampling(s: Record<string, unknown>, d: number, bad: (path: string, message: string) => never): DoeSpec['sampling'] {
  if (typeof s !== 'object' || s === null) bad('sampling', 'expected { type: grid, levels } | { type: latin_hypercube, samples, seed } | { type: list, variants }');
  const count = (v: unknown, path: string, min: number) => (typeof v === 'number' && Number.isInteger(v) && v >= min ? v : bad(path, `expected an integer ≥ ${min}`));
  if (s.type === 'grid') {
    const levels = count(s.levels, 'sampling.levels', 2);
    if (levels ** d > MAX_VARIANTS) bad('sampling.levels', `${levels}^${d} variants is more than ${MAX_VARIANTS}`);
    return { type: 'grid', levels };
  }
  if (s.type === 'latin_hypercube') {
    const samples = count(s.samples, 'sampling.samples', 1);
    if (samples > MAX_VARIANTS) bad('sampling.samples', `at most ${MAX_VARIANTS}`);
    return { type: 'latin_hypercube', samples, seed: s.seed === undefined ? 1 : count(s.seed, 'sampling.seed', 0) };
  }
  if (s.type === 'list') {
    const list = s.variants;
    if (!Array.isArray(list) || list.length === 0) bad('sampling.variants', 'expected a list of moves, one number per varied coordinate');
    (list as unknown[]).forEach((v, i) => {
      if (!Array.isArray(v) || v.length !== d || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) bad(`sampling.variants[${i}]`, `expected ${d} numbers (in the order of vary)`);
    });
    if ((list as unknown[]).length > MAX_VARIANTS) bad('sampling.variants', `at most ${MAX_VARIANTS}`);
    return { type: 'list', variants: list as number[][] };
  }
  return bad('sampling.type', 'expected grid, latin_hypercube or list');
}

let simulation: typeof import('./doe-simulate-run') | null = null;

/**
 * Loads what the DOE's per-variant work needs beyond the sweep — a simulation's dynamics
 * code, imported here rather than by every command — and (`check`) refuses a result column
 * the geometry's simulation does not have. Before variantRows of a simulating DOE.
 */
export async function loadDoeWork(geometry: Geometry, spec: DoeSpec, check = true): Promise<void> {
  if (!spec.simulate) return;
  simulation ??= await import('./doe-simulate-run');
  if (check) simulation.checkSimulationColumns(geometry, spec.simulate, (path, message) => { throw new DesignFileError(spec.doeName, path, message); });
}

/** The DOE's variants by index (generated as asked for: doe-sampling.ts). */
export function doeVariantSource(spec: DoeSpec): DoeVariantSource {
  return variantSource(spec.vary, spec.sampling);
}

/** Every variant's moves, in output order (all held: for small DOEs and tests; a run uses doeVariantSource). */
export function doeVariants(spec: DoeSpec): number[][] {
  const source = doeVariantSource(spec);
  return Array.from({ length: source.count }, (_, i) => source.at(i));
}

/** The geometry with one variant's moves applied: its file with the numbers moved, read again. */
export function variantGeometry(geometry: Geometry, spec: DoeSpec, moves: readonly number[]): Geometry {
  if (pointsOnly(geometry, spec)) {
    // the reader would copy these points as they are: moving its copies is the same, a third of the time
    const g = structuredClone({ ...geometry, raw: null }) as Geometry;
    spec.vary.forEach((c, i) => {
      const [, name, axis] = c.places[0].path as [string, string, string | number];
      g.corners[0].hardpoints[name][typeof axis === 'number' ? axis : 'xyz'.indexOf(axis)] += moves[i];
    });
    // raw as read: what reads it (a dynamics section) is not moved by a point
    return { ...g, raw: geometry.raw };
  }
  return movedGeometry(spec.file, spec.vary.map((c) => c.places), moves, spec.fileName);
}

/** A corner without a setup (no shims) whose DOE moves hardpoints only: its points are the file's. */
function pointsOnly(geometry: Geometry, spec: DoeSpec): boolean {
  return geometry.scope === 'corner' && geometry.corners[0].setup === undefined && geometry.corners[0].authored_hardpoints === undefined
    && spec.vary.every((c) => c.places.length === 1 && c.places[0].path.length === 3 && c.places[0].path[0] === 'hardpoints');
}

/** The variant's geometry file (JSON): what `kinemate sweep` of that variant alone reads. */
export function variantFileText(spec: DoeSpec, moves: readonly number[]): string {
  return `${JSON.stringify(movedFile(spec.file, spec.vary.map((c) => c.places), moves), null, 2)}\n`;
}

/** CSV header: variant, the moves, step, status, the swept quantities (bump: wheel travel, mm from design; …), then the metrics. */
export function doeHeader(spec: DoeSpec): string {
  if (spec.simulate) return ['variant', ...spec.vary.map((c) => c.key), 'status', ...spec.simulate.results.map((r) => r.name)].join(',');
  return ['variant', ...spec.vary.map((c) => c.key), 'step', 'status', ...sweptColumns(spec.sweep!).map((c) => c.name), ...spec.metrics].join(',');
}

/**
 * One variant swept alone (a fresh model, or `models`' last one renewed to the same numbers; values only — the same numbers as `kinemate
 * sweep` of the variant's file with the DOE's sweep), as its CSV lines. A variant that cannot be built is one `error` line.
 */
export function variantRows(geometry: Geometry, spec: DoeSpec, index: number, moves: readonly number[], models?: VariantModels): string[] {
  const prefix = `${index},${moves.join(',')}`;
  if (spec.simulate) return simulationRows(geometry, spec, spec.simulate, index, moves);
  const sweep = spec.sweep!;
  let run;
  try {
    const doc = suspensionAssembly(variantGeometry(geometry, spec, moves));
    const sm = models ? models.model(doc) : new SuspensionModel(doc);
    const metrics = metricValues(sm, spec.metrics);
    run = runSweep(sm, sweep, metrics ? { metrics } : { valuesOnly: true });
  } catch (error) {
    return errorRows(spec, index, moves, (error as Error).message);
  }
  // the values the step asked for (bump: the travel from design, not the wheel centre's absolute z)
  const swept = sweptColumns(sweep).map((c) => sweepValues(c.target, sweep.steps));
  return run.steps.map((step) => {
    const metrics = flattenMetrics(step.metrics);
    return `${prefix},${step.index},${step.status},${swept.map((v) => `${v[step.index]},`).join('')}${spec.metrics.map((m) => metrics[m] ?? '').join(',')}`;
  });
}

/** A simulated variant's one row: status (completed, failed: …) and each result (empty: none). */
function simulationRows(geometry: Geometry, spec: DoeSpec, sim: DoeSimulation, index: number, moves: readonly number[]): string[] {
  let run;
  try {
    if (!simulation) throw new InternalError('batch: the simulation code is not loaded (await loadDoeWork first)');
    run = simulation.simulateVariant(variantGeometry(geometry, spec, moves), sim);
  } catch (error) {
    return errorRows(spec, index, moves, (error as Error).message);
  }
  return [[index, ...moves, run.status.replaceAll(',', ';').replaceAll('\n', ' '), ...run.values.map((v) => v ?? '')].join(',')];
}

/** A variant that could not be swept or simulated: one row, its status `error: <message>` (commas made semicolons). */
export function errorRows(spec: DoeSpec, index: number, moves: readonly number[], message: string): string[] {
  const empty = (n: number) => Array.from({ length: n }, () => '');
  const status = `error: ${String(message).replaceAll(',', ';').replaceAll('\n', ' ')}`;
  if (spec.simulate) return [[index, ...moves, status, ...empty(spec.simulate.results.length)].join(',')];
  return [[index, ...moves, '', status, ...empty(sweptColumns(spec.sweep!).length), ...empty(spec.metrics.length)].join(',')];
}

/** Whether a variant's rows are all solved (a sweep) or completed (a simulation). */
export function variantSucceeded(lines: readonly string[]): boolean {
  return lines.every((l) => /,(solved|completed),/.test(l) || /,completed$/.test(l));
}
