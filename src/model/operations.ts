/**
 * What a program does with a model: solve it, count its freedom, drive a coordinate.
 * Results are plain JSON in the file's units (the `kinemate` command prints them as is).
 * None of these throws on a numerical failure: a failed solve is a status.
 */
import { solve, type SolveOptions, type SolveReport, type Pull } from '../../kernel/solver';
import { freedom, conflictingSet } from '../../kernel/analysis';
import { largestMotion } from '../../kernel/system';
import * as P from '../../kernel/pose';
import type { Model } from './build';
import { ModelError } from './build';

export type StateJSON = Record<string, number | P.PoseJSON>;

export interface SolveResult {
  status: 'solved' | 'failed';
  converged: boolean;
  iterations: number;
  maxResidual: number;
  dof: number;
  redundant: string[];
  conflicting: string[];
  atLimit: string[];
  state: StateJSON;
  /** Mates whose rows do not hold (on failure). */
  failed?: string[];
  message?: string;
}

/** Kernel owner names → what a user calls them: a hold of `jA.angle` is `jA.angle`. */
function userName(owner: string): string {
  return owner.startsWith('hold:') ? owner.slice(5) : owner.startsWith('limit:') ? owner.slice(6) : owner;
}

/** The model's state in file units: every movable part's pose, every coordinate. */
export function modelState(model: Model): StateJSON {
  const out: StateJSON = {};
  for (const [name, v] of model.parts) {
    if (model.system.variables[v].fixed) continue;
    out[`${name}.pose`] = P.poseToJSON(model.system.getPose(v));
  }
  for (const [name, info] of model.coordinates) {
    const x = model.system.getScalar(info.variable);
    out[name] = info.kind === 'angle' ? x / model.angleFactor : x;
  }
  return out;
}

function coordinate(model: Model, name: string, path: string) {
  const info = model.coordinates.get(name);
  if (!info) throw new ModelError(path, `no coordinate "${name}" (coordinates: ${[...model.coordinates.keys()].join(', ') || 'none'})`);
  return info;
}

/** Set a coordinate's value (file units), without holding it. */
export function setCoordinate(model: Model, name: string, value: number): void {
  const info = coordinate(model, name, `--set ${name}`);
  model.system.setScalar(info.variable, info.kind === 'angle' ? value * model.angleFactor : value);
}
/** Hold a coordinate at its current value (a driver). */
export function holdCoordinate(model: Model, name: string): void {
  model.system.hold(coordinate(model, name, `--hold ${name}`).variable);
}
export function releaseCoordinate(model: Model, name: string): void {
  model.system.release(coordinate(model, name, name).variable);
}

/**
 * Solve the model where it stands. `set` values are in file units; `hold` adds drivers.
 * Held coordinates are pulled to their values in sub-steps (≤ 10° or 5% of the model)
 * so the tan-half-angle rows never see half a turn at once.
 */
export function solveModel(model: Model, options: { set?: Record<string, number>; hold?: string[]; solver?: SolveOptions } = {}): SolveResult {
  const { system } = model;
  const targets = new Map<number, number>();
  for (const [name, value] of Object.entries(options.set ?? {})) {
    const info = coordinate(model, name, `--set ${name}`);
    targets.set(info.variable, info.kind === 'angle' ? value * model.angleFactor : value);
  }
  for (const name of options.hold ?? []) system.hold(coordinate(model, name, `--hold ${name}`).variable);
  let report: SolveReport | null = null;
  let iterations = 0;
  if (targets.size > 0) {
    // Move set coordinates from where the parts put them, in sub-steps.
    const held = new Set(system.heldVariables());
    const starts = new Map<number, number>();
    for (const v of targets.keys()) {
      if (!held.has(v)) {
        // a set value that is not held is a starting value: place it and let the solve settle
        system.setScalar(v, targets.get(v)!);
        targets.delete(v);
      } else starts.set(v, system.getScalar(v));
    }
    const steps = subSteps(model, targets, starts);
    for (let k = 1; k <= steps && targets.size > 0; k++) {
      for (const [v, target] of targets) system.setScalar(v, starts.get(v)! + ((target - starts.get(v)!) * k) / steps);
      report = solve(system, options.solver);
      iterations += report.iterations;
      if (!report.converged) break;
    }
  }
  if (!report || report.converged) {
    report = solve(system, options.solver);
    iterations += report.iterations;
  }
  // iterations of every sub-step, so the count says how much work the solve was
  return resultOf(model, { ...report, iterations });
}

function subSteps(model: Model, targets: Map<number, number>, starts: Map<number, number>): number {
  let steps = 1;
  for (const [v, target] of targets) {
    const variable = model.system.variables[v];
    const delta = Math.abs(target - starts.get(v)!);
    const kind = [...model.coordinates.values()].find((c) => c.variable === v)?.kind;
    const maxStep = kind === 'angle' ? (10 * Math.PI) / 180 : 0.05 * model.system.lengthScale * (variable.scale > 0 ? 1 / variable.scale : 1);
    steps = Math.max(steps, Math.ceil(delta / maxStep));
  }
  return Math.min(steps, 10000);
}

/**
 * Turn a kernel report into the command's result: DOF and redundancy at the current state,
 * and the conflicting set when `diagnose` (by default: on failure), found with the given
 * solver tolerance (default the solver's).
 */
