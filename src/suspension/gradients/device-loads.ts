/**
 * Q̇ along (q̇, e_k) of the force elements the load gradients (load-sensitivity.ts) add
 * beside springs and dampers between two points: an anti-roll bar's torsional rate (a
 * bushing between two frames the template builds from hardpoints, device-forces.ts) and a
 * torsion bar (a spring on a hinge's angle coordinate, template.ts / device-forces.ts).
 * Each by its own code: the bushing's dual code in tangent mode, its frames' origin and axes
 * moving with the hardpoints that define them; the torsion bar's exact K times its
 * coordinate's rate (its free angle, preload/rate, does not depend on the hardpoints).
 */
import { withTangents, type TangentSeeds } from '../../../kernel/dual';
import type { ForceSet } from '../../../kernel/forces';
import type { System } from '../../../kernel/system';
import { normalizeRate } from '../../../kernel/vec3';
import { BushingForce, CoordinateSpringForce } from '../../../mates/forces';
import { SensitivityError, type SensitivityContext } from './types';
import { leastTurnAxesRate } from './bar-axis';

/** A local vector as a weighted sum of hardpoints (weight, hardpoint index). */
type Terms = readonly (readonly [number, number])[];

/** An anti-roll bar's bushing: both frames at `origin`, their x axis along `axis` (device-forces.ts). */
export interface BarBushing {
  index: number;
  block: BushingForce;
  origin: Terms;
  axis: Terms;
  /** The axis vector at design (its length scales the unit axis's rate). */
  axisValue: number[];
}

/**
 * The anti-roll bar's bushing of an axle (element `arb`): the hardpoints its frames come
 * from; refused by name when it is not one the template builds.
 */
export function barBushing(model: SensitivityContext, id: string, index: number, block: BushingForce): BarBushing {
  const d = model.geometry.devices;
  const j = (name: string) => {
    const i = model.hardpointNames.indexOf(name);
    if (i < 0) throw new SensitivityError(`sensitivity --loads: ${id}: no hardpoint ${name}`);
    return i;
  };
  const bar = (origin: Terms, axis: Terms): BarBushing => {
    const value = (i: number, c: number) => {
      const [group, name] = model.hardpointNames[i].split('.');
      const g = model.geometry;
      return (group === 'center' ? g.center! : g.corners.find((k) => k.side === group)!.hardpoints)[name][c];
    };
    const axisValue = [0, 1, 2].map((c) => axis.reduce((acc, [w, i]) => acc + w * value(i, c), 0));
    return { index, block, origin, axis, axisValue };
  };
  if (id === 'arb' && d?.anti_roll === 'u_bar') {
    // origin arb_u_bar_axis_a, x along axis_b − axis_a
    const a = j('center.arb_u_bar_axis_a'), b = j('center.arb_u_bar_axis_b');
    return bar([[1, a]], [[1, b], [-1, a]]);
  }
  if (id === 'arb' && d?.anti_roll === 't_bar') {
    // origin the pivot, x along the stem: crossbar midpoint (mean of the droplink ends) − pivot
    const p = j('center.arb_t_bar_pivot'), l = j('left.droplink_t_bar'), r = j('right.droplink_t_bar');
    return bar([[1, p]], [[0.5, l], [0.5, r], [-1, p]]);
  }
  throw new SensitivityError(`sensitivity --loads: ${id} (bushing) is not an anti-roll bar's: not in the load gradients`);
}

/** Rate of a weighted sum of hardpoints along e_k. */
function termsRate(terms: Terms, k: number): number[] {
  const out = [0, 0, 0];
  for (const [w, j] of terms) if (k >= 3 * j && k < 3 * j + 3) out[k - 3 * j] += w;
  return out;
}

/**
 * The rates of the three axes (columns of the rotation) of the template's frame with x along
 * `x` when x moves at ẋ: Builder.frame's quaternion (1 + u_x, 0, −u_z, u_y), u = x/|x|,
 * through kernel/quat.ts toMatrix, differentiated by hand (value, rate pairs).
 */
