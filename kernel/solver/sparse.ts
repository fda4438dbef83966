/**
 * The sparse path, for groups above SPARSE_MIN_UNKNOWNS unknowns: row blocks, normal
 * equations, envelope Cholesky in reverse Cuthill–McKee order (see kernel/solver/solve.ts).
 */
import { BlockRows, NormalEquations, blockAdjacency, reverseCuthillMcKee, type RowBlockPattern } from '../sparse';
import { ScalarTargetBlock, type ResidualBlock, type System } from '../system';
import { blockColumnMaps, blockPattern } from '../block-columns';
import type { Group } from './groups';
import { pullTerms, addPullTerms } from './objective';
import type { Linear } from './linear';
import type { Pull, SolveOptions } from './options';
import { norm2 } from './linear';
import { RowCache, blockSlots } from './row-cache';
import { FactorAge } from './factor-age';
import { REFINE_PASSES, STALE_PASSES, refinementVerdict } from './refinement';

/**
 * Relative Tikhonov term of the sparse normal equations (times each row's diagonal). Small,
 * because a drag's S = J H⁻¹ Jᵀ mixes the damping's 1e8 (1/1e-4²) with the grabbed body's
 * O(1) in one row: a direction only the grabbed body can serve has an eigenvalue some 1e8
 * below that row's diagonal, and ε·diag must stay well under it (1e-13 · 1e8 = 1e-5, then
 * taken out by refinement). Redundant rows meet the floor instead of a zero pivot.
 */
export const SPARSE_REGULARISATION = 1e-13;
/** Smallest damping weight the sparse drag step uses (its Hessian must be invertible). */
const SPARSE_MIN_WEIGHT = 1e-8;

/** The sparse pattern of a group with a given set of active limits (limits last). */
interface SparsePattern {
  /** Limited variables of the limit rows appended after the blocks, in order. */
  limitVars: number[];
  blocks: ResidualBlock[];
  offsets: Int32Array[];
  /** Per block: start of its local-column map (ld entries: compact column or −1, and scale). */
  mapPtr: Int32Array;
  map: Int32Array;
  scale: Float64Array;
  /** Per block: 1 when its local columns land on distinct stored columns, every one of them (each entry is then one product). */
  direct: Uint8Array;
  J: BlockRows;
  /** S = J Jᵀ (Newton steps) and S = J H⁻¹ Jᵀ (drag steps), each factored or not. */
  ne: NormalEquations;
  nePull: NormalEquations | null;
  factored: boolean;
  pullFactored: boolean;
  /** How old each factor is, and whether to renew it (kernel/solver/factor-age.ts). */
  age: FactorAge;
  pullAge: FactorAge;
  /** The trial slot's values, and W = J H⁻¹ for drags. */
  valsTrial: Float64Array;
  W: Float64Array | null;
}

export class SparseLinear implements Linear {
  readonly sparse = true;
  /** Solve each step with the last factorisation of its kind first (see STALE_PASSES). */
  reuseFactors = false;
  m = 0;
  c: Float64Array;
  cTrial: Float64Array;
  rowK: Float64Array;
  u: Float64Array;
  uTrial: Float64Array;
  fresh = false;
  hasJ = false;
  private readonly base: SparsePattern;
  private pattern: SparsePattern;
  private readonly withLimits = new Map<string, SparsePattern>();
  private readonly order: number[];
  private readonly local: Float64Array;
  private readonly localRes: Float64Array;
  private readonly lam: Float64Array;
  private readonly res: Float64Array;
  private readonly tmp: Float64Array;
  // drag objective: H⁻¹ by columns (diagonal) or by grabbed pose (6 × 6)
  private readonly hInv: Float64Array;
  private readonly grabOf: Int32Array;
  private readonly hg: Float64Array;
  private colScale: Float64Array;
  private grabVars: number[] = [];
  private grabCol = new Int32Array(4);
  private grabH = new Float64Array(4 * 36);
  private grabHinv = new Float64Array(4 * 36);
  private grabGrad = new Float64Array(4 * 6);