export function resultOf(model: Model, report: SolveReport, options: { diagnose?: boolean; tolerance?: number } = {}): SolveResult {
  const f = freedom(model.system);
  const diagnose = options.diagnose ?? !report.converged;
  const conflicting = diagnose ? conflictingSet(model.system, options.tolerance === undefined ? {} : { tolerance: options.tolerance }).map(userName) : [];
  const result: SolveResult = {
    status: report.converged ? 'solved' : 'failed',
    converged: report.converged,
    iterations: report.iterations,
    maxResidual: report.maxResidual,
    dof: f.dof,
    redundant: f.redundant.map(userName),
    conflicting,
    atLimit: report.atLimit,
    state: modelState(model),
  };
  if (!report.converged) {
    result.failed = report.failed.map(userName);
    if (report.message) result.message = report.message;
  }
  return result;
}

export interface DofResult {
  dof: number;
  parts: Record<string, number>;
  redundant: string[];
  conflicting: string[];
}

/** Freedom at the file's pose after solving it: total, per part, redundant and conflicting mates. */
export function dofModel(model: Model): DofResult {
  const report = solve(model.system);
  const f = freedom(model.system);
  const parts: Record<string, number> = {};
  for (const [name, v] of model.parts) parts[name] = model.system.variables[v].fixed ? 0 : f.perVariable[name] ?? 0;
  return { dof: f.dof, parts, redundant: f.redundant.map(userName), conflicting: report.converged ? [] : conflictingSet(model.system).map(userName) };
}

export interface DriveStep {
  value: number;
  status: 'solved' | 'failed';
  state: StateJSON;
  atLimit?: string[];
  failed?: string[];
  message?: string;
}

/**
 * Drive a coordinate from `from` to `to` in `steps` equal steps (steps + 1 states, the
 * first at `from`). Each step is warm-started from the last with a secant predictor
 * (the motion continues as it went), then corrected; a step that lands far from its
 * prediction (a possible branch change) or fails is halved, up to 12 times. A step that
 * still cannot be solved is reported failed and the drive stops there: it never jumps.
 */
export function driveModel(model: Model, name: string, from: number, to: number, steps: number, onProgress?: (done: number, total: number) => void): { steps: DriveStep[] } {
  const { system } = model;
  const info = coordinate(model, name, '--coordinate');
  const k = info.kind === 'angle' ? model.angleFactor : 1;
  const a = from * k, b = to * k;
  system.hold(info.variable);
  const maxSub = info.kind === 'angle' ? (10 * Math.PI) / 180 : 0.05 * system.lengthScale;
  const out: DriveStep[] = [];
  let previous: Float64Array | null = null; // state one accepted sub-step back
  let previousValue = system.getScalar(info.variable);
  let current = system.snapshot();
  let currentValue = previousValue;
  const advance = (target: number): SolveReport => {
    // sub-steps from the current value to target
    let value = currentValue;
    let report: SolveReport | null = null;
    let h = Math.sign(target - value) * Math.min(Math.abs(target - value), maxSub);
    let halvings = 0;
    while (Math.abs(target - value) > 1e-15 * Math.max(1, Math.abs(target))) {
      if (Math.abs(h) > Math.abs(target - value)) h = target - value;
      const next = value + h;
      predict(system, current, previous, h / (value - previousValue || h), previous !== null && value !== previousValue);
      system.setScalar(info.variable, next);
      const predicted = system.snapshot();
      report = solve(system);
      const jump = report.converged && previous !== null ? largestMotion(system, predicted) : 0;
      const motion = previous !== null ? largestMotion(system, current, predicted) : Infinity;
      if (!report.converged || (previous !== null && jump > 0.5 * motion + 1e-9 * system.lengthScale)) {
        system.restore(current);
        system.setScalar(info.variable, value);
        if (++halvings > 12) {
          return report.converged ? { ...report, converged: false, status: 'failed', message: 'possible branch change: the step lands far from where the motion was heading' } : report;
        }
        h /= 2;
        continue;
      }
      previous = current; previousValue = value;
      current = system.snapshot(); currentValue = next;
      value = next;
      if (halvings > 0 && Math.abs(h) < maxSub) h *= 2; // grow back after trouble
      halvings = 0;
    }
    return report ?? solve(system);
  };
  for (let i = 0; i <= steps; i++) {
    const target = steps === 0 ? a : a + ((b - a) * i) / steps;
    const report = i === 0 && Math.abs(currentValue - target) < 1e-15 ? solve(system) : advance(target);
    const step: DriveStep = { value: target / k, status: report.converged ? 'solved' : 'failed', state: modelState(model) };
    if (report.atLimit.length) step.atLimit = report.atLimit;
    if (!report.converged) {
      step.failed = report.failed.map(userName);
      step.message = report.message ?? 'constraints do not hold';
      system.restore(current); // keep the last good state
      step.state = modelState(model);
      out.push(step);
      break;
    }
    if (i === 0) { current = system.snapshot(); currentValue = system.getScalar(info.variable); }
    out.push(step);
    onProgress?.(i + 1, steps + 1);
  }
  return { steps: out };
}

/**
 * Secant predictor: continue each variable's last motion by `ratio` of it (poses through
 * their retraction, so a turn continues as a turn).
 */
function predict(system: Model['system'], current: Float64Array, previous: Float64Array | null, ratio: number, use: boolean): void {
  system.restore(current);
  if (!use || !previous || !Number.isFinite(ratio)) return;
  const rel = new Float64Array(7), inv = new Float64Array(7), xi = new Float64Array(6);
  for (const v of system.variables) {
    if (v.fixed) continue;
    if (v.kind === 'pose') {
      P.invert(inv, previous.subarray(v.offset, v.offset + 7));
      P.compose(rel, inv, current.subarray(v.offset, v.offset + 7));
      P.log(xi, rel);
      for (let i = 0; i < 6; i++) xi[i] *= ratio;
      system.retractVariable(v, xi, 0);
    } else {
      system.state[v.offset] += (current[v.offset] - previous[v.offset]) * ratio;
    }
  }
}

export type { Pull };
