/**
 * Time integration of a constrained multibody System (knowing nothing of mates):
 *
 *     M v̇ + g(v) + Φ_qᵀ λ = Q(q, v, t),   Φ(q, t) = 0,
 *
 * v the tangent velocities (a pose's body-frame twist (ω, v), a scalar's rate), M the
 * constant body-frame mass blocks (kernel/mass.ts), g the gyroscopic force, Q the force
 * blocks (kernel/forces.ts), Φ the enabled constraint and driver rows (holds and motions,
 * kernel/motion.ts). Units are whatever the caller uses consistently (src/mechanics: t, mm, s, N).
 *
 * The parts, each in its own file of kernel/integrator/:
 * - scheme.ts: the TimeScheme interface, one class per method (MATH.md, dynamics.md):
 *   generalized-alpha.ts (index-3 generalized-α on the Lie group, Arnold and Brüls: poses
 *   move by q ∘ exp(h Δq), never by adding to quaternions) and backward-euler.ts;
 * - rows.ts: the constraint rows, their Jacobian and independent subset;
 * - energy.ts: the energy budget, an observer of each accepted step, beside the gradient
 *   hook `onStep` (src/gradients): neither is part of the step's Newton loop;
 * - start.ts: the consistent start's projection metric and acceleration solve; errors.ts: IntegratorError;
 *   options.ts: the options, the start's report and the method's scheme object;
 * - product-group.ts: poses on R³ × SO(3); unchecked.ts: steps accepted without their check (step-end.ts: their end's forces);
 *   extrapolation.ts: a small system's Newton start, v̇ and λ extrapolated through the last steps.
 * Poses step on SE(3) (`lieGroup: 'SE3'`, the default, what src/gradients/run.ts
 * differentiates) or on R³ × SO(3) (`'R3xSO3'`: the translation in world axes, exact for a
 * constant acceleration of a spinning body; kernel/integrator/product-group.ts, docs/dynamics.md).
 * Each step: Newton on (Δq, λ) with the iteration matrix [β'M + γ'(∂g/∂v − C) − K, Φ_qᵀ; Φ_q, 0]
 * (K = ∂Q/∂δ, C = ∂Q/∂v from the force blocks' AD), one LU kept across iterations and steps
 * while Newton contracts fast, refactored when it does not; converged when |Φ| ≤
 * `constraintTolerance` × the model's size and the dynamic residual below 1e-9 of the force scale, checked after
 * each correction but a first one the last check predicts far inside (unchecked.ts). A failed step restores the
 * last good state and is retried as two half steps (at most `maxHalvings` deep); then `step` returns false, state kept.
 *
 * API:
 *   const it = new Integrator(system, forces, bodies, drivers, { method, rhoInf, constraintTolerance });
 *   const start = it.start(t0, v0, specified);  // consistent v, v̇, λ; throws IntegratorError
 *   it.step(h)                                  // true: advanced by h; false: failed (state kept)
 *   it.t, it.v, it.vdot, it.lambda (per row in `rowBlock` order), it.energy(), it.maxResidual()
 * No allocation in `step` after the first one.
 */
import { ArgumentError, InternalError } from '../errors';
import { IntegratorError } from './errors';
import { bodyFromProduct, correctionToProduct, productFromBody, retractMoving, type PoseSlots } from './product-group';
import { ConstraintRows } from './rows';
import { IterationSystem, type IntegratorBody } from './iteration';
import { EnergyAccount, type EnergyBudget } from './energy';
import { UncheckedSteps } from './unchecked';
import { StepEndForces } from './step-end';
import { StartExtrapolation } from './extrapolation';
import { startAccelerations, velocityMetric } from './start';
import type { IntegratorMethod, SchemeCoefficients, TimeScheme } from './scheme';
import { schemeOf, type IntegratorOptions, type StartReport } from './options';
import type { ForceSet } from '../forces';
import type { TimeDriver } from '../motion';
import type { System } from '../system';

export type { IntegratorMethod, SchemeCoefficients, TimeScheme } from './scheme';
export type { EnergyBudget } from './energy';
export type { IntegratorBody } from './iteration';
export { GeneralizedAlpha } from './generalized-alpha';
export { BackwardEuler } from './backward-euler';
export { IntegratorError } from './errors';
export type { IntegratorGroup, IntegratorOptions, StartReport } from './options';

