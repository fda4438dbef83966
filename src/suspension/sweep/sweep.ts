/**
 * Sweeps: targets stepped in pairs, each step solved from the last (one continuation,
 * kernel/continuation.ts: a failed step is halved from the last good state), then fully evaluated —
 * positions, metrics, exact derivatives and (when available) the steering response.
 * A step that cannot be solved is reported `failed` with the mates that do not hold; it
 * never comes back as a solved state with NaN, and the sweep goes on from the last good
 * state.
 */
import { largestMotion, ScalarTargetBlock, type ResidualBlock } from '../../../kernel/system';
import type { SweepSpec, SweepTarget } from '../files';
import { SuspensionFileError, sweepValues } from '../files';
import type { SuspensionModel, MetricValues, StateEvaluation } from '../build/model';
import type { SteeringResponse } from '../metrics/steering';
import { LengthBlock, PointCoordinateBlock, type PointExpr } from '../build/targets';
import { evaluateState } from '../metrics/state';
import type { TangentSpace } from '../../../kernel/analysis';
import { Continuation } from '../../../kernel/continuation';
import { packedMap } from '../../../kernel/packed-map';
import { reusingFloats } from '../../../kernel/float-slab';
import { TRANSMISSION_MARGIN_WARNING } from '../metrics/devices';
import { CompliantState } from '../compliance/state';

export interface StepResult {
  index: number;
  status: 'solved' | 'failed';
  /** The driven quantities at this step (mm; roll in degrees). */
  drivers: Record<string, number>;
  positions: Record<string, [number, number, number]> | null;
  metrics: MetricValues | { axle: MetricValues; left: MetricValues; right: MetricValues } | null;
  steering_response?: import('../metrics/steering').SteeringResponse;
  /** Mates that do not hold (failed steps). */
  failed?: string[];
  message?: string;
  /**
   * e.g. 'possible_branch_jump' when the linkage moved far more than the step asked;
   * 'branch_change: <pair>' when a link/lever pair went through toggle since the last step
   * (its handedness flipped); 'low_transmission: <pair> <margin>' below 0.15.
   */
  diagnostics?: string[];
  /** Transmission margin of every link/lever pair (|share of the link's pull that turns the lever|, 0…1). */
  transmission?: Record<string, number>;
  /** With a load case (`--loads`): link forces, joint wrenches, element forces, rack and hold forces at this state. */
  loads?: import('../loads/loads').StateLoads;
}

export interface SweepRun {
  steps: StepResult[];
}

export interface SweepOptions {
  onProgress?: (done: number, total: number) => void;
  /** The steering hold (default: the layout's). */
  hold?: string;
  /** Leave out the steering response and the metrics that need it (faster). */
  noSteering?: boolean;
  /**
   * Values only (implies noSteering): no derivative tangent per step, so no `deriv_*`
   * metrics; each step is predicted by the secant of the last two instead of the tangent.
   * For curves that plot values (the viewer's plots while dragging).
   */
  valuesOnly?: boolean;
  /**
   * In place of the evaluation (implies valuesOnly): each solved step's metrics from this
   * function, positions null — a batch's few values (src/suspension/metrics/values.ts).
   */
  metrics?: () => MetricValues;
  /**
   * Called at every reached step before its evaluation: a compliant suspension settles in
   * its equilibrium under the loads there (src/suspension/compliance/state.ts). A failure
   * makes the step `failed` with the message, and the sweep goes on from the last good state.
   * Default: a suspension with `compliance:` settles under its own elements (no wheel load).
   */
  settle?: () => { status: 'solved' | 'failed'; message?: string };
  /** Called at every solved state, after its evaluation and before it is recorded (the model is at that state). */
  onSolvedState?: (step: StepResult) => void;
}

interface Driver {
  name: string;
  block: ResidualBlock & { target: number };
  /** target for a step's value of its sweep target */
  targetOf: (value: number) => number;
  /** the reported driver value for a step's value */
  reportOf: (value: number) => number;
  source: SweepTarget;
  /** Index of this driver in the derivative tangent's targets (hub z per corner, then the rack), when it is one of them. */
  basis?: number;
}

const AXIS = { x: 0, y: 1, z: 2 } as const;

/** A sweep's targets asking for what this suspension does not have (one problem at `targets`). */
function targetsError(reason: string): SuspensionFileError {
  return new SuspensionFileError([{ path: 'targets', message: reason }]);
}

