/**
 * Stage 4 of a gradient run: how the start moves with the parameters. The start's positions
 * (the file's start solve differentiated, or a settled start's: 'equilibrium', 'fixed'), its
 * velocities (the projection's tangent, start.ts) and, for the direct route, the first
 * columns: [M Jᵀ; J 0][v̇₀'; λ₀'] = [−(R_p + (H − K)q₀' + (∂g/∂v − C)v₀'); −(Wq q₀' + (∂J/∂p)v̇₀)].
 */
import { LU } from '../../kernel/linalg';
import { CoordinateMotion, PointMotion } from '../../kernel/motion';
import type { Columns } from './columns';
import { DynamicSensitivityError } from './errors';
import { MinimumNormStart, startSolveMetric } from './free-start';
import type { Linearisation } from './linearisation';
import { parameterName } from './names';
import type { ParameterRows } from './parameter-rows';
import type { RunSetup } from './setup';
import { StartVelocity, startMetric } from './start';
import type { Tracker } from './trackers';

export type StartTangents = ReturnType<typeof startTangents>;

export function startTangents(s: RunSetup, pr: ParameterRows, lin: Linearisation) {
  const { dyn, doc, sim, it, system, forces, parameters, hardpoints, startMode, startRows, filePoseKept, n, m, N, P } = s;
  const { activeLambda, mask: maskRows, dropInactive } = s.rows;
  const { hp, hpOf, rowsOf, paramJTe, paramJw } = pr;
  const { J, H, K, C, Q, A, rhs, lu, rp, Wq, rowsAndCurvature, factorStart } = lin;
  // ---- the start's positions: the start solve [Φ; held file coordinates](q, p) = 0, differentiated ----
  const moving = hardpoints.filter((_, k) => hp!.movesRows(k));
  const startLU = moving.length && startMode === 'file' ? startPositions() : null;
  function startPositions(): { solve(x: Float64Array): void; solveTransposed(x: Float64Array): void } {
    const names = moving.map((h) => `"${parameterName(h.p)}"`).join(', ');
    // the file's coordinate values the start solve held (prepareSimulation): not held by the file, not driven; a point
    // motion's row is one of Φ (its second solve must have left those values where they were: checked below)
    const driven = new Set(sim.drivers.flatMap((d) => (d.block instanceof CoordinateMotion ? [d.block.vars[0]] : [])));
    const placed: number[] = [];
    for (const [name, value] of Object.entries(doc.state)) {
      const info = dyn.model.coordinates.get(name);
      if (!info || typeof value !== 'number' || system.isHeld(info.variable) || driven.has(info.variable)) continue;
      const want = info.kind === 'angle' ? value * dyn.model.angleFactor : value;
      if (Math.abs(system.getScalar(info.variable) - want) > 1e-9 * Math.max(1, Math.abs(want))) {
        throw new DynamicSensitivityError(`gradients: ${names} move the start, but its solve could not hold "${name}" at the file's value: not supported`);
      }
      if (it.layout[info.variable] >= 0) placed.push(it.layout[info.variable]);
    }
    const ma = startRows.length, free = n - ma - placed.length;
    if (free < 0) throw new DynamicSensitivityError(`gradients: ${names} move the mates, but the start's rows and the file's coordinates over-determine its pose: not supported`);
    rowsAndCurvature(null);
    if (free > 0) {
      // the start solve takes the least move from the file's pose (sensitivity-free-start.ts): differentiable so when the
      // pose satisfied the rows as the file gave it (no move made), and with no second solve after it (a point motion's)
      const left = `the file's coordinates leave the start pose ${free} degree(s) of freedom`;
      if (sim.drivers.some((d) => d.block instanceof PointMotion)) throw new DynamicSensitivityError(`gradients: ${names} move the mates, ${left}, and a point motion's second start solve places it: not supported (give them in "state")`);
      if (!filePoseKept) throw new DynamicSensitivityError(`gradients: ${names} move the mates, ${left}, and the file's pose does not satisfy them (the start solve moved it, along a path its derivative would depend on): give those coordinates in "state", or a pose that satisfies the mates`);
      const k = ma + placed.length, S = new Float64Array(k * n);
      startRows.forEach((r, kk) => S.set(J.subarray(r * n, (r + 1) * n), kk * n));
      placed.forEach((c, kk) => { S[(ma + kk) * n + c] = 1; });
      try { return new MinimumNormStart(S, k, n, startSolveMetric(system, it.layout, n)); } catch {
        throw new DynamicSensitivityError(`gradients: ${names} move the mates, but the start's rows and the file's coordinates are dependent (singular start solve)`);
      }
    }
    // the independent rows (the start's active set) and the held coordinates
    const S = new Float64Array(n * n);
    startRows.forEach((r, k) => S.set(J.subarray(r * n, (r + 1) * n), k * n));
    placed.forEach((c, k) => { S[(ma + k) * n + c] = 1; });
    const f = new LU(n);
    if (!f.factor(S, n, 1e-13)) throw new DynamicSensitivityError(`gradients: ${names} move the mates, but the start pose is not fixed by them and the file's coordinates (singular start solve)`);
    return f;
  }

  const startVelocityAt = (v: Float64Array): StartVelocity | null => {
    if ((!startLU && !startQ) || v.every((x) => x === 0)) return null;
    const { W, vhat, Vhat } = startMetric(dyn, it.layout, n);
    rowsAndCurvature(null);
    const sv0 = new StartVelocity(n, m, Float64Array.from(J), W, vhat, v, Vhat);
    rowsAndCurvature(sv0.e, v);
    sv0.curvature(H, Wq!);
    return sv0;
  };
  const conW = new Float64Array(m), phiP = new Float64Array(m), q0 = new Float64Array(n);
  const startS = new Float64Array(n), startJpe = new Float64Array(n), startJpv = new Float64Array(m);
  /**
   * Parameter j's start tangents into q0 and v0p: q₀' (a settled start's, or the file's start solve's −S⁻¹[Φ_p; 0] with
   * `phi` its Φ_p) and v₀', the projection's tangent (sensitivity-start.ts). Both routes take them from here, one forward
   * solve per parameter at one state: the projection weighs given rates 1e10 times the rest, and its tangent and its
   * transpose part by up to 1e-8 of an entry where that matters (a part's pose velocity given), the same solves by none.
   */
  const startColumns = (j: number, sv0: StartVelocity | null, phi: Float64Array, v: Float64Array, t: number, q0: Float64Array, v0p: Float64Array) => {
    const k = hpOf[j];
    q0.fill(0);
    if (startQ) q0.set(startQ[j]);
    else if (k >= 0 && startLU && hp!.movesRows(k)) {
      startS.fill(0);
      startRows.forEach((r, kk) => { startS[kk] = -phi[r]; });
      startLU.solve(startS);
      q0.set(startS);
    }
    v0p.fill(0);
    // a settled start moves with every parameter (q₀'), a file's start only with the hardpoints on its rows
    if (sv0 && (startQ !== null || (k >= 0 && hp!.movesRows(k)))) {
      paramJTe(j, sv0.e, v, t, startJpe);
      paramJw(j, v, v, t, startJpv);
      sv0.tangent(q0, startJpe, startJpv, v0p);
    }
  };

  /**
   * q₀' per parameter when the start is not the file's: 'fixed' none (Φ_p must then vanish
   * there); 'equilibrium' the static balance −Q(q, 0) + Jᵀλ = 0, Φ = 0 differentiated,
   * [H − K, Jᵀ; J, 0][q₀'; λ'] = −[∂/∂p of the balance; Φ_p] (the step's own H and K at rest).
   */
  function settledStart(): Float64Array[] {
    const out = parameters.map(() => new Float64Array(n)), zero = new Float64Array(n);
    // the balance's multipliers: λ₀ of a start at rest; a start already moving (or accelerating: a motion's rate or
    // acceleration at t = 0) has dynamic ones, so the static ones are solved: [M Jᵀ; J 0][v̇; λ] = [Q(q, 0); 0], v̇ = 0 there
    let lamEq = activeLambda();
    if (startMode === 'equilibrium' && (it.v.some((x) => x !== 0) || it.drivers.some((d) => d.acceleration() !== 0))) {
      factorStart();
      forces.assemble(zero, it.t, Q, null, null);
      rhs.fill(0);
      for (let i = 0; i < n; i++) rhs[i] = Q[i];
      lu.solve(rhs);
      lamEq = Float64Array.from(rhs.subarray(n));
      maskRows(lamEq);
    }
    rowsAndCurvature(lamEq);
    forces.assemble(zero, it.t, Q, K, C);
    A.fill(0);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * N + j] = H[i * n + j] - K[i * n + j];
    for (let r = 0; r < m; r++) for (let c = 0; c < n; c++) { A[(n + r) * N + c] = J[r * n + c]; A[c * N + n + r] = J[r * n + c]; }
    const hold = startMode === 'equilibrium' ? s.options.startHold : undefined;
    if (hold) {
      const Kh = new Float64Array(n * n);
      hold(Kh);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * N + j] -= Kh[i * n + j];
    }
    dropInactive(A, N);
    const f = new LU(N);
    if (startMode === 'equilibrium' && !f.factor(A, N, 1e-13)) throw new DynamicSensitivityError('gradients: the start equilibrium is not isolated (its tangent stiffness is singular)');
    for (let j = 0; j < P; j++) {
      rp.fill(0); phiP.fill(0);
      rowsOf(j, lamEq, zero, zero, it.t, rp, phiP, null);
      maskRows(phiP);
      if (startMode === 'fixed') {
        const worst = Math.max(0, ...phiP.map(Math.abs));
        if (worst > 1e-9) throw new DynamicSensitivityError(`gradients: "${parameterName(parameters[j])}" moves the constraints at the start (|Φ_p| = ${worst.toExponential(2)}), which a fixed start cannot follow`);
        continue;
      }
      for (let i = 0; i < n; i++) rhs[i] = -rp[i];
      for (let r = 0; r < m; r++) rhs[n + r] = -phiP[r];
      f.solve(rhs);
      out[j].set(rhs.subarray(0, n));
    }
    return out;
  }

  const startQ = startMode === 'file' ? null : settledStart();
  return { startLU, startQ, startVelocityAt, startColumns, q0, conW, phiP };
}

