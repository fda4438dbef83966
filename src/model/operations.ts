/**
 * What a program does with a model: solve it, count its freedom, drive a coordinate.
 * Results are plain JSON in the file's units (the `kinemate` command prints them as is).
 * None of these throws on a numerical failure: a failed solve is a status.
 */
import { solve, type SolveOptions, type SolveReport, type Pull } from '../../kernel/solver/solve';
import { freedom, conflictingSet } from '../../kernel/analysis';
import { Continuation, type MoveResult } from '../../kernel/continuation';
import * as P from '../../kernel/pose';
import type { Model } from './build';
import { ModelError } from './build';
import { ArgumentError } from '../../kernel/errors.ts';

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

/**
 * What modelState reads, in output order: each part's key (`crank.pose`) and pose variable,
 * each coordinate's name, variable and scale to file units. Made once per model (its parts
 * and coordinates are fixed when it is built), so a drive step's state output is two
 * indexed loops: iterating the maps with destructuring made modelState ~700 bytes of
 * bytecode, a large early compile of a function run once a step (docs/solver-warm-up.md).
 */
interface StatePlan {
  readonly poseKeys: string[];
  readonly poseVars: Int32Array;
  readonly scalarKeys: string[];
  readonly scalarVars: Int32Array;
  /** Whether each coordinate is an angle (divided by the model's angleFactor). */
  readonly scalarAngle: Uint8Array;
}
const statePlans = new WeakMap<Model, StatePlan>();

function statePlanOf(model: Model): StatePlan {
  let plan = statePlans.get(model);
  if (plan !== undefined) return plan;
  const poseKeys: string[] = [], poseVars: number[] = [], scalarKeys: string[] = [], scalarVars: number[] = [], scalarAngle: number[] = [];
  for (const [name, v] of model.parts) { poseKeys.push(`${name}.pose`); poseVars.push(v); }
  for (const [name, info] of model.coordinates) { scalarKeys.push(name); scalarVars.push(info.variable); scalarAngle.push(info.kind === 'angle' ? 1 : 0); }
  plan = { poseKeys, poseVars: Int32Array.from(poseVars), scalarKeys, scalarVars: Int32Array.from(scalarVars), scalarAngle: Uint8Array.from(scalarAngle) };
  statePlans.set(model, plan);
  return plan;
}

