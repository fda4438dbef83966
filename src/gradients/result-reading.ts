/**
 * Reading a gradient run's results at the current state: each value with its gradient off the
 * forward columns (direct), its cotangent for the backward sweep (adjoint), and the running
 * extremes and crossings after every step (`observe`).
 */
import { rotationMatrix } from '../../kernel/dual';
import type { Columns } from './columns';
import { DynamicSensitivityError } from './errors';
import type { RunSetup } from './setup';
import type { Tracker } from './trackers';

export type ResultReader = ReturnType<typeof resultReader>;

export function resultReader(s: RunSetup, trackers: readonly Tracker[], lamAll: Float64Array | null, cols: Columns) {
  const { it, system, n, m, P, pm, mode } = s;
  const { sq, svB } = cols;
  const Rr = new Float64Array(9);
  const cross = (x: ArrayLike<number>, y: ArrayLike<number>) => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  /** The result's own dependence on parameter j at the current state (its point is the hardpoint): R e_c, or R(ω × e_c). */
  const explicit = (tr: Tracker, j: number, v: Float64Array): number => (tr.tension ? tr.tension.explicit(j) // at its last evaluation, this state's
    : tr.explicitAxis[j].reduce((s, { axis, w }) => s + w * explicitOne(tr, axis, v), 0));
  const explicitOne = (tr: Tracker, c: number, v: Float64Array): number => {
    rotationMatrix(Rr, system.state, tr.rv.offset + 3);
    const a = tr.result.axis, e = [0, 0, 0];
    e[c] = 1;
    if (tr.result.quantity === 'position') return Rr[a * 3 + c];
    if (tr.rc0 < 0) return 0;
    const x = cross([v[tr.rc0], v[tr.rc0 + 1], v[tr.rc0 + 2]], e);
    return Rr[a * 3] * x[0] + Rr[a * 3 + 1] * x[1] + Rr[a * 3 + 2] * x[2];
  };
  const tq = new Float64Array(n), tv = new Float64Array(n);
  const valueAndGradient = (tr: Tracker, g: Float64Array | null): number => {
    if (tr.lambdaRow >= 0) { if (g) g.set(tr.lamP); return it.lambda[tr.lambdaRow]; }
    if (tr.tension) {
      if (tr.reaction) tr.reaction.lambda = it.lambda;
      if (!g) return tr.tension.evaluate(system.state, it.v, null, null, 0, it.t);
      tq.fill(0); tv.fill(0);
      const T = tr.tension.evaluate(system.state, it.v, tq, tv, 1, it.t);
      for (let j = 0; j < P; j++) {
        let d = tr.tension.explicit(j);
        for (let i = 0; i < n; i++) d += tq[i] * sq[i * P + j] + tv[i] * svB[i * P + j];
        if (tr.reaction) { const lw = tr.reaction.lambdaWeights; for (let r = 0; r < m; r++) d += lw[r] * lamAll![r * P + j]; }
        g[j] = d;
      }
      return T;
    }
    const { result, rv, rc0 } = tr, a = result.axis, r = Rr;
    if (rv.kind !== 'pose') throw new DynamicSensitivityError(`result: "${result.part}" is not a part`);
    rotationMatrix(r, system.state, rv.offset + 3);
    const lp = tr.local;
    // body-frame ω and the point's body-frame velocity u = ω × p + v
    const w = rc0 >= 0 ? [it.v[rc0], it.v[rc0 + 1], it.v[rc0 + 2]] : [0, 0, 0];
    const u = rc0 >= 0 ? [w[1] * lp[2] - w[2] * lp[1] + it.v[rc0 + 3], w[2] * lp[0] - w[0] * lp[2] + it.v[rc0 + 4], w[0] * lp[1] - w[1] * lp[0] + it.v[rc0 + 5]] : [0, 0, 0];
    const rowOf = (x: number[]) => r[a * 3] * x[0] + r[a * 3 + 1] * x[1] + r[a * 3 + 2] * x[2];
    if (g) for (let j = 0; j < P; j++) {
      if (rc0 < 0) { g[j] = 0; } else {
        const s = (i: number, arr: Float64Array) => arr[(rc0 + i) * P + j];
        const dw = [s(0, sq), s(1, sq), s(2, sq)], dv = [s(3, sq), s(4, sq), s(5, sq)];
        if (result.quantity === 'position') {
          // x = t + R p: dx = R(δv + δω × p)
          const c = cross(dw, lp);
          g[j] = rowOf([dv[0] + c[0], dv[1] + c[1], dv[2] + c[2]]);
        } else {
          // ẋ = R u: d = R(δω × u + dω' × p + dv'), with (dω', dv') the velocity's sensitivity
          const c1 = cross(dw, u), c2 = cross([s(0, svB), s(1, svB), s(2, svB)], lp);
          g[j] = rowOf([c1[0] + c2[0] + s(3, svB), c1[1] + c2[1] + s(4, svB), c1[2] + c2[2] + s(5, svB)]);
        }
      }
      if (tr.explicitAxis[j].length) { g[j] += explicit(tr, j, it.v); rotationMatrix(r, system.state, rv.offset + 3); }
    }
    if (result.quantity === 'velocity') return rowOf(u);
    return system.state[rv.offset + a] + rowOf(lp);
  };
  /** The result's cotangent at the current state with velocities v: adds w·∂x/∂(q, v) into (cq, cv) (q perturbed on the right). */
  const addResultCotangent = (tr: Tracker, cq: Float64Array, cv: Float64Array, v: Float64Array, w: number, t: number) => {
    if (tr.tension) { tr.tension.evaluate(system.state, v, cq, cv, w, t); return; }
    const { rc0 } = tr;
    if (rc0 < 0 || w === 0) return;
    rotationMatrix(Rr, system.state, tr.rv.offset + 3);
    const a = tr.result.axis, ra = [Rr[a * 3], Rr[a * 3 + 1], Rr[a * 3 + 2]], lp = tr.local;
    const pr = cross(lp, ra); // (δω × p)·r_a = δω·(p × r_a)
    if (tr.result.quantity === 'position') {
      for (let i = 0; i < 3; i++) { cq[rc0 + i] += w * pr[i]; cq[rc0 + 3 + i] += w * ra[i]; }
      return;
    }
    const u = [v[rc0 + 1] * lp[2] - v[rc0 + 2] * lp[1] + v[rc0 + 3], v[rc0 + 2] * lp[0] - v[rc0] * lp[2] + v[rc0 + 4], v[rc0] * lp[1] - v[rc0 + 1] * lp[0] + v[rc0 + 5]];
    const ur = cross(u, ra);
    for (let i = 0; i < 3; i++) { cq[rc0 + i] += w * ur[i]; cv[rc0 + i] += w * pr[i]; cv[rc0 + 3 + i] += w * ra[i]; }
  };
  const cqB = new Float64Array(n), cvB = new Float64Array(n);
  /**
   * A result's cotangent at a stored step's end into (mq, mv): on SE(3) the body (q, v) ones; on R³ × SO(3) those of
   * (δ, η) through v = P η + Vq δ (pm.at at that state first).
   */
  const addStepCotangent = (tr: Tracker, mq: Float64Array, mv: Float64Array, v: Float64Array, w: number, t: number) => {
    if (!pm) { addResultCotangent(tr, mq, mv, v, w, t); return; }
    cqB.fill(0); cvB.fill(0);
    addResultCotangent(tr, cqB, cvB, v, w, t);
    for (let i = 0; i < n; i++) mq[i] += cqB[i];
    pm.addColumns(mq, 1, pm.Vq, cvB, 1, 1, 1, true);
    pm.addColumns(mv, 1, pm.P, cvB, 1, 1, 1, true);
  };
  /**
   * On R³ × SO(3): the start's cotangents of (δ, η, η̇, a) as those of the body (δ, v, v̇) the start's own
   * equations speak (η = Pᵀ(v − Vq δ), η̇ = a = Pᵀ(v̇ − Wq δ − Wη η)), in place (a's into v̇'s).
   */
  const startCotangentsToBody = (mq: Float64Array, mv: Float64Array, mvd: Float64Array, ma: Float64Array) => {
    const pmu = new Float64Array(n), e = new Float64Array(n);
    for (let i = 0; i < n; i++) ma[i] += mvd[i];
    pm!.addColumns(pmu, 1, pm!.P, ma, 1, 1);
    e.set(mv);
    pm!.addColumns(e, 1, pm!.We, pmu, 1, 1, -1, true);
    mv.fill(0);
    pm!.addColumns(mv, 1, pm!.P, e, 1, 1);
    pm!.addColumns(mq, 1, pm!.Wq, pmu, 1, 1, -1, true);
    pm!.addColumns(mq, 1, pm!.Vq, mv, 1, 1, -1, true);
    mvd.set(pmu); ma.fill(0);
  };
  let stepCount = 0;
  const observe = () => {
    const k = stepCount++;
    const direct = mode === 'direct';
    for (const tr of trackers) {
      const result = tr.result;
      if (result.at === 'final') continue;
      if (result.at === 'crossing') {
        if (!Number.isNaN(tr.crossT)) continue;
        const X = result.level!, x = valueAndGradient(tr, direct ? tr.curG : null);
        if (!Number.isNaN(tr.prevX) && (tr.prevX - X) * (x - X) <= 0 && x !== tr.prevX) {
          // T = t_n + h (X − x_n)/(x_{n+1} − x_n), differentiated as it stands
          const h = it.t - tr.prevT, D = x - tr.prevX, f = (X - tr.prevX) / D, prevX = tr.prevX;
          tr.crossT = tr.prevT + h * f;
          tr.crossStep = k; tr.crossPrev = (h * (X - prevX - D)) / (D * D); tr.crossCur = (-h * (X - prevX)) / (D * D);
          if (direct) for (let j = 0; j < P; j++) tr.grad[j] = h * (-tr.prevG[j] * D - (X - prevX) * (tr.curG[j] - tr.prevG[j])) / (D * D);
        }
        tr.prevX = x; tr.prevT = it.t; if (direct) tr.prevG.set(tr.curG);
        continue;
      }
      const x = tr.sign * valueAndGradient(tr, null);
      if (x > tr.best) { tr.best = x; tr.bestT = it.t; tr.bestStep = k; if (direct) valueAndGradient(tr, tr.grad); }
    }
  };
  return { explicit, valueAndGradient, addResultCotangent, addStepCotangent, startCotangentsToBody, observe };
}
