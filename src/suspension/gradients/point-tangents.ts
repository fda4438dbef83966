/**
 * Second-order point duals along a hardpoint coordinate: while a state is evaluated along
 * motions q̇_j (the dual's columns), every point's tangent (.t) is its derivative along p_k,
 * the state moving at q̇_k and each motion changing by q̇_j' (docs/sensitivity.md, "Derivatives").
 * A point at l on a part moves at p' = R(ω_k × l + v_k + l') and its rate along j,
 * R(ω_j × l + v_j), at R(ω_k × (ω_j × l + v_j) + ω_j' × l + ω_j × l' + v_j'), with l' its own
 * move as a hardpoint. Shared by the `deriv_*` metrics (derivatives.ts) and the K&C
 * coefficients' hardpoint gradients (compliance/coefficient-rates.ts), which differ only in
 * where q̇_j and q̇_j' come from.
 */
import { DualVec3, withTangents, type TangentSeeds } from '../../../kernel/dual';
import { toMatrix } from '../../../kernel/quat';
import type { SuspensionModel } from '../build/model';
import type { SensitivityContext } from './types';
import { shareRates, termWorld } from './rod-fraction';

const NO_SEEDS: TangentSeeds = { pose: () => null, local: () => null, scalar: () => 0 };

type PointHook = NonNullable<SuspensionModel['explicitPointRate']>;

/** The point hook of one coordinate k (k < 0: a direction that moves no point): q̇_k = qk, the motions `dirs` and their rates `dirDots` (tangent layout `layout`). */
export function pointTangentHook(model: SensitivityContext, layout: Int32Array, qk: Float64Array, k: number, dirs: readonly Float64Array[], dirDots: readonly Float64Array[]): PointHook {
  const sys = model.sm.model.system;
  const R = new Float64Array(9), lr = new Float64Array(3);
  const cross = (a: ArrayLike<number>, b: ArrayLike<number>) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const slice = (q: Float64Array, c0: number, a: number) => (c0 >= 0 ? [q[c0 + a], q[c0 + a + 1], q[c0 + a + 2]] : [0, 0, 0]);
  return (pt, term, n) => {
    const c0 = layout[term.variable];
    toMatrix(R, sys.state, sys.variables[term.variable].offset + 3);
    const rot = (v: number[]) => [0, 1, 2].map((i) => R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2]);
    const l = term.local;
    const ld = model.localRate(lr, term.variable, l, k);
    const wk = slice(qk, c0, 0), vk = slice(qk, c0, 3);
    const t = (pt.t ??= new DualVec3(n));
    const value = rot([0, 1, 2].map((i) => cross(wk, l)[i] + vk[i] + ld[i]));
    for (let i = 0; i < 3; i++) t.v[i] += term.weight * value[i];
    // a rod share's weight moves with the points (rod-fraction.ts): its point and rates, scaled
    const share = shareRates(model, term);
    const ws = share && k >= 0 ? share.rate * share.df[k] : 0;
    if (ws !== 0) { const x = termWorld(model, term); for (let i = 0; i < 3; i++) t.v[i] += ws * x[i]; }
    dirs.forEach((q, j) => {
      const wj = slice(q, c0, 0), vj = slice(q, c0, 3), wjd = slice(dirDots[j], c0, 0), vjd = slice(dirDots[j], c0, 3);
      const body = [0, 1, 2].map((i) => cross(wj, l)[i] + vj[i]);
      const a = cross(wk, body), b = cross(wjd, l), c = cross(wj, ld);
      const dv = rot([0, 1, 2].map((i) => a[i] + b[i] + c[i] + vjd[i]));
      for (let i = 0; i < 3; i++) t.d[i * n + j] += term.weight * dv[i];
      if (ws !== 0) { const r = rot(body); for (let i = 0; i < 3; i++) t.d[i * n + j] += ws * r[i]; }
    });
  };
}

/** Run fn (an evaluation of sm) in tangent mode with `hook` giving every point its tangent. */
export function withPointTangents<T>(sm: SuspensionModel, hook: PointHook, fn: () => T): T {
  sm.explicitPointRate = hook;
  try {
    return withTangents(NO_SEEDS, fn);
  } finally {
    sm.explicitPointRate = null;
  }
}
