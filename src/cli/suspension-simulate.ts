/**
 * `kinemate simulate GEOMETRY.yaml`: a suspension geometry file with a `dynamics` section
 * run in time (docs/dynamics.md "Suspension dynamics"). The frames are simulate()'s, each
 * with its `suspension` view; CSV appends the suspension's columns to simulate's.
 */
import type { DynamicGradients, DynamicResult, GradientOptions, SimulateOptions, SuspensionSimulationResult } from '../index.ts';
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
  const { parseGeometry, readSuspensionDynamics, prepareSuspensionDynamics, simulateSuspension } = await import('../index.ts');
  const geometry = parseGeometry(text, file);
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry, file);
  return simulateSuspension(prepareSuspensionDynamics(geometry, spec), options);
}

/** `simulate GEOMETRY --gradient`: the file's own numbers as parameters (src/dynamics/sensitivity-geometry.ts). */
export async function geometryGradients(file: string, text: string, names: readonly string[], results: readonly (DynamicResult | string)[], options: GradientOptions,
  method: 'adjoint' | 'direct'): Promise<DynamicGradients> {
  const { parseGeometry, readSuspensionDynamics, geometrySimulationGradients } = await import('../index.ts');
  const geometry = parseGeometry(text, file);
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry, file);
  return geometrySimulationGradients({ geometry, spec }, names, results, options, method);
}

/** simulate's CSV with the suspension's columns appended: per side travel, camber, toe, road, tyre; per element length and travel; per link its force. */
export function withSuspensionColumns(csv: string, result: SuspensionSimulationResult): string {
  const frames = result.frames;
  if (frames.length === 0) return csv;
  const first = frames[0].suspension;
  const cols: { name: string; get: (i: number) => number | null | undefined }[] = [];
  const s = (i: number) => frames[i].suspension;
  for (const [side, c] of Object.entries(first.corners)) {
    for (const key of Object.keys(c) as (keyof typeof c)[]) cols.push({ name: `${side}.${key}`, get: (i) => s(i).corners[side][key] });
  }
  for (const id of Object.keys(first.elements)) {
    cols.push({ name: `${id}.length`, get: (i) => s(i).elements[id].length });
    cols.push({ name: `${id}.travel`, get: (i) => s(i).elements[id].travel });
  }
  for (const id of Object.keys(first.links)) cols.push({ name: `link.${id}`, get: (i) => s(i).links[id] });
  if (first.chassis_heave !== undefined) cols.push({ name: 'chassis_heave', get: (i) => s(i).chassis_heave });
  const lines = csv.trimEnd().split('\n');
  const out = lines.map((line, k) => `${line},${k === 0 ? cols.map((c) => c.name).join(',') : cols.map((c) => String(c.get(k - 1) ?? '')).join(',')}`);
  return `${out.join('\n')}\n`;
}