  constructor(private readonly system: System, private readonly g: Group, private readonly colOfVar: Int32Array) {
    const n = g.n, m = Math.max(1, g.rowsMax);
    this.c = new Float64Array(m);
    this.cTrial = new Float64Array(m);
    this.rowK = new Float64Array(m);
    this.lam = new Float64Array(m);
    this.res = new Float64Array(m);
    this.local = new Float64Array(Math.max(1, g.maxLocalDim));
    this.localRes = new Float64Array(m);
    this.u = new Float64Array(n);
    this.uTrial = new Float64Array(n);
    this.tmp = new Float64Array(n);
    this.hInv = new Float64Array(n);
    this.grabOf = new Int32Array(n).fill(-1);
    this.hg = new Float64Array(n);
    let widest = 1;
    for (const b of g.blocks) widest = Math.max(widest, system.blockLocalDim(b));
    this.colScale = new Float64Array(widest);
    // Fill-reducing order of the blocks: reverse Cuthill–McKee on blocks sharing a column.
    const patterns = g.blocks.map((b) => this.patternOf(system.block(b)));
    const adjacency = blockAdjacency(patterns, n);
    this.order = Array.from(reverseCuthillMcKee(patterns.length, adjacency.ptr, adjacency.adj), (k) => g.blocks[k]);
    this.base = this.build([]);
    this.pattern = this.base;
    let pure = true;
    for (const blk of this.base.blocks) if (blk.kind !== 'constraint') pure = false;
    this.rowCache = pure ? new RowCache(blockSlots(system, this.base.blocks)) : null;
  }
  /** Refinement passes of the last refined step. */
  private passes = 0;
  /** The base pattern's last evaluation (null when a block's rows read more than the state). */
  private readonly rowCache: RowCache | null;

  private patternOf(blk: ResidualBlock): RowBlockPattern {
    return blockPattern(this.system, this.colOfVar, blk);
  }

  private build(limitVars: number[]): SparsePattern {
    const system = this.system, L = system.lengthScale;
    const blocks: ResidualBlock[] = [], offsets: Int32Array[] = [];
    for (const b of this.order) { blocks.push(system.block(b)); offsets.push(system.blockOffsets(b)); }
    for (const v of limitVars) {
      const variable = system.variables[v];
      blocks.push(new ScalarTargetBlock(`limit:${variable.name}`, v, 0, variable.scale, 'limit'));
      offsets.push(Int32Array.of(variable.offset));
    }
    const patterns = blocks.map((blk) => this.patternOf(blk));
    const J = new BlockRows(this.g.n, patterns);
    const { mapPtr, map, scale } = blockColumnMaps(system, this.colOfVar, blocks, J, 1 / L);
    return {
      limitVars, blocks, offsets, mapPtr, map, scale, direct: directBlocks(J, mapPtr, map),
      J, ne: new NormalEquations(J), nePull: null, factored: false, pullFactored: false, age: new FactorAge(), pullAge: new FactorAge(), valsTrial: new Float64Array(J.vals.length), W: null,
    };
  }

  /** The current pattern's BlockRows (tests and checks). */
  get rows(): BlockRows {
    return this.pattern.J;
  }

  limited = false;
  setLimits(limits: readonly ScalarTargetBlock[]): void {
    this.fresh = false;
    this.limited = limits.length > 0;
    if (limits.length === 0) { this.pattern = this.base; return; }
    const vars = limits.map((l) => l.vars[0]);
    const key = vars.join(',');
    let p = this.withLimits.get(key);
    if (!p) {
      if (this.withLimits.size >= 16) this.withLimits.clear(); // active sets seen lately, not all ever
      p = this.build(vars);
      this.withLimits.set(key, p);
    }
    // targets: the limit blocks of the pattern stand for these
    for (let i = 0; i < limits.length; i++) (p.blocks[p.blocks.length - limits.length + i] as ScalarTargetBlock).target = limits[i].target;
    this.pattern = p;
  }

  private evaluate(c: Float64Array, vals: Float64Array | null): number {
    const p = this.pattern, state = this.system.state, L = this.system.lengthScale;
    const cache = p === this.base ? this.rowCache : null;
    if (cache !== null && cache.holds(state, L, vals !== null)) return cache.restore(c, vals);
    if (cache === null) this.rowCache?.touched(c); // (rows with limits: c holds the base pattern's no more)
    // One call a block: a loop with its work inline is compiled by on-stack replacement in a
    // long pattern's first pass, before the code after it has run, and that cached code is
    // entered and thrown away again at every later call (a deopt loop)
    for (let k = 0; k < p.blocks.length; k++) this.blockRows(p, k, state, c, vals);
    if (cache !== null) cache.store(state, L, c, p.J.m, vals);
    return p.J.m;
  }

