/**
 * The live solve: one request (a document, maybe a pull) in, one frame (poses,
 * coordinates, the report, the reach of a pull, the analysis) out. It keeps the solved
 * state warm between requests, so every frame starts where the last good one ended.
 *
 * Requests and frames are plain data; the engine keeps everything else (the model, the
 * warm state). It runs in-process behind {@link LiveModel}, and would run unchanged
 * behind a Web Worker's message handler: nothing here touches the scheduling.
 *
 * How a request is solved:
 * - Same document as the last request: the model stays; the solve starts from the
 *   current (last good) state.
 * - A new document: the model is rebuilt, and the solved state carried over by name:
 *   each movable part's pose by part name, each coordinate's value by coordinate name
 *   (a part or coordinate that is new starts where the document puts it, measured at
 *   the carried poses). A held coordinate whose document value changed is driven there
 *   from where it stood in sub-steps (at most 10° or 5% of the model's size each), so a
 *   big edit of a driver does not jump to another branch. A free coordinate whose
 *   document value changed is placed there, as a starting value.
 * - A pull (the ranked objective of `kernel/solver/solve.ts`: the grabbed point toward the
 *   target, the linkage moving the least it must) is taken in sub-steps from the
 *   previous target of the same drag (at most 5% of the model's size each, at most 20).
 *   The pull's own solve keeps its iterates feasible by restoring the constraints after
 *   every trial step; it runs with a loose constraint tolerance ({@link PULL_TOLERANCE}),
 *   and one plain solve (min-norm Newton) then closes the constraints to the live
 *   tolerance. Restoring each trial step to full precision is wasted on steps the next
 *   one moves on from: on the double-wishbone axle the loose restores save about a
 *   quarter of the frame (2.4 against 3.1 ms of CPU, measured), and the end state is as
 *   exact (the pull's own convergence test is on its step, 1e-10 of the length scale).
 * - A pull that cannot bring its point to the target (past the reach of the linkage, or
 *   off the path of a point with fewer than three freedoms) stops at the nearest place
 *   it can reach: the frame is good (the constraints hold) and says so with
 *   `reach.status = 'limited'` and the remaining distance.
 * - A failure (the constraints do not close) restores the state from before the request
 *   and returns a frame with `good: false`: the last good state stays the warm start.
 */
import { solve, type SolveReport } from '../../kernel/solver/solve';
import * as P from '../../kernel/pose';
import { Continuation } from '../../kernel/continuation';
import { buildModel, type Model } from '../model/build.ts';
import { resultOf, type SolveResult } from '../model/operations.ts';
import { coordinatesOfMate, isCoupling, type AssemblyDoc, type PoseDoc } from '../assembly/types.ts';
import { compileDocument, LiveEditError, type CompiledDocument, type LiveDocument } from './document.ts';

/** Constraint tolerance (relative to the model's length scale) of the pull's own solve; see the module comment. */
export const PULL_TOLERANCE = 1e-6;
/** Largest target move of one pull sub-step, relative to the model's length scale. */
export const PULL_SUBSTEP = 0.05;
/** Most sub-steps of one pull. */
export const PULL_MAX_SUBSTEPS = 20;
/** A pull whose point ends farther than this (relative to the length scale) from its target is `limited`. */
export const REACH_TOLERANCE = 1e-6;

/** A point of a movable part pulled toward a world target (model units: mm). */
export interface PullRequest {
  /** Identifies the drag: sub-steps start from the previous target of the same drag. */
  readonly dragId: number;
  readonly part: string;
  /** The grabbed point in the part's own frame. */
  readonly point: readonly [number, number, number];
  /** Where it is pulled, in world coordinates. */
  readonly target: readonly [number, number, number];
}

/**
 * The solved state by name, as the engine carries it across rebuilds: movable parts'
 * poses (`[x, y, z, w, qx, qy, qz]`) and coordinate values in the document's units.
 */
export interface WarmState {
  readonly poses: Readonly<Record<string, readonly number[]>>;
  readonly coordinates: Readonly<Record<string, number>>;
}

