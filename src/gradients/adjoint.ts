/**
 * Stage 6 of a gradient run, the discrete adjoint: one backward sweep for every result at once.
 * Each result's cotangent μ = (μq, μv, μv̇, μa) of each step's end runs from its last touched
 * step down to the start; each step's matrix is rebuilt and factored once and solved transposed
 * once per result, and each parameter needs only its ∂R/∂p (and a hardpoint's Φ_p) dotted with
 * those solves. On R³ × SO(3) μv, μv̇, μa are those of the scheme's own η, η̇, a (product-step.ts).
 *
 * The sweep's named stages: a step's result cotangents, one result's step back through the
 * step matrix, the start's result cotangents, the start's parameter rows, one result's
 * gradient through the start.
 */
import type { StoredStep } from './forward';
import type { Linearisation } from './linearisation';
import type { ParameterRows } from './parameter-rows';
import type { ResultReader } from './result-reading';
import type { RunSetup } from './setup';
import type { StartTangents } from './start-tangents';
import type { Tracker } from './trackers';

/** The sweep's inputs and its buffers: every result's cotangents (per tracker) and one step's scratch. */
interface Sweep {
  readonly run: RunSetup;
  readonly pr: ParameterRows;
  readonly lin: Linearisation;
  readonly trackers: readonly Tracker[];
  readonly reader: ResultReader;
  readonly mq: Float64Array[]; readonly mv: Float64Array[]; readonly mvd: Float64Array[]; readonly ma: Float64Array[];
  readonly bqb: Float64Array; readonly bvb: Float64Array; readonly tqb: Float64Array;
  readonly rdyn: Float64Array; readonly rcon: Float64Array; readonly Mr: Float64Array;
  /** ∂R/∂p_j (rows n) and Φ_p (rows m) of every parameter at one stored state. */
  readonly rpAll: Float64Array; readonly rcAll: Float64Array;
}

/** Each result's gradient into its tracker's `grad`, from its weights on the stored steps' states. */
export function adjointSweep(run: RunSetup, pr: ParameterRows, lin: Linearisation, st: StartTangents, trackers: readonly Tracker[], reader: ResultReader, stored: readonly StoredStep[], weights: Map<number, number>[]): void {
  const { options, system, n, m, P, pm } = run;
  const { am, af, gamma, beta } = lin.coefficients;
  const vec = () => trackers.map(() => new Float64Array(n));
  const sw: Sweep = {
    run, pr, lin, trackers, reader, mq: vec(), mv: vec(), mvd: vec(), ma: vec(),
    bqb: new Float64Array(n), bvb: new Float64Array(n), tqb: new Float64Array(n), rdyn: new Float64Array(n), rcon: new Float64Array(m), Mr: new Float64Array(n),
    rpAll: new Float64Array(P * n), rcAll: new Float64Array(P * m),
  };
  const lasts = weights.map((w) => Math.max(...w.keys()));
  const last = Math.max(...lasts);
  for (const tr of trackers) tr.grad.fill(0);
  for (let k = last; k >= 1; k--) {
    const s = stored[k], h = s.h;
    restoreStep(run, s);
    if (pm) pm.at(system.state, s.v, s.vdot);
    options.onProgress?.('backward', last - k + 1, last);
    trackers.forEach((tr, r) => {
      const w = weights[r].get(k);
      if (w !== undefined) addResultAt(sw, tr, r, s, w, false);
    });
    const step: StepFactors = { h, betaP: (1 - am) / (h * h * beta * (1 - af)), gammaP: gamma / (h * beta), aP: 1 / (h * h * beta) };
    lin.linearise(h, s.y, s.v, s.vdot, s.lambda, s.t);
    parameterRows(sw, s);
    trackers.forEach((tr, r) => { if (k <= lasts[r]) stepBack(sw, tr, r, step); });
  }
  // the start: v̇₀' = a₀' = first n of [M Jᵀ; J 0]⁻¹[−(R_p + (H − K)q₀'); −(Wq q₀' + (∂J/∂p)v̇₀)], q₀' = −S⁻¹[Φ_p; 0], v₀' = 0
  const s0 = stored[0];
  restoreStep(run, s0);
  if (pm) {
    pm.at(system.state, s0.v, s0.vdot);
    trackers.forEach((_, r) => reader.startCotangentsToBody(sw.mq[r], sw.mv[r], sw.mvd[r], sw.ma[r]));
  }
  trackers.forEach((tr, r) => {
    const w0 = weights[r].get(0);
    if (w0 !== undefined) addResultAt(sw, tr, r, s0, w0, true);
  });
  const start = startRowsOf(sw, st, s0);
  trackers.forEach((tr, r) => startGradient(sw, st, tr, r, start));
}

