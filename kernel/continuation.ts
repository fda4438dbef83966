/**
 * Continuation: move what drives a system (held coordinates' values, target rows'
 * targets, a pulled point's target) from where it stands to new values along a straight
 * line, in sub-steps, each predicted and then corrected by a solve. Written once here;
 * drive, solve --set, the sweep and the live engine all move through it.
 *
 * - Predictor: the secant of the last two accepted states (each pose moved on by the same
 *   body twist scaled, each scalar linearly), with `order: k` the polynomial through the
 *   last k + 1 (in the body coordinates of kernel/predictor-chart.ts), or a state the
 *   caller predicted.
 * - A sub-step that fails, or that lands far from its secant prediction (a possible branch
 *   change), is halved, and grows back after an accepted one. A failure where a joint
 *   limit newly binds, or of a sub-step already 2⁻¹⁰ of the nominal, is final: later
 *   sub-steps close in on it by bisection instead of approaching it forever (the old
 *   drive's endless loop: every accepted step reset the halving count while the steps
 *   shrank towards a limit).
 * - The work of one move is bounded: at most MAX_SUBSTEPS nominal sub-steps and
 *   MAX_EXTRA_SOLVES more solves for halvings and bisection, so no input loops.
 * - A move that cannot go on ends at the last state that solved, which the bisection has
 *   brought to the place where the trouble starts (to round-off). When a joint limit is
 *   what stops it, the coordinate sits exactly at its bound there and the move reports
 *   status 'limit' with the coordinate in `report.atLimit`.
 */
import * as P from './pose';
import { solve, type SolveReport } from './solver/solve';
import type { System } from './system';
import { ArgumentError } from './errors';
import { PredictorChart } from './predictor-chart';

/** Most nominal sub-steps of one move; a longer move takes longer sub-steps. */
export const MAX_SUBSTEPS = 1000;
/** Most solves of one move beyond its nominal sub-steps (halvings, bisection). */
export const MAX_EXTRA_SOLVES = 120;

export interface ContinuationOptions {
  /** The corrector: solves the system at the values just set (default: `solve(system)`). */
  readonly correct?: () => SolveReport;
  /** Predict each sub-step by the secant of the last two accepted states (default true). */
  readonly secant?: boolean;
  /**
   * The predictor's degree k (1 to MAX_PREDICTOR_ORDER): the polynomial through the last
   * k + 1 accepted states on one line of driven values; 1 is the secant, and each degree
   * more puts the prediction a step length closer (default 1).
   */
  readonly order?: number;
  /**
   * Refuse a sub-step that lands farther from its secant prediction than half the
   * predicted motion (a possible branch change) and halve it instead (default true).
   */
  readonly branchGuard?: boolean;
}

export interface MoveOptions {
  /** Nominal sub-steps for this move (default 1; capped at MAX_SUBSTEPS). */
  readonly subSteps?: number;
  /** A predicted state for the first sub-step when it is the whole move (e.g. from a tangent). */
  readonly predicted?: Float64Array | null;
}

export type MoveStatus = 'reached' | 'limit' | 'failed';

export interface MoveResult {
  /** 'reached': at the targets; 'limit': stopped where a joint limit binds; 'failed': stopped where the solve fails. */
  readonly status: MoveStatus;
  /** The solve at the state where the move ended (converged, unless nothing could be solved at all). */
  readonly report: SolveReport;
  /** The solve that failed just past the end (when not reached). */
  readonly failure?: SolveReport;
  /** The driven values where the move ended (the targets when reached). */
  readonly values: readonly number[];
  /** How far along the move it ended, 0…1. */
  readonly fraction: number;
  /** Corrector solves, and their Newton iterations, spent on the move. */
  readonly solves: number;
  readonly iterations: number;
  /** Why the move stopped short (when it did). */
  readonly message?: string;
}

/**
 * A path through a system's driven values. `setValues` puts values where the corrector
 * reads them (held coordinates: `system.setScalar`; target rows: their `target`).
 * Construct it at an accepted (solved) state with the values that hold there; each
 * `moveTo` starts where the last ended, and the secant carries over between moves.
 */
