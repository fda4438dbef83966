/**
 * Inverse design: move chosen hardpoint coordinates, each within its box, so that metric
 * values at bump travels, gains between two travels, or whole curves meet their targets.
 * A bounded Levenberg–Marquardt on the exact Jacobian (src/suspension/gradients/model.ts): each
 * iteration solves the states the targets need once and takes every residual's gradient
 * from the implicit function theorem — no differences of re-solved geometries.
 */
import type { Geometry } from '../files';
import { parseText } from '../files';
import { ProblemList } from '../files/errors';
import { applySetup } from '../build/setup';
import { SensitivityModel, sensitivitySweepBySide, bumpStates, sensitivityMetricsOf, type MetricGradient } from '../gradients/model';
import { DesignFileError } from './errors';
import { SensitivityError } from '../gradients/types';
import { fileCoordinates } from '../gradients/setup';
import { COMPLIANT_SENSITIVITY_METRICS } from '../compliance/sensitivity-sweep';
import { KC_WHEEL_RATE } from '../compliance/sensitivity';
import { compliantTargetCurves, setNumberAtPath, setStiffness, stiffnessValues } from '../compliance/fit-rates';

export interface FitTarget {
  metric: string;
  /** The metric at one bump travel (mm). */
  at?: number;
  /** m(b) − m(a): the change from travel a to b (a gain over that interval, in the metric's unit). */
  gain?: [number, number];
  /** (m(b) − m(a))/(b − a): the curve's mean slope from travel a to b (the metric's unit per mm). */
  slope?: [number, number];
  /** A whole curve: the metric at each travel against each value. */
  curve?: { at: number[]; values: number[] };
  /** Wanted value (or values for a curve); or a band min…max (either side may be open). */
  value?: number;
  min?: number;
  max?: number;
  /** Residual weight (default 1): residual = weight·(metric − wanted). */
  weight?: number;
  /** An axle only: the metric of the left side, the right, or both (default: one residual per side). */
  side?: 'left' | 'right' | 'both';
}

export interface FitSpec {
  /**
   * Per hardpoint, per axis: the box [low, high] in mm relative to the file's value. An
   * axle: a left-side name moves both sides' point (the right's y the opposite way: the
   * left/right symmetry is kept); `center.<name>` moves an axle-level point.
   */
  move: Record<string, Partial<Record<'x' | 'y' | 'z', [number, number]>>>;
  /** A compliant file's stiffnesses by path (`compliance.links.trackrod`): the box [low, high] relative to the file's value (N/mm, N·mm/deg). */
  rates?: Record<string, [number, number]>;
  targets: FitTarget[];
  /** Iteration cap (default 50). */
  max_iterations?: number;
}

export interface FitTargetReport {
  target: string;
  value: number;
  wanted: string;
  residual: number;
}

export interface FitReport {
  status: 'converged' | 'at_bounds' | 'stalled' | 'max_iterations';
  iterations: number;
  /** ½Σ residual² at the start and at the end. */
  cost: { start: number; end: number };
  /** Per moved coordinate: from, to, and the move (mm); an axle's as `left.…`, `right.…`, `center.…`. */
  moves: Record<string, { from: number; to: number; delta: number }>;
  /** Moved parameters that end on their box: "<hardpoint>.<axis> (low|high)". */
  at_bound: string[];
  targets: FitTargetReport[];
  geometry: Geometry;
}

const AXIS_INDEX = { x: 0, y: 1, z: 2 } as const;
/** ½Σr² below this is met: the states themselves are solved to about 1e-10. */
const CONVERGED_COST = 1e-18;

