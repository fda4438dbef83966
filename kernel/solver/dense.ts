/**
 * The dense path, for small groups: pivoted QR of Jᵀ (rank and redundancy for free), the
 * null-space minimiser of the objective.
 */
import { PivotedQR, choleskySolve } from '../linalg';
import { ScalarTargetBlock, type System } from '../system';
import { type Group, RANK_TOLERANCE, assembleGroup } from './groups';
import { objective } from './objective';
import type { Linear } from './linear';
import type { Pull, SolveOptions } from './options';

/** Scale rows of row-major J (m × n) and c to unit length, recording the factors. */
function normaliseDense(J: Float64Array, c: Float64Array, rowK: Float64Array, m: number, n: number): void {
  for (let i = 0; i < m; i++) {
    let s = 0;
    const base = i * n;
    for (let j = 0; j < n; j++) s += J[base + j] * J[base + j];
    const k = s > 0 ? 1 / Math.sqrt(s) : 1;
    rowK[i] = k;
    if (k !== 1) { for (let j = 0; j < n; j++) J[base + j] *= k; c[i] *= k; }
  }
}

/** rhs[k] = −c[perm[k]] for k < r: the pivoted rows' right-hand side (rows already normalised). */
function negatedRows(rhs: Float64Array, c: Float64Array, perm: Int32Array, r: number): void {
  for (let k = 0; k < r; k++) rhs[k] = -c[perm[k]];
}
/** u = [y₀…y_{r−1}, 0…]: the range part of a step before Q is applied. */
function rangeInto(u: Float64Array, y: Float64Array, r: number): void {
  u.fill(0);
  for (let k = 0; k < r; k++) u[k] = y[k];
}

export class DenseLinear implements Linear {
  readonly sparse = false;
  reuseFactors = false;
  m = 0;
  c: Float64Array;
  cTrial: Float64Array;
  rowK: Float64Array;
  u: Float64Array;
  uTrial: Float64Array;
  fresh = false;
  hasJ = false;
  private J: Float64Array;
  private JTrial: Float64Array;
  private trialRows = 0;
  private trialHasJ = false;
  private limits: readonly ScalarTargetBlock[] = [];
  private readonly local: Float64Array;
  private readonly localRes: Float64Array;
  private readonly qr: PivotedQR;
  private readonly y: Float64Array;
  private readonly rhs: Float64Array;
  private H: Float64Array | null = null;
  private grad: Float64Array | null = null;
  private Hzz: Float64Array | null = null;
  private Z: Float64Array | null = null;
  private HZ: Float64Array | null = null;
  private ur: Float64Array | null = null;

  constructor(private readonly system: System, private readonly g: Group, private readonly colOfVar: Int32Array) {
    const n = g.n, m = Math.max(1, g.rowsMax);
    this.J = new Float64Array(m * n);
    this.JTrial = new Float64Array(m * n);
    this.c = new Float64Array(m);
    this.cTrial = new Float64Array(m);
    this.rowK = new Float64Array(m);
    this.local = new Float64Array(Math.max(1, g.maxLocalDim));
    this.localRes = new Float64Array(m);
    this.qr = new PivotedQR(n, m);
    this.y = new Float64Array(Math.max(n, m));
    this.rhs = new Float64Array(Math.max(n, m));
    this.u = new Float64Array(n);
    this.uTrial = new Float64Array(n);
  }

