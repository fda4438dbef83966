/**
 * Suspension rates of a one-degree-of-freedom mechanism (held coordinates kept), exact by
 * the tangent of the constraint manifold (no finite differences):
 * - motion ratio: spring (or damper) travel per wheel travel, dl/dz, where z is the
 *   vertical position of a wheel point (the contact patch or the wheel centre);
 * - wheel rate: the change of the vertical force at that point per unit of its travel,
 *   K_r / (dz/dα)², with K_r the reduced stiffness (elastic, geometric, and the reactions'
 *   curvature term; src/mechanics/reduced.ts). At an equilibrium under a vertical wheel load
 *   this is d(F_wheel)/dz; ride rate is the wheel rate in series with the tyre's rate.
 */
import { pointRate, type TangentSpace } from '../../../kernel/analysis';
import { PointToPointForce } from '../../../mates/forces';
import * as P from '../../../kernel/pose';
import { splitReference } from '../../assembly/types';
import type { DynamicsModel } from '../../mechanics/build';
import { reduce } from '../../mechanics/reduced';
import { ArgumentError } from '../../../kernel/errors';

export interface Rates {
  /** d(spring length)/d(wheel z): positive when the spring extends as the wheel rises. */
  motionRatio: number | null;
  /** N/mm at the wheel point. */
  wheelRate: number;
  /** Wheel rate in series with the tyre rate (N/mm), when a tyre rate is given. */
  rideRate: number | null;
}

/**
 * Rates at the current (solved) state. `wheelPoint` is `part.point`; `spring` the id of a
 * spring, damper or springdamper element (optional); `tyreRate` N/mm (optional). Throws an
 * ArgumentError when the mechanism does not have exactly one free motion.
 */
export function suspensionRates(dyn: DynamicsModel, wheelPoint: string, options: { spring?: string; tyreRate?: number } = {}): Rates {
  const red = reduce(dyn);
  if (red.k !== 1) throw new ArgumentError('', `suspension rates need exactly one free motion (held coordinates kept), found ${red.k}`);
  const { system, model } = dyn;
  const ref = splitReference(wheelPoint)!;
  const variable = model.parts.get(ref.owner);
  const local = model.doc.parts[ref.owner]?.points?.[ref.name];
  if (variable === undefined || !local) throw new ArgumentError('wheelPoint', `no point "${wheelPoint}"`, `no point "${wheelPoint}"`);
  // the basis column as a "rates" vector (unit α) for pointRate, which reads only the layout
  const tangent: TangentSpace = { mobility: red.k, targetRank: 0, status: 'not_unique', projectionRatios: [], rates: [], layout: red.layout, size: red.size };
  const rate = new Float64Array(3);
  const n = red.N.subarray(0, red.size);
  const dz = pointRate(rate, system, tangent, n, variable, local)[2];
  const wheelRate = red.Kr[0] / (dz * dz);
  let motionRatio: number | null = null;
  if (options.spring) {
    const element = dyn.elements.find((e) => e.id === options.spring);
    if (!element || !(element.block instanceof PointToPointForce)) throw new ArgumentError('spring', `no spring, damper or springdamper "${options.spring}"`, `no spring, damper or springdamper "${options.spring}"`);
    const b = element.block;
    const ra = pointRate(new Float64Array(3), system, tangent, n, b.vars[0], b.a);
    const rb = pointRate(new Float64Array(3), system, tangent, n, b.vars[1], b.b);
    const pa = system.getPose(b.vars[0]), pb = system.getPose(b.vars[1]);
    const xa = P.applyPoint(new Float64Array(3), pa, b.a), xb = P.applyPoint(new Float64Array(3), pb, b.b);
    const d = [xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]], l = Math.hypot(d[0], d[1], d[2]);
    const dl = (d[0] * (rb[0] - ra[0]) + d[1] * (rb[1] - ra[1]) + d[2] * (rb[2] - ra[2])) / l;
    motionRatio = dl / dz;
  }
  const rideRate = options.tyreRate !== undefined ? (wheelRate * options.tyreRate) / (wheelRate + options.tyreRate) : null;
  return { motionRatio, wheelRate, rideRate };
}
