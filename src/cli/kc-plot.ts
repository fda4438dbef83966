/**
 * `kinemate plot GEOMETRY --kc EVENT [--range A:B:N] [--at …] --metric NAME… --out FILE`:
 * K&C curves, each metric at the deflected pose against the rig event's load (one panel per
 * metric, the zero-load point marked). The rig run is `kinemate kc`'s (docs/compliance.md).
 */
import { basename } from 'node:path';
import { CliError } from './io.ts';
import { loadSuspension } from './sweep-run.ts';
import { parseAt, parseRange } from './kc.ts';
import { SuspensionModel } from '../suspension/build/model.ts';
import { flattenMetrics } from '../suspension/sweep/sweep.ts';
import { KC_EVENTS, runKc, type KcEvent, type KcRun } from '../suspension/compliance/kc.ts';
import type { KcCoefficients } from '../suspension/compliance/coefficients.ts';
import type { ReportInput } from '../pictures/report.ts';
import { axisTitle, metricLabel } from '../pictures/labels.ts';
import { chartSvg, type Chart, type ChartSize } from '../pictures/plot.ts';
import { svgToPng } from './png.ts';
import { kcChart, KC_LOAD_TITLES } from '../pictures/kc-chart.ts';

const LOAD_TITLES = KC_LOAD_TITLES;

export interface KcPlotRequest {
  event: string;
  range?: string;
  at?: string;
  metrics: readonly string[];
  size?: ChartSize;
  format: 'svg' | 'png';
  onProgress?: (done: number, total: number) => void;
}

/** The K&C curves of `path` in memory; `failed`: some load found no equilibrium. */
export async function kcPicture(path: string, request: KcPlotRequest): Promise<{ data: string | Uint8Array; failed: boolean }> {
  if (!(KC_EVENTS as readonly string[]).includes(request.event)) throw new CliError(`plot: --kc must be one of ${KC_EVENTS.join(', ')}, got "${request.event}"`);
  const event = request.event as KcEvent;
  const { doc } = await loadSuspension(path);
  const sm = new SuspensionModel(doc);
  if (!sm.roles.compliance) throw new CliError(`plot: --kc: ${path} has no compliance: section (bushings or links): a rigid suspension does not deflect under load (docs/compliance.md)`);
  const run = runKc(sm, event, {
    ...(request.range ? { range: parseRange(request.range) } : {}), ...(request.at ? { at: parseAt(request.at) } : {}),
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  });
  const rows = run.steps.map((s) => flattenMetrics(s.metrics));
  const known = Object.keys(rows.find((r) => Object.keys(r).length) ?? {});
  const unknown = request.metrics.find((m) => !known.includes(m));
  if (unknown !== undefined) throw new CliError(`plot: --metric ${unknown}: no such metric; the metrics are ${known.join(', ')}`);
  const chart = kcChart({ event, at: run.at, load: run.steps.map((s) => s.load), solved: run.steps.map((s) => s.status === 'solved'), rows }, request.metrics, basename(path));
  const svg = await chartSvg(chart, request.size);
  return { data: request.format === 'png' ? svgToPng(svg) : svg, failed: run.steps.some((s) => s.status === 'failed') };
}

/** The report's K&C section of a compliant geometry (coefficients per side, toe and camber against each load event); undefined when rigid. */
export async function kcReportSection(path: string): Promise<ReportInput['kc']> {
  const { doc } = await loadSuspension(path);
  const sm = new SuspensionModel(doc);
  if (!sm.roles.compliance) return undefined;
  const charts: { title: string; svg: string }[] = [];
  let summary: KcRun['summary'] | null = null;
  for (const event of ['lateral', 'braking', 'aligning'] as const) {
    const run = runKc(sm, event);
    summary ??= run.summary;
    const rows = run.steps.map((s) => flattenMetrics(s.metrics));
    const metrics = ['toe_angle', 'camber'].flatMap((m) => (m in rows[0] ? [m] : [`left.${m}`, `right.${m}`])).filter((m) => rows.some((r) => typeof r[m] === 'number'));
    const chart: Chart = {
      xTitle: LOAD_TITLES[event],
      panels: metrics.map((metric) => ({
        yTitle: axisTitle(metricLabel(metric)),
        curves: [{ source: basename(path), x: run.steps.map((s) => s.load), y: rows.map((r) => (typeof r[metric] === 'number' ? r[metric] as number : null)) }],
      })),
    };
    charts.push({ title: `${event}: ${metrics.map((m) => metricLabel(m).label).join(', ')}`, svg: await chartSvg(chart, { width: 720, height: 60 + 190 * metrics.length }) });
  }
  const s = summary as KcRun['summary'];
  const coefficients = s !== null && 'left' in s
    ? Object.entries(s as Record<string, KcCoefficients | null>).map(([side, values]) => ({ side, values: { ...(values ?? {}) } }))
    : [{ side: sm.corners[0].roles.side, values: { ...((s as KcCoefficients | null) ?? {}) } }];
  return { coefficients, charts };
}
