/**
 * K&C curves as a chart (docs/compliance.md): each metric at the deflected pose against a
 * rig event's load, one panel per metric, the zero-load point marked. `kinemate plot --kc`
 * and the viewer's compliance panel draw the same chart from the same rig run.
 */
import type { Chart } from './plot.ts';
import { axisTitle, metricLabel } from './labels.ts';
import type { KcEvent } from '../suspension/compliance/kc.ts';

/** Each event's load axis. */
export const KC_LOAD_TITLES: Readonly<Record<KcEvent, string>> = {
  lateral: 'Fy at the contact patch (N)',
  braking: 'Fx at the contact patch (N)',
  traction: 'Fx at the wheel centre (N)',
  aligning: 'Mz at the contact patch (N·mm)',
  vertical: 'wheel pad travel (mm)',
};

/** A rig run as the chart reads it: each step's load, status and flat metrics (`left.toe_angle` on an axle). */
export interface KcSeries {
  event: KcEvent;
  at: { kind: string; value: number };
  load: number[];
  solved: boolean[];
  rows: Record<string, number | null>[];
}

/** The chart of `metrics` against the event's load; `source` names the curve (the file). */
export function kcChart(series: KcSeries, metrics: readonly string[], source: string): Chart {
  const x = series.load;
  const zero = series.load.findIndex((l, i) => l === 0 && series.solved[i]);
  return {
    xTitle: KC_LOAD_TITLES[series.event],
    title: `${series.event} (${series.at.kind} ${series.at.value})`,
    panels: metrics.map((metric) => {
      const y = series.rows.map((r) => (typeof r[metric] === 'number' ? r[metric] as number : null));
      return {
        yTitle: axisTitle(metricLabel(metric)),
        curves: [{ source, x, y }],
        design: zero >= 0 && y[zero] !== null ? [{ source, x: 0, y: y[zero] as number }] : [],
      };
    }),
  };
}