/** Unknowns (tangent slots and rows) up to which an LU costs less than an evaluation of the rows and forces. */
const SMALL_SYSTEM = 16;

/** Newton iterations on a kept matrix after which it is refreshed (while |Φ| contracts by 4 an iteration). */
const REFRESH = 4;

/**
 * A large matrix's (a whole car), whose equilibrated refactor costs ~3.5 iterations on it; also
 * at a step's start after a slower step (a tyre off the road, a rocker turning: mostly still
 * so). Class C road: 5.1 iterations, 0.37 refactors a step (docs/vehicle-dynamics.md, Figures).
 */
const REFRESH_LARGE = 5;

/** An iteration's verdict (Integrator.iterate). */
const GOING = 0, CONVERGED = 1, FAILED = 2;

/** What one step's Newton iterations carry from one to the next (set by Integrator.iterate's first pass). */
class NewtonState {
  /** The |Φ| bound, the last iteration's |Φ| (∞ before the first), the first's error; the active rows. */
  phiBound = 0; previous = Infinity; first = 0; ma = 0;
  afterSlow = false; keepBlock = false;
}

export class Integrator {
  readonly size: number;
  readonly layout: Int32Array;
  /** Block index and row within it of each row; `lambda` is in this order. */
  readonly rowBlock: Int32Array;
  readonly rowInBlock: Int32Array;
  readonly rows: number;
  t = 0;
  readonly v: Float64Array;
  readonly vdot: Float64Array;
  /** Generalized-α's acceleration-like variable. */
  readonly a: Float64Array;
  readonly lambda: Float64Array;
  /** Newton iterations of the last step attempt. */
  iterations = 0;
  /** Called after each accepted step (each half of a halved one too) with its size; `stepStart` holds the state it began from (src/gradients/run.ts). */
  onStep: ((h: number) => void) | null = null;
  /** The method. */
  readonly scheme: TimeScheme;
  /** The energy budget, kept after each accepted step. */
  readonly account: EnergyAccount;
  /** The forces an unchecked step evaluates at its end (step-end.ts; `readAfterStep` names the blocks read between steps). */
  readonly stepEnd = new StepEndForces();

  /** On R³ × SO(3): the scheme's velocity, its rate and a, poses' translation in world axes (v, v̇ follow them in body axes). */
  private readonly eta: Float64Array | null;
  private readonly etaDot: Float64Array | null;
  private readonly etaA: Float64Array | null;
  private readonly savedEta: Float64Array | null;
  private readonly savedEtaDot: Float64Array | null;
  private readonly savedEtaA: Float64Array | null;
  /**
   * v, v̇, a, λ (and η, η̇, η's a) side by side, each of the arrays above a view of it, and its
   * saved copy: a step saves and restores them with one copy, not seven.
   */
  private readonly dynamic: Float64Array;
  private readonly savedDynamic: Float64Array;
  private readonly poses: PoseSlots;
  /**
   * Each moving pose's rotation matrix (a 9-view) at the state bodyFromProduct last saw (iterate)
   * (correctionToProduct's); where the constraint rows read that pose's rotation, their own
   * view (ConstraintRows.claimTurn): the rows then take it as made, not make it again.
   */
  private readonly rotations: Float64Array[];
  private readonly tolPhi: number;
  private readonly tolResidual: number;
  private readonly maxIterations: number;
  private readonly maxHalvings: number;
  private readonly constraints: ConstraintRows;
  private redundant = false;
  /** The Newton iteration's residual, matrix and factors. */
  private readonly lin: IterationSystem;
  private factoredH = -1;
  /** Whether a step's first correction is accepted without its check (unchecked.ts). */
  private readonly unchecked = new UncheckedSteps();
  private readonly newton = new NewtonState();
  /** A small system's start of v̇ and λ from the last steps' (extrapolation.ts; null: held, the scheme's own), and its v̇. */
  private extrapolation: StartExtrapolation | null = null;
  private readonly guess: Float64Array;
  /** The last step was accepted unchecked: an extrapolated small step after it refactors with the kept dynamic block (iteration.ts). */
  private afterUnchecked = false;
  private readonly driverRow: Int32Array;
  /** The moving variables, in system order, and their first tangent slot. */
  private readonly moving: Int32Array;
  private readonly movingSlot: Int32Array;
  /** 1 where a moving variable is a pose; its state offset. */
  private readonly movingPose: Uint8Array;
  private readonly movingOffset: Int32Array;
  /** State offset of every pose variable, fixed ones too (modelSize). */
  private readonly poseOffsets: Int32Array;
  // saved state of the last good step
  private readonly savedState: Float64Array;
  private readonly savedV: Float64Array;
  private readonly savedVdot: Float64Array;
  private readonly savedA: Float64Array;
  private readonly savedLambda: Float64Array;
  /** Scratch: the step's increment h Δq. */
  private readonly increment: Float64Array;
  private readonly version: number;

