/**
 * The compliant state's tangent (docs/compliance.md "Speed"): the equilibrium's reduced
 * force f = Nᵀ Q and stiffness K_r = −Nᵀ (K − H) N at the current state, K the force
 * elements' AD stiffness and H = ∂(Φ_qᵀ λ)/∂q the constraints' and drivers' exact
 * curvature at the multipliers (tangent-mode duals, kernel/dual.ts withTangents).
 *
 * H costs most of an evaluation. Rows that are a world point's coordinates (a ball joint's,
 * a wheel pad's height) have it in closed form: a world force f = Jᵀλ held at the point,
 * whose body-frame components turn with the body (∂f/∂ω = [f]ₓ, ∂(l × f)/∂ω = [l]ₓ[f]ₓ,
 * the same d(Jacobian)/ds the tangent passes give). Any other loaded block takes one
 * tangent pass per coordinate of it that moves (a held rack's block is skipped whole).
 * Newton steps with the state's own exact stiffness (quadratic convergence, and a settled
 * pose that is a function of its start and loads alone, not of the states before).
 */
import { JacobianRate } from '../../../kernel/jacobian-rate';
import { admissibleMotions, constraintMultipliers } from '../../../kernel/multipliers';
import { HeldFactor, type HeldMultipliers } from '../../../kernel/held-motions';
import { reduce, type Reduced } from '../../mechanics/reduced';
import { LU } from '../../../kernel/linalg';
import { zeroedFloats } from '../../../kernel/float-slab';
import { solve } from '../../../kernel/solver/solve';
import type { DynamicsModel } from '../../mechanics/build';
import { LazyKH, LazyReduced, type ExactReduced } from './reductions';
import { PointCoordinateBlock } from '../build/targets';
import { addDeadForce, addPointTerms, pointRows } from './point-curvature';
import type { ResidualBlock } from '../../../kernel/system';

export type { ExactReduced } from './reductions';

/** Admissible motions: `count` columns of `size` tangent entries (kernel/multipliers.ts). */
export type Motions = ReturnType<typeof admissibleMotions>;


/** A column counts as moving where some motion reaches it above this (scaled) size. */
const MOVING = 1e-13;

export class CompliantTangent {
  private n = -1;
  private Q = new Float64Array(0);
  private K = new Float64Array(0);
  private H = new Float64Array(0);
  private zero = new Float64Array(0);
  private dir = new Float64Array(0);
  /** Scratch of the projection: (K − H) N over the slots a motion reaches, and those slots. */
  private AN = new Float64Array(0);
  private Nc = new Float64Array(0);
  /** AN and Nc by column, for K_r's sums (project). */
  private ANt = new Float64Array(0);
  private Nt = new Float64Array(0);
  private reached = new Int32Array(0);
  /** Scratch of the curvature: the slots a motion moves, each block's λ, the loaded blocks in order. */
  private moving = new Uint8Array(0);
  private lambdas: Float64Array[] = [];
  private loadedFlag = new Uint8Array(0);
  private loadedOrder: number[] = [];
  private cols: number[] = [];
  private res = new Float64Array(0);
  private jac = new Float64Array(0);
  private readonly f3 = new Float64Array(3);
  private readonly l3 = new Float64Array(3);
  private readonly S9 = new Float64Array(9);
  /** The settle's last force-only reduction (what it converged at). */
  private last: Reduced | null = null;
  /** Where K was last assembled, and Q there. */
  private kAt: { at: Float64Array; version: number; Q: Float64Array } | null = null;
  /** The polishing step's exact reduction and the state the step left: a coefficient asked for there reuses it. */
  private settled: { ex: ExactReduced; at: Float64Array; version: number } | null = null;
  /** The last force-only reduction's motions and the state they are at (an exact evaluation there reuses them). */
  private motions: { at: Float64Array; version: number; m: Motions; held: boolean } | null = null;
  /** The constraints and holds factored together (kernel/held-motions.ts): the motions and the multipliers at one state. */
  private readonly held: HeldFactor;

