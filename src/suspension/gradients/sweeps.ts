/**
 * Gradients along a sweep: every step solved from the last (as `kinemate sweep` does) and the
 * metrics' exact gradients taken there by the SensitivityModel (sensitivity-model.ts).
 */
import type { ResidualBlock } from '../../../kernel/system';
import { sweepValues, sweepFromShortcut, type Geometry, type SweepSpec, type SweepTarget } from '../files';
import { sweepDrivers } from '../sweep/sweep';
import { SENSITIVITY_METRICS, sensitivityMetricsOf } from './metric-names';
import { SensitivityModel } from './sensitivity-model';
import { SensitivityError, type DriverParameters, type ExtraGradients, type ExtraSideGradients, type MetricGradient, type SensitivityStep, type SideMetrics } from './types';
import { VIRTUAL_METRICS, virtualMetricsOf } from './virtual';

/**
 * Gradients of the named metrics at every step of a sweep spec (each step solved from the
 * last). `metrics` empty: all of SENSITIVITY_METRICS (and `extra`'s). A corner geometry;
 * an axle: {@link sensitivitySweepBySide}.
 */
export function sensitivitySweep(model: SensitivityModel, spec: SweepSpec, metrics: readonly string[] = [], mode: 'adjoint' | 'direct' = 'adjoint', extra?: ExtraGradients): { steps: SensitivityStep[] } {
  if (model.sides.length > 1) throw new SensitivityError('sensitivity: an axle has metrics per side: use sensitivitySweepBySide');
  const own = sensitivityMetricsOf(model.geometry).side;
  const offered: readonly string[] = [...own, ...(extra?.names ?? [])];
  checkMetrics(metrics, [...offered, ...(extra?.requestable ?? []), ...virtualMetricsOf(model)]);
  const kinematic = !metrics.length || metrics.some((m) => own.includes(m) || (VIRTUAL_METRICS as readonly string[]).includes(m));
  const chosen = metrics.length ? metrics : offered;
  return sweepStates(model, spec, (params) => {
    const all: Record<string, MetricGradient | null> = { ...(kinematic ? model.metricsAt(params, mode, metrics) : {}), ...(extra ? extra.at(params, metrics) : {}) };
    return Object.fromEntries(chosen.map((m) => [m, all[m] ?? null]));
  });
}

/**
 * The same for any geometry, grouped by corner side as `kinemate sweep` groups an axle's
 * metrics; the gradients run over every hardpoint of the file (`left.<name>.x`, `right.…`,
 * `center.…` for an axle). Kinematic metrics only.
 */
export function sensitivitySweepBySide(model: SensitivityModel, spec: SweepSpec, metrics: readonly string[] = [], mode: 'adjoint' | 'direct' = 'adjoint', extra?: ExtraSideGradients): { steps: SensitivityStep<SideMetrics>[] } {
  const offered = sensitivityMetricsOf(model.geometry);
  // the *_virtual per side, only when asked for
  const virtual = virtualMetricsOf(model);
  checkMetrics(metrics, [...offered.side, ...offered.axle, ...virtual, ...(extra?.names ?? []), ...(extra?.requestable ?? [])]);
  const side = metrics.length ? metrics.filter((m) => offered.side.includes(m) || virtual.includes(m)) : offered.side;
  const axle = metrics.length ? metrics.filter((m) => offered.axle.includes(m)) : offered.axle;
  return sweepStates(model, spec, (params) => {
    const bySide = side.length || axle.length ? model.metricsBySide(params, mode, metrics) : {};
    const groups: [string, readonly string[]][] = [...model.sides.map((s): [string, readonly string[]] => [s, side]), ...(axle.length ? [['axle', axle] as [string, readonly string[]]] : [])];
    const out: SideMetrics = Object.fromEntries(groups.filter(([, names]) => names.length).map(([g, names]) => [g, Object.fromEntries(names.map((m) => [m, bySide[g]?.[m] ?? null]))]));
    // the extra gradients after each group's own (groups in the sides' order, then `axle`)
    if (extra) for (const [g, ms] of Object.entries(extra.at(params, metrics))) for (const [m, v] of Object.entries(ms)) if (!metrics.length || metrics.includes(m)) (out[g] ??= {})[m] = v;
    return out;
  });
}

function checkMetrics(metrics: readonly string[], offered: readonly string[]): void {
  for (const m of metrics) if (!offered.includes(m)) throw new SensitivityError(`--metric: no gradient for "${m}" (metrics: ${offered.join(', ')})`);
}

