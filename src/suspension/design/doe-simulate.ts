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
 *
 * This module reads the DOE's field and loads no dynamics code (every command loads it);
 * doe-simulate-run.ts, loaded when a DOE simulates, checks the columns and runs.
 */
import type { Geometry } from '../files';
import type { IntegratorMethod } from '../../../kernel/integrator/integrator';
import { isCornerResult, suspensionColumn } from '../dynamics/result-names';

export interface DoeResult { name: string; column: string; at: 'final' | 'max' | 'min' | 'rms' | 'crossing'; level?: number }

export interface DoeSimulation {
  duration: number;
  step: number;
  method?: IntegratorMethod;
  results: DoeResult[];
}

const METHODS: readonly IntegratorMethod[] = ['generalized-alpha', 'backward-euler'];

/** The DOE's `simulate` field, checked (its results' columns: doe-simulate-run.ts); `bad` names the field. */
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
  const results = (r.results as string[]).map((name, i) => parseDoeResult(name, geometry, (message) => bad(`simulate.results[${i}]`, message)));
  const twice = results.find((x, i) => results.findIndex((y) => y.name === x.name) !== i);
  if (twice) bad('simulate.results', `"${twice.name}" is given twice`);
  return { duration, step, ...(r.method !== undefined ? { method: r.method as IntegratorMethod } : {}), results };
}

function parseDoeResult(name: string, geometry: Geometry, bad: (message: string) => never): DoeResult {
  const m = /^([^@]+)(?:@(final|max|min|rms|cross=([-+0-9.eE]+)))?$/.exec(name);
  if (!m || (m[3] !== undefined && !Number.isFinite(Number(m[3])))) bad(`"${name}": expected COLUMN, COLUMN@max, @min, @final, @rms or @cross=LEVEL`);
  // a corner's side fields may be named bare, as simulate --result takes them
  const column = geometry.scope === 'corner' && isCornerResult(m![1]) ? suspensionColumn.corner(geometry.corners[0].side, m![1]) : m![1];
  const at = m![3] !== undefined ? 'crossing' : (m![2] ?? 'final') as DoeResult['at'];
  return { name, column, at, ...(m![3] !== undefined ? { level: Number(m![3]) } : {}) };
}

