/**
 * The iterations: constrained Newton with backtracking, and drags as feasible steps.
 */
import type { System, Variable } from '../system';
import type { Group, Workspace } from './groups';
import { pullValue } from './objective';
import type { Linear } from './linear';
import type { Pull, SolveOptions } from './options';
import { maxAbs, norm2 } from './linear';

// ---------------------------------------------------------------------------------------
// Iterations

/** The largest warm chord step, relative to the length scale. */
const WARM_STEP = 0.02;
/** A chord step is kept when it cuts the residual to this fraction or less; a warm one is followed by another at WARM_CHAIN. */
const CHORD_CUT = 0.25;
const WARM_CHAIN = 0.01;
/**
 * A warm chord that cut the residual to WARM_RATIO or less is also followed by another when,
 * at that rate, WARM_CHORDS more reach the tolerance: a chord step (rows and two triangular
 * solves) costs about an eighth of a Newton step (Jacobian, normalisation, QR), so a drive
 * converges on one factorisation for several steps; a poorer rate (an old factorisation)
 * takes a Newton step, which renews it.
 */
const WARM_RATIO = 0.03;
const WARM_CHORDS = 4;
/** A warm chord chain, converging linearly, goes on until the residual is this fraction of the tolerance. */
const POLISH = 0.01;

interface NewtonResult { converged: boolean; iterations: number; message?: string }

/** Plain constrained Newton: the minimum-norm step onto the constraints, with backtracking. */
export function newton(system: System, g: Group, lin: Linear, saved: Float64Array, options: SolveOptions, tol: number): NewtonResult {
  const n = g.n, L = system.lengthScale;
  const maxIterations = options.maxIterations ?? 60;
  const trust = (options.trustRadius ?? 0.5) * L;
  // After a full Newton step that cut the residual a hundredfold (the quadratic regime,
  // where the Jacobian barely changed), the next step reuses its factorisation (a chord
  // step: no new QR). It must cut the residual at least fourfold in one go, or the
  // iteration takes a full Newton step after all. A solve that starts where the last one
  // ended (a sweep's next state, a drive's next step) starts with a chord step on the last
  // solve's factorisation when its group has no freedom left (warmChord) and the step is
  // small against the model: the solution is then unique and only the path to it changes.
  let chordable = lin.warmChord(), warm = chordable, extended = false;
  const polishWarm = options.polish === true;
  for (let it = 0; it <= maxIterations; it++) {
    // the rows alone decide convergence and a chord step; J only for a Newton step (the
    // sparse path, which takes no chord steps, evaluates it with the rows: one pass)
    const lazy = !lin.sparse;
    let m = lin.fresh && (lazy || lin.hasJ) ? lin.m : lin.assemble(!lazy);
    const cInf = maxAbs(lin.c, m);
    if (Number.isNaN(cInf)) return { converged: false, iterations: it, message: 'non-finite residual' };
    // an extended chord chain (below) converges linearly and so lands just under the
    // tolerance, where Newton's last step lands far under it: it goes on to POLISH·tol
    // (every warm chain, when asked: options.polish)
    const polishing = cInf <= tol;
    if (polishing && !((extended || (warm && polishWarm)) && chordable && cInf > POLISH * tol)) return { converged: true, iterations: it };
    if (it === maxIterations) break;
    const u = lin.u;
    if (chordable) {
      chordable = false;
      if (lin.chordStep(u) && (!warm || maxAbs(u, n) <= WARM_STEP * L)) {
        // Try the chord step `u` (full length): kept, and the trial made current, when it cuts
        // the row-scaled residual to CHORD_CUT or less (or to the tolerance); otherwise the
        // state is put back. ratio: the residual's, after / before (0 at the tolerance),
        // Infinity when the step was not kept. (Here, not in a function of its own: newton
        // inlined that one, which was compiled on its own as well, a drive after newton was
        // marked, in the drives fourbar_drive_step_us times: docs/solver-warm-up.md, session 18.)
        const rowK = lin.rowK, chordTol = polishing ? 0 : tol;
        const phi0 = scaledNorm(lin.c, rowK, m);
        saveState(system, g, saved);
        applyStep(system, g, u);
        const mt = lin.assembleTrial(false);
        let kept = false, ratio = Infinity;
        if (mt === m) {
          const phi1 = scaledNorm(lin.cTrial, rowK, mt);
          // both tests always made (no short circuit): a comparison first made mid-drive, after
          // V8 optimised this code without its type feedback, sent it back to the interpreter
          const cut = phi1 <= CHORD_CUT * phi0, within = phi1 <= chordTol;
          if (Number.isFinite(phi1) && (cut || within)) { lin.acceptTrial(); kept = true; ratio = within ? 0 : phi1 / phi0; }
        }
        // (not kept: the current slot still holds the raw rows at the restored state, and a full step follows)
        if (!kept) restoreState(system, g, saved);
        // a warm chord that cut the residual hard may be followed by another: the old
        // factorisation is still that good here (a sweep's predicted state)
        if (ratio <= WARM_CHAIN) { chordable = warm; continue; }
        // so may one that cut it well and reaches the tolerance within WARM_CHORDS more at
        // its rate: a chord step costs a small part of a Newton step
        if (warm && ratio <= WARM_RATIO && cInf * ratio ** (1 + WARM_CHORDS) <= tol) { chordable = extended = true; continue; }
        if (ratio <= CHORD_CUT && !polishing) { warm = false; continue; }
      }
      if (polishing) return { converged: true, iterations: it };
      warm = false;
    }
    const r = fullStep(system, g, lin, saved, trust, tol, lazy);
    if (typeof r === 'string') return { converged: false, iterations: r === REJECTED ? it + 1 : it, message: r };
    chordable = r;
  }
  return { converged: false, iterations: maxIterations, message: `no convergence in ${maxIterations} iterations` };
}

