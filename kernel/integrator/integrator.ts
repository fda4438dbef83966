/**
 * Time integration of a constrained multibody System (knowing nothing of mates):
 *
 *     M v̇ + g(v) + Φ_qᵀ λ = Q(q, v, t),   Φ(q, t) = 0,
 *
 * v the tangent velocities (a pose's body-frame twist (ω, v), a scalar's rate), M the
 * constant body-frame mass blocks (kernel/mass.ts), g the gyroscopic force, Q the force
 * blocks (kernel/forces.ts), Φ the enabled constraint and driver rows (holds and motions,
 * kernel/motion.ts). Units are whatever the caller uses consistently (src/dynamics: t, mm, s, N).
 *
 * Methods (MATH.md, dynamics.md):
 * - `generalized-alpha`: index-3 generalized-α on the Lie group (Arnold and Brüls): poses
 *   move by q ∘ exp(h Δq), never by adding to quaternions; αm = (2ρ∞ − 1)/(ρ∞ + 1),
 *   αf = ρ∞/(ρ∞ + 1), γ = ½ + αf − αm, β = ¼(γ + ½)². ρ∞ = 1: no numerical damping.
 * - `backward-euler`: v_{n+1} = v_n + h v̇_{n+1}, q_{n+1} = q_n ∘ exp(h v_{n+1}) (first order,
 *   numerically damped: for comparison).
 * Poses step on SE(3) (`lieGroup: 'SE3'`, the default, what src/gradients/run.ts
 * differentiates) or on R³ × SO(3) (`'R3xSO3'`: the translation in world axes, exact for a
 * constant acceleration of a spinning body; kernel/integrator/product-group.ts, docs/dynamics.md).
 * Each step: Newton on (Δq, λ) with the iteration matrix [β'M + γ'(∂g/∂v − C) − K, Φ_qᵀ; Φ_q, 0]
 * (K = ∂Q/∂δ, C = ∂Q/∂v from the force blocks' AD), one LU kept across iterations and steps
 * while Newton contracts fast, refactored when it does not; converged when |Φ| ≤
 * `constraintTolerance` × the model's size (see the option) and the dynamic residual is below 1e-9 of the force scale. A failed
 * step restores the last good state and is retried as two half steps (at most `maxHalvings`
 * deep); then `step` returns false with the state untouched — never NaN.
 *
 * Redundant rows (a planar loop of revolutes) are handled by keeping an independent subset,
 * chosen once at `start` by a pivoted QR of Φ_qᵀ; the others get λ = 0 (they stay satisfied
 * because the subset implies them).
 *
 * API:
 *   const it = new Integrator(system, forces, bodies, drivers, { method, rhoInf, constraintTolerance });
 *   const start = it.start(t0, v0, specified);  // consistent v, v̇, λ; throws IntegratorError
 *   it.step(h)                                  // true: advanced by h; false: failed (state kept)
 *   it.t, it.v, it.vdot, it.lambda (per row in `rowBlock` order), it.energy(), it.maxResidual()
 * No allocation in `step` after the first one.
 */
import { KinemateError } from '../errors';
import { PivotedQR, LU, choleskySolve } from '../linalg';
import { CompressedLU } from '../lu-sparse';
import { GravityBlock, gyroscopic, kineticEnergy } from '../mass';
import { bodyFromProduct, correctionToProduct, productFromBody, retractProduct, type PoseSlots } from './product-group';
import type { ForceSet } from '../forces';
import type { TimeDriver } from '../motion';
import type { ResidualBlock, System } from '../system';

export type IntegratorMethod = 'generalized-alpha' | 'backward-euler';
/** The group poses step on: SE(3) (translation in body axes) or R³ × SO(3) (in world axes: kernel/integrator/product-group.ts). */
export type IntegratorGroup = 'SE3' | 'R3xSO3';

export interface IntegratorOptions {
  method?: IntegratorMethod;
  /** Spectral radius at infinite frequency for generalized-α, in [0, 1]; default 0.9. */
  rhoInf?: number;
  /**
   * The Lie group poses step on; default 'SE3' (what the gradients of src/gradients/run.ts
   * differentiate). 'R3xSO3' integrates a body's translation in world axes, exactly for a
   * constant acceleration however the body spins (a disc rolling down an incline).
   */
  lieGroup?: IntegratorGroup;
  /**
   * |Φ| bound of a converged step relative to the model's size: |Φ| ≤ this × max(length
   * scale, largest |part position|) in the rows' unit; default 1e-10. Relative, because the
   * round-off in Φ grows with the coordinates (a model far from the origin, a car that has
   * driven off): an absolute bound there cannot be met and the steps fail.
   */
  constraintTolerance?: number;
  /**
   * Dynamic residual bound of a converged step relative to the force scale (the largest |Q|,
   * |g|, |M v̇|); default 1e-9. Tighter for finite-difference checks of gradients, whose
   * re-runs must follow the discrete map closer than its Newton noise.
   */
  residualTolerance?: number;
  /** Newton iterations per attempt; default 25. */
  maxIterations?: number;
  /** How many times a failed step may be halved; default 6. */
  maxHalvings?: number;
}

export interface IntegratorBody {
  variable: number;
  /** 6×6 body-frame mass matrix in (ω, v) order. */
  M: Float64Array;
}