  /** Block k's residual rows into c and, with vals, its Jacobian entries into its slab of vals. */
  private blockRows(p: SparsePattern, k: number, state: Float64Array, c: Float64Array, vals: Float64Array | null): void {
    const J = p.J, local = this.local, localRes = this.localRes;
    p.blocks[k].evaluate(state, p.offsets[k], localRes, vals ? local : null);
    const row0 = J.rowPtr[k], rows = J.rowPtr[k + 1] - row0;
    for (let r = 0; r < rows; r++) c[row0 + r] = localRes[r];
    if (!vals) return;
    const w = J.colPtr[k + 1] - J.colPtr[k], base = J.valPtr[k];
    const m0 = p.mapPtr[k], ld = p.mapPtr[k + 1] - m0;
    const direct = p.direct[k] === 1;
    if (!direct) vals.fill(0, base, base + rows * w);
    for (let lc = 0; lc < ld; lc++) {
      const t = p.map[m0 + lc];
      if (t < 0) continue;
      const s = p.scale[m0 + lc];
      // a direct block's entry is this one product, added to the zero it would be added to (0 + x)
      if (direct) for (let r = 0; r < rows; r++) vals[base + r * w + t] = 0 + local[r * ld + lc] * s;
      else for (let r = 0; r < rows; r++) vals[base + r * w + t] += local[r * ld + lc] * s;
    }
  }

  assemble(withJ: boolean): number {
    this.m = this.evaluate(this.c, withJ ? this.pattern.J.vals : null);
    this.fresh = true;
    this.hasJ = withJ;
    return this.m;
  }
  assembleTrial(withJ: boolean): number {
    this.trialHasJ = withJ;
    return this.evaluate(this.cTrial, withJ ? this.pattern.valsTrial : null);
  }
  private trialHasJ = false;
  acceptTrial(): void {
    const p = this.pattern;
    const c = this.c; this.c = this.cTrial; this.cTrial = c;
    const v = p.J.vals; p.J.vals = p.valsTrial; p.valsTrial = v;
    this.m = p.J.m;
    this.fresh = true;
    this.hasJ = this.trialHasJ;
  }
  /**
   * Scaled rows into the trial slot's buffers, which then swap with the current ones: the raw
   * rows stay where the row cache points (a frame that ends on a normalised slot still
   * starts the next one without an evaluation). The trial slot's contents are never read
   * after a normalisation (a trial is evaluated, then accepted or dropped, before the next).
   */
  normalise(): void {
    const p = this.pattern, J = p.J, src = J.vals, dst = p.valsTrial, c = this.c, cs = this.cTrial, rowK = this.rowK;
    const colPtr = J.colPtr, rowPtr = J.rowPtr, valPtr = J.valPtr;
    // before the loop: V8 enters this long loop by on-stack replacement at a first call, and
    // a store after it, never run by then, sent that code back to the interpreter at the
    // end of every call until the whole function was compiled (frames 0-17 of a drag)
    this.fresh = false;
    J.vals = dst; p.valsTrial = src; this.c = cs; this.cTrial = c;
    if (this.rowCache !== null) { this.rowCache.touched(dst); this.rowCache.touched(cs); }
    for (let k = 0, blocks = J.blocks; k < blocks; k++) {
      const w = colPtr[k + 1] - colPtr[k];
      let q = valPtr[k];
      for (let i = rowPtr[k], end = rowPtr[k + 1]; i < end; i++, q += w) {
        let s = 0;
        for (let t = 0; t < w; t++) s += src[q + t] * src[q + t];
        const f = s > 0 ? 1 / Math.sqrt(s) : 1;
        rowK[i] = f;
        // (times 1 is exact: one loop for every row, no branch first taken mid-drag)
        for (let t = 0; t < w; t++) dst[q + t] = src[q + t] * f;
        cs[i] = c[i] * f;
      }
    }
  }

  chordStep(): boolean {
    return false; // the normal equations' factor is of the last J, which is overwritten
  }
  warmChord(): boolean {
    return false;
  }