/** One thing to solve. */
export interface SolveRequest {
  /** Increases with every request; frames carry it back. */
  readonly seq: number;
  readonly document: LiveDocument;
  /**
   * The document's version (a number that changes whenever the document does). When given,
   * it, not the document object, says whether this is the document of the last request:
   * a document that crossed a worker (structured clone: a new object every time) is then
   * still recognised, and the model stays warm.
   */
  readonly version?: number;
  readonly pull: PullRequest | null;
  /** Start from this state instead of the current one (a cancelled pull returns to its start). */
  readonly seed?: WarmState;
  /**
   * The pull with this `dragId` was cancelled: start from the state the engine had when
   * that drag began (what `seed` says in-process, for a caller that does not hold the
   * state: a page whose engine runs in a worker). Ignored for any other drag.
   */
  readonly cancelledDrag?: number;
  /** Start from the document's own state: nothing carried from earlier solves (a Reset). */
  readonly fresh?: boolean;
  /**
   * Whether a failure names its minimal conflicting set of mates (one solve per mate:
   * off the drag path). During drags only the failing mates are named.
   */
  readonly diagnose: boolean;
}

/** Where a pull left its point. */
export interface ReachReport {
  readonly part: string;
  readonly point: readonly [number, number, number];
  readonly target: readonly [number, number, number];
  /** Where the point is (world). */
  readonly reached: [number, number, number];
  /** |target − reached| (model length unit). */
  readonly remaining: number;
  /** `full` when the point reached its target, `limited` when it stopped short (see the module comment). */
  readonly status: 'full' | 'limited';
}

/** The engine's answer to one request. */
export interface LiveFrame<A = undefined> {
  readonly seq: number;
  readonly document: LiveDocument;
  /** The checked assembly the model was built from. */
  readonly assembly: AssemblyDoc;
  /** True when the constraints hold: this frame may replace the last good state. */
  readonly good: boolean;
  /**
   * The solve in the form of `solveModel`: status, iterations, largest residual, DOF,
   * redundant mates, conflicting ones (when diagnosed), coordinates at a limit, the
   * state (movable parts' poses and coordinates, document units), failed mates and message.
   */
  readonly result: SolveResult;
  /** Every part's pose (fixed ones included), world. For a failed frame, where the solve stopped. */
  readonly poses: Readonly<Record<string, P.PoseJSON>>;
  /** Every coordinate's value, document units. */
  readonly coordinates: Readonly<Record<string, number>>;
  /** The state to carry: for a good frame, what the next one starts from. */
  readonly warm: WarmState;
  /** The pull's outcome, when the request had one. */
  readonly reach: ReachReport | null;
  /** True when the model was rebuilt for a new document. */
  readonly rebuilt: boolean;
  /** Wall time of the solve (rebuild, sub-steps, DOF), ms; the analysis not included. */
  readonly solveMs: number;
  /** The analysis of a good frame (undefined without an analysis or when it threw). */
  readonly analysis: A | undefined;
  readonly analysisMs: number;
  /** The analysis's exception message, when it threw. */
  readonly analysisError?: string;
}

/** The analysis hook: called with the model at the solved state after every good solve. */
export type Analyze<A> = (model: Model, solved: SolveResult) => A;

export interface LiveEngineOptions<A> {
  readonly analyze?: Analyze<A>;
  /** Turns a document into its checked assembly (default {@link compileDocument}); a cache goes here. */
  readonly compile?: (document: LiveDocument) => CompiledDocument;
}

interface Current {
  readonly document: LiveDocument;
  readonly version: number | undefined;
  readonly assembly: AssemblyDoc;
  readonly model: Model;
}

interface HeldTarget {
  readonly variable: number;
  readonly from: number;
  readonly to: number;
  readonly maxStep: number;
}

/** Solves live requests against a warm model (see the module comment). */
export class LiveEngine<A = undefined> {
  private readonly analyze: Analyze<A> | undefined;
  private readonly compile: (document: LiveDocument) => CompiledDocument;
  private current: Current | null = null;
  private warm: WarmState | null = null;
  /** The last good target of the drag in progress, where its next sub-steps start. */
  private pullTrack: { readonly dragId: number; readonly part: string; readonly target: readonly number[] } | null = null;
  /** The state when the newest drag began (for `cancelledDrag`). */
  private dragStart: { readonly dragId: number; readonly warm: WarmState | null } | null = null;