  constructor(
    readonly system: System,
    readonly forces: ForceSet,
    readonly bodies: readonly IntegratorBody[],
    readonly drivers: readonly TimeDriver[],
    options: IntegratorOptions = {},
  ) {
    this.scheme = schemeOf(options);
    this.tolPhi = options.constraintTolerance ?? 1e-10;
    if (!(this.tolPhi > 0)) throw new ArgumentError('constraintTolerance', `expected a positive number, got ${this.tolPhi}`);
    this.tolResidual = options.residualTolerance ?? 1e-9;
    if (!(this.tolResidual > 0)) throw new ArgumentError('residualTolerance', `expected a positive number, got ${this.tolResidual}`);
    this.maxIterations = options.maxIterations ?? 25;
    this.maxHalvings = options.maxHalvings ?? 6;

    // tangent layout
    const layout = new Int32Array(system.variables.length).fill(-1);
    let n = 0;
    for (const v of system.variables) if (!v.fixed) { layout[v.id] = n; n += v.dim; }
    this.layout = layout;
    this.size = n;
    if (forces.size !== n) throw new InternalError('integrator: the force set and the system disagree on the tangent size');
    const movingVars = system.variables.filter((v) => layout[v.id] >= 0);
    this.moving = Int32Array.from(movingVars, (v) => v.id);
    this.movingSlot = Int32Array.from(movingVars, (v) => layout[v.id]);
    this.movingPose = Uint8Array.from(movingVars, (v) => (v.kind === 'pose' ? 1 : 0));
    this.movingOffset = Int32Array.from(movingVars, (v) => v.offset);
    this.poseOffsets = Int32Array.from(system.variables.filter((v) => v.kind === 'pose'), (v) => v.offset);

    const rows = this.constraints = new ConstraintRows(system, layout, n);
    const m = this.rows = rows.count;
    this.rowBlock = rows.rowBlock;
    this.rowInBlock = rows.rowInBlock;
    const product = (options.lieGroup ?? 'SE3') === 'R3xSO3';
    if (!product && options.lieGroup !== undefined && options.lieGroup !== 'SE3') throw new ArgumentError('lieGroup', `expected SE3 or R3xSO3, got ${options.lieGroup}`);
    const width = (product ? 6 : 3) * n + m;
    this.dynamic = new Float64Array(width);
    this.savedDynamic = new Float64Array(width);
    const view = (all: Float64Array, k: number): Float64Array => all.subarray(k * n, (k + 1) * n);
    [this.v, this.vdot, this.a] = [view(this.dynamic, 0), view(this.dynamic, 1), view(this.dynamic, 2)];
    [this.savedV, this.savedVdot, this.savedA] = [view(this.savedDynamic, 0), view(this.savedDynamic, 1), view(this.savedDynamic, 2)];
    [this.eta, this.etaDot, this.etaA] = [3, 4, 5].map((k) => (product ? view(this.dynamic, k) : null));
    [this.savedEta, this.savedEtaDot, this.savedEtaA] = [3, 4, 5].map((k) => (product ? view(this.savedDynamic, k) : null));
    this.lambda = this.dynamic.subarray(width - m);
    this.savedLambda = this.savedDynamic.subarray(width - m);
    const poseVars = system.variables.filter((v) => v.kind === 'pose' && layout[v.id] >= 0);
    this.poses = { offset: Int32Array.from(poseVars, (v) => v.offset), slot: Int32Array.from(poseVars, (v) => layout[v.id]) };
    this.rotations = poseVars.map((v) => (product ? rows.claimTurn(v.offset + 3) : null) ?? new Float64Array(9));
    const bodySlot = Int32Array.from(bodies.map((b) => layout[b.variable]));
    this.lin = new IterationSystem(n, m, bodies, bodySlot);
    if (product) this.lin.shareTurns({ offsets: Int32Array.from(poseVars, (v) => v.offset + 3), views: this.rotations }); // bodyFromProduct's: the forces read them too

    // time drivers: their row
    this.driverRow = Int32Array.from(drivers, (d) => {
      const row = rows.firstRowOf(d);
      if (row < 0) throw new InternalError(`integrator: time driver ${d.owner} is not an enabled block of the system`);
      return row;
    });

    this.savedState = new Float64Array(system.state.length);
    this.increment = new Float64Array(n);
    this.guess = new Float64Array(n);
    this.account = new EnergyAccount(system, forces, bodies.map((b, i) => ({ M: b.M, slot: bodySlot[i] })), drivers, this.driverRow, n);
    this.version = system.version;
  }

