/**
 * The integrator's linear system of one Newton iteration (kernel/integrator/integrator.ts):
 * the dynamic residual r = M v̇ + g − Q + Φ_qᵀλ and the iteration matrix
 *
 *     [M + (γ'/β') ∂g/∂v − (K + γ' C)/β',  Φ_qᵀ;  Φ_q, 0]
 *
 * (its dynamic rows divided by β': M's scale, not h⁻² M's), with its LU kept for the
 * iterations and steps that reuse it. Buffers are made once; nothing here allocates.
 */
import { LU } from '../linalg';
import { OrderedLU } from '../lu-ordered';
import { ScheduledLU } from '../lu-small';
import { gyroscopic, massPattern, massTimes, rigidDynamics, type MassPattern } from '../mass';
import type { ForceSet, SharedTurns } from '../forces';
import type { ConstraintRows } from './rows';
import { IterationPattern, type CompactTarget } from './pattern';

/**
 * Iteration matrices from this size on are factored in a fill-reducing order: a whole car
 * (288) is, a corner (27–67) or an axle (120) is not. The order changes the rounding, and
 * with it where Newton stops; a corner's gradient checks against re-runs sit near their
 * tolerance (1e-4) and failed at 64, and its outputs stay bit-identical to before below this.
 */
const ORDERED_MIN_SIZE = 200;

/**
 * Iteration matrices up to this size are solved with the dense factors: the integrator
 * refactors them every step (integrator.ts SMALL_SYSTEM), so listing the nonzeros would cost
 * more than the one or two solves it speeds up. The same sums either way (lu-sparse.ts).
 */
const DENSE_MAX_SIZE = 16;

export interface IntegratorBody {
  variable: number;
  /** 6×6 body-frame mass matrix in (ω, v) order. */
  M: Float64Array;
}

export class IterationSystem {
  /** Applied forces, their ∂/∂δ and ∂/∂v (n × n), as last assembled. */
  readonly Q: Float64Array;
  readonly K: Float64Array;
  readonly C: Float64Array;
  /** The dynamic residual and the gyroscopic force. */
  readonly r: Float64Array;
  readonly G: Float64Array;
  /** The iteration matrix (N × N, N = n + active rows) and the right-hand side / solution. */
  readonly S: Float64Array;
  readonly rhs: Float64Array;
  readonly lu: LU;
  /** A small matrix's factors: the dense LU's, replayed on the matrix's nonzeros (lu-small.ts). */
  readonly luSmall: ScheduledLU;
  /**
   * The iteration matrix's factors without their zeros (the solve every Newton iteration
   * does), in a fill-reducing order when the system is large (lu-ordered.ts).
   */
  readonly luNonzero: OrderedLU;
  /** LU factorisations of the iteration matrix so far. */
  factorisations = 0;
  /** A large matrix's nonzeros (pattern.ts), once the active rows are known and fixed; null: the dense loops. */
  private pattern: IterationPattern | null = null;
  /**
   * Whether K and C hold an assembly a large matrix (a whole car) may refactor with again:
   * its K and C, from the force elements' dual passes, cost as much as the elimination, and at
   * h ≈ 1 ms (K + γ'C)/β' is a few thousandths of the mass blocks, so a refactor for the rows'
   * turning (REFRESH_LARGE) keeps them; a new step size or a stall reassembles them.
   */
  private keptDerivatives = false;
  /** K's and C's assemblies so far (pattern.ts keeps inv (K + γ'C) for the last). */
  private derivatives = 0;
  /**
   * The size of the small matrix whose dynamic block (n × n: mass, gyroscopic and force
   * derivatives over β') S holds as last assembled with new derivatives (−1: none; nothing
   * else writes it, and the LU reads S without changing it); blockKept: the last `residual`
   * left that block to `factor` (integrator.ts: a step after an unchecked one).
   */
  private blockN = -1;
  private blockKept = false;
  /** Whether the last factorisation is the dense one (`lu`): a small matrix. */
  private dense = false;
  /** A large matrix's last nonzero diagonals of K and C per slot (`keepVanishedDiagonals`). */
  private readonly kDiagonal: Float64Array;
  private readonly cDiagonal: Float64Array;
  private readonly g6 = new Float64Array(6);
  private readonly h6 = new Float64Array(6);
  /** The slots of no body, where the bodies' 6-slot blocks do not overlap (gyroResidual); null where they do. */
  private readonly freeSlots: Int32Array | null;
  private readonly G36 = new Float64Array(36);
  /** Each body's mass-block nonzeros (products with M skip its zeros: the same sums). */
  private readonly patterns: MassPattern[];
  private readonly masses: Float64Array[];
  /**
   * Whether the compact matrix's dynamic block is written whole at `factor` (pattern.ts
   * writeDynamic: no clear, one pass); the gyroscopic blocks ∂g/∂v (body b's at 36 b, each a
   * view) and their scale then wait in `gyroBlocks` for it instead of being added at `gyro`.
   */
  private fused = false;
  /**
   * A fused matrix's last `factor` wrote it in place of the factors, not into the list
   * (`matrix` writes the list then), with these inv, γ' and rows.
   */
  private listStale = false;
  private lastInv = 0;
  private lastGammaP = 0;
  private lastRows: ConstraintRows | null = null;
  private readonly gyroBlocks: Float64Array;
  private readonly gyroViews: Float64Array[];
  private gyroScale = 0;
  /** The integrator's rotation matrices, made at the state `residual` is evaluated at (shareTurns); null: none. */
  private turns: SharedTurns | null = null;

