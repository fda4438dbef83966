/**
 * The sweep each DOE variant runs: `bump:`, `steer:` or `roll:` A:B:N (as `kinemate sweep
 * --bump` …), or `sweep:` a sweep file (any targets: a grid of bump and steer, a damper
 * length, …) — given inline as a mapping, or as a path the command line reads and puts in
 * (inlineDoeSweep), so that a queued run's workers read the same sweep. Default: bump
 * -50:50:21. The CSV gets one column per swept (not held) target, named for what it holds.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { Geometry, SweepSpec, SweepTarget } from '../files';
import { parseText, sweepFromShortcut, validateSweep } from '../files';

const SHORTCUTS = ['bump', 'steer', 'roll'] as const;

/** The DOE's sweep, checked against the geometry; `bad` throws naming the DOE's field. */
export function doeSweep(raw: Record<string, unknown>, geometry: Geometry, bad: (path: string, message: string) => never): SweepSpec {
  const given = (['sweep', ...SHORTCUTS] as const).filter((k) => raw[k] !== undefined);
  if (given.length > 1) bad(given[1], `one sweep per DOE: give one of sweep, bump, steer, roll (got ${given.join(', ')})`);
  const kind = given[0] ?? 'bump';
  const value = raw[kind] ?? '-50:50:21';
  try {
    if (kind !== 'sweep') {
      if (typeof value !== 'string') bad(kind, 'expected A:B:N');
      return sweepFromShortcut(kind, value as string, geometry);
    }
    if (typeof value === 'string') bad('sweep', `the sweep file "${value}" was not read in (kinemate batch reads it beside the DOE file)`);
    return validateSweep(value, geometry);
  } catch (error) {
    return bad(kind, (error as Error).message);
  }
}

/** The CSV column of each swept target's value, in target order (holds have none). */
export function sweptColumns(sweep: SweepSpec): { target: SweepTarget; name: string }[] {
  const out: { target: SweepTarget; name: string }[] = [];
  for (const t of sweep.targets) {
    if (t.hold) continue;
    let name = columnName(t);
    while (out.some((c) => c.name === name)) name += "'";
    out.push({ target: t, name });
  }
  return out;
}

/** bump (wheel travel, mm from design), steer (rack travel, mm), roll (deg); else the target's own name, `_travel` when relative. */
function columnName(t: SweepTarget): string {
  const side = 'side' in t && t.side ? `${t.side}.` : '';
  const travel = t.mode === 'relative' ? '_travel' : '';
  switch (t.type) {
    case 'point': return t.point === 'wheel_center' && t.direction.axis === 'z' && t.mode === 'relative' ? `${side}bump` : `${side}${t.point}.${t.direction.axis}${travel}`;
    case 'actuator_position': return t.mode === 'relative' ? 'steer' : 'rack';
    case 'element_length': return `${side}${t.element}_length${travel}`;
    case 'roll': return 'roll';
  }
}

/** The sweep file a DOE names (`sweep: <path>`, relative to the DOE file), or undefined. */
export function doeSweepPath(text: string, doePath: string): string | undefined {
  const raw = parseText(text, doePath) as Record<string, unknown> | null;
  if (typeof raw !== 'object' || raw === null || typeof raw.sweep !== 'string') return undefined;
  return isAbsolute(raw.sweep) ? raw.sweep : join(dirname(doePath), raw.sweep);
}

/**
 * The DOE text with a `sweep: <path>` read in (the path relative to the DOE file), as JSON;
 * the text itself when it names no sweep file.
 */
export async function inlineDoeSweep(text: string, doePath: string, read: (path: string) => Promise<string>): Promise<string> {
  const path = doeSweepPath(text, doePath);
  if (path === undefined) return text;
  const raw = parseText(text, doePath) as Record<string, unknown>;
  return `${JSON.stringify({ ...raw, sweep: parseText(await read(path), path) })}\n`;
}