/**
 * The direct route's first columns (q₀', v₀', v̇₀' = a₀') and the multipliers' λ₀' of the
 * tracked rows; on R³ × SO(3) then turned into the scheme's own (η₀', η̇₀', a₀'), svB keeping v₀'.
 */
export function directStart(s: RunSetup, pr: ParameterRows, lin: Linearisation, st: StartTangents, trackers: readonly Tracker[], lamAll: Float64Array | null, cols: Columns): void {
  const { it, system, n, m, P, pm } = s;
  const { activeLambda, mask: maskRows } = s.rows;
  const { rowsOf, terms, curved } = pr;
  const { rhs, lu, rp, Wq, HK, GC, factorStart, startCurvature } = lin;
  const { startVelocityAt, startColumns, q0, conW, phiP } = st;
  const { sq, sv, svd, sa, svB } = cols;
  if (!curved) {
    // the start: [M Jᵀ; J 0][v̇'; λ'] = [−R_p; 0]
    factorStart();
    for (let j = 0; j < P; j++) {
      rp.fill(0);
      terms[j](rp, it.v, it.vdot, it.t, activeLambda(), null);
      rhs.fill(0);
      for (let i = 0; i < n; i++) rhs[i] = -rp[i];
      lu.solve(rhs);
      for (let i = 0; i < n; i++) { svd[i * P + j] = rhs[i]; sa[i * P + j] = rhs[i]; }
      for (const tr of trackers) if (tr.lambdaRow >= 0) tr.lamP[j] = rhs[n + tr.lambdaRow];
      if (lamAll) for (let r = 0; r < m; r++) lamAll[r * P + j] = rhs[n + r];
    }
  } else {
    // q₀' = −S⁻¹[Φ_p; 0]; v₀' by the projection's derivative (sensitivity-start.ts);
    // [M Jᵀ; J 0][v̇₀'; λ₀'] = [−(R_p + (H − K)q₀' + (∂g/∂v − C)v₀'); −(Wq q₀' + (∂J/∂p)v̇₀)]
    const sv0 = startVelocityAt(it.v);
    startCurvature(it.v, it.vdot, activeLambda(), it.t, sv0 !== null);
    const v0p = new Float64Array(n);
    for (let j = 0; j < P; j++) {
      conW.fill(0); rp.fill(0); phiP.fill(0);
      rowsOf(j, activeLambda(), it.v, it.vdot, it.t, rp, phiP, conW);
      maskRows(phiP); maskRows(conW);
      startColumns(j, sv0, phiP, it.v, it.t, q0, v0p);
      for (let i = 0; i < n; i++) {
        let s = rp[i];
        for (let l = 0; l < n; l++) s += HK[i * n + l] * q0[l];
        if (sv0) for (let l = 0; l < n; l++) s += GC[i * n + l] * v0p[l];
        rhs[i] = -s;
      }
      for (let r = 0; r < m; r++) {
        let s = conW[r];
        for (let l = 0; l < n; l++) s += Wq![r * n + l] * q0[l];
        rhs[n + r] = -s;
      }
      lu.solve(rhs);
      for (let i = 0; i < n; i++) { sq[i * P + j] = q0[i]; sv[i * P + j] = v0p[i]; svd[i * P + j] = rhs[i]; sa[i * P + j] = rhs[i]; }
      for (const tr of trackers) if (tr.lambdaRow >= 0) tr.lamP[j] = rhs[n + tr.lambdaRow];
      if (lamAll) for (let r = 0; r < m; r++) lamAll[r * P + j] = rhs[n + r];
    }
  }
  if (!pm) return;
  svB.set(sv);
  pm.at(system.state, it.v, it.vdot);
  // η' = Pᵀ(v' − Vq δ), η̇' = Pᵀ(v̇' − Wq δ − Wη η'), a' = η̇'
  const c = new Float64Array(n * P);
  c.set(sv); pm.addColumns(c, P, pm.Vq, sq, P, P, -1);
  sv.fill(0); pm.addColumns(sv, P, pm.P, c, P, P, 1, true);
  c.set(svd); pm.addColumns(c, P, pm.Wq, sq, P, P, -1); pm.addColumns(c, P, pm.We, sv, P, P, -1);
  svd.fill(0); pm.addColumns(svd, P, pm.P, c, P, P, 1, true);
  sa.set(svd);
}