  /**
   * What the tangent computed since it was made, for the tests that hold a state to one
   * exact reduction per Newton state, one factorisation of each K_r and one of the
   * constraints per state: `exact` (reductions with the curvature), `reducedFactors` (LU of
   * a K_r), `heldFactors` (the constraints and holds).
   */
  readonly counts = { exact: 0, reducedFactors: 0, heldFactors: 0 };

  /** Each exact reduction's K_r factored, once (the polishing step and the coefficients share it); null where singular. */
  private readonly factors = new WeakMap<ExactReduced, LU | null>();

  /** The tangent passes' Jacobian rates (kernel/jacobian-rate.ts). */
  private readonly rate = new JacobianRate();

  constructor(private readonly dyn: DynamicsModel) {
    this.held = new HeldFactor(dyn.system);
  }

  /** Buffers for the current layout. */
  private sized(): number {
    const n = this.dyn.forces.size;
    if (n !== this.n) {
      this.keepKH();
      this.n = n;
      this.K = new Float64Array(n * n); this.H = new Float64Array(n * n);
      this.AN = new Float64Array(n * n); this.Nc = new Float64Array(n * n); this.ANt = new Float64Array(n * n); this.Nt = new Float64Array(n * n); this.reached = new Int32Array(n); this.moving = new Uint8Array(n);
      this.zero = new Float64Array(n); this.dir = new Float64Array(n);
    }
    return n;
  }

  /** Q (and K into this.K) at the current state; the state is noted for assembledHere. */
  private assemble(withK: boolean): Float64Array {
    const { system } = this.dyn;
    if (withK) this.keepKH();
    // slab views (kernel/float-slab.ts): a reduction's arrays are made at every Newton state
    const Q = zeroedFloats(this.n);
    this.dyn.forces.assemble(this.zero, 0, Q, withK ? this.K : null, null);
    this.kAt = withK ? { at: this.copyState(this.kAt?.at ?? this.kAtSpare), version: system.version, Q } : null;
    return Q;
  }

  /** The state now, into `into` when it has the state's length (a cache's own copy, replaced whole), else a new copy. */
  private copyState(into: Float64Array | null): Float64Array {
    const { system } = this.dyn, len = system.snapshotLength;
    if (!into || into.length !== len) return system.state.slice(0, len);
    into.set(system.state.subarray(0, len));
    return into;
  }
  /** kAt's copy of the state, kept while kAt is cleared (begin). */
  private kAtSpare: Float64Array | null = null;

  /** Q where K was last assembled at this very state (and no load changed since), else null. */
  private assembledHere(): Float64Array | null {
    const kept = this.kAt, system = this.dyn.system;
    return kept && kept.version === system.version && sameState(kept.at, system.state) ? kept.Q : null;
  }

  /** The admissible motions at the current state (those of the last reduction when the state is the same). */
  private motionsHere(): Motions {
    const { system } = this.dyn;
    const kept = this.motions;
    if (kept && kept.version === system.version && sameState(kept.at, system.state)) return kept.m;
    // one factorisation of the constraints and holds together; dependent rows take multipliers.ts
    this.counts.heldFactors++;
    const held = this.held.factor();
    const m = held ? this.held.motions() : admissibleMotions(system);
    this.motions = { at: this.copyState(this.motions?.at ?? null), version: system.version, m, held };
    return m;
  }

  /** The multipliers of Q at the current state: from the held factorisation when it is this state's. */
  private multipliersHere(Q: Float64Array): HeldMultipliers {
    const { system } = this.dyn;
    const kept = this.motions;
    if (kept && kept.held && kept.version === system.version && sameState(kept.at, system.state)) return this.held.multipliers(Q);
    return constraintMultipliers(system, Q);
  }

  /**
   * The exact reduction at the current state, on `motions` (default: the admissible motions,
   * every driver held; wheel-rate.ts passes a wider basis). At a settled state it is the one
   * the polishing step took, a balance tolerance's step (~1e-7 mm) before the pose.
   */
  exact(motions?: Motions): ExactReduced {
    const kept = this.settled, system = this.dyn.system;
    if (!motions && kept && kept.version === system.version && sameState(kept.at, system.state)) return kept.ex;
    const ex = this.reduction(motions ?? this.motionsHere());
    // K − H is formed only when read (the gradients read it; a Newton or polishing step does not)
    const out = new LazyKH(ex, this);
    this.pendingKH = out;
    return out;
  }