/** Restore a stored step's end state (positions and the drivers' time). */
function restoreStep(run: RunSetup, s: StoredStep): void {
  run.system.state.set(s.state);
  run.rows.rowOn.set(s.active);
  for (const d of run.it.drivers) d.setTime(s.t);
}

/** A result's weight w on a stored state: its cotangents there, its λ cotangent and its explicit terms. */
function addResultAt(sw: Sweep, tr: Tracker, r: number, s: StoredStep, w: number, atStart: boolean): void {
  const { m, P } = sw.run;
  const { explicit, addResultCotangent, addStepCotangent } = sw.reader;
  if (tr.reaction) tr.reaction.lambda = s.lambda;
  if (atStart) addResultCotangent(tr, sw.mq[r], sw.mv[r], s.v, w, s.t);
  else addStepCotangent(tr, sw.mq[r], sw.mv[r], s.v, w, s.t);
  if (tr.lambdaRow >= 0) tr.lamCot += w; // at the start: zero without hardpoints (q₀' = v₀' = 0), kept for the record
  if (tr.reaction) { const lw = tr.reaction.lambdaWeights; for (let rr = 0; rr < m; rr++) tr.lamCots![rr] += w * lw[rr]; }
  for (let j = 0; j < P; j++) if (tr.explicitAxis[j].length) tr.grad[j] += w * explicit(tr, j, s.v);
}

/** ∂R/∂p_j and Φ_p of every parameter at one stored state, evaluated once per step. */
function parameterRows(sw: Sweep, s: StoredStep): void {
  const { n, m, P } = sw.run;
  const { terms, curved } = sw.pr;
  const { rpAll, rcAll } = sw;
  rpAll.fill(0); rcAll.fill(0);
  for (let j = 0; j < P; j++) terms[j](rpAll.subarray(j * n, (j + 1) * n), s.v, s.vdot, s.t, s.lambda, curved ? rcAll.subarray(j * m, (j + 1) * m) : null);
}

/** grad_j += (scale · r̄_dyn) · ∂R/∂p_j − r̄_con · Φ_p. */
function addParameters(sw: Sweep, g: Float64Array, scale: number): void {
  const { n, m, P } = sw.run;
  const { curved } = sw.pr;
  const { rdyn, rcon, rpAll, rcAll } = sw;
  for (let j = 0; j < P; j++) {
    let d = 0, e = 0;
    for (let i = 0; i < n; i++) d += rdyn[i] * rpAll[j * n + i];
    if (curved) for (let r = 0; r < m; r++) e += rcon[r] * rcAll[j * m + r];
    g[j] += scale * d - e;
  }
}

/** A step's size and the scheme's factors β', γ', a' at it. */
interface StepFactors { h: number; betaP: number; gammaP: number; aP: number }

