/**
 * `kinemate kc GEOMETRY --event lateral|braking|traction|aligning|vertical [--range A:B:N]
 *  [--at bump=V|steer=V|roll=V] [--format json|csv] [--out FILE]`: one K&C rig event on a
 * suspension with `compliance:` (docs/compliance.md). JSON: { event, at, steps, summary };
 * CSV: one row per step, the load, the metrics (axle.…, left.…, right.…), the wheel
 * centre's displacement and the wheel's rotation. Exit codes: 0 done, 1 bad input, 2 a step
 * found no equilibrium.
 */
import { parseCommandArgs, onePositional, stringOption } from './args.ts';
import type { Command } from './command.ts';
import { CliError, type CliIO } from './io.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import { progressLine } from './progress.ts';
import { writeFile } from './fs-lazy.ts';
import { loadSuspension } from './sweep-run.ts';
import { SuspensionModel } from '../suspension/build/model.ts';
import { flattenMetrics } from '../suspension/sweep/sweep.ts';
import { KC_EVENTS, runKc, type KcEvent, type KcPosition, type KcRun } from '../suspension/compliance/kc.ts';

const OPTIONS = { event: { type: 'string' }, range: { type: 'string' }, at: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } } as const;

export function parseRange(text: string): [number, number, number] {
  const parts = text.split(':').map((p) => p.trim());
  const [a, b] = parts.slice(0, 2).map(Number);
  const n = /^\d+$/.test(parts[2] ?? '') ? Number(parts[2]) : NaN;
  if (parts.length !== 3 || !Number.isFinite(a) || !Number.isFinite(b) || !(n >= 1 && n <= 1001) || (n === 1 && a !== b)) {
    throw new CliError(`kc: --range: expected A:B:N (N values from A to B, both ends included, N from 2 to 1001, or 1 when A = B), got "${text}"`);
  }
  return [a, b, n];
}

export function parseAt(text: string): KcPosition {
  const m = /^(bump|steer|roll)=(.+)$/.exec(text.trim());
  const value = m ? Number(m[2]) : NaN;
  if (!m || !Number.isFinite(value)) throw new CliError(`kc: --at: expected bump=V (mm), steer=V (rack mm) or roll=V (deg), got "${text}"`);
  return { kind: m[1] as KcPosition['kind'], value };
}