  newtonStep(u: Float64Array): boolean {
    const p = this.pattern;
    if (this.reuseFactors && p.factored && this.refinedNewton(u, true)) {
      if (p.age.used(this.passes)) p.factored = false; // aged: renewed at the next step
      return true;
    }
    p.ne.assemble(null);
    p.factored = p.ne.factor(SPARSE_REGULARISATION);
    if (!p.factored) return false;
    p.age.renewed();
    this.refinedNewton(u, false);
    return true;
  }
  /**
   * u = Jᵀ μ with (J Jᵀ + ε) μ = −c on the factored S, then iterative refinement, which takes
   * the regularisation's bias (and a stale factor's error) out: du = Jᵀ S⁻¹ (−c − J u).
   * Returns false when a stale factor did not converge fast enough (see STALE_PASSES).
   */
  private refinedNewton(u: Float64Array, stale: boolean): boolean {
    const { J, ne } = this.pattern;
    const m = J.m, n = this.g.n, c = this.c, lam = this.lam, res = this.res, tmp = this.tmp;
    for (let i = 0; i < m; i++) lam[i] = -c[i];
    ne.solve(lam);
    J.mulT(u, lam);
    let last = Infinity;
    for (let pass = 0, most = stale ? STALE_PASSES : REFINE_PASSES; pass < most;) {
      pass++; // (counted at the top, where the first pass runs it: see refinementVerdict)
      J.mul(res, u);
      for (let i = 0; i < m; i++) res[i] = -c[i] - res[i];
      ne.solve(res);
      J.mulT(tmp, res);
      let du = 0, uMax = 0;
      for (let j = 0; j < n; j++) { u[j] += tmp[j]; du = Math.max(du, Math.abs(tmp[j])); uMax = Math.max(uMax, Math.abs(u[j])); }
      const verdict = refinementVerdict(du, uMax, last, stale);
      this.passes = pass;
      if (verdict !== 0) return verdict > 0;
      last = du;
    }
    return !stale;
  }

  /**
   * The objective's block-diagonal Gauss–Newton Hessian, inverted: damping on every column
   * not grabbed (diagonal), and each grabbed body's 6 × 6 (turn resistance and its pulls);
   * the gradient lives on the grabbed bodies only.
   */
  private prepareObjective(pulls: readonly Pull[], options: SolveOptions): void {
    const system = this.system, n = this.g.n;
    const damping = Math.max(options.damping ?? 1e-4, SPARSE_MIN_WEIGHT), turn = Math.max(options.turnResistance ?? 1e-2, SPARSE_MIN_WEIGHT);
    this.hInv.fill(1 / (damping * damping));
    for (let j = 0; j < n; j++) if (this.grabOf[j] >= 0) this.grabOf[j] = -1;
    this.grabVars.length = 0;
    for (const p of pulls) {
      const col = this.colOfVar[p.variable];
      if (col < 0) continue;
      const variable = system.variables[p.variable];
      if (variable.kind !== 'pose') { this.hInv[col] = 1 / (turn * turn); continue; }
      let gi = this.grabVars.indexOf(p.variable);
      if (gi < 0) {
        gi = this.grabVars.length;
        this.grabVars.push(p.variable);
        if (this.grabCol.length <= gi) this.growGrabbed(2 * gi + 2);
        this.grabCol[gi] = col;
        this.grabH.fill(0, gi * 36, gi * 36 + 36);
        this.grabGrad.fill(0, gi * 6, gi * 6 + 6);
        for (let k = 0; k < 3; k++) this.grabH[gi * 36 + k * 7] = turn * turn;
        for (let k = 0; k < 6; k++) this.grabOf[col + k] = gi;
      }
      pullTerms(system, p, true);
      addPullTerms(this.grabH, 6, gi * 36, this.grabGrad, gi * 6);
    }
    for (let gi = 0; gi < this.grabVars.length; gi++) {
      if (!invert6(this.grabHinv, gi * 36, this.grabH, gi * 36)) {
        // a pull with no weight: damp the body like any other
        for (let k = 0; k < 6; k++) this.grabH[gi * 36 + k * 7] += damping * damping;
        invert6(this.grabHinv, gi * 36, this.grabH, gi * 36);
      }
    }
  }
  private growGrabbed(size: number): void {
    const col = new Int32Array(size); col.set(this.grabCol); this.grabCol = col;
    const H = new Float64Array(size * 36); H.set(this.grabH); this.grabH = H;
    const Hi = new Float64Array(size * 36); Hi.set(this.grabHinv); this.grabHinv = Hi;
    const gr = new Float64Array(size * 6); gr.set(this.grabGrad); this.grabGrad = gr;
  }
  /** out ← H⁻¹ x (length n). */
  private applyHinv(out: Float64Array, x: Float64Array): void {
    const n = this.g.n, hInv = this.hInv, grabOf = this.grabOf;
    for (let j = 0; j < n; j++) out[j] = grabOf[j] >= 0 ? 0 : x[j] * hInv[j];
    for (let gi = 0; gi < this.grabVars.length; gi++) {
      const c0 = this.grabCol[gi], Hi = this.grabHinv, b = gi * 36;
      for (let a = 0; a < 6; a++) {
        let s = 0;
        for (let q = 0; q < 6; q++) s += Hi[b + a * 6 + q] * x[c0 + q];
        out[c0 + a] = s;
      }
    }
  }

