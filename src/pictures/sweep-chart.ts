/**
 * From suspension sweeps to charts: which quantity is swept (the x axis), the names that can
 * be plotted, and one panel per metric with a curve per geometry (the first solid, the
 * others dashed) and each geometry's design point.
 */
import type { SweepSpec, SweepTarget } from '../suspension/files/index.ts';
import { sweepValues } from '../suspension/files/sweep.ts';
import { flattenMetrics, type StepResult, type SweepRun } from '../suspension/sweep/sweep.ts';
import { axisTitle, metricLabel } from './labels.ts';
import type { Chart, Curve, DesignPoint } from './plot.ts';

/** The swept quantity: its title with unit, its value at each state, and at design. */
export interface SweepAxis {
  readonly title: string;
  readonly values: readonly number[];
  /** The value at the design state (0 for a relative target); null when not known. */
  readonly design: number | null;
}

/** What a design evaluation gives: positions and metrics, as a sweep step has them. */
export interface DesignState {
  readonly positions: StepResult['positions'];
  readonly metrics: StepResult['metrics'];
}

/**
 * The x axis of a sweep: its first target that moves (not a hold), at the values the sweep
 * asked for at each step (so a failed step still has its place). Wheel-centre z relative to
 * design is `wheel travel`, the rack `rack travel`, roll `roll`.
 */
export function sweepAxis(spec: SweepSpec, design?: DesignState): SweepAxis {
  const target = spec.targets.find((t) => !t.hold && t.start !== t.stop) ?? spec.targets.find((t) => !t.hold) ?? spec.targets[0];
  const values = sweepValues(target, spec.steps);
  const relative = target.mode === 'relative' || target.hold;
  return { title: targetTitle(target, relative), values, design: relative ? 0 : absoluteDesign(target, design) };
}

function targetTitle(target: SweepTarget, relative: boolean): string {
  switch (target.type) {
    case 'point': {
      const side = target.side ? `${target.side} ` : '';
      if (target.point === 'wheel_center' && target.direction.axis === 'z' && relative) return `${side}wheel travel (mm)`;
      return `${side}${target.point.replaceAll('_', ' ')} ${target.direction.axis}${relative ? ' change' : ''} (mm)`;
    }
    case 'actuator_position': return 'rack travel (mm)';
    case 'element_length': return `damper length${relative ? ' change' : ''} (mm)`;
    case 'roll': return 'roll (°)';
  }
}

function absoluteDesign(target: SweepTarget, design: DesignState | undefined): number | null {
  if (!design) return null;
  const flat = flattenMetrics(design.metrics);
  if (target.type === 'point') {
    const axis = { x: 0, y: 1, z: 2 }[target.direction.axis];
    const prefix = Object.keys(flat).some((k) => k.startsWith('axle.')) ? `${target.side ?? 'left'}_` : '';
    return design.positions?.[`${prefix}${target.point}`]?.[axis] ?? design.positions?.[target.point]?.[axis] ?? null;
  }
  if (target.type === 'element_length') return flat.damper_length ?? flat[`${target.side ?? 'left'}.damper_length`] ?? null;
  return null;
}

/** The metric names a sweep reports (flattened for an axle: `axle.roll`, `left.camber`), in its order. */
export function plottableMetrics(run: SweepRun | DesignState): string[] {
  const metrics = 'steps' in run ? run.steps.find((s) => s.status === 'solved')?.metrics ?? null : run.metrics;
  return Object.keys(flattenMetrics(metrics));
}

/** One geometry's sweep, as it goes into a chart. */
export interface SweepSeries {
  /** Legend entry: the geometry file's name. */
  readonly source: string;
  readonly run: SweepRun;
  readonly axis: SweepAxis;
  readonly design?: DesignState;
}

/**
 * One panel per metric (in the order given), each with one curve per series (the first
 * solid, the rest dashed: baselines) and each series' design point where both coordinates
 * are known. Failed steps and undefined values are gaps (null).
 */
export function sweepChart(series: readonly SweepSeries[], metrics: readonly string[], title?: string): Chart {
  const flat = series.map((s) => s.run.steps.map((step) => flattenMetrics(step.metrics)));
  const designFlat = series.map((s) => (s.design ? flattenMetrics(s.design.metrics) : {}));
  return {
    xTitle: series[0]?.axis.title ?? '',
    ...(title ? { title } : {}),
    panels: metrics.map((metric) => ({
      yTitle: axisTitle(metricLabel(metric)),
      curves: series.map((s, k): Curve => ({
        source: s.source,
        x: s.axis.values,
        y: flat[k].map((row) => finiteOrNull(row[metric])),
        ...(k > 0 ? { dashed: true } : {}),
      })),
      design: series.flatMap((s, k): DesignPoint[] => {
        const y = finiteOrNull(designFlat[k][metric]);
        return s.axis.design !== null && y !== null ? [{ source: s.source, x: s.axis.design, y }] : [];
      }),
    })),
  };
}

function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