  constructor(
    private readonly n: number,
    m: number,
    private readonly bodies: readonly IntegratorBody[],
    /** Each body's first tangent slot (−1: fixed). */
    readonly bodySlot: Int32Array,
  ) {
    this.Q = new Float64Array(n);
    this.K = new Float64Array(n * n);
    this.C = new Float64Array(n * n);
    this.r = new Float64Array(n);
    this.G = new Float64Array(n);
    const N = n + m;
    this.S = new Float64Array(N * N);
    this.rhs = new Float64Array(N);
    this.lu = new LU(N);
    this.luSmall = new ScheduledLU(Math.min(N, DENSE_MAX_SIZE));
    this.luNonzero = new OrderedLU(N, N >= ORDERED_MIN_SIZE, true);
    this.patterns = bodies.map((b) => massPattern(b.M));
    this.masses = bodies.map((b) => b.M);
    this.gyroBlocks = new Float64Array(36 * bodies.length);
    this.gyroViews = bodies.map((_, b) => this.gyroBlocks.subarray(36 * b, 36 * b + 36));
    this.freeSlots = freeSlots(n, bodySlot);
    this.kDiagonal = new Float64Array(n);
    this.cDiagonal = new Float64Array(n);
  }

  /**
   * Assemble a large matrix on its nonzeros from now on (its active rows fixed: no redundant
   * rows); a small one keeps the dense loops, which cost less than lists there.
   */
  usePattern(N: number, fixedRows: boolean, forces: ForceSet, constraints: ConstraintRows): void {
    this.pattern = fixedRows && N >= ORDERED_MIN_SIZE ? new IterationPattern(this.n, N, this.bodySlot, forces.derivativePattern(), constraints) : null;
    this.fused = this.pattern !== null && this.pattern.bodyKc !== null;
    // a compact matrix is written out into S where its entries alone are nonzero
    if (this.pattern) this.S.fill(0);
    // a small one's nonzeros are where its factorisation is replayed (lu-small.ts)
    const small = fixedRows && N <= DENSE_MAX_SIZE ? new IterationPattern(this.n, N, this.bodySlot, forces.derivativePattern(), constraints).entries : null;
    this.luSmall.usePattern(N, small);
    this.keptDerivatives = false;
    this.blockN = -1;
    this.listStale = false;
  }

  /** Rotation matrices the caller makes at every state it asks `residual` at (the forces read them: ForceSet.assemble). */
  shareTurns(turns: SharedTurns): void {
    this.turns = turns;
  }

  /** A large system (a whole car): its matrix is refactored in a fill-reducing order, and seldom (integrator.ts). */
  get large(): boolean { return this.luNonzero.ordered; }

  /** Whether K and C are cleared on the forces' pattern only (ForceSet.assemble's `zeroed`). */
  get sparseForces(): boolean { return this.pattern !== null; }

  /** The pattern a matrix of size N is assembled on (its compact entries), or null: S, dense. */
  private compact(N: number): IterationPattern | null {
    const p = this.pattern;
    return p !== null && p.N === N ? p : null;
  }

  /** The matrix ← 0 for size N (a large one's compact entries, unless `factor` writes them whole; else S). */
  clear(N: number): void {
    const p = this.compact(N);
    if (p) { if (!this.fused) p.clear(); } else this.S.fill(0, 0, N * N);
  }