/** Why a run cannot start (a singular augmented system names the parts). */
export class IntegratorError extends KinemateError {
  override readonly name = 'IntegratorError';
  constructor(message: string) { super('', message); }
}

export interface StartReport {
  /** Size of the correction the velocity projection made to the given (specified) rates, in the scaled metric (a turn rate × length scale). */
  projection: number;
  /** Rows left out as redundant. */
  redundantRows: number;
}

/** The energy budget (the caller's energy unit: t·mm²/s² = mJ for src/dynamics). */
export interface EnergyBudget {
  kinetic: number;
  /** Gravity's potential. */
  potential: number;
  /** Every other element's stored energy. */
  elastic: number;
  /** ∫ damper power dt since start. */
  dissipated: number;
  /** ∫ power of applied loads and time drivers dt since start. */
  external: number;
  /** kinetic + potential + elastic + dissipated − external: constant up to the numerical dissipation. */
  total: number;
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
  /** On R³ × SO(3): the scheme's velocity, its rate and a, poses' translation in world axes (v, v̇ follow them in body axes). */
  private readonly eta: Float64Array | null;
  private readonly etaDot: Float64Array | null;
  private readonly etaA: Float64Array | null;
  private readonly savedEta: Float64Array | null;
  private readonly savedEtaDot: Float64Array | null;
  private readonly savedEtaA: Float64Array | null;
  private readonly poses: PoseSlots;
  readonly lambda: Float64Array;
  /** Newton iterations of the last step attempt; LU factorisations so far. */
  iterations = 0;
  factorisations = 0;
  /** Accumulated energies since start (dissipated per block, external per block and per driver). */
  readonly blockDissipated: Float64Array;
  readonly blockExternal: Float64Array;
  readonly driverWork: Float64Array;
  /** Called after each accepted step (each half of a halved one too) with its size; `stepStart` holds the state it began from (src/gradients/run.ts). */
  onStep: ((h: number) => void) | null = null;

  private readonly method: IntegratorMethod;
  private readonly alphaM: number;
  private readonly alphaF: number;
  private readonly gamma: number;
  private readonly beta: number;
  private readonly c1: number;
  private readonly tolPhi: number;
  private readonly tolResidual: number;
  private readonly maxIterations: number;
  private readonly maxHalvings: number;

  private readonly blocks: Int32Array;
  private readonly blockRow0: Int32Array;
  private readonly blockCols: Int32Array[];
  /** The block each row set is evaluated by (its free-columns twin where it has one). */
  private readonly evalBlocks: ResidualBlock[];
  private readonly active: Int32Array;
  private activeCount = 0;
  private redundant = false;
  private readonly qr: PivotedQR;
  private readonly J: Float64Array;
  private readonly phi: Float64Array;
  private readonly localRes: Float64Array;
  private readonly localJac: Float64Array;
  private readonly Q: Float64Array;
  private readonly K: Float64Array;
  private readonly C: Float64Array;
  private readonly r: Float64Array;
  private readonly G: Float64Array;
  private readonly g6 = new Float64Array(6);
  private readonly G36 = new Float64Array(36);
  private readonly S: Float64Array;
  private readonly rhs: Float64Array;
  private readonly lu: LU;
  /** The iteration matrix's factors without their zeros: the solve every Newton iteration does. */
  private readonly luNonzero: CompressedLU;
  /** Local index (into blocks) of each row's block, for the rows' sparse products. */
  private readonly rowLocalBlock: Int32Array;
  /** Each block's distinct tangent columns (fixed ones left out). */
  private readonly rowColumns: Int32Array[];
  /** The Jacobian scatter of blocks with distinct columns (scatterLists). */
  private readonly scatterStart: Int32Array;
  private readonly scatterTo: Int32Array;
  private readonly scatterFrom: Int32Array;
  /** Each row's nonzero columns (its block's rowColumns), flattened: row k's are rowColumnIndex[rowColumnStart[k] .. rowColumnStart[k + 1]). */
  private readonly rowColumnStart: Int32Array;
  private readonly rowColumnIndex: Int32Array;
  /** Whether a block's tangent columns are all different (1: its Jacobian scatters by assignment). */
  private readonly distinctColumns: Uint8Array;
  private factoredH = -1;
  private readonly bodySlot: Int32Array;
  private readonly driverBlock: Int32Array;
  private readonly driverRow: Int32Array;
  // saved state of the last good step
  private readonly savedState: Float64Array;
  private readonly savedV: Float64Array;
  private readonly savedVdot: Float64Array;
  private readonly savedA: Float64Array;
  private readonly savedLambda: Float64Array;
  private readonly vPrev: Float64Array;
  private readonly vMid: Float64Array;
  private readonly localV: Float64Array;
  private readonly localQ: Float64Array;
  private readonly externalPower: Float64Array;
  private readonly driverPower: Float64Array;
  private readonly prevExternal: Float64Array;
  private readonly prevDriver: Float64Array;
  private readonly driverLambda: Float64Array;
  private readonly driverTarget: Float64Array;
  private readonly externalBlocks: Int32Array;
  private readonly dissipativeBlocks: Int32Array;
  private readonly version: number;