export function frameAxesRate(x: readonly number[], xd: readonly number[]): number[][] {
  const l = Math.hypot(x[0], x[1], x[2]);
  const u = x.map((c) => c / l);
  const ud = normalizeRate(new Float64Array(3), x, xd);
  const w = 1 + u[0], y = -u[2], z = u[1];
  const wd = ud[0], yd = -ud[2], zd = ud[1];
  const n2 = w * w + y * y + z * z, s = 2 / n2;
  // at (or next to) −x the builder's spin about x jumps with the side the axis leaves by: a least turn instead (bar-axis-rate.ts)
  if (n2 < 1e-12) return leastTurnAxesRate(u, ud);
  const sd = (-2 * 2 * (w * wd + y * yd + z * zd)) / (n2 * n2);
  // d(a b s) = (ȧ b + a ḃ) s + a b ṡ
  const prod = (a: number, ad: number, b: number, bd: number) => (ad * b + a * bd) * s + a * b * sd;
  const R = [
    -prod(y, yd, y, yd) - prod(z, zd, z, zd), -prod(w, wd, z, zd), prod(w, wd, y, yd),
    prod(w, wd, z, zd), -prod(z, zd, z, zd), prod(y, yd, z, zd),
    -prod(w, wd, y, yd), prod(y, yd, z, zd), -prod(y, yd, y, yd),
  ];
  return [0, 1, 2].map((c) => [R[c], R[3 + c], R[6 + c]]);
}

/** acc += Q̇ of an anti-roll bar's bushing along (q̇, e_k): its dual code in tangent mode. */
export function barBushingRate(acc: Float64Array, bar: BarBushing, forces: ForceSet, sys: System, qd: Float64Array, k: number): void {
  const slots = forces.slotsOf(bar.index), blk = bar.block;
  const od = termsRate(bar.origin, k), xd = termsRate(bar.axis, k);
  const moves = od.some((c) => c !== 0) || xd.some((c) => c !== 0);
  const inner = blk;
  // a local axis p moves at ṗ = ω × p with ω = p × ṗ (p unit, ṗ ⊥ p); the origin at ȯ
  let turns: Map<ArrayLike<number>, number[]> | null = null;
  if (moves) {
    const rates = frameAxesRate(bar.axisValue, xd);
    turns = new Map();
    for (const axes of [inner.axesA, inner.axesB]) axes.forEach((p, i) => {
      const pd = rates[i];
      turns!.set(p, [p[1] * pd[2] - p[2] * pd[1], p[2] * pd[0] - p[0] * pd[2], p[0] * pd[1] - p[1] * pd[0], 0, 0, 0]);
    });
  }
  const seeds: TangentSeeds = {
    pose: (col) => (col < 12 && slots[col] >= 0 ? qd.subarray(slots[col], slots[col] + 6) : null),
    local: (_col, p, isPoint) => {
      if (!turns) return null;
      if (isPoint) return p === blk.originA || p === blk.originB ? [0, 0, 0, od[0], od[1], od[2]] : null;
      return turns.get(p) ?? null;
    },
    scalar: () => 0,
  };
  const localV = new Float64Array(12), localQ = new Float64Array(12), localK = new Float64Array(144);
  // the full pass (K asked for): the values-only twin seeds no columns, so carries no tangents
  const duals = withTangents(seeds, () => { blk.evaluate(sys.state, forces.offsetsOf(bar.index), localV, 0, localQ, localK, null); return blk.duals(); });
  for (let i = 0; i < slots.length; i++) if (slots[i] >= 0) acc[slots[i]] += duals[i].t ? duals[i].t!.v : 0;
}

/**
 * acc += Q̇ of a spring on a coordinate (a torsion bar) along (q̇, e_k): its own K (exact,
 * constant) times the coordinate's rate; at rest the damping term is zero.
 */
export function coordinateSpringRate(acc: Float64Array, index: number, block: CoordinateSpringForce, forces: ForceSet, sys: System, qd: Float64Array): void {
  const slot = forces.slotsOf(index)[0];
  if (slot < 0) return;
  const Q = new Float64Array(1), K = new Float64Array(1);
  block.evaluate(sys.state, forces.offsetsOf(index), new Float64Array(1), 0, Q, K, null);
  acc[slot] += K[0] * qd[slot];
}