/** One result's cotangents carried back through one step (its matrix factored by linearise), its parameters' share added. */
function stepBack(sw: Sweep, tr: Tracker, r: number, { h, betaP, gammaP, aP }: StepFactors): void {
  const { n, m, pm } = sw.run;
  const { J, Jr, Ad, rhs, lu, HK, GC, massTimes } = sw.lin;
  const { am, gamma, beta, c1 } = sw.lin.coefficients;
  const { bqb, bvb, tqb, rdyn, rcon, Mr } = sw;
  const q = sw.mq[r], vv = sw.mv[r], vd = sw.mvd[r], aa = sw.ma[r];
  // dD̄ = J_rᵀ μq + γ' μv + β' μv̇ + a' μa; [r̄_dyn; r̄_con] = A⁻ᵀ [dD̄; 0]
  for (let i = 0; i < n; i++) {
    let x = gammaP * vv[i] + betaP * vd[i] + aP * aa[i];
    for (let l = 0; l < n; l++) x += Jr[l * n + i] * q[l];
    rhs[i] = x;
  }
  for (let rr = 0; rr < m; rr++) rhs[n + rr] = 0;
  // a multiplier result: the cotangent of the λ unknowns (λ'/β')
  if (tr.lambdaRow >= 0) { rhs[n + tr.lambdaRow] = betaP * tr.lamCot; tr.lamCot = 0; }
  if (tr.lamCots) { for (let rr = 0; rr < m; rr++) rhs[n + rr] = betaP * tr.lamCots[rr]; tr.lamCots.fill(0); }
  lu.solveTransposed(rhs);
  for (let i = 0; i < n; i++) rdyn[i] = rhs[i];
  for (let rr = 0; rr < m; rr++) rcon[rr] = rhs[n + rr];
  // r_dyn = −(M v̇' + R_p + GC b_v + HK b_q)/β',  r_con = −(J b_q + Φ_p)
  addParameters(sw, tr.grad, -1 / betaP);
  if (pm) { Mr.fill(0); pm.addColumns(Mr, 1, pm.Meta, rdyn, 1, 1, 1, true); } else massTimes(Mr, rdyn, 0, 1);
  for (let i = 0; i < n; i++) {
    let xq = q[i], xv = vv[i];
    for (let l = 0; l < n; l++) { xq -= HK[l * n + i] * rdyn[l] / betaP; xv -= GC[l * n + i] * rdyn[l] / betaP; }
    for (let rr = 0; rr < m; rr++) xq -= J[rr * n + i] * rhs[n + rr];
    bqb[i] = xq; bvb[i] = xv;
  }
  // b_q = Ad q' + J_r t_q,  t_q = h v' + h² c1 a' + h² β â,  b_v = v' + h(1−γ) a' + hγ â,  â = (v̇' − αm a')/(1 − αm)
  for (let i = 0; i < n; i++) {
    let xq = 0, xt = 0;
    for (let l = 0; l < n; l++) { xq += Ad[l * n + i] * bqb[l]; xt += Jr[l * n + i] * bqb[l]; }
    q[i] = xq; tqb[i] = xt;
  }
  for (let i = 0; i < n; i++) {
    const aHat = aa[i] + h * h * beta * tqb[i] + h * gamma * bvb[i];
    vv[i] = h * tqb[i] + bvb[i];
    aa[i] = h * h * c1 * tqb[i] + h * (1 - gamma) * bvb[i] - (am * aHat) / (1 - am);
    vd[i] = vd[i] - Mr[i] / betaP + aHat / (1 - am);
  }
}

/** The start's system factored and every parameter's rows there: ∂R/∂p, Φ_p, (∂J/∂p)v̇₀ and a moving start's v₀' column. */
interface StartRows {
  readonly sv0: ReturnType<StartTangents['startVelocityAt']>;
  readonly phiAll: Float64Array | null;
  readonly jpvAll: Float64Array | null;
  readonly v0cols: (Float64Array | null)[];
}