  constructor(
    readonly system: System,
    readonly forces: ForceSet,
    readonly bodies: readonly IntegratorBody[],
    readonly drivers: readonly TimeDriver[],
    options: IntegratorOptions = {},
  ) {
    this.method = options.method ?? 'generalized-alpha';
    const rho = options.rhoInf ?? 0.9;
    if (!(rho >= 0 && rho <= 1)) throw new RangeError(`rhoInf: expected a number in [0, 1], got ${rho}`);
    if (this.method === 'backward-euler') {
      this.alphaM = 0; this.alphaF = 0; this.gamma = 1; this.beta = 1; this.c1 = 0;
    } else {
      this.alphaM = (2 * rho - 1) / (rho + 1);
      this.alphaF = rho / (rho + 1);
      this.gamma = 0.5 + this.alphaF - this.alphaM;
      this.beta = 0.25 * (this.gamma + 0.5) ** 2;
      this.c1 = 0.5 - this.beta;
    }
    this.tolPhi = options.constraintTolerance ?? 1e-10;
    if (!(this.tolPhi > 0)) throw new RangeError(`constraintTolerance: expected a positive number, got ${this.tolPhi}`);
    this.tolResidual = options.residualTolerance ?? 1e-9;
    if (!(this.tolResidual > 0)) throw new RangeError(`residualTolerance: expected a positive number, got ${this.tolResidual}`);
    this.maxIterations = options.maxIterations ?? 25;
    this.maxHalvings = options.maxHalvings ?? 6;

    // tangent layout
    const layout = new Int32Array(system.variables.length).fill(-1);
    let n = 0;
    for (const v of system.variables) if (!v.fixed) { layout[v.id] = n; n += v.dim; }
    this.layout = layout;
    this.size = n;
    if (forces.size !== n) throw new Error('integrator: the force set and the system disagree on the tangent size');

    // rows: enabled constraint and driver blocks
    const blocks: number[] = [], row0: number[] = [], cols: Int32Array[] = [], rb: number[] = [], rib: number[] = [];
    const evalBlocks: ResidualBlock[] = [];
    let m = 0, maxLocal = 1;
    for (let b = 0; b < system.blockCount; b++) {
      const blk = system.block(b);
      if (!system.blockEnabled(b) || blk.kind === 'limit') continue;
      blocks.push(b); row0.push(m);
      // fixed vars' columns are dropped: a block that can leaves them out of its Jacobian (a
      // twin, made even when all are free: twins take a block's faster hand-written rows)
      const free = blk.vars.map((vid) => layout[vid] >= 0);
      const narrow = blk.withFreeColumns?.(free);
      evalBlocks.push(narrow ?? blk);
      const c: number[] = [];
      for (const vid of blk.vars) {
        const v = system.variables[vid];
        if (narrow && layout[vid] < 0) continue;
        for (let k = 0; k < v.dim; k++) c.push(layout[vid] < 0 ? -1 : layout[vid] + k);
      }
      cols.push(Int32Array.from(c));
      maxLocal = Math.max(maxLocal, blk.rows * c.length);
      for (let r = 0; r < blk.rows; r++) { rb.push(b); rib.push(r); }
      m += blk.rows;
    }
    this.blocks = Int32Array.from(blocks);
    this.blockRow0 = Int32Array.from(row0);
    this.blockCols = cols;
    this.evalBlocks = evalBlocks;
    this.rowBlock = Int32Array.from(rb);
    this.rowInBlock = Int32Array.from(rib);
    this.rowColumns = cols.map((c) => Int32Array.from(new Set(Array.from(c).filter((x) => x >= 0))));
    this.distinctColumns = Uint8Array.from(cols, (c, i) => (this.rowColumns[i].length === c.filter((x) => x >= 0).length ? 1 : 0));
    this.rowLocalBlock = new Int32Array(m);
    for (let i = 0; i < blocks.length; i++) for (let r = 0; r < system.block(blocks[i]).rows; r++) this.rowLocalBlock[row0[i] + r] = i;
    ({ start: this.scatterStart, to: this.scatterTo, from: this.scatterFrom } = this.scatterLists());
    this.rowColumnStart = new Int32Array(m + 1);
    for (let row = 0; row < m; row++) this.rowColumnStart[row + 1] = this.rowColumnStart[row] + this.rowColumns[this.rowLocalBlock[row]].length;
    this.rowColumnIndex = new Int32Array(this.rowColumnStart[m]);
    for (let row = 0; row < m; row++) this.rowColumnIndex.set(this.rowColumns[this.rowLocalBlock[row]], this.rowColumnStart[row]);
    this.rows = m;
    this.active = new Int32Array(m);
    this.J = new Float64Array(m * n);
    this.phi = new Float64Array(m);
    this.localRes = new Float64Array(Math.max(1, ...blocks.map((b) => system.block(b).rows)));
    this.localJac = new Float64Array(maxLocal);
    this.Q = new Float64Array(n);
    this.K = new Float64Array(n * n);
    this.C = new Float64Array(n * n);
    this.r = new Float64Array(n);
    this.G = new Float64Array(n);
    const N = n + m;
    this.S = new Float64Array(N * N);
    this.rhs = new Float64Array(N);
    this.lu = new LU(N);
    this.luNonzero = new CompressedLU(N);
    this.qr = new PivotedQR(n, m);
    this.v = new Float64Array(n);
    this.vdot = new Float64Array(n);
    this.a = new Float64Array(n);
    this.lambda = new Float64Array(m);
    const product = (options.lieGroup ?? 'SE3') === 'R3xSO3';
    if (!product && options.lieGroup !== undefined && options.lieGroup !== 'SE3') throw new RangeError(`lieGroup: expected SE3 or R3xSO3, got ${options.lieGroup}`);
    [this.eta, this.etaDot, this.etaA, this.savedEta, this.savedEtaDot, this.savedEtaA] = [0, 1, 2, 3, 4, 5].map(() => (product ? new Float64Array(n) : null));
    const poseVars = system.variables.filter((v) => v.kind === 'pose' && layout[v.id] >= 0);
    this.poses = { offset: Int32Array.from(poseVars, (v) => v.offset), slot: Int32Array.from(poseVars, (v) => layout[v.id]) };
    this.bodySlot = Int32Array.from(bodies.map((b) => layout[b.variable]));

    // time drivers: their block and row
    const dBlock: number[] = [], dRow: number[] = [];
    for (const d of drivers) {
      let found = -1;
      for (let i = 0; i < blocks.length; i++) if (system.block(blocks[i]) === d) found = i;
      if (found < 0) throw new Error(`integrator: time driver ${d.owner} is not an enabled block of the system`);
      dBlock.push(found); dRow.push(row0[found]);
    }
    this.driverBlock = Int32Array.from(dBlock);
    this.driverRow = Int32Array.from(dRow);

    this.savedState = new Float64Array(system.state.length);
    this.savedV = new Float64Array(n);
    this.savedVdot = new Float64Array(n);
    this.savedA = new Float64Array(n);
    this.savedLambda = new Float64Array(m);
    this.vPrev = new Float64Array(n);
    this.vMid = new Float64Array(n);

    // energy bookkeeping: which blocks store, dissipate, or do external work
    let maxBlockDim = 1;
    const ext: number[] = [], dis: number[] = [];
    forces.blocks.forEach((blk, i) => {
      maxBlockDim = Math.max(maxBlockDim, forces.slotsOf(i).length);
      if (blk.dissipation) dis.push(i);
      else if (!blk.potential) ext.push(i);
    });
    this.externalBlocks = Int32Array.from(ext);
    this.dissipativeBlocks = Int32Array.from(dis);
    this.localV = new Float64Array(maxBlockDim);
    this.localQ = new Float64Array(maxBlockDim);
    this.blockDissipated = new Float64Array(forces.blocks.length);
    this.blockExternal = new Float64Array(forces.blocks.length);
    this.externalPower = new Float64Array(forces.blocks.length);
    this.driverWork = new Float64Array(drivers.length);
    this.driverPower = new Float64Array(drivers.length);
    this.prevExternal = new Float64Array(forces.blocks.length);
    this.prevDriver = new Float64Array(drivers.length);
    this.driverLambda = new Float64Array(drivers.length);
    this.driverTarget = new Float64Array(drivers.length);
    this.version = system.version;
  }