  constructor(options: LiveEngineOptions<A> = {}) {
    this.analyze = options.analyze;
    this.compile = options.compile ?? compileDocument;
  }

  /** The model of the last request (at the last good state between requests); null before the first. */
  get model(): Model | null {
    return this.current?.model ?? null;
  }

  /** The last good state by name; null before the first good solve. */
  get warmState(): WarmState | null {
    return this.warm;
  }

  /**
   * Solves one request. Never throws for a numerical failure (that is a frame with
   * `good: false`); throws for a document that does not compile or build, or a pull of
   * a part the model does not have as a movable part.
   */
  solve(request: SolveRequest): LiveFrame<A> {
    const started = performance.now();
    let rebuilt = false;
    let held: HeldTarget[] = [];
    if (request.fresh === true) {
      this.current = null;
      this.warm = null;
      this.pullTrack = null;
    }
    if (request.pull !== null && this.dragStart?.dragId !== request.pull.dragId) this.dragStart = { dragId: request.pull.dragId, warm: this.warm };
    const cancelled = request.cancelledDrag !== undefined && this.dragStart?.dragId === request.cancelledDrag ? this.dragStart.warm ?? undefined : undefined;
    const seed = request.seed ?? cancelled;
    if (this.current === null || !sameDocument(this.current, request)) {
      const { assembly } = this.compile(request.document);
      const previous = this.current?.assembly ?? null;
      const seeded = seedAssembly(assembly, previous, seed ?? this.warm);
      const model = buildModel(seeded.doc);
      held = heldTargets(model, seeded.targets);
      this.current = { document: request.document, version: request.version, assembly, model };
      rebuilt = true;
    } else if (seed !== undefined) {
      applySeed(this.current.model, this.current.assembly, seed);
    }
    const { model, assembly } = this.current;
    const { system } = model;
    const before = system.snapshot();

    let report = held.length > 0 ? driveHeld(model, held) : null;
    let reach: ReachReport | null = null;
    if (report === null || report.converged) {
      if (request.pull !== null) {
        const pulled = this.pull(model, request.pull);
        report = pulled.report;
        reach = pulled.reach;
      } else {
        report = mergeReports(report, closeConstraints(model));
      }
    }

    const good = report.converged;
    const result = resultOf(model, report, { diagnose: request.diagnose && !good, tolerance: liveTolerance(model.system.lengthScale) });
    if (!report.converged) result.message ??= 'constraints do not hold';
    const poses = posesOf(model);
    const coordinates = coordinatesOf(result);
    const warm = good ? warmOf(model, coordinates) : (this.warm ?? warmOf(model, coordinates));
    const solveMs = performance.now() - started;

    let analysis: A | undefined;
    let analysisError: string | undefined;
    let analysisMs = 0;
    if (good) {
      this.warm = warm;
      this.pullTrack = request.pull === null ? null : { dragId: request.pull.dragId, part: request.pull.part, target: request.pull.target };
      if (this.analyze !== undefined) {
        const t = performance.now();
        try {
          analysis = this.analyze(model, result);
        } catch (error) {
          analysisError = error instanceof Error ? error.message : String(error);
        }
        analysisMs = performance.now() - t;
      }
    } else {
      system.restore(before);
    }
    const frame: LiveFrame<A> = {
      seq: request.seq,
      document: request.document,
      assembly,
      good,
      result,
      poses,
      coordinates,
      warm,
      reach,
      rebuilt,
      solveMs,
      analysis,
      analysisMs,
      ...(analysisError !== undefined ? { analysisError } : {}),
    };
    return frame;
  }

