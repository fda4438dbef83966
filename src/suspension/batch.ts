/**
 * Design of experiments: many variants of one geometry (hardpoint coordinates moved by a
 * grid, a Latin hypercube, or a list), each swept alone exactly as `kinemate sweep` would
 * (values only), one CSV row per variant and step. The work is split over worker threads
 * by src/suspension/batch-pool.ts; this module is the part each thread runs.
 */
import type { Geometry, SweepSpec } from './files';
import { parseText, sweepFromShortcut, sweepValues } from './files';
import { suspensionAssembly } from './template';
import { SuspensionModel } from './model';
import { runSweep } from './sweep';
import { metricValues } from './metric-values';
import type { VariantModels } from './variant-models';
import { seededRandom } from '../../kernel/random';

export interface DoeCoordinate {
  key: string;
  name: string;
  axis: 0 | 1 | 2;
  /** Range of the move, mm relative to the file's value. */
  low: number;
  high: number;
}

export interface DoeSpec {
  vary: DoeCoordinate[];
  sampling: { type: 'grid'; levels: number } | { type: 'latin_hypercube'; samples: number; seed: number } | { type: 'list'; variants: number[][] };
  /** The bump sweep each variant runs, A:B:N (default -50:50:21). */
  bump: string;
  /** Metric columns (default camber, toe_angle). */
  metrics: string[];
}

const AXIS_INDEX = { x: 0, y: 1, z: 2 } as const;
/** Most variants one file may ask for. */
export const MAX_VARIANTS = 1_000_000;

/** Parse and check a DOE file; every problem names the file and its path. */
export function parseDoe(text: string, geometry: Geometry, fileName = 'doe'): DoeSpec {
  const raw = parseText(text, fileName) as Record<string, unknown>;
  const bad = (path: string, message: string): never => { throw new Error(`${fileName}: ${path}: ${message}`); };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('(top)', 'expected a mapping with vary and sampling');
  if (geometry.scope !== 'corner') bad('(top)', 'batch runs corner geometries only for now');
  const hp = geometry.corners[0].hardpoints;
  const vary = raw.vary as Record<string, unknown>;
  if (typeof vary !== 'object' || vary === null || Array.isArray(vary) || Object.keys(vary).length === 0) bad('vary', 'expected a mapping "<hardpoint>.<x|y|z>": [low, high]');
  const coords: DoeCoordinate[] = Object.entries(vary).map(([key, range]) => {
    const [name, axis] = key.split('.');
    if (!Object.hasOwn(hp, name) || !(axis in AXIS_INDEX)) bad(`vary.${key}`, `expected "<hardpoint>.<x|y|z>" with a hardpoint of the geometry (${Object.keys(hp).join(', ')})`);
    if (!Array.isArray(range) || range.length !== 2 || !range.every((v) => typeof v === 'number' && Number.isFinite(v)) || range[0] > range[1]) bad(`vary.${key}`, 'expected [low, high] in mm, low ≤ high');
    const r = range as number[];
    return { key, name, axis: AXIS_INDEX[axis as 'x'], low: r[0], high: r[1] };
  });
  const s = raw.sampling as Record<string, unknown>;
  if (typeof s !== 'object' || s === null) bad('sampling', 'expected { type: grid, levels } | { type: latin_hypercube, samples, seed } | { type: list, variants }');
  const count = (v: unknown, path: string, min: number) => (typeof v === 'number' && Number.isInteger(v) && v >= min ? v : bad(path, `expected an integer ≥ ${min}`));
  let sampling: DoeSpec['sampling'];
  if (s.type === 'grid') {
    const levels = count(s.levels, 'sampling.levels', 2);
    if (levels ** coords.length > MAX_VARIANTS) bad('sampling.levels', `${levels}^${coords.length} variants is more than ${MAX_VARIANTS}`);
    sampling = { type: 'grid', levels };
  } else if (s.type === 'latin_hypercube') {
    const samples = count(s.samples, 'sampling.samples', 1);
    if (samples > MAX_VARIANTS) bad('sampling.samples', `at most ${MAX_VARIANTS}`);
    sampling = { type: 'latin_hypercube', samples, seed: s.seed === undefined ? 1 : count(s.seed, 'sampling.seed', 0) };
  } else if (s.type === 'list') {
    const list = s.variants;
    if (!Array.isArray(list) || list.length === 0) bad('sampling.variants', 'expected a list of moves, one number per varied coordinate');
    (list as unknown[]).forEach((v, i) => {
      if (!Array.isArray(v) || v.length !== coords.length || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) bad(`sampling.variants[${i}]`, `expected ${coords.length} numbers (mm, in the order of vary)`);
    });
    sampling = { type: 'list', variants: list as number[][] };
  } else return bad('sampling.type', 'expected grid, latin_hypercube or list');
  const bump = raw.bump === undefined ? '-50:50:21' : typeof raw.bump === 'string' ? raw.bump : bad('bump', 'expected A:B:N');
  try { sweepFromShortcut('bump', bump, geometry); } catch (error) { bad('bump', (error as Error).message); }
  const metrics = raw.metrics === undefined ? ['camber', 'toe_angle'] : Array.isArray(raw.metrics) && raw.metrics.every((m) => typeof m === 'string') ? raw.metrics as string[] : bad('metrics', 'expected a list of metric names');
  return { vary: coords, sampling, bump, metrics };
}