  /** The state the last accepted step began from (valid inside `onStep`), the scheme's coefficients and the rows the step solved with. */
  stepStart(): { state: Float64Array; v: Float64Array; vdot: Float64Array; a: Float64Array } {
    return { state: this.savedState, v: this.savedV, vdot: this.savedVdot, a: this.savedA };
  }
  coefficients(): { alphaM: number; alphaF: number; gamma: number; beta: number; c1: number } {
    return { alphaM: this.alphaM, alphaF: this.alphaF, gamma: this.gamma, beta: this.beta, c1: this.c1 };
  }
  activeRows(): Int32Array { return this.active.subarray(0, this.activeCount); }

  get methodName(): IntegratorMethod {
    return this.method;
  }

  // ---- rows ----

  private setTime(t: number): void {
    for (const d of this.drivers) d.setTime(t);
  }

  /** Φ and Φ_q (all rows) at the current state. */
  private evaluateRows(jacobian: boolean): void {
    const { system, J, phi, localRes, localJac } = this;
    const n = this.size;
    const state = system.state;
    for (let i = 0; i < this.blocks.length; i++) {
      const b = this.blocks[i], blk = this.evalBlocks[i];
      blk.evaluate(state, system.blockOffsets(b), localRes, jacobian ? localJac : null);
      const rows = blk.rows, cols = this.blockCols[i], ld = cols.length, r0 = this.blockRow0[i];
      for (let r = 0; r < rows; r++) phi[r0 + r] = localRes[r];
      if (!jacobian) continue;
      // only a block's own columns are ever written (J starts zero); a var listed twice adds up
      if (this.distinctColumns[i]) {
        const to = this.scatterTo, from = this.scatterFrom;
        for (let e = this.scatterStart[i], end = this.scatterStart[i + 1]; e < end; e++) J[to[e]] = 0 + localJac[from[e]];
        continue;
      }
      for (let r = 0; r < rows; r++) {
        const row = (r0 + r) * n;
        for (let k = 0; k < ld; k++) { const c = cols[k]; if (c >= 0) J[row + c] = 0; }
        for (let k = 0; k < ld; k++) { const c = cols[k]; if (c >= 0) J[row + c] += localJac[r * ld + k]; }
      }
    }
  }