/** One row per step: load, status, metrics, displacement and rotation (per side on an axle). */
export function kcToCsv(run: KcRun): string {
  const columns = new Set<string>(['event', 'load', 'status']);
  const rows = run.steps.map((s) => {
    const row: Record<string, string | number | null> = { event: run.event, load: s.load, status: s.status };
    for (const [k, v] of Object.entries(flattenMetrics(s.metrics))) row[k] = v;
    const vec = (name: string, value: unknown) => {
      if (!value) return;
      const sided = !Array.isArray(value);
      for (const [side, v] of Object.entries(sided ? value as Record<string, number[]> : { '': value as number[] })) {
        ['x', 'y', 'z'].forEach((axis, i) => { row[`${side ? `${side}.` : ''}${name}_${axis}`] = v[i]; });
      }
    };
    vec('wheel_center_displacement', s.wheel_center_displacement);
    vec('wheel_rotation', s.wheel_rotation);
    // the vertical event's compliant wheel rate, per side on an axle
    if (s.wheel_rate !== undefined) {
      if (s.wheel_rate === null || typeof s.wheel_rate === 'number') row.wheel_rate = s.wheel_rate;
      else for (const [side, v] of Object.entries(s.wheel_rate)) row[`${side}.wheel_rate`] = v;
    }
    for (const k of Object.keys(row)) columns.add(k);
    return row;
  });
  const cols = [...columns];
  const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return [cols.join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

async function runKcCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs('kc', argv, OPTIONS);
  const geometry = onePositional('kc', args, 'GEOMETRY file');
  const event = stringOption(args, 'event');
  if (event === undefined) throw new CliError(`kc: --event is required (${KC_EVENTS.join(', ')})`);
  if (!(KC_EVENTS as readonly string[]).includes(event)) throw new CliError(`kc: --event must be one of ${KC_EVENTS.join(', ')}, got "${event}"`);
  const format = stringOption(args, 'format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new CliError(`kc: --format must be json or csv, got "${format}"`);
  const range = stringOption(args, 'range'), at = stringOption(args, 'at'), out = stringOption(args, 'out');
  refuseOverwritingInputs('kc', '--out', out, [['geometry', geometry]]);
  const options = { ...(range ? { range: parseRange(range) } : {}), ...(at ? { at: parseAt(at) } : {}) };
  const { doc } = await loadSuspension(geometry);
  const sm = new SuspensionModel(doc);
  if (!sm.roles.compliance) throw new CliError(`kc: ${geometry} has no compliance: section (bushings or links): a rigid suspension does not deflect under load (docs/compliance.md)`);
  const progress = io.stderrIsTTY ? progressLine(io, 'kc') : undefined;
  const run = runKc(sm, event as KcEvent, { ...options, ...(progress ? { onProgress: progress.update } : {}) });
  await progress?.clear();
  const text = format === 'csv' ? kcToCsv(run) : `${JSON.stringify(run, null, 2)}\n`;
  if (out) await writeFile(out, text);
  else await io.out(text);
  return run.steps.some((s) => s.status === 'failed') ? 2 : 0;
}

export const kcCommand: Command = {
  name: 'kc',
  synopsis: 'kc     GEOMETRY --event lateral|braking|traction|aligning|vertical [--range A:B:N]\n       [--at bump=V|steer=V|roll=V] [--format json|csv] [--out FILE]',
  summary: 'K&C rig event on a compliant suspension: deflected metrics per load, coefficients',
  help: `Usage: kinemate kc GEOMETRY --event EVENT [--range A:B:N] [--at bump=V|steer=V|roll=V]
                   [--format json|csv] [--out FILE]

Runs one K&C rig event on a suspension whose file has a compliance: section (bushings,
compliant links): the wheel pads and the rack hold the position, each load is applied to
every wheel, and the suspension settles in its equilibrium. Each step prints the metrics at
the deflected pose, the wheel centre's displacement (mm) and the wheel's rotation (deg)
from the unloaded pose, each bushing's force, moment, translation and rotation, and the link
forces. The summary gives the coefficients at zero load, exact (implicit function theorem):
toe_per_fy, camber_per_fy (deg/kN), lateral_stiffness (N/mm), toe_per_fx, camber_per_fx
(deg/kN), recession_per_fx (mm/kN), longitudinal_stiffness (N/mm), toe_per_mz,
camber_per_mz (deg/kN·m), per side on an axle.

Events (ISO 8855 vehicle axes):
  lateral    Fy at the contact patch, N            (default -4000:4000:9)
  braking    Fx at the contact patch, N, negative  (default -4000:0:5)
  traction   Fx at the wheel centre, N             (default 0:4000:5)
  aligning   Mz about the contact patch, N·mm      (default -200000:200000:5)
  vertical   the wheel pads moved in bump, mm      (default -50:50:11); each step
             also prints wheel_rate, the compliant wheel rate (N/mm, exact)

Options:
  --event EVENT      the rig event (required)
  --range A:B:N      N values of the event's load from A to B, both ends included
  --at POSITION      the position held: bump=V (mm), steer=V (rack mm) or roll=V (deg,
                     an axle); default bump=0
  --format json|csv  output format (default json)
  --out FILE         write the output to FILE instead of stdout
  -h, --help         this text

Details and what the choices are: docs/compliance.md.

Exit codes: 0 done; 1 bad input (one line on stderr); 2 a step found no equilibrium.
`,
  run: runKcCommand,
};