  /** The last exact reduction whose K − H is still this.K − this.H, not yet formed. */
  private pendingKH: LazyKH | null = null;

  /** K − H of the pending reduction, from the buffers (formed before either is overwritten, or when read). */
  formKH(): Float64Array {
    const n = this.n, K = this.K, H = this.H;
    const KH = new Float64Array(n * n);
    for (let i = 0; i < n * n; i++) KH[i] = K[i] - H[i];
    this.pendingKH = null;
    return KH;
  }

  /**
   * Before K or H is written: the settled state's reduction (which exact() hands out again
   * while the state stays) keeps its own K − H; any other is read at once by its caller, so
   * its K − H is not formed (a read after this throws rather than see another state's).
   */
  private keepKH(): void {
    const pending = this.pendingKH;
    if (!pending) return;
    if (pending === this.settled?.ex || pending === this.polishing) pending.form();
    else { pending.drop(); this.pendingKH = null; }
  }

  /** The exact reduction on `motions` without K − H as a matrix of its own (a Newton step reads K_r alone). */
  private reduction(motions: Motions): Omit<ExactReduced, 'KH'> {
    const n = this.sized();
    const Q = this.assembledHere() ?? this.assemble(true);
    const { basis: N, count: k, layout } = motions;
    const mult = this.multipliersHere(Q);
    this.counts.exact++;
    this.curvature(mult, N, k, layout);
    return { Kr: this.project(N, k), N, k, n, layout, Q, f: reducedForce(N, Q, k, n), mult };
  }

  /**
   * K_r = −Nᵀ A N (k × k, row-major; A = K − H, n × n, each entry formed as it is read),
   * N's columns stored one after another, over the slots a motion reaches (a held rack's are
   * exact zeros in N: the terms left out are ±0, so K_r is bit for bit the full product's).
   */
  private project(N: Float64Array, k: number): Float64Array {
    const n = this.n, AN = this.AN, act = this.reached, Nc = this.Nc, K = this.K, H = this.H;
    const m = reachedSlots(act, N, k, n);
    // N's reached rows, contiguous (Nc[p k + b] = N[b n + act[p]]): the same products in the same order
    for (let p = 0; p < m; p++) { const i = act[p]; for (let b = 0; b < k; b++) Nc[p * k + b] = N[b * n + i]; }
    // two rows of AN at a time, each summed over q in order (a zero entry of K − H adds ±0 to
    // a sum that is never −0, so adding or skipping it leaves the same bits)
    AN.fill(0, 0, m * k);
    for (let p = 0; p < m; p += 2) {
      const two = p + 1 < m, row0 = act[p] * n, row1 = two ? act[p + 1] * n : row0, out0 = p * k, out1 = out0 + k;
      for (let q = 0; q < m; q++) {
        const c = act[q], a0 = K[row0 + c] - H[row0 + c], a1 = two ? K[row1 + c] - H[row1 + c] : 0;
        if (a0 === 0 && a1 === 0) continue;
        const src = q * k;
        if (a1 === 0) { for (let b = 0; b < k; b++) AN[out0 + b] += a0 * Nc[src + b]; continue; }
        if (a0 === 0) { for (let b = 0; b < k; b++) AN[out1 + b] += a1 * Nc[src + b]; continue; }
        for (let b = 0; b < k; b++) { const x = Nc[src + b]; AN[out0 + b] += a0 * x; AN[out1 + b] += a1 * x; }
      }
    }
    // both factors by column (Nt[a m + p] = Nc[p k + a], ANt likewise), and K_r's entries two
    // by two: each sum over p still adds the same products in the same order, from fewer reads
    const Nt = this.Nt, ANt = this.ANt;
    for (let p = 0; p < m; p++) for (let b = 0; b < k; b++) { Nt[b * m + p] = Nc[p * k + b]; ANt[b * m + p] = AN[p * k + b]; }
    const Kr = zeroedFloats(k * k);
    for (let a = 0; a < k; a += 2) {
      const ra = a * m, ra1 = a + 1 < k ? ra + m : ra;
      for (let b = 0; b < k; b += 2) {
        const rb = b * m, rb1 = b + 1 < k ? rb + m : rb;
        let s00 = 0, s01 = 0, s10 = 0, s11 = 0;
        for (let p = 0; p < m; p++) {
          const x0 = Nt[ra + p], x1 = Nt[ra1 + p], y0 = ANt[rb + p], y1 = ANt[rb1 + p];
          s00 += x0 * y0; s01 += x0 * y1; s10 += x1 * y0; s11 += x1 * y1;
        }
        // an odd k's last row or column was summed twice over (the same numbers): written once
        Kr[a * k + b] = -s00;
        if (b + 1 < k) Kr[a * k + b + 1] = -s01;
        if (a + 1 < k) { Kr[(a + 1) * k + b] = -s10; if (b + 1 < k) Kr[(a + 1) * k + b + 1] = -s11; }
      }
    }
    return Kr;
  }