  /** The pull in sub-steps, each closed to the live tolerance; see the module comment. */
  private pull(model: Model, pull: PullRequest): { report: SolveReport; reach: ReachReport } {
    const { system } = model;
    const variable = model.parts.get(pull.part);
    if (variable === undefined || system.variables[variable].fixed) {
      throw new LiveEditError('pull', `"${pull.part}" is not a movable part of this model`);
    }
    const L = system.lengthScale;
    const point = pull.point;
    const here = P.applyPoint(new Float64Array(3), system.getPose(variable), point);
    const track = this.pullTrack;
    const start = track !== null && track.dragId === pull.dragId && track.part === pull.part ? track.target : here;
    const distance = Math.hypot(pull.target[0] - start[0], pull.target[1] - start[1], pull.target[2] - start[2]);
    const steps = Math.max(1, Math.min(PULL_MAX_SUBSTEPS, Math.ceil(distance / (PULL_SUBSTEP * L))));
    const target = new Float64Array(3);
    const pulls = [{ variable, point, target }];
    // The target moves by one continuation (kernel/continuation.ts); each sub-step is the
    // pull's own solve, then the constraints closed to the live tolerance.
    let pullIterations = 0;
    const path = new Continuation(system, (values) => target.set(values), [start[0], start[1], start[2]], {
      correct: () => {
        pullIterations += solve(system, { pulls, tolerance: PULL_TOLERANCE }).iterations;
        return closeConstraints(model);
      },
      secant: false, branchGuard: false,
    });
    const move = path.moveTo([pull.target[0], pull.target[1], pull.target[2]], { subSteps: steps });
    const report: SolveReport = move.status === 'reached' ? move.report : move.failure ?? move.report;
    const iterations = move.iterations + pullIterations;
    const reached = P.applyPoint(new Float64Array(3), system.getPose(variable), point);
    const remaining = Math.hypot(pull.target[0] - reached[0], pull.target[1] - reached[1], pull.target[2] - reached[2]);
    return {
      report: { ...report, iterations },
      reach: {
        part: pull.part,
        point: pull.point,
        target: pull.target,
        reached: [reached[0], reached[1], reached[2]],
        remaining,
        status: remaining > REACH_TOLERANCE * L ? 'limited' : 'full',
      },
    };
  }
}

/** The request's document is the current one: same version when the request carries one, else the same object. */
function sameDocument(current: Current, request: SolveRequest): boolean {
  if (request.version !== undefined) return current.version === request.version;
  return current.document === request.document;
}

/**
 * The frame as plain data to post across a worker: without the document and the assembly
 * (the page has both; cloning them every frame costs more than the solve on big models).
 */
export function plainFrame<A>(frame: LiveFrame<A>): Omit<LiveFrame<A>, 'document' | 'assembly'> {
  const { document: _document, assembly: _assembly, ...rest } = frame;
  return rest;
}

/**
 * The live tolerance of a plain solve, relative to the length scale: 1e-12, tightened so
 * that the absolute tolerance is at most 1e-10 model units (a converged solve then holds
 * every row to 1e-9), but never below 1e-14 (round-off of the coordinates themselves).
 */
export function liveTolerance(lengthScale: number): number {
  return Math.min(1e-12, Math.max(1e-10 / lengthScale, 1e-14));
}

/** Closes the constraints where the state stands (min-norm Newton, the live tolerance). */
function closeConstraints(model: Model): SolveReport {
  return solve(model.system, { tolerance: liveTolerance(model.system.lengthScale) });
}

function mergeReports(first: SolveReport | null, second: SolveReport): SolveReport {
  if (first === null) return second;
  return { ...second, iterations: first.iterations + second.iterations };
}

/**
 * Drives held coordinates from where they stood to their document values: one
 * continuation (kernel/continuation.ts) in sub-steps, each closed to the live tolerance;
 * the failed report when it cannot get there (the engine then keeps the last good state).
 */
function driveHeld(model: Model, targets: readonly HeldTarget[]): SolveReport {
  const { system } = model;
  let steps = 1;
  for (const t of targets) steps = Math.max(steps, Math.abs(t.to - t.from) / t.maxStep);
  const path = new Continuation(system, (values) => targets.forEach((t, i) => system.setScalar(t.variable, values[i])),
    targets.map((t) => t.from), { correct: () => closeConstraints(model), secant: false, branchGuard: false });
  const move = path.moveTo(targets.map((t) => t.to), { subSteps: steps });
  if (move.status === 'reached') return { ...move.report, iterations: move.iterations };
  // Held at the values asked for, so a diagnosis finds the mates in conflict there.
  for (const t of targets) system.setScalar(t.variable, t.to);
  return { ...(move.failure ?? move.report), iterations: move.iterations };
}

