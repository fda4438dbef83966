/**
 * A suspension held where its driver is: the live solve of a suspension as a user drags it.
 * Its state is a view (each corner's wheel travel from design, mm, and the rack's travel,
 * mm); the pose is always the linkage solved at that view, so the same document and view
 * give the same numbers.
 *
 * - Driving to a view (`driveTo`): the wheel-travel and rack drivers' targets move from
 *   the last view (or from design) to the new one through the kernel's one continuation
 *   (kernel/continuation.ts), in sub-steps of at most 25 mm of travel and 8 mm of rack. A
 *   view that cannot be reached leaves the last good pose in place.
 * - A pull (`pull`): a point of a moving part toward a world target, with each driver
 *   either free to move (the wheel in bump: its travel; the rack in steer; both in `free`)
 *   or held where it is. The free drivers' targets follow the point by damped
 *   Gauss–Newton on the point's rates (analytic, from the tangent space), each step
 *   re-solved with the drivers as rows through the kernel's continuation (a step that does
 *   not close is halved), and the pull stops where the linkage stops (beyond reach: `limited`). Measured only along `axis`
 *   when one is given (the wheel in bump: z; the rack: y).
 *
 * The document's own holds are released: the view's drivers take their place.
 */
import { solve, type SolveReport } from '../../kernel/solver/solve';
import { freedom, pointRate, tangentSpace } from '../../kernel/analysis';
import { Continuation } from '../../kernel/continuation';
import { choleskySolve } from '../../kernel/linalg';
import * as P from '../../kernel/pose';
import { ScalarTargetBlock, type ResidualBlock, type System } from '../../kernel/system';
import type { AssemblyDoc } from '../assembly/types.ts';
import { renewModel, type Model } from '../model/build.ts';
import { SuspensionModel } from '../suspension/build/model.ts';
import { PointCoordinateBlock } from '../suspension/build/targets.ts';
import type { Vec3Tuple } from '../../kernel/vec3';

export type { SolveReport } from '../../kernel/solver/solve';


/** Where the suspension sits: wheel travel per corner (mm from design) and rack travel (mm). */
export interface SuspensionView {
  readonly travel: readonly number[];
  readonly rack: number;
}

/** What moves in a pull: the wheel (bump: rack held), the rack (steer: wheels held), or both (free). */
export type SuspensionPullMode = 'bump' | 'steer' | 'free';

export interface SuspensionPull {
  readonly part: string;
  /** The grabbed point, in the part's own frame. */
  readonly local: readonly number[];
  /** Where it is pulled (world). */
  readonly target: readonly number[];
  readonly mode: SuspensionPullMode;
  /** For an axle: the one corner whose wheel moves (default: every corner). */
  readonly corner?: number;
  /** A unit world axis: only the distance along it counts. */
  readonly axis?: readonly number[];
}

export interface SuspensionPullOutcome {
  /** The last solve of the pull (null when no step was taken). */
  readonly report: SolveReport | null;
  /** Why the pull could not move the point at all, in words. */
  readonly note?: string;
  /** The solve that stopped the pull short of its target (beyond reach). */
  readonly limitedBy?: SolveReport;
  /** Distance left between the point and the target (model units). */
  readonly remaining: number;
}

/**
 * A suspension model with the document's holds released: whatever drives it brings its own
 * drivers. With `reuse` (a driven model of an earlier version of the document, which is
 * then not used again), a document of the same topology (a moved hardpoint, a shim's
 * thickness) renews that model's numbers in place instead of building it; another
 * topology, or a model that cannot be renewed, is built afresh.
 */
export function drivenSuspension(assembly: AssemblyDoc, reuse?: SuspensionModel | null): SuspensionModel {
  const renewed = reuse ? renewedSuspension(reuse, assembly) : null;
  if (renewed) return renewed;
  const sm = new SuspensionModel(assembly);
  const sys = sm.model.system;
  for (const v of sys.heldVariables()) sys.release(v);
  return sm;
}

/** `old` renewed for `assembly` at its design state (renewModel: the same numbers as a build), or null where it cannot be; `old` is not to be used again either way. */
export function renewedSuspension(old: SuspensionModel, assembly: AssemblyDoc): SuspensionModel | null {
  old.clearDrivers();
  // the old model's holds were released when it was built: it is the build of its document
  // without them, and so is the new one (the view's drivers take the holds' place)
  let model: Model | null = null;
  // a document renewModel cannot take is built afresh by the caller, which reports its problem itself
  try { model = renewModel({ ...old.model, doc: { ...old.model.doc, held: [] } }, { ...assembly, held: [] }); } catch { return null; }
  return model ? new SuspensionModel(assembly, { ...model, doc: assembly }, true) : null;
}