/** Parse and check a targets file; every problem names its path (and the file). */
export function parseFitSpec(text: string, geometry: Geometry, fileName = 'targets'): FitSpec {
  const raw = parseText(text, fileName) as Record<string, unknown>;
  const bad = (path: string, message: string): never => { throw new DesignFileError(fileName, path, message); };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('(top)', 'expected a mapping with move and targets');
  const axle = geometry.scope === 'axle';
  const hp = geometry.corners[0]?.hardpoints ?? {};
  const movable = [...Object.keys(hp), ...(axle ? Object.keys(geometry.center ?? {}).map((n) => `center.${n}`) : [])];
  const move = raw.move as Record<string, Record<string, unknown>>;
  if (typeof move !== 'object' || move === null || Array.isArray(move)) bad('move', 'expected a mapping hardpoint → { x|y|z: [low, high] }');
  const rates: Record<string, [number, number]> = {};
  for (const [name, axes] of Object.entries(move)) {
    if (name.startsWith('compliance.')) { rates[name] = checkRateBox(geometry, name, axes, bad); delete move[name]; continue; }
    if (!movable.includes(name)) bad(`move.${name}`, `no hardpoint "${name}" in the geometry (hardpoints${axle ? ', moved on both sides' : ''}: ${movable.join(', ')})`);
    if (typeof axes !== 'object' || axes === null) bad(`move.${name}`, 'expected { x|y|z: [low, high] }');
    for (const [axis, box] of Object.entries(axes)) {
      if (!(axis in AXIS_INDEX)) bad(`move.${name}.${axis}`, 'expected x, y or z');
      if (!Array.isArray(box) || box.length !== 2 || !box.every((v) => typeof v === 'number' && Number.isFinite(v)) || box[0] > 0 || box[1] < 0) bad(`move.${name}.${axis}`, 'expected [low, high] in mm with low ≤ 0 ≤ high');
    }
  }
  const targets = checkTargets(raw.targets, geometry, bad);
  const mi = raw.max_iterations;
  if (mi !== undefined && (typeof mi !== 'number' || !Number.isInteger(mi) || mi < 1)) bad('max_iterations', 'expected a positive integer');
  return { move: move as FitSpec['move'], ...(Object.keys(rates).length ? { rates } : {}), targets, ...(mi !== undefined ? { max_iterations: mi as number } : {}) };
}

/** A stiffness's box: the file gives the number, the box keeps it ≥ 0 (a link's > 0). */
function checkRateBox(geometry: Geometry, name: string, box: unknown, bad: (path: string, message: string) => never): [number, number] {
  const known = stiffnessValues(geometry);
  const value = known.get(name);
  if (value === undefined) bad(`move.${name}`, `no stiffness "${name}" in the geometry (stiffnesses: ${[...known.keys()].join(', ') || 'none: the file has no compliance'})`);
  if (!Array.isArray(box) || box.length !== 2 || !box.every((v) => typeof v === 'number' && Number.isFinite(v)) || box[0] > 0 || box[1] < 0) bad(`move.${name}`, 'expected [low, high] relative to the file\'s value (N/mm; N·mm/deg for torsional, conical) with low ≤ 0 ≤ high');
  const [lo, hi] = box as [number, number];
  const link = name.startsWith('compliance.links.');
  if (link ? value! + lo <= 0 : value! + lo < 0) bad(`move.${name}`, `the box reaches ${value! + lo}: a ${link ? 'link\'s stiffness stays > 0' : 'bushing rate stays ≥ 0'}`);
  return [lo, hi];
}

/**
 * A targets list checked against the geometry (each problem named by its path through
 * `bad`): the fit's targets, and the curve quantities `kinemate sensitivity --targets` reads
 * (`wanted` false: a value or band is not needed, except a curve's values).
 */