  /** LU factorisations of the iteration matrix so far. */
  get factorisations(): number { return this.lin.factorisations; }

  /** Accumulated energies since start (dissipated per block, external per block and per driver): the account's. */
  get blockDissipated(): Float64Array { return this.account.blockDissipated; }
  get blockExternal(): Float64Array { return this.account.blockExternal; }
  get driverWork(): Float64Array { return this.account.driverWork; }

  /** The state the last accepted step began from (valid inside `onStep`), the scheme's coefficients and the rows the step solved with. */
  stepStart(): { state: Float64Array; v: Float64Array; vdot: Float64Array; a: Float64Array } {
    return { state: this.savedState, v: this.savedV, vdot: this.savedVdot, a: this.savedA };
  }
  coefficients(): SchemeCoefficients { return { ...this.scheme.coefficients }; }
  activeRows(): Int32Array { return this.constraints.active.subarray(0, this.constraints.activeCount); }

  get methodName(): IntegratorMethod { return this.scheme.method; }

  private setTime(t: number): void {
    const drivers = this.drivers;
    for (let k = 0; k < drivers.length; k++) drivers[k].setTime(t);
  }

  /** Largest |Φ| over all rows at the current state (time as last set). */
  maxResidual(): number {
    this.constraints.evaluate(false);
    return this.constraints.maxPhi();
  }

  // ---- consistent start ----

  /**
   * Consistent start at time t0 from the current (solved) positions: picks independent
   * rows, projects `v0` (tangent, length size) onto Φ_q v = −Φ_t keeping the `specified`
   * slots (1) as close as it can, then solves the augmented system for v̇ and λ. The
   * constraints' velocity-curvature term is taken as zero (exact from rest).
   */
  start(t0: number, v0: ArrayLike<number> | null = null, specified: ArrayLike<number> | null = null): StartReport {
    const { system, constraints } = this;
    const n = this.size, m = this.rows;
    this.t = t0;
    this.setTime(t0);
    constraints.evaluate(true);
    constraints.select();
    this.redundant = constraints.activeCount < m;
    const ma = constraints.activeCount;
    const { D, W } = velocityMetric(system, this.layout, n, specified);
    const v = this.v;
    for (let i = 0; i < n; i++) v[i] = v0 ? v0[i] : 0;
    const rate = new Float64Array(m);
    this.drivers.forEach((d, k) => { rate[this.driverRow[k]] = d.rate(); });
    if (!constraints.projectVelocity(v, W, rate)) throw new IntegratorError('the velocity constraints are singular');
    let projection = 0;
    if (v0 && specified) for (let i = 0; i < n; i++) if (specified[i]) projection += D[i] * (v[i] - v0[i]) ** 2;
    // accelerations and multipliers: [M, Jᵀ; J, 0] [v̇; λ] = [Q − g; −Φ_tt]
    const lin = this.lin;
    this.forces.assemble(v, t0, lin.Q, null, null);
    lin.gyro(v);
    startAccelerations({ system, bodies: this.bodies, lin, constraints, drivers: this.drivers, driverRow: this.driverRow }, n, this.vdot, this.a, this.lambda);
    if (this.eta) {
      productFromBody(system.state, this.poses, v, this.vdot, this.eta, this.etaDot!);
      this.etaA!.set(this.etaDot!);
    }
    this.factoredH = -1;
    this.unchecked.reset();
    this.extrapolation = n + ma <= SMALL_SYSTEM && this.eta !== null ? new StartExtrapolation(n, m) : null;
    this.extrapolation?.record(t0, this.etaDot ?? this.vdot, this.lambda);
    // a fixed set of rows: the matrix's nonzeros are fixed too (a redundant set's change with the motion)
    lin.usePattern(n + ma, !this.redundant, this.forces, constraints);
    this.account.reset(this.t, v, this.lambda);
    return { projection: Math.sqrt(projection), redundantRows: m - ma };
  }