/** Largest view change of one sub-step: wheel travel, rack travel (mm). */
const TRAVEL_STEP = 25;
const RACK_STEP = 8;

/** The live suspension solve (see the module comment). */
export class SuspensionLiveEngine {
  readonly sm: SuspensionModel;
  readonly model: Model;
  private readonly wheel: PointCoordinateBlock[];
  private readonly wheelDesign: number[];
  private readonly rack: ScalarTargetBlock | null;
  private readonly rackDesign: number;
  /** The design state (the model is built there). */
  private readonly designState: Float64Array;
  private lastGood: Float64Array;
  private currentView: SuspensionView;

  /** @param reuse the engine of an earlier version of the document, not used again: its model is renewed in place where the topology is the same (see {@link drivenSuspension}). */
  constructor(assembly: AssemblyDoc, reuse?: SuspensionLiveEngine | null) {
    this.sm = drivenSuspension(assembly, reuse?.sm);
    this.model = this.sm.model;
    const sm = this.sm;
    this.wheel = sm.corners.map((c) => new PointCoordinateBlock(`wheel travel (${c.roles.side})`, [{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }], 2, c.design.wheelCenterZ));
    this.wheelDesign = sm.corners.map((c) => c.design.wheelCenterZ);
    this.rack = sm.rackHold ? new ScalarTargetBlock('rack displacement', sm.steering, sm.rackHold.target, sm.rackHold.scale, 'driver') : null;
    this.rackDesign = sm.rackHold ? sm.rackHold.target : 0;
    const sys = this.model.system;
    this.designState = sys.snapshot();
    this.lastGood = sys.snapshot();
    this.currentView = { travel: sm.corners.map(() => 0), rack: 0 };
  }

  /** The view of the last good pose. */
  get view(): SuspensionView {
    return { travel: [...this.currentView.travel], rack: this.currentView.rack };
  }

  get steered(): boolean {
    return this.rack !== null;
  }

  /** Owner names of the view's own rows (left out of what a failure names). */
  isDriverRow(owner: string): boolean {
    return owner.startsWith('wheel travel') || owner === 'rack displacement';
  }

  /** Drives the linkage to `view`, from the last good view or from design; a failure keeps the last good pose. */
  driveTo(view: SuspensionView, fromDesign = false): SolveReport {
    const sys = this.model.system;
    const from = fromDesign ? { travel: this.currentView.travel.map(() => 0), rack: 0 } : this.currentView;
    if (fromDesign) this.sm.resetToDesign();
    const span = Math.max(0, ...view.travel.map((t, i) => Math.abs(t - (from.travel[i] ?? 0)) / TRAVEL_STEP), Math.abs(view.rack - from.rack) / RACK_STEP);
    const blocks = this.driverBlocks();
    const path = new Continuation(sys, (values) => this.setTargets(values), this.targetsOf(from), {
      correct: () => solveWithBlocks(sys, blocks), secant: false, branchGuard: false,
    });
    const move = path.moveTo(this.targetsOf(view), { subSteps: Math.max(1, Math.ceil(span)) });
    if (move.status === 'reached') {
      this.currentView = { travel: [...view.travel], rack: view.rack };
      this.lastGood = sys.snapshot();
      return { ...move.report, iterations: move.iterations };
    }
    // the last good pose stays (for a new document: its design pose)
    sys.restore(this.lastGood);
    return { ...(move.failure ?? move.report), converged: false, iterations: move.iterations };
  }

  /** Pulls a point of a moving part (see the module comment); the pull starts from `from` (the view the page shows). */
  pull(pull: SuspensionPull, from: SuspensionView): SuspensionPullOutcome & { driven: SolveReport | null } {
    let driven: SolveReport | null = null;
    if (!sameView(this.currentView, from)) {
      driven = this.driveTo(from);
      if (!driven.converged) return { report: driven, remaining: 0, driven };
    }
    const variable = this.model.parts.get(pull.part);
    if (variable === undefined) return { report: driven, remaining: 0, driven };
    const sys = this.model.system;
    this.setTargets(this.targetsOf(this.currentView));
    const basis: BasisItem[] = [];
    const fixed: ResidualBlock[] = [];
    const sm = this.sm;
    const rack = this.rack;
    const wheelItem = (i: number): BasisItem => ({ block: this.wheel[i], rowScale: 1, value: () => sm.pointValue([{ variable: sm.corners[i].upright, local: sm.corners[i].wheelCenterLocal, weight: 1 }])[2] });
    const corners = pull.corner !== undefined ? [pull.corner] : this.wheel.map((_, i) => i);
    if (pull.mode === 'steer' && rack) {
      basis.push({ block: rack, rowScale: rack.scale, value: () => sys.getScalar(sm.steering) });
      fixed.push(...this.wheel);
    } else {
      this.wheel.forEach((_, i) => (corners.includes(i) ? basis.push(wheelItem(i)) : fixed.push(this.wheel[i])));
      if (pull.mode === 'free' && rack) basis.push({ block: rack, rowScale: rack.scale, value: () => sys.getScalar(sm.steering) });
      else if (rack) fixed.push(rack);
    }
    const outcome = pullThrough(sys, basis, fixed, variable, pull.local, pull.target, pull.axis);
    // every accepted step is good: the pose is where the pull got to
    this.currentView = { travel: this.wheel.map((b, i) => b.target - this.wheelDesign[i]), rack: rack ? rack.target - this.rackDesign : 0 };
    this.lastGood = sys.snapshot();
    return { ...outcome, report: outcome.report ?? driven, driven };
  }

