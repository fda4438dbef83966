/**
 * A hardpoint that turns an axis (docs/sensitivity.md, "Gradients of dynamic results"): the
 * template builds a hinge's axis as direction D = to − from between two hardpoints, which a
 * mate reads as the unit d = D/|D| (and a body-fixed basis u, w across it). Moving `to` along
 * e_k turns d at ḋ = (I − d dᵀ) e_k / |D| (moving `from`, the negative): in the residual's
 * tangent mode that is the local twist ω = d × ḋ (ω × d = ḋ, as d·ḋ = 0), which turns u and w
 * with d. Their spin about d is left out: it only mixes the two rows across the axis, which
 * are zero at a solution, so the motion (and every result of it) does not see it.
 */
import type { AssemblyDoc } from '../../assembly/types';
import { normalizeRate } from '../../../kernel/vec3';

/** An axis' turn: the rate ḋ of its unit direction (local frame) per unit of the parameter. */
export interface AxisTurn { rate: readonly number[] }

const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: readonly number[], b: readonly number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * The turn of axis `entity` of `part` when hardpoint `hp` moves along `axis`: hp is the
 * axis' origin (the `from` end) or its tip (origin + direction, the `to` end); null when it
 * is neither (the direction is built some other way: not differentiated here).
 */
export function axisTurn(doc: AssemblyDoc, part: string, entity: string, hp: readonly number[], axis: 0 | 1 | 2): AxisTurn | null {
  const e = doc.parts[part]?.axes?.[entity] as { origin: readonly number[]; direction: readonly number[] } | undefined;
  if (!e) return null;
  const D = e.direction, L = Math.hypot(D[0], D[1], D[2]);
  const tip = [e.origin[0] + D[0], e.origin[1] + D[1], e.origin[2] + D[2]];
  const near = (a: readonly number[], b: readonly number[]) => a.every((v, i) => Math.abs(v - b[i]) <= 1e-9 * Math.max(1, Math.abs(v)));
  const sign = near(hp, tip) ? 1 : near(hp, e.origin) ? -1 : 0;
  if (sign === 0 || !(L > 0)) return null;
  const move = [0, 0, 0];
  move[axis] = sign;
  return { rate: Array.from(normalizeRate(new Float64Array(3), D, move)) };
}

/**
 * The local seed of a turning axis in a block: for a direction of the axis' part that is d or
 * (`across`: a mate's rows, whose other directions are the basis u, w) lies across it, the
 * twist (d × ḋ, 0); null for any other direction (a force element's own unit vectors).
 */
export function turnSeed(doc: AssemblyDoc, part: string, entity: string, turn: AxisTurn): (p: ArrayLike<number>, across: boolean) => Float64Array | null {
  const D = (doc.parts[part].axes![entity] as { direction: readonly number[] }).direction, L = Math.hypot(D[0], D[1], D[2]);
  const d = D.map((x) => x / L), w = cross(d, turn.rate);
  const twist = new Float64Array([w[0], w[1], w[2], 0, 0, 0]);
  return (p, across) => {
    const c = dot([p[0], p[1], p[2]], d) / Math.hypot(p[0], p[1], p[2]);
    return Math.abs(c - 1) <= 1e-12 || (across && Math.abs(c) <= 1e-12) ? twist : null;
  };
}
