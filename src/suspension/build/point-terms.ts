/**
 * The terms of the model's resolved points (SuspensionModel.resolveRole): a part's local
 * point, a point on a rod's centreline, and the records the sensitivities follow back from
 * them to the file's hardpoints.
 */
import type { PointRole } from './roles';
import type { PointExpr } from './targets';

/** Each resolved local point's document array (the sensitivities follow it to its hardpoint). */
export const localSource = new WeakMap<object, ArrayLike<number>>();

/**
 * The terms of a point on a rod's centreline, (1 − f)·A + f·B: each term's weight moves with
 * f at rate `rate` (−A's weight, +B's), and `role` names the fraction (sensitivity.ts takes
 * df/dp when the template derived f from the hardpoints: rod-fraction.ts).
 */
export const rodShare = new WeakMap<object, { role: Exclude<PointRole, string>; rate: number }>();

/** A point on a rod's centreline as the weighted terms of its two ends (each term recorded in rodShare). */
export function betweenExpr(role: Exclude<PointRole, string>, ea: PointExpr, eb: PointExpr): PointExpr {
  const f = role.fraction;
  const share = (t: PointExpr[number], w: number, rate: number) => {
    const out = { ...t, weight: t.weight * w };
    rodShare.set(out, { role, rate: t.weight * rate });
    return out;
  };
  return [...ea.map((t) => share(t, 1 - f, -1)), ...eb.map((t) => share(t, f, 1))];
}

/** A copy of a document point as a part-local point, its source recorded (localSource). */
export function localOf(p: ArrayLike<number>): Float64Array {
  const local = Float64Array.from(p);
  localSource.set(local, p);
  return local;
}