  /** For each block with distinct columns, its Jacobian's entries as (index in J, index in the block's own) pairs, row by row. */
  private scatterLists(): { start: Int32Array; to: Int32Array; from: Int32Array } {
    const n = this.size, to: number[] = [], from: number[] = [];
    const start = new Int32Array(this.blocks.length + 1);
    for (let i = 0; i < this.blocks.length; i++) {
      const cols = this.blockCols[i], ld = cols.length, r0 = this.blockRow0[i];
      if (this.distinctColumns[i]) {
        for (let r = 0; r < this.evalBlocks[i].rows; r++) {
          for (let k = 0; k < ld; k++) if (cols[k] >= 0) { to.push((r0 + r) * n + cols[k]); from.push(r * ld + k); }
        }
      }
      start[i + 1] = to.length;
    }
    return { start, to: Int32Array.from(to), from: Int32Array.from(from) };
  }

  /**
   * Independent rows at the current Φ_q: pivoted QR of Φ_qᵀ (n × m column-major = J
   * row-major), kept in row order. Redone whenever the iteration matrix is, for a redundant
   * set: which rows are independent can change along the motion (a slider-crank's dead centre).
   * The λ of a row that leaves the set stays as it was: its force lies in the span of the others.
   */
  private selectRows(): void {
    const n = this.size, m = this.rows;
    if (m === 0 || n === 0) { this.activeCount = 0; return; }
    const ma = this.qr.factor(this.J, n, m, 1e-9);
    const active = this.active, perm = this.qr.perm;
    for (let i = 0; i < ma; i++) {
      // insertion sort into row order (no allocation)
      const row = perm[i];
      let j = i - 1;
      while (j >= 0 && active[j] > row) { active[j + 1] = active[j]; j--; }
      active[j + 1] = row;
    }
    this.activeCount = ma;
  }

  /** Largest |Φ| over all rows at the current state (time as last set). */
  maxResidual(): number {
    this.evaluateRows(false);
    let e = 0;
    for (let i = 0; i < this.rows; i++) e = Math.max(e, Math.abs(this.phi[i]));
    return e;
  }

  /** Moving pose variables without a mass block: the usual reason the augmented system is singular. */
  private masslessNames(): string[] {
    const massive = new Set(this.bodies.filter((b) => b.M[0] + b.M[7] + b.M[14] > 0).map((b) => b.variable));
    const noMass = new Set(this.bodies.filter((b) => !(b.M[21] > 0)).map((b) => b.variable));
    const names: string[] = [];
    for (const v of this.system.variables) {
      if (v.fixed || v.kind !== 'pose') continue;
      if (!this.bodies.some((b) => b.variable === v.id) || noMass.has(v.id)) names.push(`${v.name} (no mass)`);
      else if (!massive.has(v.id)) names.push(`${v.name} (no inertia)`);
    }
    return names;
  }

  // ---- consistent start ----

  /**
   * Consistent start at time t0 from the current (solved) positions: picks independent
   * rows, projects `v0` (tangent, length size) onto Φ_q v = −Φ_t keeping the `specified`
   * slots (1) as close as it can, then solves the augmented system for v̇ and λ. The
   * constraints' velocity-curvature term is taken as zero (exact from rest).
   */
  start(t0: number, v0: ArrayLike<number> | null = null, specified: ArrayLike<number> | null = null): StartReport {
    const { system } = this;
    const n = this.size, m = this.rows, L = system.lengthScale;
    this.t = t0;
    this.setTime(t0);
    this.evaluateRows(true);
    this.selectRows();
    this.redundant = this.activeCount < m;
    const ma = this.activeCount;
    // metric: a turn rate counts as L × it, a scalar's rate as scale × it; specified slots are stiff
    const D = new Float64Array(n);
    for (const v of system.variables) {
      const c0 = this.layout[v.id];
      if (c0 < 0) continue;
      for (let k = 0; k < v.dim; k++) D[c0 + k] = v.kind === 'pose' ? (k < 3 ? L * L : 1) : v.scale * v.scale;
    }
    const v = this.v;
    for (let i = 0; i < n; i++) v[i] = v0 ? v0[i] : 0;
    const W = D.map((d, i) => (specified && specified[i] ? d * 1e10 : d));
    const rate = new Float64Array(m);
    this.drivers.forEach((d, k) => { rate[this.driverRow[k]] = d.rate(); });
    if (ma > 0) {
      // v ← v − W⁻¹ Jᵀ (J W⁻¹ Jᵀ)⁻¹ (J v + Φ_t)
      const A = new Float64Array(ma * ma), e = new Float64Array(ma);
      for (let i = 0; i < ma; i++) {
        const ri = this.active[i] * n;
        let s = rate[this.active[i]];
        for (let c = 0; c < n; c++) s += this.J[ri + c] * v[c];
        e[i] = s;
        for (let j = 0; j < ma; j++) {
          const rj = this.active[j] * n;
          let t = 0;
          for (let c = 0; c < n; c++) t += this.J[ri + c] * this.J[rj + c] / W[c];
          A[i * ma + j] = t;
        }
      }
      if (!choleskySolve(A, e, ma)) throw new IntegratorError('the velocity constraints are singular');
      for (let c = 0; c < n; c++) {
        let s = 0;
        for (let i = 0; i < ma; i++) s += this.J[this.active[i] * n + c] * e[i];
        v[c] -= s / W[c];
      }
    }
    let projection = 0;
    if (v0 && specified) for (let i = 0; i < n; i++) if (specified[i]) projection += D[i] * (v[i] - v0[i]) ** 2;
    // accelerations and multipliers: [M, Jᵀ; J, 0] [v̇; λ] = [Q − g; −Φ_tt]
    this.forces.assemble(v, t0, this.Q, null, null);
    this.gyro(false);
    const N = n + ma, S = this.S, rhs = this.rhs;
    S.fill(0, 0, N * N);
    this.addMass(S, N, 1);
    this.addConstraintBlocks(S, N);
    for (let i = 0; i < n; i++) rhs[i] = this.Q[i] - this.G[i];
    for (let i = 0; i < ma; i++) rhs[n + i] = 0;
    this.drivers.forEach((d, k) => {
      const row = this.driverRow[k];
      for (let i = 0; i < ma; i++) if (this.active[i] === row) rhs[n + i] = -d.acceleration();
    });
    if (!this.lu.factor(S, N, 1e-13)) {
      const names = this.masslessNames();
      throw new IntegratorError(`the mass matrix is singular on the motion the mates allow${names.length ? `: ${names.join(', ')} move without mass or inertia` : ''}`);
    }
    this.lu.solve(rhs);
    for (let i = 0; i < n; i++) { this.vdot[i] = rhs[i]; this.a[i] = rhs[i]; }
    this.lambda.fill(0);
    for (let i = 0; i < ma; i++) this.lambda[this.active[i]] = rhs[n + i];
    for (let i = 0; i < rhs.length; i++) if (!Number.isFinite(rhs[i])) throw new IntegratorError('the start is singular (non-finite accelerations)');
    if (this.eta) {
      productFromBody(system.state, this.poses, v, this.vdot, this.eta, this.etaDot!);
      this.etaA!.set(this.etaDot!);
    }
    this.factoredH = -1;
    // energy accumulators and the powers at the start
    this.blockDissipated.fill(0); this.blockExternal.fill(0); this.driverWork.fill(0);
    this.powers(this.externalPower, this.driverPower);
    this.drivers.forEach((d, k) => { this.driverLambda[k] = this.lambda[this.driverRow[k]]; this.driverTarget[k] = d.target(); });
    return { projection: Math.sqrt(projection), redundantRows: m - ma };
  }