  /** K_r of an exact reduction factored (LU, relative pivot floor 1e-12), once per reduction; null where it is singular or empty. */
  factored(ex: ExactReduced): LU | null {
    let lu = this.factors.get(ex);
    if (lu !== undefined) return lu;
    lu = null;
    if (ex.k > 0) {
      this.counts.reducedFactors++;
      const f = new LU(ex.k);
      if (f.factor(ex.Kr, ex.k, 1e-12)) lu = f;
    }
    this.factors.set(ex, lu);
    return lu;
  }

  /** Start of a settle, or a load changed: nothing of the last settled state is reused. */
  begin(): void {
    this.last = null;
    this.dropSettled();
    if (this.kAt) this.kAtSpare = this.kAt.at;
    this.kAt = null;
  }

  /**
   * After the settle's Newton converged (to the balance tolerance): one more Newton step, with
   * the exact stiffness at the converged state. Newton stops anywhere under the tolerance, and
   * where depends on where it started (the last state of a drag, a rig's last load); this step
   * takes the force orders of magnitude lower, so the settled pose is the loads' and not the
   * path's. Its stiffness is kept for the coefficients at the settled state. A step longer
   * than a converged state's (1e-6 of the length scale) is kept only if the force fell.
   */
  polish(): void {
    const red = this.last;
    this.dropSettled();
    if (!red || red.k === 0) return;
    const { system } = this.dyn;
    const ex = this.exact(this.motionsHere());
    // kept as the settled state's reduction below, even where a check reduces the stepped state first
    this.polishing = ex;
    const { N, k, n, layout, f } = ex;
    // the state before the step and the settled one, in buffers kept from the last polish (a state's copy is off the JS heap)
    const saved = (this.polishSaved = this.copyState(this.polishSaved));
    const keep = (): void => { this.settled = { ex, at: this.copyState(this.settledSpare), version: system.version }; this.polishing = null; };
    const lu = this.factored(ex);
    if (!lu) { keep(); return; }
    const step = this.polishStep.length === k ? this.polishStep : (this.polishStep = new Float64Array(k));
    step.set(f);
    lu.solve(step);
    const delta = this.polishDelta.length === n ? this.polishDelta : (this.polishDelta = new Float64Array(n));
    delta.fill(0);
    for (let a = 0; a < k; a++) for (let j = 0; j < n; j++) delta[j] += N[a * n + j] * step[a];
    for (const v of system.variables) if (layout[v.id] >= 0) system.retractVariable(v, delta, layout[v.id]);
    const small = scaledLength(this.dyn, delta, layout) <= 1e-6 * system.lengthScale;
    if (solve(system).converged && (small || maxAbs(this.reduce(1).f) < maxAbs(f))) { keep(); return; }
    system.restore(saved);
    keep();
  }
  /** The polishing step's α and δ (read only within it). */
  private polishStep = new Float64Array(0);
  private polishDelta = new Float64Array(0);
  /** The exact reduction the polishing step is taking (the settled state's once it is kept). */
  private polishing: ExactReduced | null = null;
  /** The state before the polishing step (read only within it), and the last settled state's copy, kept for the next. */
  private polishSaved: Float64Array | null = null;
  private settledSpare: Float64Array | null = null;