export class Continuation {
  private current: Float64Array;
  private currentValues: Float64Array;
  /** Accepted states before the last, newest first (at most `order`), with their driven values and chart coordinates. */
  private readonly past: Accepted[];
  /**
   * Entries for `past`, with their buffers, made with the continuation and given back by
   * restart: a sub-step's accept (in moveTo) takes one while `past` is not yet full, so a
   * drive's first steps run the same code as the others (code run only at the first steps
   * is feedback new at a second drive, which set V8's count towards optimising it back to zero).
   */
  private readonly spares: Accepted[] = [];
  /** The predictor's chart (order ≥ 2) and the last accepted state's coordinates in it. */
  private readonly chart: PredictorChart | null;
  private currentCoords: Float64Array;
  private readonly correct: () => SolveReport;
  private readonly secant: boolean;
  private readonly order: number;
  private readonly branchGuard: boolean;
  /**
   * Scratch of moveTo, kept between moves: the values it started from and those of a
   * sub-step (doubles from the start: one elements kind for every store), the secant's
   * predicted state. Made here, not at a continuation's first move: code run only then is
   * new feedback at a drive's first step, which set V8's count towards optimising moveTo
   * back to zero at the second drive of a process.
   */
  private from: Float64Array;
  private stepValues: number[];
  private predicted: Float64Array;

  constructor(
    private readonly system: System,
    private readonly setValues: (values: readonly number[]) => void,
    values: readonly number[],
    options: ContinuationOptions = {},
  ) {
    this.current = system.snapshot();
    this.currentValues = Float64Array.from(values);
    this.from = new Float64Array(values.length);
    this.stepValues = new Array<number>(values.length).fill(NaN);
    this.predicted = new Float64Array(this.current.length);
    this.correct = options.correct ?? (() => solve(system));
    this.secant = options.secant ?? true;
    this.order = options.order ?? 1;
    if (!(Number.isInteger(this.order) && this.order >= 1 && this.order <= MAX_PREDICTOR_ORDER)) throw new ArgumentError('order', `must be a whole number from 1 to ${MAX_PREDICTOR_ORDER}, got ${this.order}`);
    this.branchGuard = options.branchGuard ?? true;
    this.chart = this.order >= 2 ? new PredictorChart() : null;
    this.currentCoords = new Float64Array(this.chart ? this.current.length : 0);
    for (let i = 0; i < this.order; i++) {
      this.spares.push({ state: new Float64Array(this.current.length), values: new Float64Array(values.length), coords: new Float64Array(this.currentCoords.length) });
    }
    // empty, with the elements kind of an array of objects from the start (a new `[]`, of
    // small integers' kind, changed the feedback of predict's and moveTo's reads of it at
    // a second drive's first step)
    this.past = this.spares.slice(0, 0);
  }

  /** The driven values at the last accepted state. */
  get values(): readonly number[] {
    return Array.from(this.currentValues);
  }

  /** The driven value k at the last accepted state (values[k] without the copy). */
  value(k: number): number {
    return this.currentValues[k];
  }

  /** The last accepted state (a copy). */
  get state(): Float64Array {
    return Float64Array.from(this.current);
  }

  /** Starts over at the system's current state with these values, forgetting the secant. */
  restart(values: readonly number[]): void {
    this.current = this.system.snapshot();
    this.currentValues = Float64Array.from(values);
    while (this.past.length > 0) this.spares.push(this.past.pop()!);
    this.chart?.reset();
  }