  limited = false;
  setLimits(limits: readonly ScalarTargetBlock[]): void {
    // the factorisation stays valid across solves while no limit row comes or goes
    if (limits.length > 0 || this.limits.length > 0) this.factoredRows = -1;
    this.limits = limits;
    this.limited = limits.length > 0;
    this.fresh = false;
  }
  // (27 bytes of bytecode or fewer: V8 then inlines it wherever it is called, whatever its
  // caller's inlining budget; at 37 bytes newton called it, and it was compiled on its own in a
  // fresh process's fifth drive, inside fourbar_drive_step_us's rounds: docs/solver-warm-up.md)
  warmChord(): boolean {
    return this.factoredRows === this.m && this.fullRank;
  }
  /** Rows of the factorisation in `qr` (−1: none to reuse). */
  private factoredRows = -1;
  /** Whether that factorisation had full column rank (qr.rank === g.n). */
  private fullRank = false;
  assemble(withJ: boolean): number {
    this.m = assembleGroup(this.system, this.g, this.colOfVar, this.limits, this.c, withJ ? this.J : null, this.local, this.localRes);
    this.fresh = true;
    this.hasJ = withJ;
    return this.m;
  }
  assembleTrial(withJ: boolean): number {
    this.trialRows = assembleGroup(this.system, this.g, this.colOfVar, this.limits, this.cTrial, withJ ? this.JTrial : null, this.local, this.localRes);
    this.trialHasJ = withJ;
    return this.trialRows;
  }
  acceptTrial(): void {
    const c = this.c; this.c = this.cTrial; this.cTrial = c;
    const J = this.J; this.J = this.JTrial; this.JTrial = J;
    this.m = this.trialRows;
    this.fresh = true;
    this.hasJ = this.trialHasJ;
  }
  normalise(): void {
    normaliseDense(this.J, this.c, this.rowK, this.m, this.g.n);
    this.fresh = false;
  }
  /**
   * Factor Jᵀ and set u = Q [y; 0] with R₁₁ᵀ y = −c_P. Returns the rank. (Its loops are
   * helpers: run at Newton steps only, ~46 a four-bar drive, a loop here made it hot in a
   * fresh process's fifth drive, and its compile landed in the drives fourbar_drive_step_us
   * times; docs/solver-warm-up.md.)
   */
  private rangeStep(u: Float64Array): number {
    const { qr, rhs, y, c } = this;
    const r = qr.factor(this.J, this.g.n, this.m, RANK_TOLERANCE);
    this.factoredRows = this.m;
    this.fullRank = r === this.g.n;
    negatedRows(rhs, c, qr.perm, r);
    qr.solveRt(y, rhs);
    rangeInto(u, y, r);
    return r;
  }
  newtonStep(u: Float64Array): boolean {
    this.rangeStep(u);
    this.qr.applyQ(u);
    return true; // a non-finite step is caught by the caller
  }
  chordStep(u: Float64Array): boolean {
    const { qr, rhs, y, c, rowK } = this;
    if (this.factoredRows !== this.m) return false;
    const r = qr.rank;
    for (let k = 0; k < r; k++) { const i = qr.perm[k]; rhs[k] = -c[i] * rowK[i]; }
    qr.solveRt(y, rhs);
    rangeInto(u, y, r);
    qr.applyQ(u);
    return true;
  }
  pulledStep(u: Float64Array, pulls: readonly Pull[], options: SolveOptions): 'step' | 'still' | 'nan' {
    const n = this.g.n, qr = this.qr, rhs = this.rhs;
    const r = this.rangeStep(u);
    if (r >= n) return 'still'; // nothing left to move
    const kz = n - r;
    const H = this.H ??= new Float64Array(n * n);
    const grad = this.grad ??= new Float64Array(n);
    const Z = this.Z ??= new Float64Array(n * n);
    const HZ = this.HZ ??= new Float64Array(n * n);
    const Hzz = this.Hzz ??= new Float64Array(n * n);
    const ur = this.ur ??= new Float64Array(n);
    objective(this.system, this.g, pulls, options, this.colOfVar, H, grad);
    // The null space Z = Q[:, r:] and the range part of the step ur = Q [y; 0]; then
    // (Zᵀ H Z) z = −Zᵀ (g + H ur), the objective's step in the null space.
    for (let a = 0; a < kz; a++) {
      Z.fill(0, a * n, a * n + n);
      Z[a * n + r + a] = 1;
      qr.applyQ(Z, a * n);
    }
    ur.set(u.subarray(0, n));
    qr.applyQ(ur);
    for (let i = 0; i < n; i++) {
      let s = grad[i];
      const hi = i * n;
      for (let j = 0; j < n; j++) { const h = H[hi + j]; if (h !== 0) s += h * ur[j]; }
      grad[i] = s; // g + H ur
    }
    for (let b = 0; b < kz; b++) {
      const zb = b * n;
      for (let i = 0; i < n; i++) {
        let s = 0;
        const hi = i * n;
        for (let j = 0; j < n; j++) { const h = H[hi + j]; if (h !== 0) s += h * Z[zb + j]; }
        HZ[zb + i] = s;
      }
    }
    for (let a = 0; a < kz; a++) {
      const za = a * n;
      let s = 0;
      for (let i = 0; i < n; i++) s += Z[za + i] * grad[i];
      rhs[a] = -s;
      for (let b = 0; b <= a; b++) {
        const zb = b * n;
        let h = 0;
        for (let i = 0; i < n; i++) h += Z[za + i] * HZ[zb + i];
        Hzz[a * kz + b] = h; Hzz[b * kz + a] = h;
      }
    }
    if (!choleskySolve(Hzz, rhs, kz)) return 'still';
    for (let a = 0; a < kz; a++) u[r + a] = rhs[a];
    qr.applyQ(u);
    return 'step';
  }
}

