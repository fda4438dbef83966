/**
 * Stage 5 of a gradient run: the forward pass. The integrator steps as `simulate` steps it
 * (t_k = k·h, the last step ending at the duration); after each accepted step the direct route
 * carries its columns through the step's exact linear system, the adjoint route stores the
 * step's end for the sweep back (adjoint.ts); both observe the results' extremes and crossings.
 */
import { finalStep } from '../mechanics/simulate';
import type { Columns } from './columns';
import { DynamicSensitivityError } from './errors';
import type { Linearisation } from './linearisation';
import type { ParameterRows } from './parameter-rows';
import type { ResultReader } from './result-reading';
import type { RunSetup } from './setup';
import type { Tracker } from './trackers';

/** A step's end as the adjoint sweep needs it: size, time, positions, v, v̇, λ and the Lie step y. */
export interface StoredStep { h: number; t: number; state: Float64Array; v: Float64Array; vdot: Float64Array; lambda: Float64Array; y: Float64Array; active: Uint8Array }

/** Steps the run to the end (or a crossing result's last crossing); the steps done and, on the adjoint route, every step's end. */
export function forwardPass(s: RunSetup, pr: ParameterRows, lin: Linearisation, trackers: readonly Tracker[], lamAll: Float64Array | null, cols: Columns, reader: ResultReader): { done: number; stored: StoredStep[] } {
  const { options, mode, it, system, n, m, P, pm } = s;
  const curved = pr.curved;
  const { duration, step } = options;
  const { rowOn, use: useActive, activeLambda, mask: maskRows } = s.rows;
  const { terms } = pr;
  const { J, Jr, Ad, rhs, lu, rp, rc, HK, GC, linearise, lieStep, massTimes } = lin;
  const { am, af, gamma, beta, c1 } = lin.coefficients;
  const { sq, sv, svd, sa, svB } = cols;
  const { observe } = reader;
  const y = new Float64Array(n), bq = new Float64Array(n * P), bv = new Float64Array(n * P), aPred = new Float64Array(n * P), tmp = new Float64Array(n);
  const stored: StoredStep[] = [];
  const store = (h: number, yy: Float64Array | null) => {
    stored.push({ h, t: it.t, state: Float64Array.from(system.state), v: Float64Array.from(it.v), vdot: Float64Array.from(it.vdot), lambda: Float64Array.from(activeLambda()), y: yy ? Float64Array.from(yy) : new Float64Array(n), active: Uint8Array.from(rowOn) });
  };
  if (mode === 'adjoint') store(0, null);
  // the scheme's own velocities at the start, for the Lie steps (R³ × SO(3))
  if (pm) pm.start(system.state, it.v, it.vdot);
  it.onStep = (h) => {
    // values only (no parameters: the tests' re-runs for differences): no columns to carry, no step matrix to build
    if (P === 0 && mode === 'direct') { useActive(it.activeRows()); observe(); return; }
    lieStep(y, h);
    if (mode === 'adjoint') { useActive(it.activeRows()); store(h, y); observe(); return; }
    const v = it.v, vdot = it.vdot;
    const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta), aP = 1 / (h * h * beta);
    useActive(it.activeRows());
    const lambda = activeLambda();
    linearise(h, y, v, vdot, lambda, it.t);
    for (let j = 0; j < P; j++) {
      // the parts of the new state that do not depend on dD
      for (let i = 0; i < n; i++) {
        const k = i * P + j;
        aPred[k] = (svd[k] - am * sa[k]) / (1 - am);
        bv[k] = sv[k] + h * (1 - gamma) * sa[k] + h * gamma * aPred[k];
        tmp[i] = h * (sv[k] + h * c1 * sa[k] + h * beta * aPred[k]);
      }
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += Ad[i * n + k] * sq[k * P + j] + Jr[i * n + k] * tmp[k];
        bq[i * P + j] = s;
      }
      rp.fill(0);
      if (curved) rc.fill(0);
      terms[j](rp, v, vdot, it.t, lambda, rc);
      if (curved) maskRows(rc);
      if (pm) { tmp.fill(0); pm.addColumns(tmp, 1, pm.Meta, svd.subarray(j), P, 1); } else massTimes(tmp, svd, j, P);
      for (let i = 0; i < n; i++) {
        let s = tmp[i] + rp[i];
        for (let k = 0; k < n; k++) s += GC[i * n + k] * bv[k * P + j] + HK[i * n + k] * bq[k * P + j];
        rhs[i] = -s / betaP;
      }
      for (let r = 0; r < m; r++) {
        let s = curved ? rc[r] : 0;
        for (let k = 0; k < n; k++) s += J[r * n + k] * bq[k * P + j];
        rhs[n + r] = -s;
      }
      lu.solve(rhs);
      // the λ columns hold λ'/β' (the dynamic rows are divided by β')
      for (const tr of trackers) if (tr.lambdaRow >= 0) tr.lamP[j] = betaP * rhs[n + tr.lambdaRow];
      if (lamAll) for (let r = 0; r < m; r++) lamAll[r * P + j] = betaP * rhs[n + r];
      for (let i = 0; i < n; i++) {
        const k = i * P + j, dD = rhs[i];
        let s = 0;
        for (let l = 0; l < n; l++) s += Jr[i * n + l] * rhs[l];
        sq[k] = bq[k] + s;
        sv[k] = bv[k] + gammaP * dD;
        svd[k] = svd[k] + betaP * dD;
        sa[k] = aPred[k] + aP * dD;
      }
    }
    if (pm) { svB.fill(0); pm.addColumns(svB, P, pm.P, sv, P, P); pm.addColumns(svB, P, pm.Vq, sq, P, P); }
    observe();
  };
  observe();
  const steps = Math.max(1, Math.round(duration / step));
  const onProgress = options.onProgress;
  if (onProgress) {
    // the forward pass's progress through the same hook (a halved step reports at its second half)
    const core = it.onStep;
    it.onStep = (h) => { core!(h); onProgress('forward', Math.min(steps, Math.floor(it.t / step + 1e-6)), steps); };
  }
  const onlyCrossings = trackers.every((tr) => tr.result.at === 'crossing');
  let done = 0;
  // simulate's clock: t_k = k·h, the last step ending exactly at the duration
  const lastStep = finalStep(duration, step, steps);
  for (let k = 1; k <= steps; k++) {
    if (!it.step(k === steps ? lastStep : step, k === steps ? duration : k * step)) throw new DynamicSensitivityError(`gradients: the step at t = ${it.t} s did not converge`);
    done = k;
    if (onlyCrossings && trackers.every((tr) => !Number.isNaN(tr.crossT))) break; // nothing later matters to a crossing time
  }
  it.onStep = null;
  return { done, stored };
}