  // ---- one step ----

  /**
   * Advance by h (halving on failure), to the time `end` (default t + h): a caller stepping a
   * grid passes t_k = k·h so that t does not gather the round-off of a sum of steps.
   * False: the step failed even halved; the state is the last good one.
   */
  step(h: number, end = this.t + h): boolean {
    if (this.system.version !== this.version) throw new InternalError('integrator: the system changed structure after the integrator was built');
    return this.advance(h, end, 0);
  }

  private advance(h: number, end: number, depth: number): boolean {
    this.save();
    if (this.attempt(h, end)) { this.accepted(h, end); return true; }
    this.restore();
    if (depth >= this.maxHalvings) return false;
    return this.advance(h / 2, this.t + h / 2, depth + 1) && this.advance(h / 2, end, depth + 1);
  }

  /** An accepted step of size h ended at `end`: the time, then the observers (the energy account, the gradient hook). */
  private accepted(h: number, end: number): void {
    this.t = end;
    this.extrapolation?.record(end, this.etaDot ?? this.vdot, this.lambda);
    this.account.afterStep(h, end, this.savedV, this.v, this.lambda);
    this.onStep?.(h);
  }

  private save(): void {
    this.savedState.set(this.system.state);
    this.savedDynamic.set(this.dynamic);
  }

  private restore(): void {
    this.system.state.set(this.savedState);
    this.dynamic.set(this.savedDynamic);
    this.setTime(this.t);
    this.factoredH = -1;
    this.unchecked.reset();
  }

  /** One step of size h from the saved state, ending at time t1; true when Newton converged. */
  private attempt(h: number, t1: number): boolean {
    // the loop's body a function of its own (the step's start in its first pass): compiled apart
    // from this loop, with no loop here to enter by OSR (docs/vehicle-dynamics.md, Session 17). The drivers' time is
    // set here, where TurboFan's budget inlines setTime with the road table's lookup (Session 18)
    this.setTime(t1);
    for (let it = 0; it < this.maxIterations; it++) {
      const verdict = this.iterate(it, h, t1);
      if (verdict !== GOING) return verdict === CONVERGED;
    }
    return false;
  }