export function checkTargets(targets: unknown, geometry: Geometry, bad: (path: string, message: string) => never, wanted = true): FitTarget[] {
  const axle = geometry.scope === 'axle';
  if (!Array.isArray(targets) || targets.length === 0) bad('targets', 'expected a list of targets');
  (targets as unknown[]).forEach((t, i) => {
    const p = `targets[${i}]`;
    if (typeof t !== 'object' || t === null) bad(p, 'expected a mapping');
    const target = t as FitTarget;
    // a compliant file: its state metrics, the coefficients and the compliant wheel rate (the targets' states are bump steps: its pads are held)
    const offered = geometry.compliance ? { side: [...COMPLIANT_SENSITIVITY_METRICS, KC_WHEEL_RATE], axle: [] as readonly string[] } : sensitivityMetricsOf(geometry);
    if (![...offered.side, ...offered.axle].includes(target.metric)) bad(`${p}.metric`, `expected one of ${[...offered.side, ...offered.axle].join(', ')}`);
    const given = new Map(Object.entries(target)), kinds = ['at', 'gain', 'slope', 'curve'].filter((k) => given.get(k) !== undefined);
    if (kinds.length !== 1) bad(p, 'give exactly one of at, gain, slope, curve');
    if (target.at !== undefined && typeof target.at !== 'number') bad(`${p}.at`, 'expected a travel in mm');
    if (target.gain !== undefined && (!Array.isArray(target.gain) || target.gain.length !== 2 || !target.gain.every((v) => typeof v === 'number'))) bad(`${p}.gain`, 'expected [from, to] travels in mm');
    if (target.slope !== undefined && (!Array.isArray(target.slope) || target.slope.length !== 2 || !target.slope.every((v) => typeof v === 'number' && Number.isFinite(v)) || target.slope[0] === target.slope[1])) bad(`${p}.slope`, 'expected [from, to] travels in mm, from ≠ to');
    if (target.curve !== undefined) {
      const c = target.curve;
      if (!Array.isArray(c.at) || !Array.isArray(c.values) || c.at.length !== c.values.length || c.at.length === 0) bad(`${p}.curve`, 'expected { at: [...], values: [...] } of equal length');
    } else if (wanted && target.value === undefined && target.min === undefined && target.max === undefined) bad(p, 'give value, or min and/or max');
    for (const k of ['value', 'min', 'max', 'weight'] as const) if (target[k] !== undefined && (typeof target[k] !== 'number' || !Number.isFinite(target[k]))) bad(`${p}.${k}`, typeof target[k] === 'number' ? `not a finite number (got ${target[k]})` : 'expected a number');
    if (target.side !== undefined) {
      if (!axle) bad(`${p}.side`, 'a corner has one side: side is for an axle geometry');
      if (!['left', 'right', 'both'].includes(target.side as string)) bad(`${p}.side`, 'expected left, right or both');
      if (offered.axle.includes(target.metric)) bad(`${p}.side`, `${target.metric} is the axle's own metric: it has no side`);
    }
  });
  return targets as FitTarget[];
}

interface Residual { value: number; gradient: Float64Array; label: string; wanted: string; metric: number; weight: number; lo: number; hi: number }

/** The travels the targets need, each solved once per evaluation. */
function travelsOf(targets: readonly FitTarget[]): number[] {
  const set = new Set<number>();
  for (const t of targets) {
    if (t.at !== undefined) set.add(t.at);
    if (t.gain) { set.add(t.gain[0]); set.add(t.gain[1]); }
    if (t.slope) { set.add(t.slope[0]); set.add(t.slope[1]); }
    if (t.curve) for (const a of t.curve.at) set.add(a);
  }
  // visit outward from the design so each state starts next to the last
  return [...set].sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
}

/** Where one fit parameter lands: a point coordinate of a corner (0: the left or only one), or of the axle's centre. */
interface Placement { corner: number | 'center' | 'rate'; name: string; axis: 0 | 1 | 2; from: number; sign: 1 | -1; key: string; gradientKey: string }

/** One moved parameter: its box and the coordinates it moves (an axle: both sides, mirrored). */
interface Coord { key: string; lo: number; hi: number; places: Placement[] }

/** The fit's parameters from the spec's moves (an axle's left name moves the left and the mirrored right point). */
function coordsOf(geometry: Geometry, spec: FitSpec): Coord[] {
  const axle = geometry.scope === 'axle';
  const coords: Coord[] = [];
  for (const [name, axes] of Object.entries(spec.move)) {
    for (const [axisName, box] of Object.entries(axes)) {
      const axis: 0 | 1 | 2 = AXIS_INDEX[axisName as 'x' | 'y' | 'z'];
      const key = `${name}.${axisName}`;
      let places: Placement[];
      if (!axle) places = [{ corner: 0, name, axis, from: authored(geometry.corners[0])[name][axis], sign: 1, key, gradientKey: key }];
      else if (name.startsWith('center.')) {
        const n = name.slice('center.'.length);
        places = [{ corner: 'center', name: n, axis, from: geometry.center![n][axis], sign: 1, key, gradientKey: key }];
      } else {
        // the right side is the left mirrored in y: its y moves the opposite way
        places = geometry.corners.map((c, ci) => ({ corner: ci, name, axis, from: authored(c)[name][axis], sign: c.side === 'right' && axis === 1 ? -1 : 1, key: `${c.side}.${key}`, gradientKey: `${c.side}.${key}` }));
      }
      coords.push({ key, lo: box![0], hi: box![1], places });
    }
  }
  // a compliant file's stiffnesses: one number of the file each, which may set several elements
  const values = spec.rates ? stiffnessValues(geometry) : null;
  for (const [name, [lo, hi]] of Object.entries(spec.rates ?? {})) coords.push({ key: name, lo, hi, places: [{ corner: 'rate', name, axis: 0, from: values!.get(name)!, sign: 1, key: name, gradientKey: name }] });
  return coords;
}