/** Build the drivers of a sweep spec on a suspension model (at its design state). */
export function sweepDrivers(sm: SuspensionModel, spec: SweepSpec): Driver[] {
  const drivers: Driver[] = [];
  const system = sm.model.system;
  const saved = system.snapshot();
  sm.resetToDesign();
  const cornersFor = (side?: string) => sm.corners.filter((c) => !side || c.roles.side === side);
  const axleName = (side: string, name: string) => (sm.roles.scope === 'axle' ? `${side}_${name}` : name);
  for (const t of spec.targets) {
    switch (t.type) {
      case 'point': {
        for (const c of cornersFor(t.side)) {
          const expr: PointExpr = t.point === 'wheel_center' ? [{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }] : c.points.get(t.point) ?? [];
          if (expr.length === 0) throw targetsError(`no point "${t.point}" on the ${c.roles.side} corner`);
          const axis = AXIS[t.direction.axis];
          const design = sm.pointValue(expr)[axis];
          const block = new PointCoordinateBlock(`target:${c.roles.side}:${t.point}_${t.direction.axis}`, expr, axis, design);
          const absolute = t.mode === 'absolute' && !t.hold;
          const basis = t.point === 'wheel_center' && axis === 2 ? sm.corners.indexOf(c) : undefined;
          drivers.push({ name: axleName(c.roles.side, `${t.point}_${t.direction.axis}`), block, source: t, targetOf: (v) => (absolute ? v : design + v), reportOf: (v) => (absolute ? v : design + v), ...(basis !== undefined ? { basis } : {}) });
        }
        break;
      }
      case 'actuator_position': {
        if (!sm.rackHold) {
          if (t.hold) break; // holding a rack that is not there asks nothing
          throw targetsError('this suspension has no steering rack');
        }
        const rack = sm.rackHold;
        const design = rack.target;
        // the sweep's own copy of the hold (its target moves with the sweep), built as the model builds it
        const block = new ScalarTargetBlock(rack.owner, rack.vars[0], rack.target, rack.scale, rack.kind);
        drivers.push({ name: 'rack_displacement', block, source: t, targetOf: (v) => design + v, reportOf: (v) => v, basis: sm.corners.length });
        break;
      }
      case 'element_length': {
        if (t.element === 'heave_link') {
          const link = sm.roles.devices?.heave_link;
          if (!link) throw targetsError('this suspension has no heave link');
          const a = sm.resolveRole(link.left), b = sm.resolveRole(link.right);
          const pa = sm.pointValue(a), pb = sm.pointValue(b);
          const design = Math.hypot(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]);
          const block = new LengthBlock('target:heave_link_length', a, b, design);
          const absolute = t.mode === 'absolute' && !t.hold;
          drivers.push({ name: 'heave_link_length', block, source: t, targetOf: (v) => (absolute ? v : design + v), reportOf: (v) => (absolute ? v : design + v) });
          break;
        }
        for (const c of cornersFor(t.side)) {
          if (!c.roles.damper) throw targetsError(`the ${c.roles.side} corner has no damper`);
          const a = sm.resolveRole(c.roles.damper[0]), b = sm.resolveRole(c.roles.damper[1]);
          const pa = sm.pointValue(a), pb = sm.pointValue(b);
          const design = Math.hypot(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]);
          const block = new LengthBlock(`target:${c.roles.side}:damper_length`, a, b, design);
          const absolute = t.mode === 'absolute' && !t.hold;
          drivers.push({ name: axleName(c.roles.side, 'damper_length'), block, source: t, targetOf: (v) => (absolute ? v : design + v), reportOf: (v) => (absolute ? v : design + v) });
        }
        break;
      }
      case 'roll': {
        if (sm.corners.length !== 2) throw targetsError('roll needs an axle');
        const [l, r] = sm.corners;
        const halfSpan = Math.hypot(l.design.wheelCenter[0] - r.design.wheelCenter[0], l.design.wheelCenter[1] - r.design.wheelCenter[1]) / 2;
        for (const [c, sign] of [[l, 1], [r, -1]] as const) {
          const design = c.design.wheelCenterZ;
          const block = new PointCoordinateBlock(`target:${c.roles.side}:roll`, [{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }], 2, design);
          drivers.push({
            name: axleName(c.roles.side, 'wheel_center_z'), block, source: t,
            targetOf: (deg) => design + sign * halfSpan * Math.tan((deg * Math.PI) / 180),
            reportOf: (deg) => design + sign * halfSpan * Math.tan((deg * Math.PI) / 180),
            basis: sm.corners.indexOf(c),
          });
        }
        break;
      }
    }
  }
  system.restore(saved);
  return drivers;
}