  pulledStep(u: Float64Array, pulls: readonly Pull[], options: SolveOptions): 'step' | 'still' | 'nan' {
    const p = this.pattern;
    this.prepareObjective(pulls, options);
    if (this.reuseFactors && p.pullFactored && this.refinedPull(u, true)) {
      if (p.pullAge.used(this.passes)) p.pullFactored = false; // aged: renewed at the next step
      return Number.isFinite(norm2(u, this.g.n)) ? 'step' : 'nan';
    }
    const ne = p.nePull ??= new NormalEquations(p.J);
    ne.assemble(this.weighted());
    p.pullFactored = ne.factor(SPARSE_REGULARISATION);
    if (!p.pullFactored) return 'nan';
    p.pullAge.renewed();
    this.refinedPull(u, false);
    return Number.isFinite(norm2(u, this.g.n)) ? 'step' : 'nan';
  }
  /** W = J H⁻¹, block by block (H⁻¹ is diagonal or 6 × 6 within one body's columns). */
  private weighted(): Float64Array {
    const p = this.pattern, J = p.J;
    const W = p.W ??= new Float64Array(J.vals.length);
    const vals = J.vals, cols = J.cols, colPtr = J.colPtr, rowPtr = J.rowPtr, valPtr = J.valPtr;
    const hInv = this.hInv, grabOf = this.grabOf, Hi = this.grabHinv, grabCol = this.grabCol, colScale = this.colScale;
    for (let k = 0; k < J.blocks; k++) {
      const c0 = colPtr[k], w = colPtr[k + 1] - c0, rows = rowPtr[k + 1] - rowPtr[k], q0 = valPtr[k];
      let grabbed = false;
      for (let t = 0; t < w; t++) {
        const col = cols[c0 + t];
        colScale[t] = hInv[col];
        if (grabOf[col] >= 0) grabbed = true;
      }
      if (!grabbed) {
        for (let r = 0, q = q0; r < rows; r++, q += w) for (let t = 0; t < w; t++) W[q + t] = vals[q + t] * colScale[t];
        continue;
      }
      for (let r = 0, q = q0; r < rows; r++, q += w) {
        for (let t = 0; t < w; t++) {
          const col = cols[c0 + t], gi = grabOf[col];
          if (gi < 0) { W[q + t] = vals[q + t] * colScale[t]; continue; }
          // (J H⁻¹)[i, col] = Σ_s J[i, s] H⁻¹[s, col] over the body's 6 columns
          const off = col - grabCol[gi], t0 = q + t - off, b = gi * 36 + off;
          let sum = 0;
          for (let s6 = 0; s6 < 6; s6++) sum += vals[t0 + s6] * Hi[b + s6 * 6];
          W[q + t] = sum;
        }
      }
    }
    return W;
  }
  /**
   * The drag step on the factored S = J H⁻¹ Jᵀ: (S + ε) λ = c − J H⁻¹ g, u = −H⁻¹ (g + Jᵀ λ),
   * then refinement on the constraints (J du = −c − J u with du = −H⁻¹ Jᵀ dλ keeps u of that
   * form). Returns false when a stale factor did not converge fast enough.
   */
  private refinedPull(u: Float64Array, stale: boolean): boolean {
    const p = this.pattern, J = p.J, ne = p.nePull!;
    const m = J.m, n = this.g.n, c = this.c, lam = this.lam, res = this.res, tmp = this.tmp, hg = this.hg;
    // gradient (grabbed columns) and H⁻¹ g
    tmp.fill(0);
    for (let gi = 0; gi < this.grabVars.length; gi++) for (let a = 0; a < 6; a++) tmp[this.grabCol[gi] + a] = this.grabGrad[gi * 6 + a];
    this.applyHinv(hg, tmp);
    J.mulMarked(lam, hg, this.grabOf); // H⁻¹ g lives on the grabbed columns
    for (let i = 0; i < m; i++) lam[i] = c[i] - lam[i];
    ne.solve(lam);
    J.mulT(u, lam);
    for (let j = 0; j < n; j++) u[j] += tmp[j];
    this.applyHinv(tmp, u);
    for (let j = 0; j < n; j++) u[j] = -tmp[j];
    let last = Infinity;
    for (let pass = 0, most = stale ? STALE_PASSES : REFINE_PASSES; pass < most;) {
      pass++;
      J.mul(res, u);
      for (let i = 0; i < m; i++) res[i] = c[i] + res[i];
      ne.solve(res);
      J.mulT(tmp, res);
      this.applyHinv(hg, tmp);
      let du = 0, uMax = 0;
      for (let j = 0; j < n; j++) { u[j] -= hg[j]; du = Math.max(du, Math.abs(hg[j])); uMax = Math.max(uMax, Math.abs(u[j])); }
      const verdict = refinementVerdict(du, uMax, last, stale);
      this.passes = pass;
      if (verdict !== 0) return verdict > 0;
      last = du;
    }
    return !stale;
  }
}

