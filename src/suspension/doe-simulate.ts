/**
 * A DOE whose per-variant work is a simulation (issue 31 item 4): the geometry file's
 * `dynamics` section run in time, as `kinemate simulate GEOMETRY.yaml` runs it, and one CSV
 * row per variant of chosen results. A result is a suspension column of `simulate … --format
 * csv` (`left.camber`, `left.tyre_force`, `spring.travel`, `link.trackrod`, `chassis_heave`;
 * a corner's side fields also bare, as `simulate --result` takes them) with simulate's
 * suffixes `@max`, `@min`, `@final` (default) and `@cross=LEVEL` (the first time the
 * column passes LEVEL, s, linear between steps; empty when it never does), and `@rms` (the
 * root mean square over every step, the start included). Every step is read (no frames
 * kept: a variant's memory does not grow with its duration).
 */
import type { Geometry } from './files';
import { prepareSuspensionDynamics, readSuspensionDynamics, simulateSuspension, type SuspensionFrame, type SuspensionSimulationFrame } from '../dynamics/suspension-dynamics';
import type { IntegratorMethod } from '../../kernel/integrator';

export interface DoeResult { name: string; column: string; at: 'final' | 'max' | 'min' | 'rms' | 'crossing'; level?: number }

export interface DoeSimulation {
  duration: number;
  step: number;
  method?: IntegratorMethod;
  results: DoeResult[];
}

const SIDE_FIELDS = ['wheel_travel', 'suspension_travel', 'camber', 'toe_angle', 'road', 'tyre_force', 'tyre_penetration'];
const METHODS: readonly IntegratorMethod[] = ['generalized-alpha', 'backward-euler'];

/** The DOE's `simulate` field, checked (its results against the base geometry's columns); `bad` names the field. */
export function parseDoeSimulation(raw: unknown, geometry: Geometry, bad: (path: string, message: string) => never): DoeSimulation {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('simulate', 'expected { duration, step, results: [NAME@max, …] }');
  const r = raw as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!['duration', 'step', 'method', 'results'].includes(key)) bad(`simulate.${key}`, 'unknown field (expected duration, step, method, results)');
  const seconds = (v: unknown, path: string) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : bad(path, 'expected a positive number of seconds'));
  const duration = seconds(r.duration, 'simulate.duration'), step = seconds(r.step, 'simulate.step');
  if (duration / step > 10_000_000) bad('simulate.step', `${Math.round(duration / step)} steps is more than 10000000`);
  if (r.method !== undefined && !METHODS.includes(r.method as IntegratorMethod)) bad('simulate.method', `expected ${METHODS.join(' or ')}`);
  if ((geometry.raw as Record<string, unknown> | null)?.dynamics === undefined) bad('simulate', 'the geometry has no dynamics section (masses, tyre, road) to simulate');
  if (!Array.isArray(r.results) || r.results.length === 0 || !r.results.every((x) => typeof x === 'string')) bad('simulate.results', 'expected a list of result names, e.g. [left.camber@max, spring.travel@rms]');
  const columns = simulationColumns(geometry);
  const results = (r.results as string[]).map((name, i) => parseDoeResult(name, geometry, columns, (message) => bad(`simulate.results[${i}]`, message)));
  const twice = results.find((x, i) => results.findIndex((y) => y.name === x.name) !== i);
  if (twice) bad('simulate.results', `"${twice.name}" is given twice`);
  return { duration, step, ...(r.method !== undefined ? { method: r.method as IntegratorMethod } : {}), results };
}