/** Every variant's moves (mm, one per varied coordinate), in output order. */
export function doeVariants(spec: DoeSpec): number[][] {
  const d = spec.vary.length;
  const s = spec.sampling;
  if (s.type === 'list') return s.variants.map((v) => [...v]);
  if (s.type === 'grid') {
    const out: number[][] = [];
    const total = s.levels ** d;
    for (let i = 0; i < total; i++) {
      let rest = i;
      const v = spec.vary.map((c) => {
        const level = rest % s.levels;
        rest = Math.floor(rest / s.levels);
        return c.low + ((c.high - c.low) * level) / (s.levels - 1);
      });
      out.push(v);
    }
    return out;
  }
  // Latin hypercube: each coordinate's range cut in `samples` strata, each stratum used once
  const rnd = seededRandom(s.seed);
  const columns = spec.vary.map((c) => {
    const order = Array.from({ length: s.samples }, (_, i) => i);
    for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
    return order.map((stratum) => c.low + ((c.high - c.low) * (stratum + rnd())) / s.samples);
  });
  return Array.from({ length: s.samples }, (_, i) => columns.map((col) => col[i]));
}

/** The geometry with one variant's moves applied. */
export function variantGeometry(geometry: Geometry, spec: DoeSpec, moves: readonly number[]): Geometry {
  const g = structuredClone(geometry);
  spec.vary.forEach((c, i) => { g.corners[0].hardpoints[c.name][c.axis] += moves[i]; });
  return g;
}

/** CSV header: variant, the moves, step, status, bump (the wheel travel, mm from design), then the metrics. */
export function doeHeader(spec: DoeSpec): string {
  return ['variant', ...spec.vary.map((c) => c.key), 'step', 'status', 'bump', ...spec.metrics].join(',');
}

/**
 * One variant swept alone (a fresh model, or `models`' last one renewed to the same numbers; values only — the same numbers as `kinemate
 * sweep --bump`), as its CSV lines. A variant that cannot be built is one `error` line.
 */
export function variantRows(geometry: Geometry, spec: DoeSpec, index: number, moves: readonly number[], sweep: SweepSpec = sweepFromShortcut('bump', spec.bump), models?: VariantModels): string[] {
  const prefix = `${index},${moves.join(',')}`;
  let run;
  try {
    const doc = suspensionAssembly(variantGeometry(geometry, spec, moves));
    const sm = models ? models.model(doc) : new SuspensionModel(doc);
    const metrics = metricValues(sm, spec.metrics);
    run = runSweep(sm, sweep, metrics ? { metrics } : { valuesOnly: true });
  } catch (error) {
    return errorRows(spec, index, moves, (error as Error).message);
  }
  // the travel the step asked for (the bump target's value), not the wheel centre's absolute z
  const travels = sweepValues(sweep.targets[0], sweep.steps);
  return run.steps.map((step) => {
    const metrics = (step.metrics ?? {}) as Record<string, number | null>;
    return `${prefix},${step.index},${step.status},${travels[step.index]},${spec.metrics.map((m) => metrics[m] ?? '').join(',')}`;
  });
}

/** A variant that could not be swept: one row, its status `error: <message>` (commas made semicolons). */
export function errorRows(spec: DoeSpec, index: number, moves: readonly number[], message: string): string[] {
  return [`${index},${moves.join(',')},,error: ${String(message).replaceAll(',', ';')},,${spec.metrics.map(() => '').join(',')}`];
}