  /** Runs `fn` with the view's drivers in the system at the current view's targets (a compliant settle holds them), then takes them out. */
  holdingDrivers<T>(fn: () => T): T {
    const sys = this.model.system;
    const blocks = this.driverBlocks();
    this.setTargets(this.targetsOf(this.currentView));
    for (const b of blocks) sys.addBlock(b);
    try {
      return fn();
    } finally {
      sys.removeBlocks(blocks);
    }
  }

  /** Back to the last good pose (after a failed solve). */
  restoreLastGood(): void {
    this.model.system.restore(this.lastGood);
  }

  /** Runs `read` at the design state, then puts the current state back. */
  atDesign<T>(read: () => T): T {
    const sys = this.model.system;
    const current = sys.snapshot();
    sys.restore(this.designState);
    try {
      return read();
    } finally {
      sys.restore(current);
    }
  }

  /** The local (numerical) degrees of freedom at the current pose, and the redundant rows' owners. */
  freedom(): { dof: number; redundant: string[] } {
    const f = freedom(this.model.system);
    return { dof: f.dof, redundant: [...f.redundant] };
  }

  /** Every part's pose: position, then rotation (w, x, y, z). */
  poses(): Record<string, number[]> {
    const sys = this.model.system;
    const out: Record<string, number[]> = {};
    for (const [name, v] of this.model.parts) out[name] = Array.from(sys.state.subarray(sys.variables[v].offset, sys.variables[v].offset + 7));
    return out;
  }

  private driverBlocks(): ResidualBlock[] {
    return this.rack ? [...this.wheel, this.rack] : [...this.wheel];
  }

  /** The drivers' targets (model units) for a view: each wheel centre's z, then the rack. */
  private targetsOf(view: SuspensionView): number[] {
    const out = this.wheelDesign.map((z, i) => z + (view.travel[i] ?? 0));
    if (this.rack) out.push(this.rackDesign + view.rack);
    return out;
  }

  private setTargets(values: readonly number[]): void {
    this.wheel.forEach((b, i) => { b.target = values[i]; });
    if (this.rack) this.rack.target = values[this.wheel.length];
  }
}

function sameView(a: SuspensionView, b: SuspensionView): boolean {
  return a.rack === b.rack && a.travel.length === b.travel.length && a.travel.every((t, i) => t === b.travel[i]);
}

function solveWithBlocks(system: System, blocks: readonly ResidualBlock[]): SolveReport {
  for (const b of blocks) system.addBlock(b);
  try {
    return solve(system);
  } finally {
    system.removeBlocks(blocks);
  }
}

// ---------------------------------------------------------------- the pull

/** A pull that cannot move the point at all, as the report that stops it (no row fails: the motion is not there). */
function stuckReport(note: string): SolveReport {
  return { status: 'failed', converged: false, iterations: 0, maxResidual: 0, failed: [], atLimit: [], groups: 0, groupsSolved: 0, message: note };
}

interface BasisItem {
  block: ResidualBlock & { target: number };
  /** Row units per unit of value (the row is (value − target) × this). */
  rowScale: number;
  value(): number;
}

const pullTmp = new Float64Array(3);

/**
 * Moves the grabbed point toward the target through the basis (drivers whose targets are
 * free to change), with `fixedBlocks` held: at most four damped Gauss–Newton steps in the
 * basis values, the point's rates from the tangent space, each step moved to through the
 * kernel's continuation (re-solved exactly; halved, then bisected, when it does not close).
 */
