/**
 * The second derivatives of a length row with an end on a rod's centreline (a damper-length
 * target on the multi-link's link, length-driver.ts), which the load gradients need:
 * d(∂row/∂q)/ds along the state's motion q̇ and hardpoint coordinate k. The row is |D|,
 * D = B − A = Σ ±w_t X_t over the ends' terms; each term's point X_t (and its Jacobian) is
 * posed in tangent mode with its own local move (kernel/dual.ts: the seeds see each point,
 * so two points on one part move apart), and its weight's rate (rod-fraction.ts) adds
 * ẇ·X_t and ẇ·∂X_t/∂q. Then d(uᵀ∂D/∂q)/ds = u̇ᵀ∂D/∂q + uᵀ d(∂D/∂q)/ds, u̇ = (Ḋ − u(u·Ḋ))/|D|.
 */
import { DualVec3, dvPosePoint, withTangents, type TangentSeeds } from '../../../kernel/dual';
import type { SensitivityContext } from './types';
import type { LengthBlock } from '../build/targets';
import { shareRates } from './rod-fraction';

export function rodLengthRowRate(model: SensitivityContext, blk: LengthBlock, layout: Int32Array, qd: Float64Array, k: number): { v: number; t: { d: Float64Array } }[] {
  const sys = model.sm.model.system;
  const ld = blk.vars.length * 6;
  const D = [0, 0, 0], Dd = [0, 0, 0];
  const J = new Float64Array(3 * ld), Jd = new Float64Array(3 * ld);
  const lr = new Float64Array(3);
  const x = new DualVec3(6);
  for (const [expr, sign] of [[blk.exprA, -1], [blk.exprB, 1]] as const) {
    for (const t of expr) {
      const gc = layout[t.variable];
      model.localRate(lr, t.variable, t.local, k);
      const seeds: TangentSeeds = {
        pose: () => (gc >= 0 ? qd.subarray(gc, gc + 6) : null),
        local: () => [0, 0, 0, lr[0], lr[1], lr[2]],
        scalar: () => 0,
      };
      withTangents(seeds, () => dvPosePoint(x, sys.state, sys.variables[t.variable].offset, t.local, 0));
      const share = shareRates(model, t);
      const wd = share ? share.rate * share.df[k] : 0;
      const w = sign * t.weight, ws = sign * wd;
      const col0 = blk.vars.indexOf(t.variable) * 6;
      const xt = x.t!;
      for (let i = 0; i < 3; i++) {
        D[i] += w * x.v[i];
        Dd[i] += w * xt.v[i] + ws * x.v[i];
        for (let c = 0; c < 6; c++) {
          J[i * ld + col0 + c] += w * x.d[i * 6 + c];
          Jd[i * ld + col0 + c] += w * xt.d[i * 6 + c] + ws * x.d[i * 6 + c];
        }
      }
    }
  }
  const l = Math.hypot(D[0], D[1], D[2]);
  const u = D.map((c) => c / l);
  const along = u[0] * Dd[0] + u[1] * Dd[1] + u[2] * Dd[2];
  const ud = Dd.map((c, i) => (c - u[i] * along) / l);
  const d = new Float64Array(ld);
  for (let c = 0; c < ld; c++) for (let i = 0; i < 3; i++) d[c] += ud[i] * J[i * ld + c] + u[i] * Jd[i * ld + c];
  return [{ v: l - blk.target, t: { d } }];
}
