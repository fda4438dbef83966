/**
 * A point on a rod's centreline, (1 − f)·A + f·B (the multi-link's damper end on a link).
 * The template derives f from the hardpoints: the authored point S projected on the rod,
 * f = (S − A)·(B − A)/|B − A|², so f moves with A, B and S. Each term's weight moves with it
 * (model.ts `rodShare`: d(weight)/df = ∓1), so a term adds d(weight)/dp_k · X to the point's
 * move, X the term's world point now (and, along a motion, its rate).
 */
import * as Pose from '../../../kernel/pose';
import type { PointRole } from '../build/roles';
import { rodShare } from '../build/point-terms';
import { fractionSource } from '../build/template';
import { SensitivityError, type SensitivityContext } from './types';

type RodRole = Exclude<PointRole, string>;
type Term = { variable: number; local: ArrayLike<number>; weight: number };
const rates = new WeakMap<SensitivityContext, Map<RodRole, Float64Array>>();

/** df/dp over the model's parameters; zero where the fraction was given, not derived. */
export function fractionRate(model: SensitivityContext, role: RodRole): Float64Array {
  let byRole = rates.get(model);
  if (!byRole) rates.set(model, (byRole = new Map()));
  const known = byRole.get(role);
  if (known) return known;
  const P = model.parameterCount;
  const out = new Float64Array(P);
  byRole.set(role, out);
  const s = fractionSource.get(role);
  if (!s) return out;
  const [ea, eb] = role.between.map((r) => model.sm.resolveRole(r));
  if (ea.length !== 1 || eb.length !== 1) throw new SensitivityError('sensitivity: a rod point between points that are not part points');
  const a = ea[0].local, b = eb[0].local;
  const ja = model.hardpointAt(a), jb = model.hardpointAt(b), js = model.hardpointAt(s);
  const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const l2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const f = role.fraction;
  for (let c = 0; c < 3; c++) {
    // ∂f/∂S = d/|d|², ∂f/∂B = (S − A)/|d|² − 2f d/|d|², ∂f/∂A = −(∂f/∂S + ∂f/∂B)
    const gs = d[c] / l2, gb = (s[c] - a[c]) / l2 - (2 * f * d[c]) / l2;
    if (js >= 0) out[3 * js + c] += gs;
    if (jb >= 0) out[3 * jb + c] += gb;
    if (ja >= 0) out[3 * ja + c] -= gs + gb;
  }
  return out;
}

/** d(weight)/dp of a point term over the parameters, or null when its weight is fixed. */
export function shareRates(model: SensitivityContext, term: Term): { rate: number; df: Float64Array } | null {
  const share = rodShare.get(term);
  return share ? { rate: share.rate, df: fractionRate(model, share.role) } : null;
}

/** The term's world point now. */
export function termWorld(model: SensitivityContext, term: Term, out = new Float64Array(3)): Float64Array {
  const sys = model.sm.model.system;
  return Pose.applyPoint(out, sys.state, term.local, sys.variables[term.variable].offset);
}

/** out.d[i·n + base + k] += d(weight)/dp_k · X_i: a rod share's move with the points (first order). */
export function addShareRate(model: SensitivityContext, out: { d: Float64Array }, term: Term, n: number, base: number): void {
  const s = shareRates(model, term);
  if (!s) return;
  const x = termWorld(model, term);
  for (let k = 0; k < s.df.length; k++) {
    const w = s.rate * s.df[k];
    if (w !== 0) for (let i = 0; i < 3; i++) out.d[i * n + base + k] += w * x[i];
  }
}