function pullThrough(system: System, basis: BasisItem[], fixedBlocks: readonly ResidualBlock[], variable: number, local: readonly number[], target: readonly number[], axis?: readonly number[]): SuspensionPullOutcome {
  const L = system.lengthScale;
  const off = system.variables[variable].offset;
  let report: SolveReport | null = null;
  let lastFailure: SolveReport | null = null;
  // the error the pull reduces: the whole distance, or only its part along the axis
  const error = (): Vec3Tuple => {
    const p = P.applyPoint(pullTmp, system.state, local, off);
    const e: Vec3Tuple = [target[0] - p[0], target[1] - p[1], target[2] - p[2]];
    if (!axis) return e;
    const along = e[0] * axis[0] + e[1] * axis[1] + e[2] * axis[2];
    return [along * axis[0], along * axis[1], along * axis[2]];
  };
  // a note says why the point cannot move from here (a dead point, conflicting drivers):
  // short of the target that is the limit of reach too, whatever the last step did
  const outcome = (note?: string): SuspensionPullOutcome => {
    const e = error();
    const left = Math.hypot(e[0], e[1], e[2]);
    const stop = lastFailure ?? (note ? stuckReport(note) : null);
    return { report, remaining: left, ...(note ? { note } : {}), ...(stop && left > 1e-3 * L ? { limitedBy: stop } : {}) };
  };
  for (const b of basis) b.block.target = b.value();
  const blocks = [...basis.map((b) => b.block), ...fixedBlocks];
  const k = basis.length;
  for (let iter = 0; iter < 4; iter++) {
    const ts = tangentSpace(system, blocks);
    if (ts.status !== 'unique') return outcome(ts.status === 'not_unique' ? 'the dragged motion is not determined here' : 'the drivers conflict here');
    const e = error();
    if (Math.hypot(e[0], e[1], e[2]) < 1e-9 * L) break;
    const V: Float64Array[] = [];
    for (let j = 0; j < k; j++) {
      const rates = ts.rates[j];
      const rate = rates ? Float64Array.from(pointRate(new Float64Array(3), system, ts, rates, variable, local)) : new Float64Array(3);
      if (axis) { const along = rate[0] * axis[0] + rate[1] * axis[1] + rate[2] * axis[2]; rate[0] = along * axis[0]; rate[1] = along * axis[1]; rate[2] = along * axis[2]; }
      V.push(rate);
    }
    // (VᵀV + λI) Δ = Vᵀe, Δ in row units
    const A = new Float64Array(k * k), rhs = new Float64Array(k);
    let trace = 0;
    for (let a = 0; a < k; a++) {
      for (let b = 0; b < k; b++) A[a * k + b] = V[a][0] * V[b][0] + V[a][1] * V[b][1] + V[a][2] * V[b][2];
      rhs[a] = V[a][0] * e[0] + V[a][1] * e[1] + V[a][2] * e[2];
      trace += A[a * k + a];
    }
    if (!(trace > 1e-18)) return outcome('the grabbed point does not move with the mechanism here');
    for (let a = 0; a < k; a++) A[a * k + a] += 1e-9 * trace + 1e-12;
    // SPD after the damping: the kernel's Cholesky (rhs becomes Δ)
    if (!choleskySolve(A, rhs, k)) return outcome('the grabbed point does not move with the mechanism here');
    const delta = rhs;
    // limit the predicted motion of the point per step to a tenth of the model
    let pred = 0;
    for (let i = 0; i < 3; i++) { let s = 0; for (let j = 0; j < k; j++) s += V[j][i] * delta[j]; pred += s * s; }
    pred = Math.sqrt(pred);
    const scale = pred > 0.1 * L ? (0.1 * L) / pred : 1;
    // the step to the new targets goes through the kernel's continuation (halving, then
    // bisection towards where the linkage stops), each sub-step re-solved with the pull's rows
    const base = basis.map((b) => b.value());
    const move = new Continuation(system, (values) => basis.forEach((b, j) => { b.block.target = values[j]; }), base, { correct: () => solveWithBlocks(system, blocks), secant: false });
    const goal = basis.map((b, j) => base[j] + (scale * delta[j]) / b.rowScale);
    const result = move.moveTo(goal);
    if (result.fraction > 0) report = result.report;
    if (result.status !== 'reached') {
      // the bisection's last failure sits at the edge, where little fails; say what fails at the step asked for
      const reached = system.snapshot();
      basis.forEach((b, j) => { b.block.target = goal[j]; });
      const asked = solveWithBlocks(system, blocks);
      system.restore(reached);
      basis.forEach((b, j) => { b.block.target = result.values[j]; });
      lastFailure = !asked.converged ? asked : result.failure ?? result.report;
      return outcome();
    }
    if (scale === 1 && pred < 1e-4 * L) break;
  }
  return outcome();
}