  /**
   * Moves to `targets` (one per driven value). Leaves the system at the state where the
   * move ended (the targets' when reached) with the values there set.
   */
  moveTo(targets: readonly number[], options: MoveOptions = {}): MoveResult {
    const { system } = this;
    const n = this.currentValues.length;
    // (the rare paths of this function, run at every step of a drive, are in helpers: V8
    // optimises a function after ticks in proportion to its bytecode's length, and the ticks
    // come from the code that runs; docs/solver-warm-up.md, sessions 14 and 17)
    if (targets.length !== n) throw targetsError(targets.length, n);
    if (this.from.length !== n) this.resize(n);
    const from = this.from;
    from.set(this.currentValues);
    const nominal = Math.max(1, Math.min(MAX_SUBSTEPS, Math.ceil(options.subSteps ?? 1)));
    const budget = nominal + MAX_EXTRA_SOLVES;
    const fullStep = 1 / nominal;
    // the values of each sub-step, handed to setValues (one buffer for every move)
    const values = this.stepValues;
    let s = 0;
    let h = fullStep;
    // The smallest fraction known to fail for good: a limit binds there, or a sub-step
    // already 2⁻¹⁰ of the nominal failed. Later sub-steps bisect towards it, never past.
    let failedAt = Infinity;
    let solves = 0, iterations = 0;
    let report: SolveReport | null = null;
    let atLimitHere: readonly string[] = NO_NAMES; // the coordinates at a limit at the last accepted state
    let failure: SolveReport | undefined;
    let failureMessage: string | undefined;
    while (s < 1) {
      if (solves >= budget) {
        failureMessage = gaveUpAfter(solves);
        break;
      }
      let next = Math.min(1, s + h);
      if (1 - next < 1e-9 * h) next = 1; // no sliver of a sub-step left by round-off
      if (next >= failedAt) next = s + (failedAt - s) / 2;
      if (!(next > s) || next >= failedAt) break; // the trouble is bracketed to round-off
      // the values at `next` (no closure: a drive makes one move per step)
      for (let k = 0; k < n; k++) values[k] = next === 1 ? targets[k] : from[k] + (targets[k] - from[k]) * next;
      // Predict: the caller's state, else the polynomial through the last accepted states (the
      // secant for one), else the last accepted state. Here, not in a method of its own: run at
      // every step, that one was compiled on its own and again inside moveTo, and its ticks
      // bring moveTo's compile sooner (docs/solver-warm-up.md, session 16).
      const given = next === 1 && s === 0 ? options.predicted ?? null : null;
      let secant = false;
      if (given !== null) system.restore(given);
      else {
        system.restore(this.current);
        const past = this.past;
        const ratio = this.secant && past.length > 0 ? secantRatio(past[0].values, this.currentValues, values) : null;
        if (ratio !== null && Number.isFinite(ratio)) {
          // the nodes: the last state at 0, the one before at −1, older ones further back on the same line
          const nodes = predictorNodes;
          nodes[0] = 0; nodes[1] = -1;
          let k = 1;
          while (k < past.length) {
            const t = secantRatio(past[0].values, this.currentValues, past[k].values);
            if (t === null || !(t < nodes[k] - 1e-9)) break;
            nodes[++k] = t;
          }
          extrapolate(system, this.chart, this.current, this.currentCoords, past, k, ratio);
          secant = true;
        }
      }
      setThrough(this.setValues, values);
      const predicted = secant && this.branchGuard ? this.copyState(this.predicted) : null;
      if (predicted !== null) this.predicted = predicted;
      const trial = correctThrough(this.correct);
      solves++;
      iterations += trial.iterations;
      let refused = !trial.converged;
      if (!refused && predicted !== null) {
        refused = landsFar(system, this.current, predicted);
      }
      if (refused) {
        failure = trial;
        failureMessage = trial.converged ? 'possible branch change: the step lands far from where the motion was heading' : undefined;
        failedAt = refusedAt(trial, atLimitHere, s, next, fullStep, failedAt);
        h = (next - s) / 2;
        this.backOff();
        continue;
      }
      // Accept: the system's state (solved at `values`) is the newest accepted one; the state
      // before last is dropped and its buffers take the new one (no allocation per sub-step).
      // Here, not in a method of its own: that one ticked towards its own compile while
      // moveTo's lagged, and was compiled on its own in the timed drives (docs/solver-warm-up.md).
      const past = this.past, spares = this.spares;
      // past and spares hold `order` entries between them: the oldest goes back to spares
      if (past.length === this.order) spares.push(past.pop()!);
      const spare = spares.pop()!;
      const spareState = spare.state, spareValues = spare.values, spareCoords = spare.coords;
      spare.state = this.current;
      spare.values = this.currentValues;
      spare.coords = this.currentCoords;
      past.unshift(spare);
      this.current = this.copyState(spareState);
      this.currentValues = spareValues.length === n ? spareValues : new Float64Array(n);
      for (let k = 0; k < n; k++) this.currentValues[k] = values[k];
      if (this.chart !== null) {
        this.currentCoords = spareCoords.length === this.current.length ? spareCoords : new Float64Array(this.current.length);
        this.chart.place(this.system, this.current, this.currentCoords, past);
      }
      report = trial;
      atLimitHere = trial.atLimit; // (a report's own list: no copy, no Set a step)
      s = next;
      if (h < fullStep) h = 2 * h < fullStep ? 2 * h : fullStep; // grow back after trouble (Math.min's value: h > 0)
    }
    if (s >= 1 && report !== null) return { status: 'reached', report, values: targets.slice(), fraction: 1, solves, iterations };
    return this.stoppedShort(report, failure, failureMessage, s, solves, iterations);
  }

  /** from and stepValues for n driven values (the values' count changed at a restart). */
  private resize(n: number): void {
    this.from = new Float64Array(n);
    this.stepValues = new Array<number>(n).fill(NaN);
  }