  /** Newton iteration `it` of `attempt` (its state in `newton`): GOING, CONVERGED or FAILED. */
  private iterate(it: number, h: number, t1: number): number {
    const { constraints, scheme, lin, newton } = this;
    const n = this.size, m = this.rows, step = this.increment;
    // the scheme's own variables: on R³ × SO(3) η (v and v̇, in body axes, follow them)
    const v = this.eta ?? this.v, vdot = this.etaDot ?? this.vdot, a = this.etaA ?? this.a;
    // q ← q ∘ exp(step) (retractMoving; else each variable by its group), then on R³ × SO(3) v and v̇ (body axes: what the
    // rows, forces and energies read) from η, η̇ (bodyFromProduct): written out at both places, not in two methods, which
    // fell outside TurboFan's inlining budget for `iterate` and were compiled on their own after the bench's warm-up
    // (docs/vehicle-dynamics.md, Session 18)
    const eta = this.eta, state = this.system.state;
    if (it === 0) { // the step's start: the prediction (here, not in a function of its own: rule 7 of docs/solver-warm-up.md)
      const ma = constraints.activeCount;
      const x = this.extrapolation, guess = x !== null && x.predict(t1, this.guess, this.lambda) ? this.guess : null;
      scheme.predict(h, v, vdot, a, step, n, guess);
      if (eta !== null) { retractMoving(state, this.movingOffset, this.movingSlot, this.movingPose, step); bodyFromProduct(state, this.poses, eta, this.etaDot!, this.v, this.vdot, this.rotations); }
      else this.retractVariables(step);
      scheme.setStep(h);
      newton.phiBound = this.tolPhi * this.modelSize(); newton.previous = Infinity; newton.first = 0; newton.ma = ma;
      newton.afterSlow = lin.large && this.iterations > REFRESH_LARGE;
      newton.keepBlock = guess !== null && this.afterUnchecked && !this.redundant && n + ma <= SMALL_SYSTEM;
      this.afterUnchecked = false;
    }
    const betaP = scheme.betaP, gammaP = scheme.gammaP;
    const tolPhi = newton.phiBound, previous = newton.previous, redundant = this.redundant, large = lin.large;
    let ma = newton.ma, N = n + ma;
    this.iterations = it + 1;
    constraints.evaluate(true, false, this.eta !== null); // on R³ × SO(3) bodyFromProduct made the poses' rotations
    // every row active (none redundant): −Φ and −r/β' go into the correction's right-hand side as their largest are found
    const all = !redundant, rhs = lin.rhs, phiMax = all ? lin.maxPhiTo(constraints.phi, m) : constraints.maxPhi();
    // A small system refactors at every step's start (its LU costs less than an iteration):
    // its rows turn with the motion, and one solve on a fresh matrix converges where one
    // several steps old needed three (even from the extrapolated start: 1e-2 a step of age).
    // With the extrapolated start, a step after an unchecked one keeps the dynamic block (M,
    // gyroscopic, K and C over β') of the step after the last check: its first correction
    // contracts as well (the pendulum's 1e-9…1e-5 either way), the check sees that block at its oldest.
    // Every test made at every iteration (previous is ∞ at the first): one first made after V8 compiled this deoptimised it (rule 3 of docs/solver-warm-up.md).
    const newH = this.factoredH !== h, later = it > 0, stalled = phiMax > 0.25 * previous, small = N <= SMALL_SYSTEM;
    const keepBlock = newton.keepBlock, afterSlow = newton.afterSlow, old = it >= (large ? REFRESH_LARGE : REFRESH);
    const fresh = newH || old || stalled || (!later && (small || afterSlow));
    // a large matrix's K and C (costliest) once the check failed (it often converges), new for a new h or a stall alone (iteration.ts)
    const deferred = fresh && later && large, derivatives = newH || stalled || (small && !(!later && keepBlock));
    if (fresh && redundant) { constraints.select(); ma = newton.ma = constraints.activeCount; N = n + ma; }
    const scale = lin.residual(this.forces, fresh && !deferred, this.v, this.vdot, this.lambda, constraints, t1, N, gammaP / betaP, derivatives);
    // a deferred matrix may assemble r again (K and C's passes): its −r/β' is written again after it (refreshMatrix)
    const rMax = all ? lin.maxResidualTo(betaP) : lin.maxResidual();
    if (!(rMax < Infinity) || !(phiMax < Infinity)) return FAILED;
    const tolR = this.tolResidual * scale, error = Math.max(phiMax / tolPhi, rMax / tolR);
    if (it === 1) this.unchecked.observe(newton.first, error);
    const phiMet = phiMax <= tolPhi, rMet = rMax <= tolR;
    if (later && phiMet && rMet) { this.unchecked.checked(); return CONVERGED; }
    if (!later) newton.first = error;
    newton.previous = phiMax;
    // J itself is never scattered: a matrix's rows are written from the blocks' (a large one's
    // compact list, ConstraintRows.writeActiveEntries; a small one's addToMatrix), select scatters its own, Jᵀλ reads the blocks'
    if (fresh && !this.refreshMatrix(h, t1, N, deferred, derivatives)) return FAILED;
    if (!all) this.redundantRhs(ma);
    lin.solve(rhs);
    const lambda = this.lambda, active = constraints.active, aP = scheme.aP;
    if (ma === m) for (let k = 0; k < ma; k++) lambda[k] += rhs[n + k] * betaP;
    else for (let k = 0; k < ma; k++) lambda[active[k]] += rhs[n + k] * betaP;
    if (this.eta) correctionToProduct(this.poses, this.rotations, rhs);
    // the scheme's variables follow the correction (TimeScheme's ratios; not in a helper: the loops' passes are what
    // count towards V8 optimising this), and q_{n+1} = q_n ∘ exp(h Δq_n) exactly, with h Δq_n corrected by the step
    // (its tangent operator T(h Δq_n) ≈ 1 in the iteration matrix only: the fixed point is the scheme's)
    for (let i = 0; i < n; i++) {
      const dx = rhs[i];
      v[i] += gammaP * dx;
      vdot[i] += betaP * dx;
      a[i] += aP * dx;
      step[i] += dx;
    }
    state.set(this.savedState);
    if (eta !== null) { retractMoving(state, this.movingOffset, this.movingSlot, this.movingPose, step); bodyFromProduct(state, this.poses, eta, this.etaDot!, this.v, this.vdot, this.rotations); }
    else this.retractVariables(step);
    if (!later && this.unchecked.accept(newton.first)) {
      // no check (unchecked.ts); the forces read between steps are evaluated at its end (step-end.ts)
      this.stepEnd.evaluate(this.forces, this.v, t1, lin.Q, this.onStep !== null || large);
      this.afterUnchecked = true;
      return CONVERGED;
    }
    return GOING;
  }