/**
 * The file's own points of a corner: with a setup (camber or length shims) the authored ones, which the setup solve
 * turns into the set-up points (`hardpoints`) every metric is of; else the points themselves.
 */
function authored(corner: Geometry['corners'][number]): Geometry['corners'][number]['hardpoints'] {
  return corner.authored_hardpoints ?? corner.hardpoints;
}

/**
 * The geometry with the moves applied to the file's own points. A corner with a setup is set up again from its
 * moved authored points, as reading the fitted file does: its set-up points follow the setup, never the fit directly.
 */
function withMoves(geometry: Geometry, coords: readonly Coord[], x: Float64Array): Geometry {
  const g = structuredClone(geometry);
  coords.forEach((c, i) => {
    for (const p of c.places) {
      if (p.corner === 'rate') setStiffness(g, p.name, p.from + x[i]);
      else (p.corner === 'center' ? g.center! : authored(g.corners[p.corner]))[p.name][p.axis] = p.from + p.sign * x[i];
    }
  });
  if (!g.corners.some((c) => c.authored_hardpoints)) return g;
  for (const corner of g.corners) {
    if (!corner.authored_hardpoints) continue;
    corner.hardpoints = corner.authored_hardpoints;
    delete corner.authored_hardpoints;
    delete corner.setup_change;
  }
  const problems = new ProblemList();
  applySetup(problems, g, g.scope === 'axle' ? 'axle_config' : 'config');
  if (problems.count) throw new SensitivityError(`fit: the moved points cannot be set up: ${problems.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  return g;
}

/**
 * The targets' metrics at every travel they name, solved once with their exact gradients:
 * `at` one metric of one side (`axle` for an axle's own) at a travel, `sides` the sides a
 * target reads (a corner: its one side; an axle: both, or the one named, or `axle`).
 */
export function targetCurves(geometry: Geometry, targets: readonly FitTarget[], mode: 'adjoint' | 'direct', who = 'fit'): { at: (travel: number, metric: string, side: string) => MetricGradient; sides: (t: FitTarget) => readonly string[] } {
  const model = new SensitivityModel(geometry);
  const travels = travelsOf(targets);
  const metrics = [...new Set(targets.map((t) => t.metric))];
  const run = sensitivitySweepBySide(model, bumpStates(travels, geometry), metrics, mode);
  const axle = geometry.scope === 'axle';
  const own = sensitivityMetricsOf(geometry).axle as readonly string[];
  return {
    at: (travel, metric, side) => {
      const step = run.steps[travels.indexOf(travel)];
      const m = step.metrics?.[side]?.[metric];
      if (step.status !== 'solved' || !m) throw new SensitivityError(`${who}: ${axle ? `${side} ` : ''}${metric} at bump ${travel} mm cannot be evaluated${step.message ? `: ${step.message}` : ''}`);
      return m;
    },
    sides: (t) => (!axle ? [model.sides[0]] : own.includes(t.metric) ? ['axle'] : t.side === undefined || t.side === 'both' ? model.sides : [t.side]),
  };
}

/** targetCurves for a compliant file: its settled states' metrics with gradients over the stiffnesses (compliance/fit-rates.ts). */
export function compliantCurves(geometry: Geometry, targets: readonly FitTarget[], points: boolean, who = 'fit'): ReturnType<typeof targetCurves> {
  const travels = travelsOf(targets);
  const read = compliantTargetCurves(geometry, travels, [...new Set(targets.map((t) => t.metric))], points);
  const sides = geometry.corners.map((c) => c.side);
  return {
    at: (travel, metric, side) => {
      const m = read(travel, metric, side);
      if (!m) throw new SensitivityError(`${who}: ${geometry.scope === 'axle' ? `${side} ` : ''}${metric} at bump ${travel} mm has no gradient on this compliant file (no equilibrium, or a coefficient whose element is wound up there: docs/compliance.md)`);
      return m;
    },
    sides: (t) => (geometry.scope !== 'axle' ? [sides[0]] : t.side === undefined || t.side === 'both' ? sides : [t.side]),
  };
}

/** Residuals (weighted) and their exact gradients with respect to the moved coordinates. */
function residualsOf(geometry: Geometry, spec: FitSpec, coords: readonly Coord[]): Residual[] {
  const { at, sides: sidesOf } = geometry.compliance ? compliantCurves(geometry, spec.targets, Object.keys(spec.move).length > 0) : targetCurves(geometry, spec.targets, 'direct');
  const axle = geometry.scope === 'axle';
  // over the file's own points: through a setup's ∂s/∂a where a corner has one (gradients/setup.ts)
  const inFile = fileCoordinates(geometry);
  // a symmetric parameter's gradient: the sum over the points it moves, the right's y mirrored
  const gradientOf = (m: MetricGradient) => {
    const g = inFile ? inFile(m.gradient) : m.gradient;
    return Float64Array.from(coords, (c) => c.places.reduce((s, p) => {
      // a compliant state's hardpoint gradients exist at rest only (compliance/sensitivity-sweep.ts)
      if (g[p.gradientKey] === undefined) throw new SensitivityError(`fit: no gradient over ${p.gradientKey} at this state of the compliant file (hardpoints are parameters of its states at rest only)`);
      return s + p.sign * (g[p.gradientKey] as number);
    }, 0));
  };
  const out: Residual[] = [];
  spec.targets.forEach((t, i) => {
    const w = t.weight ?? 1;
    // an axle's own metric (a roll centre, track): one residual, from metrics.axle
    for (const side of sidesOf(t)) {
      const name = axle ? `${side} ${t.metric}` : t.metric;
      const push = (label: string, value: number, gradient: Float64Array, wanted: number | undefined) => {
        out.push({ label, value, gradient, weight: w, metric: value, wanted: wanted !== undefined ? `${wanted}` : `${t.min ?? '−∞'}…${t.max ?? '+∞'}`, lo: wanted ?? t.min ?? -Infinity, hi: wanted ?? t.max ?? Infinity });
      };
      if (t.at !== undefined) { const m = at(t.at, t.metric, side); push(`targets[${i}] ${name} at ${t.at}`, m.value, gradientOf(m), t.value); }
      if (t.gain) {
        const a = at(t.gain[0], t.metric, side), b = at(t.gain[1], t.metric, side);
        const ga = gradientOf(a), gb = gradientOf(b);
        push(`targets[${i}] ${name} gain ${t.gain[0]}…${t.gain[1]}`, b.value - a.value, gb.map((v, k) => v - ga[k]), t.value);
      }
      if (t.slope) {
        const [x0, x1] = t.slope, a = at(x0, t.metric, side), b = at(x1, t.metric, side);
        const ga = gradientOf(a), gb = gradientOf(b);
        push(`targets[${i}] ${name} slope ${x0}…${x1}`, (b.value - a.value) / (x1 - x0), gb.map((v, k) => (v - ga[k]) / (x1 - x0)), t.value);
      }
      if (t.curve) t.curve.at.forEach((travel, j) => { const m = at(travel, t.metric, side); push(`targets[${i}] ${name} at ${travel}`, m.value, gradientOf(m), t.curve!.values[j]); });
    }
  });
  return out;
}

/**
 * The fit's residuals at `geometry` moved by `deltas` (per parameter key, mm; absent: 0),
 * each with its exact gradient per parameter: what fit() descends on, for checking. Value
 * and gradient are the metric's (a gain's, a band's), before the target's weight.
 */
export function fitResiduals(geometry: Geometry, spec: FitSpec, deltas: Record<string, number> = {}): { keys: string[]; residuals: { target: string; value: number; gradient: Record<string, number> }[] } {
  const coords = coordsOf(geometry, spec);
  const x = Float64Array.from(coords, (c) => deltas[c.key] ?? 0);
  const res = residualsOf(withMoves(geometry, coords, x), spec, coords);
  return { keys: coords.map((c) => c.key), residuals: res.map((r) => ({ target: r.label, value: r.value, gradient: Object.fromEntries(coords.map((c, a) => [c.key, r.gradient[a]])) })) };
}

/** Weighted residual of a band: zero inside, the distance to the nearer edge outside. */
function bandResidual(r: Residual): number {
  return r.weight * (r.value > r.hi ? r.value - r.hi : r.value < r.lo ? r.value - r.lo : 0);
}

/** One accepted iteration of {@link fit}: for a progress display (the viewer's Fit panel). */
export interface FitProgress {
  /** Iterations done (1, 2, …). */
  iteration: number;
  maxIterations: number;
  /** ½Σr² now and at the start. */
  cost: number;
  start: number;
}

export interface FitOptions {
  /** Called after each accepted iteration, synchronously (a worker posts it on). */
  onIteration?: (progress: FitProgress) => void;
}

/**
 * Fit the geometry's moved coordinates to the targets. Returns the fitted geometry and a
 * report: moves, residual per target, coordinates that end on their box.
 */
export function fit(geometry: Geometry, spec: FitSpec, options: FitOptions = {}): FitReport {
  const coords = coordsOf(geometry, spec);
  const nx = coords.length;
  const x = new Float64Array(nx);
  // the descent works in each parameter's own size: a mm for a point, the file's value for a stiffness (N/mm moves by thousands)
  const scale = coords.map((c) => (c.places[0].corner === 'rate' ? Math.max(1, Math.abs(c.places[0].from)) : 1));
  const maxIterations = spec.max_iterations ?? 50;
  let res = residualsOf(geometry, spec, coords);
  const costOf = (rs: Residual[]) => rs.reduce((s, r) => s + bandResidual(r) ** 2, 0) / 2;
  let cost = costOf(res);
  const start = cost;
  let lambda = 1e-3;
  let status: FitReport['status'] = 'max_iterations';
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    // J (active rows only: a band target inside its band pulls nowhere)
    const rows = res.filter((r) => bandResidual(r) !== 0);
    const JtJ = new Float64Array(nx * nx), g = new Float64Array(nx);
    for (const r of rows) {
      const rv = bandResidual(r);
      for (let a = 0; a < nx; a++) {
        g[a] += r.weight * r.gradient[a] * scale[a] * rv;
        for (let b = 0; b < nx; b++) JtJ[a * nx + b] += r.weight * r.gradient[a] * scale[a] * r.weight * r.gradient[b] * scale[b];
      }
    }
    // coordinates on a box edge whose descent points outward stay put this iteration
    const free = coords.map((c, a) => !((x[a] <= c.lo + 1e-12 && g[a] > 0) || (x[a] >= c.hi - 1e-12 && g[a] < 0)));
    let projected = 0;
    for (let a = 0; a < nx; a++) if (free[a]) projected = Math.max(projected, Math.abs(g[a]));
    if (cost < CONVERGED_COST || projected < 1e-12 * Math.max(1, Math.sqrt(2 * cost))) {
      status = free.every(Boolean) ? 'converged' : 'at_bounds';
      break;
    }
    let accepted = false;
    for (let tries = 0; tries < 12 && !accepted; tries++) {
      const step = dampedStep(JtJ, g, free, lambda);
      const trial = new Float64Array(nx);
      for (let a = 0; a < nx; a++) trial[a] = Math.min(coords[a].hi, Math.max(coords[a].lo, x[a] + step[a] * scale[a]));
      let trialRes: Residual[] | null = null;
      try { trialRes = residualsOf(withMoves(geometry, coords, trial), spec, coords); } catch { trialRes = null; }
      const trialCost = trialRes ? costOf(trialRes) : Infinity;
      if (trialRes && trialCost < cost) {
        const moved = Math.max(...trial.map((v, a) => Math.abs(v - x[a])));
        x.set(trial); res = trialRes;
        const drop = cost - trialCost;
        cost = trialCost;
        lambda = Math.max(lambda / 3, 1e-12);
        accepted = true;
        options.onIteration?.({ iteration: iterations + 1, maxIterations, cost, start });
        if (moved < 1e-10 || drop < 1e-16 * Math.max(1, cost)) { status = 'stalled'; }
      } else lambda *= 4;
    }
    if (!accepted || status === 'stalled') {
      if (accepted) iterations++;
      // the residuals are met to the solver's precision: nothing smaller is there to find
      status = cost < CONVERGED_COST ? 'converged' : 'stalled';
      break;
    }
    if (cost < CONVERGED_COST) { iterations++; status = 'converged'; break; }
  }
  if (status === 'stalled' || status === 'max_iterations') {
    // a minimum on the box edges is a result, not a stall
    const atEdge = coords.some((c, a) => x[a] <= c.lo + 1e-9 || x[a] >= c.hi - 1e-9);
    if (atEdge && status === 'stalled') status = 'at_bounds';
  }
  const fitted = withMoves(geometry, coords, x);
  return {
    status,
    iterations,
    cost: { start, end: cost },
    moves: Object.fromEntries(coords.flatMap((c, a) => c.places.map((p) => [p.key, { from: p.from, to: p.from + p.sign * x[a], delta: p.sign * x[a] }]))),
    at_bound: coords.flatMap((c, a) => (x[a] <= c.lo + 1e-9 && c.lo < 0 ? [`${c.key} (low)`] : x[a] >= c.hi - 1e-9 && c.hi > 0 ? [`${c.key} (high)`] : [])),
    targets: res.map((r) => ({ target: r.label, value: r.value, wanted: r.wanted, residual: bandResidual(r) })),
    geometry: fitted,
  };
}

/** (JᵀJ + λ(diag JᵀJ + I)) δ = −g over the free coordinates (Cholesky by hand: a few unknowns). */
function dampedStep(JtJ: Float64Array, g: Float64Array, free: boolean[], lambda: number): Float64Array {
  const nx = g.length;
  const idx = free.flatMap((f, a) => (f ? [a] : []));
  const m = idx.length;
  const A = new Float64Array(m * m), b = new Float64Array(m);
  idx.forEach((a, i) => {
    b[i] = -g[a];
    idx.forEach((c, j) => { A[i * m + j] = JtJ[a * nx + c]; });
    A[i * m + i] += lambda * (JtJ[a * nx + a] + 1e-9);
  });
  // Cholesky
  for (let j = 0; j < m; j++) {
    let s = A[j * m + j];
    for (let k = 0; k < j; k++) s -= A[j * m + k] ** 2;
    const d = Math.sqrt(Math.max(s, 1e-300));
    A[j * m + j] = d;
    for (let i = j + 1; i < m; i++) {
      let t = A[i * m + j];
      for (let k = 0; k < j; k++) t -= A[i * m + k] * A[j * m + k];
      A[i * m + j] = t / d;
    }
  }
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) { let s = b[i]; for (let k = 0; k < i; k++) s -= A[i * m + k] * y[k]; y[i] = s / A[i * m + i]; }
  for (let i = m - 1; i >= 0; i--) { let s = y[i]; for (let k = i + 1; k < m; k++) s -= A[k * m + i] * y[k]; y[i] = s / A[i * m + i]; }
  const step = new Float64Array(nx);
  idx.forEach((a, i) => { step[a] = y[i]; });
  return step;
}

/**
 * The geometry file's text with the fitted hardpoints written in: the file as authored (its
 * config, comments aside) as JSON, which any YAML reader also reads. An axle keeps its
 * layout: without `hardpoints.right` the right side stays the mirror of the left.
 */
export function fittedGeometryText(originalText: string, report: FitReport, fileName?: string): string {
  const raw = parseText(originalText, fileName) as { hardpoints: Record<string, unknown> };
  for (const [key, m] of Object.entries(report.moves)) {
    // a stiffness: the number at its path in the file
    if (key.startsWith('compliance.')) { setNumberAtPath(raw, key, () => m.to); continue; }
    const parts = key.split('.');
    // a corner's `<name>.<axis>`; an axle's `<left|right|center>.<name>.<axis>`
    const group = parts.length === 3 ? (raw.hardpoints as Record<string, Record<string, unknown> | undefined>)[parts[0]] : raw.hardpoints;
    if (!group) continue; // the mirrored right side: written by the left's move
    const [name, axis] = parts.slice(-2);
    const p = group[name];
    if (Array.isArray(p)) p[AXIS_INDEX[axis as 'x']] = m.to;
    else (p as Record<string, number>)[axis] = m.to;
  }
  return `${JSON.stringify(raw, null, 2)}\n`;
}