const NON_FINITE = 'non-finite step';
const REJECTED = 'step rejected: no descent (a singular position, or constraints that conflict)';

/**
 * A full Newton step from the current slot: rows normalised, the minimum-norm step within
 * the trust region, backtracking on the constraint norm; the accepted trial becomes current.
 * Returns whether a chord step may follow it, or why it failed (NON_FINITE, REJECTED). Out
 * of newton, whose every call in a drive or sweep takes chord steps only: V8 optimises a
 * function after ticks in proportion to its size.
 */
function fullStep(system: System, g: Group, lin: Linear, saved: Float64Array, trust: number, tol: number, lazy: boolean): boolean | string {
  const n = g.n, L = system.lengthScale;
  const u = lin.u, uTrial = lin.uTrial, rowK = lin.rowK;
  // Row-normalise (rank decisions are then scale-free), then the step.
  const m = lin.hasJ ? lin.m : lin.assemble(true);
  lin.normalise();
  if (!lin.newtonStep(u)) return NON_FINITE;
  // (Its loops over the unknowns and rows are helpers: a loop here, entered by on-stack
  // replacement in a long chain's drag (the sparse path), was entered again at every four-bar
  // Newton step (the dense path) and deoptimised there on the other path's class, 46 times
  // a drive.)
  // Trust region: no step moves any point of the model more than about `trust`.
  let uInf = maxAbs(u, n);
  if (!Number.isFinite(uInf)) return NON_FINITE;
  if (uInf > trust) { scaleInto(u, u, n, trust / uInf); uInf = trust; }
  // Backtracking on the constraint norm.
  const phi0 = norm2(lin.c, m); // row-normalised; trial residuals are normalised alike
  saveState(system, g, saved);
  let alpha = 1, accepted = false, phi1 = Infinity;
  for (let attempt = 0; attempt < 16; attempt++) {
    scaleInto(uTrial, u, n, alpha);
    applyStep(system, g, uTrial);
    const mt = lin.assembleTrial(!lazy);
    phi1 = scaledNorm(lin.cTrial, rowK, mt);
    if (Number.isFinite(phi1) && (phi1 < phi0 * (1 - 1e-4 * alpha) || phi1 <= tol)) { accepted = true; break; }
    restoreState(system, g, saved);
    alpha /= 2;
  }
  if (!accepted) return REJECTED;
  lin.acceptTrial();
  // (and only after a small step, for a last correction far below the model's size: the
  // Jacobian moved by ~|step|/L, so the chord step's drift along the free directions,
  // ~|step|·|correction|/L, is far below the tolerance and the solution reached is the
  // minimum-norm Newton's)
  return alpha === 1 && uInf < 1e-3 * L && phi1 < 1e-2 * phi0 && phi1 < 1e-6 * L;
}

/**
 * A drag: feasible steps. Each outer iteration takes the step toward the pulls (in the
 * null space of the constraints, with the ranked damping), then restores the constraints by
 * plain Newton (minimum-norm, quadratic), and accepts the move only if the pulls' objective
 * fell; otherwise it halves the step. Iterates stay on the constraint manifold, so the
 * second-order constraint error a tangent step makes along a linkage never blocks the
 * drag, and a failed frame leaves the last feasible state. A pull the linkage cannot
 * follow further (past its reach) ends converged at the nearest reachable state.
 */
export function pulledNewton(system: System, g: Group, lin: Linear, ws: Workspace, pulls: readonly Pull[], options: SolveOptions, tol: number): NewtonResult {
  // a frame starts where the last ended, and moves little: its steps reuse factorisations
  lin.reuseFactors = true;
  const result = dragIterations(system, g, lin, ws, pulls, options, tol);
  lin.reuseFactors = false;
  return result;
}