/** Run one sweep spec; the model starts from its design state. */
export function runSweep(sm: SuspensionModel, spec: SweepSpec, options: SweepOptions = {}): SweepRun {
  const drivers = sweepDrivers(sm, spec);
  // a compliant suspension settles at every step, under its own elements unless the caller loads it
  const settle = options.settle ?? (sm.roles.compliance ? settleUnloaded(sm) : undefined);
  const valuesOnly = options.valuesOnly === true || options.metrics !== undefined;
  const values = new Map<SweepTarget, number[]>();
  for (const t of spec.targets) values.set(t, sweepValues(t, spec.steps));
  const system = sm.model.system;
  sm.resetToDesign();
  const steps: StepResult[] = [];
  let lastGood: Float64Array = system.snapshot();
  let lastValues: number[] = packedMap(drivers, (d) => d.block.target);
  let lastMotionRatio = NaN;
  const blocks = packedMap(drivers, (d) => d.block);
  // One continuation through the steps (kernel/continuation.ts): each step one sub-step,
  // halved on failure; in values-only mode predicted by the secant of the last two.
  const path = new Continuation(system, (values) => blocks.forEach((b, j) => { b.target = values[j]; }), lastValues, {
    correct: () => sm.solveWith(blocks), secant: valuesOnly, branchGuard: false,
  });
  // Predictor: when every driver is one of the derivative tangent's targets, the tangent of
  // the last state moves the linkage to first order, and Newton only corrects.
  const predictable = drivers.length > 0 && drivers.every((d) => d.basis !== undefined) && new Set(drivers.map((d) => d.basis)).size === drivers.length;
  let lastTangent: TangentSpace | null = null;
  // the signed transmission of each link/lever pair at the last solved step (its branch)
  let lastBranch: number[] | null = sm.devices ? designBranches(sm) : null;
  // per-step scratch kept through the sweep: the predictor's step and state (the
  // continuation puts the system there and keeps neither), and the spare of lastGood
  let dq: Float64Array = new Float64Array(0), predictedState: Float64Array = new Float64Array(0), spareGood: Float64Array | null = null;
  for (let i = 0; i < spec.steps; i++) {
    const targets = packedMap(drivers, (d) => d.targetOf(values.get(d.source)![i]));
    let predicted: Float64Array | null = null;
    if (!valuesOnly && predictable && lastTangent && lastTangent.status === 'unique') {
      if (dq.length !== lastTangent.size) dq = new Float64Array(lastTangent.size);
      else dq.fill(0);
      for (let k = 0; k < drivers.length; k++) {
        const rates = lastTangent.rates[drivers[k].basis!];
        const delta = targets[k] - lastValues[k];
        if (rates && delta !== 0) for (let j = 0; j < dq.length; j++) dq[j] += rates[j] * delta;
      }
      system.restore(lastGood);
      for (const v of system.variables) if (!v.fixed) system.retractVariable(v, dq, lastTangent.layout[v.id]);
      predicted = predictedState = copyState(system, predictedState);
    }
    const move = path.moveTo(targets, { predicted });
    const report = move.status === 'reached' ? move.report : move.failure ?? move.report;
    const driverReport: Record<string, number> = {};
    drivers.forEach((d) => { driverReport[d.name] = d.reportOf(values.get(d.source)![i]); });
    if (move.status !== 'reached') {
      system.restore(lastGood);
      path.restart(lastValues);
      steps.push({ index: i, status: 'failed', drivers: driverReport, positions: null, metrics: null, failed: report.failed.map((o) => o.replace(/^target:/, '')), message: (report.converged ? move.message : report.message) ?? 'the linkage cannot reach this step' });
      options.onProgress?.(i + 1, spec.steps);
      continue;
    }
    const settled = settle?.();
    if (settled && settled.status !== 'solved') {
      system.restore(lastGood);
      path.restart(lastValues);
      steps.push({ index: i, status: 'failed', drivers: driverReport, positions: null, metrics: null, message: settled.message ?? 'no equilibrium at this step' });
      options.onProgress?.(i + 1, spec.steps);
      continue;
    }
    // Branch-jump diagnostic: motion per unit of driver change far above the last step's.
    const motion = largestMotion(system, lastGood);
    let change = 1e-12;
    for (let k = 0; k < targets.length; k++) change = Math.max(change, Math.abs(targets[k] - lastValues[k]));
    const ratio = motion / change;
    const diagnostics: string[] = [];
    if (Number.isFinite(lastMotionRatio) && ratio > 10 * lastMotionRatio + 1) diagnostics.push('possible_branch_jump');
    if (i > 0) lastMotionRatio = ratio;
    // the last good state's buffers alternate (nothing else keeps them)
    const good = copyState(system, spareGood);
    spareGood = lastGood;
    lastGood = good;
    lastValues = targets;
    const step: StepResult = { index: i, status: 'solved', drivers: driverReport, positions: null, metrics: null };
    if (options.metrics) {
      step.metrics = options.metrics();
      lastTangent = null;
    } else {
      // Every dual of the evaluation is dead once the step has its values: the step keeps
      // numbers, fresh position arrays, the response and the tangent (whose rates are not
      // scratch), so the duals' storage is reused state to state (kernel/float-slab.ts).
      const hold = options.hold ?? spec.analysis.virtual_steering.suspension_hold;
      const evaluation: StateEvaluation & { steering?: SteeringResponse } = reusingFloats(() => (options.noSteering || valuesOnly ? sm.evaluate({ derivatives: !valuesOnly }) : evaluateState(sm, hold)));
      step.positions = evaluation.positions; step.metrics = evaluation.metrics;
      if (evaluation.steering) step.steering_response = evaluation.steering;
      lastTangent = evaluation.tangent;
    }
    if (sm.devices && sm.devices.levers.length) {
      step.transmission = {};
      const now = sm.devices.transmissions(sm);
      for (const [k, { name, ratio }] of now.entries()) {
        step.transmission[name] = Math.abs(ratio);
        const before = lastBranch?.[k];
        if (before !== undefined && Math.sign(before) !== Math.sign(ratio) && ratio !== 0) diagnostics.push(`branch_change: ${name}`);
        if (Math.abs(ratio) < TRANSMISSION_MARGIN_WARNING) diagnostics.push(`low_transmission: ${name} ${Math.abs(ratio).toFixed(3)}`);
      }
      lastBranch = packedMap(now, (t) => t.ratio);
    }
    if (diagnostics.length) step.diagnostics = diagnostics;
    options.onSolvedState?.(step);
    steps.push(step);
    options.onProgress?.(i + 1, spec.steps);
  }
  return { steps };
}