function parseDoeResult(name: string, geometry: Geometry, columns: string[], bad: (message: string) => never): DoeResult {
  const m = /^([^@]+)(?:@(final|max|min|rms|cross=([-+0-9.eE]+)))?$/.exec(name);
  if (!m || (m[3] !== undefined && !Number.isFinite(Number(m[3])))) bad(`"${name}": expected COLUMN, COLUMN@max, @min, @final, @rms or @cross=LEVEL`);
  // a corner's side fields may be named bare, as simulate --result takes them
  const column = geometry.scope === 'corner' && SIDE_FIELDS.includes(m![1]) ? `${geometry.corners[0].side}.${m![1]}` : m![1];
  if (!columns.includes(column)) bad(`"${name}": no column "${m![1]}" (columns: ${columns.join(', ')})`);
  const at = m![3] !== undefined ? 'crossing' : (m![2] ?? 'final') as DoeResult['at'];
  return { name, column, at, ...(m![3] !== undefined ? { level: Number(m![3]) } : {}) };
}

/** The suspension columns of `simulate GEOMETRY --format csv` for this geometry (its prepared model's). */
function simulationColumns(geometry: Geometry): string[] {
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry);
  const model = prepareSuspensionDynamics(geometry, spec);
  const out = geometry.corners.flatMap((c) => SIDE_FIELDS.map((f) => `${c.side}.${f}`));
  for (const id of Object.keys(model.designLengths)) out.push(`${id}.length`, `${id}.travel`);
  for (const [id, mate] of Object.entries(model.doc.mates)) if ((mate as { type: string }).type === 'distance') out.push(`link.${id}`);
  if (spec.sprungMass !== null) out.push('chassis_heave');
  return out;
}

/** A column's value in one step's suspension view. */
function columnValue(s: SuspensionFrame, column: string): number | null {
  const dot = column.lastIndexOf('.');
  const head = column.slice(0, dot), field = column.slice(dot + 1);
  if (column === 'chassis_heave') return s.chassis_heave ?? null;
  if (column.startsWith('link.')) return s.links[column.slice(5)] ?? null;
  const corner = s.corners[head] as Record<string, number | null> | undefined;
  if (corner && field in corner) return corner[field];
  const element = s.elements[head] as Record<string, number> | undefined;
  return element && (field === 'length' || field === 'travel') ? element[field] : null;
}

/** Running value of one result over the steps. */
class Tracker {
  private value: number | null = null;
  private sumSquares = 0;
  private count = 0;
  private last: { t: number; x: number } | null = null;
  constructor(readonly result: DoeResult) {}
  add(t: number, x: number | null): void {
    if (x === null) return;
    const { at, level } = this.result;
    if (at === 'final') this.value = x;
    else if (at === 'max') this.value = this.value === null ? x : Math.max(this.value, x);
    else if (at === 'min') this.value = this.value === null ? x : Math.min(this.value, x);
    else if (at === 'rms') { this.sumSquares += x * x; this.count++; }
    else if (this.value === null && this.last) {
      const a = this.last.x - level!, b = x - level!;
      if (a === 0) this.value = this.last.t;
      else if (a * b <= 0) this.value = this.last.t + ((t - this.last.t) * a) / (a - b);
    }
    this.last = { t, x };
  }
  get(): number | null {
    return this.result.at === 'rms' ? (this.count ? Math.sqrt(this.sumSquares / this.count) : null) : this.value;
  }
}

/** One variant's simulation: its status (completed | failed: message) and each result's value (null: none). */
export function simulateVariant(geometry: Geometry, sim: DoeSimulation): { status: string; values: (number | null)[] } {
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry);
  const trackers = sim.results.map((r) => new Tracker(r));
  const run = simulateSuspension(prepareSuspensionDynamics(geometry, spec), {
    duration: sim.duration, step: sim.step, every: 1, keepFrames: false, ...(sim.method ? { method: sim.method } : {}),
    onFrame: (f) => { const s = (f as SuspensionSimulationFrame).suspension; for (const tr of trackers) tr.add(f.t, columnValue(s, tr.result.column)); },
  });
  const status = run.status === 'completed' ? 'completed' : `failed: ${run.message ?? 'the integrator stopped'}`;
  return { status, values: trackers.map((t) => t.get()) };
}