/** Per block of J: 1 when its mapped local columns (map ≥ 0) hit each of its stored columns exactly once. */
function directBlocks(J: BlockRows, mapPtr: Int32Array, map: Int32Array): Uint8Array {
  const direct = new Uint8Array(J.blocks);
  for (let k = 0; k < J.blocks; k++) {
    const w = J.colPtr[k + 1] - J.colPtr[k], hit = new Uint8Array(w);
    let distinct = 0, repeated = false;
    for (let q = mapPtr[k]; q < mapPtr[k + 1]; q++) {
      const t = map[q];
      if (t < 0) continue;
      if (hit[t] === 1) repeated = true;
      else { hit[t] = 1; distinct++; }
    }
    direct[k] = !repeated && distinct === w ? 1 : 0;
  }
  return direct;
}

/** out = A⁻¹ for a symmetric positive-definite 6 × 6 (row-major at offsets). False if not positive definite. */
function invert6(out: Float64Array, o: number, A: Float64Array, a: number): boolean {
  const Lf = inv6L;
  for (let i = 0; i < 36; i++) Lf[i] = A[a + i];
  let maxDiag = 0;
  for (let i = 0; i < 6; i++) maxDiag = Math.max(maxDiag, Lf[i * 7]);
  for (let j = 0; j < 6; j++) {
    let d = Lf[j * 7];
    for (let k = 0; k < j; k++) d -= Lf[j * 6 + k] * Lf[j * 6 + k];
    if (!(d > 1e-14 * maxDiag)) return false;
    d = Math.sqrt(d);
    Lf[j * 7] = d;
    for (let i = j + 1; i < 6; i++) {
      let s = Lf[i * 6 + j];
      for (let k = 0; k < j; k++) s -= Lf[i * 6 + k] * Lf[j * 6 + k];
      Lf[i * 6 + j] = s / d;
    }
  }
  for (let col = 0; col < 6; col++) {
    const x = inv6x;
    for (let i = 0; i < 6; i++) {
      let s = i === col ? 1 : 0;
      for (let k = 0; k < i; k++) s -= Lf[i * 6 + k] * x[k];
      x[i] = s / Lf[i * 7];
    }
    for (let i = 5; i >= 0; i--) {
      let s = x[i];
      for (let k = i + 1; k < 6; k++) s -= Lf[k * 6 + i] * x[k];
      x[i] = s / Lf[i * 7];
    }
    for (let i = 0; i < 6; i++) out[o + i * 6 + col] = x[i];
  }
  return true;
}
const inv6L = new Float64Array(36);
const inv6x = new Float64Array(6);