/** The model's state in file units: every movable part's pose, every coordinate. */
export function modelState(model: Model): StateJSON {
  const plan = statePlanOf(model);
  const { variables, state } = model.system;
  const out: StateJSON = {};
  const poseKeys = plan.poseKeys, poseVars = plan.poseVars;
  for (let i = 0; i < poseKeys.length; i++) {
    const variable = variables[poseVars[i]];
    if (variable.fixed) continue;
    out[poseKeys[i]] = P.poseToJSON(state, variable.offset); // read in place: no copy per part and state
  }
  const scalarKeys = plan.scalarKeys, scalarVars = plan.scalarVars, scalarAngle = plan.scalarAngle;
  for (let i = 0; i < scalarKeys.length; i++) {
    const x = state[variables[scalarVars[i]].offset];
    out[scalarKeys[i]] = scalarAngle[i] === 1 ? x / model.angleFactor : x;
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
 * Held coordinates are moved to their values by one continuation (kernel/continuation.ts)
 * in sub-steps (≤ 10° or 5% of the model), so the tan-half-angle rows never see half a
 * turn at once. When a joint limit stops them short, the result is the solve at the limit:
 * status "failed", the joint in `atLimit`, and a message naming the limit.
 */
export function solveModel(model: Model, options: { set?: Record<string, number>; hold?: string[]; solver?: SolveOptions } = {}): SolveResult {
  const { system } = model;
  const targets = new Map<number, number>();
  for (const [name, value] of Object.entries(options.set ?? {})) {
    const info = coordinate(model, name, `--set ${name}`);
    targets.set(info.variable, info.kind === 'angle' ? value * model.angleFactor : value);
  }
  for (const name of options.hold ?? []) system.hold(coordinate(model, name, `--hold ${name}`).variable);
  const held = new Set(system.heldVariables());
  for (const [v, target] of targets) {
    // a set value that is not held is a starting value: place it and let the solve settle
    if (!held.has(v)) { system.setScalar(v, target); targets.delete(v); }
  }
  if (targets.size === 0) return resultOf(model, solve(system, options.solver));
  // Move the held coordinates from where the parts put them.
  const variables = [...targets.keys()];
  const path = new Continuation(system, (values) => variables.forEach((v, i) => system.setScalar(v, values[i])),
    variables.map((v) => system.getScalar(v)), { correct: () => solve(system, options.solver) });
  const move = path.moveTo(variables.map((v) => targets.get(v)!), { subSteps: subSteps(model, targets) });
  // iterations of every sub-step, so the count says how much work the solve was
  if (move.status === 'reached') {
    const report = solve(system, options.solver);
    return resultOf(model, { ...report, iterations: move.iterations + report.iterations });
  }
  if (move.status === 'limit') {
    const result = resultOf(model, { ...move.report, iterations: move.iterations });
    const asked = variables.map((v) => {
      const info = [...model.coordinates.values()].find((c) => c.variable === v)!;
      const k = info.kind === 'angle' ? model.angleFactor : 1;
      return `${info.name} = ${round(system.getScalar(v) / k)} (asked for ${round(targets.get(v)! / k)})`;
    });
    return {
      ...result, status: 'failed', converged: false,
      failed: (move.failure?.failed ?? []).map(userName),
      message: `${limitsText(model, move.report.atLimit)}: the solve stops at the limit, ${asked.join(', ')}`,
    };
  }
  // Failed: the state stays at the last that solved; the mates in conflict are found at the values asked for.
  const result = resultOf(model, { ...(move.failure ?? move.report), iterations: move.iterations }, { diagnose: false });
  const good = system.snapshot();
  variables.forEach((v) => system.setScalar(v, targets.get(v)!));
  result.conflicting = conflictingSet(system, options.solver?.tolerance === undefined ? {} : { tolerance: options.solver.tolerance }).map(userName);
  system.restore(good);
  variables.forEach((v, i) => system.setScalar(v, move.values[i]));
  if (move.message && move.message !== result.message) result.message = move.message;
  return result;
}

function subSteps(model: Model, targets: ReadonlyMap<number, number>): number {
  let steps = 1;
  for (const [v, target] of targets) {
    const variable = model.system.variables[v];
    const delta = Math.abs(target - model.system.getScalar(v));
    const kind = [...model.coordinates.values()].find((c) => c.variable === v)?.kind;
    const maxStep = kind === 'angle' ? (10 * Math.PI) / 180 : 0.05 * model.system.lengthScale * (variable.scale > 0 ? 1 / variable.scale : 1);
    steps = Math.max(steps, delta / maxStep);
  }
  return steps;
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
  /** The value this step asked for (on a failed step the state says where the drive stopped). */
  value: number;
  status: 'solved' | 'failed';
  state: StateJSON;
  atLimit?: string[];
  failed?: string[];
  message?: string;
}

/** Most steps of one drive (MAX_DRIVE_STEPS + 1 states); a larger count is refused. */
export const MAX_DRIVE_STEPS = 100_000;

/**
 * The degree of a drive's predictor (kernel/continuation.ts): measured on the four-bar in
 * 1° steps, a degree more cuts the predicted rows about tenfold up to 6 (3: 4e-7 of the
 * length scale, 6: 2e-10), and the corrector's chord steps with it (3.5 a step at 3, 1.6
 * at 6); past 6 the round-off of the longer extrapolation wins.
 */
export const DRIVE_PREDICTOR_ORDER = 6;
/** A drive's corrector: every warm chord chain polished (SolveOptions.polish). */
const DRIVE_SOLVE: SolveOptions = { polish: true };
/**
 * The solve of a drive's first state, where it already stands: the default options, in an
 * object of DRIVE_SOLVE's shape, so that the solver's reads of its options see one shape
 * a drive (a second shape, new at the first step of the second drive, set V8's count
 * towards optimising solve back to zero there).
 */
const FIRST_SOLVE: SolveOptions = { polish: false };

/** Options of driveSteps / driveModel. */
export interface DriveOptions {
  onProgress?: (done: number, total: number) => void;
}

/**
 * Drive a coordinate from `from` to `to` in `steps` equal steps (steps + 1 states, the
 * first at `from`), yielding each state as it is solved. The motion is one continuation
 * (kernel/continuation.ts): sub-steps of at most 10° (or 5% of the model), each predicted
 * by the secant of the last two and corrected; a sub-step that fails or lands far from
 * its prediction (a possible branch change) is halved. A drive that cannot go on ends
 * with one `failed` step at the last state that solved, bisected to where the trouble
 * starts: when a joint limit stops it, that is exactly the limit and the joint is in
 * `atLimit`; `value` stays the value asked for, the state and the message say where it
 * stopped. It never jumps, and the work of each step is bounded. More than
 * MAX_DRIVE_STEPS steps throw an ArgumentError.
 */
export function driveSteps(model: Model, name: string, from: number, to: number, steps: number, options: DriveOptions = {}): Generator<DriveStep, void, undefined> {
  return new Drive(model, name, from, to, steps, options);
}

/**
 * driveSteps' iterator: nothing runs until the first `next`, as in a generator. What runs
 * once a drive (the checks, the hold, the continuation, the first state's solve) is in
 * startDrive, the steps in the generator driveLoop: a generator's first drive runs its
 * first steps before V8 keeps feedback for it, so code run only at a drive's start was new
 * feedback at the second drive, which set V8's count towards optimising the drive's loop
 * back to zero there (docs/solver-warm-up.md, session 14). Not a generator delegating with
 * yield*: that one was compiled too, by its share of each step (5–12 ms of compile in the
 * timed drives); `next` here is a few bytes, optimised (or inlined) at once.
 */
class Drive implements Generator<DriveStep, void, undefined> {
  private loop: Generator<DriveStep, void, undefined> | null = null;
  constructor(private readonly model: Model, private readonly name: string, private readonly from: number, private readonly to: number,
    private readonly steps: number, private readonly options: DriveOptions) {}

  [Symbol.iterator](): Generator<DriveStep, void, undefined> {
    return this;
  }
  next(): IteratorResult<DriveStep, void> {
    return (this.loop ?? this.start()).next();
  }
  return(value: void): IteratorResult<DriveStep, void> {
    if (this.loop !== null) return this.loop.return(value);
    this.loop = NO_STEPS(); // closed before its first step: nothing ran, nothing will
    return { value, done: true };
  }
  throw(e: unknown): IteratorResult<DriveStep, void> {
    if (this.loop !== null) return this.loop.throw(e);
    this.loop = NO_STEPS();
    throw e;
  }

  /** The drive's start, at its first `next`. */
  private start(): Generator<DriveStep, void, undefined> {
    const { model, name, from, to, steps, options } = this;
    this.loop = NO_STEPS(); // a start that throws ends the drive, as in a generator
    const d = startDrive(model, name, from, steps, options);
    this.loop = driveLoop(model, name, d.variable, d.k, d.maxSub, d.path, from, to, steps, d.first, d.firstFailed, [NaN], { subSteps: NaN }, options);
    return this.loop;
  }
}

/** A finished drive's steps: none. */
function* NO_STEPS(): Generator<DriveStep, void, undefined> {}

interface DriveStart { path: Continuation; variable: number; k: number; maxSub: number; first: DriveStep | null; firstFailed: boolean }

/**
 * A drive's checks, its hold of the coordinate, its continuation, and its first state when
 * the coordinate already stands at `from` (solved, not moved to).
 */
function startDrive(model: Model, name: string, from: number, steps: number, options: DriveOptions): DriveStart {
  const { system } = model;
  const info = coordinate(model, name, '--coordinate');
  if (!Number.isSafeInteger(steps) || steps < 0 || steps > MAX_DRIVE_STEPS) {
    throw new ArgumentError('steps', `must be a whole number from 0 to ${MAX_DRIVE_STEPS}, got ${steps}`);
  }
  const k = info.kind === 'angle' ? model.angleFactor : 1;
  system.hold(info.variable);
  const maxSub = info.kind === 'angle' ? (10 * Math.PI) / 180 : 0.05 * system.lengthScale;
  // a degree-6 predictor: the next state is then off the prediction by the step length to
  // the seventh, not squared as by the secant, and the corrector needs a chord or two (its
  // short chains polished: DRIVE_SOLVE)
  // the setter holds the coordinate at each value (held above: hold then does what setScalar
  // does). Not setScalar: 58 bytes of bytecode, small enough for V8 to optimise at its first
  // tick, which came in a fresh process's fourth drive, mostly before moveTo's optimised code
  // (which inlines this closure) took the call over: it was compiled on its own inside
  // fourbar_drive_step_us's rounds. hold (199 bytes) asks four ticks, not reached in the six
  // drives (docs/solver-warm-up.md, session 18)
  const path = new Continuation(system, (values) => system.hold(info.variable, values[0]), [system.getScalar(info.variable)], {
    order: DRIVE_PREDICTOR_ORDER, correct: () => solve(system, DRIVE_SOLVE),
  });
  const here = path.value(0);
  if (!(Math.abs(here - from * k) < 1e-15)) return { path, variable: info.variable, k, maxSub, first: null, firstFailed: false };
  const report = solve(system, FIRST_SOLVE);
  if (report.converged) path.restart([here]);
  const step: DriveStep = { value: from, status: report.converged ? 'solved' : 'failed', state: modelState(model) };
  if (report.atLimit.length) step.atLimit = report.atLimit;
  if (!report.converged) {
    step.failed = report.failed.map(userName);
    step.message = report.message ?? 'constraints do not hold';
  } else {
    options.onProgress?.(1, steps + 1);
  }
  return { path, variable: info.variable, k, maxSub, first: step, firstFailed: !report.converged };
}

/**
 * The steps of driveSteps: `first` (the first state, already solved) when not null, then
 * the moves. Everything it reads before its loop comes in as an argument, and those reads
 * are tests without feedback: a property read or an allocation there would run once a
 * drive, before V8 keeps feedback at the first drive and with it at the second (see driveSteps).
 */
function* driveLoop(model: Model, name: string, variable: number, k: number, maxSub: number, path: Continuation, from: number, to: number, steps: number,
  first: DriveStep | null, firstFailed: boolean, targets: number[], moveOptions: { subSteps: number }, options: DriveOptions): Generator<DriveStep, void, undefined> {
  let i = 0;
  if (first !== null) {
    yield first;
    if (firstFailed) return;
    i = 1;
  }
  for (; i <= steps; i++) {
    const value = i === 0 ? from : i === steps ? to : from + ((to - from) * i) / steps; // file units, as reported
    const target = value * k;
    targets[0] = target;
    moveOptions.subSteps = Math.abs(target - path.value(0)) / maxSub;
    const move = path.moveTo(targets, moveOptions);
    const report = move.status === 'reached' ? move.report : move.report.converged ? move.report : move.failure ?? move.report;
    const step: DriveStep = { value, status: report.converged ? 'solved' : 'failed', state: modelState(model) };
    if (move.status !== 'reached') {
      yield stoppedStep(model, step, move, name, model.system.getScalar(variable) / k);
      return;
    }
    if (report.atLimit.length) step.atLimit = report.atLimit;
    if (!report.converged) {
      step.failed = report.failed.map(userName);
      step.message = report.message ?? 'constraints do not hold';
      yield step;
      return;
    }
    options.onProgress?.(i + 1, steps + 1);
    yield step;
  }
}

/**
 * The last step of a drive whose move stopped short at `reached` (file units): failed, with
 * the limit or the trouble named. (Out of driveSteps, which runs at every step: V8 optimises
 * a function after ticks in proportion to its size.)
 */
function stoppedStep(model: Model, step: DriveStep, move: MoveResult, name: string, reached: number): DriveStep {
  const value = step.value;
  step.status = 'failed';
  if (move.report.atLimit.length) step.atLimit = move.report.atLimit;
  step.failed = (move.failure?.failed ?? move.report.failed).map(userName);
  step.message = move.status === 'limit'
    ? `${limitsText(model, move.report.atLimit)}: the drive stops at the limit, ${name} = ${round(reached)} (asked for ${round(value)})`
    : `${move.message ?? 'constraints do not hold'}; the drive stops at the last state that solves, ${name} = ${round(reached)} (asked for ${round(value)})`;
  return step;
}

/** Every state of a drive at once (see driveSteps). */
export function driveModel(model: Model, name: string, from: number, to: number, steps: number, onProgress?: (done: number, total: number) => void): { steps: DriveStep[] } {
  return { steps: [...driveSteps(model, name, from, to, steps, onProgress ? { onProgress } : {})] };
}

/** A value for a message: at most 10 significant digits, no trailing noise. */
function round(x: number): number {
  return Number(x.toPrecision(10));
}

/** `jA.angle is limited to [0, 120]` for each named coordinate (file units). */
export function limitsText(model: Model, names: readonly string[]): string {
  return names.map((name) => {
    const info = model.coordinates.get(name);
    const limits = info ? model.system.variables[info.variable].limits : null;
    if (!info || !limits) return `${name} is at a limit`;
    const k = info.kind === 'angle' ? model.angleFactor : 1;
    return `${name} is limited to [${round(limits[0] / k)}, ${round(limits[1] / k)}]`;
  }).join('; ');
}

export type { Pull };