function dragIterations(system: System, g: Group, lin: Linear, ws: Workspace, pulls: readonly Pull[], options: SolveOptions, tol: number): NewtonResult {
  const n = g.n, L = system.lengthScale;
  const maxIterations = options.maxIterations ?? 60;
  const trust = (options.trustRadius ?? 0.5) * L;
  const stepTol = 1e-10 * L;
  const restoreOptions: SolveOptions = { ...options, maxIterations: 20 };
  let iterations = 0;
  // Start feasible.
  const saved = ws.savedDrag;
  const first = newton(system, g, lin, ws.saved, restoreOptions, tol);
  iterations += first.iterations;
  if (!first.converged) return { converged: false, iterations, message: first.message ?? 'constraints do not hold' };
  // the last full step's length (Infinity: none yet, or one cut by the trust region or the line search)
  let lastMove = Infinity;
  for (let it = 0; it < maxIterations; it++) {
    if (!(lin.fresh && lin.hasJ)) lin.assemble(true);
    lin.normalise();
    const u = lin.u, uTrial = lin.uTrial;
    const step = lin.pulledStep(u, pulls, options);
    if (step === 'still') return { converged: true, iterations };
    if (step === 'nan') return { converged: false, iterations, message: 'non-finite step' };
    const obj0 = pullValue(system, pulls);
    // (loops over the unknowns in helpers, as in fullStep: this runs on both paths)
    let uInf = maxAbs(u, n);
    if (!Number.isFinite(uInf)) return { converged: false, iterations, message: 'non-finite step' };
    if (uInf <= stepTol) return { converged: true, iterations };
    const clamped = uInf > trust;
    if (clamped) { scaleInto(u, u, n, trust / uInf); uInf = trust; }
    saveState(system, g, saved);
    let alpha = 1, accepted = false;
    for (let attempt = 0; attempt < 30; attempt++) {
      scaleInto(uTrial, u, n, alpha);
      applyStep(system, g, uTrial);
      lin.fresh = false;
      const back = newton(system, g, lin, ws.saved, restoreOptions, tol);
      iterations += back.iterations;
      if (back.converged) {
        const obj1 = pullValue(system, pulls);
        if (obj1 < obj0 || (obj1 <= obj0 && alpha * uInf <= 1e3 * stepTol)) { accepted = true; break; }
      }
      restoreState(system, g, saved);
      lin.fresh = false;
      alpha /= 2;
      if (alpha * uInf <= stepTol) break;
    }
    iterations++;
    // No better feasible point along the step: the pull is as satisfied as it can be
    // (at the reach of the linkage, or converged).
    if (!accepted) return { converged: true, iterations };
    if (alpha * uInf <= stepTol) return { converged: true, iterations };
    // Two full steps in a row: when the next one, at their rate of contraction, would be
    // under the step tolerance, this one ends the drag (the step that would only confirm it
    // costs a factor solve and its refinement). The drag's steps converge superlinearly
    // (a Gauss–Newton step on a small residual), so the rate overstates the next step.
    const full = alpha === 1 && !clamped;
    if (full && lastMove < Infinity && uInf * (uInf / lastMove) <= stepTol) return { converged: true, iterations };
    lastMove = full ? uInf : Infinity;
  }
  return { converged: true, iterations, message: `pull not settled in ${maxIterations} iterations` };
}

/** out[j] = u[j]·k for j < n. */
function scaleInto(out: Float64Array, u: Float64Array, n: number, k: number): void {
  for (let j = 0; j < n; j++) out[j] = u[j] * k;
}
/** The Euclidean norm of the first m rows c[i]·rowK[i] (a residual in the last normalisation's scale). */
function scaledNorm(c: Float64Array, rowK: Float64Array, m: number): number {
  let s = 0;
  for (let i = 0; i < m; i++) { const x = c[i] * rowK[i]; s += x * x; }
  return Math.sqrt(s);
}

// (indexed loops, not for-of: newton inlines both, and an iterator's code is compiled with them)
function saveState(system: System, g: Group, saved: Float64Array): void {
  let k = 0;
  const vars = g.vars;
  for (let j = 0; j < vars.length; j++) {
    const variable = system.variables[vars[j]];
    const size = variable.kind === 'pose' ? 7 : 1;
    for (let i = 0; i < size; i++) saved[k++] = system.state[variable.offset + i];
  }
}
function restoreState(system: System, g: Group, saved: Float64Array): void {
  let k = 0;
  const vars = g.vars;
  for (let j = 0; j < vars.length; j++) {
    const variable = system.variables[vars[j]];
    const size = variable.kind === 'pose' ? 7 : 1;
    for (let i = 0; i < size; i++) system.state[variable.offset + i] = saved[k++];
  }
}
const stepBuf = new Float64Array(6);
/** Apply a scaled step u (group columns) through each variable's retraction. */
function applyStep(system: System, g: Group, u: Float64Array): void {
  const L = system.lengthScale;
  for (let i = 0; i < g.vars.length; i++) {
    const variable: Variable = system.variables[g.vars[i]];
    const c0 = g.cols[i];
    if (variable.kind === 'pose') {
      stepBuf[0] = u[c0] / L; stepBuf[1] = u[c0 + 1] / L; stepBuf[2] = u[c0 + 2] / L;
      stepBuf[3] = u[c0 + 3]; stepBuf[4] = u[c0 + 4]; stepBuf[5] = u[c0 + 5];
      system.retractVariable(variable, stepBuf, 0);
    } else {
      system.state[variable.offset] += u[c0] / variable.scale;
    }
  }
}