  /** Gyroscopic force into G (and its ∂/∂v into `Gv` blocks of the iteration matrix when asked). */
  private gyro(withJacobian: boolean, S: Float64Array | null = null, N = 0, scale = 0): void {
    this.G.fill(0);
    for (let b = 0; b < this.bodies.length; b++) {
      const c0 = this.bodySlot[b];
      if (c0 < 0) continue;
      gyroscopic(this.g6, this.bodies[b].M, this.v, c0, withJacobian ? this.G36 : null);
      for (let i = 0; i < 6; i++) this.G[c0 + i] += this.g6[i];
      if (withJacobian && S) for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) S[(c0 + i) * N + c0 + j] += scale * this.G36[i * 6 + j];
    }
  }

  private addMass(S: Float64Array, N: number, scale: number): void {
    for (let b = 0; b < this.bodies.length; b++) {
      const c0 = this.bodySlot[b];
      if (c0 < 0) continue;
      const M = this.bodies[b].M;
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) S[(c0 + i) * N + c0 + j] += scale * M[i * 6 + j];
    }
  }

  private addConstraintBlocks(S: Float64Array, N: number): void {
    const n = this.size;
    for (let k = 0; k < this.activeCount; k++) {
      const row = this.active[k] * n;
      for (let c = 0; c < n; c++) {
        const x = this.J[row + c];
        S[(n + k) * N + c] = x;
        S[c * N + n + k] = x;
      }
    }
  }

  // ---- one step ----

  /**
   * Advance by h (halving on failure), to the time `end` (default t + h): a caller stepping a
   * grid passes t_k = k·h so that t does not gather the round-off of a sum of steps.
   * False: the step failed even halved; the state is the last good one.
   */
  step(h: number, end = this.t + h): boolean {
    if (this.system.version !== this.version) throw new Error('integrator: the system changed structure after the integrator was built');
    return this.advance(h, end, 0);
  }

  private advance(h: number, end: number, depth: number): boolean {
    this.save();
    if (this.attempt(h, end)) { this.account(h, end); this.onStep?.(h); return true; }
    this.restore();
    if (depth >= this.maxHalvings) return false;
    return this.advance(h / 2, this.t + h / 2, depth + 1) && this.advance(h / 2, end, depth + 1);
  }

  private save(): void {
    this.savedState.set(this.system.state);
    this.savedV.set(this.v); this.savedVdot.set(this.vdot); this.savedA.set(this.a); this.savedLambda.set(this.lambda);
    if (this.eta) { this.savedEta!.set(this.eta); this.savedEtaDot!.set(this.etaDot!); this.savedEtaA!.set(this.etaA!); }
    this.vPrev.set(this.v);
  }

  private restore(): void {
    this.system.state.set(this.savedState);
    this.v.set(this.savedV); this.vdot.set(this.savedVdot); this.a.set(this.savedA); this.lambda.set(this.savedLambda);
    if (this.eta) { this.eta.set(this.savedEta!); this.etaDot!.set(this.savedEtaDot!); this.etaA!.set(this.savedEtaA!); }
    this.setTime(this.t);
    this.factoredH = -1;
  }

  /** One step of size h from the saved state, ending at time t1; true when Newton converged. */
  private attempt(h: number, t1: number): boolean {
    const { system } = this;
    // the scheme's own variables: on R³ × SO(3) η (v and v̇, in body axes, follow them)
    const v = this.eta ?? this.v, vdot = this.etaDot ?? this.vdot, a = this.etaA ?? this.a;
    const n = this.size;
    let ma = this.activeCount, N = n + ma;
    const { alphaM: am, alphaF: af, gamma, beta, c1 } = this;
    this.setTime(t1);
    // predictor: v̇_{n+1} = v̇_n
    const step = this.vMid; // scratch: h Δq
    for (let i = 0; i < n; i++) {
      const aNew = (af * vdot[i] - am * a[i] + (1 - af) * vdot[i]) / (1 - am);
      step[i] = h * (v[i] + h * c1 * a[i] + h * beta * aNew);
      v[i] = v[i] + h * (1 - gamma) * a[i] + h * gamma * aNew;
      a[i] = aNew;
    }
    this.retract(step);
    this.followProduct();
    const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta), aP = 1 / (h * h * beta);
    const tolPhi = this.tolPhi * this.modelSize();
    let previous = Infinity;
    for (let it = 0; it < this.maxIterations; it++) {
      this.iterations = it + 1;
      this.evaluateRows(true);
      let phiMax = 0;
      for (let k = 0; k < this.rows; k++) phiMax = Math.max(phiMax, Math.abs(this.phi[k]));
      const fresh = this.factoredH !== h || it >= 4 || (it > 0 && phiMax > 0.25 * previous);
      if (fresh && this.redundant) { this.selectRows(); ma = this.activeCount; N = n + ma; }
      this.forces.assemble(this.v, t1, this.Q, fresh ? this.K : null, fresh ? this.C : null);
      // dynamic residual r = M v̇ + g − Q + Jᵀλ and its scale
      if (fresh) this.S.fill(0, 0, N * N);
      this.gyro(fresh, fresh ? this.S : null, N, gammaP / betaP);
      const r = this.r;
      const scale = this.dynamicResidual(ma);
      let rMax = 0;
      for (let i = 0; i < n; i++) rMax = Math.max(rMax, Math.abs(r[i]));
      if (!(rMax < Infinity) || !(phiMax < Infinity)) return false;
      if (it > 0 && phiMax <= tolPhi && rMax <= this.tolResidual * scale) return true;
      previous = phiMax;
      if (fresh) {
        const S = this.S, K = this.K, C = this.C;
        // the dynamic rows divided by β' (and λ's step multiplied by it): M's scale, not h⁻² M's
        const inv = 1 / betaP;
        this.addMass(S, N, 1);
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) S[i * N + j] -= inv * (K[i * n + j] + gammaP * C[i * n + j]);
        this.addConstraintBlocks(S, N);
        this.factorisations++;
        if (!this.lu.factor(S, N, 1e-15)) { this.factoredH = -1; return false; }
        this.luNonzero.load(this.lu);
        this.factoredH = h;
      }
      const rhs = this.rhs;
      for (let i = 0; i < n; i++) rhs[i] = -r[i] / betaP;
      for (let k = 0; k < ma; k++) rhs[n + k] = -this.phi[this.active[k]];
      this.luNonzero.solve(rhs);
      for (let k = 0; k < ma; k++) rhs[n + k] *= betaP;
      if (this.eta) correctionToProduct(system.state, this.poses, rhs);
      for (let i = 0; i < n; i++) {
        const dx = rhs[i];
        v[i] += gammaP * dx;
        vdot[i] += betaP * dx;
        a[i] += aP * dx;
      }
      for (let k = 0; k < ma; k++) this.lambda[this.active[k]] += rhs[n + k];
      // q_{n+1} = q_n ∘ exp(h Δq_n) exactly, with h Δq_n corrected by the step (its tangent
      // operator T(h Δq_n) ≈ 1 in the iteration matrix only: the fixed point is the scheme's)
      for (let i = 0; i < n; i++) step[i] += rhs[i];
      system.state.set(this.savedState);
      this.retract(step);
      this.followProduct();
    }
    return false;
  }

  /** r = M v̇ + g − Q + Jᵀλ (the active rows'; G and Q as last assembled); returns the force scale (the largest |Q|, |g|, |M v̇|). */
  private dynamicResidual(ma: number): number {
    const n = this.size, r = this.r, G = this.G, Q = this.Q, vdot = this.vdot;
    let scale = 1e-300;
    for (let i = 0; i < n; i++) { r[i] = G[i] - Q[i]; scale = Math.max(scale, Math.abs(Q[i]), Math.abs(G[i])); }
    const bodySlot = this.bodySlot, bodies = this.bodies;
    for (let b = 0; b < bodies.length; b++) {
      const c0 = bodySlot[b];
      if (c0 < 0) continue;
      const M = bodies[b].M;
      for (let i = 0; i < 6; i++) {
        let s = 0;
        for (let j = 0; j < 6; j++) s += M[i * 6 + j] * vdot[c0 + j];
        r[c0 + i] += s;
        scale = Math.max(scale, Math.abs(s));
      }
    }
    // Jᵀλ row by row, each row's nonzeros in its block's columns
    const J = this.J, lambda = this.lambda, active = this.active, start = this.rowColumnStart, columns = this.rowColumnIndex;
    for (let k = 0; k < ma; k++) {
      const row = active[k], lam = lambda[row];
      if (lam === 0) continue;
      const base = row * n;
      for (let e = start[row], end = start[row + 1]; e < end; e++) { const c = columns[e]; r[c] += J[base + c] * lam; }
    }
    return scale;
  }

  /** The model's size for the constraint bound: its length scale or, when larger, the farthest part origin. */
  private modelSize(): number {
    const { system } = this;
    let r = system.lengthScale;
    for (const v of system.variables) {
      if (v.kind !== 'pose') continue;
      const o = v.offset, s = system.state;
      r = Math.max(r, Math.abs(s[o]), Math.abs(s[o + 1]), Math.abs(s[o + 2]));
    }
    return r;
  }

  /** q ← q ∘ exp(step) for every moving variable (step in tangent order; on R³ × SO(3) a pose's translation in world axes). */
  private retract(step: Float64Array): void {
    const { system, layout } = this;
    for (const v of system.variables) {
      const c0 = layout[v.id];
      if (c0 < 0) continue;
      if (this.eta && v.kind === 'pose') retractProduct(system.state, v.offset, step, c0);
      else system.retractVariable(v, step, c0);
    }
  }

  /** On R³ × SO(3): v and v̇ (body axes: what the rows, forces and energies read) from η, η̇ at the current state. */
  private followProduct(): void {
    if (this.eta) bodyFromProduct(this.system.state, this.poses, this.eta, this.etaDot!, this.v, this.vdot);
  }

  // ---- energy ----

  /** Power of every external block and time driver at the current state. */
  private powers(blockPower: Float64Array, driverPower: Float64Array): void {
    const { forces, v } = this;
    for (let e = 0; e < this.externalBlocks.length; e++) {
      const i = this.externalBlocks[e];
      const slots = forces.slotsOf(i), lv = this.localV;
      for (let k = 0; k < slots.length; k++) lv[k] = slots[k] < 0 ? 0 : v[slots[k]];
      forces.evaluateBlock(i, lv, this.t, this.localQ);
      let p = 0;
      for (let k = 0; k < slots.length; k++) p += this.localQ[k] * lv[k];
      blockPower[i] = p;
    }
    // a driver's constraint force −Φ_qᵀλ does power −λ Φ_q v = λ Φ_t
    for (let k = 0; k < this.drivers.length; k++) driverPower[k] = this.lambda[this.driverRow[k]] * this.drivers[k].rate();
  }

  /** Accumulate the step's dissipated energy (midpoint velocity) and external work (trapezoid). */
  private account(h: number, end: number): void {
    this.t = end;
    const { forces, v, vPrev, vMid } = this;
    for (let i = 0; i < this.size; i++) vMid[i] = 0.5 * (v[i] + vPrev[i]);
    for (let e = 0; e < this.dissipativeBlocks.length; e++) {
      const i = this.dissipativeBlocks[e];
      const slots = forces.slotsOf(i), lv = this.localV;
      for (let k = 0; k < slots.length; k++) lv[k] = slots[k] < 0 ? 0 : vMid[slots[k]];
      this.blockDissipated[i] += h * forces.blocks[i].dissipation!(this.system.state, forces.offsetsOf(i), lv, this.t);
    }
    this.prevExternal.set(this.externalPower);
    this.prevDriver.set(this.driverPower);
    this.powers(this.externalPower, this.driverPower);
    for (let e = 0; e < this.externalBlocks.length; e++) {
      const i = this.externalBlocks[e];
      this.blockExternal[i] += 0.5 * h * (this.prevExternal[i] + this.externalPower[i]);
    }
    // a driver's work: mean λ times the change of its target (exact for a table's kinks): −scale·∫λ f' dt
    for (let k = 0; k < this.drivers.length; k++) {
      const d = this.drivers[k], lam = this.lambda[this.driverRow[k]], f = d.target();
      this.driverWork[k] -= 0.5 * (this.driverLambda[k] + lam) * d.scale * (f - this.driverTarget[k]);
      this.driverLambda[k] = lam; this.driverTarget[k] = f;
    }
  }

  /** Kinetic energy of every body. */
  kinetic(): number {
    let e = 0;
    for (let b = 0; b < this.bodies.length; b++) {
      const c0 = this.bodySlot[b];
      if (c0 >= 0) e += kineticEnergy(this.bodies[b].M, this.v, c0);
    }
    return e;
  }

  /** Stored energy of force block i at the current state. */
  blockPotential(i: number): number {
    const blk = this.forces.blocks[i];
    return blk.potential ? blk.potential(this.system.state, this.forces.offsetsOf(i), this.t) : 0;
  }

  /** The energy budget at the current state. */
  energy(): EnergyBudget {
    let potential = 0, elastic = 0, dissipated = 0, external = 0;
    this.forces.blocks.forEach((blk, i) => {
      const p = this.blockPotential(i);
      if (blk instanceof GravityBlock) potential += p; else elastic += p;
      dissipated += this.blockDissipated[i];
      external += this.blockExternal[i];
    });
    for (let k = 0; k < this.drivers.length; k++) external += this.driverWork[k];
    const kinetic = this.kinetic();
    return { kinetic, potential, elastic, dissipated, external, total: kinetic + potential + elastic + dissipated - external };
  }
}
