/**
 * What `kinemate fit` needs of a compliant file (docs/compliance.md, "Gradients and fit"):
 * its stiffnesses by path, a geometry with some of them changed, and the targets' metrics at
 * their travels with gradients over the stiffnesses (and, at rest, the hardpoints).
 */
import type { Geometry } from '../files';
import { sweepFromShortcut } from '../files';
import type { MetricGradient } from '../gradients/types';
import { InternalError } from '../../../kernel/errors';
import { compliantSensitivitySweep } from './sensitivity-sweep';

/** Each stiffness the file gives, by its path (stiffness.ts names the same): N/mm, N·mm/deg. */
export function stiffnessValues(geometry: Geometry): Map<string, number> {
  const out = new Map<string, number>();
  const c = geometry.compliance;
  if (!c) return out;
  c.corners.forEach((corner) => {
    for (const spec of Object.values(corner.bushings)) {
      for (const rate of ['axial', 'radial', 'torsional', 'conical'] as const) if (spec[rate] > 0 || rate === 'radial' || rate === 'axial') out.set(`${spec.path}.${rate}`, spec[rate]);
    }
    for (const [link, k] of Object.entries(corner.links)) out.set(corner.linkPaths?.[link] ?? `compliance.links.${link}`, k);
  });
  for (const [link, k] of Object.entries(c.center)) out.set(`compliance.links.${link}`, k);
  return out;
}

/** The geometry with the stiffness at `path` set to `value` (in place): every element it sets, as reading the file would. */
export function setStiffness(geometry: Geometry, path: string, value: number): void {
  const c = geometry.compliance!;
  c.corners.forEach((corner) => {
    for (const spec of Object.values(corner.bushings)) {
      for (const rate of ['axial', 'radial', 'torsional', 'conical'] as const) if (`${spec.path}.${rate}` === path) spec[rate] = value;
    }
    for (const link of Object.keys(corner.links)) if ((corner.linkPaths?.[link] ?? `compliance.links.${link}`) === path) corner.links[link] = value;
  });
  for (const link of Object.keys(c.center)) if (`compliance.links.${link}` === path) c.center[link] = value;
}

/** The metrics the targets name at each travel, settled with no wheel load: `at(travel, metric, side)`. */
export function compliantTargetCurves(geometry: Geometry, travels: readonly number[], metrics: readonly string[], points = true): (travel: number, metric: string, side: string) => MetricGradient | null {
  const axle = geometry.scope === 'axle';
  // `points`: the coefficients over the hardpoints too (a fit that moves none skips their passes)
  const steps = travels.map((t) => compliantSensitivitySweep(geometry, sweepFromShortcut('bump', `${t}:${t}:1`, geometry), metrics, null, { points }).steps[0]);
  return (travel, metric, side) => {
    const step = steps[travels.indexOf(travel)];
    if (step.status !== 'solved' || !step.metrics) return null;
    const group = (axle ? (step.metrics as Record<string, Record<string, MetricGradient | null>>)[side] : step.metrics) as Record<string, MetricGradient | null> | undefined;
    return group?.[metric] ?? null;
  };
}

/**
 * Set the number at a dotted path of a parsed file, f(old) (old 0 where the file leaves it
 * out); a key may hold dots itself (`compliance.links.left.trackrod` is links["left.trackrod"]).
 */
export function setNumberAtPath(raw: Record<string, unknown>, path: string, f: (v: number) => number): void {
  const parts = path.split('.');
  let node = raw;
  let i = 0;
  while (i < parts.length) {
    let j = i + 1;
    while (j <= parts.length && !Object.hasOwn(node, parts.slice(i, j).join('.'))) j++;
    if (j > parts.length) {
      if (i === parts.length - 1) { node[parts[i]] = f(0); return; }
      throw new InternalError(`no ${path} in the file`);
    }
    const key = parts.slice(i, j).join('.');
    if (j === parts.length) { node[key] = f(node[key] as number); return; }
    node = node[key] as Record<string, unknown>;
    i = j;
  }
}
