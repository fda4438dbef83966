/**
 * `kinemate report`: a suspension's sweeps (and a baseline's) as one HTML page, its curves,
 * key metrics and hardpoints (src/pictures/report.ts builds the page; pictures.ts runs the
 * sweeps and writes the file).
 */
import { basename } from 'node:path';
import { flattenMetrics, sweepsToCsv } from '../suspension/sweep/sweep.ts';
import { metricLabel } from '../pictures/labels.ts';
import { chartSvg } from '../pictures/plot.ts';
import { plottableMetrics, sweepChart } from '../pictures/sweep-chart.ts';
import { reportHtml, type ReportInput } from '../pictures/report.ts';
import { onePositional, parseCommandArgs, stringOption } from './args.ts';
import { EXIT, type CliIO } from './io.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import {
  checkOutput, failedSteps, progressFor, seriesOf, sweepArgs, sweepSuspension, SWEEP_OPTIONS, writeOutput, type SuspensionSweep,
} from './pictures.ts';

/** The report's standard curves, where the geometry has them (corner names; an axle's are prefixed). */
const REPORT_CURVES: readonly (readonly string[])[] = [
  ['camber', 'toe_angle'],
  ['caster', 'kpi'],
  ['scrub_radius', 'mechanical_trail'],
  ['axle.roll_center_z', 'axle.roll_center_kinematic_z', 'fvic_z'],
  ['anti_dive', 'anti_lift', 'anti_squat'],
  ['deriv_damper_length_wrt_hub_z'],
];
/** Key metrics at design, in this order, where the geometry has them. */
const REPORT_KEY_METRICS = [
  'camber', 'toe_angle', 'caster', 'kpi', 'scrub_radius', 'steering_axis_offset_ground', 'mechanical_trail',
  'caster_virtual', 'kpi_virtual', 'half_track', 'svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length',
  'anti_dive', 'anti_lift', 'anti_squat', 'damper_length', 'deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z',
  'deriv_damper_length_wrt_hub_z', 'axle.roll_center_y', 'axle.roll_center_z', 'axle.roll_center_kinematic_z', 'axle.track',
];

const REPORT_OPTIONS = { ...SWEEP_OPTIONS, baseline: { type: 'string' }, out: { type: 'string' } } as const;

/** `kinemate report` (the command's table entry, with its help, is in picture-commands.ts). */
export async function runReport(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs('report', argv, REPORT_OPTIONS);
  const path = onePositional('report', args, 'GEOMETRY file');
  checkOutput('report', '--out', stringOption(args, 'out'), ['.html', '.htm']);
  const out = stringOption(args, 'out')!;
  refuseOverwritingInputs('report', '--out', out, [['geometry', path], ['sweep', stringOption(args, 'sweep')], ['baseline', stringOption(args, 'baseline')]]);
  const progress = progressFor(io, 'report');
  const current = await sweepSuspension('report', path, sweepArgs(args), false, progress.update);
  const baselinePath = stringOption(args, 'baseline');
  const baseline = baselinePath === undefined ? undefined : await sweepSuspension('report', baselinePath, sweepArgs(args), false, progress.update);
  const kc = await (await import('./kc-plot.ts')).kcReportSection(path);
  await progress.clear();
  const html = reportHtml({ ...(await reportInput(current, baseline)), ...(kc ? { kc } : {}) });
  await writeOutput('report', out, html);
  return failedSteps(current.run) || (baseline !== undefined && failedSteps(baseline.run)) ? EXIT.failed : EXIT.ok;
}