function posesOf(model: Model): Record<string, P.PoseJSON> {
  const poses: Record<string, P.PoseJSON> = {};
  for (const [name, variable] of model.parts) poses[name] = P.poseToJSON(model.system.getPose(variable));
  return poses;
}

function coordinatesOf(result: SolveResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(result.state)) if (typeof value === 'number') out[key] = value;
  return out;
}

function warmOf(model: Model, coordinates: Readonly<Record<string, number>>): WarmState {
  const poses: Record<string, number[]> = {};
  for (const [name, variable] of model.parts) {
    if (!model.system.variables[variable].fixed) poses[name] = Array.from(model.system.getPose(variable));
  }
  return { poses, coordinates: { ...coordinates } };
}

/**
 * The assembly to build, with the carried state written into its `state`: poses of the
 * movable parts, and coordinate values (see the module comment for which value wins).
 * Returns the held coordinates to drive afterwards, with their document values.
 */
function seedAssembly(
  assembly: AssemblyDoc,
  previous: AssemblyDoc | null,
  warm: WarmState | null,
): { doc: AssemblyDoc; targets: Map<string, number> } {
  const targets = new Map<string, number>();
  if (warm === null) return { doc: assembly, targets };
  const state: Record<string, number | PoseDoc> = { ...assembly.state };
  for (const [name, part] of Object.entries(assembly.parts)) {
    const pose = warm.poses[name];
    if (part.fixed || pose === undefined) continue;
    state[`${name}.pose`] = { position: [pose[0], pose[1], pose[2]], rotation: [pose[3], pose[4], pose[5], pose[6]] };
  }
  const heldNow = new Set(assembly.held);
  for (const [id, mate] of Object.entries(assembly.mates)) {
    if (isCoupling(mate)) continue;
    for (const c of coordinatesOfMate(mate)) {
      const name = `${id}.${c}`;
      const carried = warm.coordinates[name];
      if (carried === undefined) continue; // new: the document's value, or measured at the carried poses
      const value = assembly.state[name];
      const documentValue = typeof value === 'number' ? value : undefined;
      if (heldNow.has(name)) {
        state[name] = carried;
        if (documentValue !== undefined && documentValue !== carried) targets.set(name, documentValue);
      } else {
        const before = previous?.state[name];
        const placed = documentValue !== undefined && documentValue !== before;
        state[name] = placed ? documentValue : carried;
      }
    }
  }
  return { doc: { ...assembly, state }, targets };
}

/** Held coordinates to drive, in the model's internal units, with their sub-step sizes. */
function heldTargets(model: Model, targets: ReadonlyMap<string, number>): HeldTarget[] {
  const out: HeldTarget[] = [];
  const L = model.system.lengthScale;
  for (const [name, value] of targets) {
    const info = model.coordinates.get(name);
    if (info === undefined) continue;
    const factor = info.kind === 'angle' ? model.angleFactor : 1;
    const maxStep = info.kind === 'angle' ? (10 * Math.PI) / 180 : info.kind === 'length' ? 0.05 * L : 0.05;
    out.push({ variable: info.variable, from: model.system.getScalar(info.variable), to: value * factor, maxStep });
  }
  return out;
}

/** Puts a carried state into the current model: poses of movable parts, free coordinates (held ones stay at their document values). */
function applySeed(model: Model, assembly: AssemblyDoc, seed: WarmState): void {
  const { system } = model;
  for (const [name, variable] of model.parts) {
    const pose = seed.poses[name];
    if (!system.variables[variable].fixed && pose !== undefined) system.setPose(variable, pose);
  }
  const held = new Set(assembly.held);
  for (const [name, info] of model.coordinates) {
    const value = seed.coordinates[name];
    if (value === undefined || held.has(name)) continue;
    system.setScalar(info.variable, info.kind === 'angle' ? value * model.angleFactor : value);
  }
}