  /** Nothing of the last settled state is reused; its state's copy is kept for the next. */
  private dropSettled(): void {
    if (this.settled) this.settledSpare = this.settled.at;
    this.settled = null;
  }

  /**
   * The reduction `equilibrium` asks for (its `reduce` option): the force at the state, and
   * the exact stiffness only when Newton steps from it (not at the state that converges).
   * Load stepping's partial loads take mechanics' reduce().
   */
  reduce(loadScale: number): Reduced {
    if (loadScale !== 1) return reduce(this.dyn, { loadScale });
    const n = this.sized();
    // with K: a state Newton steps from, or polishes at, asks for the stiffness next
    const Q = this.assemble(true);
    const motions = this.motionsHere();
    const { basis: N, count: k, layout } = motions;
    const f = reducedForce(N, Q, k, n);
    return (this.last = new LazyReduced(N, k, n, layout, Q, f, motions, this, this.dyn.system));
  }

  /** The exact K_r on `motions` at the current state (a LazyReduced's, read at the state it was made at). */
  reducedStiffness(motions: Motions): Float64Array {
    return this.reduction(motions).Kr;
  }

  /**
   * H = ∂(Φ_qᵀ λ)/∂q (n × n) over the moving columns: one tangent pass per moving column of
   * each loaded block that is not linear in its coordinates.
   */
  private curvature(mult: HeldMultipliers, N: Float64Array, k: number, layout: Int32Array): void {
    const { system } = this.dyn;
    const n = this.n, moving = this.moving;
    this.keepKH();
    this.H.fill(0);
    // a slot moves where some motion reaches it: the first such motion decides
    for (let j = 0; j < n; j++) {
      let reached = 0;
      for (let b = 0; b < k; b++) if (Math.abs(N[b * n + j]) > MOVING) { reached = 1; break; }
      moving[j] = reached;
    }
    // λ per loaded block and row (the constraint rows, then the one-row drivers), blocks in the order first loaded
    const order = this.loadedOrder;
    this.lambdasFor(system.blockCount);
    order.length = 0;
    for (let r = 0; r < mult.lambda.length; r++) this.put(mult.rowBlock[r], mult.rowInBlock[r], mult.lambda[r]);
    for (let d = 0; d < mult.driverBlocks.length; d++) this.put(mult.driverBlocks[d], 0, mult.driverLambda[d]);
    const cols = this.cols;
    for (let o = 0; o < order.length; o++) {
      const b = order[o], lambda = this.lambdas[b];
      this.loadedFlag[b] = 0;
      const blk = system.block(b);
      if (!blk.duals) continue; // rows linear in their coordinates
      cols.length = 0;
      let reached = false;
      for (const v of blk.vars) {
        const c0 = layout[v];
        for (let i = 0; i < system.variables[v].dim; i++) { const c = c0 >= 0 ? c0 + i : -1; cols.push(c); if (c >= 0 && moving[c]) reached = true; }
      }
      if (!reached) continue; // held whole: no motion reaches it
      if (!this.byPasses && pointRows(blk)) this.pointCurvature(b, blk, lambda, cols);
      else this.passes(b, blk, lambda, cols, moving);
    }
  }

  /** λ buffers per block (zeroed when a block is first loaded in a call). */
  private lambdasFor(blocks: number): void {
    const { system } = this.dyn;
    if (this.loadedFlag.length < blocks) this.loadedFlag = new Uint8Array(blocks);
    for (let b = 0; b < blocks; b++) {
      const rows = system.block(b).rows;
      if (!this.lambdas[b] || this.lambdas[b].length !== rows) this.lambdas[b] = new Float64Array(rows);
    }
  }

  private put(b: number, row: number, lambda: number): void {
    if (lambda === 0) return;
    if (!this.loadedFlag[b]) { this.loadedFlag[b] = 1; this.lambdas[b].fill(0); this.loadedOrder.push(b); }
    this.lambdas[b][row] = lambda;
  }

  /** Tangent passes for every block (the closed forms' reference, in tests). */
  byPasses = false;