/** Everything the report page shows, from the sweeps (the page itself is src/pictures/report.ts). */
export async function reportInput(current: SuspensionSweep, baseline?: SuspensionSweep): Promise<ReportInput> {
  const names = plottableMetrics(current.design);
  const sideNames = (name: string): string[] => {
    if (names.includes(name)) return [name];
    return ['left', 'right'].map((side) => `${side}.${name}`).filter((n) => names.includes(n));
  };
  const hasValues = (name: string) => current.run.steps.some((s) => s.status === 'solved' && typeof flattenMetrics(s.metrics)[name] === 'number');
  const series = [seriesOf(current), ...(baseline ? [seriesOf(baseline)] : [])];
  const charts: { title: string; svg: string }[] = [];
  for (const group of REPORT_CURVES) {
    const metrics = group.flatMap(sideNames).filter(hasValues);
    if (metrics.length === 0) continue;
    const chart = sweepChart(series, metrics);
    charts.push({ title: metrics.map((m) => metricLabel(m).label).join(', '), svg: await chartSvg(chart, { width: 720, height: 60 + 190 * metrics.length }) });
  }
  const designFlat = flattenMetrics(current.design.metrics);
  const baseFlat = baseline ? flattenMetrics(baseline.design.metrics) : {};
  const keyMetrics = REPORT_KEY_METRICS.flatMap(sideNames).filter((m) => typeof designFlat[m] === 'number').map((name) => ({
    name, label: metricLabel(name).label, unit: metricLabel(name).unit || 'ratio',
    value: designFlat[name] as number,
    ...(baseline && typeof baseFlat[name] === 'number' ? { baseline: baseFlat[name] as number } : {}),
  }));
  const diagnostics: string[] = [];
  for (const sweep of baseline ? [current, baseline] : [current]) {
    const who = baseline ? `${basename(sweep.path)}, ` : '';
    for (const step of sweep.run.steps) {
      if (step.status === 'failed') diagnostics.push(`${who}step ${step.index} failed: ${step.message ?? 'not solved'}${step.failed?.length ? ` (${step.failed.join(', ')})` : ''}`);
      for (const d of step.diagnostics ?? []) diagnostics.push(`${who}step ${step.index}: ${d.replaceAll('_', ' ')}`);
      for (const axis of step.steering_response?.axes ?? []) if (axis.status !== 'valid') diagnostics.push(`${who}step ${step.index}: steering axis (${axis.side}) ${axis.status}`);
    }
  }
  const sweepName = current.kind;
  return {
    title: `Kinemate report: ${basename(current.path)}`,
    source: basename(current.path),
    ...(baseline ? { baselineSource: basename(baseline.path) } : {}),
    sweep: `${current.kind}: ${current.spec.steps} states, ${series[0].axis.title} from ${series[0].axis.values[0]} to ${series[0].axis.values.at(-1)}`,
    hardpoints: hardpointRows(current, baseline),
    keyMetrics,
    charts,
    diagnostics,
    csv: sweepsToCsv({ [sweepName]: current.run }),
    csvName: `${basename(current.path).replace(/\.[^.]*$/, '')}-${sweepName}.csv`,
  };
}

/** The hardpoints of a geometry file (by side for an axle), else the design positions of the named points. */
function hardpointRows(current: SuspensionSweep, baseline?: SuspensionSweep): ReportInput['hardpoints'] {
  const pointsOf = (sweep: SuspensionSweep): Map<string, readonly number[]> => {
    const out = new Map<string, readonly number[]>();
    if (sweep.geometry) {
      const axle = sweep.geometry.scope === 'axle';
      for (const corner of sweep.geometry.corners) for (const [name, p] of Object.entries(corner.hardpoints)) out.set(axle ? `${corner.side}_${name}` : name, p);
    } else {
      for (const [name, p] of Object.entries(sweep.design.positions ?? {})) out.set(name, p);
    }
    return out;
  };
  const mine = pointsOf(current), theirs = baseline ? pointsOf(baseline) : new Map<string, readonly number[]>();
  const rows: ReportInput['hardpoints'][number][] = [...mine].map(([name, p]) => ({ name, position: [p[0], p[1], p[2]] as const, ...(theirs.has(name) ? { baseline: [...theirs.get(name)!] as [number, number, number] } : {}) }));
  for (const [name, p] of theirs) if (!mine.has(name)) rows.push({ name, position: null, baseline: [p[0], p[1], p[2]] });
  return rows;
}