/** The system's state copied into `into` when it has the state's length, else into a fresh snapshot. */
function copyState(system: SuspensionModel['model']['system'], into: Float64Array | null): Float64Array {
  const used = system.snapshotLength;
  if (into === null || into.length !== used) return system.snapshot();
  into.set(system.state.subarray(0, used));
  return into;
}

function settleUnloaded(sm: SuspensionModel): () => { status: 'solved' | 'failed'; message?: string } {
  const state = new CompliantState(sm);
  return () => state.settle();
}

/** The branch of each link/lever pair at design: a sweep is checked against the authored side from its first step. */
function designBranches(sm: SuspensionModel): number[] {
  const saved = sm.model.system.snapshot();
  sm.resetToDesign();
  const ratios = sm.devices!.transmissions(sm).map((t) => t.ratio);
  sm.model.system.restore(saved);
  return ratios;
}

/** Flatten a step's metrics into CSV columns (axle: `axle.heave`, `left.camber`, …). */
export function flattenMetrics(metrics: StepResult['metrics']): Record<string, number | null> {
  if (!metrics) return {};
  if ('axle' in metrics && typeof metrics.axle === 'object') {
    const out: Record<string, number | null> = {};
    for (const group of ['axle', 'left', 'right'] as const) {
      const m = (metrics as Record<string, MetricValues>)[group];
      for (const [k, v] of Object.entries(m)) out[`${group}.${k}`] = v;
    }
    return out;
  }
  return { ...(metrics as MetricValues) };
}

/** CSV of sweeps: one row per step, one column per driver and metric. */
export function sweepsToCsv(sweeps: Record<string, SweepRun>): string {
  const rows: Record<string, string | number | null>[] = [];
  const columns = new Set<string>(['sweep', 'index', 'status']);
  for (const [name, run] of Object.entries(sweeps)) {
    for (const s of run.steps) {
      const row: Record<string, string | number | null> = { sweep: name, index: s.index, status: s.status };
      for (const [k, v] of Object.entries(s.drivers)) { row[`driver.${k}`] = v; columns.add(`driver.${k}`); }
      for (const [k, v] of Object.entries(flattenMetrics(s.metrics))) { row[k] = v; columns.add(k); }
      rows.push(row);
    }
  }
  const cols = [...columns];
  const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [cols.join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}