  /**
   * The result of a move that stopped short at fraction s (or, with nothing accepted, where
   * it began). Kept out of moveTo, like the other rare paths: V8 optimises a function after
   * ticks in proportion to its size, and moveTo runs at every step of a drive.
   */
  private stoppedShort(accepted: SolveReport | null, failure: SolveReport | undefined, failureMessage: string | undefined, s: number, solves: number, iterations: number): MoveResult {
    let report: SolveReport;
    if (accepted !== null) report = accepted;
    else {
      // nothing accepted: the state is where the move began; say how it stands there
      report = this.settleHere();
      solves++;
      iterations += report.iterations;
    }
    const status: MoveStatus = report.converged && report.atLimit.length > 0 && (failure?.atLimit.length ?? 0) > 0 ? 'limit' : 'failed';
    const message = status === 'limit'
      ? `${report.atLimit.join(', ')} at ${report.atLimit.length > 1 ? 'their limits' : 'its limit'}`
      : failureMessage ?? failure?.message ?? 'constraints do not hold';
    return {
      status, report, values: Array.from(this.currentValues), fraction: s, solves, iterations, message,
      ...(failure !== undefined ? { failure } : {}),
    };
  }

  /** Back to the last accepted state and its values (a refused sub-step). */
  private backOff(): void {
    this.system.restore(this.current);
    this.setValues(Array.from(this.currentValues));
  }

  /** A move that accepted nothing: the solve where it began, taken as the current state. */
  private settleHere(): SolveReport {
    const report = this.correct();
    this.current = this.system.snapshot();
    if (this.chart !== null) {
      if (this.currentCoords.length !== this.current.length) this.currentCoords = new Float64Array(this.current.length);
      this.chart.place(this.system, this.current, this.currentCoords, this.past);
    }
    return report;
  }

  /** The system's state copied into `into` when it has the state's length, else into a new array (system.snapshot()). */
  private copyState(into: Float64Array | null): Float64Array {
    const used = this.system.snapshotLength;
    if (into === null || into.length !== used) return this.system.snapshot();
    const state = this.system.state;
    for (let i = 0; i < used; i++) into[i] = state[i]; // (a subarray to copy from is an allocation a step)
    return into;
  }
}

/**
 * The branch guard: whether the state (where the corrector landed) lies farther from
 * `predicted` than half the predicted motion from `last`, each the largest over the moving
 * parts of position gap plus turn × length scale (largestMotion's measure, in one pass and
 * with square roots for Math.hypot: the guard runs every sub-step).
 */
function landsFar(system: System, last: Float64Array, predicted: Float64Array): boolean {
  const state = system.state, L = system.lengthScale;
  let jump = 0, motion = 0;
  // an indexed loop, not for-of: the iterator's code was a sixth of this function's compile
  // (3.4 -> 2.8 MB of TurboFan's zone), one of those in a fresh process's second drive
  const variables = system.variables;
  for (let i = 0; i < variables.length; i++) {
    const v = variables[i];
    if (v.fixed || v.kind !== 'pose') continue;
    const o = v.offset;
    jump = Math.max(jump, poseGap(predicted, state, o, L));
    motion = Math.max(motion, poseGap(last, predicted, o, L));
  }
  return jump > 0.5 * motion + 1e-9 * L;
}
/** |position gap| + angle between the turns × L of the poses at offset o of two states (kernel/pose.ts poseDistance). */
function poseGap(a: Float64Array, b: Float64Array, o: number, L: number): number {
  const dx = a[o] - b[o], dy = a[o + 1] - b[o + 1], dz = a[o + 2] - b[o + 2];
  // the turn from a to b: conj(q_a) · q_b (quat.ts angleBetween)
  const aw = a[o + 3], ax = -a[o + 4], ay = -a[o + 5], az = -a[o + 6];
  const bw = b[o + 3], bx = b[o + 4], by = b[o + 5], bz = b[o + 6];
  const w = aw * bw - ax * bx - ay * by - az * bz;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  return Math.sqrt(dx * dx + dy * dy + dz * dz) + 2 * Math.atan2(Math.sqrt(x * x + y * y + z * z), Math.abs(w)) * L;
}

/**
 * How far along the secant the next values lie: (next − last) / (last − before), the same
 * for every value; null when they did not move in proportion (no secant then).
 */
export function secantRatio(before: ArrayLike<number>, last: ArrayLike<number>, next: ArrayLike<number>): number | null {
  let ratio: number | null = null;
  for (let k = 0; k < last.length; k++) {
    const step = last[k] - before[k], ahead = next[k] - last[k];
    if (step === 0) { if (ahead !== 0) return null; continue; }
    const r = ahead / step;
    if (ratio === null) ratio = r;
    else if (Math.abs(r - ratio) > 1e-9 * Math.max(1, Math.abs(ratio))) return null;
  }
  return ratio;
}