  /**
   * The iteration matrix of size N refactored (a deferred one assembled first, and its −r/β'
   * written): false when singular. Out of `iterate`, which runs it at a few iterations in ten.
   */
  private refreshMatrix(h: number, t1: number, N: number, deferred: boolean, derivatives: boolean): boolean {
    const { lin, scheme, constraints } = this, betaP = scheme.betaP, gammaP = scheme.gammaP;
    if (deferred) lin.deferredMatrix(this.forces, derivatives, this.v, this.vdot, this.lambda, constraints, t1, N, gammaP / betaP);
    if (!lin.factor(N, betaP, gammaP, constraints)) { this.factoredH = -1; return false; }
    this.factoredH = h;
    if (deferred && !this.redundant) lin.rhsFromResidual(betaP);
    return true;
  }

  /** With redundant rows: the correction's right-hand side, −r/β' and the active rows' −Φ. */
  private redundantRhs(ma: number): void {
    const rhs = this.lin.rhs, n = this.size, active = this.constraints.active, phi = this.constraints.phi;
    this.lin.rhsFromResidual(this.scheme.betaP);
    for (let k = 0; k < ma; k++) rhs[n + k] = -phi[active[k]];
  }

  /** The model's size for the constraint bound: its length scale or, when larger, the farthest part origin (fixed parts too). */
  private modelSize(): number {
    const s = this.system.state, offsets = this.poseOffsets;
    let r = this.system.lengthScale;
    for (let k = 0; k < offsets.length; k++) {
      const o = offsets[k];
      r = Math.max(r, Math.abs(s[o]), Math.abs(s[o + 1]), Math.abs(s[o + 2]));
    }
    return r;
  }

  /** q ← q ∘ exp(step) for every moving variable, each by its own group (step in tangent order): the layout without R³ × SO(3). */
  private retractVariables(step: Float64Array): void {
    const { system, moving, movingSlot } = this, variables = system.variables;
    for (let k = 0; k < moving.length; k++) system.retractVariable(variables[moving[k]], step, movingSlot[k]);
  }

  // ---- energy ----

  /** Kinetic energy of every body. */
  kinetic(): number {
    return this.account.kinetic(this.v);
  }

  /** Stored energy of force block i at the current state. */
  blockPotential(i: number): number {
    return this.account.blockPotential(i, this.t);
  }

  /** The energy budget at the current state. */
  energy(): EnergyBudget {
    return this.account.budget(this.t, this.v);
  }
}