/** Solves each state of the spec from the last and evaluates `at` there (the drivers' parameter maps given). */
function sweepStates<M>(model: SensitivityModel, spec: SweepSpec, at: (params: readonly DriverParameters[]) => M): { steps: SensitivityStep<M>[] } {
  const sm = model.sm;
  const drivers = sweepDrivers(sm, spec);
  const params = drivers.map((d) => ({ block: d.block as ResidualBlock, params: model.driverParameters(d.block, d.source), ...(d.basis !== undefined ? { basis: d.basis } : {}) }));
  const values = new Map<SweepTarget, number[]>();
  const explicit = (spec as { values?: number[] }).values;
  for (const t of spec.targets) values.set(t, explicit && t.type === 'point' && !t.hold ? explicit : sweepValues(t, spec.steps));
  sm.resetToDesign();
  model.virtualHold = spec.analysis?.virtual_steering?.suspension_hold ?? 'layout_default';
  const blocks = drivers.map((d) => d.block);
  const steps: SensitivityStep<M>[] = [];
  const sys = sm.model.system;
  let lastGood = sys.snapshot();
  for (let i = 0; i < spec.steps; i++) {
    const driverReport: Record<string, number> = {};
    drivers.forEach((d) => {
      const v = values.get(d.source)![i];
      d.block.target = d.targetOf(v);
      driverReport[d.name] = d.reportOf(v);
    });
    // a roll driver's explicit term depends on its step's angle
    drivers.forEach((d, j) => { if (d.source.type === 'roll') params[j].params = model.driverParameters(d.block, d.source); });
    const report = sm.solveWith(blocks);
    if (!report.converged) {
      sys.restore(lastGood);
      steps.push({ index: i, status: 'failed', drivers: driverReport, metrics: null, message: report.message ?? 'the linkage cannot reach this step' });
      continue;
    }
    lastGood = sys.snapshot();
    steps.push({ index: i, status: 'solved', drivers: driverReport, metrics: at(params) });
  }
  sm.clearDrivers();
  sm.resetToDesign();
  return { steps };
}

/** Gradients at one bump travel (mm, wheel centre z from design); the library's short form. */
export function sensitivityAt(geometry: Geometry | SensitivityModel, bump: number, metrics: readonly string[] = [], mode: 'adjoint' | 'direct' = 'adjoint'): Record<string, MetricGradient | null> {
  const model = geometry instanceof SensitivityModel ? geometry : new SensitivityModel(geometry);
  const spec = bumpStates([bump]);
  const step = sensitivitySweep(model, spec, metrics, mode).steps[0];
  if (step.status !== 'solved' || !step.metrics) throw new SensitivityError(`sensitivity: bump ${bump} mm cannot be reached: ${step.message ?? ''}`);
  return step.metrics;
}

/** A bump sweep (rack held) that visits the given wheel-centre travels (mm) in order. */
export function bumpStates(travels: readonly number[], geometry?: Geometry): SweepSpec & { values: number[] } {
  // with the geometry: its rack hold is dropped when it has no rack (as `kinemate sweep --bump`)
  const spec = sweepFromShortcut('bump', `${travels[0]}:${travels[0]}:1`, geometry);
  // a linear target cannot visit arbitrary travels: `values` gives the bump target's value per step
  return { ...spec, steps: travels.length, values: [...travels] };
}

/**
 * Solve the first state of `spec` and return a function that gives every metric's gradient
 * at that solved state (the state is not re-solved): for timing the gradient alone.
 */
export function gradientsAtFirstState(model: SensitivityModel, spec: SweepSpec): (mode?: 'adjoint' | 'direct') => Record<string, MetricGradient | null> {
  const sm = model.sm;
  const drivers = sweepDrivers(sm, spec);
  const params = drivers.map((d) => ({ block: d.block as ResidualBlock, params: model.driverParameters(d.block, d.source), ...(d.basis !== undefined ? { basis: d.basis } : {}) }));
  sm.resetToDesign();
  drivers.forEach((d) => { d.block.target = d.targetOf(sweepValues(d.source, spec.steps)[0]); });
  const report = sm.solveWith(drivers.map((d) => d.block));
  if (!report.converged) throw new SensitivityError('sensitivity: the first state cannot be solved');
  return (mode = 'adjoint') => model.metricsAt(params, mode, SENSITIVITY_METRICS);
}