/**
 * Writes into the system's state the point `ratio` of the way further along the secant
 * from `before` to `last`: each pose moved on by the same body twist scaled
 * (last ∘ exp(r·log(before⁻¹ ∘ last))), each scalar linearly. Fixed variables stay.
 */
export function secantStep(system: System, before: Float64Array, last: Float64Array, ratio: number): void {
  const state = system.state;
  for (const v of system.variables) {
    if (v.fixed) continue;
    const o = v.offset;
    if (v.kind === 'pose') {
      for (let i = 0; i < 7; i++) { scratchBefore[i] = before[o + i]; scratchLast[i] = last[o + i]; }
      P.invert(scratchPose, scratchBefore);
      P.compose(scratchRel, scratchPose, scratchLast);
      P.log(scratchTwist, scratchRel);
      for (let j = 0; j < 6; j++) scratchTwist[j] *= ratio;
      P.retract(state, last, scratchTwist, o, o, 0);
    } else {
      state[o] = last[o] + ratio * (last[o] - before[o]);
    }
  }
}
/** The highest predictor degree a continuation takes. */
export const MAX_PREDICTOR_ORDER = 6;
const predictorNodes = new Float64Array(MAX_PREDICTOR_ORDER + 1);
const predictorWeights = new Float64Array(MAX_PREDICTOR_ORDER + 1);
/**
 * The Lagrange weights w[1..k] at ρ of the nodes (the last state at nodes[0] = 0, the
 * past ones at nodes[1..k]): the prediction is x₀ + Σ wᵢ (xᵢ − x₀).
 */
function lagrangeWeights(k: number, nodes: Float64Array, rho: number): Float64Array {
  const w = predictorWeights;
  for (let i = 1; i <= k; i++) {
    let wi = 1;
    for (let j = 0; j <= k; j++) if (j !== i) wi *= (rho - nodes[j]) / (nodes[i] - nodes[j]);
    w[i] = wi;
  }
  return w;
}
/**
 * The prediction through the last state and past[0..k) (nodes in predictorNodes) at `ratio`:
 * the secant (k = 1, or no chart) or the chart's polynomial. A helper: the secant runs only at a
 * drive's second step, and its call, new feedback at a second drive, would set V8's count
 * towards optimising moveTo back to zero there (this helper's count instead).
 */
function extrapolate(system: System, chart: PredictorChart | null, current: Float64Array, coords: Float64Array, past: readonly Accepted[], k: number, ratio: number): void {
  if (k === 1 || chart === null) secantStep(system, past[0].state, current, ratio);
  else chart.predict(system, current, coords, past, k, lagrangeWeights(k, predictorNodes, ratio));
}
/**
 * moveTo calls the caller's functions through these: a drive makes new ones for every
 * drive, and the first call of a second one changes the call's feedback (one function to
 * a family of closures). Here, that change sets back to zero V8's count towards optimising
 * this helper, which the first drives' moveTo inlines, and not moveTo's own (a third of
 * it, at the second drive of a fresh process: docs/solver-warm-up.md).
 */
function setThrough(setValues: (values: readonly number[]) => void, values: readonly number[]): void {
  setValues(values);
}
function correctThrough(correct: () => SolveReport): SolveReport {
  return correct();
}
/** A moveTo's targets of the wrong count. */
function targetsError(count: number, n: number): ArgumentError {
  return new ArgumentError('targets', `${count} targets for ${n} driven values`, `continuation: ${count} targets for ${n} driven values`);
}
/** Why a move gave up: its budget of solves spent. */
function gaveUpAfter(solves: number): string {
  return `gave up after ${solves} solves (the most one move may take)`;
}
/**
 * failedAt after the sub-step from s to next was refused: next, when a limit that did not
 * bind at the last accepted state stopped it or the sub-step was already 2⁻¹⁰ of the
 * nominal; else as it was.
 */
function refusedAt(trial: SolveReport, atLimitHere: readonly string[], s: number, next: number, fullStep: number, failedAt: number): number {
  const newlyBinds = !trial.converged && trial.atLimit.some((name) => !atLimitHere.includes(name));
  return newlyBinds || next - s <= fullStep / 1024 ? next : failedAt;
}
/** An accepted state kept for the predictor: the state, its driven values, its chart coordinates (order ≥ 2). */
interface Accepted { state: Float64Array; values: Float64Array; coords: Float64Array }
const NO_NAMES: readonly string[] = [];
const scratchPose = new Float64Array(7), scratchRel = new Float64Array(7), scratchTwist = new Float64Array(6);
const scratchBefore = new Float64Array(7), scratchLast = new Float64Array(7);