function startRowsOf(sw: Sweep, st: StartTangents, s0: StoredStep): StartRows {
  const { parameters, n, m, P } = sw.run;
  const { hp, hpOf, rowsOf, curved } = sw.pr;
  const { startCurvature, factorStart } = sw.lin;
  const { startQ, startVelocityAt, startColumns, q0 } = st;
  const { rpAll } = sw;
  const sv0 = startVelocityAt(s0.v);
  if (curved) startCurvature(s0.v, s0.vdot, s0.lambda, s0.t, sv0 !== null); else factorStart();
  rpAll.fill(0);
  // per parameter: ∂R/∂p, Φ_p and (∂J/∂p)v̇₀ at the start
  const phiAll = curved ? new Float64Array(P * m) : null, jpvAll = curved ? new Float64Array(P * m) : null;
  for (let j = 0; j < P; j++) rowsOf(j, s0.lambda, s0.v, s0.vdot, s0.t, rpAll.subarray(j * n, (j + 1) * n), phiAll && phiAll.subarray(j * m, (j + 1) * m), jpvAll && jpvAll.subarray(j * m, (j + 1) * m));
  // a moving start's v₀' per parameter, as the direct route has it (null: none)
  const v0cols = parameters.map((_, j) => {
    if (!sv0 || !(startQ !== null || (hpOf[j] >= 0 && hp!.movesRows(hpOf[j])))) return null;
    const col = new Float64Array(n);
    startColumns(j, sv0, phiAll!.subarray(j * m, (j + 1) * m), s0.v, s0.t, q0, col);
    return col;
  });
  return { sv0, phiAll, jpvAll, v0cols };
}

/** One result's cotangents through the start's solve into its gradient (and, where the start moves, through q₀' and v₀'). */
function startGradient(sw: Sweep, st: StartTangents, tr: Tracker, r: number, { sv0, phiAll, jpvAll, v0cols }: StartRows): void {
  const { startRows, n, m, P } = sw.run;
  const { hp, hpOf, curved } = sw.pr;
  const { rhs, lu, Wq, HK, GC } = sw.lin;
  const { startLU, startQ } = st;
  const { rdyn, rcon } = sw;
  for (let i = 0; i < n; i++) rhs[i] = sw.mvd[r][i] + sw.ma[r][i];
  for (let rr = 0; rr < m; rr++) rhs[n + rr] = 0;
  if (tr.lambdaRow >= 0) { rhs[n + tr.lambdaRow] = tr.lamCot; tr.lamCot = 0; }
  if (tr.lamCots) { for (let rr = 0; rr < m; rr++) rhs[n + rr] = tr.lamCots[rr]; tr.lamCots.fill(0); }
  lu.solveTransposed(rhs);
  for (let i = 0; i < n; i++) rdyn[i] = rhs[i];
  rcon.fill(0);
  const save = Float64Array.from(rhs.subarray(n));
  addParameters(sw, tr.grad, -1);
  if (!curved) return;
  // (∂J/∂p)v̇₀ on the acceleration rows, then q₀' through the start solve
  for (let j = 0; j < P; j++) { let e = 0; for (let rr = 0; rr < m; rr++) e += save[rr] * jpvAll![j * m + rr]; tr.grad[j] -= e; }
  if (!startLU && !startQ) return;
  const qb = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let x = sw.mq[r][i];
    for (let l = 0; l < n; l++) x -= HK[l * n + i] * rdyn[l];
    for (let rr = 0; rr < m; rr++) x -= Wq![rr * n + i] * save[rr];
    qb[i] = x;
  }
  if (sv0) {
    // v₀': its cotangent mv − (∂g/∂v − C)ᵀ r̄_dyn dotted with each parameter's column (its q₀' dependence inside)
    const cv = Float64Array.from(sw.mv[r]);
    for (let i = 0; i < n; i++) { let x = 0; for (let l = 0; l < n; l++) x += GC[l * n + i] * rdyn[l]; cv[i] -= x; }
    v0cols.forEach((col, j) => { if (col) { let e = 0; for (let i = 0; i < n; i++) e += cv[i] * col[i]; tr.grad[j] += e; } });
  }
  if (startQ) {
    for (let j = 0; j < P; j++) { let e = 0; for (let i = 0; i < n; i++) e += qb[i] * startQ[j][i]; tr.grad[j] += e; }
    return;
  }
  startLU!.solveTransposed(qb);
  for (let j = 0; j < P; j++) {
    if (hpOf[j] < 0 || !hp!.movesRows(hpOf[j])) continue;
    let e = 0;
    startRows.forEach((rr, kk) => { e += qb[kk] * phiAll![j * m + rr]; });
    tr.grad[j] -= e;
  }
}
