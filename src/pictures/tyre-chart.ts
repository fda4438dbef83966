/**
 * A tyre's curves as a chart: one panel per force (fx, fy, mz) against the slip that
 * varies (the slip angle when it does, else the slip ratio), one curve per value of the
 * other slip, a baseline tyre dashed.
 */
import type { TyreCurveStep } from '../../mates/tyres/index.ts';
import type { Chart, Curve } from './plot.ts';

export const TYRE_METRICS = ['fx', 'fy', 'mz'] as const;
export type TyreMetric = (typeof TYRE_METRICS)[number];
const TITLES: Record<TyreMetric, string> = { fx: 'fx, longitudinal force (N)', fy: 'fy, lateral force (N)', mz: 'mz, aligning moment (N·mm)' };

export interface TyreSeries {
  /** The legend's name of the tyre (its file). */
  readonly source: string;
  /** Steps as `tyreCurves` gives them: slip angle slowest. */
  readonly steps: readonly TyreCurveStep[];
  readonly dashed?: boolean;
}

export function tyreChart(series: readonly TyreSeries[], metrics: readonly TyreMetric[]): Chart {
  const first = series[0].steps;
  const angles = [...new Set(first.map((s) => s.slip_angle))], ratios = [...new Set(first.map((s) => s.slip_ratio))];
  const byAngle = angles.length > 1 || ratios.length === 1;
  const others = byAngle ? ratios : angles;
  const curves = (metric: TyreMetric): Curve[] => series.flatMap((one) => others.map((other) => {
    const steps = one.steps.filter((s) => (byAngle ? s.slip_ratio : s.slip_angle) === other);
    // the title names the tyre: a legend entry names it only beside a baseline
    const slip = byAngle ? `slip ratio ${other}` : `slip angle ${other}°`;
    const label = others.length === 1 ? one.source : series.length === 1 ? slip : `${one.source}, ${slip}`;
    return { source: label, x: steps.map((s) => (byAngle ? s.slip_angle : s.slip_ratio)), y: steps.map((s) => s[metric]), ...(one.dashed ? { dashed: true } : {}) };
  }));
  const { load, camber } = first[0];
  return {
    title: `${series[0].source}: ${load} N, camber ${camber}°`,
    xTitle: byAngle ? 'slip angle (°)' : 'slip ratio (–)',
    panels: metrics.map((metric) => ({ yTitle: TITLES[metric], curves: curves(metric) })),
  };
}
