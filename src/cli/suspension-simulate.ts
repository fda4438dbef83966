/**
 * `kinemate simulate GEOMETRY.yaml`: a suspension geometry file with a `dynamics` section
 * run in time (docs/dynamics.md "Suspension dynamics"). The frames are simulate()'s, each
 * with its `suspension` view; CSV appends the suspension's columns to simulate's.
 */
import type { DynamicGradients, DynamicResult, GradientOptions, SimulateOptions, SuspensionFrame, SuspensionSimulationResult } from '../index.ts';
import { CHASSIS_HEAVE, CORNER_RESULTS, ELEMENT_RESULTS, suspensionColumn } from '../suspension/dynamics/result-names.ts';
import { readTextFile } from './files.ts';

/** The text of FILE when it is a suspension geometry (YAML, or JSON with hardpoints) rather than an assembly; else null. */
export async function geometryTextOf(file: string): Promise<string | null> {
  if (file === '-') return null;
  const isYaml = /\.ya?ml$/i.test(file);
  if (!isYaml && !/\.json$/i.test(file)) return null;
  const text = await readTextFile(file, 'model');
  if (/"format"\s*:\s*"kinemate\.assembly\//.test(text)) return null;
  return isYaml || /"hardpoints"\s*:/.test(text) ? text : null;
}

/** Parse the geometry and its dynamics section, settle it (or not, per `start`), and run. */
export async function simulateGeometry(file: string, text: string, options: SimulateOptions): Promise<SuspensionSimulationResult> {
  const [{ parseGeometry }, { readSuspensionDynamics, prepareSuspensionDynamics, simulateSuspension }] = await Promise.all([
    import('../suspension/files/index.ts'), import('../suspension/dynamics/model.ts'),
  ]);
  const geometry = parseGeometry(text, file);
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry, file);
  return simulateSuspension(prepareSuspensionDynamics(geometry, spec), options);
}

/** `simulate GEOMETRY --gradient`: the file's own numbers as parameters (src/suspension/gradients/simulation/geometry.ts). */
export async function geometryGradients(file: string, text: string, names: readonly string[], results: readonly (DynamicResult | string)[], options: GradientOptions,
  method: 'adjoint' | 'direct'): Promise<DynamicGradients> {
  const [{ parseGeometry }, { readSuspensionDynamics }, { geometrySimulationGradients }] = await Promise.all([
    import('../suspension/files/index.ts'), import('../suspension/dynamics/model.ts'), import('../suspension/gradients/simulation/geometry.ts'),
  ]);
  const geometry = parseGeometry(text, file);
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry, file);
  return geometrySimulationGradients({ geometry, spec }, names, results, options, method);
}

/**
 * The suspension's CSV columns, read off a run's first frame: per side travel, camber, toe,
 * road, tyre; per element length and travel; per link its force; named and ordered by the
 * registry (suspension/dynamics/result-names.ts).
 */
export function suspensionColumns(first: SuspensionFrame): { name: string; get: (s: SuspensionFrame) => number | null | undefined }[] {
  const cols: { name: string; get: (s: SuspensionFrame) => number | null | undefined }[] = [];
  for (const side of Object.keys(first.corners)) {
    for (const field of CORNER_RESULTS) cols.push({ name: suspensionColumn.corner(side, field), get: (s) => s.corners[side][field] });
  }
  for (const id of Object.keys(first.elements)) {
    for (const field of ELEMENT_RESULTS) cols.push({ name: suspensionColumn.element(id, field), get: (s) => s.elements[id][field] });
  }
  for (const id of Object.keys(first.links)) cols.push({ name: suspensionColumn.link(id), get: (s) => s.links[id] });
  if (first.chassis_heave !== undefined) cols.push({ name: CHASSIS_HEAVE, get: (s) => s.chassis_heave });
  return cols;
}

/** simulate's CSV (of a whole run) with the suspension's columns appended. */
export function withSuspensionColumns(csv: string, result: SuspensionSimulationResult): string {
  const frames = result.frames;
  if (frames.length === 0) return csv;
  const cols = suspensionColumns(frames[0].suspension);
  const lines = csv.trimEnd().split('\n');
  const out = lines.map((line, k) => `${line},${k === 0 ? cols.map((c) => c.name).join(',') : cols.map((c) => String(c.get(frames[k - 1].suspension) ?? '')).join(',')}`);
  return `${out.join('\n')}\n`;
}