  /**
   * Gyroscopic force at velocities v into G (and, `matrix`, its ∂/∂v × scale into the body
   * blocks of the matrix of size N: a large one's compact entries, else S).
   */
  gyro(v: Float64Array, matrix = false, N = 0, scale = 0): void {
    const G = this.G, g6 = this.g6, G36 = this.G36, bodies = this.bodies, bodySlot = this.bodySlot, S = this.S;
    const p = matrix ? this.compact(N) : null, fused = p !== null && this.fused;
    if (fused) this.gyroScale = scale;
    G.fill(0);
    for (let b = 0; b < bodies.length; b++) {
      const c0 = bodySlot[b];
      if (c0 < 0) continue;
      gyroscopic(g6, bodies[b].M, v, c0, fused ? this.gyroViews[b] : matrix ? G36 : null, this.patterns[b]);
      for (let i = 0; i < 6; i++) G[c0 + i] += g6[i];
      if (fused) continue;
      if (p) p.addBody(b, G36, scale);
      else if (matrix) for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) S[(c0 + i) * N + c0 + j] += scale * G36[i * 6 + j];
    }
  }

  /**
   * The last assembled matrix of size N as a row-major array (S; a large matrix's compact
   * entries written out into it first): tests and checks.
   */
  matrix(N: number): Float64Array {
    const p = this.compact(N);
    // written in place of the factors: the list again, from K, C, G and the rows as they stand
    if (p && this.listStale) { this.writeFused(p, p.plain, this.lastInv, this.lastGammaP, this.lastRows!); this.listStale = false; }
    if (p) p.expand(this.S);
    return this.S;
  }

  /** S's body blocks += scale × M. */
  addMass(S: Float64Array, N: number, scale: number): void {
    const bodies = this.bodies, bodySlot = this.bodySlot;
    for (let b = 0; b < bodies.length; b++) {
      const c0 = bodySlot[b];
      if (c0 < 0) continue;
      const M = bodies[b].M;
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) S[(c0 + i) * N + c0 + j] += scale * M[i * 6 + j];
    }
  }

  /**
   * The iteration matrix into S (zeroed, with the gyroscopic blocks, by the caller's `gyro`)
   * from K, C and the active rows' Jacobian, and its LU; false when singular.
   */
  factor(N: number, betaP: number, gammaP: number, constraints: ConstraintRows): boolean {
    const n = this.n, S = this.S, K = this.K, C = this.C;
    const inv = 1 / betaP;
    const p = this.compact(N);
    if (p && this.fused && !this.blockKept) return this.factorFused(p, inv, gammaP, constraints);
    if (this.blockKept) constraints.addToMatrix(S, N);
    else if (p) {
      for (let b = 0; b < this.bodies.length; b++) if (this.bodySlot[b] >= 0) p.addBody(b, this.bodies[b].M, 1);
      p.subtractForces(K, C, inv, gammaP, this.derivatives);
      p.addRows(p.plain, constraints);
    } else {
      this.addMass(S, N, 1);
      for (let i = 0; i < n; i++) {
        const si = i * N, ki = i * n;
        for (let j = 0; j < n; j++) S[si + j] -= inv * (K[ki + j] + gammaP * C[ki + j]);
      }
      constraints.addToMatrix(S, N);
      if (N <= DENSE_MAX_SIZE) this.blockN = N;
    }
    this.factorisations++;
    this.dense = N <= DENSE_MAX_SIZE;
    if (this.dense) return this.luSmall.factor(S, N, 1e-15);
    return p ? this.luNonzero.factorCompact(p.values, p.entries, S, N, 1e-15) : this.luNonzero.factor(S, N, 1e-15);
  }

  /**
   * `factor` of a fused compact matrix (a whole car): written straight into the factors' places
   * (the LU scales them there) where it refactors on its kept pattern, so that no list is copied
   * or gathered; else into the list for factorCompact. A refactor there that declines has the
   * list written after all, for the pivoting LU. The same matrix either way: the same factors.
   */
  private factorFused(p: IterationPattern, inv: number, gammaP: number, constraints: ConstraintRows): boolean {
    const lu = this.luNonzero, N = p.N, placed = lu.placeCompact(p.entries, N, p.keptEntries);
    this.factorisations++;
    this.dense = false;
    this.writeFused(p, placed ? p.directTo(placed) : p.plain, inv, gammaP, constraints);
    this.listStale = placed !== null;
    if (!placed) return lu.factorCompact(p.values, p.entries, this.S, N, 1e-15);
    if (lu.refactorPlaced(p.entries, 1e-15)) return true;
    this.writeFused(p, p.plain, inv, gammaP, constraints);
    this.listStale = false;
    return lu.factorDeclined(p.values, p.entries, this.S, N, 1e-15);
  }

  /** The fused matrix (its dynamic block whole, then the rows) into t, with `factor`'s inv and γ'. */
  private writeFused(p: IterationPattern, t: CompactTarget, inv: number, gammaP: number, constraints: ConstraintRows): void {
    p.writeDynamic(t, this.gyroBlocks, this.gyroScale, this.masses, this.bodySlot, this.K, this.C, inv, gammaP, this.derivatives);
    p.addRows(t, constraints);
    this.lastInv = inv; this.lastGammaP = gammaP; this.lastRows = constraints;
  }

  /** Solve with the last `factor`'s LU, in place. */
  solve(rhs: Float64Array): void {
    if (this.dense) this.luSmall.solve(rhs); else this.luNonzero.solve(rhs);
  }

  /**
   * The forces at velocities v and time t, then the dynamic residual (dynamicResidual: its
   * force scale returned). `matrix`: K, C and the gyroscopic blocks too, into a cleared S of
   * size N; K and C only when `derivatives` or not held (keptDerivatives).
   */
  residual(forces: ForceSet, matrix: boolean, v: Float64Array, vdot: Float64Array, lambda: Float64Array, constraints: ConstraintRows, t: number, N: number, gyroScale: number, derivatives = true): number {
    // a small matrix without new derivatives: its dynamic block as last assembled (factor).
    // Every field read at every call: a read first made after V8 compiled the step (the first
    // refactor that keeps K and C) deoptimised it (docs/vehicle-dynamics.md, Session 17).
    const sameBlock = this.blockN === N, kept = this.keptDerivatives, large = this.large;
    const block = this.blockKept = matrix && !derivatives && sameBlock;
    const kc = matrix && !block && (derivatives || !kept);
    forces.assemble(v, t, this.Q, kc ? this.K : null, kc ? this.C : null, this.sparseForces, this.turns);
    if (kc) this.derivatives++;
    if (kc && large) { this.keptDerivatives = true; this.keepVanishedDiagonals(); }
    if (matrix && !block) this.clear(N);
    if (!(matrix && !block) && this.freeSlots !== null) return this.gyroResidual(v, vdot, lambda, constraints);
    this.gyro(v, matrix && !block, N, gyroScale);
    return this.dynamicResidual(vdot, lambda, constraints);
  }

  /**
   * gyro(v) (no matrix) and dynamicResidual in one pass over the bodies, where their slots do
   * not overlap (freeSlots): a body's r_i = ((0 + g_i) − Q_i) + (M v̇)_i and another slot's
   * 0 − Q_i, G as gyro leaves it (+0 off the bodies): the same operations as the two passes.
   */
  private gyroResidual(v: Float64Array, vdot: Float64Array, lambda: Float64Array, constraints: ConstraintRows): number {
    const r = this.r, G = this.G, Q = this.Q, g6 = this.g6, h6 = this.h6, bodies = this.bodies, bodySlot = this.bodySlot, free = this.freeSlots!;
    let scale = 1e-300;
    for (let k = 0; k < free.length; k++) {
      const i = free[k], q = Q[i];
      G[i] = 0;
      r[i] = 0 - q;
      const a = Math.abs(q);
      if (a > scale) scale = a;
    }
    for (let b = 0; b < bodies.length; b++) {
      const c0 = bodySlot[b];
      if (c0 < 0) continue;
      const M = bodies[b].M, pattern = this.patterns[b];
      if (pattern.rigid) rigidDynamics(g6, h6, M, pattern, v, vdot, c0);
      else { gyroscopic(g6, M, v, c0, null, pattern); massTimes(h6, M, pattern, vdot, c0); }
      for (let i = 0; i < 6; i++) {
        const g = 0 + g6[i], q = Q[c0 + i], s = h6[i];
        G[c0 + i] = g;
        r[c0 + i] = (g - q) + s;
        const aq = Math.abs(q), ag = Math.abs(g), as = Math.abs(s);
        if (aq > scale) scale = aq;
        if (ag > scale) scale = ag;
        if (as > scale) scale = as;
      }
    }
    constraints.addTransposeTimes(r, lambda);
    return scale;
  }

  /**
   * A large matrix's slot whose K and C diagonals both vanished (a tyre off the road: its
   * massless road part's vertical slot then has no diagonal at all) keeps their last nonzero
   * values. The refactor's pivot order took that diagonal, and an exact zero there sent the
   * refactor back to the pivoting LU and a new analysis (~3.5 ms, ten refactors' worth; the
   * bench case's first 3000 steps: 6 → 2 of them). A matrix kept over steps holds stale K and C
   * anyway (keptDerivatives): Newton's fixed point is the residual's, not the matrix's.
   */
  private keepVanishedDiagonals(): void {
    const n = this.n, K = this.K, C = this.C, kd = this.kDiagonal, cd = this.cDiagonal;
    for (let i = 0, ii = 0; i < n; i++, ii += n + 1) {
      if (K[ii] === 0 && C[ii] === 0) { K[ii] = kd[i]; C[ii] = cd[i]; } else { kd[i] = K[ii]; cd[i] = C[ii]; }
    }
  }

  /**
   * The matrix of a large system whose check failed (residual() computed r and Q at this
   * state): S cleared with the gyroscopic blocks, and K and C as `residual` takes them.
   */
  deferredMatrix(forces: ForceSet, derivatives: boolean, v: Float64Array, vdot: Float64Array, lambda: Float64Array, constraints: ConstraintRows, t: number, N: number, gyroScale: number): void {
    if (derivatives || !this.keptDerivatives) { this.residual(forces, true, v, vdot, lambda, constraints, t, N, gyroScale); return; }
    this.clear(N);
    this.gyro(v, true, N, gyroScale);
  }

  /**
   * r = M v̇ + g − Q + Jᵀλ (the active rows'; G and Q as last assembled); returns the force
   * scale (the largest |Q|, |g|, |M v̇|).
   */
  dynamicResidual(vdot: Float64Array, lambda: Float64Array, constraints: ConstraintRows): number {
    const n = this.n, r = this.r, G = this.G, Q = this.Q;
    let scale = 1e-300;
    for (let i = 0; i < n; i++) {
      r[i] = G[i] - Q[i];
      const q = Math.abs(Q[i]), g = Math.abs(G[i]);
      if (q > scale) scale = q;
      if (g > scale) scale = g;
    }
    const bodySlot = this.bodySlot, bodies = this.bodies, g6 = this.g6;
    for (let b = 0; b < bodies.length; b++) {
      const c0 = bodySlot[b];
      if (c0 < 0) continue;
      massTimes(g6, bodies[b].M, this.patterns[b], vdot, c0);
      for (let i = 0; i < 6; i++) {
        const s = g6[i];
        r[c0 + i] += s;
        const a = Math.abs(s);
        if (a > scale) scale = a;
      }
    }
    constraints.addTransposeTimes(r, lambda);
    return scale;
  }

  /** The largest |Φ_k| of the m rows (ConstraintRows.maxPhi), writing −Φ into rhs's rows n … (all active) as it reads Φ. */
  maxPhiTo(phi: Float64Array, m: number): number {
    const rhs = this.rhs, n = this.n;
    let e = 0, nan = false;
    for (let k = 0; k < m; k++) { const x = phi[k], a = Math.abs(x); rhs[n + k] = -x; if (a > e) e = a; else if (a !== a) nan = true; }
    return nan ? NaN : e;
  }

  /** maxResidual(), writing −r/β' into rhs's first n (the correction's dynamic rows) as it reads r. */
  maxResidualTo(betaP: number): number {
    const r = this.r, rhs = this.rhs;
    let e = 0;
    for (let i = 0; i < this.n; i++) { const x = r[i], a = Math.abs(x); rhs[i] = -x / betaP; if (a > e || a !== a) e = a !== a ? Infinity : a; }
    return e;
  }

  /** −r/β' into rhs's first n (the correction's dynamic rows). */
  rhsFromResidual(betaP: number): void {
    const r = this.r, rhs = this.rhs;
    for (let i = 0; i < this.n; i++) rhs[i] = -r[i] / betaP;
  }

  /** The largest |r_i|. */
  maxResidual(): number {
    const r = this.r;
    let e = 0;
    for (let i = 0; i < this.n; i++) { const a = Math.abs(r[i]); if (a > e || a !== a) e = a !== a ? Infinity : a; }
    return e;
  }
}

/** The slots (of n) outside every body's six from bodySlot (−1: fixed), or null where two bodies' overlap. */
function freeSlots(n: number, bodySlot: Int32Array): Int32Array | null {
  const owned = new Uint8Array(n);
  for (const c0 of bodySlot) {
    if (c0 < 0) continue;
    for (let i = 0; i < 6; i++) { if (owned[c0 + i]) return null; owned[c0 + i] = 1; }
  }
  const free: number[] = [];
  for (let i = 0; i < n; i++) if (!owned[i]) free.push(i);
  return Int32Array.from(free);
}