  /**
   * The closed form for point rows: per body k of the block, f = J_vᵀ λ and the lever l from
   * the rows' own Jacobian (J_v = ±R, J_ω = ∓R[l]ₓ, so [l]ₓ = −J_vᵀ J_ω per row triple; a
   * pad's one row gives its point directly).
   */
  private pointCurvature(b: number, blk: ResidualBlock, lambda: Float64Array, cols: readonly number[]): void {
    const { system } = this.dyn;
    const ld = cols.length, rows = blk.rows, n = this.n, H = this.H;
    if (this.res.length < rows) this.res = new Float64Array(rows);
    if (this.jac.length < rows * ld) this.jac = new Float64Array(rows * ld);
    const jac = this.jac;
    jac.fill(0, 0, rows * ld);
    system.evaluateBlock(b, this.res, jac);
    const f = this.f3, l = this.l3, R = this.S9;
    for (let k = 0; k < blk.vars.length; k++) {
      const c0 = cols[6 * k];
      if (c0 < 0) continue;
      // the body-frame force of the rows: f = Σ λ_r J_v,r
      for (let i = 0; i < 3; i++) { let s = 0; for (let r = 0; r < rows; r++) s += lambda[r] * jac[r * ld + 6 * k + 3 + i]; f[i] = s; }
      if (blk instanceof PointCoordinateBlock) {
        addPointTerms(H, n, c0, blk, blk.vars[k], lambda[0], system.state, system.variables[blk.vars[k]].offset);
        continue;
      }
      // a ball: [l]ₓ = −J_vᵀ J_ω (3 × 3 blocks of body k)
      const S = R;
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let r = 0; r < 3; r++) s -= jac[r * ld + 6 * k + 3 + i] * jac[r * ld + 6 * k + j];
        S[i * 3 + j] = s;
      }
      l[0] = 0.5 * (S[7] - S[5]); l[1] = 0.5 * (S[2] - S[6]); l[2] = 0.5 * (S[3] - S[1]);
      addDeadForce(H, n, c0, l, f);
    }
  }

  /** One tangent pass per moving coordinate of the block. */
  private passes(b: number, blk: ResidualBlock, lambda: Float64Array, cols: readonly number[], moving: Uint8Array): void {
    const { system } = this.dyn;
    const n = this.n, H = this.H, dir = this.dir, rate = this.rate;
    {
      const ld = cols.length;
      const res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * ld);
      for (const c of cols) {
        if (c < 0 || !moving[c]) continue;
        dir[c] = 1;
        const duals = rate.of(system, b, cols, dir, res, jac);
        dir[c] = 0;
        for (let r = 0; r < blk.rows; r++) {
          const t = duals[r].t;
          if (!t || lambda[r] === 0) continue;
          for (let j = 0; j < ld; j++) if (cols[j] >= 0) H[cols[j] * n + c] += lambda[r] * t.d[j];
        }
      }
    }
  }
}

/** The largest entry of a step in length units (a turn times the length scale), as equilibrium's trust radius measures it. */
function scaledLength(dyn: DynamicsModel, delta: Float64Array, layout: Int32Array): number {
  const { system } = dyn;
  let len = 0;
  for (const v of system.variables) {
    const c0 = layout[v.id];
    if (c0 < 0) continue;
    if (v.kind === 'pose') for (let i = 0; i < 6; i++) len = Math.max(len, Math.abs(delta[c0 + i]) * (i < 3 ? system.lengthScale : 1));
    else len = Math.max(len, Math.abs(delta[c0]) * v.scale);
  }
  return len;
}

function maxAbs(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
}

function sameState(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** f = Nᵀ Q (k). */
function reducedForce(N: Float64Array, Q: Float64Array, k: number, n: number): Float64Array {
  const f = zeroedFloats(k);
  for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < n; j++) s += N[a * n + j] * Q[j]; f[a] = s; }
  return f;
}

/** The slots where some column of N (k columns of n) is not zero, into `out`; their count. */
function reachedSlots(out: Int32Array, N: Float64Array, k: number, n: number): number {
  let m = 0;
  for (let j = 0; j < n; j++) {
    let any = false;
    for (let b = 0; b < k && !any; b++) any = N[b * n + j] !== 0;
    if (any) out[m++] = j;
  }
  return m;
}
